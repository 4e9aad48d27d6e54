"""A sensible Puerto Rico player for AI seats: greedy, one decision at a time.

It scores every legal action with simple, explainable estimates (what the role gives me against
what it gives the others, what a building is worth at this point of the game, the most VP when
shipping, the dearest barrels to keep) and breaks ties with its own seeded generator.  It only
ever chooses among ``legal_actions``.
"""

from __future__ import annotations

from typing import Any

from ..core import Game
from ..policies import HEURISTICS, Policy
from ..rng import below, seed_state
from . import actions as A
from .buccaneer import buccaneer_options
from .data import (
    BUCCANEER,
    BUILDER,
    CAPTAIN,
    CORN,
    CRAFTSMAN,
    LARGE_PRODUCTION,
    LARGE_VIOLET,
    MAYOR,
    NGOODS,
    PROSPECTOR,
    QUARRY,
    SETTLER,
    SMALL_PRODUCTION,
    TRADE_PRICE,
    TRADER,
    TRADING_HOUSE_CAPACITY,
)
from .extensions import ACTION_VALUES, BUILDING_VALUES
from .legality import (
    build_options,
    cargo_options,
    city_used,
    clockwise,
    price,
    production,
    sale_price,
)
from .nobles import board_nobles
from .state import (
    FEST_BUILDING,
    FEST_CONSTRUCTION_GOAL,
    FEST_GOODS,
    FEST_PLANTATION_GOAL,
    FEST_PRODUCTION_GOAL,
    FEST_TILE,
    NOB_SHIP,
    State,
)

CATALOG = A.CATALOG
_VIOLET_VALUE = {
    "small_market": 2.0,
    "hacienda": 1.0,
    "construction_hut": 1.0,
    "small_warehouse": 1.5,
    "hospice": 2.0,
    "office": 2.0,
    "large_market": 3.0,
    "large_warehouse": 2.5,
    "factory": 4.5,
    "university": 2.5,
    "harbor": 5.0,
    "wharf": 5.0,
    # Exp. 1 (§10.2)
    "aqueduct": 1.5,
    "forest_house": 1.0,
    "black_market": 1.0,
    "storehouse": 2.0,
    "guest_house": 2.0,
    "church": 2.5,
    "trading_post": 2.5,
    "small_wharf": 3.5,
    "lighthouse": 3.0,
    "library": 3.5,
    "specialty_factory": 3.0,
    "union_hall": 3.0,
    # Exp. 2 (§11.3); the Jeweler and the Royal Garden are valued by the nobles (below)
    "land_office": 1.5,
    "chapel": 2.0,
    "hunting_lodge": 1.0,
    "zoning_office": 2.0,
    "royal_supplier": 2.0,
    "villa": 3.0,
}
# Exp. 1's large buildings: the Statue is its printed 8 VP and needs no colonist; the Cloister
# scores like the other large buildings (only when occupied)
_DRAFT_LARGE_VALUE = {"statue": 4.0}


