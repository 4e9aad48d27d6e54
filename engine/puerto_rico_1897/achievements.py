"""1897's Expansion VI, the Achievements (rules spec §7.6: X6-1...X6-5, A-31, Appendix D.1; the
seed's "Expansão VI: Conquistas").  A module of the 1897 edition only (``Edition.own_modules``);
it needs no other expansion.

The module is data (``CARDS``: the 30 cards of D.1, each a title, its VP and an objective with
its parameters) plus handlers on hook points; no role code names it.  Its state, dumped only
with the module: ``State.achievement_owner``, ``State.achievement_status`` (``ACH_HELD``,
``ACH_MET``, ``ACH_ANNOUNCED``, ``ACH_PICK``) and ``State.achievement_tally``.  The deal and the
draft, when each objective is checked and why that is enough, announcing, scoring and its
ruling: docs/engine-1897.md, "Expansion VI, the Achievements".  Rulings on single cards are
beside their code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any, NotRequired, TypedDict

from ..core import CorruptState, Event
from ..fields import Names, int_list
from ..puerto_rico import actions as A
from ..puerto_rico.actions import CATALOG, Action
from ..puerto_rico.buildings import (
    ANYTIME_REFUSALS,
    MODULE_LATE_SETUP,
    MODULE_OPTIONS,
    PERFORMERS,
    RolePhase,
    anytime_changed,
    module_effect,
    module_phase,
)
from ..puerto_rico.data import (
    CITY_SPACES,
    COFFEE,
    CORN,
    GOODS,
    INDIGO,
    ISLAND_SPACES,
    LARGE_VIOLET,
    NGOODS,
    SMALL_VIOLET,
    SUGAR,
    TOBACCO,
    EditionOption,
)
from ..puerto_rico.extensions import ACTION_VALUES, FAILURES, RESAMPLERS, REVEALERS, VIEW_PARTS
from ..puerto_rico.ops import Events
from ..puerto_rico.save import GOOD_NAMES, register_field
from ..puerto_rico.state import (
    ACHIEVEMENT_DRAFT_PHASE,
    CAPTAIN_PHASE,
    DRAFT_PHASE,
    ROLE_SELECTION,
    STEP_ARRANGE,
    STEP_TURN,
    State,
)
from ..rng import below

MODULE = "achievements"

# ``State.achievement_owner`` / ``achievement_status``, one entry per card of ``CARDS``: the
# seat holding the card (-1: in the deck, never dealt) and its status: kept with its objective
# not met yet, met (hidden), announced (X6-3: face up, its VP hidden until the end), or (X6-2's
# draft) in the hand its holder picks from
ACH_HELD, ACH_MET, ACH_ANNOUNCED, ACH_PICK = range(4)
ACHIEVEMENT_CARDS = 30  # Appendix D.1
ACHIEVEMENTS_DEALT = 4  # X6-1, X6-2: four cards each


def _drafted(s: State) -> bool:
    """X6-2: the cards dealt are drafted (option ``achievement_deal: draft``)."""
    return bool(s.rs.options.get("achievement_deal") == "draft")


def _announced_only(s: State) -> bool:
    """X6-4: only the announced cards score (option ``achievement_scoring: announced``); by
    default every card met does (the seed's "concluídas")."""
    return bool(s.rs.options.get("achievement_scoring") == "announced")

# The objectives (D.1), by kind; a card's ``goods`` and ``count`` are its parameters.  Events of
# one action or phase:
BUILD_PAYING_ALL = "build_expanded_paying_all_coins"  # Big Spender
BUILD_PAYING_AT_MOST = "build_expanded_paying_at_most"  # Master Architect: at most ``count``
DISPATCH = "dispatch"  # fill a cargo ship with the good (X5-4, X6-5)
FILL_EMPTY_SHIP = "fill_empty_ship"  # a cargo ship from empty to full in one load
LOAD_ONE_GOOD = "load_crates_of_one_good"  # at least ``count`` crates of one good in one load
LOAD_GOODS = "load_different_goods"  # at least ``count`` goods loaded in one Captain phase
STORE_GOODS = "store_different_goods"  # at least ``count`` goods kept at a Captain phase's end
CAPTAIN_VP = "vp_in_captain_phase"  # at least ``count`` VP gained in one Captain phase
FILL_TRADING_HOUSE = "fill_trading_house"  # as the Trader, sell the crate filling the house
SELL_FOR = "sell_for_coins"  # one sale to the trading house for at least ``count`` coins
PRODUCE = "produce_crates"  # at least ``count`` crates produced in one Craftsman phase
# states of a player's board:
OWN_CRATES = "own_crates"  # at least ``count`` crates of the two goods, at least one of each
OWN_CRATES_OF_ONE_GOOD = "own_crates_of_one_good"  # at least ``count`` crates of one good
WORKERS_ON_BUILDINGS = "workers_on_buildings"  # at least ``count`` (Citizens count)
WORKERS_ON_FIELD = "workers_on_field"  # at least ``count`` on field tiles (Citizens count)
FIELD_TILES = "field_tiles"  # at least ``count`` field tiles (properties, quarries, forests)
EMPTY_SPACES = "empty_spaces_at_most"  # at most ``count`` empty field and building spaces
EXPANDED_BUILDINGS = "expanded_buildings"  # at least ``count`` expanded buildings
COMMON_COMMERCIAL = "common_commercial_buildings"  # at least ``count`` (not expanded)
PRODUCTION_BUILDING_OF_EACH = "production_building_of_each"  # one for each of the goods
PRODUCTION_BUILDINGS = "production_buildings"  # at least ``count`` for the goods together


@dataclass(frozen=True, slots=True)
class Achievement:
    """One Achievement card (D.1): its English title as a name, its VP (hidden until the end,
    X6-3) and its objective, with the goods and the number it names."""

    name: str
    vp: int
    objective: str
    goods: tuple[int, ...] = ()
    count: int = 0


# Appendix D.1 (A-31: the card list is not legible in the seed; PS-6's transcription), in its
# order.  The seed's only example is Master Architect ("Construa um Edifício Expandido pagando
# no máximo 6 Moedas"), as D.1 has it.
CARDS: tuple[Achievement, ...] = (
    Achievement("big_spender", 5, BUILD_PAYING_ALL),
    Achievement("caramel_popcorn_inventor", 4, OWN_CRATES, (CORN, SUGAR), 8),
    Achievement("coffee_dispatcher", 5, DISPATCH, (COFFEE,)),
    Achievement("confectionery_supplier", 4, OWN_CRATES, (INDIGO, SUGAR), 7),
    Achievement("corn_dispatcher", 3, DISPATCH, (CORN,)),
    Achievement("deal_closer", 4, FILL_TRADING_HOUSE),
    Achievement("dock_tycoon", 5, LOAD_GOODS, (), 3),
    Achievement("fruit_dispatcher", 3, DISPATCH, (INDIGO,)),
    Achievement("head_administrator", 6, WORKERS_ON_BUILDINGS, (), 12),
    Achievement("independent_shipper", 4, FILL_EMPTY_SHIP),
    Achievement("leading_employer", 6, WORKERS_ON_FIELD, (), 9),
    Achievement("leading_producer", 6, PRODUCE, (), 7),
    Achievement("luxury_crop_trader", 4, OWN_CRATES, (TOBACCO, COFFEE), 5),
    Achievement("luxury_goods_provider", 5, PRODUCTION_BUILDING_OF_EACH, (SUGAR, TOBACCO, COFFEE)),
    Achievement("major_investor", 7, EXPANDED_BUILDINGS, (), 2),
    Achievement("major_landowner", 7, EMPTY_SPACES, (), 2),
    Achievement("master_agronomist", 5, FIELD_TILES, (), 12),
    Achievement("master_architect", 3, BUILD_PAYING_AT_MOST, (), 6),
    Achievement("master_collector", 7, OWN_CRATES_OF_ONE_GOOD, (), 7),
    Achievement("pastry_maker", 4, OWN_CRATES, (CORN, INDIGO), 9),
    Achievement("prudent_merchant", 4, STORE_GOODS, (), 2),
    Achievement("senior_bureaucrat", 7, COMMON_COMMERCIAL, (), 7),
    Achievement("specialised_shipper", 5, LOAD_ONE_GOOD, (), 5),
    Achievement("sugar_dispatcher", 4, DISPATCH, (SUGAR,)),
    Achievement("tavern_supplier", 4, OWN_CRATES, (SUGAR, COFFEE), 6),
    Achievement("tobacco_dispatcher", 5, DISPATCH, (TOBACCO,)),
    Achievement("tobacco_and_fruit_broker", 4, OWN_CRATES, (INDIGO, TOBACCO), 6),
    Achievement("trade_strategist", 7, CAPTAIN_VP, (), 7),
    Achievement("trade_tycoon", 4, SELL_FOR, (), 6),
    Achievement("tropical_produce_magnate", 4, PRODUCTION_BUILDINGS, (INDIGO, SUGAR), 3),
)
CARD_INDEX = {c.name: i for i, c in enumerate(CARDS)}
assert len(CARDS) == ACHIEVEMENT_CARDS and len(CARD_INDEX) == ACHIEVEMENT_CARDS


def _of(*objectives: str) -> tuple[int, ...]:
    return tuple(i for i, c in enumerate(CARDS) if c.objective in objectives)


# X6-3: ``ach.<card>`` announces a met card; X6-2: ``ad.<card>`` keeps a card in the draft
ANNOUNCE_ACTIONS = [A.register(Action(A.ANNOUNCE, f"ach.{c.name}", i)) for i, c in enumerate(CARDS)]
KEEP_ACTIONS = [
    A.register(Action(A.ACHIEVEMENT_KEEP, f"ad.{c.name}", i)) for i, c in enumerate(CARDS)
]
P_DRAFT = "achievement_draft"  # the draft's prompt kind (every seat still to keep one)
# §8.13 with Puertomas: each person draws six and keeps four (one at a time, prompt kind
# ``achievement_keep``); the two left go back to the deck, unseen; a Puertoma holds none
P_KEEP = "achievement_keep"
PUERTOMA_DRAWN = 6

MODULE_OPTIONS[MODULE] = (
    # X6-1 (the rules) or X6-2 (the variant: "os jogadores mais experientes podem optar")
    EditionOption("achievement_deal", ("deal", "draft")),
    # X6-4: the cards met score, announced or not (the seed's "concluídas"); "announced": only
    # those announced before the end
    EditionOption("achievement_scoring", ("completed", "announced")),
)


# --- setup (X6-1, X6-2) -------------------------------------------------------------------------


def setup_achievements(s: State, ev: Events) -> None:
    """X6-1: four cards to each player, drawn at random from the 30 (a shuffled deck dealt);
    X6-2: the same four are the hand each picks from, drafted now or after Expansion I's
    building draft."""
    s.achievement_owner = [-1] * ACHIEVEMENT_CARDS
    s.achievement_status = [ACH_HELD] * ACHIEVEMENT_CARDS
    s.achievement_tally = [0] * (2 * s.n)
    automata = s.rs.automata
    choosing = _drafted(s) or bool(automata)
    status = ACH_PICK if choosing else ACH_HELD
    dealt = PUERTOMA_DRAWN if automata else ACHIEVEMENTS_DEALT
    deck = list(range(ACHIEVEMENT_CARDS))
    for seat in range(s.n):
        if seat in automata:  # §8.13: a Puertoma has no cards
            continue
        for _ in range(dealt):
            s.rng, k = below(s.rng, len(deck))
            card = deck.pop(k)
            s.achievement_owner[card] = seat
            s.achievement_status[card] = status
    _forget(s)
    if choosing and not any(s.draft_left):
        _start_draft(s)


MODULE_LATE_SETUP[MODULE] = setup_achievements


@module_effect(MODULE, "draft_ended")
def _after_building_draft(s: State, ev: Events) -> None:
    """X6-2 with Expansion I: the cards are drafted once the buildings are."""
    if ACH_PICK in s.achievement_status:
        _start_draft(s)


def _start_draft(s: State) -> None:
    s.phase = ACHIEVEMENT_DRAFT_PHASE
    s.step = STEP_TURN
    s.pending = [seat not in s.rs.automata for seat in range(s.n)]


def _draft_seats(s: State) -> list[int]:
    return [seat for seat in range(s.n) if s.pending[seat]]


def _draft_legal(s: State, seat: int) -> list[Action]:
    owner, status = s.achievement_owner, s.achievement_status
    return [
        KEEP_ACTIONS[c]
        for c in range(ACHIEVEMENT_CARDS)
        if owner[c] == seat and status[c] == ACH_PICK
    ]


def _keep(s: State, seat: int, action: Action, ev: Events) -> None:
    """X6-2: ``seat`` keeps a card of his hand; once everyone has, the rest pass to the left."""
    s.achievement_status[action.a] = ACH_HELD
    _forget(s)  # a card newly kept: every board is checked again
    s.pending[seat] = False
    if s.rs.automata:  # §8.13: four of his six kept, one at a time; the rest to the deck
        owner, status = s.achievement_owner, s.achievement_status
        mine = [c for c in range(ACHIEVEMENT_CARDS) if owner[c] == seat]
        if sum(1 for c in mine if status[c] == ACH_HELD) < ACHIEVEMENTS_DEALT:
            s.pending[seat] = True
        else:
            for c in mine:
                if status[c] == ACH_PICK:
                    owner[c], status[c] = -1, ACH_HELD
    if ev is not None:
        ev.append(
            Event(
                "AchievementKept",
                seat,
                {"achievement": CARDS[action.a].name},
                private_to=seat,
                public_data={},
            )
        )
    if not any(s.pending):
        if s.rs.automata:
            _end_draft(s, ev)
        else:
            _pass_hands(s, ev)


def _end_draft(s: State, ev: Events) -> None:
    s.pending = [False] * s.n
    s.phase = ROLE_SELECTION
    s.step = STEP_TURN
    if ev is not None:
        ev.append(Event("AchievementDraftEnded", None, {}))


def _pass_hands(s: State, ev: Events) -> None:
    """X6-2: every hand goes to the next seat clockwise (the player to the left); a hand of one
    card leaves no choice: it is kept at once.  When no hand is left the draft is over."""
    n = s.n
    owner, status = s.achievement_owner, s.achievement_status
    received: list[list[int]] = [[] for _ in range(n)]
    for c in range(ACHIEVEMENT_CARDS):
        if status[c] == ACH_PICK:
            owner[c] = (owner[c] + 1) % n
            received[owner[c]].append(c)
    for seat, cards in enumerate(received):
        if ev is not None and cards:
            ev.append(
                Event(
                    "AchievementsPassed",
                    (seat - 1) % n,
                    {"to": seat, "achievements": [CARDS[c].name for c in cards]},
                    private_to=seat,
                    public_data={"to": seat, "count": len(cards)},
                )
            )
        if len(cards) == 1:  # the last card: no choice
            status[cards[0]] = ACH_HELD
            _forget(s)
            if ev is not None:
                ev.append(
                    Event(
                        "AchievementKept",
                        seat,
                        {"achievement": CARDS[cards[0]].name},
                        private_to=seat,
                        public_data={},
                    )
                )
    if ACH_PICK in status:
        s.pending = [True] * n
        return
    _end_draft(s, ev)


module_phase(
    RolePhase(
        ACHIEVEMENT_DRAFT_PHASE,
        start=lambda s, ev: None,
        act=_keep,
        legal=_draft_legal,
        prompt_kind=lambda s: P_KEEP if s.rs.automata else P_DRAFT,
        action_kinds={P_DRAFT: frozenset({A.ACHIEVEMENT_KEEP}),
                      P_KEEP: frozenset({A.ACHIEVEMENT_KEEP})},
        seats=_draft_seats,
    )
)


# --- meeting objectives (D.1, X6-3) -------------------------------------------------------------


def _open(s: State, seat: int, cards: tuple[int, ...]) -> list[int]:
    """Of ``cards``, those ``seat`` holds (kept) with the objective not met yet."""
    owner, status = s.achievement_owner, s.achievement_status
    return [c for c in cards if owner[c] == seat and status[c] == ACH_HELD]


def _meet(s: State, card: int) -> None:
    """The card's objective is met: marked for its holder only (no event, see the module)."""
    s.achievement_status[card] = ACH_MET
    s.achievement_open = ()  # the cards still to check: one less, listed again when needed
    anytime_changed(s)  # his announcements: one more


def _forget(s: State) -> None:
    """Cards changed hands (dealt, kept, passed on, resampled): the caches of their checks and
    announcements are listed again when next needed, and every board is checked then (a card
    just held may have its objective met already)."""
    s.achievement_open = ()
    s.achievement_mark = ()
    anytime_changed(s)


_BUILDING_CARDS = _of(BUILD_PAYING_ALL, BUILD_PAYING_AT_MOST)


@module_effect(MODULE, "bought")
def _bought(s: State, seat: int, building: int, paid: int, ev: Events) -> None:
    """Big Spender: an expanded building paid with every coin he had (at least one: with none,
    nothing was spent); Master Architect: an expanded building for at most 6 coins.  Any way of
    building counts (the Hidden Market's too: it takes every coin)."""
    for c in _open(s, seat, _BOARD_BUILDING_CARDS):  # the buildings he owns: only now more
        card = CARDS[c]
        if BUILDING_TESTS[card.objective](s, seat, card):
            _meet(s, c)
    if CATALOG[building].kind != LARGE_VIOLET:
        return
    for c in _open(s, seat, _BUILDING_CARDS):
        card = CARDS[c]
        if card.objective == BUILD_PAYING_ALL:
            if paid > 0 and s.players[seat].doubloons == 0:
                _meet(s, c)
        elif paid <= card.count:
            _meet(s, c)


_SALE_CARDS = _of(FILL_TRADING_HOUSE, SELL_FOR)


@module_effect(MODULE, "sold")
def _sold(s: State, seat: int, good: int, price: int, filled: bool, ev: Events) -> None:
    """Deal Closer: the Trader (the player who chose the role) sells the crate that fills the
    trading house; Trade Tycoon: a sale for at least 6 coins (the advantage and the markets
    included).  D.1: a Merchants' Post sale is no sale to the house (no ``sold`` call)."""
    for c in _open(s, seat, _SALE_CARDS):
        card = CARDS[c]
        if card.objective == FILL_TRADING_HOUSE:
            if filled and seat == s.chooser:
                _meet(s, c)
        elif price >= card.count:
            _meet(s, c)


_LOAD_CARDS = _of(DISPATCH, FILL_EMPTY_SHIP, LOAD_ONE_GOOD, LOAD_GOODS)
_GOOD_BITS = tuple(1 << k for k in range(NGOODS))


@module_effect(MODULE, "shipped")
def _shipped(s: State, seat: int, ship: int, goods: list[int], ev: Events) -> None:
    """Each load (``ship`` -1: a private ship).  X5-4, X6-5: it dispatches a cargo ship when it
    places the crate that fills it (the Dispatchers: of the card's good; Independent Shipper:
    the ship was empty before); a private ship is never full.  A load on a private ship is a
    load (Specialised Shipper: at least 5 crates of one good in it; Dock Tycoon: the goods of
    the phase's loads, here tallied for every seat)."""
    tally = s.achievement_tally
    kinds = tally[s.n + seat] | sum(compress(_GOOD_BITS, goods))  # the goods' bits, or-ed
    tally[s.n + seat] = kinds
    cards = _open(s, seat, _LOAD_CARDS)
    if not cards:
        return
    full = ship >= 0 and s.ship_load[ship] >= s.ship_cap[ship]
    for c in cards:
        card = CARDS[c]
        objective = card.objective
        if objective == DISPATCH:
            met = full and s.ship_kind[ship] == card.goods[0]
        elif objective == FILL_EMPTY_SHIP:
            met = full and sum(goods) == s.ship_cap[ship]
        elif objective == LOAD_ONE_GOOD:
            met = max(goods) >= card.count
        else:  # LOAD_GOODS
            met = kinds.bit_count() >= card.count
        if met:
            _meet(s, c)


_CAPTAIN_VP_CARDS = _of(CAPTAIN_VP)


@module_effect(MODULE, "vp_gained")
def _vp_gained(s: State, seat: int, amount: int, ev: Events) -> None:
    """Trade Strategist: the VP tokens a player takes in one Captain phase, whatever for
    (shipping, the advantage, the Harbor, the Wharves, the Rescue Post at the phase's start, a
    Festival Activity's reward), tallied for every seat."""
    if s.phase != CAPTAIN_PHASE:
        return
    s.achievement_tally[seat] += amount
    for c in _open(s, seat, _CAPTAIN_VP_CARDS):
        if s.achievement_tally[seat] >= CARDS[c].count:
            _meet(s, c)


_STORE_CARDS = _of(STORE_GOODS)


@module_effect(MODULE, "captain_ended")
def _captain_ended(s: State, ev: Events) -> None:
    """Prudent Merchant: the crates a player keeps once the Captain phase's storage is done, at
    least 2 goods (whether he loaded or not); the phase's tallies start again."""
    for seat, p in enumerate(s.players):
        for c in _open(s, seat, _STORE_CARDS):
            if sum(1 for n in p.goods if n) >= CARDS[c].count:
                _meet(s, c)
    s.achievement_tally = [0] * len(s.achievement_tally)


_PRODUCE_CARDS = _of(PRODUCE)


@module_effect(MODULE, "produced")
def _produced(s: State, seat: int, received: list[int], ev: Events) -> None:
    """Leading Producer: a player's production of the Craftsman phase, his buildings' bonuses
    (the Canal's) included; the Craftsman's advantage crate is taken, not produced (the
    kernel's Expansion IV / V reading; 1897's Distillery alone counts it, B-34)."""
    for c in _open(s, seat, _PRODUCE_CARDS):
        if sum(received) >= CARDS[c].count:
            _meet(s, c)


# The states of a player's board, checked after every action for every player.


def _own_crates(s: State, seat: int, card: Achievement) -> bool:
    goods = s.players[seat].goods
    a, b = card.goods
    return goods[a] >= 1 and goods[b] >= 1 and goods[a] + goods[b] >= card.count


def _own_crates_of_one_good(s: State, seat: int, card: Achievement) -> bool:
    return max(s.players[seat].goods) >= card.count


def _workers_on_buildings(s: State, seat: int, card: Achievement) -> bool:
    p = s.players[seat]
    bw = p.bw  # Citizens included
    workers = 0
    for b in p.city:
        workers += bw[b]
    return workers >= card.count


def _workers_on_field(s: State, seat: int, card: Achievement) -> bool:
    return sum(s.players[seat].workers) >= card.count  # properties and quarries; Citizens too


def _field_tiles(s: State, seat: int, card: Achievement) -> bool:
    return s.players[seat].island() >= card.count  # properties, quarries and forests


def _empty_spaces(s: State, seat: int, card: Achievement) -> bool:
    """Major Landowner: an expanded building fills two building spaces."""
    p = s.players[seat]
    if ISLAND_SPACES - p.island() > card.count:
        return False
    size: tuple[int, ...] = s.rs.size
    used = 0
    for b in p.city:
        used += size[b]
    return CITY_SPACES - used <= card.count


_KIND = tuple(b.kind for b in CATALOG)


def _buildings_of_kind(s: State, seat: int, kind: str) -> int:
    return sum(1 for b in s.players[seat].city if _KIND[b] == kind)


def _expanded_buildings(s: State, seat: int, card: Achievement) -> bool:
    return _buildings_of_kind(s, seat, LARGE_VIOLET) >= card.count


def _common_commercial(s: State, seat: int, card: Achievement) -> bool:
    """Senior Bureaucrat: common commercial buildings (the Large Tailor Shop is a production
    building, B-44)."""
    return _buildings_of_kind(s, seat, SMALL_VIOLET) >= card.count


def _production_of_each(s: State, seat: int, card: Achievement) -> bool:
    bw = s.players[seat].bw
    return all(any(bw[b] >= 0 for b in s.rs.processors[g]) for g in card.goods)


def _production_buildings(s: State, seat: int, card: Achievement) -> bool:
    bw = s.players[seat].bw
    owned = sum(1 for g in card.goods for b in s.rs.processors[g] if bw[b] >= 0)
    return owned >= card.count


STATE_TESTS = {
    OWN_CRATES: _own_crates,
    OWN_CRATES_OF_ONE_GOOD: _own_crates_of_one_good,
    WORKERS_ON_BUILDINGS: _workers_on_buildings,
    WORKERS_ON_FIELD: _workers_on_field,
    FIELD_TILES: _field_tiles,
    EMPTY_SPACES: _empty_spaces,
}
_STATE_CARDS = _of(*STATE_TESTS)
StateCheck = tuple[int, Callable[[State, int, Achievement], bool], Achievement]
STATE_CHECKS: tuple[StateCheck, ...] = tuple(
    (c, STATE_TESTS[CARDS[c].objective], CARDS[c]) for c in _STATE_CARDS)
# Each state objective behind a gate: a quantity of the holder's board that must reach a bound
# before the card's own test can hold (computed once for all his cards behind it, the test run
# only past it).  Crates: his crates together, at least the count (of two goods, or of one);
# properties: his filled field spaces, at least Master Agronomist's count, or for Major
# Landowner the field spaces less the empty ones he may leave; workers on the field: their
# count; workers on buildings: his buildings, each of them holding 3 at most (``CATALOG``).
GATE_CRATES, GATE_FIELD_SPACES, GATE_FIELD_WORKERS, GATE_BUILDINGS = range(4)
_MOST_CIRCLES = max(b.circles for b in CATALOG)
_GATES: dict[str, tuple[int, Callable[[int], int]]] = {
    OWN_CRATES: (GATE_CRATES, lambda count: count),
    OWN_CRATES_OF_ONE_GOOD: (GATE_CRATES, lambda count: count),
    FIELD_TILES: (GATE_FIELD_SPACES, lambda count: count),
    EMPTY_SPACES: (GATE_FIELD_SPACES, lambda count: ISLAND_SPACES - count),
    WORKERS_ON_FIELD: (GATE_FIELD_WORKERS, lambda count: count),
    WORKERS_ON_BUILDINGS: (GATE_BUILDINGS, lambda count: -(-count // _MOST_CIRCLES)),
}
assert set(_GATES) == set(STATE_TESTS)
# One holder's cards to check (``State.achievement_open``): his seat, then for each gate its
# bound (the lowest of his cards behind it) and those cards.
Checks = tuple[int, int, tuple[StateCheck, ...], int, tuple[StateCheck, ...], int,
               tuple[StateCheck, ...], int, tuple[StateCheck, ...]]
# The buildings a player owns change only when he builds (no rule takes a building away): these
# are checked on ``bought``, after every way of building, not after every action.
BUILDING_TESTS = {
    EXPANDED_BUILDINGS: _expanded_buildings,
    COMMON_COMMERCIAL: _common_commercial,
    PRODUCTION_BUILDING_OF_EACH: _production_of_each,
    PRODUCTION_BUILDINGS: _production_buildings,
}
_BOARD_BUILDING_CARDS = _of(*BUILDING_TESTS)
_UNBOUNDED = 1 << 30


def _open_checks(s: State) -> tuple[tuple[tuple[Checks, ...], ...], tuple[Checks, ...],
                                    tuple[tuple[Checks, ...], ...]]:
    """The held cards whose objective is a state of a board and not met yet, behind their
    gates (each with his lowest bound), by holder: by seat (() or his one entry), for every
    seat that has one, and by seat those behind the workers' gates only (``_positions``: the
    Mayor's arrangement)."""
    owner, status = s.achievement_owner, s.achievement_status
    gated: list[list[list[StateCheck]]] = [[[], [], [], []] for _ in range(s.n)]
    bounds = [[_UNBOUNDED] * 4 for _ in range(s.n)]
    for check in STATE_CHECKS:
        c, _, card = check
        seat = owner[c]
        if seat >= 0 and status[c] == ACH_HELD:
            gate, bound = _GATES[card.objective]
            gated[seat][gate].append(check)
            bounds[seat][gate] = min(bounds[seat][gate], bound(card.count))
    by_seat = tuple(
        ((seat, bounds[seat][GATE_CRATES], tuple(gated[seat][GATE_CRATES]),
          bounds[seat][GATE_FIELD_SPACES], tuple(gated[seat][GATE_FIELD_SPACES]),
          bounds[seat][GATE_FIELD_WORKERS], tuple(gated[seat][GATE_FIELD_WORKERS]),
          bounds[seat][GATE_BUILDINGS], tuple(gated[seat][GATE_BUILDINGS])),)
        if any(gated[seat]) else ()
        for seat in range(s.n)
    )
    placing = tuple(
        tuple((seat, _UNBOUNDED, (), _UNBOUNDED, (), field_at, field, built_at, built)
              for seat, _, _, _, _, field_at, field, built_at, built in mine if field or built)
        for mine in by_seat
    )
    return by_seat, tuple(checks for mine in by_seat for checks in mine), placing


@module_effect(MODULE, "action_done")
def _positions(s: State, seat: int, ev: Events) -> None:
    """The objectives that are states of a player's board, once ``seat``'s action and its
    automatic steps are done: every player's board after an action that moved play on to
    another phase, step, role pick, round or offer (the automatic steps of a phase's start or
    end reach every board: a distribution, a production, the storage), only ``seat``'s within
    a step (his placements, loads, sales, builds: a decision of one player changes no other
    board in a way that could meet an objective, which only more crates, workers, tiles or
    buildings can; ``test_position_checks_see_every_met_objective`` holds every board to it,
    with every expansion and with Puertomas).  Played random games spend more here than
    anywhere else in Expansion VI: each gate's quantity is computed once for all of a holder's
    cards behind it, and most checks stop there."""
    listed = s.achievement_open
    mark = (s.phase, s.step, s.picks, s.round, len(s.offers))
    if not listed:  # listed again after a card was kept or met
        listed = s.achievement_open = _open_checks(s)
    if mark == s.achievement_mark:
        # within the Mayor's arrangement a decision places pieces of his (a worker, a noble,
        # the whole arrangement: ``_mayor_act``), or takes one from the ship into San Juan
        # (Exp. 2's ``P_TAKE`` offer): only the gates of workers on places can open
        holders = listed[2 if mark[1] == STEP_ARRANGE else 0][seat]
    else:
        s.achievement_mark = mark
        holders = listed[1]
    players = s.players
    for holder, crates_at, crates, spaces_at, spaces, field_at, field, built_at, built in holders:
        p = players[holder]
        if crates and sum(p.goods) >= crates_at:
            _confirm(s, holder, crates)
        if spaces and p.island() >= spaces_at:
            _confirm(s, holder, spaces)
        if field and sum(p.workers) >= field_at:
            _confirm(s, holder, field)
        if built and len(p.city) >= built_at:
            _confirm(s, holder, built)


def _confirm(s: State, seat: int, checks: tuple[StateCheck, ...]) -> None:
    for c, test, card in checks:
        if test(s, seat, card):
            _meet(s, c)


# --- announcing (X6-3) ----------------------------------------------------------------------


@module_effect(MODULE, "anytime")
def _announcements(s: State, seat: int) -> Sequence[Action]:
    """X6-3: each met card of ``seat``, not announced yet, may be announced now (listed once
    for every seat after a card was met or announced: ``anytime_changed``)."""
    return _met(s, seat) if ACH_MET in s.achievement_status else ()


def _met(s: State, seat: int) -> list[Action]:
    """The announcements of ``seat``'s met cards."""
    owner, status = s.achievement_owner, s.achievement_status
    return [ANNOUNCE_ACTIONS[c] for c in range(ACHIEVEMENT_CARDS)
            if status[c] == ACH_MET and owner[c] == seat]


@module_effect(MODULE, "anytime_open")
def _holds_face_down(s: State, seat: int) -> bool:
    """Whether ``seat`` holds a card face down (public): he may have one to announce."""
    owner, status = s.achievement_owner, s.achievement_status
    return any(
        owner[c] == seat and status[c] in (ACH_HELD, ACH_MET) for c in range(ACHIEVEMENT_CARDS)
    )


def _announce(s: State, seat: int, action: Action, ev: Events) -> None:
    """X6-3: the card is revealed and tucked under his board: title and holder public, its VP
    hidden until the end."""
    s.achievement_status[action.a] = ACH_ANNOUNCED
    anytime_changed(s)  # his announcements: one less (the cards to check are the same)
    if ev is not None:
        ev.append(Event("AchievementAnnounced", seat, {"achievement": CARDS[action.a].name}))


def _refusal(s: State, seat: int, action: Action) -> str:
    if not s.achievement_owner:
        return "achievements_not_in_game"
    card = action.a
    if s.achievement_owner[card] != seat or s.achievement_status[card] == ACH_PICK:
        return "achievement_not_held"
    if s.achievement_status[card] == ACH_ANNOUNCED:
        return "achievement_already_announced"
    return "achievement_not_met"


PERFORMERS[A.ANNOUNCE] = _announce
ANYTIME_REFUSALS[A.ANNOUNCE] = _refusal


# --- scoring (X6-4) -------------------------------------------------------------------------


def scored(s: State, seat: int) -> list[int]:
    """The cards of ``seat`` whose VP join his score: every card met (announced or not), or
    with ``achievement_scoring: announced`` the announced ones."""
    counted = (ACH_ANNOUNCED,) if _announced_only(s) else (ACH_MET, ACH_ANNOUNCED)
    owner, status = s.achievement_owner, s.achievement_status
    return [c for c in range(ACHIEVEMENT_CARDS) if owner[c] == seat and status[c] in counted]


@module_effect(MODULE, "final_scoring")
def _final_scoring(s: State, seat: int) -> dict[str, int]:
    """X6-4: the completed cards' VP; incomplete cards score 0 (no penalty).  §8.13 with
    Puertomas: the people score none of theirs; each Puertoma scores the VP of every card a
    person kept and did not complete."""
    automata = s.rs.automata
    if not automata:
        return {"achievements": sum(CARDS[c].vp for c in scored(s, seat))}
    if seat not in automata:
        return {}
    owner, status = s.achievement_owner, s.achievement_status
    return {"achievements": sum(CARDS[c].vp for c in range(ACHIEVEMENT_CARDS)
                                if owner[c] >= 0 and status[c] == ACH_HELD)}


# --- what a viewer sees, what is hidden (views, determinize, reveals) -------------------------


class AchievementCard(TypedDict):
    """One of a seat's own Achievement cards (its view): VP, objective, whether met, announced."""

    achievement: str
    vp: int
    objective: str
    goods: list[str]
    count: int | None
    met: bool
    announced: bool


class ScoredAchievement(TypedDict):
    achievement: str
    vp: int


class AchievementHolder(TypedDict):
    """A player's cards as everyone sees them: how many face down and to pick, those announced;
    at the end those scored."""

    face_down: int
    to_pick: int
    announced: list[str]
    scored: NotRequired[list[ScoredAchievement]]


class AchievementsPart(TypedDict):
    """The view's ``achievements`` (Exp. VI); ``hand`` and ``to_pick`` only in a seat's view
    (``None`` in the public one)."""

    deck: int
    players: list[AchievementHolder]
    hand: list[AchievementCard] | None
    to_pick: list[AchievementCard] | None


def _card_view(card: int, status: int) -> AchievementCard:
    c = CARDS[card]
    return {
        "achievement": c.name,
        "vp": c.vp,
        "objective": c.objective,
        "goods": [GOODS[g] for g in c.goods],
        "count": c.count or None,
        "met": status in (ACH_MET, ACH_ANNOUNCED),
        "announced": status == ACH_ANNOUNCED,
    }


def view_part(s: State, viewer: int | None) -> AchievementsPart | None:
    """X6-1, X6-3: for every player, how many cards he holds face down (and in a draft, in the
    hand he picks from) and the titles of those he announced (their VP hidden); the deck's
    size; for a seat's view, its own cards (``hand``: kept, with their VP, whether met and
    announced; ``to_pick``: a draft hand).  At the end each player's scored cards with their VP.
    ``None`` without the module."""
    if not s.achievement_owner:
        return None
    owner, status = s.achievement_owner, s.achievement_status
    players: list[AchievementHolder] = []
    for seat in range(s.n):
        mine = [c for c in range(ACHIEVEMENT_CARDS) if owner[c] == seat]
        entry: AchievementHolder = {
            "face_down": sum(1 for c in mine if status[c] in (ACH_HELD, ACH_MET)),
            "to_pick": sum(1 for c in mine if status[c] == ACH_PICK),
            "announced": [CARDS[c].name for c in mine if status[c] == ACH_ANNOUNCED],
        }
        if s.over:
            entry["scored"] = [
                {"achievement": CARDS[c].name, "vp": CARDS[c].vp} for c in scored(s, seat)
            ]
        players.append(entry)
    out: AchievementsPart = {
        "deck": owner.count(-1),
        "players": players,
        "hand": None,
        "to_pick": None,
    }
    if viewer is not None:
        mine = [c for c in range(ACHIEVEMENT_CARDS) if owner[c] == viewer]
        out["hand"] = [_card_view(c, status[c]) for c in mine if status[c] != ACH_PICK]
        out["to_pick"] = [_card_view(c, status[c]) for c in mine if status[c] == ACH_PICK]
    return out


def resample(s: State, viewer: int | None) -> None:
    """For ``determinize``: the cards hidden from ``viewer`` (the deck, and the other players'
    cards not announced; ``None``: every card not announced) dealt again at random among the
    same places, each player keeping as many face down and to pick; whether one of them is met
    is hidden too: they are unmet.  Nothing is hidden once the game is over."""
    if not s.achievement_owner or s.over:
        return
    owner, status = s.achievement_owner, s.achievement_status
    hidden = [
        c
        for c in range(ACHIEVEMENT_CARDS)
        if status[c] != ACH_ANNOUNCED and (viewer is None or owner[c] != viewer)
    ]
    # the places sorted: which hidden card lay where must not steer the new deal (a seat
    # knows how many cards each place holds, not which)
    places = sorted((owner[c], ACH_PICK if status[c] == ACH_PICK else ACH_HELD) for c in hidden)
    cards = hidden[:]
    for i in range(len(cards) - 1, 0, -1):
        s.rng, j = below(s.rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    for card, (seat, state) in zip(cards, places, strict=True):
        owner[card] = seat
        status[card] = state
    _forget(s)


def revealed(before: State, after: State) -> bool:
    """Whether going from ``before`` to ``after`` revealed a card: an announcement, a draft
    hand passed on, the end (the scores show the cards)."""
    if not after.achievement_owner:
        return False
    if after.over != before.over:
        return True
    old, new = before.achievement_status, after.achievement_status
    if old.count(ACH_ANNOUNCED) != new.count(ACH_ANNOUNCED):
        return True
    return any(
        old[c] == ACH_PICK and before.achievement_owner[c] != after.achievement_owner[c]
        for c in range(len(old))
    )


# --- invariants ---------------------------------------------------------------------------


def achievements_failures(s: State) -> list[str]:
    """The 30 cards exist exactly with the module, each in the deck or held by one seat (so
    always somewhere: deck, hands, announced), four held by every seat; cards to pick only
    before and during the draft (every seat holding one with a keep to make: those the prompt
    names); the Captain phase's tallies only in it."""
    owner, status, tally = s.achievement_owner, s.achievement_status, s.achievement_tally
    if MODULE not in s.rs.modules:
        return [] if not owner and not status and not tally else ["achievements:not_in_play"]
    n = s.n
    if len(owner) != ACHIEVEMENT_CARDS or len(status) != ACHIEVEMENT_CARDS or len(tally) != 2 * n:
        return ["achievements:shape"]
    if any(not -1 <= o < n for o in owner) or any(not ACH_HELD <= t <= ACH_PICK for t in status):
        return ["achievements:cards"]
    if any(owner[c] < 0 and status[c] != ACH_HELD for c in range(ACHIEVEMENT_CARDS)):
        return ["achievements:cards"]
    if s.rs.automata:
        hands = _puertoma_hands(s)
        if hands:
            return hands
    else:
        if any(owner.count(seat) != ACHIEVEMENTS_DEALT for seat in range(n)):
            return ["achievements:hands"]
        picks = [
            sum(1 for c in range(ACHIEVEMENT_CARDS) if owner[c] == seat and status[c] == ACH_PICK)
            for seat in range(n)
        ]
        if s.phase == ACHIEVEMENT_DRAFT_PHASE:
            # round r: a seat still to keep holds r kept cards, one who has kept r + 1
            kept = [ACHIEVEMENTS_DEALT - picks[seat] + s.pending[seat] for seat in range(n)]
            if (
                not _drafted(s)
                or not any(s.pending)
                or len(set(kept)) != 1
                or not 1 <= kept[0] < ACHIEVEMENTS_DEALT
                or any(s.pending[seat] and picks[seat] < 2 for seat in range(n))
            ):
                return ["achievements:draft"]
        elif any(picks) and not (
            s.phase == DRAFT_PHASE
            and _drafted(s)
            and all(p == ACHIEVEMENTS_DEALT for p in picks)
        ):
            return ["achievements:draft"]
    if min(tally) < 0 or max(tally[n:]) >= 1 << NGOODS or (any(tally) and s.phase != CAPTAIN_PHASE):
        return ["achievements:tally"]
    return []


def _puertoma_hands(s: State) -> list[str]:
    """§8.13: a Puertoma holds no card; a person six while he keeps four (those still to keep
    named by the prompt), then four."""
    owner, status = s.achievement_owner, s.achievement_status
    for seat in range(s.n):
        mine = [c for c in range(ACHIEVEMENT_CARDS) if owner[c] == seat]
        picks = sum(1 for c in mine if status[c] == ACH_PICK)
        if seat in s.rs.automata:
            if mine:
                return ["achievements:hands"]
        elif picks:
            choosing = s.phase == ACHIEVEMENT_DRAFT_PHASE
            if (len(mine) != PUERTOMA_DRAWN or (choosing and s.pending[seat] != (picks > 2))
                    or not (choosing or s.phase == DRAFT_PHASE)):
                return ["achievements:hands"]
        elif len(mine) != ACHIEVEMENTS_DEALT:
            return ["achievements:hands"]
    return []


VIEW_PARTS[MODULE] = view_part
RESAMPLERS.append(resample)
REVEALERS.append(revealed)
FAILURES.append(achievements_failures)
ACTION_VALUES[A.ANNOUNCE] = lambda s, seat, a: 1000.0  # the heuristic announces at once (X6-3)
ACTION_VALUES[A.ACHIEVEMENT_KEEP] = lambda s, seat, a: float(CARDS[a.a].vp)  # the draft's best


# --- the save (format 2, ``save``) ----------------------------------------------------------------

_CARD_NAMES = Names("achievement", tuple(c.name for c in CARDS))
_STATUSES = Names("achievement_status", ("held", "met", "announced", "pick"))
assert _STATUSES.index["pick"] == ACH_PICK and _STATUSES.index["announced"] == ACH_ANNOUNCED


def _dump(s: State) -> dict[str, Any] | None:
    """By card, the holder and status of each card out of the deck; the Captain phase's tallies:
    by seat the VP gained and the goods loaded."""
    owner, status, tally = s.achievement_owner, s.achievement_status, s.achievement_tally
    if not owner:
        return None
    names, statuses = _CARD_NAMES.names, _STATUSES.names
    n = len(tally) // 2
    return {
        "cards": {names[c]: [owner[c], statuses[status[c]]]
                  for c in range(len(owner)) if owner[c] != -1 or status[c] != ACH_HELD},
        "tally": {"vp": tally[:n], "loaded": [GOOD_NAMES.bits(mask) for mask in tally[n:]]},
    }


def _load(s: State, raw: Any) -> None:
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), dict):
        raise CorruptState("bad_field", field="achievements")
    owner = [-1] * ACHIEVEMENT_CARDS
    status = [ACH_HELD] * ACHIEVEMENT_CARDS
    for name, entry in raw["cards"].items():
        card = _CARD_NAMES.of(name, "achievements")
        if not isinstance(entry, list) or len(entry) != 2 or type(entry[0]) is not int:
            raise CorruptState("bad_field", field="achievements")
        owner[card] = entry[0]
        status[card] = _STATUSES.of(entry[1], "achievements")
    tally = raw.get("tally")
    if not isinstance(tally, dict):
        raise CorruptState("bad_field", field="achievements")
    vp = int_list(tally, "vp", s.n)
    loaded = tally["loaded"]
    if not isinstance(loaded, list) or len(loaded) != s.n:
        raise CorruptState("bad_length", field="achievements")
    s.achievement_owner, s.achievement_status = owner, status
    s.achievement_tally = vp + [GOOD_NAMES.read_bits(goods, "achievements") for goods in loaded]


register_field(MODULE, _dump, _load)
