"""Building effects, attached to the named hook points of the role code.

The role code never names a violet building: it calls the handlers registered for a hook point,
and a handler runs only for a player who owns that building *occupied* (§4.0: unoccupied
buildings do nothing).  An expansion adds buildings to the catalog and registers its handlers in
the same table; no role code changes.  The hook points are listed in ``HOOK_POINTS`` and in the
``engine`` package docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..core import Event
from .actions import (
    BUILDING_INDEX,
    BUILDING_SLOT,
    CATALOG,
    HACIENDA,
    HACIENDA_ACTION,
    SAN_JUAN_SLOT,
    WHARF,
    WHARF_ACTIONS,
)
from .data import (
    FACTORY_BONUS,
    ISLAND_SPACES,
    LARGE_PRODUCTION,
    RESIDENCE_BONUS,
    SMALL_PRODUCTION,
    TILES,
    EditionOption,
)
from .ops import (
    Events,
    colonist_from_supply_or_ship,
    draw_plantation,
    gain_vp,
    pay,
    recycle_discard,
)
from .state import State

Handler = Callable[..., Any]

HOOK_POINTS: Final[dict[str, str]] = {
    "settler_options": "(s, seat, out) add choices to a Settler turn (Hacienda draw, forests)",
    "quarry_allowed": "(s, seat) -> bool: a non-Settler may take a quarry (Construction Hut)",
    "forest_allowed": "(s, seat) -> bool: a plantation may be placed as a forest (Forest House)",
    "tile_placed": "(s, seat, tile, ev) after the normal Settler pick is placed (Hospice)",
    "island_gained": "(s, seat, tile, ev) after any tile joins an island (Exp. 4 plantation goal)",
    "build_discount": "(s, seat) -> (doubloons off a building of column 1, 2, 3, 4): extra"
    " discounts by the building's column (Forest House, Zoning Office)",
    "build_options": "(s, seat, out, short) add ways to build to a Builder turn; ``short``"
    " lists (building, doubloons missing) for each building he could place but not pay, in"
    " catalog order (Black Market)",
    "built": "(s, seat, building, ev) after a building is placed (University)",
    "bought": "(s, seat, building, paid, ev) a building was just placed and paid for, before"
    " the ``built`` handlers: ``paid`` the coins it cost him (1897 Exp. VI: Big Spender,"
    " Master Architect)",
    "settle_passed": "(s, seat, ev) a Settler turn ends without a pick (1897 Hospital)",
    "produced": "(s, seat, received, ev) after a player's production (Factory)",
    "craftsman_ended": "(s, seat, ev) the Craftsman's privilege over, for him (1897 Distillery)",
    "sale_any_kind": "(s, seat) -> bool: may sell a kind already in the house (Office)",
    "sale_bonus": "(s, seat) -> int: extra doubloons per sale (Small/Large Market)",
    "sell_options": "(s, seat, out) add sales to a Trader turn (Trading Post)",
    "load_options": "(s, seat, out) add load choices to a Captain turn (Wharf)",
    "loaded": "(s, seat, good, count, ev) after each load of any kind (Harbor)",
    "shipped": "(s, seat, ship, goods, ev) after each load, once the ``loaded`` handlers ran:"
    " ``ship`` the cargo ship loaded (-1: a private ship, Wharf or Small Wharf), ``goods`` the"
    " crates loaded by good (1897 Exp. V: dispatches, Festival Goods Delivery)",
    "sold": "(s, seat, good, price, filled, ev) after a sale to the trading house (not an Exp. 1"
    " Trading Post's); ``filled``: that crate filled it (1897 Exp. V: Closing the Work)",
    "captain_ended": "(s, ev) at the Captain phase's end, the ships emptied (1897 Exp. V)",
    "vp_gained": "(s, seat, amount, ev) after a player takes VP tokens (``ops.gain_vp``; 1897"
    " Exp. VI: Trade Strategist)",
    "action_done": "(s, seat, ev) after each action of ``seat`` and the automatic steps it set"
    " off, once play waits for the next decision (1897 Exp. VI: the objectives a player's"
    " position meets)",
    "anytime": "(s, seat) -> Sequence[Action]: actions the seat may take at any moment of the"
    " game, prompted or not, which change neither the prompt nor whose turn it is (1897 Exp."
    " VI: announcing an Achievement); ``ANYTIME_REFUSALS`` names their kinds; listed once for"
    " every seat and kept (``State.anytime_listed``) until the module calls"
    " ``anytime_changed``",
    "anytime_open": "(s, seat) -> bool: the seat may come to have ``anytime`` actions, from"
    " what everyone sees (1897 Exp. VI: he holds a card face down); a prompt naming him is"
    " then never ``forced``, so that ``forced`` tells nothing hidden",
    "storage": "(s, seat) -> (kinds, barrels): barrels kept after loading (warehouses)",
    "final_bonus": "(s, seat) -> int: end-game VP of an occupied building (large buildings)",
    "privilege_bonus": "(s, seat) -> int: a role privilege counts that much more (Library)",
    "phase_started": "(s, seat, role, ev) at a role phase's start, before its automatic steps,"
    " for each owner clockwise from the chooser; registered with the roles it acts for (Union"
    " Hall, Lighthouse: the Captain's)",
    "settler_ending": "(s, ev) -> bool: after every Settler turn; True: one more turn was set"
    " up (Library)",
    "interlude": "(s, seat, out) actions at a phase's start (not the Mayor's) and before the"
    " Captain's storage; a seat with any is asked (Guest House)",
    "turn_extras": "(s, seat, out) actions added to each of the seat's decisions in a role"
    " phase but the Mayor's, taken without ending the turn (Guest House)",
    "before_distribution": "(s, seat, ev) in the Mayor phase after the privilege, before the"
    " ship's pieces are handed out, for each owner clockwise from the Mayor (Exp. 2 Villa)",
    "captain_turn": "(s, seat, ev) -> bool: each time a Captain turn comes to an owner, before"
    " his loading options; True: a decision was set up (Exp. 2 Royal Supplier)",
    # structural points, for modules only
    "roles_refused": "(s, seat) -> int: a bit mask of the role cards (``1 << card``) the seat"
    " may not choose now (Exp. 3 token)",
    "role_chosen": "(s, seat, card, ev) after a role card is taken (Exp. 3 token, Capture)",
    "round_ending": "(s, ev) -> bool: before the round's end; True: a phase was started (Exp. 3)",
    "draft_ended": "(s, ev) after the Exp. 1 draft filled the board (Exp. 4 construction goal)",
    # Exp. 2: nobles are a second kind of colonist; the base rules move every piece as a count
    # per place, a module keeps its own pieces among them
    "distribution": "(s, ev) -> bool: the module hands the ship's pieces out itself and then"
    " calls phases.start_arrangement (True); False: the base distribution (Exp. 2 nobles)",
    "arrange_seat": "(s, seat, ev) -> bool: when the Mayor's arrangement starts, the module"
    " arranges this seat (or flags it pending) itself (True; Exp. 2: a player with nobles)",
    "arrange_options": "(s, seat) -> [Action] | None: a pending seat's arrangement choices when"
    " the module makes them (Exp. 2: with a noble waiting in San Juan, a noble's placements, and"
    " a colonist's where both kinds wait and where the nobles go matters); None: the base rules'",
    "arranged": "(s, seat) after the suggested arrangement (m.auto) placed the seat's pieces as"
    " counts: the module places its own among them (Exp. 2: where the nobles are)",
    "ship_refill": "(s, needed, ev) -> bool: the module refills the colonist ship itself (True;"
    " Exp. 2: one piece a noble, no E1)",
    "piece_moving": "(s, seat, src, dst) -> bool: one of the seat's pieces leaves slot src for"
    " slot dst (SUPPLY_SLOT: the supplies); True: it is the module's own piece, which it moved"
    " (Exp. 2: a noble, when src holds no colonist); the caller moves the count",
    "final_scoring": "(s, seat) -> {name: VP}: the module's end-game VP (Exp. 2: nobles)",
}

# Actions contributed by buildings through the *_options hook points: kind -> performer.  A
# Settler performer returns whether the turn is over; a Builder performer pays and returns the
# doubloons paid (the role code places the building); a Captain performer returns the barrels
# loaded (VP: ``LOAD_VP`` of its kind, else one per barrel); a Trader performer sells.
PERFORMERS: Final[dict[int, Handler]] = {}
LOAD_VP: Final[dict[int, Callable[[int], int]]] = {}
# kinds of the actions on ``turn_extras``: performed, and the same seat decides again
EXTRA_KINDS: Final[set[int]] = set()
# kinds of the actions on ``anytime``: kind -> (s, seat, action) -> the error code when it is
# not legal for the seat now.  Performed by ``PERFORMERS`` with no automatic step after them
# (the decision waiting stays the same), accepted from any seat, prompted or not.
ANYTIME_REFUSALS: Final[dict[int, Callable[[State, int, Any], str]]] = {}
# Optional follow-ups a building grants: offer name -> (s, seat, arg, ev) when accepted; when
# declined, ``DECLINE_HANDLERS`` (if any); ``OFFER_VALID`` (s) -> bool: the offer still has a
# source (default: a colonist in the supply or on the ship), else it is dropped.
OFFER_HANDLERS: Final[dict[str, Handler]] = {}
DECLINE_HANDLERS: Final[dict[str, Handler]] = {}
OFFER_VALID: Final[dict[str, Callable[[State], bool]]] = {}
# A decision of a module asked as an offer ``[seat, name, arg]`` with its own actions: name ->
# (s, seat, arg) -> [Action] (``OFFER_LEGAL``), (s, seat, arg, action, ev) applying one
# (``OFFER_ACTS``; it may queue the next offer), the action kinds of its prompt (for error codes)
# and (s, seat, arg) -> bool: the offer is consistent (``OFFER_CHECK``, for the invariants).
OFFER_LEGAL: Final[dict[str, Handler]] = {}
OFFER_ACTS: Final[dict[str, Handler]] = {}
OFFER_ACTION_KINDS: Final[dict[str, frozenset[int]]] = {}
OFFER_CHECK: Final[dict[str, Callable[[State, int, int], bool]]] = {}
FOREST_TILE: Final = 6  # the tile of hook points for a forest (Exp. 1), after the TILES kinds
SUPPLY_SLOT: Final = -1  # ``piece_moving``: the piece goes back to its supply

# building name -> {hook point -> handler}
EFFECTS: Final[dict[str, dict[str, Handler]]] = {}
# An expansion's rules that belong to no building (Exp. 4 goals): module -> {hook -> handler}.
# They run for every player, and only on the hook points whose callers run them (``ALWAYS``).
MODULE_EFFECTS: Final[dict[str, dict[str, Handler]]] = {}
MODULE_HOOK_POINTS: Final = frozenset(
    {
        "island_gained",
        "built",
        "produced",
        "roles_refused",
        "role_chosen",
        "round_ending",
        "draft_ended",
        "distribution",
        "arrange_seat",
        "arrange_options",
        "arranged",
        "ship_refill",
        "piece_moving",
        "final_scoring",
        "shipped",
        "sold",
        "captain_ended",
        "bought",
        "vp_gained",
        "action_done",
        "anytime",
        "anytime_open",
    }
)
# module -> (s, ev) run once at setup, after the supplies are laid out (Exp. 4 goals)
MODULE_SETUP: Final[dict[str, Handler]] = {}
# module -> (s, ev) run once at the end of setup, after the face-up plantations are turned up
# and the starting ones dealt (1897 Exp. V: the cards' properties come out of what the bag has
# left, so that 1897's starting properties, taken after the market, are always there, A-27)
MODULE_LATE_SETUP: Final[dict[str, Handler]] = {}
# module -> its rule options (``EditionOption``, the default first): known only in an edition
# that may play the module, stored only in games that play it (so that other games' options,
# dumps and golden hashes stay as they were), refused without it (1897 Exp. VI's deal / draft)
MODULE_OPTIONS: Final[dict[str, tuple[EditionOption, ...]]] = {}
# module -> the module it is played with (1897 Exp. V, on the Festival board: ``festival``)
MODULE_NEEDS: Final[dict[str, str]] = {}
# The seats the engine plays itself (``Ruleset.automata``: 1897's Puertomas, whose package
# registers every procedure below): the kernel never prompts them, and calls these at their
# decisions and where their pieces count.  Used only in a game with such seats.
AUTOMATON_POINTS: Final[dict[str, str]] = {
    "setup": "(s, ev) after the rest of the setup: their boards and whatever they draw",
    "choose_role": "(s, ev) an automated seat chooses a role (the seat in turn)",
    "turn": "(s, ev) its turn of a role's phase (``s.turn``)",
    "module_turn": "(s, ev) its turn of a module's phase naming one seat",
    "offer": "(s, ev) it decides the first waiting offer (``s.offers[0]``)",
    "arrange": "(s, seat, ev) the Mayor's arrangement: it places its own colonists",
    "recruiter_ended": "(s, ev) after the Mayor's distribution and arrangement",
    "empty_spaces": "(s) -> int: its empty colonist spaces (the colonist ship's refill)",
    "human_empty_circles": "(s) -> int: the other seats' empty building circles (the refill)",
    "built": "(s, seat, building, ev) anyone built a building (a reserved one moves on)",
    "produce": "(s, seat, ev) its production in the Craftsman phase",
    "craftsman_advantage": "(s, ev) it is the Craftsman: it takes its privilege",
    "craftsman_ended": "(s, ev) at the Craftsman phase's end",
    "load": "(s, seat, ev) -> bool: its Captain turn; False: it cannot load",
    "store": "(s, seat, ev) its storage at the Captain phase's end",
    "field": "(s, seat) -> list[int]: its field tiles by kind (``owned_tiles``)",
    "citizens": "(s) -> int: the Exp. 2 nobles on the automated seats' boards",
    "final_parts": "(s, seat) -> {name: VP}: its own final score's parts",
}
AUTOMATON: Final[dict[str, Callable[..., Any]]] = {}
ALWAYS: Final = -1  # the "building" of a module handler in a compiled hook list: no occupant needed


class RolePhase:
    """A role a module adds (Exp. 3 Buccaneer): its phase and the functions the round code,
    ``advance`` and the legality code call for it, so that no role code names it."""

    def __init__(
        self,
        phase: int,
        start: Handler,
        act: Handler,
        legal: Handler,
        prompt_kind: Handler,
        action_kinds: dict[str, frozenset[int]],
        seats: Handler | None = None,
    ) -> None:
        self.phase = phase
        self.start = start  # (s, ev): the role was chosen, s.chooser/s.card are set
        self.act = act  # (s, seat, action, ev): a legal action of the phase
        self.legal = legal  # (s, seat) -> [Action] for the seat in turn
        self.prompt_kind = prompt_kind  # (s) -> str
        self.action_kinds = action_kinds  # prompt kind -> action kinds (for error codes)
        # (s) -> the seats asked at once (several when their order is irrelevant: 1897 Exp. VI's
        # draft); None: the seat in turn; ``legal`` answers for each of them
        self.seats = seats


# module role index -> its phase; phase -> the same
MODULE_ROLES: Final[dict[int, RolePhase]] = {}
MODULE_PHASES: Final[dict[int, RolePhase]] = {}


def module_role(role: int, phase: RolePhase) -> None:
    MODULE_ROLES[role] = phase
    MODULE_PHASES[phase.phase] = phase


def module_phase(phase: RolePhase) -> None:
    """A module's phase that belongs to no role (Exp. 1's draft before the first round)."""
    MODULE_PHASES[phase.phase] = phase


# the roles a ``phase_started`` handler acts for (the ruleset keeps each role's handlers, so that
# the start of another role's phase asks none of them)
STARTED_ROLES: Final[dict[Handler, frozenset[int]]] = {}


def effect(building: str, hook: str, roles: tuple[int, ...] = ()) -> Callable[[Handler], Handler]:
    """Register a building's handler on a hook point (``phase_started``: for ``roles``)."""
    if hook not in HOOK_POINTS:
        raise ValueError(f"unknown hook point {hook}")
    if (hook == "phase_started") != bool(roles):
        raise ValueError("roles are given for phase_started handlers, and only for them")

    def register(fn: Handler) -> Handler:
        EFFECTS.setdefault(building, {})[hook] = fn
        if roles:
            STARTED_ROLES[fn] = frozenset(roles)
        return fn

    return register


