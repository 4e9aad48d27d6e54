"""1897's Expansion V, the Festival Activities (rules spec §7.5: X5-1...X5-4, A-17, A-39; the
seed's "Expansão V" and its "Lista das cartas de atividades do festival").  Played on the
Festival board: the module needs Expansion IV (``festival``); only the 1897 edition has it
(``Edition.own_modules``).

The module is data (``ACTIVITIES``: the 12 cards, A-39) plus handlers on the hook points
``produced``, ``island_gained``, ``sold``, ``shipped``, ``captain_ended``, ``built`` and
``draft_ended`` (run after the Festival's own, so Expansion IV's goal of a point is settled
first); no role code names it.  Its state is ``State.activities`` (the three cards, ``ACT_*``
records) and ``State.activity_loads`` (the crates loaded in the Captain phase in progress).

Setup (X5-1, X5-2): three distinct cards are drawn at random, then their slots are filled as
Expansion IV fills its board (X4-1...X4-3): a property drawn among the types the bag holds (one
of each, as X4-1), a crate among the goods of the supply (X4-2), a building among the types of
its kind in the game (X4-3); the components leave the bag, the supply, the tray until the card
is completed.  Rulings, each beside its code:

* Order: after Expansion IV's goals and, unlike them, after the market and the starting
  properties (``MODULE_LATE_SETUP``): 1897 takes the starting properties out of the bag after
  the market (A-27), and up to five card properties drawn before them could leave too few Corn
  or Fruit for the starting ones.  As for Expansion IV's goal, the building slots wait for the
  end of an Expansion I draft (the seed: "primeiro decida quais Edifícios serão utilizados").
* A-17: a card's properties (and crates) of different slots are different types (every card
  with two or more slots asks for different ones): a repeated type is drawn again.  A building
  slot never names a type another card or Expansion IV's goal names (one building, one
  reward).  The last copy of a type never leaves the tray: where the tray holds one copy (every
  expanded building, at every player count; with 2 players, every commercial building, TWO-1)
  the card names the type and its tile stays on the tray, so building that tile completes the
  card.  Expansion IV with 2 players has no building goal at all (A-16): its board can only
  take a tile off the tray; read the same way here, Inauguration Ceremony could never be set up
  in any game, so the cards keep their building and only the tile stays (Expansion IV's goal
  keeps A-16's rule).

Tasks (X5-3) are checked at the moment they can become true, for the player who acts; the first
player to complete a card takes its reward and the card is turned over (``completed_by``):
its crates go back to the supply, its properties to the bag, its building's tile to the tray.
Worker rewards come from the supply (as many as it holds, as Expansion IV's) onto the portrait
and are placed at once like the Festival's (``festival_workers``: ``fw.<place>`` or ``pass``);
coins from the bank, VP tokens through ``ops.gain_vp`` (END-T3 when they run out).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import add
from typing import Any, Final, TypedDict

from ..core import CorruptState, Event
from ..fields import Names, int_field
from ..puerto_rico.actions import CATALOG
from ..puerto_rico.buildings import (
    MODULE_LATE_SETUP,
    MODULE_NEEDS,
    in_play,
    module_effect,
    owned_tiles,
)
from ..puerto_rico.data import GOODS, LARGE_VIOLET, NGOODS, SMALL_VIOLET, TILES
from ..puerto_rico.extensions import BUILDING_VALUES, FAILURES, HELD, VIEW_PARTS
from ..puerto_rico.festival import P_FESTIVAL_WORKERS, REWARD_COLONISTS
from ..puerto_rico.ops import Events, gain_vp, pay
from ..puerto_rico.save import BUILDINGS, GOOD_NAMES, TILE_NAMES, register_field
from ..puerto_rico.state import (
    CAPTAIN_PHASE,
    DRAFT_PHASE,
    FEST_BUILDING,
    OpenActivities,
    State,
)
from ..rng import below

MODULE: Final = "festival_activities"

# ``State.activities``: three cards, each a record of ACT_SIZE ints: the card (``ACTIVITIES``
# index), the seat that completed it (-1 while open), its property slots (tile kinds), its crate
# slots (goods), its building (-1: none, or not drawn yet during an Exp. 1 draft) and whether
# that building's tile is on the card (1: off the tray until the card is completed; 0: the card
# only names the type, A-17); unused slots hold -1
ACT_CARD, ACT_WON = 0, 1
ACT_TILES: Final = slice(2, 4)
ACT_GOODS: Final = slice(4, 7)
ACT_BUILDING, ACT_HELD = 7, 8
ACT_SIZE: Final = 9
ACTIVITY_CARDS: Final = 3  # X5-1

# The task kinds.  A card's property slots and crate slots each carry a count (``Activity``).
# in one Craftsman phase, produce at least each crate slot's count of its good
PRODUCE: Final = "produce"
OWN: Final = "own"  # own at least each property slot's count of properties of its type
OWN_AND_PRODUCE: Final = "own_and_produce"  # both at once, when the player produces
LOAD: Final = "load"  # in one Captain phase, load at least each crate slot's count of its good
# sell the slot's good as the crate filling the trading house
FILL_HOUSE: Final = "fill_trading_house"
# fill the largest cargo ship with the slot's good (X5-4)
DISPATCH_LARGEST: Final = "dispatch_largest"
DISPATCH_SMALLEST: Final = "dispatch_smallest"  # the same, the smallest cargo ship
BUILD: Final = "build"  # build the slot's building
TASKS: Final = (
    PRODUCE,
    OWN,
    OWN_AND_PRODUCE,
    LOAD,
    FILL_HOUSE,
    DISPATCH_LARGEST,
    DISPATCH_SMALLEST,
    BUILD,
)

# The kinds of building slot: a 3-VP common commercial building (the kind of X4-3: Factory,
# School, Harbor, Wharf in the base game) and an expanded building.
COMMON_3VP: Final = "common_3vp"
EXPANDED: Final = "expanded"


@dataclass(frozen=True, slots=True)
class Activity:
    """One Festival Activity card (§7.5's table): its English name, its task, its slots and its
    reward.  ``tiles`` and ``goods`` hold one entry per property / crate slot, the number of
    properties to own or crates to produce, load or sell of the type drawn for that slot (a
    sale or a dispatch: 1); ``building`` the kind of its building slot; ``distinct``: the
    slots of one kind show different types (A-17)."""

    name: str
    task: str
    colonists: int = 0  # reward workers (the kernel's colonists)
    doubloons: int = 0  # reward coins
    vp: int = 0  # reward VP tokens
    tiles: tuple[int, ...] = ()
    goods: tuple[int, ...] = ()
    building: str | None = None
    distinct: bool = True


# the 12 activities of the seed's list, one card each, in the seed's order.
ACTIVITIES: Final[tuple[Activity, ...]] = (
    # Pesagem Anual da Colheita: at least 3 crates of the good in a single phase
    Activity("annual_harvest_weigh_in", PRODUCE, colonists=1, doubloons=1, vp=1, goods=(3,)),
    # Coquetel de Carnaval: at least 1 crate of each of 3 goods in a single phase
    Activity("carnival_cocktail", PRODUCE, doubloons=3, goods=(1, 1, 1)),
    # Encerrando os Trabalhos: the good sold as the crate completing the trading house
    Activity("closing_the_work", FILL_HOUSE, colonists=2, goods=(1,)),
    # Prêmio do Especialista: at least 3 properties of the type
    Activity("specialists_prize", OWN, colonists=3, tiles=(3,)),
    # Festival de Agricultura: at least 1 property of each of 2 types and 1 crate of each of
    # 2 goods produced in a single phase
    Activity("agriculture_festival", OWN_AND_PRODUCE, doubloons=3, tiles=(1, 1), goods=(1, 1)),
    # Entrega de Produtos para o Festival: in one Captain phase, at least 1 crate of the first
    # good and 2 of the second loaded
    Activity("festival_goods_delivery", LOAD, colonists=2, vp=2, goods=(1, 2)),
    # Jogo dos Fazendeiros Gêmeos: at least 2 properties of each of 2 types
    Activity("twin_farmers_game", OWN, vp=3, tiles=(2, 2)),
    # Jogo das Duas Cestas: 2 crates of each of 2 goods (in a single phase, §7.5 [INTERP])
    Activity("two_baskets_game", PRODUCE, doubloons=3, goods=(2, 2)),
    # Cerimônia de Envio Solene: dispatch the largest cargo ship with the good
    Activity("solemn_shipping_ceremony", DISPATCH_LARGEST, colonists=3, goods=(1,)),
    # Um Brinde ao Pioneiro: build the 3-VP common building
    Activity("a_toast_to_the_pioneer", BUILD, vp=3, building=COMMON_3VP),
    # Cerimônia de Inauguração: build the expanded building
    Activity("inauguration_ceremony", BUILD, vp=3, building=EXPANDED),
    # Cerimônia de Envio Tradicional: dispatch the smallest cargo ship with the good
    Activity("traditional_shipping_ceremony", DISPATCH_SMALLEST, doubloons=2, goods=(1,)),
)
ACTIVITY_INDEX: Final = {a.name: i for i, a in enumerate(ACTIVITIES)}
MAX_TILES: Final = ACT_TILES.stop - ACT_TILES.start
MAX_GOODS: Final = ACT_GOODS.stop - ACT_GOODS.start
assert all(
    a.task in TASKS and len(a.tiles) <= MAX_TILES and len(a.goods) <= MAX_GOODS for a in ACTIVITIES
)
assert all(a.distinct for a in ACTIVITIES if len(a.tiles) > 1 or len(a.goods) > 1)
assert all(a.colonists <= REWARD_COLONISTS for a in ACTIVITIES)  # the Festival's decision's bound


# --- reading the cards ------------------------------------------------------------------------


def card(s: State, index: int) -> list[int]:
    """The ``ACT_*`` record of the ``index``-th card (a copy)."""
    return s.activities[index * ACT_SIZE : (index + 1) * ACT_SIZE]


def slots(record: list[int]) -> tuple[list[int], list[int]]:
    """A card's drawn property types and goods, slot by slot."""
    activity = ACTIVITIES[record[ACT_CARD]]
    tiles = record[ACT_TILES][: len(activity.tiles)]
    goods = record[ACT_GOODS][: len(activity.goods)]
    return tiles, goods


def open_cards(s: State, task: str | tuple[str, ...]) -> tuple[int, ...]:
    """The indices of the cards not completed yet whose task is ``task`` (or one of them), in
    card order (listed once, ``State.activity_open``, until a card is completed)."""
    listed = s.activity_open
    if listed is None:
        listed = _list_open(s)
    if isinstance(task, str):
        return listed[0].get(task, ())
    return tuple(i for i, kind in listed[1] if kind in task)


def _list_open(s: State) -> OpenActivities:
    records = s.activities
    pairs = tuple(
        (i, ACTIVITIES[records[i * ACT_SIZE + ACT_CARD]].task)
        for i in range(len(records) // ACT_SIZE)
        if records[i * ACT_SIZE + ACT_WON] < 0
    )
    by_task: dict[str, tuple[int, ...]] = {}
    for i, kind in pairs:
        by_task[kind] = (*by_task.get(kind, ()), i)
    listed = s.activity_open = (by_task, pairs)
    return listed


def _has(counts: list[int], kinds: list[int], needs: tuple[int, ...]) -> bool:
    return all(counts[k] >= n for k, n in zip(kinds, needs, strict=True))


# --- setup (X5-1, X5-2, A-17) ---------------------------------------------------------------


def setup_activities(s: State, ev: Events) -> None:
    """X5-1: three cards drawn at random; X5-2: their property and crate slots filled now, the
    building slots now or at the end of an Expansion I draft."""
    s.activity_loads = [0] * (s.n * NGOODS)
    deck = list(range(len(ACTIVITIES)))
    if s.rs.automata:  # 1897 §8.13: no Festival Goods Delivery at a table with Puertomas
        deck.remove(ACTIVITY_INDEX["festival_goods_delivery"])
    records: list[int] = []
    for _ in range(ACTIVITY_CARDS):
        s.rng, k = below(s.rng, len(deck))
        activity = ACTIVITIES[deck.pop(k)]
        record = [-1] * ACT_SIZE
        record[ACT_CARD] = ACTIVITY_INDEX[activity.name]
        record[ACT_HELD] = 0
        tiles = _draw_kinds(s, s.deck, len(activity.tiles), activity.distinct)
        record[ACT_TILES.start : ACT_TILES.start + len(tiles)] = tiles
        goods = _draw_kinds(s, s.goods, len(activity.goods), activity.distinct)
        record[ACT_GOODS.start : ACT_GOODS.start + len(goods)] = goods
        records.extend(record)
    s.activities = records
    s.activity_open = None
    if not any(s.draft_left):  # with an Exp. I draft still to play: at its end
        _draw_buildings(s, ev)


MODULE_LATE_SETUP[MODULE] = setup_activities


def _draw_kinds(s: State, pile: list[int], count: int, distinct: bool) -> list[int]:
    """X4-1 / X4-2 for ``count`` slots: each a type drawn at random among those ``pile`` (the
    bag by property type, or the goods supply) still holds, one taken out of it; with
    ``distinct`` (A-17) a type already drawn for the card is drawn again (each other type is
    then equally likely)."""
    out: list[int] = []
    for _ in range(count):
        candidates = [k for k in range(NGOODS) if pile[k] > 0 and not (distinct and k in out)]
        assert candidates, "the bag and the supply hold every type at setup"
        s.rng, k = below(s.rng, len(candidates))
        pile[candidates[k]] -= 1
        out.append(candidates[k])
    return out


def building_kind(b: int) -> str | None:
    """The kind of building slot a building fits (None: no card names it)."""
    building = CATALOG[b]
    if building.kind == LARGE_VIOLET:
        return EXPANDED
    if building.kind == SMALL_VIOLET and building.vp == 3:
        return COMMON_3VP
    return None


def building_candidates(s: State, kind: str, named: set[int]) -> list[int]:
    """The buildings of this game of that kind not named by another card or by Expansion IV's
    goal (A-17), in catalog order (all of the kind when that leaves none)."""
    of_kind = [b for b in in_play(s) if building_kind(b) == kind]
    return [b for b in of_kind if b not in named] or of_kind


@module_effect(MODULE, "draft_ended")
def _draw_buildings(s: State, ev: Events) -> None:
    """X5-2 (X4-3): each building slot draws a type at random among the candidates; its tile
    leaves the tray only when the tray keeps another copy (A-17)."""
    named = {s.festival[FEST_BUILDING]} if s.festival else set()
    for i in range(ACTIVITY_CARDS):
        base = i * ACT_SIZE
        kind = ACTIVITIES[s.activities[base + ACT_CARD]].building
        if kind is None:
            continue
        candidates = building_candidates(s, kind, named)
        s.rng, k = below(s.rng, len(candidates))
        b = candidates[k]
        named.add(b)
        s.activities[base + ACT_BUILDING] = b
        if s.market[b] > 1:
            s.market[b] -= 1
            s.activities[base + ACT_HELD] = 1


# --- completing a card (X5-3) -----------------------------------------------------------------


def _complete(s: State, seat: int, index: int, ev: Events) -> None:
    """X5-3: ``seat`` completed the card first: its reward, then its components back (crates to
    the supply, properties to the bag, the building's tile to the tray); the card is turned
    over."""
    base = index * ACT_SIZE
    record = s.activities
    record[base + ACT_WON] = seat
    s.activity_open = None  # one card less to list
    activity = ACTIVITIES[record[base + ACT_CARD]]
    count = min(activity.colonists, s.colonist_supply)  # as many as the supply holds (X4)
    if ev is not None:
        ev.append(
            Event(
                "FestivalActivityCompleted",
                seat,
                {
                    "activity": activity.name,
                    "colonists": count,
                    "doubloons": activity.doubloons,
                    "vp": activity.vp,
                },
            )
        )
    if count:
        s.colonist_supply -= count
        s.players[seat].san_juan += count
        if ev is not None:
            ev.append(
                Event(
                    "ColonistGained",
                    seat,
                    {
                        "target": "san_juan",
                        "source": "supply",
                        "by": "festival_activity",
                        "count": count,
                    },
                )
            )
        # placed at once, on empty spaces or left on the portrait (§7.5, as X4's)
        s.offers.append([seat, P_FESTIVAL_WORKERS, count])
    pay(s, seat, activity.doubloons, "festival_activity", ev)
    gain_vp(s, seat, activity.vp, "festival_activity", ev)
    tiles, goods = slots(card(s, index))
    for kind in tiles:
        s.deck[kind] += 1
    for kind in goods:
        s.goods[kind] += 1
    if record[base + ACT_HELD]:
        s.market[record[base + ACT_BUILDING]] += 1
        record[base + ACT_HELD] = 0


@module_effect(MODULE, "produced")
def _produced(s: State, seat: int, received: list[int], ev: Events) -> None:
    """Annual Harvest Weigh-in, Carnival Cocktail, Two Baskets Game, Agriculture Festival: the
    player's production of this Craftsman phase (``received``: his own production and what his
    buildings added to it, as the kernel's Expansion IV goods goal counts it; the Craftsman's
    advantage crate is taken after the production, not produced).  The Agriculture Festival's
    properties must be owned (occupied or not) when he produces: both halves hold at once
    then, the only moment the production half can become true."""
    tiles = owned_tiles(s, seat)
    for i in open_cards(s, (PRODUCE, OWN_AND_PRODUCE)):
        record = card(s, i)
        activity = ACTIVITIES[record[ACT_CARD]]
        kinds, goods = slots(record)
        if _has(received, goods, activity.goods) and _has(tiles, kinds, activity.tiles):
            _complete(s, seat, i, ev)


@module_effect(MODULE, "island_gained")
def _island_gained(s: State, seat: int, tile: int, ev: Events) -> None:
    """Specialist's Prize, Twin Farmers' Game: checked when a property of one of the card's
    types joins the player's field (face up, occupied or not; a forest or a quarry is none)."""
    tiles = owned_tiles(s, seat)
    for i in open_cards(s, OWN):
        record = card(s, i)
        kinds, _ = slots(record)
        if tile in kinds and _has(tiles, kinds, ACTIVITIES[record[ACT_CARD]].tiles):
            _complete(s, seat, i, ev)


@module_effect(MODULE, "sold")
def _sold(s: State, seat: int, good: int, price: int, filled: bool, ev: Events) -> None:
    """Closing the Work: the card's good sold to the trading house as the crate that fills it
    (its 4th).  A Merchants' Post sale (B-29) goes to no trading house: no ``sold`` call."""
    if not filled:
        return
    for i in open_cards(s, FILL_HOUSE):
        _, goods = slots(card(s, i))
        if goods[0] == good:
            _complete(s, seat, i, ev)


@module_effect(MODULE, "shipped")
def _shipped(s: State, seat: int, ship: int, goods: list[int], ev: Events) -> None:
    """Festival Goods Delivery: the crates the player loaded this Captain phase, on cargo ships
    and private ships alike (a load is a load; only dispatching needs a cargo ship), checked
    after each load of one of the card's goods.  X5-4: a load dispatches a cargo ship when it
    places the crate that fills it; a private ship (``ship`` -1) never is (Solemn and
    Traditional Shipping Ceremonies: the largest / smallest cargo ship, with the card's
    good)."""
    loads = s.activity_loads
    base = seat * NGOODS
    mine = list(map(add, loads[base : base + NGOODS], goods))
    loads[base : base + NGOODS] = mine
    for i in open_cards(s, LOAD):
        record = card(s, i)
        _, kinds = slots(record)
        if any(goods[k] for k in kinds) and _has(mine, kinds, ACTIVITIES[record[ACT_CARD]].goods):
            _complete(s, seat, i, ev)
    if ship < 0 or s.ship_load[ship] < s.ship_cap[ship]:
        return
    capacity = s.ship_cap[ship]
    for i in open_cards(s, (DISPATCH_LARGEST, DISPATCH_SMALLEST)):
        record = card(s, i)
        task = ACTIVITIES[record[ACT_CARD]].task
        _, kinds = slots(record)
        size = max(s.ship_cap) if task == DISPATCH_LARGEST else min(s.ship_cap)
        if s.ship_kind[ship] == kinds[0] and capacity == size:
            _complete(s, seat, i, ev)


@module_effect(MODULE, "captain_ended")
def _captain_ended(s: State, ev: Events) -> None:
    """Festival Goods Delivery counts one Captain phase's loads."""
    s.activity_loads = [0] * len(s.activity_loads)


@module_effect(MODULE, "built")
def _built(s: State, seat: int, building: int, ev: Events) -> None:
    """A Toast to the Pioneer, Inauguration Ceremony: building the card's type (a copy from the
    tray; where the card only names the type, its one tile)."""
    for i in open_cards(s, BUILD):
        if s.activities[i * ACT_SIZE + ACT_BUILDING] == building:
            _complete(s, seat, i, ev)


# --- what the cards hold (conservation), what they show (the view) ----------------------------


def held_goods(s: State) -> list[int]:
    """The crates on the cards not completed yet, by good."""
    out = [0] * NGOODS
    for i in open_cards(s, TASKS):
        for kind in slots(card(s, i))[1]:
            out[kind] += 1
    return out


def held_tiles(s: State) -> int:
    """The properties on the cards not completed yet."""
    return sum(len(slots(card(s, i))[0]) for i in open_cards(s, TASKS))


def held_buildings(s: State) -> int:
    """The building tiles on the cards, off the tray (A-17)."""
    return sum(s.activities[i * ACT_SIZE + ACT_HELD] for i in range(len(s.activities) // ACT_SIZE))


def wanted_buildings(s: State) -> set[int]:
    """The buildings an open card names (the heuristic's bonus)."""
    return {s.activities[i * ACT_SIZE + ACT_BUILDING] for i in open_cards(s, BUILD)}


class TileCount(TypedDict):
    tile: str
    count: int


class GoodCount(TypedDict):
    good: str
    count: int


class Reward(TypedDict):
    colonists: int
    doubloons: int
    vp: int


class ActivityCard(TypedDict):
    """One Festival Activity card of the view (the kernel's words): see :func:`view_part`."""

    activity: str
    task: str
    plantations: list[TileCount]
    goods: list[GoodCount]
    building: str | None
    building_on_card: bool
    reward: Reward
    completed_by: int | None


def view_part(s: State) -> list[ActivityCard] | None:
    """The three cards (public, X5-1): each activity, its task, its drawn components (with the
    number of each it asks for), its building (``None`` until an Expansion I draft ends) and
    whether its tile is on the card, its reward and who completed it (``None`` while open);
    ``None`` without the module."""
    if not s.activities:
        return None
    out: list[ActivityCard] = []
    for i in range(ACTIVITY_CARDS):
        record = card(s, i)
        activity = ACTIVITIES[record[ACT_CARD]]
        tiles, goods = slots(record)
        building = record[ACT_BUILDING]
        won = record[ACT_WON]
        out.append(
            {
                "activity": activity.name,
                "task": activity.task,
                "plantations": [
                    {"tile": TILES[k], "count": n}
                    for k, n in zip(tiles, activity.tiles, strict=True)
                ],
                "goods": [
                    {"good": GOODS[k], "count": n}
                    for k, n in zip(goods, activity.goods, strict=True)
                ],
                "building": None if building < 0 else CATALOG[building].name,
                "building_on_card": bool(record[ACT_HELD]),
                "reward": {
                    "colonists": activity.colonists,
                    "doubloons": activity.doubloons,
                    "vp": activity.vp,
                },
                "completed_by": None if won < 0 else won,
            }
        )
    return out


def activities_failures(s: State) -> list[str]:
    """The cards exist exactly with the module: three distinct cards, each slot a type of its
    kind (different ones where the card asks, A-17), the building drawn once an Expansion I
    draft is over and of the slot's kind, a tile on a card only while it is open and the tray
    has its other copies; completed by a seat at most once; the Captain phase's loads only in
    it."""
    if MODULE not in s.rs.modules:
        return [] if not s.activities and not s.activity_loads else ["activities:not_in_play"]
    records, loads = s.activities, s.activity_loads
    if len(records) != ACTIVITY_CARDS * ACT_SIZE or len(loads) != s.n * NGOODS:
        return ["activities:shape"]
    if min(loads) < 0 or (any(loads) and s.phase != CAPTAIN_PHASE):
        return ["activities:loads"]
    cards = [records[i * ACT_SIZE + ACT_CARD] for i in range(ACTIVITY_CARDS)]
    if any(not 0 <= c < len(ACTIVITIES) for c in cards) or len(set(cards)) != ACTIVITY_CARDS:
        return ["activities:cards"]
    drafting = s.phase == DRAFT_PHASE
    for i in range(ACTIVITY_CARDS):
        record = card(s, i)
        activity = ACTIVITIES[record[ACT_CARD]]
        tiles, goods = slots(record)
        for drawn, kinds in ((tiles, record[ACT_TILES]), (goods, record[ACT_GOODS])):
            if any(not 0 <= k < NGOODS for k in drawn) or any(k != -1 for k in kinds[len(drawn) :]):
                return ["activities:slots"]
            if activity.distinct and len(set(drawn)) != len(drawn):
                return ["activities:slots"]
        won, b, held = record[ACT_WON], record[ACT_BUILDING], record[ACT_HELD]
        if not -1 <= won < s.n or held not in (0, 1) or (held and won >= 0):
            return ["activities:winner"]
        if activity.building is None or drafting:
            if b != -1 or held:
                return ["activities:building"]
        elif (
            not 0 <= b < len(CATALOG)
            or building_kind(b) != activity.building
            or b not in in_play(s)
            or (held and s.rs.copies[b] < 2)
        ):
            return ["activities:building"]
        elif won >= 0 and activity.task == BUILD and s.players[won].bw[b] < 0:
            return ["activities:winner"]
    return []


def held(s: State) -> dict[str, int]:
    """Conservation: the crates, properties and building tiles on the cards."""
    if not s.activities:
        return {}
    return {"goods": sum(held_goods(s)), "plantations": held_tiles(s),
            "buildings": held_buildings(s)}


def _wanted_value(s: State, seat: int, b: int) -> float:
    """The heuristic: a building an open card names is worth its 3 VP more (X5-3)."""
    return 3.0 if s.activities and b in wanted_buildings(s) else 0.0


MODULE_NEEDS[MODULE] = "festival"  # X5: played on the Festival board
VIEW_PARTS[MODULE] = lambda s, viewer: view_part(s)
FAILURES.append(activities_failures)
HELD.append(held)
BUILDING_VALUES.append(_wanted_value)


# --- the save (format 2, ``save``) ----------------------------------------------------------------

_ACTIVITY_NAMES = Names("activity", tuple(a.name for a in ACTIVITIES))


def _dump(s: State) -> dict[str, Any] | None:
    """The three cards (each ``ACT_*`` record by name) and the crates each seat loaded this
    Captain phase."""
    if not s.activities:
        return None
    tiles, goods, buildings = TILE_NAMES, GOOD_NAMES, BUILDINGS
    cards = []
    for i in range(ACTIVITY_CARDS):
        r = card(s, i)
        cards.append({
            "card": _ACTIVITY_NAMES.names[r[ACT_CARD]],
            "completed_by": r[ACT_WON],
            "tiles": [tiles.name_or_none(t) for t in r[ACT_TILES]],
            "goods": [goods.name_or_none(g) for g in r[ACT_GOODS]],
            "building": buildings.name_or_none(r[ACT_BUILDING]),
            "held": r[ACT_HELD] == 1,
        })
    loads = s.activity_loads
    return {"cards": cards,
            "loads": [goods.counts(loads[at:at + NGOODS]) for at in range(0, len(loads), NGOODS)]}


def _load(s: State, raw: Any) -> None:
    key = "festival_activities"
    if not isinstance(raw, dict):
        raise CorruptState("bad_field", field=key)
    cards, loads = raw["cards"], raw["loads"]
    if not isinstance(cards, list) or len(cards) != ACTIVITY_CARDS:
        raise CorruptState("bad_length", field=key)
    if not isinstance(loads, list) or len(loads) != s.n:
        raise CorruptState("bad_length", field=key)
    records: list[int] = []
    for c in cards:
        if not isinstance(c, dict) or type(c["held"]) is not bool:
            raise CorruptState("bad_field", field=key)
        tiles, goods = c["tiles"], c["goods"]
        if not isinstance(tiles, list) or len(tiles) != 2:
            raise CorruptState("bad_field", field=key)
        if not isinstance(goods, list) or len(goods) != 3:
            raise CorruptState("bad_field", field=key)
        record = [
            _ACTIVITY_NAMES.of(c["card"], key),
            int_field(c, "completed_by"),
            *(TILE_NAMES.optional(t, key) for t in tiles),
            *(GOOD_NAMES.optional(g, key) for g in goods),
            BUILDINGS.optional(c["building"], key),
            int(c["held"]),
        ]
        records.extend(record)
    s.activities = records
    s.activity_loads = [n for seat in loads for n in GOOD_NAMES.read_counts(seat, key)]


register_field(MODULE, _dump, _load)
