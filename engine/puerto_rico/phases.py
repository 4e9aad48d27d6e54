"""The round and the seven roles: applying a legal action and running the automatic steps.

Every function mutates the state it is given (``PuertoRico.apply`` clones first).  After each
action ``advance`` runs production, distributions, refills and the round end until a player must
decide.  Section numbers (§) and ruling ids (A1-A55) refer to ``docs/rules/puerto-rico.md``;
[C] is the classic Spanish rulebook (the seed), which wins where the two disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import sub
from typing import Any, Final

from ..core import Event, InvalidSetup
from ..rng import seed_state
from . import actions as A
from .actions import CATALOG, Action
from .buildings import (
    ANYTIME_REFUSALS,
    AUTOMATON,
    DECLINE_HANDLERS,
    EXTRA_KINDS,
    F_CHOOSER_HOSPICE,
    LOAD_VP,
    MODULE_LATE_SETUP,
    MODULE_PHASES,
    MODULE_ROLES,
    MODULE_SETUP,
    OFFER_ACTS,
    OFFER_HANDLERS,
    OFFER_VALID,
    PERFORMERS,
    island_gained,
)
from .data import (
    ALL_ROLES,
    BUILDER,
    CAPTAIN,
    CITY_SPACES,
    CORN,
    CRAFTSMAN,
    GOODS,
    GOODS_TOTAL,
    MAYOR,
    NGOODS,
    NTILES,
    PLANTATIONS_TOTAL,
    PROSPECTOR,
    QUARRY,
    SETTLER,
    TILES,
    TRADER,
    TRADING_HOUSE_CAPACITY,
)
from .legality import (
    build_options,
    circles,
    city_used,
    clockwise,
    craft_privilege_options,
    empty_building_circles,
    free_roles,
    free_slots,
    has_free_circle,
    interlude_options,
    keep_options,
    lift_colonists,
    load_options,
    place_colonist,
    price,
    receivable,
    sale_price,
    sell_options,
    settler_options,
    suggest_arrangement,
)
from .ops import (
    END_CITY,
    END_COLONISTS,
    END_VP,
    Events,
    draw_plantation,
    gain_vp,
    pay,
    recycle_discard,
    trigger_end,
)
from .ruleset import normalize_options, ruleset
from .state import (
    BUILDER_PHASE,
    CAPTAIN_PHASE,
    CRAFTSMAN_PHASE,
    F_CHOOSER_QUARRY,
    F_INTERLUDE_STORAGE,
    GAME_OVER,
    MAYOR_PHASE,
    PHASE_NAMES,
    PROSPECTOR_PHASE,
    ROLE_SELECTION,
    SETTLER_PHASE,
    STEP_ARRANGE,
    STEP_INTERLUDE,
    STEP_KEEP,
    STEP_PRIVILEGE,
    STEP_TURN,
    TRADER_PHASE,
    Player,
    State,
)

NBUILDINGS: Final = len(CATALOG)

# per-phase scratch bits in State.flags (the others are per turn, cleared by ``_next_turn``)
F_CAPTAIN_LOADED: Final = 2  # the Captain has had his privilege VP this phase (ruling A9)
F_CRAFT_PRIVILEGE: Final = 8  # the Craftsman took a privilege barrel (Exp. 1 Library: a second one)
PHASE_FLAGS: Final = F_CAPTAIN_LOADED | F_CHOOSER_QUARRY | F_CRAFT_PRIVILEGE | F_CHOOSER_HOSPICE


def setup(options: Mapping[str, Any], seed: int, game: str = "puerto-rico") -> State:
    if type(seed) is not int:
        raise InvalidSetup("bad_seed", option="seed")
    opts = normalize_options(options, game)
    rs = ruleset(opts)
    row = rs.row
    n = rs.n
    s = State()
    s.game_name = rs.edition.game
    s.options = opts
    s.rs = rs
    s.n = n
    s.rng = seed_state(seed)
    s.governor = 0  # seat 0 is the first governor; the application seats players at random
    s.cards = list(rs.cards)
    s.card_doubloons = [0] * len(s.cards)
    s.card_taken = [-1] * len(s.cards)
    s.colonist_supply = row.colonist_supply
    s.colonist_ship = row.colonist_ship
    s.vp_supply = rs.edition.vp_chips[n]
    s.quarries = row.quarries
    s.market = [0] * NBUILDINGS
    for b in rs.setup_buildings:
        s.market[b] = rs.copies[b]
    s.goods = [total - row.goods_removed for total in GOODS_TOTAL]
    s.ship_cap = list(row.ships)
    s.ship_kind = [-1] * len(row.ships)
    s.ship_load = [0] * len(row.ships)
    s.deck = [total - row.plantations_removed for total in PLANTATIONS_TOTAL]
    s.discard = [0] * NGOODS
    if rs.wharf_holds_cargo:
        s.wharf_cargo = [0] * NGOODS
    s.bank = rs.edition.doubloons
    for seat in range(n):
        p = Player(NGOODS, NTILES, NBUILDINGS)
        tile = row.start_tiles[seat]
        # 1897's alternative start: a player starting with corn gets 1 doubloon less
        p.doubloons = row.doubloons - (rs.corn_start_discount if tile == CORN else 0)
        s.bank -= p.doubloons
        if not rs.market_before_start:
            s.deck[tile] -= 1
        p.tiles[tile] = 1  # face up and unoccupied (§2.2)
        s.players.append(p)
    s.pending = [False] * n
    for module in rs.modules:  # Exp. 4 goals; before the first plantations are turned up
        module_setup = MODULE_SETUP.get(module)
        if module_setup is not None:
            module_setup(s, None)
    refill_plantations(s, None)
    if rs.market_before_start:  # 1897 (SET-5, SET-11, A-27): out of what the bag has left
        for seat in range(n):
            s.deck[row.start_tiles[seat]] -= 1
    for module in rs.modules:  # 1897 Exp. V's cards: out of what is left after that
        late_setup = MODULE_LATE_SETUP.get(module)
        if late_setup is not None:
            late_setup(s, None)
    if rs.automata:  # 1897's Puertomas: their boards, skills and tie-breaker deck (§8.4)
        AUTOMATON["setup"](s, None)
    advance(s, None)
    return s


def apply_unchecked(s: State, seat: int, action: Action, ev: Events = None) -> None:
    """Apply a legal action in place and advance to the next decision.  An action of the
    ``anytime`` hook point (1897 Exp. VI: an announcement) is performed alone: the decision
    waiting stays the one it was."""
    memo = s.legal_memo
    if memo is not None:
        s.legal_memo = None
        if action.kind == A.PLACE and memo[0] == seat and s.rs.plain_arrange:
            _place_memo(s, seat, action, memo[1], ev)
            return
    kind = action.kind
    hooked = s.rs.hooked_actions  # hook points anytime, interlude, action_done (modules)
    if hooked and kind in ANYTIME_REFUSALS:
        PERFORMERS[kind](s, seat, action, ev)
        return
    if s.offers:
        resolve_offer(s, action, ev)
    elif kind == A.ROLE:
        choose_role(s, seat, action, ev)
    elif hooked and s.step == STEP_INTERLUDE:
        _interlude_act(s, seat, action, ev)
    elif kind in EXTRA_KINDS:  # Exp. 1 Guest House, Exp. 2 Land Office: the turn goes on
        PERFORMERS[kind](s, seat, action, ev)
    else:
        act = _ACT.get(s.phase)
        if act is None:
            act = MODULE_PHASES[s.phase].act
        act(s, seat, action, ev)
    advance(s, ev)
    if hooked and s.rs.action_done:  # 1897 Exp. VI: the objectives the positions now meet
        s.legal_memo = None
        for _, fn in s.rs.action_done:
            fn(s, seat, ev)


def _place_memo(s: State, seat: int, action: Action, options: list[Action], ev: Events) -> None:
    """The Mayor's arrangement, one colonist at a time (a third of a random playout's
    decisions), on the simulation path: ``options``, the list of this decision, less the place
    just filled, is the next one's (``State.legal_memo``)."""
    p = s.players[seat]
    arg = action.a
    place_colonist(p, arg)
    if arg < A.BUILDING_SLOT:
        full = p.workers[arg] >= p.tiles[arg]
    else:
        full = p.bw[arg - A.BUILDING_SLOT] >= CATALOG[arg - A.BUILDING_SLOT].circles
    if full:  # the very object of the list (an equal one, from elsewhere, the slow way)
        rest = [o for o in options if o is not action]
        options = rest if len(rest) < len(options) else [o for o in options if o != action]
    if p.san_juan and len(options) > 1:  # colonists left, and a place with room besides m.auto
        s.legal_memo = (seat, options)
        return  # (``advance`` has nothing to do: the arrangement waits)
    _arranged(s, seat, ev)
    advance(s, ev)