def anytime_changed(s: State) -> None:
    """What a handler of the hook point ``anytime`` returns may have changed: the actions are
    listed again before the next decision (``legality.legal``)."""
    s.anytime_listed = None


def automaton(procedures: dict[str, Callable[..., Any]]) -> None:
    """Register the automated seats' procedures (every point of ``AUTOMATON_POINTS``)."""
    if set(procedures) != set(AUTOMATON_POINTS):
        raise ValueError(f"automaton points {sorted(set(procedures) ^ set(AUTOMATON_POINTS))}")
    AUTOMATON.update(procedures)


def module_effect(module: str, hook: str) -> Callable[[Handler], Handler]:
    if hook not in MODULE_HOOK_POINTS:
        raise ValueError(f"hook point {hook} does not run module handlers")

    def register(fn: Handler) -> Handler:
        MODULE_EFFECTS.setdefault(module, {})[hook] = fn
        return fn

    return register


def in_play(s: State) -> list[int]:
    """The buildings of this game, in catalog order: every building of the ruleset, or with the
    Exp. 1 draft the production buildings and the violet ones drafted so far."""
    rs = s.rs
    if not rs.draft:
        return list(rs.buildings)
    return sorted((*rs.setup_buildings, *s.drafted))


def owned_tiles(s: State, seat: int) -> list[int]:
    """``seat``'s field tiles by kind (an automated seat's from ``AUTOMATON``: 1897 §8)."""
    if s.rs.automata and seat in s.rs.automata:
        return list(AUTOMATON["field"](s, seat))
    return s.players[seat].tiles


