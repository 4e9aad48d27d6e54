"""The rules of Puerto Rico: setup, the round, the seven roles, legality and game end.

Every function here works on a private ``State`` (the caller clones first).  ``legal`` is the one
source of legality: ``apply_checked`` refuses anything not in it, the bot builds its buttons from
it and the policies choose from it.  After every action ``advance`` runs the automatic steps
(production, distribution, refills, round end) until someone must decide.

Section numbers (§) and ruling ids (A1-A55) refer to ``shared/rules/puerto-rico.md``; [C] is the
classic Spanish rulebook (the seed), which wins where the two disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from ..core import Event, GameOver, IllegalAction, InvalidSetup, NotYourTurn, Prompt
from ..rng import seed_state
from . import actions as A
from .actions import Action
from .buildings import OFFER_HANDLERS, PERFORMERS, compile_hooks
from .data import (
    BUILDER,
    CAPTAIN,
    CITY_SPACES,
    COLONISTS_TOTAL,
    CORN,
    CRAFTSMAN,
    DOUBLOONS_TOTAL,
    EDITIONS,
    GOODS,
    GOODS_TOTAL,
    ISLAND_SPACES,
    MAYOR,
    NGOODS,
    NTILES,
    PLANTATIONS_TOTAL,
    PROSPECTOR,
    QUARRIES_TOTAL,
    QUARRY,
    ROLES,
    SETTLER,
    TILES,
    TRADE_PRICE,
    TRADER,
    TRADING_HOUSE_CAPACITY,
    Edition,
)
from .ops import (
    END_CITY,
    END_COLONISTS,
    Events,
    draw_plantation,
    gain_vp,
    pay,
    trigger_end,
)
from .state import (
    BUILDER_PHASE,
    CAPTAIN_PHASE,
    CRAFTSMAN_PHASE,
    GAME_OVER,
    MAYOR_PHASE,
    PHASE_NAMES,
    ROLE_SELECTION,
    SETTLER_PHASE,
    STEP_ARRANGE,
    STEP_KEEP,
    STEP_PRIVILEGE,
    STEP_TURN,
    TRADER_PHASE,
    Player,
    State,
)

CATALOG = A.CATALOG
NBUILDINGS = len(CATALOG)
_CIRCLES = [b.circles for b in CATALOG]
_SIZE = [b.size for b in CATALOG]

# per-phase scratch bits in State.flags
F_CAPTAIN_LOADED = 2  # the Captain has had his privilege VP this phase (ruling A9)

# prompt kinds
P_ROLE = "role"
P_SETTLE = "settle"
P_MAYOR_PRIVILEGE = "mayor_privilege"
P_ARRANGE = "arrange"
P_BUILD = "build"
P_CRAFT_PRIVILEGE = "craft_privilege"
P_SELL = "sell"
P_SHIP = "ship"
P_KEEP = "keep"
# an offer's prompt kind is its name: "hospice", "university"

MAYOR_PLACEMENTS = ("simultaneous", "sequential")


# ----------------------------------------------------------------------------------------------
# Options and the compiled ruleset
# ----------------------------------------------------------------------------------------------


class Ruleset:
    """Everything derived from the options: edition tables, buildings in play, compiled hooks."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.edition: Edition = EDITIONS[options["edition"]]
        self.n: int = options["players"]
        self.row = self.edition.setup[self.n]
        self.sequential_mayor = options["mayor_placement"] == "sequential"
        self.buildings: tuple[int, ...] = tuple(
            A.BUILDING_INDEX[b.name] for b in self.edition.buildings
        )
        self.hooks = compile_hooks(self.buildings)
        # per catalog index, for the hot paths
        self.cost = [b.cost for b in CATALOG]
        self.column = [b.column for b in CATALOG]
        self.size = [b.size for b in CATALOG]
        self.circles = [b.circles for b in CATALOG]
        self.build_discounts = bool(self.hooks["build_discount"])
        # production buildings by good (§5)
        self.processors: list[list[int]] = [[] for _ in range(NGOODS)]
        for b in self.buildings:
            good = CATALOG[b].good
            if CATALOG[b].production and good is not None:
                self.processors[good].append(b)
        self.picks_per_round = 6 if self.n == 2 else self.n
        # role cards: ROLE action per card, and card per action code
        self.card_actions: list[Action] = []
        seen: dict[int, int] = {}
        for role in self.row.roles:
            copy = seen.get(role, 0)
            seen[role] = copy + 1
            self.card_actions.append(A.ROLE_ACTIONS[role][copy])
        self.card_of = {a.code: i for i, a in enumerate(self.card_actions)}

    def privilege(self, s: State, seat: int) -> int:
        """Size of a role privilege.  Exp. 1's Library doubles it: it will hook in here."""
        return 1


_RULESETS: dict[tuple[Any, ...], Ruleset] = {}