def resolve_offer(s: State, action: Action, ev: Events) -> None:
    """Decide the first waiting offer with ``action`` (accept, decline, or a module's own)."""
    seat, name, arg = s.offers.pop(0)
    assert isinstance(seat, int) and isinstance(name, str) and isinstance(arg, int)
    act = OFFER_ACTS.get(name)
    if act is not None:  # a module's decision with its own actions (Exp. 2)
        act(s, seat, arg, action, ev)
        return
    if action.kind == A.OFFER:
        OFFER_HANDLERS[name](s, seat, arg, ev)
        return
    if ev is not None:
        ev.append(Event("OfferDeclined", seat, {"offer": name}))
    decline = DECLINE_HANDLERS.get(name)
    if decline is not None:
        decline(s, seat, arg, ev)


def _next_turn(s: State) -> None:
    s.turns_taken += 1
    s.turn = (s.turn + 1) % s.n
    s.flags &= PHASE_FLAGS  # clear the per-turn bits


def passed(s: State, seat: int, ev: Events, declined: str | None = None) -> None:
    """A seat's pass (``declined``: what it turned down, when the pass says more than "nothing
    this turn": 1897's production)."""
    if ev is not None:
        data = {"phase": PHASE_NAMES[s.phase]}
        if declined is not None:
            data["declined"] = declined
        ev.append(Event("Passed", seat, data))


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
            Event(
                "RoleChosen",
                seat,
                {"role": ALL_ROLES[role], "card": action.code[2:], "doubloons": coins},
            )
        )
    for _, fn in s.rs.hooks["role_chosen"]:
        fn(s, seat, card, ev)
    start_phase(s, role, ev)


