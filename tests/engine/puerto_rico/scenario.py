"""A scenario builder for rule tests: set up exactly the position under test.

Components given to a player are taken from their supply (goods from the goods supply, tiles from
the face-down plantations or the quarry pile, colonists from the colonist supply, buildings from
the market), so the conservation invariants keep holding.  Supplies can then be set to exact
values with ``set_*``; the difference goes to or comes from "the box" (``boxed``), which the
scenario's own invariant check accounts for.

Typical use::

    sc = Scenario(players=4)
    sc.player(0, goods={"corn": 2, "sugar": 6})
    sc.ships([(5, None, 0), (6, "corn", 3), (7, None, 0)])
    state = sc.choose("captain", seat=0)      # the real engine applies "r.captain"
    state = sc.act(state, 0, "ship.sugar.2")
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import get_game
from engine.core import Event, Prompt
from engine.puerto_rico import PUERTO_RICO, PuertoRico, invariant_failures
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import GOOD_INDEX, GOODS, NGOODS, QUARRY, TILE_INDEX
from engine.puerto_rico.ruleset import state_ruleset
from engine.puerto_rico.state import DRAFT_PHASE, ROLE_SELECTION, STEP_TURN, State

GAME: PuertoRico = PUERTO_RICO
assert get_game("puerto-rico") is GAME


class Scenario:
    game: PuertoRico = GAME
    """The game played (an edition of the kernel: 1897's scenario plays its own)."""

    def __init__(self, players: int = 4, seed: int = 0, **options: Any) -> None:
        self.state: State = self.game.setup({"players": players, **options}, seed)
        self.events: list[Event] = []
        self.boxed: dict[str, int] = {}

    # --- players ------------------------------------------------------------------------------

    def player(
        self,
        seat: int,
        *,
        doubloons: int | None = None,
        vp: int | None = None,
        goods: Mapping[str, int] | None = None,
        tiles: Mapping[str, int | tuple[int, int]] | None = None,
        buildings: Mapping[str, int] | Iterable[str] | None = None,
        san_juan: int | None = None,
        forests: Mapping[str, int] | None = None,
    ) -> Scenario:
        """Give ``seat`` exactly these components.  ``tiles`` maps a tile name to a count or to
        ``(count, occupied)``; ``buildings`` maps a building name to its colonists (or lists
        names: unoccupied).  Starting tiles are returned first when ``tiles`` is given.
        ``forests`` (Exp. 1) maps a plantation kind to the forests laid face down from it."""
        s = self.state
        p = s.players[seat]
        if doubloons is not None:
            s.bank += p.doubloons - doubloons
            p.doubloons = doubloons
        if vp is not None:
            s.vp_supply += p.vp - vp
            p.vp = vp
        if goods is not None:
            for k in range(NGOODS):
                s.goods[k] += p.goods[k]
                p.goods[k] = 0
            for name, count in goods.items():
                k = GOOD_INDEX[name]
                self._take_goods(k, count)
                p.goods[k] += count
        if tiles is not None:
            for kind, count in enumerate(p.tiles):
                self._return_tiles(kind, count)
                s.colonist_supply += p.workers[kind]
                p.tiles[kind] = 0
                p.workers[kind] = 0
            for name, spec in tiles.items():
                count, occupied = (spec, 0) if isinstance(spec, int) else spec
                kind = TILE_INDEX[name]
                self._take_tiles(kind, count)
                p.tiles[kind] = count
                p.workers[kind] = occupied
                self._take_colonists(occupied)
        if buildings is not None:
            for b in list(p.city):
                s.market[b] += 1
                s.colonist_supply += p.bw[b]
                p.bw[b] = -1
            p.city = []
            items = (
                buildings.items() if isinstance(buildings, Mapping) else ((b, 0) for b in buildings)
            )
            for name, colonists in items:
                b = BUILDING_INDEX[name]
                if s.market[b] <= 0:
                    self._box("buildings", -1)
                else:
                    s.market[b] -= 1
                p.bw[b] = colonists
                p.city.append(b)
                self._take_colonists(colonists)
        if san_juan is not None:
            s.colonist_supply += p.san_juan
            p.san_juan = san_juan
            self._take_colonists(san_juan)
        if forests is not None:
            for kind, count in enumerate(p.forests):
                self._return_tiles(kind, count)
            p.forests = [0] * NGOODS
            for name, count in forests.items():
                kind = GOOD_INDEX[name]
                self._take_tiles(kind, count)
                p.forests[kind] = count
        return self

    def board(self, names: Iterable[str]) -> Scenario:
        """Exp. 1 (a game with the ``new_buildings`` module): end the draft with exactly these
        violet buildings on the board, each with its copies (one with 2 players), as if
        drafted; the production buildings stay.  Any number per cost is accepted (two of one
        cost is what Exp. 2's red spaces allow).  Call it before giving players buildings."""
        s = self.state
        if not s.draft_left:
            raise ValueError("board() needs the new_buildings module")
        if any(CATALOG[b].violet for p in s.players for b in p.city):
            raise ValueError("board() before any player owns a violet building")
        wanted = [BUILDING_INDEX[name] for name in names]
        if any(not CATALOG[b].violet for b in wanted):
            raise ValueError("board() takes violet buildings")
        for b in s.drafted:
            s.market[b] = 0
        drafting = s.phase == DRAFT_PHASE
        s.drafted = wanted
        s.draft_left = [0] * len(s.draft_left)
        for b in wanted:
            s.market[b] = s.rs.copies[b]
        s.rs = state_ruleset(s.options, s.draft_left, s.drafted)
        if drafting:  # the game starts as after a draft (Exp. 4: the construction goal)
            s.phase, s.step, s.turn = ROLE_SELECTION, STEP_TURN, s.governor
            for _, fn in s.rs.hooks["draft_ended"]:
                fn(s, None)
        return self

    # --- supplies -----------------------------------------------------------------------------

    def set_goods_supply(self, **counts: int) -> Scenario:
        for name, count in counts.items():
            k = GOOD_INDEX[name]
            self._box("goods", self.state.goods[k] - count)
            self.state.goods[k] = count
        return self

    def set_colonists(self, supply: int | None = None, ship: int | None = None) -> Scenario:
        s = self.state
        if supply is not None:
            self._box("colonists", s.colonist_supply - supply)
            s.colonist_supply = supply
        if ship is not None:
            self._box("colonists", s.colonist_ship - ship)
            s.colonist_ship = ship
        return self

    def set_vp_supply(self, vp: int) -> Scenario:
        self._box("vp", self.state.vp_supply - vp)
        self.state.vp_supply = vp
        return self

    def set_quarries(self, count: int) -> Scenario:
        self._box("quarries", self.state.quarries - count)
        self.state.quarries = count
        return self

    def face_up(self, names: Iterable[str]) -> Scenario:
        """Make these the face-up plantations (the old ones go back to the face-down stacks)."""
        s = self.state
        for t in s.face_up:
            s.deck[t] += 1
        s.face_up = []
        for name in names:
            kind = TILE_INDEX[name]
            self._take_tiles(kind, 1)
            s.face_up.append(kind)
        s.face_up.sort()
        return self

    def stacks(self, deck: Mapping[str, int], discard: Mapping[str, int] | None = None) -> Scenario:
        """Set the face-down plantations and the discard pile by kind."""
        s = self.state
        total_before = sum(s.deck) + sum(s.discard)
        s.deck = [deck.get(name, 0) for name in GOODS]
        s.discard = [(discard or {}).get(name, 0) for name in GOODS]
        self._box("plantations", total_before - sum(s.deck) - sum(s.discard))
        return self

    def ships(self, ships: Iterable[tuple[int, str | None, int]]) -> Scenario:
        """Cargo ships as (capacity, good or None, count); goods come from the supply."""
        s = self.state
        for i, load in enumerate(s.ship_load):
            if load:
                s.goods[s.ship_kind[i]] += load
        caps, kinds, loads = [], [], []
        for cap, good, count in ships:
            caps.append(cap)
            k = -1 if good is None else GOOD_INDEX[good]
            kinds.append(k)
            loads.append(count)
            if count:
                self._take_goods(k, count)
        s.ship_cap, s.ship_kind, s.ship_load = caps, kinds, loads
        return self

    def house(self, goods: Iterable[str]) -> Scenario:
        s = self.state
        for g in s.house:
            s.goods[g] += 1
        s.house = []
        for name in goods:
            k = GOOD_INDEX[name]
            self._take_goods(k, 1)
            s.house.append(k)
        return self

    def set_bank(self, doubloons: int) -> Scenario:
        """Set the bank to exactly ``doubloons`` (the difference goes to or comes from the box)."""
        self._box("doubloons", self.state.bank - doubloons)
        self.state.bank = doubloons
        return self

    def market(self, **copies: int) -> Scenario:
        """Set the copies of these buildings left on the game board."""
        for name, count in copies.items():
            b = BUILDING_INDEX[name]
            self._box("buildings", self.state.market[b] - count)
            self.state.market[b] = count
        return self

    def festival(
        self,
        plantation: str | None = None,
        goods: Iterable[str] | None = None,
        building: str | None = None,
    ) -> Scenario:
        """Exp. 4: set the goals on the Festival board (a game set up with the ``festival``
        module); the goal tile and barrels move between the board and their supplies."""
        s = self.state
        fest = s.festival[:]  # a new list: states share it once set up
        if plantation is not None:
            s.deck[fest[0]] += 1
            kind = TILE_INDEX[plantation]
            self._take_tiles(kind, 1)
            fest[0] = kind
        if goods is not None:
            for k in fest[2:5]:
                s.goods[k] += 1
            kinds = sorted(GOOD_INDEX[g] for g in goods)
            for k in kinds:
                self._take_goods(k, 1)
            fest[2:5] = kinds
        if building is not None:
            fest[1] = BUILDING_INDEX[building]
        s.festival = fest
        return self

    def role_doubloons(self, card: str, doubloons: int) -> Scenario:
        s = self.state
        index = s.rs.card_of[f"r.{card}"]
        s.bank += s.card_doubloons[index] - doubloons
        s.card_doubloons[index] = doubloons
        return self

    # --- play ---------------------------------------------------------------------------------

    def choose(
        self,
        role: str,
        seat: int,
        *,
        governor: int | None = None,
        earlier: Iterable[str] | None = None,
    ) -> State:
        """Give ``seat`` the next pick of the round and choose ``role`` through the real engine.
        Returns the state after the role's automatic steps.

        By default ``seat`` is the Governor and this is the round's first pick.  With
        ``governor`` the round began at that seat, and each seat from the Governor up to (not
        including) ``seat``, clockwise, has already picked a role: the role cards named in
        ``earlier`` (in pick order; by default the first cards in card order other than
        ``role``).  Those picks only take their cards (and any doubloons on them); their phases
        are not played."""
        s = self.state
        governor = seat if governor is None else governor
        picks = (seat - governor) % s.n
        cards = [a.code[2:] for a in s.rs.card_actions]
        taken = [c for c in cards if c != role][:picks] if earlier is None else list(earlier)
        if len(taken) != picks or role in taken or picks >= s.rs.picks_per_round:
            raise ValueError(f"seats {governor}..{seat} need {picks} earlier picks, got {taken}")
        s.phase, s.step = ROLE_SELECTION, STEP_TURN
        s.governor, s.picks, s.turn = governor, picks, seat
        s.card, s.chooser = -1, -1
        s.card_taken = [-1] * len(s.cards)
        for i, card in enumerate(taken):
            chooser = (governor + i) % s.n
            index = s.rs.card_of[f"r.{card}"]
            s.card_taken[index] = chooser
            s.players[chooser].doubloons += s.card_doubloons[index]
            s.card_doubloons[index] = 0
        action = s.rs.card_actions[s.rs.card_of[f"r.{role}"]]
        return self.act(s, seat, self.game.encode_action(action))

    def act(self, state: State, seat: int, code: str) -> State:
        new, events = self.game.apply(state, seat, self.game.decode_action(code))
        self.events.extend(events)
        self.state = new
        return new

    def legal(self, state: State, seat: int) -> list[str]:
        return [self.game.encode_action(a) for a in self.game.legal_actions(state, seat)]

    def prompt(self, state: State) -> Prompt | None:
        return self.game.prompt(state)

    def finish_phase(self, state: State) -> State:
        """Answer every prompt of the phase in progress until the next role pick (or the game
        end): ``pass`` where it is legal, otherwise the first legal action."""
        while True:
            prompt = self.game.prompt(state)
            if prompt is None or prompt.kind == "role":
                return state
            seat = prompt.seats[0]
            codes = self.legal(state, seat)
            state = self.act(state, seat, "pass" if "pass" in codes else codes[0])

    def events_of(self, kind: str) -> list[Event]:
        """The events of that type recorded so far, oldest first."""
        return [e for e in self.events if e.type == kind]

    def invariant_failures(self, state: State) -> list[str]:
        """The engine invariants, allowing for what the scenario put in or took out of the box."""
        failures = invariant_failures(state)
        allowed = {f"conservation:{key}" for key, n in self.boxed.items() if n}
        return [f for f in failures if not any(f.startswith(a + ":") for a in allowed)]

    # --- internals ----------------------------------------------------------------------------

    def _box(self, key: str, count: int) -> None:
        self.boxed[key] = self.boxed.get(key, 0) + count

    def _take_goods(self, k: int, count: int) -> None:
        s = self.state
        taken = min(count, s.goods[k])
        s.goods[k] -= taken
        self._box("goods", taken - count)

    def _take_colonists(self, count: int) -> None:
        s = self.state
        taken = min(count, s.colonist_supply)
        s.colonist_supply -= taken
        self._box("colonists", taken - count)

    def _take_tiles(self, kind: int, count: int) -> None:
        s = self.state
        if kind == QUARRY:
            taken = min(count, s.quarries)
            s.quarries -= taken
            self._box("quarries", taken - count)
            return
        taken = min(count, s.deck[kind])
        s.deck[kind] -= taken
        self._box("plantations", taken - count)

    def _return_tiles(self, kind: int, count: int) -> None:
        if kind == QUARRY:
            self.state.quarries += count
        else:
            self.state.deck[kind] += count


def building(name: str) -> int:
    return BUILDING_INDEX[name]


assert CATALOG
