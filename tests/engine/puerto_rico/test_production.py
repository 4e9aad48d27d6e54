"""Production rules (rules spec §5): T-PRO-1..4.  Production is automatic at the start of the
Craftsman phase; the Craftsman here (seat 0) owns nothing, so only the tested player produces.
Sources: classic rulebook [C] (picture example, reconstructed), 2020 rulebook [A]."""

from __future__ import annotations

from engine.puerto_rico.data import COFFEE, CORN, SUGAR, TOBACCO
from tests.engine.puerto_rico.scenario import Scenario


def _produce(tiles: dict[str, tuple[int, int]], buildings: dict[str, int]) -> list[int]:
    sc = Scenario(players=3)
    sc.player(1, tiles=tiles, buildings=buildings)
    state = sc.choose("craftsman", 0)
    assert sc.invariant_failures(state) == []
    return list(state.players[1].goods)


def test_t_pro_1_classic_picture_example() -> None:
    """T-PRO-1 (§5, reconstructed from the picture example in [C]): 3 corn (2 manned); 2 manned
    tobacco with a Tobacco Storage holding 1; 4 sugar (3 manned) with a Small Sugar Mill (1) and a
    Sugar Mill (3).  Produces 2 corn, 1 tobacco, 3 sugar; the second tobacco colonist and one of
    the 4 sugar-circle colonists are unused."""
    goods = _produce(
        {"corn": (3, 2), "tobacco": (2, 2), "sugar": (4, 3)},
        {"tobacco_storage": 1, "small_sugar_mill": 1, "sugar_mill": 3},
    )
    assert goods[CORN] == 2 and goods[TOBACCO] == 1 and goods[SUGAR] == 3
    assert sum(goods) == 6


def test_t_pro_2_tobacco_storage_text_example() -> None:
    """T-PRO-2 (§5, text example in [A]): 2 manned tobacco plantations with a Tobacco Storage of
    2 occupied circles make 2 tobacco; with 1 occupied circle, 1."""
    assert _produce({"tobacco": (2, 2)}, {"tobacco_storage": 2})[TOBACCO] == 2
    assert _produce({"tobacco": (2, 2)}, {"tobacco_storage": 1})[TOBACCO] == 1


def test_t_pro_3_corn_text_example() -> None:
    """T-PRO-3 (§5, text example in [A]): 3 corn plantations, 2 occupied → 2 corn (corn needs no
    building)."""
    assert _produce({"corn": (3, 2)}, {}) == [2, 0, 0, 0, 0]


def test_t_pro_4_coffee_without_roaster() -> None:
    """T-PRO-4 (§5 [C], [A]): an occupied coffee plantation with no Coffee Roaster makes 0 coffee;
    an occupied roaster with no manned coffee plantation makes none either (surplus colonists
    are wasted)."""
    assert _produce({"coffee": (1, 1)}, {}) == [0, 0, 0, 0, 0]
    assert _produce({"coffee": (1, 0)}, {"coffee_roaster": 2}) == [0, 0, 0, 0, 0]
    assert _produce({"coffee": (3, 3)}, {"coffee_roaster": 2})[COFFEE] == 2


def test_production_several_kinds_and_buildings_of_one_kind_add_up() -> None:
    """§5 [C], [A]: circles of every production building of a kind count together (Small Indigo
    Plant + Indigo Plant), and several kinds are produced at once."""
    goods = _produce(
        {"indigo": (4, 4), "corn": (1, 1), "coffee": (1, 1)},
        {"small_indigo_plant": 1, "indigo_plant": 3, "coffee_roaster": 1},
    )
    assert goods == [1, 4, 0, 0, 1]