def island_gained(s: State, seat: int, tile: int, ev: Events) -> None:
    """Run the ``island_gained`` handlers: a tile has just joined ``seat``'s island."""
    for b, fn in s.rs.hooks["island_gained"]:
        if b < 0 or s.players[seat].bw[b] > 0:
            fn(s, seat, tile, ev)


def piece_moving(s: State, seat: int, src: int, dst: int) -> bool:
    """One of ``seat``'s pieces leaves slot ``src`` (a tile kind, ``BUILDING_SLOT`` + a building,
    ``SAN_JUAN_SLOT``) for ``dst`` (the same, or ``SUPPLY_SLOT``): whether it is a module's
    piece that the module has moved itself (Exp. 2: a noble); the caller moves the count (and
    otherwise returns a colonist to the colonist supply)."""
    return any(fn(s, seat, src, dst) for _, fn in s.rs.hooks["piece_moving"])


def island_used(s: State, seat: int) -> int:
    return s.players[seat].island()


# --- Settler ----------------------------------------------------------------------------------

F_HACIENDA_DRAWN: Final = 1  # the seat in turn has drawn its Hacienda tile
F_HOSPICE_USED: Final = 64  # 1897: the seat in turn has had his Hospital worker (one a turn, B-11)
# 1897: the Planter has had his (a phase bit: the Press Center's pick)
F_CHOOSER_HOSPICE: Final = 128
# 1897: the seat in turn turned his Hacienda tile into a forest (a Hospital worker then waits
# for the pick, B-11); the Settler phase only (F_SUPPLIER is the Captain phase's)
F_HACIENDA_FOREST: Final = 256