_ROLE_PHASES: Final = {
    SETTLER: SETTLER_PHASE,
    MAYOR: MAYOR_PHASE,
    BUILDER: BUILDER_PHASE,
    CRAFTSMAN: CRAFTSMAN_PHASE,
    TRADER: TRADER_PHASE,
    CAPTAIN: CAPTAIN_PHASE,
    PROSPECTOR: PROSPECTOR_PHASE,
}


def start_phase(s: State, role: int, ev: Events) -> None:
    """Open ``role``'s phase at its chooser's turn (a module's role too: its own phase)."""
    s.turn = s.chooser
    s.turns_taken = 0
    s.flags = 0
    s.step = STEP_TURN
    phase = _ROLE_PHASES.get(role)
    s.phase = MODULE_ROLES[role].phase if phase is None else phase
    # Exp. 1 Guest House (A30): guests may move at the start of every phase but the Mayor's
    if role != MAYOR and s.rs.hooks["interlude"] and _interlude(s, False):
        return
    _begin_phase(s, role, ev)


def _begin_phase(s: State, role: int, ev: Events) -> None:
    """The automatic start of a role phase, once any interlude is over."""
    started = s.rs.phase_started[role]
    if started:  # Exp. 1 Union Hall, Lighthouse; Exp. 2 Chapel: before the automatic steps
        for seat in clockwise(s, s.chooser):
            bw = s.players[seat].bw
            for b, fn in started:
                if bw[b] > 0:
                    fn(s, seat, role, ev)
    if role == MAYOR:
        if s.colonist_supply > 0:
            s.step = STEP_PRIVILEGE
        else:  # no privilege without a colonist in the supply (§4.2)
            _distribute(s, ev)
    elif role == CRAFTSMAN:
        _produce_all(s, ev)
    elif role == CAPTAIN:
        s.no_load = 0
        s.wharf_used = 0
    elif role == PROSPECTOR:
        # §4.7: no action; the privilege is one doubloon from the bank.
        pay(s, s.chooser, s.rs.privilege(s, s.chooser), "prospector", ev)
        end_phase(s, ev)
    elif role not in _ROLE_PHASES:  # a module's role (Exp. 3 Buccaneer)
        MODULE_ROLES[role].start(s, ev)


def _interlude(s: State, before_storage: bool) -> bool:
    """Exp. 1 Guest House (A30): a simultaneous step where the owners of a building on the
    ``interlude`` hook point may act (guests move) before the phase goes on: at the start of a
    phase, and in the Captain phase before the storage.  False when nobody has anything to do."""
    hooks = s.rs.hooks["interlude"]
    if not hooks:
        return False
    waiting = False
    for seat, p in enumerate(s.players):
        bw = p.bw
        for b, _ in hooks:
            # only an owner of such a building, occupied, may have something to do
            if bw[b] > 0:
                if interlude_options(s, seat):
                    s.pending[seat] = True
                    waiting = True
                break
    if waiting:
        s.step = STEP_INTERLUDE
        if before_storage:
            s.flags |= F_INTERLUDE_STORAGE
    return waiting


def _interlude_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if action.kind == A.PASS:
        s.pending[seat] = False
    else:
        PERFORMERS[action.kind](s, seat, action, ev)
        if not interlude_options(s, seat):
            s.pending[seat] = False
    if any(s.pending):
        return
    s.step = STEP_TURN
    if s.flags & F_INTERLUDE_STORAGE:
        s.flags &= ~F_INTERLUDE_STORAGE
        _start_storage(s, ev)
    else:
        _begin_phase(s, s.cards[s.card], ev)


def end_phase(s: State, ev: Events) -> None:
    """Close the phase in progress: back to role selection (1897 END-2: or the game's end)."""
    rs = s.rs
    if rs.vp_end_at_captain and s.phase == CAPTAIN_PHASE and s.vp_supply <= 0:
        trigger_end(s, END_VP, ev)  # 1897 END-T3: the chips ran out in or since the last one
    if ev is not None and s.card >= 0:
        ev.append(Event("PhaseEnded", s.chooser, {"role": ALL_ROLES[s.cards[s.card]]}))
    s.phase = ROLE_SELECTION
    s.step = STEP_TURN
    s.flags = 0
    if rs.end_after_phase and s.end_reasons:  # 1897 END-2: no further role, no round coins
        _game_over(s, ev)


def _game_over(s: State, ev: Events) -> None:
    s.phase = GAME_OVER
    if ev is not None:
        ev.append(Event("GameEnded", None, {"reasons": list(s.end_reasons)}))


