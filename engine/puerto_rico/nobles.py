"""Expansion 2, The Nobles (rules spec §11, rulings A19-A21, A40-A44 and A54 of §14.3, Appendix
C; the seed [A], "Expansión 2: Los Nobles", which wins where the spec and it disagree).

Nobles are a second kind of colonist: "los jugadores utilizan los Nobles igual que los
trabajadores, salvo en algunos de los nuevos Edificios" ([A]).  The module is data (the 8
buildings in ``data.NOBLES_BUILDINGS``, ``data.NOBLES_TOTAL``) plus handlers on the hook points of
``buildings.HOOK_POINTS``; no role code names a building or a noble.

Representation.  ``Player.workers``, ``bw`` and ``san_juan`` keep counting every piece on a place,
colonists and nobles alike, so every "occupied" test, the must-fill rule, the Fortress (A19) and
every building of the other modules see nobles as colonists without a change.  The nobles among
those pieces are ``Player.nobles`` (per tile kind, per building, San Juan last: ``index``), and
``State.nobles`` holds the supply, the ship (``colonist_ship`` counts its colonists only), the
nobles among an Exp. 3 Raid's pieces still to place and the Hunting Lodge's progress.  All are
empty without the module, so the dumps of other games are unchanged.

Where a noble goes is the player's decision wherever the rules give one:

* the colonist ship: at the start N - 1 colonists + 1 noble (A20: 2 players 1 + 1, supply 40;
  3-5 players every one of the 100 colonists is in play), and every refill puts one noble among
  its R pieces while nobles remain; E1 (colonist shortage) is not used;
* the Mayor's distribution: pieces are taken one at a time clockwise from the Mayor (§4.2); a
  player taking one while the ship holds both kinds chooses (A19: ``n.noble`` / ``n.colonist``,
  prompt ``noble_or_colonist``); once one kind is left the rest is handed out as in the base game;
* the arrangement: asked (``arrange``) as in the base game, and a player owning a building with
  a noble function (``NOBLE_FUNCTIONS``) also whenever his nobles and colonists could be spread
  over more than one place (which circles get nobles is then a choice; elsewhere a noble works
  like a colonist and counts wherever it stands, so his nobles are placed first); colonists go
  with ``m.<place>``, nobles with ``mn.<place>``; ``m.auto`` suggests (nobles first on the
  Chapel and Hunting Lodge, where their function is the better one);
* the Mayor's privilege, the Hospice and the University give colonists only (A19), as the
  Festival's plantation goal does ("trabajadores", [A]).

Engine choices where the rules leave room (each beside its code): a piece that leaves a place
without the player naming its kind (an Exp. 1 Guest House guest moving, a Black Market payment,
a tile removed by the Land Office or the Hunting Lodge) is a colonist when the place holds one,
else a noble (``_piece_moving``); a removed plantation is an unoccupied one when the player has
one of that kind; the Villa is automatic (declining a piece never helps); the Exp. 3 Raid keeps
the ship's nobles first and places them first (``raid_split``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, TypedDict

from ..core import Event
from . import actions as A
from .actions import BUILDING_INDEX, BUILDING_SLOT, CATALOG, SAN_JUAN_SLOT, Action
from .buildings import (
    AUTOMATON,
    EXTRA_KINDS,
    MODULE_SETUP,
    OFFER_ACTION_KINDS,
    OFFER_ACTS,
    OFFER_CHECK,
    OFFER_LEGAL,
    OFFER_VALID,
    PERFORMERS,
    SUPPLY_SLOT,
    any_hook,
    effect,
    island_gained,
    module_effect,
)
from .data import (
    CAPTAIN,
    CITY_SPACES,
    COLONISTS_TOTAL,
    CRAFTSMAN,
    GOODS,
    ISLAND_SPACES,
    MAYOR,
    NGOODS,
    NOBLES_TOTAL,
    NTILES,
    TILE_INDEX,
    TILES,
)
from .legality import circles, city_used, free_slots, lift_colonists, place_colonist
from .ops import Events, draw_plantation, gain_vp, pay, recycle_discard
from .phases import arrangement, start_arrangement
from .state import (
    CAPTAIN_PHASE,
    MAYOR_PHASE,
    NOB_LODGE,
    NOB_RAID,
    NOB_SHIP,
    NOB_SUPPLY,
    SETTLER_PHASE,
    STEP_ARRANGE,
    Player,
    State,
)

if TYPE_CHECKING:
    from .view import PlayerEntry

MODULE: Final = "nobles"
NBUILDINGS: Final = len(CATALOG)
_CIRCLES: Final = [b.circles for b in CATALOG]
# the placements of a piece by tile kind and by building
_PLACE_TILE: Final = A.PLACE_TILE_ACTIONS
_PLACE_BUILDING: Final = A.PLACE_BUILDING_ACTIONS
_NOBLE_TILE: Final = [A.NOBLE_PLACE_ACTIONS[k] for k in range(NTILES)]
_NOBLE_BUILDING: Final = [A.NOBLE_PLACE_ACTIONS[BUILDING_SLOT + b] for b in range(NBUILDINGS)]
SAN_JUAN: Final = NTILES + NBUILDINGS  # index of San Juan in ``Player.nobles``
FOREST: Final = A.FOREST_CODE_TILE  # ``lo.sell.forest`` / ``hl.forest``: a forest (Exp. 1)

# prompt kinds (each a module offer with its own actions)
P_TAKE: Final = "noble_or_colonist"
P_LODGE: Final = "hunting_lodge"
P_SUPPLIER: Final = "royal_supplier"

LAND_OFFICE: Final = BUILDING_INDEX["land_office"]
CHAPEL: Final = BUILDING_INDEX["chapel"]
HUNTING_LODGE: Final = BUILDING_INDEX["hunting_lodge"]
ZONING_OFFICE: Final = BUILDING_INDEX["zoning_office"]
ROYAL_SUPPLIER: Final = BUILDING_INDEX["royal_supplier"]
LARGE_COLUMN: Final = 4  # [A] Zoning Office: small buildings are rows 1-3, large ones row 4

# the buildings whose function depends on whether a colonist or a noble occupies them: only a
# player owning one of them has a real choice of where his nobles go (elsewhere a noble works
# like a colonist, and the nobles' VP, the Jeweler, the Royal Supplier and the Royal Garden count
# them wherever they stand)
NOBLE_FUNCTIONS: Final = (LAND_OFFICE, CHAPEL, HUNTING_LODGE, ZONING_OFFICE)


def nobles_matter(p: Player) -> bool:
    """Whether the player owns a building of ``NOBLE_FUNCTIONS`` (occupied or not)."""
    bw = p.bw
    return max(bw[LAND_OFFICE], bw[CHAPEL], bw[HUNTING_LODGE], bw[ZONING_OFFICE]) >= 0


LAND_OFFICE_PRICE: Final = 1  # §11.3: buy a face-down plantation for 1, sell one for 1
HUNTING_LODGE_VP: Final = 2
# per-turn bit of ``State.flags`` in the Trader phase: the Land Office was used this turn (A41)
F_LAND_OFFICE: Final = 32
# per-phase bits of ``State.flags`` in the Captain phase (never cleared by a turn there):
# ``F_SUPPLIER << seat``, that seat's Royal Supplier moment has passed (A44, before his first turn)
F_SUPPLIER: Final = 256


# --- pieces -----------------------------------------------------------------------------------


def index(slot: int) -> int:
    """The ``Player.nobles`` index of a slot (tile kind, ``BUILDING_SLOT`` + building,
    ``SAN_JUAN_SLOT``)."""
    if slot == SAN_JUAN_SLOT:
        return SAN_JUAN
    return slot if slot < BUILDING_SLOT else NTILES + slot - BUILDING_SLOT


def pieces(p: Player, slot: int) -> int:
    """Every piece (colonists and nobles) on a slot."""
    if slot == SAN_JUAN_SLOT:
        return p.san_juan
    return p.workers[slot] if slot < BUILDING_SLOT else p.bw[slot - BUILDING_SLOT]


def board_nobles(p: Player) -> int:
    """The nobles on a player's board: tiles, buildings and San Juan (A44, A54)."""
    return sum(p.nobles)


