"""San Juan's components as data: the 29 card kinds (110 cards), the five roles, the five goods and
the five trading-house tiles.

Section numbers (§) refer to ``shared/rules/san-juan.md`` (the rules specification); the seed is
the Spanish rulebook it restates.  Card kinds are snake_case English ids; a card kind's index in
:data:`CARDS` is its catalog index (stable: an expansion would append kinds).  Costs, VP and
copies are the values of §8 (the seed's where it gives one, PS-1/PS-2 otherwise; ruling A-20).
"""

from __future__ import annotations

from dataclasses import dataclass

# card categories (§5.0)
PRODUCTION = "production"
VIOLET = "violet"  # a violet building with a function
MONUMENT = "monument"  # Statue, Victory column, Hero: VP only
COST6 = "cost6"  # Guild hall, City hall, Triumphal arch, Palace: end-of-game formulas

# the phase a building acts in (§5.20); production buildings act in none
PHASE_NONE = "none"
PHASE_BUILDER = "builder"
PHASE_PRODUCER = "producer"
PHASE_TRADER = "trader"
PHASE_COUNCILLOR = "councillor"
PHASE_PROSPECTOR = "prospector"
PHASE_ROUND_START = "round_start"
PHASE_ALL_ROLES = "all_roles"  # the Library: the chooser's privilege of every role
PHASE_GAME_END = "game_end"

GOODS = ("indigo", "sugar", "tobacco", "coffee", "silver")
NGOODS = len(GOODS)
GOOD_INDEX = {name: i for i, name in enumerate(GOODS)}


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


CARDS: tuple[Card, ...] = (
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
NKINDS = len(CARDS)
KIND_INDEX = {card.name: i for i, card in enumerate(CARDS)}
TOTAL_CARDS = sum(card.copies for card in CARDS)
COPIES = tuple(card.copies for card in CARDS)
COST = tuple(card.cost for card in CARDS)
VP = tuple(card.vp for card in CARDS)
IS_PRODUCTION = tuple(card.production for card in CARDS)
GOOD_OF = tuple(-1 if card.good is None else card.good for card in CARDS)
# the production building of each good
PRODUCER_OF = tuple(GOOD_OF.index(g) for g in range(NGOODS))


def _k(name: str) -> int:
    return KIND_INDEX[name]


INDIGO_PLANT = _k("indigo_plant")
SMITHY = _k("smithy")
GOLD_MINE = _k("gold_mine")
ARCHIVE = _k("archive")
POOR_HOUSE = _k("poor_house")
BLACK_MARKET = _k("black_market")
TRADING_POST = _k("trading_post")
WELL = _k("well")
MARKET_STAND = _k("market_stand")
CRANE = _k("crane")
CHAPEL = _k("chapel")
TOWER = _k("tower")
AQUEDUCT = _k("aqueduct")
CARPENTER = _k("carpenter")
PREFECTURE = _k("prefecture")
MARKET_HALL = _k("market_hall")
QUARRY = _k("quarry")
LIBRARY = _k("library")
STATUE = _k("statue")
VICTORY_COLUMN = _k("victory_column")
HERO = _k("hero")
GUILD_HALL = _k("guild_hall")
CITY_HALL = _k("city_hall")
TRIUMPHAL_ARCH = _k("triumphal_arch")
PALACE = _k("palace")
MONUMENTS = (STATUE, VICTORY_COLUMN, HERO)

# roles, in the order of the view's "roles" (§4)
ROLES = ("builder", "producer", "trader", "councillor", "prospector")
ROLE_INDEX = {name: i for i, name in enumerate(ROLES)}
BUILDER, PRODUCER, TRADER, COUNCILLOR, PROSPECTOR = range(5)

# trading-house tiles T1..T5 (§2.4): prices of (indigo, sugar, tobacco, coffee, silver); rows are
# goods and columns tiles in the seed's table.  A-6: the Market hall example's prices match no tile;
# the table wins, the example only shows the rule (+1 card once per phase).
TILE_PRICES: dict[int, tuple[int, int, int, int, int]] = {
    1: (1, 1, 1, 2, 2),
    2: (1, 1, 2, 2, 2),
    3: (1, 1, 2, 2, 3),
    4: (1, 2, 2, 2, 3),
    5: (1, 2, 2, 3, 3),
}
TILES = tuple(sorted(TILE_PRICES))

START_HAND = 4  # §2.5 step 5
VARIANT_DRAWS = (5, 6, 7, 8)  # §2.7: by seat from the starting player
VARIANT_KEEP = 4
HAND_LIMIT = 7  # §3.3
TOWER_HAND_LIMIT = 12  # §5.11
END_BUILDINGS = 12  # §6.1
GOLD_MINE_CARDS = 4  # §5.2
BLACK_MARKET_GOODS = 2  # §5.5
TRIUMPHAL_ARCH_VP = (0, 4, 6, 8)  # by number of monuments (§5.19; 0 -> 0 is [Derived])

assert TOTAL_CARDS == 110
assert sum(COPIES[k] for k in range(NKINDS) if IS_PRODUCTION[k]) == 42