def _end_round(s: State, ev: Events) -> None:
    placed = []
    no_doubloon = s.rs.no_doubloon
    for card, taken in enumerate(s.card_taken):
        if taken < 0 and not no_doubloon[card]:  # §12: never on the Buccaneer
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
        _game_over(s, ev)
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
            if seat == s.chooser:
                s.flags |= F_CHOOSER_QUARRY
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
        island_gained(s, seat, tile, ev)
        _next_turn(s)
    elif kind == A.PASS:
        passed(s, seat, ev)
        bw = s.players[seat].bw
        for b, fn in s.rs.hooks["settle_passed"]:  # 1897: a Hospital worker for a forest
            if bw[b] > 0:
                fn(s, seat, ev)
        _next_turn(s)
    elif PERFORMERS[kind](s, seat, action, ev):  # Exp. 1 forest: the turn is over
        _next_turn(s)
    # else the Hacienda draw: the turn goes on


def refill_plantations(s: State, ev: Events) -> None:
    """Reveal plantations until N + 1 are face up, reshuffling the discards when the stacks run
    out (§4.1); fewer when both are exhausted."""
    reshuffled = False
    while len(s.face_up) < s.n + 1:
        tile = draw_plantation(s)
        if tile is None:
            if not recycle_discard(s):
                break
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
    end_phase(s, ev)


# --- Mayor ------------------------------------------------------------------------------------


def _mayor_act(s: State, seat: int, action: Action, ev: Events) -> None:
    kind = action.kind
    if s.step == STEP_PRIVILEGE:
        if kind == A.PRIVILEGE:
            amount = min(s.rs.privilege(s, seat), s.colonist_supply)
            s.colonist_supply -= amount
            s.players[seat].san_juan += amount
            if ev is not None:
                ev.append(
                    Event(
                        "ColonistGained",
                        seat,
                        {"target": "san_juan", "source": "supply", "by": "mayor", "count": amount},
                    )
                )
        else:
            passed(s, seat, ev)
        _distribute(s, ev)
        return
    p = s.players[seat]
    if kind == A.AUTO:
        suggest_arrangement(s, seat)
    elif kind == A.PLACE:
        place_colonist(p, action.a)
    else:  # a module's piece (Exp. 2: a noble)
        PERFORMERS[kind](s, seat, action, ev)
    if kind == A.AUTO or p.san_juan == 0 or not has_free_circle(p):
        _arranged(s, seat, ev)


def _arranged(s: State, seat: int, ev: Events) -> None:
    """``seat``'s colonists are arranged; the phase ends when everyone's are."""
    s.pending[seat] = False
    if ev is not None:
        ev.append(Event("ColonistsArranged", seat, arrangement(s.players[seat])))
    if not any(s.pending):
        _refill_ship(s, ev)


def arrangement(p: Player) -> dict[str, Any]:
    """The pieces on each place (Exp. 2: with the nobles among them, by place name)."""
    out: dict[str, Any] = {
        "tiles": {TILES[k]: p.workers[k] for k in range(NTILES) if p.tiles[k]},
        "buildings": {CATALOG[b].name: p.bw[b] for b in p.city},
        "san_juan": p.san_juan,
    }
    nobles = p.nobles  # Player.nobles: tile kinds, then buildings, San Juan last
    if nobles and any(nobles):
        named = {TILES[k]: nobles[k] for k in range(NTILES) if nobles[k]}
        named.update({CATALOG[b].name: nobles[NTILES + b] for b in p.city if nobles[NTILES + b]})
        if nobles[-1]:
            named["san_juan"] = nobles[-1]
        out["nobles"] = named
    return out


def _distribute(s: State, ev: Events) -> None:
    """Hand the ship's colonists out one at a time from the Mayor (§4.2 step 2), then let every
    player arrange.  [C] l.192: normally everybody arranges at the same time; the order cannot
    matter, since each player only moves his own colonists.  (The sequential reading of A17 is
    the option ``mayor_placement: sequential``.)"""
    before = s.rs.hooks["before_distribution"]
    if before:  # Exp. 2 Villa (Appendix C: after the privilege, before the distribution)
        for seat in clockwise(s, s.chooser):
            bw = s.players[seat].bw
            for b, fn in before:
                if bw[b] > 0:
                    fn(s, seat, ev)
    # a module hands out a ship holding its pieces itself (Exp. 2 nobles), then arranges
    if any(fn(s, ev) for _, fn in s.rs.hooks["distribution"]):
        return
    k = s.colonist_ship
    n = s.n
    shares = []
    for i, seat in enumerate(clockwise(s, s.chooser)):
        share = k // n + (1 if i < k % n else 0)
        s.players[seat].san_juan += share
        shares.append(share)
    s.colonist_ship = 0
    if ev is not None:
        ev.append(Event("ColonistsDistributed", s.chooser, {"shares_from_mayor": shares}))
    start_arrangement(s, ev)


