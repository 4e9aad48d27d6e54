"""Edition data tables for Puerto Rico: goods, island tiles, roles, buildings and the setup table.

Values follow the classic Spanish rulebook [C] (rules spec §2, §8 and Appendix A); the 2020
anniversary values are kept where they differ (VP chips).  Nothing here is behaviour: the rules
read these tables, and an edition or expansion supplies its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# --- goods and island tiles (indices are stable: they are used in states and codes) -----------

CORN, INDIGO, SUGAR, TOBACCO, COFFEE = range(5)
GOODS: Final[tuple[str, ...]] = ("corn", "indigo", "sugar", "tobacco", "coffee")
GOOD_INDEX: Final = {name: i for i, name in enumerate(GOODS)}
TRADE_PRICE: Final[tuple[int, ...]] = (0, 1, 2, 3, 4)
QUARRY: Final = 5
TILES: Final[tuple[str, ...]] = (*GOODS, "quarry")
TILE_INDEX: Final = {name: i for i, name in enumerate(TILES)}
NGOODS: Final = len(GOODS)
NTILES: Final = len(TILES)

ISLAND_SPACES: Final = 12
CITY_SPACES: Final = 12
TRADING_HOUSE_CAPACITY: Final = 4

# --- roles ------------------------------------------------------------------------------------

SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR = range(7)
ROLES: Final[tuple[str, ...]] = (
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "prospector",
)
ROLE_INDEX: Final = {name: i for i, name in enumerate(ROLES)}
# Exp. 3 (§12): the eighth role card.  Kept out of ``ROLES`` (the base game's seven, which the
# presentation layers list); ``ALL_ROLES`` names every role index the engine knows.
BUCCANEER: Final = 7
ALL_ROLES: Final[tuple[str, ...]] = (*ROLES, "buccaneer")
# the role cards a module adds to the setup row, and the roles that never get the end-of-round
# doubloon (§12: not even when unchosen)
MODULE_ROLE_CARDS: Final[dict[str, tuple[int, ...]]] = {"buccaneer": (BUCCANEER,)}
NO_DOUBLOON_ROLES: Final = frozenset({BUCCANEER})

# --- buildings --------------------------------------------------------------------------------

SMALL_PRODUCTION: Final = "small_production"
LARGE_PRODUCTION: Final = "large_production"
SMALL_VIOLET: Final = "small_violet"
LARGE_VIOLET: Final = "large_violet"


@dataclass(frozen=True, slots=True)
class Building:
    """One building of the market.  ``column`` caps the quarry discount (§6); ``size`` is the
    number of city spaces; ``good`` is the kind a production building processes."""

    name: str
    cost: int
    vp: int
    column: int
    circles: int
    copies: int  # 3-5 players
    copies_2p: int
    kind: str
    good: int | None = None

    @property
    def size(self) -> int:
        return 2 if self.kind == LARGE_VIOLET else 1

    @property
    def production(self) -> bool:
        return self.kind in (SMALL_PRODUCTION, LARGE_PRODUCTION)

    @property
    def violet(self) -> bool:
        return self.kind in (SMALL_VIOLET, LARGE_VIOLET)


def _b(
    name: str,
    cost: int,
    vp: int,
    column: int,
    circles: int,
    copies: int,
    copies_2p: int,
    kind: str,
    good: int | None = None,
) -> Building:
    return Building(name, cost, vp, column, circles, copies, copies_2p, kind, good)


# Table of §8.1 / Appendix A.  Ruling A16: Factory 7, University 8, as in the seed [C].
BASE_BUILDINGS: Final[tuple[Building, ...]] = (
    _b("small_indigo_plant", 1, 1, 1, 1, 4, 2, SMALL_PRODUCTION, INDIGO),
    _b("small_sugar_mill", 2, 1, 1, 1, 4, 2, SMALL_PRODUCTION, SUGAR),
    _b("indigo_plant", 3, 2, 2, 3, 3, 2, LARGE_PRODUCTION, INDIGO),
    _b("sugar_mill", 4, 2, 2, 3, 3, 2, LARGE_PRODUCTION, SUGAR),
    _b("tobacco_storage", 5, 3, 3, 3, 3, 2, LARGE_PRODUCTION, TOBACCO),
    _b("coffee_roaster", 6, 3, 3, 2, 3, 2, LARGE_PRODUCTION, COFFEE),
    _b("small_market", 1, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("hacienda", 2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("construction_hut", 2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("small_warehouse", 3, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("hospice", 4, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("office", 5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("large_market", 5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("large_warehouse", 6, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("factory", 7, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("university", 8, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("harbor", 8, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("wharf", 9, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("guild_hall", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
    _b("residence", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
    _b("fortress", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
    _b("customs_house", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
    _b("city_hall", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
)


# Exp. 1, The New Buildings (§10.2; costs, VP and circles: public source, Appendix A).  Union
# Hall is small; the Statue has no circle (no colonist can be placed on it).
NEW_BUILDINGS: Final[tuple[Building, ...]] = (
    _b("aqueduct", 1, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("forest_house", 2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("black_market", 2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("storehouse", 3, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("guest_house", 4, 2, 2, 2, 2, 1, SMALL_VIOLET),
    _b("church", 5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("trading_post", 5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("small_wharf", 6, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("lighthouse", 7, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("library", 8, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("specialty_factory", 8, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("union_hall", 9, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("cloister", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
    _b("statue", 10, 8, 4, 0, 1, 1, LARGE_VIOLET),
)

# Exp. 2, The Nobles (§11.2; costs, VP and circles: public source).  The Jeweler is a production
# building ([A]) that processes no good and counts as a large one for the Guild Hall; it keeps
# both copies with 2 players (every production building does).
NOBLES_BUILDINGS: Final[tuple[Building, ...]] = (
    _b("land_office", 2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("chapel", 3, 1, 1, 1, 2, 1, SMALL_VIOLET),
    _b("hunting_lodge", 4, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("zoning_office", 5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("royal_supplier", 6, 2, 2, 1, 2, 1, SMALL_VIOLET),
    _b("villa", 7, 3, 3, 1, 2, 1, SMALL_VIOLET),
    _b("jeweler", 8, 3, 3, 1, 2, 2, LARGE_PRODUCTION),
    _b("royal_garden", 10, 4, 4, 1, 1, 1, LARGE_VIOLET),
)

# The modules that add buildings, and the buildings each adds (in catalog order).
MODULE_BUILDINGS: Final[dict[str, tuple[Building, ...]]] = {
    "new_buildings": NEW_BUILDINGS,
    "nobles": NOBLES_BUILDINGS,
}

# §10.1: the violet spaces of the board by printed cost (the spaces the 17 base violet buildings
# occupy), and with Exp. 2 the red spaces (ruling A21: one per Exp. 2 violet building, costs 2,
# 3, 4, 5, 6, 7 and 10).  The Exp. 1 draft fills exactly these spaces.
VIOLET_SPACES: Final[dict[int, int]] = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}
RED_SPACES: Final[dict[int, int]] = {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 10: 1}

NOBLES_TOTAL: Final = 20  # §11: the 20 nobles next to the colonist supply


@dataclass(frozen=True, slots=True)
class SetupRow:
    """The setup table (§2.2) for one player count."""

    doubloons: int
    start_tiles: tuple[int, ...]  # by seat, seat 0 = first governor
    vp_chips: int
    colonist_supply: int
    colonist_ship: int
    ships: tuple[int, ...]
    roles: tuple[int, ...]
    quarries: int
    goods_removed: int  # of each kind
    plantations_removed: int  # of each kind


_ROLES_6: Final = (SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN)

CLASSIC_SETUP: Final[dict[int, SetupRow]] = {
    2: SetupRow(3, (INDIGO, CORN), 65, 40, 2, (4, 6), (*_ROLES_6, PROSPECTOR), 5, 2, 3),
    3: SetupRow(2, (INDIGO, INDIGO, CORN), 75, 55, 3, (4, 5, 6), _ROLES_6, 8, 0, 0),
    4: SetupRow(
        3, (INDIGO, INDIGO, CORN, CORN), 100, 75, 4, (5, 6, 7), (*_ROLES_6, PROSPECTOR), 8, 0, 0
    ),
    5: SetupRow(
        4,
        (INDIGO, INDIGO, INDIGO, CORN, CORN),
        122,
        95,
        5,
        (6, 7, 8),
        (*_ROLES_6, PROSPECTOR, PROSPECTOR),
        8,
        0,
        0,
    ),
}

# The 2020 anniversary edition [A] differs in the base game only by its VP chips (§2.4).
VP_CHIPS_2020: Final = {2: 65, 3: 76, 4: 101, 5: 126}

GOODS_TOTAL: Final[tuple[int, ...]] = (10, 11, 11, 9, 9)
PLANTATIONS_TOTAL: Final[tuple[int, ...]] = (10, 12, 11, 9, 8)
QUARRIES_TOTAL: Final = 8
COLONISTS_TOTAL: Final = 100
DOUBLOONS_TOTAL: Final = 86  # 46 x 1 + 8 x 5 [C]; the bank itself is unlimited (ruling A2)

FACTORY_BONUS: Final = (0, 0, 1, 2, 3, 5)  # by number of kinds produced
RESIDENCE_BONUS: Final = {10: 5, 11: 6, 12: 7}  # up to 9 filled spaces: 4 (ruling A14)


@dataclass(frozen=True, slots=True)
class EditionOption:
    """A rule option of one edition: its name, the values it takes, the first being the
    default (an ambiguity of the rulebook read as recommended, or an alternative rule off)."""

    name: str
    values: tuple[object, ...]

    @property
    def default(self) -> object:
        return self.values[0]


@dataclass(frozen=True, slots=True)
class Edition:
    """An edition: its goods, tiles, buildings and setup table, the game it is played as, and
    the structural points in which its rules differ from the classic ones (each False in the
    classic editions; the rules read them through the ruleset)."""

    name: str
    buildings: tuple[Building, ...]
    setup: dict[int, SetupRow]
    vp_chips: dict[int, int]
    game: str = "puerto-rico"
    doubloons: int = DOUBLOONS_TOTAL
    options: tuple[EditionOption, ...] = ()
    market_before_start: bool = False
    """The face-up plantations are drawn before the starting ones are handed out, which are
    then taken out of what is left (1897: SET-5, SET-11)."""
    vp_end_at_captain: bool = False
    """The VP chips running out ends the game only at the end of a Captain phase (1897:
    END-T3); else whenever they run out (ruling A3)."""
    hospice_either_tile: bool = False
    """The Hospice's colonist also serves the Hacienda's tile: one colonist a turn, on either
    new tile (1897: B-11, D-13); else only on the normal pick's tile."""
    wharf_holds_cargo: bool = False
    """The Wharf's (and the Exp. 1 Small Wharf's) barrels stay on its private ship until the
    end of the Captain phase (1897: B-18, B-31, D-12); else they go straight back to the
    supply."""
    small_wharf_needs_barrels: bool = False
    """A Small Wharf use loads at least one barrel (1897 A-23); else a use without one counts
    as the turn's load (A27)."""
    capture_paid_by_chooser: bool = False
    """Exp. 3's Capture as 1897's Hijack (X3-D, A-18, §6.3): an opponent choosing the captured
    role pays its captor 3 doubloons (and cannot choose it with fewer); else the bank pays."""
    draft_red_spaces: bool = True
    """Exp. 1's draft fills Exp. 2's red spaces too (A21); 1897 (A-36): its tray has none."""
    drafted_production: tuple[str, ...] = ()
    """Production buildings drafted like violet ones (1897 X2-1: the Large Tailor Shop)."""
    distillery_counts_privilege: bool = False
    """The Specialty Factory counts the Craftsman's privilege crates, paid once they are taken
    (1897 B-34, §6.3); else his own production only (A29)."""
    library_second_quarry: bool = False
    """The Library's second pick may be a second quarry with a Construction Hut (1897 PLN-3,
    B-33: the Press Center is the exception to one quarry a phase); else one (A45)."""
    nobles_1897: bool = False
    """Exp. 2 as 1897's Expansion II (§5.5, §6.3, A-41): the Rescue Post (Royal Supplier) acts
    at the start of the Captain phase, before anyone loads; the Zoning Office (Land Office)
    sells properties only and draws as the Hacienda does (the discard recycled per
    ``hacienda_empty_bag``); else the classic Nobles (§11, A41, A44)."""
    festival_1897: bool = False
    """Exp. 4 as 1897's Expansion IV (X4-1, X4-3, A-16): the goal plantation goes back into the
    bag, the building goal is drawn among the 3-VP commercial buildings with two copies and
    its tile leaves the tray until the goal is met, and the 3 reward workers are placed at
    once; else the classic Festival (§13, A36)."""
    own_modules: tuple[str, ...] = ()
    """The modules only this edition plays, in catalog order after the four (1897: its
    Expansions V and VI, ``festival_activities`` and ``achievements``, whose package registers
    their rules); another edition refuses them (``module_not_in_edition``)."""
    option_rules: tuple[str, ...] = ()
    """The option rules of ``extensions.OPTION_RULES`` it plays (1897 §8: ``puertomas``, the
    seats the engine plays); another edition refuses their options (``unknown_option``)."""

    def building_index(self, name: str) -> int:
        for i, b in enumerate(self.buildings):
            if b.name == name:
                return i
        raise KeyError(name)


CLASSIC: Final = Edition(
    "classic",
    BASE_BUILDINGS,
    CLASSIC_SETUP,
    {n: row.vp_chips for n, row in CLASSIC_SETUP.items()},
)
ANNIVERSARY: Final = Edition("2020", BASE_BUILDINGS, CLASSIC_SETUP, VP_CHIPS_2020)
EDITIONS: Final[dict[str, Edition]] = {e.name: e for e in (CLASSIC, ANNIVERSARY)}
"""Every edition by name; an edition played as another game (1897) registers itself here."""


def register_edition(edition: Edition) -> None:
    EDITIONS[edition.name] = edition