def noble_on(p: Player, b: int) -> bool:
    """Whether building ``b`` holds a noble: a building with a colonist function and a noble
    function uses the one of its occupant (§11.1; every such building has one circle)."""
    return bool(p.nobles) and p.nobles[NTILES + b] > 0


def colonists_total(rs: Any) -> int:
    """The colonists in a game with the Nobles: all 100 (§11.1), with 2 players the 2-player 40
    of the supply plus the ship's colonist (A20).  1897 (A-21): the player count's (table 2.2),
    one of the Agency's workers replaced by a Citizen (X2-3)."""
    row = rs.row
    if rs.normal_colonists:
        return int(row.colonist_supply + row.colonist_ship)
    return row.colonist_supply + row.colonist_ship - 1 if rs.n == 2 else COLONISTS_TOTAL


def setup_nobles(s: State, ev: Events) -> None:
    """§11.1: the 20 nobles beside the colonist supply; every colonist in the supply (A20: 40
    with 2 players); the ship gets N pieces, one of them a noble."""
    row = s.rs.row
    s.colonist_ship = row.colonist_ship - 1
    s.colonist_supply = colonists_total(s.rs) - s.colonist_ship
    s.nobles = [NOBLES_TOTAL - 1, 1, 0, 0]
    for p in s.players:
        p.nobles = [0] * (SAN_JUAN + 1)


MODULE_SETUP[MODULE] = setup_nobles


