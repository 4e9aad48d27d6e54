"""Expansion 1, The New Buildings (rules spec §10, rulings A22-A32, A39, A45, A49, A50 of §14.2,
Appendix C; the seed [A]).

The module is data (the 14 buildings in ``data.NEW_BUILDINGS``) plus:

* the draft of §10.1, a phase of its own before the first round (``buildings.module_phase``):
  from the starting player clockwise, each player puts one violet building on an empty space of
  the board whose printed cost is the building's cost, until every space is filled (the red
  spaces too with Exp. 2, ruling A21); with ``building_selection: random`` each space gets a
  building drawn at random at setup instead;
* the buildings' handlers on the hook points of ``buildings.HOOK_POINTS``; no role code names a
  building.

Engine choices where the rules leave room (each documented beside its handler): A22 Hacienda and
Forest House may both be drafted; A23 Black Market at most one colonist, one barrel and one VP;
A24 Trading Post with the Trader privilege, also when the house is full; A25 Lighthouse +1 per
load with at least one barrel, the Captain's +1 at the start of the phase; A26/A27 Small Wharf
once per phase, floor(n/2) VP, a use with no barrel counts as the turn's load; A28 Aqueduct; A29
Specialty Factory; A30 Guest House moves; A31 the Library doubles privileges only; A32 Union Hall
at the start of the Captain phase; A39 Church; A45 Library + Construction Hut; A49 every
plantation taken in the Settler phase may become a forest; A50 Cloister kinds.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any, Final, TypedDict

from ..core import Event
from ..rng import below
from . import actions as A
from .actions import BUILDING_INDEX, BUILDING_SLOT, CATALOG, SAN_JUAN_SLOT, Action
from .buildings import (
    DECLINE_HANDLERS,
    EXTRA_KINDS,
    F_HACIENDA_DRAWN,
    FOREST_TILE,
    LOAD_VP,
    MODULE_SETUP,
    OFFER_HANDLERS,
    OFFER_VALID,
    PERFORMERS,
    SUPPLY_SLOT,
    RolePhase,
    effect,
    hacienda_tile_placed,
    island_gained,
    module_phase,
    piece_moving,
)
from .data import (
    CAPTAIN,
    CORN,
    GOODS,
    INDIGO,
    ISLAND_SPACES,
    NGOODS,
    RED_SPACES,
    SUGAR,
    TILES,
    TRADE_PRICE,
    VIOLET_SPACES,
)
from .ops import Events, gain_vp, pay
from .ruleset import state_ruleset
from .state import DRAFT_COSTS, DRAFT_PHASE, ROLE_SELECTION, SETTLER_PHASE, STEP_TURN, State

MODULE: Final = "new_buildings"
P_DRAFT: Final = "draft"  # prompt kind of the draft

# --- the draft (§10.1) ---------------------------------------------------------------------------


HACIENDA_OR_FOREST_HOUSE: Final = frozenset(
    {BUILDING_INDEX["hacienda"], BUILDING_INDEX["forest_house"]})
VILLA_OR_JEWELER: Final = frozenset({BUILDING_INDEX["villa"], BUILDING_INDEX["jeweler"]})


def _boxed(s: State) -> frozenset[int]:
    """The buildings out of the draft: those on the board, and with the 2004 rule (option
    ``exclusive_forest_house``, ruling A22) the Hacienda or the Forest House once the other is
    drafted; 1897's ``exclusive_villa_jeweler`` (§9.3) pairs the Country House and the
    Tailor alike."""
    drafted = frozenset(s.drafted)
    rs = s.rs
    for on, pair in (
        (rs.exclusive_forest_house, HACIENDA_OR_FOREST_HOUSE),
        (rs.exclusive_villa_jeweler, VILLA_OR_JEWELER),
    ):
        if on and drafted & pair:
            drafted |= pair
    return drafted


def draft_candidates(s: State, cost: int) -> list[int]:
    """The buildings of the draft of ``cost`` (the ruleset's, after 1897's cost swap) still in
    the draft (catalog order)."""
    boxed, costs = _boxed(s), s.rs.cost
    return [b for b in s.rs.draftable if costs[b] == cost and b not in boxed]


def _place_drafted(s: State, b: int) -> None:
    # §10.1: both copies of a small building go on the space (one with 2 players: rs.copies)
    s.market[b] = s.rs.copies[b]
    s.drafted.append(b)
    s.draft_left[s.rs.cost[b]] -= 1


def setup_new_buildings(s: State, ev: Events) -> None:
    spaces = dict(VIOLET_SPACES)
    if "nobles" in s.rs.modules and s.rs.edition.draft_red_spaces:  # Exp. 2: red spaces (A21)
        for cost, count in RED_SPACES.items():
            spaces[cost] = spaces.get(cost, 0) + count
    s.draft_left = [spaces.get(cost, 0) for cost in range(DRAFT_COSTS)]
    if s.rs.random_selection:
        # a quick start (public source): every space, cheapest first, gets a building drawn at
        # random among the candidates of its cost
        for cost in range(DRAFT_COSTS):
            while s.draft_left[cost]:
                candidates = draft_candidates(s, cost)
                s.rng, k = below(s.rng, len(candidates))
                _place_drafted(s, candidates[k])
        s.rs = state_ruleset(s.options, s.draft_left, s.drafted)
        return
    s.phase = DRAFT_PHASE
    s.step = STEP_TURN
    s.turn = s.governor  # §10.1: the starting player picks first


MODULE_SETUP[MODULE] = setup_new_buildings


def _draft_legal(s: State, seat: int) -> list[Action]:
    if seat != s.turn:
        return []
    left, boxed, cost = s.draft_left, _boxed(s), s.rs.cost
    out = []
    for b in s.rs.draftable:
        if left[cost[b]] > 0 and b not in boxed:
            out.append(_DRAFT[b])
    return out


_DRAFT: Final = [A.DRAFT_ACTIONS[b] for b in range(len(CATALOG))]


def _draft_act(s: State, seat: int, action: Action, ev: Events) -> None:
    b = action.a
    _place_drafted(s, b)
    if ev is not None:
        ev.append(Event("BuildingDrafted", seat, {"building": CATALOG[b].name}))
    s.turn = (s.turn + 1) % s.n
    if any(s.draft_left):
        return
    s.phase = ROLE_SELECTION
    s.step = STEP_TURN
    s.rs = state_ruleset(s.options, s.draft_left, s.drafted)  # compiled for the board
    if ev is not None:
        ev.append(Event("DraftEnded", None, {"buildings": [CATALOG[d].name for d in s.drafted]}))
    for _, fn in s.rs.hooks["draft_ended"]:  # Exp. 4: the construction goal, after the draft
        fn(s, ev)


module_phase(
    RolePhase(
        DRAFT_PHASE,
        start=lambda s, ev: None,
        act=_draft_act,
        legal=_draft_legal,
        prompt_kind=lambda s: P_DRAFT,
        action_kinds={P_DRAFT: frozenset({A.DRAFT})},
    )
)


class DraftPart(TypedDict):
    """The view's ``draft``: empty violet spaces by cost, the buildings drafted in order, and
    how they are chosen (``draft`` or ``random``)."""

    spaces_left: dict[str, int]
    drafted: list[str]
    selection: str


def draft_view(s: State) -> DraftPart | None:
    """The board's violet spaces (public): empty spaces by cost and the buildings drafted, in
    order; ``None`` without the module."""
    if not s.draft_left:
        return None
    return {
        "spaces_left": {str(c): n for c, n in enumerate(s.draft_left) if n},
        "drafted": [CATALOG[b].name for b in s.drafted],
        "selection": (s.rs.random_selection and "random") or "draft",
    }


# --- Settler: Forest House (forests), Library (second pick) -------------------------------------

LIBRARY: Final = BUILDING_INDEX["library"]


@effect("forest_house", "forest_allowed")
def _forest_allowed(s: State, seat: int) -> bool:
    return True


@effect("forest_house", "settler_options")
def _forest_options(s: State, seat: int, out: list[Any]) -> None:
    """§10.2 Forest House: a face-up plantation may be placed face down as a forest (A49: on
    every Settler pick, the Library's second one included)."""
    seen = 0
    for kind in s.face_up:
        if not seen & (1 << kind):
            seen |= 1 << kind
            out.append(A.FOREST_ACTIONS[kind])


def _take_forest(s: State, seat: int, action: Action, ev: Events) -> bool:
    kind = action.a
    p = s.players[seat]
    s.face_up.remove(kind)
    p.forests[kind] += 1
    if ev is not None:
        ev.append(Event("ForestPlaced", seat, {"tile": TILES[kind], "source": "face_up"}))
    for b, fn in s.rs.hooks["tile_placed"]:  # Hospice: its colonist goes to San Juan
        if p.bw[b] > 0:
            fn(s, seat, FOREST_TILE, ev)
    island_gained(s, seat, FOREST_TILE, ev)
    return True  # the turn is over


PERFORMERS[A.FOREST] = _take_forest


def _hacienda_tile(s: State, seat: int) -> bool:
    """Whether the tile decided on is the Hacienda's of the turn in progress (not a Land
    Office's, bought in the Trader phase)."""
    return s.phase == SETTLER_PHASE and s.turn == seat and bool(s.flags & F_HACIENDA_DRAWN)


def _forest_accept(s: State, seat: int, kind: int, ev: Events) -> None:
    """A plantation just drawn (Hacienda) becomes a forest."""
    p = s.players[seat]
    p.tiles[kind] -= 1
    p.forests[kind] += 1
    if ev is not None:
        ev.append(Event("ForestPlaced", seat, {"tile": TILES[kind], "source": "hacienda"}))
    if _hacienda_tile(s, seat):
        hacienda_tile_placed(s, seat, FOREST_TILE, ev)
    island_gained(s, seat, FOREST_TILE, ev)


def _forest_decline(s: State, seat: int, kind: int, ev: Events) -> None:
    if _hacienda_tile(s, seat):
        hacienda_tile_placed(s, seat, kind, ev)
    island_gained(s, seat, kind, ev)


OFFER_HANDLERS["forest"] = _forest_accept
DECLINE_HANDLERS["forest"] = _forest_decline
OFFER_VALID["forest"] = lambda s: True


@effect("library", "settler_ending")
def _library_second_pick(s: State, ev: Events) -> bool:
    """§10.2 Library, Settler: after every other player has had his turn, the Settler takes one
    of the remaining face-up plantations (a forest with the Forest House; a quarry only with the
    Construction Hut and when his first tile was not one, A45), no Hospice colonist.  One extra
    turn: ``turns_taken == n`` while it lasts."""
    if s.turns_taken != s.n or s.players[s.chooser].bw[LIBRARY] <= 0:
        return False
    s.turn = s.chooser
    return True


@effect("library", "privilege_bonus")
def _library(s: State, seat: int) -> int:
    """§10.2 Library: the privilege of the role he picks is doubled (A31: not the doubloons on
    the card).  Only his own role: ``privilege`` is asked for the chooser."""
    return 1


# --- Builder: Forest House, Black Market, Church ---------------------------------------------


@effect("forest_house", "build_discount")
def _forest_discount(s: State, seat: int) -> tuple[int, int, int, int]:
    # §10.2: 1 doubloon less for every 2 forests, no column limit (T-EXP1-FH)
    off = sum(s.players[seat].forests) // 2
    return (off, off, off, off)


BLACK_MARKET: Final = BUILDING_INDEX["black_market"]
BLACK_MARKET_MAX: Final = 3  # A23: one colonist, one barrel, one VP chip


def _colonist_sources(s: State, seat: int) -> list[int]:
    """The places a Black Market colonist may come from: San Juan, an occupied tile kind, an
    occupied building other than the Black Market itself (§10.2)."""
    p = s.players[seat]
    out = [SAN_JUAN_SLOT] if p.san_juan > 0 else []
    workers, bw = p.workers, p.bw
    for k in range(len(workers)):
        if workers[k] > 0:
            out.append(k)
    for b in p.city:
        if bw[b] > 0 and b != BLACK_MARKET:
            out.append(BUILDING_SLOT + b)
    return out


@effect("black_market", "build_options")
def _black_market_options(
    s: State, seat: int, out: list[Action], short: list[tuple[int, int]]
) -> None:
    """§10.2 Black Market, only when short of money: every doubloon plus exactly
    (price - doubloons) items, at most one of each kind (A23), so at most 3.  ``short``: the
    buildings he could place but not pay, with the doubloons missing."""
    p = s.players[seat]
    goods = [-1]
    for k in range(NGOODS):
        if p.goods[k]:
            goods.append(k)
    vp = p.vp > 0
    # the payments (colonist, good, vp) by the number of items in them, in the order of the
    # colonists, then the goods, then the chip (the one of no item is never offered): each
    # count from 1 up to the kinds of item he has holds a payment
    by_need: list[list[tuple[int, int, int]]] = [[] for _ in range(BLACK_MARKET_MAX + 1)]
    for c in [-1, *_colonist_sources(s, seat)]:
        colonist = c >= 0
        for g in goods:
            need = colonist + (g >= 0)
            by_need[need].append((c, g, 0))
            if vp:
                by_need[need + 1].append((c, g, 1))
    for b, need in short:
        if need <= BLACK_MARKET_MAX and by_need[need]:
            out.extend(map(A.BLACK_MARKET_ACTIONS[b].__getitem__, by_need[need]))


def _black_market_pay(s: State, seat: int, action: Action, ev: Events) -> int:
    p = s.players[seat]
    paid = p.doubloons
    p.doubloons = 0
    s.bank += paid
    colonist = action.b
    good, vp = action.keep
    items: dict[str, Any] = {}
    if colonist >= 0:
        # Exp. 2: a noble when the place holds no colonist, back to the noble supply
        noble = piece_moving(s, seat, colonist, SUPPLY_SLOT)
        if colonist == SAN_JUAN_SLOT:
            p.san_juan -= 1
        elif colonist < BUILDING_SLOT:
            p.workers[colonist] -= 1
        else:
            p.bw[colonist - BUILDING_SLOT] -= 1
        if not noble:
            s.colonist_supply += 1
        items["colonist"] = A.slot_name(colonist)
    if good >= 0:
        p.goods[good] -= 1
        s.goods[good] += 1
        items["good"] = GOODS[good]
    if vp:
        # returning a VP chip never cancels a triggered game end ([A])
        p.vp -= 1
        s.vp_supply += 1
        items["vp"] = 1
    if ev is not None:
        ev.append(Event("BlackMarketUsed", seat, {"doubloons": paid, **items}))
    return paid


PERFORMERS[A.BLACK_MARKET] = _black_market_pay

CHURCH_VP: Final = {1: 0, 2: 1, 3: 1, 4: 2}  # §10.2 by the column of the building built (A39)


@effect("church", "built")
def _church(s: State, seat: int, building: int, ev: Events) -> None:
    # the Church itself is unoccupied when built, so it never pays for itself
    gain_vp(s, seat, CHURCH_VP[CATALOG[building].column], "church", ev)


# --- Craftsman: Aqueduct, Specialty Factory ------------------------------------------------------

_LARGE_PLANT: Final = {INDIGO: BUILDING_INDEX["indigo_plant"], SUGAR: BUILDING_INDEX["sugar_mill"]}


@effect("aqueduct", "produced")
def _aqueduct(s: State, seat: int, received: list[int], ev: Events) -> None:
    """§10.2 Aqueduct: +1 indigo / +1 sugar when he produced at least one with his occupied
    (large) Indigo Plant / Sugar Mill (A28: plantations go to the large building first), as far
    as the supply goes.  ``received`` grows, so later handlers (Specialty Factory, Exp. 4) see
    the bonus."""
    p = s.players[seat]
    bonus: dict[str, int] = {}
    for good, plant in _LARGE_PLANT.items():
        if received[good] and p.bw[plant] > 0 and s.goods[good] > 0:
            s.goods[good] -= 1
            p.goods[good] += 1
            received[good] += 1
            bonus[GOODS[good]] = 1
    if ev is not None and bonus:
        ev.append(Event("GoodsProduced", seat, {"goods": bonus, "by": "aqueduct"}))


@effect("specialty_factory", "produced")
def _specialty_factory(s: State, seat: int, received: list[int], ev: Events) -> None:
    # §10.2: (most barrels of one non-corn kind produced) - 1 doubloons (A29)
    if seat == s.chooser and s.rs.edition.distillery_counts_privilege:
        return  # 1897 B-34: the Craftsman's once his privilege crates are in (below)
    best = max(n for k, n in enumerate(received) if k != CORN)
    pay(s, seat, best - 1, "specialty_factory", ev)


@effect("specialty_factory", "craftsman_ended")
def _distillery(s: State, seat: int, ev: Events) -> None:
    """1897's Distillery (B-34, §6.3): for the Craftsman, the privilege crates count too, paid
    after them (T-X1-8: 5 Sugar produced and a Sugar privilege crate: +5)."""
    crates = s.chooser_crates
    if crates:
        pay(s, seat, max(n for k, n in enumerate(crates) if k != CORN) - 1, "specialty_factory", ev)


# --- Trader: Trading Post --------------------------------------------------------------------


@effect("trading_post", "sell_options")
def _trading_post_options(s: State, seat: int, out: list[Action]) -> None:
    goods = s.players[seat].goods
    out.extend(A.TRADING_POST_ACTIONS[k] for k in range(NGOODS) if goods[k])


def _trading_post_sell(s: State, seat: int, action: Action, ev: Events) -> None:
    """§10.2 Trading Post: his one sale goes to his own post instead of the house, any kind, the
    barrel straight back to the supply; the price with the Trader privilege (A24), no Market
    bonus ([A])."""
    good = action.a
    value = TRADE_PRICE[good]
    if seat == s.chooser:
        value += s.rs.privilege(s, seat)
    s.players[seat].goods[good] -= 1
    s.goods[good] += 1
    pay(s, seat, value, "sale", None)
    if ev is not None:
        ev.append(
            Event("GoodSold", seat, {"good": GOODS[good], "price": value, "to": "trading_post"})
        )


PERFORMERS[A.TRADING_POST] = _trading_post_sell


# --- Captain: Union Hall, Lighthouse, Small Wharf, Storehouse ------------------------------------


@effect("union_hall", "phase_started", roles=(CAPTAIN,))
def _union_hall(s: State, seat: int, role: int, ev: Events) -> None:
    # §10.2 / A32: before any loading, 1 VP per 2 barrels of a kind
    gain_vp(s, seat, sum(n // 2 for n in s.players[seat].goods), "union_hall", ev)


@effect("lighthouse", "phase_started", roles=(CAPTAIN,))
def _lighthouse_captain(s: State, seat: int, role: int, ev: Events) -> None:
    # A25: the Captain who owns it gets 1 doubloon whether or not he loads (his first turn is
    # the first of the phase)
    if seat == s.chooser:
        pay(s, seat, 1, "lighthouse", ev)


@effect("lighthouse", "loaded")
def _lighthouse(s: State, seat: int, good: int, count: int, ev: Events) -> None:
    # A25: +1 doubloon per load, Wharf and Small Wharf included (a Small Wharf use without a
    # barrel loads no goods: nothing, as for the Harbor)
    if count > 0:
        pay(s, seat, 1, "lighthouse", ev)


# ``State.wharf_used`` bit of seat 0's Small Wharf (the Wharf's are 0-7)
SMALL_WHARF_USED: Final = 8


@lru_cache(maxsize=4096)
def _small_wharf_loads(goods: tuple[int, ...]) -> tuple[Action, ...]:
    """Every set of barrels a player holding ``goods`` may ship with the Small Wharf, none
    included (the same for the same barrels: cached)."""
    return tuple(A.small_wharf_action(c) for c in product(*(range(n + 1) for n in goods)))


@effect("small_wharf", "load_options")
def _small_wharf_options(s: State, seat: int, out: list[Action]) -> None:
    """§10.2 Small Wharf, once per phase (A26): any barrels of any kinds, even none (A27; 1897's
    A-23: loading none is no use, so not offered)."""
    if not s.wharf_used & (1 << (SMALL_WHARF_USED + seat)):
        loads = _small_wharf_loads(tuple(s.players[seat].goods))
        out.extend(loads[1:] if s.rs.edition.small_wharf_needs_barrels else loads)


def _small_wharf_ship(s: State, seat: int, action: Action, ev: Events) -> int:
    p = s.players[seat]
    held = s.wharf_cargo  # 1897 (B-31): on the private ship until the phase ends
    for k, n in enumerate(action.keep):
        p.goods[k] -= n
        if held:
            held[k] += n
        else:
            s.goods[k] += n
    s.wharf_used |= 1 << (SMALL_WHARF_USED + seat)
    count = sum(action.keep)
    if ev is not None:
        shipped = {GOODS[k]: n for k, n in enumerate(action.keep) if n}
        ev.append(
            Event("GoodsShipped", seat, {"goods": shipped, "count": count, "ship": "small_wharf"})
        )
    return count


PERFORMERS[A.SMALL_WHARF] = _small_wharf_ship
LOAD_VP[A.SMALL_WHARF] = lambda count: count // 2  # A26: 1 VP per 2 barrels


@effect("storehouse", "storage")
def _storehouse(s: State, seat: int) -> tuple[int, int]:
    return (0, 3)  # §10.2: 3 more barrels of any kinds


# --- Guest House ------------------------------------------------------------------------------

GUEST_HOUSE: Final = BUILDING_INDEX["guest_house"]


def guest_moves(s: State, seat: int) -> list[Action]:
    """§10.2 Guest House: a guest (a colonist seated on it in the Mayor phase) may move to any
    empty circle of his plantations, quarries or buildings; he stays there until the next Mayor
    phase (only the pieces still on the Guest House move)."""
    p = s.players[seat]
    if p.bw[GUEST_HOUSE] <= 0:
        return []
    tiles, workers, bw = p.tiles, p.workers, p.bw
    out = [A.GUEST_ACTIONS[k] for k in range(len(tiles)) if tiles[k] > workers[k]]
    out.extend(
        A.GUEST_ACTIONS[BUILDING_SLOT + b]
        for b in p.city
        if b != GUEST_HOUSE and CATALOG[b].circles > bw[b]
    )
    return out


@effect("guest_house", "interlude")
def _guests_at_a_phase_start(s: State, seat: int, out: list[Action]) -> None:
    """A30: at the start of each phase (the Mayor's excepted) and before the Captain's storage
    (the end of a phase that has an end step: the [A] example keeps 3 barrels with a guest
    moved to the Storehouse).  Moving at the end of any other phase is the same as moving at
    the start of the next one, where the interlude asks."""
    out.extend(guest_moves(s, seat))


@effect("guest_house", "turn_extras")
def _guests_before_a_decision(s: State, seat: int, out: list[Action]) -> None:
    # A30: before each of his own decisions (the [A] example: after picking the Trader, a
    # guest moves to the Library and doubles the privilege)
    out.extend(guest_moves(s, seat))


def _move_guest(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    slot = action.a
    piece_moving(s, seat, BUILDING_SLOT + GUEST_HOUSE, slot)  # Exp. 2: a noble guest moves too
    p.bw[GUEST_HOUSE] -= 1
    if slot < BUILDING_SLOT:
        p.workers[slot] += 1
    else:
        p.bw[slot - BUILDING_SLOT] += 1
    if ev is not None:
        ev.append(Event("GuestMoved", seat, {"to": action.code[2:]}))


PERFORMERS[A.GUEST] = _move_guest
EXTRA_KINDS.add(A.GUEST)


# --- Final scoring: Cloister (the Statue is its printed 8 VP) ------------------------------------

CLOISTER_BONUS: Final = (0, 1, 3, 6, 10)  # §10.2 by groups of 3 identical island tiles, at most 4


@effect("cloister", "final_bonus")
def _cloister(s: State, seat: int) -> int:
    # A50: the kinds are the 5 plantations, quarries and forests
    p = s.players[seat]
    groups = sum(n // 3 for n in p.tiles) + sum(p.forests) // 3
    return CLOISTER_BONUS[min(groups, len(CLOISTER_BONUS) - 1)]


assert len(CLOISTER_BONUS) - 1 == ISLAND_SPACES // 3
