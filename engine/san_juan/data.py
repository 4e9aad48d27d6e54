"""San Juan's components as data: the 29 card kinds (110 cards), the five roles, the five goods and
the five trading-house tiles.

Section numbers (§) refer to ``docs/rules/san-juan.md`` (the rules specification); the seed is
the Spanish rulebook it restates.  Card kinds are snake_case English ids; a card kind's index in
:data:`CARDS` is its catalog index (stable: an expansion would append kinds).  Costs, VP and
copies are the values of §8 (the seed's where it gives one, PS-1/PS-2 otherwise; ruling A-20).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# card categories (§5.0)
PRODUCTION: Final = "production"
VIOLET: Final = "violet"  # a violet building with a function
MONUMENT: Final = "monument"  # Statue, Victory column, Hero: VP only
COST6: Final = "cost6"  # Guild hall, City hall, Triumphal arch, Palace: end-of-game formulas

# the phase a building acts in (§5.20); production buildings act in none
PHASE_NONE: Final = "none"
PHASE_BUILDER: Final = "builder"
PHASE_PRODUCER: Final = "producer"
PHASE_TRADER: Final = "trader"
PHASE_COUNCILLOR: Final = "councillor"
PHASE_PROSPECTOR: Final = "prospector"
PHASE_ROUND_START: Final = "round_start"
PHASE_ALL_ROLES: Final = "all_roles"  # the Library: the chooser's privilege of every role
PHASE_GAME_END: Final = "game_end"

GOODS: Final = ("indigo", "sugar", "tobacco", "coffee", "silver")
NGOODS: Final = len(GOODS)
GOOD_INDEX: Final = {name: i for i, name in enumerate(GOODS)}


@dataclass(frozen=True, slots=True)
class Card:
    """One card kind.  ``good`` is the index of the good a production building makes (None for
    violet kinds); ``phase`` says when its function acts."""

    name: str
    spanish: str
    category: str
    cost: int
    vp: int
    copies: int
    phase: str
    good: int | None = None

    @property
    def production(self) -> bool:
        return self.category == PRODUCTION

    @property
    def violet(self) -> bool:
        """Every non-production kind is violet (§5.0), monuments and cost-6 buildings included."""
        return self.category != PRODUCTION


CARDS: Final[tuple[Card, ...]] = (
    Card("indigo_plant", "añilería", PRODUCTION, 1, 1, 10, PHASE_NONE, 0),
    Card("sugar_mill", "molino de azúcar", PRODUCTION, 2, 1, 8, PHASE_NONE, 1),
    Card("tobacco_storage", "secadero de tabaco", PRODUCTION, 3, 2, 8, PHASE_NONE, 2),
    Card("coffee_roaster", "tostadero de café", PRODUCTION, 4, 2, 8, PHASE_NONE, 3),
    Card("silver_smelter", "fundición de plata", PRODUCTION, 5, 3, 8, PHASE_NONE, 4),
    Card("smithy", "herrería", VIOLET, 1, 1, 3, PHASE_BUILDER),
    Card("gold_mine", "mina de oro", VIOLET, 1, 1, 3, PHASE_PROSPECTOR),
    Card("archive", "archivo", VIOLET, 1, 1, 3, PHASE_COUNCILLOR),
    Card("poor_house", "hospicio", VIOLET, 2, 1, 3, PHASE_BUILDER),
    Card("black_market", "mercado negro", VIOLET, 2, 1, 3, PHASE_BUILDER),
    Card("trading_post", "puesto de comercio", VIOLET, 2, 1, 3, PHASE_TRADER),
    Card("well", "pozo", VIOLET, 2, 1, 3, PHASE_PRODUCER),
    Card("market_stand", "tenderete", VIOLET, 2, 1, 3, PHASE_TRADER),
    Card("crane", "grúa", VIOLET, 2, 1, 3, PHASE_BUILDER),
    Card("chapel", "capilla", VIOLET, 3, 2, 3, PHASE_ROUND_START),
    Card("tower", "torre", VIOLET, 3, 2, 3, PHASE_ROUND_START),
    Card("aqueduct", "acueducto", VIOLET, 3, 2, 3, PHASE_PRODUCER),
    Card("carpenter", "carpintería", VIOLET, 3, 2, 3, PHASE_BUILDER),
    Card("prefecture", "prefectura", VIOLET, 3, 2, 3, PHASE_COUNCILLOR),
    Card("market_hall", "mercado cubierto", VIOLET, 4, 2, 3, PHASE_TRADER),
    Card("quarry", "cantera", VIOLET, 4, 2, 3, PHASE_BUILDER),
    Card("library", "biblioteca", VIOLET, 5, 3, 3, PHASE_ALL_ROLES),
    Card("statue", "estatua", MONUMENT, 3, 3, 3, PHASE_GAME_END),
    Card("victory_column", "columna de la victoria", MONUMENT, 4, 4, 3, PHASE_GAME_END),
    Card("hero", "héroe", MONUMENT, 5, 5, 3, PHASE_GAME_END),
    # the printed VP of the cost-6 buildings is 0; they score by their formulas only.
    Card("guild_hall", "cofradía", COST6, 6, 0, 2, PHASE_GAME_END),
    Card("city_hall", "ayuntamiento", COST6, 6, 0, 2, PHASE_GAME_END),
    Card("triumphal_arch", "arco de triunfo", COST6, 6, 0, 2, PHASE_GAME_END),
    Card("palace", "palacio", COST6, 6, 0, 2, PHASE_GAME_END),
)
NKINDS: Final = len(CARDS)
KIND_INDEX: Final = {card.name: i for i, card in enumerate(CARDS)}
TOTAL_CARDS: Final = sum(card.copies for card in CARDS)
COPIES: Final = tuple(card.copies for card in CARDS)
COST: Final = tuple(card.cost for card in CARDS)
VP: Final = tuple(card.vp for card in CARDS)
IS_PRODUCTION: Final = tuple(card.production for card in CARDS)
GOOD_OF: Final = tuple(-1 if card.good is None else card.good for card in CARDS)
# the production building of each good
PRODUCER_OF: Final = tuple(GOOD_OF.index(g) for g in range(NGOODS))


def _k(name: str) -> int:
    return KIND_INDEX[name]


INDIGO_PLANT: Final = _k("indigo_plant")
SMITHY: Final = _k("smithy")
GOLD_MINE: Final = _k("gold_mine")
ARCHIVE: Final = _k("archive")
POOR_HOUSE: Final = _k("poor_house")
BLACK_MARKET: Final = _k("black_market")
TRADING_POST: Final = _k("trading_post")
WELL: Final = _k("well")
MARKET_STAND: Final = _k("market_stand")
CRANE: Final = _k("crane")
CHAPEL: Final = _k("chapel")
TOWER: Final = _k("tower")
AQUEDUCT: Final = _k("aqueduct")
CARPENTER: Final = _k("carpenter")
PREFECTURE: Final = _k("prefecture")
MARKET_HALL: Final = _k("market_hall")
QUARRY: Final = _k("quarry")
LIBRARY: Final = _k("library")
STATUE: Final = _k("statue")
VICTORY_COLUMN: Final = _k("victory_column")
HERO: Final = _k("hero")
GUILD_HALL: Final = _k("guild_hall")
CITY_HALL: Final = _k("city_hall")
TRIUMPHAL_ARCH: Final = _k("triumphal_arch")
PALACE: Final = _k("palace")
MONUMENTS: Final = (STATUE, VICTORY_COLUMN, HERO)

# roles, in the order of the view's "roles" (§4)
ROLES: Final = ("builder", "producer", "trader", "councillor", "prospector")
ROLE_INDEX: Final = {name: i for i, name in enumerate(ROLES)}
BUILDER, PRODUCER, TRADER, COUNCILLOR, PROSPECTOR = range(5)

# trading-house tiles T1..T5 (§2.4): prices of (indigo, sugar, tobacco, coffee, silver); rows are
# goods and columns tiles in the seed's table.  A-6: the Market hall example's prices match no tile;
# the table wins, the example only shows the rule (+1 card once per phase).
TILE_PRICES: Final[dict[int, tuple[int, int, int, int, int]]] = {
    1: (1, 1, 1, 2, 2),
    2: (1, 1, 2, 2, 2),
    3: (1, 1, 2, 2, 3),
    4: (1, 2, 2, 2, 3),
    5: (1, 2, 2, 3, 3),
}
TILES: Final = tuple(sorted(TILE_PRICES))

START_HAND: Final = 4  # §2.5 step 5
VARIANT_DRAWS: Final = (5, 6, 7, 8)  # §2.7: by seat from the starting player
VARIANT_KEEP: Final = 4
HAND_LIMIT: Final = 7  # §3.3
TOWER_HAND_LIMIT: Final = 12  # §5.11
END_BUILDINGS: Final = 12  # §6.1
GOLD_MINE_CARDS: Final = 4  # §5.2
BLACK_MARKET_GOODS: Final = 2  # §5.5
TRIUMPHAL_ARCH_VP: Final = (0, 4, 6, 8)  # by number of monuments (§5.19; 0 -> 0 is [Derived])

assert TOTAL_CARDS == 110
assert sum(COPIES[k] for k in range(NKINDS) if IS_PRODUCTION[k]) == 42