class PuertoRicoHeuristic:
    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = seed_state(seed)

    def choose(self, game: Game[Any], state: Any, seat: int, legal: list[Any]) -> Any:
        s: State = state
        best: list[A.Action] = []
        best_score = float("-inf")
        for action in legal:
            score = self.score(s, seat, action)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        self.rng, k = below(self.rng, len(best))
        return best[k]

    # --- scoring ------------------------------------------------------------------------------

    def score(self, s: State, seat: int, a: A.Action) -> float:
        kind = a.kind
        if kind == A.ROLE:
            return self.role_value(s, seat, a)
        if kind in (A.HACIENDA, A.OFFER, A.PRIVILEGE, A.AUTO, A.PRODUCE):
            return 100.0
        if kind == A.PASS:
            return 0.0
        if kind == A.SETTLE:
            return self.tile_value(s, seat, a.a)
        if kind == A.PLACE:
            return 1.0
        if kind == A.BUILD:
            return self.building_value(s, seat, a.a)
        if kind in (A.CRAFT, A.SELL):
            return 1.0 + TRADE_PRICE[a.a]
        if kind == A.SHIP:
            p = s.players[seat]
            room = s.ship_cap[a.b] - s.ship_load[a.b]
            count = min(p.goods[a.a], room)
            # ship many; prefer cheap goods (keep the dear ones to sell)
            return 10.0 + count - 0.1 * TRADE_PRICE[a.a]
        if kind == A.WHARF:
            count = s.players[seat].goods[a.a]
            return 9.0 + count - 0.1 * TRADE_PRICE[a.a]
        if kind == A.KEEP:
            return sum(n * (1 + TRADE_PRICE[g]) for g, n in enumerate(a.keep))
        if kind in _BUCCANEER_KINDS:
            return buccaneer_option_value(s, seat, a)
        if kind == A.RAID_PLACE:
            return 1.0  # a colonist placed at once beats one left aside (Exp. 3)
        if kind in _NOBLES_KINDS:
            return nobles_score(s, seat, a)
        own = ACTION_VALUES.get(kind)  # an edition's own actions (1897: Exp. IV, VI)
        if own is not None:
            return own(s, seat, a)
        return self.new_buildings_score(s, seat, a)

    def new_buildings_score(self, s: State, seat: int, a: A.Action) -> float:
        """Exp. 1's decisions (§10)."""
        kind = a.kind
        if kind == A.DRAFT:  # the buildings it would like to buy, then the others
            building = CATALOG[a.a]
            return _VIOLET_VALUE.get(building.name, 2.0) + _DRAFT_LARGE_VALUE.get(
                building.name, 0.0
            )
        if kind == A.FOREST:  # a forest is worth a little less than the plantation
            return self.tile_value(s, seat, a.a) - 0.8
        if kind == A.TRADING_POST:
            return 1.0 + TRADE_PRICE[a.a] - 0.1  # the house first when both are open
        if kind == A.SMALL_WHARF:
            barrels = sum(a.keep)
            # VP per two barrels; keep the dear barrels to sell
            return 8.5 + barrels // 2 - 0.1 * sum(TRADE_PRICE[g] * n for g, n in enumerate(a.keep))
        if kind == A.BLACK_MARKET:
            good, vp = a.keep
            cost = (a.b >= 0) * 1.5 + (good >= 0) * (1.0 + TRADE_PRICE[max(good, 0)]) + vp * 1.0
            return self.building_value(s, seat, a.a) - cost
        if kind == A.GUEST:  # a guest on the Guest House does nothing: move it where it works
            slot = a.a
            if slot >= A.BUILDING_SLOT:
                b = slot - A.BUILDING_SLOT
                return 2.0 + CATALOG[b].vp * 0.5
            return 1.5 if slot in (CORN, QUARRY) else 2.0
        return 0.0

    def tile_value(self, s: State, seat: int, tile: int) -> float:
        p = s.players[seat]
        value = festival_tile_bonus(s, seat, tile)
        if tile == QUARRY:
            return 3.0 if s.round < 10 else 1.0
        if tile == CORN:
            return value + 2.5
        processors = s.rs.processors[tile]
        circles = sum(CATALOG[b].circles for b in processors if p.bw[b] >= 0)
        missing = circles - p.tiles[tile]
        return value + 1.0 + TRADE_PRICE[tile] * 0.5 + (2.0 if missing > 0 else 0.0)

    def building_value(self, s: State, seat: int, b: int) -> float:
        p = s.players[seat]
        building = CATALOG[b]
        value = float(building.vp)
        late = s.round >= 9 or city_used(p) >= 8
        if building.kind == LARGE_VIOLET:
            value += 4.0 if late else 1.0
            if building.name == "royal_garden":  # Exp. 2: +1 VP per noble
                value += 0.8 * board_nobles(p)
        elif building.production and building.good is None:  # Exp. 2 Jeweler: per noble
            value += 0.5 * board_nobles(p) * (0.3 if late else 1.0)
        elif building.kind in (SMALL_PRODUCTION, LARGE_PRODUCTION):
            good = building.good
            assert good is not None
            plantations = p.tiles[good]
            value += (
                (1.0 + TRADE_PRICE[good])
                * min(plantations, building.circles)
                * (0.3 if late else 1.0)
            )
            if any(p.bw[x] >= 0 for x in s.rs.processors[good]):
                value -= 2.0
        else:
            value += _VIOLET_VALUE.get(building.name, 1.0) * (0.5 if late else 1.0)
        if festival_open(s, FEST_CONSTRUCTION_GOAL) and b == s.festival[FEST_BUILDING]:
            value += 3.0  # Exp. 4: the construction goal's 3 VP
        for bonus in BUILDING_VALUES:  # an edition's own (1897 Exp. V: an Activity's 3 VP)
            value += bonus(s, seat, b)
        # spend well: a better building for the money
        return value - 0.15 * price(s, seat, b)

    def role_value(self, s: State, seat: int, a: A.Action) -> float:
        card = s.rs.card_of[a.code]
        role = s.cards[card]
        coins = s.card_doubloons[card]
        p = s.players[seat]
        others = [i for i in range(s.n) if i != seat]
        value = float(coins)
        if role == PROSPECTOR:
            return value + 1.0
        if role == CRAFTSMAN:
            mine = sum((1 + TRADE_PRICE[g]) * n for g, n in enumerate(production(s, seat)))
            theirs = max(
                (sum((1 + TRADE_PRICE[g]) * n for g, n in enumerate(production(s, o))))
                for o in others
            )
            if festival_open(s, FEST_PRODUCTION_GOAL):  # Exp. 4: 3 doubloons to the first
                for o in clockwise(s, seat):
                    if meets_production_goal(s, production(s, o)):
                        value += 3.0 if o == seat else -1.0
                        break
            return value + mine - 0.6 * theirs + (1.5 if mine else 0.0)
        if role == TRADER:
            if len(s.house) >= TRADING_HOUSE_CAPACITY:
                return value
            sellable = [g for g in range(NGOODS) if p.goods[g] and g not in s.house]
            if not sellable:
                return value - 1.0
            return value + max(sale_price(s, seat, g) for g in sellable) + 1.0
        if role == CAPTAIN:
            mine = sum(p.goods)
            theirs = max(sum(s.players[o].goods) for o in others)
            loads = cargo_options(s, seat)
            return value + (0.8 * mine if loads else 0.0) - 0.3 * theirs + (1.0 if loads else -1)
        if role == BUILDER:
            options = [x for x in build_options(s, seat) if x.kind == A.BUILD]
            if not options:
                return value - 1.0
            best = max(self.building_value(s, seat, x.a) for x in options)
            return value + 1.0 + 0.6 * best
        if role == MAYOR:
            empty = sum(CATALOG[b].circles - max(p.bw[b], 0) for b in p.city) + (
                sum(p.tiles) - sum(p.workers)
            )
            nobles = s.nobles[NOB_SHIP] if s.nobles else 0  # Exp. 2: the ship's noble
            ship_share = (s.colonist_ship + nobles) / s.n
            value += 0.5 if nobles else 0.0  # the Mayor takes it first
            return value + min(empty, ship_share + 1) * 1.2 - (0.0 if empty else 2.0)
        if role == SETTLER:
            if p.island() >= 12:
                return value - 1.0
            return value + (3.0 if s.round < 8 else 1.5)
        if role == BUCCANEER:  # Exp. 3: the best of its options (only the chooser acts)
            options = buccaneer_options(s)
            return value + max(buccaneer_option_value(s, seat, x) for x in options)
        return value


