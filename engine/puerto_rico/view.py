"""What a person may see of a game: ``view(state, viewer)``.

The public view (``viewer=None``) hides every player's VP chips (kept face down, [C]) and
everything random that is still to come (the generator state, the order of the face-down
plantations); it shows their counts.  A seat view adds that seat's own chips and the price of
each building after that seat's discounts.  An edition's own parts (``extensions.VIEW_PARTS``)
decide what they show (1897's Expansion VI: the Achievement cards face down, but a seat's
own).  Its shape is :class:`PuertoRicoView` below (docs/engine.md tells it too).
"""

from __future__ import annotations

from typing import Any, Final, NotRequired, TypedDict, cast

from ..core import OutcomeJSON, PromptJSON
from .actions import CATALOG
from .buccaneer import BuccaneerPart
from .buccaneer import view_part as _buccaneer
from .buildings import in_play
from .data import ALL_ROLES, GOODS, NGOODS, NTILES, TILES, TRADING_HOUSE_CAPACITY
from .extensions import VIEW_PARTS
from .legality import city_used, current_prompt, price
from .new_buildings import DraftPart, draft_view
from .nobles import NoblesPart, PlayerNobles
from .nobles import view_part as _nobles
from .nobles import view_players as _noble_places
from .scoring import final_scores
from .state import BUILDER_PHASE, FEST_BUILDING, FEST_GOODS, FEST_TILE, PHASE_NAMES, State

VIEW_VERSION: Final = 1


# --- the view's shape (engine, render and bot read it through these types) --------------------


class RoleCard(TypedDict):
    """A role card: its card (``settler`` ... ``prospector2``), its role, the doubloons on it
    and who took it this round (``None``: still there)."""

    card: str
    role: str
    doubloons: int
    taken_by: int | None


class MarketEntry(TypedDict):
    """A building of the game (the market): copies left, the game's cost (not always the
    printed one), its VP, column, circles, size, kind and its good (production buildings)."""

    building: str
    left: int
    cost: int
    vp: int
    column: int
    circles: int
    size: int
    kind: str
    good: str | None
    price: NotRequired[int]
    """A seat's view only: the building's price for that seat now, after its discounts."""


class IslandTile(TypedDict):
    tile: str
    """A plantation kind, ``quarry``, or (Exp. 1) ``forest``, face down and never occupied."""
    occupied: bool
    noble: NotRequired[bool]
    """Exp. 2: the piece on it is a noble."""


class CityBuilding(TypedDict):
    building: str
    colonists: int
    circles: int
    size: int
    kind: str
    vp: int
    nobles: NotRequired[int]
    """Exp. 2: how many of its pieces are nobles."""


class PlayerEntry(TypedDict):
    """A player: ``vp`` (his VP chips) is ``None`` but in his own view; ``colonists`` counts
    every piece on his board and in his San Juan."""

    seat: int
    doubloons: int
    vp: int | None
    goods: dict[str, int]
    san_juan: int
    island: list[IslandTile]
    island_used: int
    city: list[CityBuilding]
    city_used: int
    colonists: int
    is_governor: bool
    nobles: NotRequired[PlayerNobles]
    """Exp. 2 only."""


class PromptPart(PromptJSON):
    forced: bool


class ColonistsPart(TypedDict):
    ship: int
    supply: int


class Ship(TypedDict):
    capacity: int
    good: str | None
    count: int


class PlantationGoal(TypedDict):
    tile: str
    achieved_by: int | None


class ProductionGoal(TypedDict):
    goods: list[str]
    achieved_by: int | None


class ConstructionGoal(TypedDict):
    building: str | None
    """``None`` until an Exp. 1 draft ends."""
    achieved_by: int | None


class FestivalPart(TypedDict):
    """Exp. 4: the Festival board's three goals and who achieved each (``None``: open)."""

    plantation: PlantationGoal
    production: ProductionGoal
    construction: ConstructionGoal


class PuertoRicoView(TypedDict):
    """``view(state, viewer)``; a module's part is ``None`` without the module.  An edition's
    own parts (:data:`extensions.VIEW_PARTS`) are its view type's, not these."""

    view_version: int
    game: str
    options: dict[str, Any]
    viewer: int | None
    players_count: int
    round: int
    governor: int
    phase: str
    chooser: int | None
    active_role: str | None
    builder_phase: bool
    prompt: PromptPart | None
    roles: list[RoleCard]
    colonists: ColonistsPart
    vp_chips_left: int
    quarries_left: int
    face_up: list[str]
    plantation_stack: int
    plantation_discard: int
    goods_supply: dict[str, int]
    trading_house: list[str]
    trading_house_capacity: int
    ships: list[Ship]
    market: list[MarketEntry]
    players: list[PlayerEntry]
    festival: FestivalPart | None
    buccaneer: BuccaneerPart | None
    draft: DraftPart | None
    nobles: NoblesPart | None
    end_triggered: list[str]
    game_over: bool
    private_ships: NotRequired[dict[str, int]]
    """1897 (B-18, B-31): the Wharves' private ships' barrels, during a Captain phase."""
    outcome: NotRequired[OutcomeJSON]
    """Once the game is over."""


def _goods(values: list[int]) -> dict[str, int]:
    return {GOODS[k]: values[k] for k in range(NGOODS)}


