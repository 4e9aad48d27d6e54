"""1897's view types: the view its game returns (the kernel's, in 1897's words: ``names``) and
the kernel's view of any edition's game with 1897's own parts (what ``vocabulary.kernel_view``
reads an 1897 view back into, and what the kernel's presentation reads).

The kernel builds the view (``engine.puerto_rico.view``); 1897's parts are built by its modules
(``festival_activities``, ``achievements``, ``puertoma``: their types are theirs) and the words
are decided by ``names``, word by word: a key the table renames (``doubloons`` -> ``coins``,
``island`` -> ``field``...) is renamed here too, every other key is the kernel's.  A test checks
every view of random games of every option set against these types.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..core import OutcomeJSON
from ..puerto_rico.view import (
    ConstructionGoal,
    DraftPart,
    PlantationGoal,
    ProductionGoal,
    PromptPart,
    PuertoRicoView,
    Ship,
)
from .achievements import AchievementsPart
from .festival_activities import ActivityCard, GoodCount, TileCount
from .puertoma import PuertomaPart


class KernelView(PuertoRicoView):
    """The kernel's view of a game of either edition: classic's has none of 1897's parts; an
    1897 view read back into the kernel's words (``vocabulary.kernel_view``) has those of its
    expansions (the parts' own types)."""

    festival_activities: NotRequired[list[ActivityCard]]
    """Expansion V."""
    achievements: NotRequired[AchievementsPart]
    """Expansion VI."""
    puertoma: NotRequired[PuertomaPart]
    """§8, with Puertomas."""


# --- the kernel's view in 1897's words (only the renamed keys differ) ------------------------


class RoleCard(TypedDict):
    card: str
    role: str
    coins: int
    taken_by: int | None


class MarketEntry(TypedDict):
    building: str
    left: int
    cost: int
    vp: int
    level: int
    circles: int
    size: int
    kind: str
    good: str | None
    price: NotRequired[int]


class FieldTile(TypedDict):
    tile: str
    occupied: bool
    citizen: NotRequired[bool]


class CityBuilding(TypedDict):
    building: str
    workers: int
    circles: int
    size: int
    kind: str
    vp: int
    citizens: NotRequired[int]


class PlayerCitizens(TypedDict):
    total: int
    portrait: int


class PlayerEntry(TypedDict):
    seat: int
    coins: int
    vp: int | None
    goods: dict[str, int]
    portrait: int
    field: list[FieldTile]
    field_used: int
    city: list[CityBuilding]
    city_used: int
    workers: int
    is_governor: bool
    citizens: NotRequired[PlayerCitizens]


class WorkersPart(TypedDict):
    agency: int
    supply: int


class FestivalPart(TypedDict):
    property: PlantationGoal
    production: ProductionGoal
    construction: ConstructionGoal


class SmugglerPart(TypedDict):
    token: int | None
    captured: str | None
    captured_by: int | None
    lure_to_place: int


class CitizensPart(TypedDict):
    supply: int
    agency: int
    lure_to_place: int


class Reward(TypedDict):
    workers: int
    coins: int
    vp: int


class ActivityCard1897(TypedDict):
    activity: str
    task: str
    properties: list[TileCount]
    goods: list[GoodCount]
    building: str | None
    building_on_card: bool
    reward: Reward
    completed_by: int | None


class PuertoRico1897View(TypedDict):
    """``view(state, viewer)`` of an 1897 game: :class:`PuertoRicoView` in 1897's words, its
    options 1897's (``expansions``), with its expansions' parts."""

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
    workers: WorkersPart
    vp_tokens_left: int
    quarries_left: int
    face_up: list[str]
    property_bag: int
    property_discard: int
    goods_supply: dict[str, int]
    trading_house: list[str]
    trading_house_capacity: int
    ships: list[Ship]
    market: list[MarketEntry]
    players: list[PlayerEntry]
    festival: FestivalPart | None
    smuggler: SmugglerPart | None
    draft: DraftPart | None
    citizens: CitizensPart | None
    end_triggered: list[str]
    game_over: bool
    festival_activities: NotRequired[list[ActivityCard1897]]
    achievements: NotRequired[AchievementsPart]
    puertoma: NotRequired[PuertomaPart]
    private_ships: NotRequired[dict[str, int]]
    outcome: NotRequired[OutcomeJSON]


__all__ = [
    "ActivityCard1897", "CitizensPart", "CityBuilding", "FestivalPart",
    "FieldTile", "KernelView", "MarketEntry", "PlayerCitizens", "PlayerEntry",
    "PuertoRico1897View", "Reward", "RoleCard", "SmugglerPart", "WorkersPart",
]