@module_effect(MODULE, "piece_moving")
def _piece_moving(s: State, seat: int, src: int, dst: int) -> bool:
    """Engine choice: a piece leaving a place without the player naming its kind (a Guest House
    guest, a Black Market payment, the piece of a removed tile) is a colonist when the place
    holds one, else a noble, which goes to ``dst`` (the noble supply for ``SUPPLY_SLOT``).
    Called before the caller moves the count."""
    p = s.players[seat]
    i = index(src)
    if not p.nobles[i] or pieces(p, src) > p.nobles[i]:
        return False
    p.nobles[i] -= 1
    if dst == SUPPLY_SLOT:
        s.nobles[NOB_SUPPLY] += 1
    else:
        p.nobles[index(dst)] += 1
    return True


def _noble_gained(s: State, seat: int, target: str, source: str, by: str, ev: Events) -> None:
    if ev is not None:
        ev.append(Event("NobleGained", seat, {"target": target, "source": source, "by": by}))


# --- the colonist ship and the Mayor (§11.1, A19, A20) ------------------------------------------


@module_effect(MODULE, "ship_refill")
def _refill_ship(s: State, needed: int, ev: Events) -> bool:
    """§11.1: R = max(N, empty building circles) pieces, one of them a noble while nobles remain
    ("se sustituye un trabajador por un Noble", [A]); E1 is not used, so a short colonist
    supply only puts what is left on the ship."""
    nob = s.nobles
    noble = 1 if nob[NOB_SUPPLY] > 0 else 0
    nob[NOB_SUPPLY] -= noble
    nob[NOB_SHIP] += noble
    moved = min(needed - noble, s.colonist_supply)
    s.colonist_supply -= moved
    s.colonist_ship += moved
    if ev is not None:
        ev.append(
            Event("ColonistShipRefilled", None, {"count": moved, "needed": needed, "nobles": noble})
        )
    return True


@effect("villa", "phase_started", roles=(MAYOR,))
def _country_house(s: State, seat: int, role: int, ev: Events) -> None:
    """1897's Country House (B-43): the same at the very start of the Recruiter phase, before
    the Recruiter's advantage."""
    if s.rs.edition.nobles_1897:
        _villa_piece(s, seat, ev)


@effect("villa", "before_distribution")
def _villa(s: State, seat: int, ev: Events) -> None:
    """§11.3 Villa (A42: once per Mayor phase, before placement; Appendix C: after the Mayor's
    privilege, before the distribution): 1 noble from the reserve, else 1 colonist from the
    supply, else nothing.  [A] says "puede tomar"; the engine takes it (a piece more never
    costs the player anything: he may leave it in San Juan), as it takes production."""
    if not s.rs.edition.nobles_1897:  # 1897: at the phase's start (above)
        _villa_piece(s, seat, ev)


def _villa_piece(s: State, seat: int, ev: Events) -> None:
    p = s.players[seat]
    if s.nobles[NOB_SUPPLY] > 0:
        s.nobles[NOB_SUPPLY] -= 1
        p.san_juan += 1
        p.nobles[SAN_JUAN] += 1
        _noble_gained(s, seat, "san_juan", "supply", "villa", ev)
    elif s.colonist_supply > 0:
        s.colonist_supply -= 1
        p.san_juan += 1
        if ev is not None:
            ev.append(
                Event(
                    "ColonistGained",
                    seat,
                    {"target": "san_juan", "source": "supply", "by": "villa"},
                )
            )


@module_effect(MODULE, "distribution")
def _distribution(s: State, ev: Events) -> bool:
    """§4.2 step 2 with nobles on the ship: the pieces are taken one at a time clockwise from the
    Mayor; A19: a player taking one while both kinds are on the ship chooses which."""
    if not s.nobles[NOB_SHIP]:
        return False  # colonists only: the base distribution
    _hand_out(s, 0, ev)
    return True