@effect("hacienda", "settler_options")
def _hacienda_option(s: State, seat: int, out: list[Any]) -> None:
    # §8.2: before the normal pick; never when the island is full or the stacks are empty (A46),
    # nor on an Exp. 1 Library's second pick (the Hacienda acts once per phase)
    # (1897, option hacienda_empty_bag: recycle, A-41: the discards are drawn from too)
    if (
        not s.flags & F_HACIENDA_DRAWN
        and s.turns_taken < s.n
        and (sum(s.deck) > 0 or (s.rs.hacienda_recycles and sum(s.discard) > 0))
        and island_used(s, seat) < ISLAND_SPACES
    ):
        out.append(HACIENDA_ACTION)


def _hacienda_draw(s: State, seat: int, action: Any, ev: Events) -> int:
    recycled = not sum(s.deck) and recycle_discard(s)  # 1897, as PLN-6
    kind = draw_plantation(s)
    assert kind is not None  # offered only while the stacks (or the discards) hold a tile
    p = s.players[seat]
    p.tiles[kind] += 1
    s.flags |= F_HACIENDA_DRAWN
    if ev is not None:
        data: dict[str, Any] = {"tile": TILES[kind], "source": "hacienda"}
        if recycled:
            data["reshuffled"] = True
        ev.append(Event("PlantationTaken", seat, data))
    if any_hook(s, seat, "forest_allowed"):
        # Exp. 1 Forest House: he sees the tile, then decides whether it becomes a forest; the
        # tile joins the island (island_gained) when he has decided
        s.offers.append([seat, "forest", kind])
    else:
        hacienda_tile_placed(s, seat, kind, ev)
        island_gained(s, seat, kind, ev)
    return 0