def _festival(s: State) -> FestivalPart | None:
    """Exp. 4: the three goals on the Festival board (public) and the seat that achieved each
    (``None`` while open); ``None`` without the module."""
    if not s.festival:
        return None
    won = [None if w < 0 else w for w in s.festival_won]
    return {
        "plantation": {"tile": TILES[s.festival[FEST_TILE]], "achieved_by": won[0]},
        "production": {
            "goods": [GOODS[g] for g in s.festival[FEST_GOODS]],
            "achieved_by": won[1],
        },
        "construction": {
            # drawn when an Exp. 1 draft ends (-1 until then): no building yet
            "building": None
            if s.festival[FEST_BUILDING] < 0
            else CATALOG[s.festival[FEST_BUILDING]].name,
            "achieved_by": won[2],
        },
    }


def view(s: State, viewer: int | None) -> PuertoRicoView:
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < s.n):
        raise ValueError(f"no seat {viewer!r}")
    prompt = current_prompt(s)
    rs = s.rs
    roles: list[RoleCard] = []
    for card, role in enumerate(s.cards):
        taken = s.card_taken[card]
        roles.append(
            {
                "card": rs.card_actions[card].code[2:],
                "role": ALL_ROLES[role],
                "doubloons": s.card_doubloons[card],
                "taken_by": None if taken < 0 else taken,
            }
        )
    market: list[MarketEntry] = []
    for b in in_play(s):
        building = CATALOG[b]
        entry: MarketEntry = {
            "building": building.name,
            "left": s.market[b],
            "cost": rs.cost[b],  # the game's (1897's Cost Swap, §9.3), not the printed one
            "vp": building.vp,
            "column": building.column,
            "circles": building.circles,
            "size": building.size,
            "kind": building.kind,
            "good": None if building.good is None else GOODS[building.good],
        }
        if viewer is not None:
            # ruling: the Builder privilege counts only during the Builder phase
            entry["price"] = price(s, viewer, b)
        market.append(entry)
    players: list[PlayerEntry] = []
    for seat, p in enumerate(s.players):
        island: list[IslandTile] = []
        for kind in range(NTILES):
            for i in range(p.tiles[kind]):
                island.append({"tile": TILES[kind], "occupied": i < p.workers[kind]})
        # Exp. 1: forests (face down: which plantation lies under one is not shown)
        island.extend({"tile": "forest", "occupied": False} for _ in range(sum(p.forests)))
        city: list[CityBuilding] = [
            {
                "building": CATALOG[b].name,
                "colonists": p.bw[b],
                "circles": CATALOG[b].circles,
                "size": CATALOG[b].size,
                "kind": CATALOG[b].kind,
                "vp": CATALOG[b].vp,
            }
            for b in p.city
        ]
        players.append(
            {
                "seat": seat,
                "doubloons": p.doubloons,
                "vp": p.vp if viewer == seat else None,
                "goods": _goods(p.goods),
                "san_juan": p.san_juan,
                "island": island,
                "island_used": p.island(),
                "city": city,
                "city_used": city_used(p),
                "colonists": p.colonists(),
                "is_governor": seat == s.governor,
            }
        )
    _noble_places(s, players)  # Exp. 2: each player's nobles (only with the module)
    out: PuertoRicoView = {
        "view_version": VIEW_VERSION,
        "game": s.game_name,
        "options": dict(s.options),
        "viewer": viewer,
        "players_count": s.n,
        "round": s.round,
        "governor": s.governor,
        "phase": PHASE_NAMES[s.phase],
        "chooser": None if s.chooser < 0 else s.chooser,
        "active_role": None if s.card < 0 else ALL_ROLES[s.cards[s.card]],
        "builder_phase": s.phase == BUILDER_PHASE,
        "prompt": None
        if prompt is None
        else {"seats": list(prompt.seats), "kind": prompt.kind, "forced": prompt.forced},
        "roles": roles,
        "colonists": {"ship": s.colonist_ship, "supply": s.colonist_supply},
        "vp_chips_left": max(0, s.vp_supply),
        "quarries_left": s.quarries,
        "face_up": [TILES[t] for t in s.face_up],
        "plantation_stack": sum(s.deck),
        "plantation_discard": sum(s.discard),
        "goods_supply": _goods(s.goods),
        "trading_house": [GOODS[g] for g in s.house],
        "trading_house_capacity": TRADING_HOUSE_CAPACITY,
        "ships": [
            {
                "capacity": cap,
                "good": None if s.ship_kind[i] < 0 else GOODS[s.ship_kind[i]],
                "count": s.ship_load[i],
            }
            for i, cap in enumerate(s.ship_cap)
        ],
        "market": market,
        "players": players,
        "festival": _festival(s),
        "buccaneer": _buccaneer(s),
        "draft": draft_view(s),
        "nobles": _nobles(s),
        "end_triggered": list(s.end_reasons),
        "game_over": s.over,
    }
    parts = cast(dict[str, Any], out)  # an edition's own keys: its view type declares them
    for key, part in VIEW_PARTS.items():  # an edition's own parts (1897: Exp. V, VI, §8)
        value = part(s, viewer)
        if value is not None:  # only in the games that have it: other views stay as they were
            parts[key] = value
    if s.wharf_cargo:  # 1897: the Wharves' private ships' barrels, this Captain phase
        out["private_ships"] = _goods(s.wharf_cargo)
    if s.over:
        out["outcome"] = final_scores(s).to_json()
    return out


__all__ = [
    "VIEW_VERSION", "BuccaneerPart", "CityBuilding", "ColonistsPart", "ConstructionGoal",
    "DraftPart", "FestivalPart", "IslandTile", "MarketEntry", "NoblesPart", "PlantationGoal",
    "PlayerEntry", "PlayerNobles", "ProductionGoal", "PromptPart", "PuertoRicoView", "RoleCard",
    "Ship", "view",
]