def _hand_out(s: State, taken: int, ev: Events) -> None:
    """Continue the distribution at the ``taken``-th piece: a decision while the ship holds both
    kinds, then the rest (one kind) in turn, then the arrangement."""
    nob = s.nobles
    n = s.n
    if s.colonist_ship and nob[NOB_SHIP]:
        s.step = STEP_ARRANGE  # nobody arranges before the ship is empty
        s.offers.append([(s.chooser + taken) % n, P_TAKE, taken])
        return
    rest = s.colonist_ship + nob[NOB_SHIP]
    noble = nob[NOB_SHIP] > 0
    for j in range(rest):
        _give(s, (s.chooser + taken + j) % n, noble, ev)
    total = taken + rest
    if ev is not None:
        shares = [total // n + (1 if i < total % n else 0) for i in range(n)]
        ev.append(Event("ColonistsDistributed", s.chooser, {"shares_from_mayor": shares}))
    start_arrangement(s, ev)


def _give(s: State, seat: int, noble: bool, ev: Events) -> None:
    """One piece from the ship to ``seat``'s San Juan."""
    p = s.players[seat]
    p.san_juan += 1
    if noble:
        s.nobles[NOB_SHIP] -= 1
        p.nobles[SAN_JUAN] += 1
        _noble_gained(s, seat, "san_juan", "ship", "mayor", ev)
    else:
        s.colonist_ship -= 1


def _take_legal(s: State, seat: int, arg: int) -> list[Action]:
    return [A.NOBLE_TAKE_ACTIONS[1], A.NOBLE_TAKE_ACTIONS[0]]


def _take(s: State, seat: int, taken: int, action: Action, ev: Events) -> None:
    _give(s, seat, action.a == 1, ev)
    _hand_out(s, taken + 1, ev)


def _take_consistent(s: State, seat: int, taken: int) -> bool:
    return (
        s.phase == MAYOR_PHASE
        and taken >= 0
        and seat == (s.chooser + taken) % s.n
        and s.colonist_ship > 0
        and s.nobles[NOB_SHIP] > 0
    )


OFFER_LEGAL[P_TAKE] = _take_legal
OFFER_ACTS[P_TAKE] = _take
OFFER_VALID[P_TAKE] = lambda s: True
OFFER_ACTION_KINDS[P_TAKE] = frozenset({A.NOBLE_TAKE})
OFFER_CHECK[P_TAKE] = _take_consistent


def _lift(p: Player, total: int, nobles: int) -> None:
    """Every piece back to San Juan: ``total`` pieces, ``nobles`` nobles among them."""
    lift_colonists(p, total)
    p.nobles[:] = [0] * len(p.nobles)
    p.nobles[SAN_JUAN] = nobles


@module_effect(MODULE, "arrange_seat")
def _arrange_seat(s: State, seat: int, ev: Events) -> bool:
    """§4.2 step 3 for a player with nobles: asked when his pieces could end on more than one
    place (fewer pieces than circles on several places, or, with a building of
    ``NOBLE_FUNCTIONS``, nobles and colonists that could be spread over several places: where
    the nobles go is then a choice); otherwise arranged at once."""
    p = s.players[seat]
    nobles = board_nobles(p)
    if not nobles:
        return False  # colonists only: the base rules
    total = p.colonists()
    room = circles(p)
    _lift(p, total, nobles)
    slots = free_slots(p)
    if total < room:
        choice = len(slots) > 1
    else:  # which circles get the nobles: a choice only where it changes a function
        choice = nobles_matter(p) and total > nobles and len(slots) + (1 if total > room else 0) > 1
    if choice:
        s.pending[seat] = True
        return True
    for arg, free in slots:  # the must-fill rule: every circle as far as the pieces go
        for _ in range(min(free, p.san_juan)):
            place_colonist(p, arg)
    _assign_nobles(s, seat, nobles)
    if ev is not None:
        ev.append(Event("ColonistsArranged", seat, arrangement(p)))
    return True


@module_effect(MODULE, "arrange_options")
def _arrange_options(s: State, seat: int) -> list[Action] | None:
    """A pending player places a noble from San Juan with ``mn.<place>`` on the same places as a
    colonist (``m.<place>``, offered only while a colonist waits in San Juan too and where his
    nobles go matters); ``None`` (the base rules' choices) when no noble waits.  Plain loops:
    this is the hottest path of a random playout with the module."""
    p = s.players[seat]
    waiting = p.nobles[SAN_JUAN]
    if not waiting:
        return None
    tiles, workers, bw = p.tiles, p.workers, p.bw
    free_tiles = [k for k in range(NTILES) if tiles[k] > workers[k]]
    free_buildings = [b for b in p.city if _CIRCLES[b] > bw[b]]
    out = [A.AUTO_ACTION]
    if waiting < p.san_juan and nobles_matter(p):
        # both kinds wait and where the nobles go matters: a colonist's placements too
        for k in free_tiles:
            out.append(_PLACE_TILE[k])
        for b in free_buildings:
            out.append(_PLACE_BUILDING[b])
    # otherwise only nobles wait, or their places change nothing: the nobles go first, one
    # decision a piece as in the base game
    for k in free_tiles:
        out.append(_NOBLE_TILE[k])
    for b in free_buildings:
        out.append(_NOBLE_BUILDING[b])
    return out


def _place_noble(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    place_colonist(p, action.a)
    p.nobles[SAN_JUAN] -= 1
    p.nobles[index(action.a)] += 1


PERFORMERS[A.NOBLE_PLACE] = _place_noble


@module_effect(MODULE, "arranged")
def _suggested(s: State, seat: int) -> None:
    """``m.auto``: the base suggestion places the pieces as counts; then the nobles go where
    they do the most (``_noble_room``)."""
    count = board_nobles(s.players[seat])
    if count:
        _assign_nobles(s, seat, count)


def _wants_noble(s: State, seat: int, b: int) -> bool | None:
    """For the suggestion: whether a noble (True) or a colonist (False) serves better on ``b``;
    ``None`` when the two are the same there."""
    p = s.players[seat]
    if b in (CHAPEL, HUNTING_LODGE):  # 1 VP rather than 1 doubloon; 2 VP rather than a discard
        return True
    if b == ZONING_OFFICE:  # -2 on a large building once one is within reach
        return p.doubloons >= 6 and CITY_SPACES - city_used(p) >= 2
    if b == LAND_OFFICE:  # buying plantations while the island has room
        return p.island() >= ISLAND_SPACES
    return None


def _noble_room(s: State, seat: int) -> Iterator[tuple[int, int]]:
    """(``Player.nobles`` index, pieces there) in the order the suggestion fills places with
    nobles: buildings where a noble serves better, the other buildings and the island, San Juan,
    then the buildings where a colonist serves better (only the buildings of ``NOBLE_FUNCTIONS``
    have a preference).  Lazily: the few nobles are usually placed after a place or two."""
    p = s.players[seat]
    bw = p.bw
    first: list[int] = []
    last: list[int] = []
    if nobles_matter(p):
        for b in p.city:
            if b in NOBLE_FUNCTIONS:
                (first if _wants_noble(s, seat, b) else last).append(b)
    for b in first:
        yield NTILES + b, bw[b]
    for b in p.city:
        if b not in NOBLE_FUNCTIONS:
            yield NTILES + b, bw[b]
    workers = p.workers
    for k in range(NTILES):
        yield k, workers[k]
    yield SAN_JUAN, p.san_juan
    for b in last:
        yield NTILES + b, bw[b]


def _assign_nobles(s: State, seat: int, count: int) -> None:
    """Spread the seat's ``count`` nobles over his pieces (the counts per place stay)."""
    nobles = s.players[seat].nobles
    nobles[:] = [0] * len(nobles)
    for i, here in _noble_room(s, seat):
        if here:
            take = min(count, here)
            nobles[i] = take
            count -= take
            if not count:
                break
    assert count == 0, "more nobles than pieces"


# --- Settler: Hunting Lodge (A40) ----------------------------------------------------------------


def _removable(p: Player) -> list[int]:
    """The island tiles a Land Office (noble) or Hunting Lodge (colonist) may remove: plantations
    ("loseta de Plantación", not quarries) and Exp. 1 forests."""
    out = [k for k in range(NGOODS) if p.tiles[k]]
    if any(p.forests):
        out.append(FOREST)
    return out


def _empty_spaces(p: Player) -> int:
    return ISLAND_SPACES - p.island()


@effect("hunting_lodge", "settler_ending")
def _hunting_lodge(s: State, ev: Events) -> bool:
    """§11.3 Hunting Lodge, Appendix C: at the end of the Settler phase, after the Exp. 1
    Library's second pick (handlers run in catalog order), for each owner clockwise from the
    Settler: with a noble +2 VP if he has strictly more empty island spaces than every other
    player (A40: a tie gives nobody anything); with a colonist he may discard a plantation or a
    forest (a ``hunting_lodge`` decision).  True while a decision is pending."""
    nob = s.nobles
    n = s.n
    while nob[NOB_LODGE] < n:
        seat = (s.chooser + nob[NOB_LODGE]) % n
        nob[NOB_LODGE] += 1
        p = s.players[seat]
        if p.bw[HUNTING_LODGE] <= 0:
            continue
        if noble_on(p, HUNTING_LODGE):
            mine = _empty_spaces(p)
            if all(mine > _empty_spaces(o) for i, o in enumerate(s.players) if i != seat):
                gain_vp(s, seat, HUNTING_LODGE_VP, "hunting_lodge", ev)
        elif _removable(p):
            s.offers.append([seat, P_LODGE, 0])
            return True
    nob[NOB_LODGE] = 0
    return False


def _lodge_legal(s: State, seat: int, arg: int) -> list[Action]:
    p = s.players[seat]
    return [*(A.HUNTING_LODGE_ACTIONS[k] for k in _removable(p)), A.PASS_ACTION]


def _lodge(s: State, seat: int, arg: int, action: Action, ev: Events) -> None:
    if action.kind == A.PASS:
        if ev is not None:
            ev.append(Event("OfferDeclined", seat, {"offer": P_LODGE}))
        return
    tile, displaced = _remove_tile(s, seat, action.a)
    if ev is not None:
        ev.append(
            Event(
                "PlantationDiscarded",
                seat,
                {"tile": tile, "by": "hunting_lodge", "displaced": displaced},
            )
        )


def _lodge_consistent(s: State, seat: int, arg: int) -> bool:
    p = s.players[seat]
    return (
        s.phase == SETTLER_PHASE
        and arg == 0
        and p.bw[HUNTING_LODGE] > 0
        and not noble_on(p, HUNTING_LODGE)
        and bool(_removable(p))
    )


OFFER_LEGAL[P_LODGE] = _lodge_legal
OFFER_ACTS[P_LODGE] = _lodge
OFFER_VALID[P_LODGE] = lambda s: True
OFFER_ACTION_KINDS[P_LODGE] = frozenset({A.HUNTING_LODGE, A.PASS})
OFFER_CHECK[P_LODGE] = _lodge_consistent


def _remove_tile(s: State, seat: int, tile: int) -> tuple[str, str | None]:
    """Remove a plantation (or, ``FOREST``, a forest) from the island to the plantation discards
    ([A]: "colocándola en la pila de descartes"); the tile's piece, if it had one, goes to San
    Juan ([A]).  Engine choice: an unoccupied tile of that kind when there is one (the player
    loses nothing else that way); the piece that leaves is a colonist when the tiles of that
    kind hold one (``_piece_moving``).  Returns the tile's name and the displaced piece."""
    p = s.players[seat]
    if tile == FOREST:
        kind = next(k for k in range(NGOODS) if p.forests[k])
        p.forests[kind] -= 1  # it goes back to the discards of the plantation it was
        s.discard[kind] += 1
        return "forest", None
    displaced = None
    if p.workers[tile] == p.tiles[tile]:
        displaced = "noble" if _piece_moving(s, seat, tile, SAN_JUAN_SLOT) else "colonist"
        p.workers[tile] -= 1
        p.san_juan += 1
    p.tiles[tile] -= 1
    s.discard[tile] += 1
    return TILES[tile], displaced


# --- Builder: Zoning Office (A43) -------------------------------------------------------------


@effect("zoning_office", "build_discount")
def _zoning_office(s: State, seat: int) -> tuple[int, int, int, int]:
    """§11.3 Zoning Office: with a colonist 1 doubloon less for a small building (rows 1-3, A43:
    production buildings included), with a noble 2 less for a large one (row 4); it stacks with
    the other discounts, floor 0 (§6)."""
    if noble_on(s.players[seat], ZONING_OFFICE):
        return (0, 0, 0, 2)
    return (1, 1, 1, 0)


assert LARGE_COLUMN == 4  # the last of the discounts by column


# --- Craftsman: Chapel, Jeweler ---------------------------------------------------------------


@effect("chapel", "phase_started", roles=(CRAFTSMAN,))
def _chapel(s: State, seat: int, role: int, ev: Events) -> None:
    """§11.3 Chapel, at the start of every Craftsman phase: 1 doubloon with a colonist, 1 VP
    with a noble."""
    if noble_on(s.players[seat], CHAPEL):
        gain_vp(s, seat, 1, "chapel", ev)
    else:
        pay(s, seat, 1, "chapel", ev)


@effect("jeweler", "produced")
def _jeweler(s: State, seat: int, received: list[int], ev: Events) -> None:
    """§11.3 Jeweler, at the owner's production step (Appendix C: after the Factory and the
    Exp. 1 Specialty Factory): 1 doubloon per noble on his board ("en su isla", [A]; San Juan
    included as for the Royal Supplier, A44); 1897's ``tailor_cap`` (§9.3): at most 3."""
    amount = board_nobles(s.players[seat])
    cap = s.rs.jeweler_cap
    pay(s, seat, amount if cap is None else min(cap, amount), "jeweler", ev)


# --- Trader: Land Office (A41) ----------------------------------------------------------------


@effect("land_office", "sell_options")
def _land_office_options(s: State, seat: int, out: list[Action]) -> None:
    """§11.3 Land Office, A41: once per Trader phase, on the owner's Trader turn, in addition to
    his sale (before it: a sale ends the turn).  With a colonist: buy the top face-down
    plantation for 1 doubloon (room on the island and a tile in the stacks needed); with a
    noble: sell one of his plantations or forests for 1 doubloon (no Market or privilege bonus,
    public source)."""
    if s.flags & F_LAND_OFFICE:
        return
    p = s.players[seat]
    nobles_1897 = s.rs.edition.nobles_1897
    if noble_on(p, LAND_OFFICE):
        # 1897 (B-38 [C]): a property only, not a forest
        out.extend(A.LAND_OFFICE_SELL[k] for k in _removable(p) if not nobles_1897 or k < NGOODS)
    elif (
        p.doubloons >= LAND_OFFICE_PRICE
        and p.island() < ISLAND_SPACES
        and (sum(s.deck) > 0 or (nobles_1897 and s.rs.hacienda_recycles and sum(s.discard) > 0))
    ):
        out.append(A.LAND_OFFICE_BUY)


def _land_office(s: State, seat: int, action: Action, ev: Events) -> None:
    s.flags |= F_LAND_OFFICE
    p = s.players[seat]
    if action.b == 0:  # buy
        p.doubloons -= LAND_OFFICE_PRICE
        s.bank += LAND_OFFICE_PRICE
        if not sum(s.deck):  # 1897: from the recycled discard, as the Hacienda
            recycle_discard(s)
        kind = draw_plantation(s)
        assert kind is not None  # offered only while the stacks hold a tile
        p.tiles[kind] += 1
        if ev is not None:
            ev.append(
                Event(
                    "PlantationTaken",
                    seat,
                    {"tile": TILES[kind], "source": "land_office", "price": LAND_OFFICE_PRICE},
                )
            )
        if any_hook(s, seat, "forest_allowed"):
            # [A]: with an occupied Exp. 1 Forest House he may place it as a forest instead
            s.offers.append([seat, "forest", kind])
        else:
            island_gained(s, seat, kind, ev)
        return
    tile, displaced = _remove_tile(s, seat, action.a)
    pay(s, seat, LAND_OFFICE_PRICE, "land_office", None)
    if ev is not None:
        ev.append(
            Event(
                "PlantationSold",
                seat,
                {"tile": tile, "price": LAND_OFFICE_PRICE, "displaced": displaced},
            )
        )


PERFORMERS[A.LAND_OFFICE] = _land_office
EXTRA_KINDS.add(A.LAND_OFFICE)  # the same seat decides again (his sale is still to come)


# --- Captain: Royal Supplier (A44) ------------------------------------------------------------


@effect("royal_supplier", "captain_turn")
def _royal_supplier(s: State, seat: int, ev: Events) -> bool:
    """§11.3 Royal Supplier, only before the owner's first turn of the Captain phase (occupied by
    a colonist or a noble): a ``royal_supplier`` decision when he has a noble and a barrel."""
    bit = F_SUPPLIER << seat
    if s.flags & bit or s.rs.edition.nobles_1897:  # 1897: at the phase's start (below)
        return False
    s.flags |= bit
    p = s.players[seat]
    if board_nobles(p) and any(p.goods):
        s.offers.append([seat, P_SUPPLIER, 0])
        return True
    return False


@effect("royal_supplier", "phase_started", roles=(CAPTAIN,))
def _rescue_post(s: State, seat: int, role: int, ev: Events) -> None:
    """1897's Rescue Post (B-42, §6.3): the same trade at the start of the Captain phase, before
    anyone loads, owner by owner clockwise from the Captain."""
    p = s.players[seat]
    if s.rs.edition.nobles_1897 and board_nobles(p) and any(p.goods):
        s.offers.append([seat, P_SUPPLIER, 0])


def _supplier_legal(s: State, seat: int, arg: int) -> list[Action]:
    """A44: at most (nobles on his board, San Juan included) barrels, each of a different kind."""
    p = s.players[seat]
    most = board_nobles(p)
    held = 0  # the kinds he has a barrel of, as bits
    for k in range(NGOODS):
        if p.goods[k]:
            held |= 1 << k
    out = [a for kinds, size, a in _SUPPLIER_TRADES if size <= most and kinds & held == kinds]
    out.append(A.PASS_ACTION)
    return out


# the Royal Supplier's trades in code order: (kinds as bits, barrels, action)
_SUPPLIER_TRADES: Final = [
    (sum(one << k for k, one in enumerate(kinds)), sum(kinds), action)
    for kinds, action in A.ROYAL_SUPPLIER_ACTIONS.items()
]


def _supplier(s: State, seat: int, arg: int, action: Action, ev: Events) -> None:
    """1 VP per barrel traded, the barrels back to the supply; no other bonus (no Harbor,
    Lighthouse or Captain privilege: "no puede obtener ninguna otra bonificación", [A])."""
    if action.kind == A.PASS:
        if ev is not None:
            ev.append(Event("OfferDeclined", seat, {"offer": P_SUPPLIER}))
        return
    p = s.players[seat]
    for k, one in enumerate(action.keep):
        p.goods[k] -= one
        s.goods[k] += one
    if ev is not None:
        traded = [GOODS[k] for k, one in enumerate(action.keep) if one]
        ev.append(Event("GoodsTraded", seat, {"goods": traded, "by": "royal_supplier"}))
    gain_vp(s, seat, sum(action.keep), "royal_supplier", ev)


def _supplier_consistent(s: State, seat: int, arg: int) -> bool:
    p = s.players[seat]
    return (
        s.phase == CAPTAIN_PHASE
        and arg == 0
        and p.bw[ROYAL_SUPPLIER] > 0
        and board_nobles(p) > 0
        and any(p.goods)
    )


OFFER_LEGAL[P_SUPPLIER] = _supplier_legal
OFFER_ACTS[P_SUPPLIER] = _supplier
OFFER_VALID[P_SUPPLIER] = lambda s: True
OFFER_ACTION_KINDS[P_SUPPLIER] = frozenset({A.ROYAL_SUPPLIER, A.PASS})
OFFER_CHECK[P_SUPPLIER] = _supplier_consistent


# --- final scoring: nobles (A54), Royal Garden ----------------------------------------------------


@module_effect(MODULE, "final_scoring")
def _noble_vp(s: State, seat: int) -> dict[str, int]:
    """§11.1, A54: 1 VP per noble on the player's board, San Juan included."""
    return {"nobles": board_nobles(s.players[seat])}


@effect("royal_garden", "final_bonus")
def _royal_garden(s: State, seat: int) -> int:
    """§11.3 Royal Garden, occupied at the end: +1 VP per noble on his board ("ya esté en un
    Edificio, una Plantación o el Puerto", [A])."""
    return board_nobles(s.players[seat])


# --- Exp. 3 Raid (A34) --------------------------------------------------------------------------


def raid_split(s: State, removed: int, kept: int) -> tuple[int, int]:
    """Exp. 3 Raid with nobles on the ship (A34: a noble counts as a piece): of the ``removed``
    pieces the Buccaneer keeps ``kept``.  Engine choice: he removes and keeps the nobles first
    (a noble serves as a colonist and is worth 1 VP more); a removed piece he cannot keep goes
    back to its supply.  Moves the nobles; returns the colonists removed and kept."""
    nob = s.nobles
    kept_nobles = min(nob[NOB_SHIP], kept)
    colonists = min(s.colonist_ship, removed - kept_nobles)
    lost = removed - kept_nobles - colonists
    nob[NOB_SHIP] -= kept_nobles + lost
    nob[NOB_SUPPLY] += lost
    nob[NOB_RAID] = kept_nobles
    return colonists, kept - kept_nobles


def raid_place(s: State, seat: int, slot: int, ev: Events) -> bool:
    """A kept Raid piece was placed on ``slot`` (its count is done): whether it is a noble (the
    kept nobles are placed first)."""
    nob = s.nobles
    if not nob or not nob[NOB_RAID]:
        return False
    nob[NOB_RAID] -= 1
    s.players[seat].nobles[index(slot)] += 1
    name = TILES[slot] if slot < BUILDING_SLOT else CATALOG[slot - BUILDING_SLOT].name
    _noble_gained(s, seat, name, "ship", "raid", ev)
    return True


def raid_return(s: State) -> int:
    """The kept Raid pieces that found no place: their nobles go back to the noble supply;
    returns how many."""
    nob = s.nobles
    if not nob:
        return 0
    left = nob[NOB_RAID]
    nob[NOB_SUPPLY] += left
    nob[NOB_RAID] = 0
    return left


# --- view and invariants ----------------------------------------------------------------------


class NoblesPart(TypedDict):
    """The view's ``nobles``: in the supply, on the colonist ship, from a Raid to place."""

    supply: int
    ship: int
    raid_to_place: int


class PlayerNobles(TypedDict):
    """A player's ``nobles`` in the view: on his board in all, and in his San Juan."""

    total: int
    san_juan: int


def view_part(s: State) -> NoblesPart | None:
    """The public ``nobles`` key of the view (``None`` without the module)."""
    if not s.nobles:
        return None
    return {
        "supply": s.nobles[NOB_SUPPLY],
        "ship": s.nobles[NOB_SHIP],
        "raid_to_place": s.nobles[NOB_RAID],
    }


def view_players(s: State, players: list[PlayerEntry]) -> None:
    """With the module, each player's view shows his nobles: ``nobles`` {total, san_juan}, each
    island entry ``noble`` (the occupied tiles of a kind list their nobles first) and each city
    entry ``nobles``."""
    if not s.nobles:
        return
    for p, entry in zip(s.players, players, strict=True):
        seen = [0] * NTILES
        for tile in entry["island"]:
            kind = TILE_INDEX.get(tile["tile"], -1)  # -1: an Exp. 1 forest
            tile["noble"] = kind >= 0 and seen[kind] < p.nobles[kind]
            if kind >= 0:
                seen[kind] += 1
        for building in entry["city"]:
            building["nobles"] = p.nobles[NTILES + BUILDING_INDEX[building["building"]]]
        entry["nobles"] = {"total": board_nobles(p), "san_juan": p.nobles[SAN_JUAN]}


def nobles_failures(s: State, raid_pieces: int) -> list[str]:
    """The nobles exist exactly with the module; 20 of them (supply, ship, Raid, boards); never
    more nobles on a place than pieces, never one on a building not owned; the Raid's nobles
    among its pieces; the Hunting Lodge's progress only at the end of a Settler phase."""
    if MODULE not in s.rs.modules:
        if s.nobles or any(p.nobles for p in s.players):
            return ["nobles:not_in_play"]
        return []
    nob = s.nobles
    if len(nob) != 4 or any(len(p.nobles) != SAN_JUAN + 1 for p in s.players):
        return ["nobles:shape"]
    out = []
    if min(nob) < 0 or any(v < 0 for p in s.players for v in p.nobles):
        out.append("nobles:negative")
    total = nob[NOB_SUPPLY] + nob[NOB_SHIP] + nob[NOB_RAID] + sum(map(board_nobles, s.players))
    if s.rs.automata:  # 1897 §8.13: the Citizens working on the Puertomas' boards
        total += AUTOMATON["citizens"](s)
    if total != NOBLES_TOTAL:
        out.append(f"conservation:nobles:{total}!={NOBLES_TOTAL}")
    if nob[NOB_RAID] > raid_pieces:
        out.append("nobles:raid")
    if not 0 <= nob[NOB_LODGE] <= s.n or (nob[NOB_LODGE] and s.phase != SETTLER_PHASE):
        out.append("nobles:lodge")
    for seat, p in enumerate(s.players):
        nobles = p.nobles
        if (
            any(nobles[k] > p.workers[k] for k in range(NTILES))
            or any(nobles[NTILES + b] > max(p.bw[b], 0) for b in range(NBUILDINGS))
            or nobles[SAN_JUAN] > p.san_juan
        ):
            out.append(f"player:{seat}:nobles")
    return out