def hacienda_tile_placed(s: State, seat: int, kind: int, ev: Events) -> None:
    """1897 (B-11, D-13): the Hospital may serve the Hacienda's tile too (before the Festival, as
    a pick's: Appendix C); a forest's worker waits for the pick (``F_HACIENDA_FOREST``)."""
    if not s.rs.hospice_either_tile:
        return
    if kind == FOREST_TILE:
        s.flags |= F_HACIENDA_FOREST
        return
    p = s.players[seat]
    for b, fn in s.rs.hooks["tile_placed"]:
        if p.bw[b] > 0:
            fn(s, seat, kind, ev)


def any_hook(s: State, seat: int, hook: str) -> bool:
    """Whether an occupied building of ``seat`` answers yes on a yes/no hook point."""
    bw = s.players[seat].bw
    return any(bw[b] > 0 and fn(s, seat) for b, fn in s.rs.hooks[hook])


PERFORMERS[HACIENDA] = _hacienda_draw


@effect("construction_hut", "quarry_allowed")
def _construction_hut(s: State, seat: int) -> bool:
    return True


@effect("hospice", "tile_placed")
def _hospice_offer(s: State, seat: int, tile: int, ev: Events) -> None:
    # §8.2 Hospice: plantation or quarry (ruling A13); supply, else ship (ruling A12).  Exp. 1
    # Library: only for the first tile of the phase (§10.2), not the second pick.
    # 1897 (B-11, D-13): one colonist a turn, on the Hacienda's tile or the pick's
    # (1897, B-33: and the Press Center's second pick, still one colonist for the Planter)
    if (
        tile == FOREST_TILE
        and s.rs.hospice_either_tile
        and s.turn == seat
        and s.flags & F_HACIENDA_DRAWN
        and not s.flags & F_HACIENDA_FOREST
    ):
        return  # 1897 (B-11): a forest pick after a Hacienda property: the worker was its
    first = s.turns_taken < s.n
    if (
        (s.colonist_supply > 0 or s.colonist_ship > 0)
        and (first or (s.rs.hospice_either_tile and not s.flags & F_CHOOSER_HOSPICE))
        and not s.flags & F_HOSPICE_USED
    ):
        s.offers.append([seat, "hospice", tile])


