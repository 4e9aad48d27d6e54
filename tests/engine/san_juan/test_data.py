"""The components (rules spec §2.2, §2.4, §8): 29 card kinds, 110 cards, the five tiles."""

from __future__ import annotations

from engine.san_juan.data import CARDS, COST, MONUMENTS, TILE_PRICES, TOTAL_CARDS

# §8: English name, Spanish name, cost, VP, copies (A-19: cost-6 buildings print 0 VP)
TABLE = [
    ("indigo_plant", "añilería", 1, 1, 10),
    ("sugar_mill", "molino de azúcar", 2, 1, 8),
    ("tobacco_storage", "secadero de tabaco", 3, 2, 8),
    ("coffee_roaster", "tostadero de café", 4, 2, 8),
    ("silver_smelter", "fundición de plata", 5, 3, 8),
    ("smithy", "herrería", 1, 1, 3),
    ("gold_mine", "mina de oro", 1, 1, 3),
    ("archive", "archivo", 1, 1, 3),
    ("poor_house", "hospicio", 2, 1, 3),
    ("black_market", "mercado negro", 2, 1, 3),
    ("trading_post", "puesto de comercio", 2, 1, 3),
    ("well", "pozo", 2, 1, 3),
    ("market_stand", "tenderete", 2, 1, 3),
    ("crane", "grúa", 2, 1, 3),
    ("chapel", "capilla", 3, 2, 3),
    ("tower", "torre", 3, 2, 3),
    ("aqueduct", "acueducto", 3, 2, 3),
    ("carpenter", "carpintería", 3, 2, 3),
    ("prefecture", "prefectura", 3, 2, 3),
    ("market_hall", "mercado cubierto", 4, 2, 3),
    ("quarry", "cantera", 4, 2, 3),
    ("library", "biblioteca", 5, 3, 3),
    ("statue", "estatua", 3, 3, 3),
    ("victory_column", "columna de la victoria", 4, 4, 3),
    ("hero", "héroe", 5, 5, 3),
    ("guild_hall", "cofradía", 6, 0, 2),
    ("city_hall", "ayuntamiento", 6, 0, 2),
    ("triumphal_arch", "arco de triunfo", 6, 0, 2),
    ("palace", "palacio", 6, 0, 2),
]


def test_every_card_of_the_table() -> None:
    """§8: all 29 kinds with their cost, VP and copies (PS-1/PS-2 where the seed is silent)."""
    assert [(c.name, c.spanish, c.cost, c.vp, c.copies) for c in CARDS] == TABLE
    assert TOTAL_CARDS == 110
    assert sum(c.copies for c in CARDS if c.production) == 42
    assert sum(c.copies for c in CARDS if not c.production) == 68
    assert [CARDS[m].name for m in MONUMENTS] == ["statue", "victory_column", "hero"]


def test_cards_by_printed_cost() -> None:
    """§8 [Derived]: 19 / 26 / 26 / 17 / 14 / 8 cards cost 1 to 6 (the Gold mine's odds)."""
    by_cost = [
        sum(c.copies for c, cost in zip(CARDS, COST, strict=True) if cost == k) for k in range(1, 7)
    ]
    assert by_cost == [19, 26, 26, 17, 14, 8]


def test_trading_house_tiles() -> None:
    """§2.4: T1..T5 as columns of the seed's table; prices never fall from indigo to silver;
    column sums 7..11; indigo always 1."""
    assert TILE_PRICES == {
        1: (1, 1, 1, 2, 2),
        2: (1, 1, 2, 2, 2),
        3: (1, 1, 2, 2, 3),
        4: (1, 2, 2, 2, 3),
        5: (1, 2, 2, 3, 3),
    }
    assert [sum(p) for p in TILE_PRICES.values()] == [7, 8, 9, 10, 11]
    assert all(list(p) == sorted(p) for p in TILE_PRICES.values())