_BUCCANEER_KINDS = frozenset({A.PIRACY, A.PLUNDER, A.RAID, A.CAPTURE})
_NOBLES_KINDS = frozenset(
    {A.NOBLE_TAKE, A.NOBLE_PLACE, A.LAND_OFFICE, A.HUNTING_LODGE, A.ROYAL_SUPPLIER}
)


def nobles_score(s: State, seat: int, a: A.Action) -> float:
    """Exp. 2's decisions (§11), against ``pass`` at 0: a noble is a colonist worth 1 VP more;
    the Land Office buys while the island has room; the Hunting Lodge keeps the island; the
    Royal Supplier trades the cheap barrels (the dear ones are better sold)."""
    kind = a.kind
    p = s.players[seat]
    if kind == A.NOBLE_TAKE:
        return 2.0 if a.a else 1.0
    if kind == A.NOBLE_PLACE:
        return 1.0
    if kind == A.LAND_OFFICE:
        if a.b == 0:  # buy a plantation for 1 doubloon
            return 1.5 if s.round < 12 and p.island() < 11 and p.doubloons >= 2 else -1.0
        # sell: only an unoccupied corn of a crowded island is worth a doubloon
        tile = a.a
        crowded = p.island() >= 11 and tile == CORN and p.tiles[CORN] > p.workers[CORN]
        return 0.5 if crowded else -1.0
    if kind == A.HUNTING_LODGE:
        return -1.0
    if kind == A.ROYAL_SUPPLIER:
        return sum(1.0 - 0.2 * TRADE_PRICE[g] for g, one in enumerate(a.keep) if one)
    return 0.0


def buccaneer_option_value(s: State, seat: int, a: A.Action) -> float:
    """Exp. 3: what an option is worth to the Buccaneer, in about the units of the role values
    (a doubloon or a VP is about 1; taking from the others is worth a bit more)."""
    kind = a.kind
    if kind == A.PIRACY:
        good, load = s.ship_kind[a.a], s.ship_load[a.a]
        kept = a.b * (1.0 + TRADE_PRICE[good] * 0.5)
        # emptying a nearly full ship also takes VP from the next Captain's shippers
        return 0.5 + kept + 0.2 * load
    if kind == A.PLUNDER:
        return 1.2 * len(s.house)
    if kind == A.RAID:
        p = s.players[seat]
        free = sum(p.tiles) - sum(p.workers) + sum(CATALOG[b].circles - p.bw[b] for b in p.city)
        return 1.2 * min(3, max(0, s.colonist_ship - s.n), free)
    if kind == A.CAPTURE:
        card: int = s.rs.card_of["r." + a.code[len("bu.capture.") :]]
        return 0.5 + s.card_doubloons[card] + (0.5 if s.n > 2 else 0.0)
    return 0.0


def festival_open(s: State, goal: int) -> bool:
    return bool(s.festival) and s.festival_won[goal] < 0


def meets_production_goal(s: State, made: list[int]) -> bool:
    shown = s.festival[FEST_GOODS]
    return all(made[k] >= shown.count(k) for k in set(shown))


def festival_tile_bonus(s: State, seat: int, tile: int) -> float:
    """Exp. 4: a plantation towards the open plantation goal (3 colonists to the first with
    three of the shown kind) is worth more the closer it brings the player."""
    if not festival_open(s, FEST_PLANTATION_GOAL) or tile != s.festival[FEST_TILE]:
        return 0.0
    have = s.players[seat].tiles[tile]
    return {2: 3.0, 1: 1.0, 0: 0.5}.get(have, 0.0)


def make_heuristic(seed: int) -> Policy:
    return PuertoRicoHeuristic(seed)


HEURISTICS["puerto-rico"] = make_heuristic
assert MAYOR != SETTLER