def _gain_colonist(s: State, seat: int, slot: int, by: str, ev: Events) -> None:
    """One colonist from the supply, else the ship, onto ``slot`` (a tile kind, or
    ``BUILDING_SLOT`` + a building index); nothing when both are empty."""
    source = colonist_from_supply_or_ship(s)
    if source is None:
        return
    p = s.players[seat]
    if slot == SAN_JUAN_SLOT:
        p.san_juan += 1
        target = "san_juan"
    elif slot < BUILDING_SLOT:
        p.workers[slot] += 1
        target = TILES[slot]
    else:
        p.bw[slot - BUILDING_SLOT] += 1
        target = CATALOG[slot - BUILDING_SLOT].name
    if ev is not None:
        ev.append(Event("ColonistGained", seat, {"target": target, "source": source, "by": by}))


@effect("hospice", "settle_passed")
def _hospice_forest_only(s: State, seat: int, ev: Events) -> None:
    """1897 (B-11): his only new tile a forest (the Hacienda's), the worker goes to the
    portrait (San Juan)."""
    if s.flags & F_HACIENDA_FOREST:
        _hospice_offer(s, seat, FOREST_TILE, ev)


def _hospice_accept(s: State, seat: int, tile: int, ev: Events) -> None:
    # Exp. 1: the colonist for a forest goes to San Juan (§10.2 Forest House)
    _gain_colonist(s, seat, SAN_JUAN_SLOT if tile == FOREST_TILE else tile, "hospice", ev)
    if s.rs.hospice_either_tile:
        if s.turn == seat and s.flags & F_HACIENDA_DRAWN:
            s.flags |= F_HOSPICE_USED  # 1897: taken for the Hacienda's tile, none for the pick
        if seat == s.chooser:
            s.flags |= F_CHOOSER_HOSPICE  # none for the Press Center's second pick either


OFFER_HANDLERS["hospice"] = _hospice_accept


# --- Builder ----------------------------------------------------------------------------------


@effect("university", "built")
def _university_offer(s: State, seat: int, building: int, ev: Events) -> None:
    if CATALOG[building].circles > 0 and (s.colonist_supply > 0 or s.colonist_ship > 0):
        s.offers.append([seat, "university", building])


def _university_accept(s: State, seat: int, building: int, ev: Events) -> None:
    _gain_colonist(s, seat, BUILDING_SLOT + building, "university", ev)