def start_arrangement(s: State, ev: Events) -> None:
    """§4.2 step 3: every player whose colonists cannot fill all his circles (a real choice) is
    asked; the others are arranged at once.  A module may arrange a seat itself (Exp. 2: where
    a player's nobles go is a choice too)."""
    s.step = STEP_ARRANGE
    custom = s.rs.hooks["arrange_seat"]
    automata = s.rs.automata
    for seat in range(s.n):
        if automata and seat in automata:  # 1897: a Puertoma places its own (PTM-REC)
            AUTOMATON["arrange"](s, seat, ev)
            continue
        arranged = False
        for _, fn in custom:  # a module may arrange the seat itself (Exp. 2: nobles)
            if fn(s, seat, ev):
                arranged = True
                break
        if arranged:
            continue
        p = s.players[seat]
        total = p.colonists()
        room = circles(p)
        if total >= room:
            # no choice: every circle filled, the rest wait in San Juan (§4.2 must-fill rule)
            p.workers = p.tiles[:]
            for b in p.city:
                p.bw[b] = CATALOG[b].circles
            p.san_juan = total - room
        else:
            lift_colonists(p, total)
            if total:
                slots = free_slots(p)
                if len(slots) > 1:
                    s.pending[seat] = True  # a real choice: which circles stay empty
                    continue
                for arg, free in slots:  # all the room is in one place: no choice either
                    for _ in range(min(free, p.san_juan)):
                        place_colonist(p, arg)
        if ev is not None and total:
            ev.append(Event("ColonistsArranged", seat, arrangement(p)))
    if not any(s.pending):
        _refill_ship(s, ev)


def _refill_ship(s: State, ev: Events) -> None:
    """§4.2 step 4: R = max(N, empty building circles of all players); a short supply triggers
    E1 and (ruling A4) every remaining colonist goes on the ship.  A module may refill it
    itself (Exp. 2: one piece is a noble, and E1 is not used)."""
    if s.rs.automata:  # 1897 PTM-REC-5: the persons' buildings and each Puertoma's property
        empty = AUTOMATON["human_empty_circles"](s) + AUTOMATON["empty_spaces"](s)
    else:
        empty = sum(empty_building_circles(p) for p in s.players)
    needed = max(s.n, empty)
    if not any(fn(s, needed, ev) for _, fn in s.rs.hooks["ship_refill"]):
        moved = min(needed, s.colonist_supply)
        s.colonist_supply -= moved
        s.colonist_ship += moved
        if ev is not None:
            ev.append(Event("ColonistShipRefilled", None, {"count": moved, "needed": needed}))
        if moved < needed:
            trigger_end(s, END_COLONISTS, ev)
    if s.rs.automata:  # 1897: the Puertomas' Recruiter skills, the marker (PTM-REC-4)
        AUTOMATON["recruiter_ended"](s, ev)
    end_phase(s, ev)


# --- Builder ----------------------------------------------------------------------------------


def _builder_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if action.kind == A.PASS:
        passed(s, seat, ev)
        _next_turn(s)
        return
    b = action.a
    p = s.players[seat]
    if action.kind == A.BUILD:
        cost = price(s, seat, b)
        p.doubloons -= cost
        s.bank += cost
    else:  # Exp. 1 Black Market: the performer pays
        cost = PERFORMERS[action.kind](s, seat, action, ev)
    s.market[b] -= 1
    p.bw[b] = 0  # new buildings are unoccupied (§4.3)
    p.city.append(b)
    if ev is not None:
        ev.append(Event("BuildingBuilt", seat, {"building": CATALOG[b].name, "price": cost}))
    for _, fn in s.rs.hooks["bought"]:  # 1897 Exp. VI: what it cost him (Big Spender)
        fn(s, seat, b, cost, ev)
    for hb, fn in s.rs.hooks["built"]:
        if hb < 0 or p.bw[hb] > 0:
            fn(s, seat, b, ev)
    if s.rs.automata:  # 1897: a Puertoma's Reserve token on it moves on (PTM-BLD-6)
        AUTOMATON["built"](s, seat, b, ev)
    if city_used(p) >= CITY_SPACES:  # E2, ruling A55: the 12th space, large buildings included
        trigger_end(s, END_CITY, ev)
    _next_turn(s)


# --- Craftsman --------------------------------------------------------------------------------


def _produce_all(s: State, ev: Events) -> None:
    """Each player, clockwise from the Craftsman, takes what he produces; a short supply gives
    what is left (ruling A48), so earlier players have first claim.  Production is taken for
    every player: declining it never helps the player (an engine simplification).  1897's
    ``production: full_or_decline`` (A-28) makes it a decision of each in turn instead."""
    s.produced = 0
    if s.rs.production_choice:
        s.step = STEP_TURN  # ``advance`` asks each player who would receive a barrel
        return
    for seat in clockwise(s, s.chooser):
        _produce(s, seat, ev)
    s.step = STEP_PRIVILEGE