def ruleset(options: Mapping[str, Any]) -> Ruleset:
    key = tuple(sorted((k, str(v)) for k, v in options.items()))
    rs = _RULESETS.get(key)
    if rs is None:
        rs = _RULESETS[key] = Ruleset(options)
    return rs


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Validate options and fill defaults.  Raises :class:`InvalidSetup` with a specific code."""
    if not isinstance(options, Mapping):
        raise InvalidSetup("options_not_an_object")
    known = {"players", "edition", "expansions", "mayor_placement"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidSetup("unknown_option", option=unknown[0])
    players = options.get("players")
    if type(players) is not int:
        raise InvalidSetup("players_required", option="players")
    if not 2 <= players <= 5:
        raise InvalidSetup("bad_player_count", option="players", value=players, min=2, max=5)
    edition = options.get("edition", "classic")
    if edition not in EDITIONS:
        raise InvalidSetup("unknown_edition", option="edition", value=str(edition))
    expansions = options.get("expansions", [])
    if not isinstance(expansions, list | tuple) or any(not isinstance(e, str) for e in expansions):
        raise InvalidSetup("bad_expansions", option="expansions")
    if expansions:
        raise InvalidSetup("expansion_not_available", option="expansions", value=expansions[0])
    placement = options.get("mayor_placement", "simultaneous")
    if placement not in MAYOR_PLACEMENTS:
        raise InvalidSetup("bad_mayor_placement", option="mayor_placement", value=str(placement))
    return {
        "players": players,
        "edition": edition,
        "expansions": [],
        "mayor_placement": placement,
    }


# ----------------------------------------------------------------------------------------------
# Setup (§2)
# ----------------------------------------------------------------------------------------------


def setup(options: Mapping[str, Any], seed: int) -> State:
    if type(seed) is not int:
        raise InvalidSetup("bad_seed", option="seed")
    opts = normalize_options(options)
    rs = ruleset(opts)
    row = rs.row
    n = rs.n
    s = State()
    s.options = opts
    s.rs = rs
    s.n = n
    s.rng = seed_state(seed)
    s.governor = 0  # seat 0 is the first governor; the application seats players at random
    s.cards = list(row.roles)
    s.card_doubloons = [0] * len(s.cards)
    s.card_taken = [-1] * len(s.cards)
    s.colonist_supply = row.colonist_supply
    s.colonist_ship = row.colonist_ship
    s.vp_supply = rs.edition.vp_chips[n]
    s.quarries = row.quarries
    s.market = [0] * NBUILDINGS
    for b in rs.buildings:
        s.market[b] = CATALOG[b].copies_2p if n == 2 else CATALOG[b].copies
    s.goods = [total - row.goods_removed for total in GOODS_TOTAL]
    s.ship_cap = list(row.ships)
    s.ship_kind = [-1] * len(row.ships)
    s.ship_load = [0] * len(row.ships)
    s.deck = [total - row.plantations_removed for total in PLANTATIONS_TOTAL]
    s.discard = [0] * NGOODS
    s.bank = DOUBLOONS_TOTAL
    for seat in range(n):
        p = Player(NGOODS, NTILES, NBUILDINGS)
        p.doubloons = row.doubloons
        s.bank -= row.doubloons
        tile = row.start_tiles[seat]
        s.deck[tile] -= 1
        p.tiles[tile] = 1  # face up and unoccupied (§2.2)
        s.players.append(p)
    s.pending = [False] * n
    refill_plantations(s, None)
    advance(s, None)
    return s


def counts_fingerprint(s: State) -> dict[str, int]:
    """Totals that the rules conserve (used by --check and by load validation)."""
    total_colonists = s.colonist_supply + s.colonist_ship + sum(p.colonists() for p in s.players)
    total_goods = (
        sum(s.goods)
        + sum(sum(p.goods) for p in s.players)
        + sum(s.ship_load)
        + len(s.house)
    )
    total_plantations = (
        sum(s.deck)
        + sum(s.discard)
        + len(s.face_up)
        + sum(sum(p.tiles[:QUARRY]) for p in s.players)
    )
    return {
        "doubloons": s.bank
        + sum(s.card_doubloons)
        + sum(p.doubloons for p in s.players),
        "colonists": total_colonists,
        "goods": total_goods,
        "vp": s.vp_supply + sum(p.vp for p in s.players),
        "plantations": total_plantations,
        "quarries": s.quarries + sum(p.tiles[QUARRY] for p in s.players),
        "buildings": sum(s.market) + sum(len(p.city) for p in s.players),
    }


def expected_totals(s: State) -> dict[str, int]:
    rs: Ruleset = s.rs
    row = rs.row
    n = s.n
    return {
        "doubloons": DOUBLOONS_TOTAL,
        "colonists": row.colonist_supply + row.colonist_ship,
        "goods": sum(GOODS_TOTAL) - NGOODS * row.goods_removed,
        "vp": rs.edition.vp_chips[n],
        "plantations": sum(PLANTATIONS_TOTAL) - NGOODS * row.plantations_removed,
        "quarries": row.quarries,
        "buildings": sum(
            CATALOG[b].copies_2p if n == 2 else CATALOG[b].copies for b in rs.buildings
        ),
    }


assert COLONISTS_TOTAL >= 95 and QUARRIES_TOTAL == 8


# ----------------------------------------------------------------------------------------------
# Prompt and legality
# ----------------------------------------------------------------------------------------------


def actor(s: State) -> int:
    """The first seat the prompt names (-1 when the game is over): the simulation fast path."""
    if s.phase == GAME_OVER:
        return -1
    if s.offers:
        return int(s.offers[0][0])
    step = s.step
    if step == STEP_ARRANGE or step == STEP_KEEP:
        if step == STEP_ARRANGE and s.rs.sequential_mayor:
            return next(i for i in _clockwise(s, s.chooser) if s.pending[i])
        return s.pending.index(True)
    return s.turn


def current_prompt(s: State) -> Prompt | None:
    if s.phase == GAME_OVER:
        return None
    if s.offers:
        seat, name, _ = s.offers[0]
        return Prompt((int(seat),), str(name), False)
    if s.step == STEP_ARRANGE or s.step == STEP_KEEP:
        kind = P_ARRANGE if s.step == STEP_ARRANGE else P_KEEP
        seats = tuple(i for i in range(s.n) if s.pending[i])
        if kind == P_ARRANGE and s.rs.sequential_mayor:
            seats = (next(i for i in _clockwise(s, s.chooser) if s.pending[i]),)
        forced = len(seats) == 1 and len(legal(s, seats[0])) == 1
        return Prompt(seats, kind, forced)
    kind = _turn_kind(s)
    return Prompt((s.turn,), kind, len(legal(s, s.turn)) == 1)


def _turn_kind(s: State) -> str:
    phase = s.phase
    if phase == ROLE_SELECTION:
        return P_ROLE
    if s.step == STEP_PRIVILEGE:
        return P_MAYOR_PRIVILEGE if phase == MAYOR_PHASE else P_CRAFT_PRIVILEGE
    return {
        SETTLER_PHASE: P_SETTLE,
        BUILDER_PHASE: P_BUILD,
        TRADER_PHASE: P_SELL,
        CAPTAIN_PHASE: P_SHIP,
    }[phase]


def legal(s: State, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now (empty when it has nothing to decide)."""
    if s.phase == GAME_OVER:
        return []
    if s.offers:
        o_seat, name, _ = s.offers[0]
        return [A.OFFER_ACTIONS[str(name)], A.PASS_ACTION] if seat == o_seat else []
    step = s.step
    if step == STEP_ARRANGE:
        if not s.pending[seat]:
            return []
        if s.rs.sequential_mayor and seat != next(
            i for i in _clockwise(s, s.chooser) if s.pending[i]
        ):
            return []
        return arrange_options(s, seat)
    if step == STEP_KEEP:
        return keep_options(s, seat) if s.pending[seat] else []
    if seat != s.turn:
        return []
    phase = s.phase
    if phase == ROLE_SELECTION:
        return [a for i, a in enumerate(s.rs.card_actions) if s.card_taken[i] < 0]
    if phase == SETTLER_PHASE:
        return settler_options(s, seat)
    if phase == MAYOR_PHASE:  # STEP_PRIVILEGE
        return [A.PRIVILEGE_ACTION, A.PASS_ACTION]
    if phase == BUILDER_PHASE:
        return build_options(s, seat)
    if phase == CRAFTSMAN_PHASE:  # STEP_PRIVILEGE
        return craft_privilege_options(s)
    if phase == TRADER_PHASE:
        return sell_options(s, seat)
    if phase == CAPTAIN_PHASE:
        return load_options(s, seat)
    return []  # pragma: no cover