OFFER_HANDLERS["university"] = _university_accept


# --- Craftsman --------------------------------------------------------------------------------


@effect("factory", "produced")
def _factory(s: State, seat: int, received: list[int], ev: Events) -> None:
    kinds = sum(1 for n in received if n > 0)
    pay(s, seat, FACTORY_BONUS[kinds], "factory", ev)


# --- Trader -----------------------------------------------------------------------------------


@effect("office", "sale_any_kind")
def _office(s: State, seat: int) -> bool:
    return True


@effect("small_market", "sale_bonus")
def _small_market(s: State, seat: int) -> int:
    return 1


@effect("large_market", "sale_bonus")
def _large_market(s: State, seat: int) -> int:
    return 2


# --- Captain ----------------------------------------------------------------------------------


@effect("wharf", "load_options")
def _wharf_options(s: State, seat: int, out: list[Any]) -> None:
    if not s.wharf_used & (1 << seat):
        goods = s.players[seat].goods
        out.extend(WHARF_ACTIONS[k] for k in range(len(goods)) if goods[k])


def _wharf_ship(s: State, seat: int, action: Any, ev: Events) -> int:
    # §8.2 Wharf: all barrels of one kind straight to the supply, once per phase (A53: no cap).
    p = s.players[seat]
    good: int = action.a
    count: int = p.goods[good]
    p.goods[good] = 0
    if s.wharf_cargo:  # 1897 (B-18, D-12): on the private ship until the phase ends
        s.wharf_cargo[good] += count
    else:
        s.goods[good] += count
    s.wharf_used |= 1 << seat
    if ev is not None:
        ev.append(
            Event(
                "GoodsShipped",
                seat,
                {"good": action.code.split(".")[1], "count": count, "ship": "wharf"},
            )
        )
    return count


PERFORMERS[WHARF] = _wharf_ship


@effect("harbor", "loaded")
def _harbor(s: State, seat: int, good: int, count: int, ev: Events) -> None:
    # Ruling A10: +1 VP per loading action (cargo ship or Wharf; an Exp. 1 Small Wharf use
    # only with at least one barrel, §10.2).
    if count > 0:
        gain_vp(s, seat, 1, "harbor", ev)


@effect("small_warehouse", "storage")
def _small_warehouse(s: State, seat: int) -> tuple[int, int]:
    return (1, 0)


@effect("large_warehouse", "storage")
def _large_warehouse(s: State, seat: int) -> tuple[int, int]:
    return (2, 0)


# --- Final scoring (§8.3): only when the large building is occupied ----------------------------


@effect("guild_hall", "final_bonus")
def _guild_hall(s: State, seat: int) -> int:
    total = 0
    for b in s.players[seat].city:
        kind = CATALOG[b].kind
        total += 1 if kind == SMALL_PRODUCTION else 2 if kind == LARGE_PRODUCTION else 0
    return total


@effect("residence", "final_bonus")
def _residence(s: State, seat: int) -> int:
    return RESIDENCE_BONUS.get(island_used(s, seat), 4)


@effect("fortress", "final_bonus")
def _fortress(s: State, seat: int) -> int:
    return s.players[seat].colonists() // 3


@effect("customs_house", "final_bonus")
def _customs_house(s: State, seat: int) -> int:
    return s.players[seat].vp // 4


@effect("city_hall", "final_bonus")
def _city_hall(s: State, seat: int) -> int:
    return sum(1 for b in s.players[seat].city if CATALOG[b].violet)


def compile_hooks(
    buildings: tuple[int, ...], modules: tuple[str, ...] = ()
) -> dict[str, list[tuple[int, Handler]]]:
    """For the buildings and modules of one game, the handlers of each hook point as (building,
    handler); a module's handlers come after the buildings' (Appendix C: the Exp. 4 checks are
    the last step of their point) with the building ``ALWAYS``."""
    hooks: dict[str, list[tuple[int, Handler]]] = {name: [] for name in HOOK_POINTS}
    for b in buildings:
        for hook, fn in EFFECTS.get(CATALOG[b].name, {}).items():
            hooks[hook].append((b, fn))
    for m in modules:
        for hook, fn in MODULE_EFFECTS.get(m, {}).items():
            hooks[hook].append((ALWAYS, fn))
    return hooks


assert all(name in BUILDING_INDEX for name in EFFECTS), "effect for an unknown building"