def _produce(s: State, seat: int, ev: Events, declined: bool = False) -> None:
    """``seat``'s production step: his crates (none when he ``declined`` them, 1897's A-28),
    then his buildings' ``produced`` handlers, which run for every player of the phase.

    Ruling (A-28 with B-44): declining turns down the crates only.  The Large Tailor Shop
    "produces no goods" and pays "1 coin per Citizen" in the Craftsman phase ("ganha 1 Moeda
    para cada Cidadão"), so it pays whether its owner produces, has nothing to produce or
    declines, as under automatic production; the other handlers find nothing produced."""
    if s.rs.automata and seat in s.rs.automata:  # 1897: its active properties (PTM-CRF)
        AUTOMATON["produce"](s, seat, ev)
        return
    received = [0] * NGOODS if declined else receivable(s, seat)
    p = s.players[seat]
    supply, goods = s.goods, p.goods
    kinds = 0  # a bit per kind received
    for k, got in enumerate(received):
        if got:
            supply[k] -= got
            goods[k] += got
            kinds |= 1 << k
    if seat == s.chooser:
        s.produced = kinds
    if ev is not None and kinds:
        ev.append(
            Event(
                "GoodsProduced",
                seat,
                {"goods": {GOODS[k]: received[k] for k in range(NGOODS) if received[k]}},
            )
        )
    for b, fn in s.rs.hooks["produced"]:
        if b < 0 or p.bw[b] > 0:
            fn(s, seat, received, ev)
    if seat == s.chooser and s.rs.edition.distillery_counts_privilege:
        # 1897 B-34: counted after his privilege; taken after the hooks, so that the Canal's
        # crate (B-24, added to ``received``) is among them
        s.chooser_crates = received[:]


def _craftsman_act(s: State, seat: int, action: Action, ev: Events) -> None:
    if s.step == STEP_TURN:  # 1897: his whole production, or none of it
        if action.kind == A.PRODUCE:
            _produce(s, seat, ev)
        else:
            passed(s, seat, ev, "production")
            _produce(s, seat, ev, declined=True)
        _next_turn(s)
        return
    if action.kind == A.CRAFT:
        good = action.a
        s.goods[good] -= 1
        s.players[seat].goods[good] += 1
        if s.chooser_crates:  # the Craftsman's crates this phase (1897: his privilege too)
            s.chooser_crates[good] += 1
        if ev is not None:
            ev.append(Event("PrivilegeGoodTaken", seat, {"good": GOODS[good]}))
        # Exp. 1 Library: a doubled privilege is a second barrel (of a kind he produced too)
        if s.rs.privilege(s, seat) > 1 and not s.flags & F_CRAFT_PRIVILEGE:
            s.flags |= F_CRAFT_PRIVILEGE
            return  # advance ends the phase when no kind is left
    else:
        passed(s, seat, ev)
    _end_craftsman(s, ev)


def _end_craftsman(s: State, ev: Events) -> None:
    """The Craftsman's privilege is over: his buildings that wait for it act (1897's
    Distillery), then the phase ends."""
    chooser = s.chooser
    if s.rs.automata:  # 1897: the Puertomas' L2-Craftsman crates (PTM-CRF-3)
        AUTOMATON["craftsman_ended"](s, ev)
    bw = s.players[chooser].bw
    for b, fn in s.rs.hooks["craftsman_ended"]:
        if bw[b] > 0:
            fn(s, chooser, ev)
    s.chooser_crates = []
    end_phase(s, ev)


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
        sold = s.rs.hooks["sold"]
        if sold:  # 1897 Exp. V: Closing the Work (the crate that fills the house)
            filled = len(s.house) == TRADING_HOUSE_CAPACITY
            bw = s.players[seat].bw
            for b, fn in sold:
                if b < 0 or bw[b] > 0:
                    fn(s, seat, good, value, filled, ev)
    elif action.kind == A.PASS:
        passed(s, seat, ev)
    else:  # Exp. 1 Trading Post
        PERFORMERS[action.kind](s, seat, action, ev)
    _next_turn(s)


def _end_trader(s: State, ev: Events) -> None:
    if len(s.house) >= TRADING_HOUSE_CAPACITY:  # §4.5: emptied only when full
        for good in s.house:
            s.goods[good] += 1
        s.house = []
        if ev is not None:
            ev.append(Event("TradingHouseEmptied", None, {}))
    end_phase(s, ev)


# --- Captain ----------------------------------------------------------------------------------


