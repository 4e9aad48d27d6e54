"""What the images need to know of San Juan's 29 card kinds: printed cost and VP, the good a
production building makes, and the card's group (production, violet, monument, cost-6).

The numbers are the rules' card table (``docs/rules/san-juan.md`` §8); the engine's
own table (``engine/san_juan/data.py``) is the source once it exists.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    kind: str
    cost: int
    vp: int
    group: str  # "production", "violet", "monument" or "cost6"
    good: str | None = None

    @property
    def production(self) -> bool:
        return self.group == "production"


GOODS = ("indigo", "sugar", "tobacco", "coffee", "silver")

_TABLE: tuple[tuple[str, int, int, str, str | None], ...] = (
    ("indigo_plant", 1, 1, "production", "indigo"),
    ("sugar_mill", 2, 1, "production", "sugar"),
    ("tobacco_storage", 3, 2, "production", "tobacco"),
    ("coffee_roaster", 4, 2, "production", "coffee"),
    ("silver_smelter", 5, 3, "production", "silver"),
    ("smithy", 1, 1, "violet", None),
    ("gold_mine", 1, 1, "violet", None),
    ("archive", 1, 1, "violet", None),
    ("poor_house", 2, 1, "violet", None),
    ("black_market", 2, 1, "violet", None),
    ("trading_post", 2, 1, "violet", None),
    ("well", 2, 1, "violet", None),
    ("market_stand", 2, 1, "violet", None),
    ("crane", 2, 1, "violet", None),
    ("chapel", 3, 2, "violet", None),
    ("tower", 3, 2, "violet", None),
    ("aqueduct", 3, 2, "violet", None),
    ("carpenter", 3, 2, "violet", None),
    ("prefecture", 3, 2, "violet", None),
    ("market_hall", 4, 2, "violet", None),
    ("quarry", 4, 2, "violet", None),
    ("library", 5, 3, "violet", None),
    ("statue", 3, 3, "monument", None),
    ("victory_column", 4, 4, "monument", None),
    ("hero", 5, 5, "monument", None),
    ("guild_hall", 6, 0, "cost6", None),
    ("city_hall", 6, 0, "cost6", None),
    ("triumphal_arch", 6, 0, "cost6", None),
    ("palace", 6, 0, "cost6", None),
)

CARDS: dict[str, Card] = {row[0]: Card(*row) for row in _TABLE}
KINDS: tuple[str, ...] = tuple(CARDS)


def card(kind: str) -> Card:
    """The card of ``kind``; an unknown kind (a newer engine's) is drawn as a violet card of
    unknown cost (-1)."""
    found = CARDS.get(kind)
    return found if found is not None else Card(kind, -1, 0, "violet")