def _clockwise(s: State, first: int) -> list[int]:
    n = s.n
    return [(first + i) % n for i in range(n)]


# --- Settler (§4.1) ---------------------------------------------------------------------------


def settler_options(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    if sum(p.tiles) >= ISLAND_SPACES:  # full island: nothing, not even the Hacienda (§4.1)
        return []
    out: list[Action] = []
    for b, fn in s.rs.hooks["settler_options"]:
        if p.bw[b] > 0:
            fn(s, seat, out)
    seen = 0
    for kind in s.face_up:
        if not seen & (1 << kind):
            seen |= 1 << kind
            out.append(A.SETTLE_ACTIONS[kind])
    if s.quarries > 0 and (seat == s.chooser or _any_hook(s, seat, "quarry_allowed")):
        out.append(A.SETTLE_ACTIONS[QUARRY])
    if out:
        out.append(A.PASS_ACTION)
    return out


def _any_hook(s: State, seat: int, hook: str) -> bool:
    bw = s.players[seat].bw
    return any(bw[b] > 0 and fn(s, seat) for b, fn in s.rs.hooks[hook])


# --- Mayor (§4.2) -----------------------------------------------------------------------------


def _slots(p: Player) -> list[tuple[int, int]]:
    """(PLACE arg, free circles) for every place that can take a colonist now."""
    tiles, workers = p.tiles, p.workers
    out = [(k, tiles[k] - workers[k]) for k in range(NTILES) if tiles[k] > workers[k]]
    bw = p.bw
    for b in p.city:
        free = _CIRCLES[b] - bw[b]
        if free > 0:
            out.append((A.BUILDING_SLOT + b, free))
    return out


def arrange_options(s: State, seat: int) -> list[Action]:
    out = [A.AUTO_ACTION]
    for arg, _ in _slots(s.players[seat]):
        if arg < A.BUILDING_SLOT:
            out.append(A.PLACE_TILE_ACTIONS[arg])
        else:
            out.append(A.PLACE_BUILDING_ACTIONS[arg - A.BUILDING_SLOT])
    return out


def circles(p: Player) -> int:
    return sum(p.tiles) + sum(CATALOG[b].circles for b in p.city)


def empty_building_circles(p: Player) -> int:
    return sum(CATALOG[b].circles - p.bw[b] for b in p.city)


def lift_colonists(p: Player) -> None:
    """Take every colonist back to San Juan (the Mayor lets each player rearrange freely)."""
    total = p.colonists()
    p.workers = [0] * len(p.workers)
    for b in p.city:
        p.bw[b] = 0
    p.san_juan = total


def _place(p: Player, arg: int) -> None:
    p.san_juan -= 1
    if arg < A.BUILDING_SLOT:
        p.workers[arg] += 1
    else:
        p.bw[arg - A.BUILDING_SLOT] += 1


# Suggested arrangement (one click, "m.auto"): value-ordered greedy.
_PAIR_ORDER = (4, 3, 2, 1)  # coffee, tobacco, sugar, indigo: plantation + processing circle


def suggest_arrangement(s: State, seat: int) -> None:
    """Arrange ``seat``'s colonists sensibly: production pairs of the most valuable goods first,
    then violet buildings by cost, corn, quarries, and every remaining circle (the must-fill rule
    of §4.2 holds whatever the order)."""
    p = s.players[seat]
    lift_colonists(p)
    rs: Ruleset = s.rs
    for good in _PAIR_ORDER:
        for b in rs.processors[good]:
            if p.bw[b] < 0:
                continue
            while (
                p.san_juan >= 2
                and p.bw[b] < CATALOG[b].circles
                and p.workers[good] < p.tiles[good]
            ):
                _place(p, good)
                _place(p, A.BUILDING_SLOT + b)
    violets = sorted(
        (b for b in p.city if CATALOG[b].violet), key=lambda b: (-CATALOG[b].cost, b)
    )
    for b in violets:
        while p.san_juan > 0 and p.bw[b] < CATALOG[b].circles:
            _place(p, A.BUILDING_SLOT + b)
    for kind in (CORN, QUARRY):
        while p.san_juan > 0 and p.workers[kind] < p.tiles[kind]:
            _place(p, kind)
    for arg, free in _slots(p):
        for _ in range(min(free, p.san_juan)):
            _place(p, arg)


# --- Builder (§4.3, §6) -----------------------------------------------------------------------


def city_used(p: Player) -> int:
    return sum(_SIZE[b] for b in p.city)


def price(s: State, seat: int, b: int) -> int:
    """§6: cost − Builder privilege − occupied quarries (capped by column) − hook discounts,
    never below 0."""
    rs: Ruleset = s.rs
    p = s.players[seat]
    value = rs.cost[b] - min(p.workers[QUARRY], rs.column[b])
    if seat == s.chooser and s.phase == BUILDER_PHASE:
        value -= rs.privilege(s, seat)
    if rs.build_discounts:
        for hb, fn in rs.hooks["build_discount"]:
            if p.bw[hb] > 0:
                value -= fn(s, seat, b)
    return max(0, value)


def build_options(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    free = CITY_SPACES - city_used(p)
    if free <= 0:
        return []
    rs: Ruleset = s.rs
    out: list[Action] = []
    market = s.market
    bw = p.bw
    size = rs.size
    if rs.build_discounts:
        for b in rs.buildings:
            if market[b] > 0 and bw[b] < 0 and size[b] <= free and price(s, seat, b) <= p.doubloons:
                out.append(A.BUILD_ACTIONS[b])
    else:
        # the same price as price(), inlined for speed: the money plus every discount
        quarries = p.workers[QUARRY]
        budget = p.doubloons
        if seat == s.chooser:
            budget += rs.privilege(s, seat)
        cost, column = rs.cost, rs.column
        for b in rs.buildings:
            # one copy per player (§4.3); ruling A15: a large building needs 2 empty spaces,
            # since buildings may be moved in the city to make two of them adjacent ([C]).
            if (
                market[b] > 0
                and bw[b] < 0
                and size[b] <= free
                and cost[b] - (quarries if quarries < column[b] else column[b]) <= budget
            ):
                out.append(A.BUILD_ACTIONS[b])
    if out:
        out.append(A.PASS_ACTION)
    return out


# --- Craftsman (§4.4, §5) ---------------------------------------------------------------------


def production(s: State, seat: int) -> list[int]:
    """What ``seat`` can produce of each good, before the supply limit (§5)."""
    p = s.players[seat]
    out = [0] * NGOODS
    out[CORN] = p.workers[CORN]
    bw = p.bw
    for good, buildings in enumerate(s.rs.processors):
        if good == CORN:
            continue
        workers = p.workers[good]
        if workers:
            cap = 0
            for b in buildings:
                if bw[b] > 0:
                    cap += bw[b]
            out[good] = min(workers, cap)
    return out


def craft_privilege_options(s: State) -> list[Action]:
    # Ruling A11: a kind the Craftsman received this phase and still in the supply.
    out = [A.CRAFT_ACTIONS[k] for k in range(NGOODS) if s.produced & (1 << k) and s.goods[k]]
    if out:
        out.append(A.PASS_ACTION)
    return out


# --- Trader (§4.5) ----------------------------------------------------------------------------


def sell_options(s: State, seat: int) -> list[Action]:
    if len(s.house) >= TRADING_HOUSE_CAPACITY:
        return []
    goods = s.players[seat].goods
    out: list[Action] = []
    any_kind: bool | None = None
    for k in range(NGOODS):
        if goods[k]:
            if k in s.house:
                if any_kind is None:
                    any_kind = _any_hook(s, seat, "sale_any_kind")
                if not any_kind:
                    continue
            out.append(A.SELL_ACTIONS[k])
    if out:
        out.append(A.PASS_ACTION)
    return out


def sale_price(s: State, seat: int, good: int) -> int:
    value = TRADE_PRICE[good]
    if seat == s.chooser:
        value += s.rs.privilege(s, seat)
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["sale_bonus"]:
        if bw[b] > 0:
            value += fn(s, seat)
    return value


# --- Captain (§4.6) ---------------------------------------------------------------------------


def cargo_options(s: State, seat: int) -> list[Action]:
    """The formal generator of §4.6.1: the ship already holding a kind, else the empty ship(s)
    taking the most barrels (ties are a free choice, ruling A7)."""
    goods = s.players[seat].goods
    out: list[Action] = []
    kinds = s.ship_kind
    for k in range(NGOODS):
        have = goods[k]
        if not have:
            continue
        if k in kinds:
            i = kinds.index(k)
            if s.ship_load[i] < s.ship_cap[i]:
                out.append(A.SHIP_ACTIONS[k][i])
            continue
        best = 0
        empties: list[int] = []
        for i, kind in enumerate(kinds):
            if kind < 0:
                fit = min(have, s.ship_cap[i])
                if fit > best:
                    best = fit
                    empties = [i]
                elif fit == best:
                    empties.append(i)
        for i in empties:
            out.append(A.SHIP_ACTIONS[k][i])
    return out


def load_options(s: State, seat: int) -> list[Action]:
    out = cargo_options(s, seat)
    compulsory = bool(out)
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["load_options"]:
        if bw[b] > 0:
            fn(s, seat, out)
    if out and not compulsory:
        out.append(A.PASS_ACTION)  # only a violet building could load: always optional (§4.0)
    return out


def storage_allowance(s: State, seat: int) -> tuple[int, int]:
    kinds, barrels = 0, 1  # §4.6.3: one barrel, plus the warehouses
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["storage"]:
        if bw[b] > 0:
            dk, db = fn(s, seat)
            kinds += dk
            barrels += db
    return kinds, barrels


def _singles(rest: list[tuple[int, int]], barrels: int) -> list[list[tuple[int, int]]]:
    """Every way to keep exactly ``barrels`` single barrels from ``rest`` [(good, count)]."""
    if barrels == 0:
        return [[]]
    if not rest:
        return []
    (good, count), tail = rest[0], rest[1:]
    out: list[list[tuple[int, int]]] = []
    for take in range(min(count, barrels), -1, -1):
        for more in _singles(tail, barrels - take):
            out.append([(good, take), *more] if take else more)
    return out


def keep_options(s: State, seat: int) -> list[Action]:
    """The maximal sets of barrels ``seat`` may keep after loading (§4.6.3)."""
    goods = s.players[seat].goods
    kinds, barrels = storage_allowance(s, seat)
    held = [k for k in range(NGOODS) if goods[k]]
    results: dict[tuple[int, ...], None] = {}
    for whole in combinations(held, min(kinds, len(held))):
        base = [goods[k] if k in whole else 0 for k in range(NGOODS)]
        rest = [(k, goods[k]) for k in held if k not in whole]
        take = min(barrels, sum(c for _, c in rest))
        for choice in _singles(rest, take):
            kept = base[:]
            for good, count in choice:
                kept[good] += count
            results[tuple(kept)] = None
    return [A.keep_action(kept) for kept in results] or [A.keep_action(tuple(goods))]


# ----------------------------------------------------------------------------------------------
# Apply
# ----------------------------------------------------------------------------------------------

_PROMPT_ACTION_KINDS: dict[str, frozenset[int]] = {
    P_ROLE: frozenset({A.ROLE}),
    P_SETTLE: frozenset({A.SETTLE, A.HACIENDA, A.PASS}),
    P_MAYOR_PRIVILEGE: frozenset({A.PRIVILEGE, A.PASS}),
    P_ARRANGE: frozenset({A.AUTO, A.PLACE}),
    P_BUILD: frozenset({A.BUILD, A.PASS}),
    P_CRAFT_PRIVILEGE: frozenset({A.CRAFT, A.PASS}),
    P_SELL: frozenset({A.SELL, A.PASS}),
    P_SHIP: frozenset({A.SHIP, A.WHARF, A.PASS}),
    P_KEEP: frozenset({A.KEEP}),
}


def check(s: State, seat: int, action: Action) -> None:
    """Raise the specific error when ``action`` is not legal for ``seat`` now."""
    if s.phase == GAME_OVER:
        raise GameOver()
    prompt = current_prompt(s)
    assert prompt is not None
    if not isinstance(seat, int) or seat not in prompt.seats:
        raise NotYourTurn(seat=seat, expected=list(prompt.seats))
    if action in legal(s, seat):
        return
    allowed = _PROMPT_ACTION_KINDS.get(prompt.kind, frozenset({A.OFFER, A.PASS}))
    if action.kind not in allowed:
        raise IllegalAction("wrong_decision", action=action.code, expected=prompt.kind)
    raise IllegalAction(explain(s, seat, action), action=action.code)


def explain(s: State, seat: int, action: Action) -> str:
    """A machine-readable reason why a well-typed action is illegal."""
    p = s.players[seat]
    kind = action.kind
    if kind == A.ROLE:
        return "role_taken" if action.code in s.rs.card_of else "role_not_in_game"
    if kind == A.SETTLE:
        if sum(p.tiles) >= ISLAND_SPACES:
            return "island_full"
        if action.a == QUARRY:
            return "no_quarries_left" if s.quarries == 0 else "quarry_not_allowed"
        return "plantation_not_available"
    if kind == A.HACIENDA:
        return "hacienda_not_available"
    if kind == A.BUILD:
        b = action.a
        if b not in s.rs.buildings:
            return "building_not_in_game"
        if p.bw[b] >= 0:
            return "already_owned"
        if s.market[b] <= 0:
            return "sold_out"
        if CATALOG[b].size > CITY_SPACES - city_used(p):
            return "no_city_space"
        return "not_enough_doubloons"
    if kind == A.SELL:
        if p.goods[action.a] == 0:
            return "no_such_good"
        if len(s.house) >= TRADING_HOUSE_CAPACITY:
            return "trading_house_full"
        return "kind_already_in_trading_house"
    if kind == A.SHIP:
        if p.goods[action.a] == 0:
            return "no_such_good"
        if action.b >= len(s.ship_cap):
            return "no_such_ship"
        return "ship_not_allowed"
    if kind == A.WHARF:
        return "wharf_not_available"
    if kind == A.CRAFT:
        return "privilege_good_not_available"
    if kind == A.PLACE:
        return "no_free_circle"
    if kind == A.KEEP:
        return "keep_not_allowed"
    if kind == A.PASS:
        return "must_load" if s.phase == CAPTAIN_PHASE else "cannot_pass"
    return "illegal_now"


def apply_unchecked(s: State, seat: int, action: Action, ev: Events) -> None:
    """Apply a legal action in place and advance to the next decision."""
    if s.offers:
        _resolve_offer(s, action, ev)
    else:
        kind = action.kind
        phase = s.phase
        if kind == A.ROLE:
            choose_role(s, seat, action, ev)
        elif phase == SETTLER_PHASE:
            _settler_act(s, seat, action, ev)
        elif phase == MAYOR_PHASE:
            _mayor_act(s, seat, action, ev)
        elif phase == BUILDER_PHASE:
            _builder_act(s, seat, action, ev)
        elif phase == CRAFTSMAN_PHASE:
            _craftsman_act(s, seat, action, ev)
        elif phase == TRADER_PHASE:
            _trader_act(s, seat, action, ev)
        elif phase == CAPTAIN_PHASE:
            _captain_act(s, seat, action, ev)
    advance(s, ev)


def _resolve_offer(s: State, action: Action, ev: Events) -> None:
    seat, name, arg = s.offers.pop(0)
    assert isinstance(seat, int) and isinstance(name, str) and isinstance(arg, int)
    if action.kind == A.OFFER:
        OFFER_HANDLERS[name](s, seat, arg, ev)
    elif ev is not None:
        ev.append(Event("OfferDeclined", seat, {"offer": name}))


def _next_turn(s: State) -> None:
    s.turns_taken += 1
    s.turn = (s.turn + 1) % s.n
    s.flags &= F_CAPTAIN_LOADED  # clear the per-turn bits


def _passed(s: State, seat: int, ev: Events) -> None:
    if ev is not None:
        ev.append(Event("Passed", seat, {"phase": PHASE_NAMES[s.phase]}))


# --- role selection and the round (§3) ---------------------------------------------------------


def choose_role(s: State, seat: int, action: Action, ev: Events) -> None:
    card = s.rs.card_of[action.code]
    role = s.cards[card]
    coins = s.card_doubloons[card]
    s.card_doubloons[card] = 0
    s.players[seat].doubloons += coins
    s.card_taken[card] = seat
    s.card = card
    s.chooser = seat
    s.picks += 1
    if ev is not None:
        ev.append(
            Event("RoleChosen", seat, {"role": ROLES[role], "card": action.code[2:],
                                       "doubloons": coins})
        )
    _start_phase(s, role, ev)


def _start_phase(s: State, role: int, ev: Events) -> None:
    s.turn = s.chooser
    s.turns_taken = 0
    s.flags = 0
    s.step = STEP_TURN
    if role == SETTLER:
        s.phase = SETTLER_PHASE
    elif role == MAYOR:
        s.phase = MAYOR_PHASE
        if s.colonist_supply > 0:
            s.step = STEP_PRIVILEGE
        else:  # no privilege without a colonist in the supply (§4.2)
            _distribute(s, ev)
    elif role == BUILDER:
        s.phase = BUILDER_PHASE
    elif role == CRAFTSMAN:
        s.phase = CRAFTSMAN_PHASE
        _produce_all(s, ev)
    elif role == TRADER:
        s.phase = TRADER_PHASE
    elif role == CAPTAIN:
        s.phase = CAPTAIN_PHASE
        s.no_load = 0
        s.wharf_used = 0
    elif role == PROSPECTOR:
        # §4.7: no action; the privilege is one doubloon from the bank.
        pay(s, s.chooser, s.rs.privilege(s, s.chooser), "prospector", ev)
        _end_phase(s, ev)


def _end_phase(s: State, ev: Events) -> None:
    if ev is not None and s.card >= 0:
        ev.append(Event("PhaseEnded", s.chooser, {"role": ROLES[s.cards[s.card]]}))
    s.phase = ROLE_SELECTION
    s.step = STEP_TURN
    s.flags = 0


def _end_round(s: State, ev: Events) -> None:
    placed = []
    for card, taken in enumerate(s.card_taken):
        if taken < 0:
            s.card_doubloons[card] += 1
            s.bank -= 1
            placed.append(s.rs.card_actions[card].code[2:])
    s.card_taken = [-1] * len(s.cards)
    s.card = -1
    s.chooser = -1
    s.picks = 0
    if ev is not None:
        ev.append(Event("RoundEnded", None, {"round": s.round, "doubloons_on": placed}))
    if s.end_reasons:  # §7.1: the game ends after the round in which a condition happened
        s.phase = GAME_OVER
        if ev is not None:
            ev.append(Event("GameEnded", None, {"reasons": list(s.end_reasons)}))
        return
    s.governor = (s.governor + 1) % s.n
    s.round += 1
    if ev is not None:
        ev.append(Event("GovernorPassed", s.governor, {"round": s.round}))


# --- Settler ----------------------------------------------------------------------------------


def _settler_act(s: State, seat: int, action: Action, ev: Events) -> None:
    kind = action.kind
    if kind == A.SETTLE:
        tile = action.a
        p = s.players[seat]
        if tile == QUARRY:
            s.quarries -= 1
        else:
            s.face_up.remove(tile)
        p.tiles[tile] += 1
        if ev is not None:
            ev.append(
                Event(
                    "QuarryTaken" if tile == QUARRY else "PlantationTaken",
                    seat,
                    {"tile": TILES[tile], "source": "quarry_pile" if tile == QUARRY else "face_up"},
                )
            )
        for b, fn in s.rs.hooks["tile_placed"]:
            if p.bw[b] > 0:
                fn(s, seat, tile, ev)
        _next_turn(s)
    elif kind == A.PASS:
        _passed(s, seat, ev)
        _next_turn(s)
    else:
        PERFORMERS[kind](s, seat, action, ev)  # e.g. the Hacienda draw; the turn goes on


def refill_plantations(s: State, ev: Events) -> None:
    """Reveal plantations until N + 1 are face up, reshuffling the discards when the stacks run
    out (§4.1); fewer when both are exhausted."""
    reshuffled = False
    while len(s.face_up) < s.n + 1:
        tile = draw_plantation(s)
        if tile is None:
            if not sum(s.discard):
                break
            s.deck = [a + b for a, b in zip(s.deck, s.discard, strict=True)]
            s.discard = [0] * NGOODS
            reshuffled = True
            continue
        s.face_up.append(tile)
    s.face_up.sort()
    if ev is not None:
        ev.append(
            Event(
                "PlantationsRevealed",
                None,
                {"face_up": [TILES[t] for t in s.face_up], "reshuffled": reshuffled},
            )
        )


def _end_settler(s: State, ev: Events) -> None:
    for tile in s.face_up:
        s.discard[tile] += 1
    s.face_up = []
    refill_plantations(s, ev)
    _end_phase(s, ev)


# --- Mayor ------------------------------------------------------------------------------------


def _mayor_act(s: State, seat: int, action: Action, ev: Events) -> None:
    kind = action.kind
    if s.step == STEP_PRIVILEGE:
        if kind == A.PRIVILEGE:
            amount = min(s.rs.privilege(s, seat), s.colonist_supply)
            s.colonist_supply -= amount
            s.players[seat].san_juan += amount
            if ev is not None:
                ev.append(Event("ColonistGained", seat, {"target": "san_juan", "source": "supply",
                                                         "by": "mayor", "count": amount}))
        else:
            _passed(s, seat, ev)
        _distribute(s, ev)
        return
    p = s.players[seat]
    if kind == A.AUTO:
        suggest_arrangement(s, seat)
    else:
        _place(p, action.a)
    if kind == A.AUTO or p.san_juan == 0 or not _slots(p):
        s.pending[seat] = False
        if ev is not None:
            ev.append(Event("ColonistsArranged", seat, arrangement(p)))
        if not any(s.pending):
            _refill_ship(s, ev)


def arrangement(p: Player) -> dict[str, Any]:
    return {
        "tiles": {TILES[k]: p.workers[k] for k in range(NTILES) if p.tiles[k]},
        "buildings": {CATALOG[b].name: p.bw[b] for b in p.city},
        "san_juan": p.san_juan,
    }


def _distribute(s: State, ev: Events) -> None:
    """Hand the ship's colonists out one at a time from the Mayor (§4.2 step 2), then let every
    player arrange.  [C] l.192: normally everybody arranges at the same time; the order cannot
    matter, since each player only moves his own colonists.  (The sequential reading of A17 is
    the option ``mayor_placement: sequential``.)"""
    k = s.colonist_ship
    n = s.n
    shares = []
    for i, seat in enumerate(_clockwise(s, s.chooser)):
        share = k // n + (1 if i < k % n else 0)
        s.players[seat].san_juan += share
        shares.append(share)
    s.colonist_ship = 0
    if ev is not None:
        ev.append(Event("ColonistsDistributed", s.chooser, {"shares_from_mayor": shares}))
    s.step = STEP_ARRANGE
    for seat in range(n):
        p = s.players[seat]
        total = p.colonists()
        room = circles(p)
        lift_colonists(p)
        if 0 < total < room and len(_slots(p)) > 1:
            s.pending[seat] = True  # a real choice: which circles stay empty
        else:
            # no choice: fill every circle that can be filled (§4.2 must-fill rule)
            for arg, free in _slots(p):
                for _ in range(min(free, p.san_juan)):
                    _place(p, arg)
            if ev is not None and total:
                ev.append(Event("ColonistsArranged", seat, arrangement(p)))
    if not any(s.pending):
        _refill_ship(s, ev)


def _refill_ship(s: State, ev: Events) -> None:
    """§4.2 step 4: R = max(N, empty building circles of all players); a short supply triggers
    E1 and (ruling A4) every remaining colonist goes on the ship."""
    needed = max(s.n, sum(empty_building_circles(p) for p in s.players))
    moved = min(needed, s.colonist_supply)
    s.colonist_supply -= moved
    s.colonist_ship += moved
    if ev is not None:
        ev.append(Event("ColonistShipRefilled", None, {"count": moved, "needed": needed}))
    if moved < needed:
        trigger_end(s, END_COLONISTS, ev)
    _end_phase(s, ev)


# --- Builder ----------------------------------------------------------------------------------


def _builder_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if action.kind == A.PASS:
        _passed(s, seat, ev)
        _next_turn(s)
        return
    b = action.a
    p = s.players[seat]
    cost = price(s, seat, b)
    p.doubloons -= cost
    s.bank += cost
    s.market[b] -= 1
    p.bw[b] = 0  # new buildings are unoccupied (§4.3)
    p.city.append(b)
    if ev is not None:
        ev.append(Event("BuildingBuilt", seat, {"building": CATALOG[b].name, "price": cost}))
    for hb, fn in s.rs.hooks["built"]:
        if p.bw[hb] > 0:
            fn(s, seat, b, ev)
    if city_used(p) >= CITY_SPACES:  # E2, ruling A55: the 12th space, large buildings included
        trigger_end(s, END_CITY, ev)
    _next_turn(s)


# --- Craftsman --------------------------------------------------------------------------------


def _produce_all(s: State, ev: Events) -> None:
    """Each player, clockwise from the Craftsman, takes what he produces; a short supply gives
    what is left (ruling A48), so earlier players have first claim.  Production is taken for
    every player: declining it never helps the player (an engine simplification)."""
    s.produced = 0
    hooks = s.rs.hooks["produced"]
    for seat in _clockwise(s, s.chooser):
        made = production(s, seat)
        p = s.players[seat]
        received = [0] * NGOODS
        for k in range(NGOODS):
            if made[k]:
                got = min(made[k], s.goods[k])
                s.goods[k] -= got
                p.goods[k] += got
                received[k] = got
        if seat == s.chooser:
            s.produced = sum(1 << k for k in range(NGOODS) if received[k])
        if ev is not None and any(received):
            ev.append(
                Event(
                    "GoodsProduced",
                    seat,
                    {"goods": {GOODS[k]: received[k] for k in range(NGOODS) if received[k]}},
                )
            )
        for b, fn in hooks:
            if p.bw[b] > 0:
                fn(s, seat, received, ev)
    s.step = STEP_PRIVILEGE


def _craftsman_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if action.kind == A.CRAFT:
        good = action.a
        s.goods[good] -= 1
        s.players[seat].goods[good] += 1
        if ev is not None:
            ev.append(Event("PrivilegeGoodTaken", seat, {"good": GOODS[good]}))
    else:
        _passed(s, seat, ev)
    _end_phase(s, ev)


# --- Trader -----------------------------------------------------------------------------------


def _trader_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if action.kind == A.SELL:
        good = action.a
        value = sale_price(s, seat, good)
        s.players[seat].goods[good] -= 1
        s.house.append(good)
        pay(s, seat, value, "sale", None)
        if ev is not None:
            ev.append(Event("GoodSold", seat, {"good": GOODS[good], "price": value}))
    else:
        _passed(s, seat, ev)
    _next_turn(s)


def _end_trader(s: State, ev: Events) -> None:
    if len(s.house) >= TRADING_HOUSE_CAPACITY:  # §4.5: emptied only when full
        for good in s.house:
            s.goods[good] += 1
        s.house = []
        if ev is not None:
            ev.append(Event("TradingHouseEmptied", None, {}))
    _end_phase(s, ev)


# --- Captain ----------------------------------------------------------------------------------


def _captain_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if s.step == STEP_KEEP:
        _keep(s, seat, action.keep, ev)
        if not any(s.pending):
            _end_captain(s, ev)
        return
    kind = action.kind
    if kind == A.PASS:
        _passed(s, seat, ev)
        s.no_load += 1
        s.turn = (s.turn + 1) % s.n
        return
    if kind == A.SHIP:
        good, ship = action.a, action.b
        p = s.players[seat]
        count = min(p.goods[good], s.ship_cap[ship] - s.ship_load[ship])
        p.goods[good] -= count
        s.ship_kind[ship] = good
        s.ship_load[ship] += count
        if ev is not None:
            ev.append(Event("GoodsShipped", seat, {"good": GOODS[good], "count": count,
                                                   "ship": ship}))
    else:
        good = action.a
        count = PERFORMERS[kind](s, seat, action, ev)
    vp = count
    if seat == s.chooser and not s.flags & F_CAPTAIN_LOADED:
        s.flags |= F_CAPTAIN_LOADED  # ruling A9: on his first load of any kind
        vp += s.rs.privilege(s, seat)
    gain_vp(s, seat, vp, "shipping", ev)
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["loaded"]:
        if bw[b] > 0:
            fn(s, seat, good, count, ev)
    s.no_load = 0
    s.turn = (s.turn + 1) % s.n


def _start_storage(s: State, ev: Events) -> None:
    s.step = STEP_KEEP
    for seat in range(s.n):
        options = keep_options(s, seat)
        if len(options) == 1:
            _keep(s, seat, options[0].keep, ev)
        else:
            s.pending[seat] = True
    if not any(s.pending):
        _end_captain(s, ev)


def _keep(s: State, seat: int, kept: tuple[int, ...], ev: Events) -> None:
    p = s.players[seat]
    lost = [p.goods[k] - kept[k] for k in range(NGOODS)]
    for k in range(NGOODS):
        s.goods[k] += lost[k]
        p.goods[k] = kept[k]
    s.pending[seat] = False
    if ev is not None and any(lost):
        ev.append(
            Event("GoodsDiscarded", seat, {"goods": {GOODS[k]: lost[k] for k in range(NGOODS)
                                                     if lost[k]}})
        )


def _end_captain(s: State, ev: Events) -> None:
    emptied = []
    for i, cap in enumerate(s.ship_cap):  # §4.6.4: only full ships are emptied
        if s.ship_load[i] >= cap:
            s.goods[s.ship_kind[i]] += s.ship_load[i]
            s.ship_load[i] = 0
            s.ship_kind[i] = -1
            emptied.append(i)
    if ev is not None and emptied:
        ev.append(Event("ShipsEmptied", None, {"ships": emptied}))
    _end_phase(s, ev)


# ----------------------------------------------------------------------------------------------
# Advance: run automatic steps until a decision
# ----------------------------------------------------------------------------------------------


def advance(s: State, ev: Events) -> None:
    n = s.n
    while True:
        if s.offers:
            # an offer whose source ran dry in the meantime is dropped
            seat, name, _ = s.offers[0]
            if s.colonist_supply > 0 or s.colonist_ship > 0:
                return
            s.offers.pop(0)
            continue
        phase = s.phase
        if phase == GAME_OVER:
            return
        if phase == ROLE_SELECTION:
            if s.picks >= s.rs.picks_per_round:
                _end_round(s, ev)
                continue
            s.turn = (s.governor + s.picks) % n
            return
        step = s.step
        if step == STEP_ARRANGE or step == STEP_KEEP or step == STEP_PRIVILEGE:
            if phase == CRAFTSMAN_PHASE and not craft_privilege_options(s):
                _end_phase(s, ev)
                continue
            return
        if phase == CAPTAIN_PHASE:
            if s.no_load >= n:  # ruling A8: a full cycle of turns without a load
                _start_storage(s, ev)
                continue
            if load_options(s, s.turn):
                return
            s.no_load += 1
            s.turn = (s.turn + 1) % n
            continue
        if s.turns_taken >= n:
            if phase == SETTLER_PHASE:
                _end_settler(s, ev)
            elif phase == TRADER_PHASE:
                _end_trader(s, ev)
            else:
                _end_phase(s, ev)
            continue
        if phase == TRADER_PHASE and len(s.house) >= TRADING_HOUSE_CAPACITY:
            _end_trader(s, ev)  # §4.5: a full house ends the phase
            continue
        if phase == SETTLER_PHASE:
            if settler_options(s, s.turn):
                return
        elif phase == BUILDER_PHASE:
            if build_options(s, s.turn):
                return
        elif phase == TRADER_PHASE and sell_options(s, s.turn):
            return
        _next_turn(s)  # nothing to decide for this seat: its turn passes