def captain_act(s: State, seat: int, action: Action, ev: Events) -> None:
    """A Captain phase decision: a load, a Wharf, or (storage) the goods kept."""
    if s.step == STEP_KEEP:
        keep_goods(s, seat, action.keep, ev)
        if not any(s.pending):
            _end_captain(s, ev)
        return
    kind = action.kind
    if kind == A.PASS:
        passed(s, seat, ev)
        s.no_load += 1
        s.turn = (s.turn + 1) % s.n
        return
    p = s.players[seat]
    shipped = s.rs.hooks["shipped"]
    before = p.goods[:] if shipped else p.goods
    if kind == A.SHIP:
        good, ship = action.a, action.b
        count = min(p.goods[good], s.ship_cap[ship] - s.ship_load[ship])
        p.goods[good] -= count
        s.ship_kind[ship] = good
        s.ship_load[ship] += count
        if ev is not None:
            ev.append(
                Event("GoodsShipped", seat, {"good": GOODS[good], "count": count, "ship": ship})
            )
    else:
        good = action.a if kind == A.WHARF else -1
        count = PERFORMERS[kind](s, seat, action, ev)
    load_vp = LOAD_VP.get(kind)
    vp = count if load_vp is None else load_vp(count)  # Exp. 1 Small Wharf: 1 per 2
    # ruling A9: on his first load of any kind ([C]: no load, no VP; an Exp. 1 Small Wharf use
    # without a barrel loads nothing, as for the Harbor and the Lighthouse)
    if seat == s.chooser and count > 0 and not s.flags & F_CAPTAIN_LOADED:
        s.flags |= F_CAPTAIN_LOADED
        vp += s.rs.privilege(s, seat)
    gain_vp(s, seat, vp, "shipping", ev)
    bw = p.bw
    for b, fn in s.rs.hooks["loaded"]:
        if bw[b] > 0:
            fn(s, seat, good, count, ev)
    if shipped:  # 1897 Exp. V: what was loaded where (dispatches, Festival Goods Delivery)
        loaded = list(map(sub, before, p.goods))
        onto = action.b if kind == A.SHIP else -1
        for b, fn in shipped:
            if b < 0 or bw[b] > 0:
                fn(s, seat, onto, loaded, ev)
    s.no_load = 0
    s.turn = (s.turn + 1) % s.n


def _start_storage(s: State, ev: Events) -> None:
    s.step = STEP_KEEP
    automata = s.rs.automata
    for seat in range(s.n):
        if automata and seat in automata:  # 1897: what a Puertoma keeps (PTM-CAP-3, -4)
            AUTOMATON["store"](s, seat, ev)
            continue
        options = keep_options(s, seat)
        if len(options) == 1:
            keep_goods(s, seat, options[0].keep, ev)
        else:
            s.pending[seat] = True
    if not any(s.pending):
        _end_captain(s, ev)


def keep_goods(s: State, seat: int, kept: tuple[int, ...], ev: Events) -> None:
    """The Captain's storage for ``seat``: ``kept`` by good stays, the rest goes back."""
    p = s.players[seat]
    lost = list(map(sub, p.goods, kept))
    supply = s.goods
    for k, n in enumerate(lost):
        if n:
            supply[k] += n
    p.goods[:] = kept
    s.pending[seat] = False
    if ev is not None and any(lost):
        ev.append(
            Event(
                "GoodsDiscarded",
                seat,
                {"goods": {GOODS[k]: lost[k] for k in range(NGOODS) if lost[k]}},
            )
        )


def _end_captain(s: State, ev: Events) -> None:
    emptied = []
    for i, cap in enumerate(s.ship_cap):  # §4.6.4: only full ships are emptied
        if s.ship_load[i] >= cap:
            s.goods[s.ship_kind[i]] += s.ship_load[i]
            s.ship_load[i] = 0
            s.ship_kind[i] = -1
            emptied.append(i)
    private = {GOODS[k]: n for k, n in enumerate(s.wharf_cargo) if n}
    if private:  # 1897 (CAP-6): the private ships' barrels go back with the full ships'
        for k, n in enumerate(s.wharf_cargo):
            s.goods[k] += n
        s.wharf_cargo = [0] * NGOODS
    if ev is not None and (emptied or private):
        data: dict[str, Any] = {"ships": emptied}
        if private:
            data["private_ships"] = private
        ev.append(Event("ShipsEmptied", None, data))
    for _, fn in s.rs.hooks["captain_ended"]:  # 1897 Exp. V: the phase's loads forgotten
        fn(s, ev)
    end_phase(s, ev)


# ----------------------------------------------------------------------------------------------
# Advance: run automatic steps until a decision
# ----------------------------------------------------------------------------------------------


def advance(s: State, ev: Events) -> None:
    """Run the automatic steps until a seat must decide (or the game is over).  The common
    cases are tested first; an automated seat (1897's Puertomas, ``automata``: none in a
    classic game) plays where a person would be asked."""
    n = s.n
    automata = s.rs.automata  # (the options': the same in the ruleset of a drafted board)
    while True:
        if s.offers:
            if automata and s.offers[0][0] in automata:  # 1897: a Puertoma's (§8.13)
                AUTOMATON["offer"](s, ev)
                continue
            # an offer whose source ran dry in the meantime is dropped
            valid = OFFER_VALID.get(str(s.offers[0][1]))
            if (s.colonist_supply > 0 or s.colonist_ship > 0) if valid is None else valid(s):
                return
            s.offers.pop(0)
            continue
        phase = s.phase
        if phase == ROLE_SELECTION:
            if s.picks >= s.rs.picks_per_round:
                # Appendix C end of round: a module may first play a phase (Exp. 3 Capture)
                if not any(fn(s, ev) for _, fn in s.rs.hooks["round_ending"]):
                    _end_round(s, ev)
                continue
            s.turn = (s.governor + s.picks) % n
            if automata and s.turn in automata:  # 1897: a Puertoma chooses (§8.6)
                AUTOMATON["choose_role"](s, ev)
                continue
            if s.rs.plain_roles:  # the decision's list (``legal_fast``)
                s.legal_memo = (s.turn, free_roles(s))
            return
        if phase == GAME_OVER:
            return
        if phase in MODULE_PHASES:  # a module's phase stops only at decisions, ends itself
            if (automata and s.turn in automata
                    and MODULE_PHASES[phase].seats is None):  # 1897: a Puertoma's (§8.13)
                AUTOMATON["module_turn"](s, ev)
                continue
            return
        step = s.step
        if step != STEP_TURN:  # the privilege, the arrangement, the storage, an interlude
            if step == STEP_INTERLUDE:
                return
            if step == STEP_PRIVILEGE and automata and s.chooser in automata:
                if phase == CRAFTSMAN_PHASE:  # 1897: the Puertoma's extra crate (PTM-CRF-2)
                    AUTOMATON["craftsman_advantage"](s, ev)
                    _end_craftsman(s, ev)
                else:  # its Recruiter's worker, as a person's (PTM-REC-1)
                    _mayor_act(s, s.chooser, A.PRIVILEGE_ACTION, ev)
                continue
            if phase == CRAFTSMAN_PHASE:
                options = craft_privilege_options(s)
                if not options:
                    _end_craftsman(s, ev)
                    continue
                s.legal_memo = (s.turn, options)  # the decision's list (``legal_fast``)
            return
        if phase == CAPTAIN_PHASE:
            if s.no_load >= n:  # ruling A8: a full cycle of turns without a load
                if not _interlude(s, True):  # Exp. 1 Guest House: before the storage
                    _start_storage(s, ev)
                continue
            if automata and s.turn in automata:  # 1897: a Puertoma loads (PTM-CAP)
                if not AUTOMATON["load"](s, s.turn, ev):
                    s.no_load += 1
                    s.turn = (s.turn + 1) % n
                continue
            turn_hooks = s.rs.captain_turn
            if turn_hooks:  # Exp. 2 Royal Supplier: before the owner's first turn
                bw = s.players[s.turn].bw
                decided = False
                for b, fn in turn_hooks:
                    if bw[b] > 0 and fn(s, s.turn, ev):
                        decided = True
                        break
                if decided:
                    continue
            options = load_options(s, s.turn)
            if options:
                if not s.offers:  # (a module's hook may have made one, decided first)
                    s.legal_memo = (s.turn, options)
                return
            s.no_load += 1
            s.turn = (s.turn + 1) % n
            continue
        if phase == CRAFTSMAN_PHASE:  # STEP_TURN: 1897's production decisions (A-28)
            if s.turns_taken >= n:
                s.step = STEP_PRIVILEGE
            elif automata and s.turn in automata:  # a Puertoma always produces
                _produce(s, s.turn, ev)
                _next_turn(s)
            elif any(receivable(s, s.turn)):
                return
            else:  # nothing to receive: nothing to decide, but his buildings act (B-44)
                _produce(s, s.turn, ev)
                _next_turn(s)
            continue
        if s.turns_taken >= n:
            if phase == SETTLER_PHASE:
                # Exp. 1 Library: the Settler's second pick, an extra turn (below)
                extra = s.rs.hooks["settler_ending"]
                if not (extra and any(fn(s, ev) for _, fn in extra)):
                    _end_settler(s, ev)
                    continue
            elif phase == TRADER_PHASE:
                _end_trader(s, ev)
                continue
            else:
                end_phase(s, ev)
                continue
        if (
            phase == TRADER_PHASE
            and len(s.house) >= TRADING_HOUSE_CAPACITY
            and not s.rs.hooks["sell_options"]
        ):
            _end_trader(s, ev)  # §4.5: a full house ends the phase (Exp. 1: no Trading Post)
            continue
        if automata and s.turn in automata:  # 1897: a Puertoma's turn (§8.8)
            AUTOMATON["turn"](s, ev)
            _next_turn(s)
            continue
        if phase == SETTLER_PHASE:
            options = settler_options(s, s.turn)
        elif phase == BUILDER_PHASE:
            options = build_options(s, s.turn)
        elif phase == TRADER_PHASE:
            options = sell_options(s, s.turn)
        else:
            options = []
        if options:
            # the decision's list (``legal_fast``), unless a module's hook has just made an
            # offer, decided first (Exp. 2 Hunting Lodge, at the Settler's end)
            if not s.offers:
                s.legal_memo = (s.turn, options)
            return
        _next_turn(s)  # nothing to decide for this seat: its turn passes


# the handler of a decision in each role phase
_ACT: Final = {
    SETTLER_PHASE: _settler_act,
    MAYOR_PHASE: _mayor_act,
    BUILDER_PHASE: _builder_act,
    CRAFTSMAN_PHASE: _craftsman_act,
    TRADER_PHASE: _trader_act,
    CAPTAIN_PHASE: captain_act,
}
