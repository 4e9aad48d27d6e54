"""Craftsman phase (rules spec §4.4, §8.2 Factory): T-CRA-1..4 (the Factory examples of [C] and
[A]) and rulings A11 and A48.  Sources: classic rulebook [C], 2020 rulebook [A]."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, Prompt
from engine.puerto_rico.data import COFFEE, CORN
from tests.engine.puerto_rico.scenario import GAME, Scenario

ROASTER_2 = {"coffee_roaster": 2}


def test_t_cra_1_supply_order() -> None:
    """T-CRA-1 (§4.4 "Supply shortage" [C], [A]): 2 coffee in the supply, the Craftsman (P1) and
    P2 can each make 2: P1 gets 2, P2 none (players produce in turn order from the Craftsman).
    P1's privilege: no coffee left, so he may take another kind he produced (corn)."""
    sc = Scenario(players=4)
    sc.player(0, tiles={"coffee": (2, 2), "corn": (1, 1)}, buildings=ROASTER_2)
    sc.player(1, tiles={"coffee": (2, 2)}, buildings=ROASTER_2)
    sc.set_goods_supply(coffee=2)
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods == [1, 0, 0, 0, 2]
    assert state.players[1].goods == [0, 0, 0, 0, 0]
    assert state.goods[4] == 0
    assert GAME.prompt(state) == Prompt((0,), "craft_privilege", False)
    assert sc.legal(state, 0) == ["c.corn", "pass"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "c.coffee")
    assert err.value.code == "privilege_good_not_available"
    state = sc.act(state, 0, "c.corn")
    assert state.players[0].goods == [2, 0, 0, 0, 2]
    assert sc.events_of("PrivilegeGoodTaken")[-1].data == {"good": "corn"}
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_t_cra_2_privilege() -> None:
    """T-CRA-2 (§4.4 privilege [C], [A]): the Craftsman made 2 corn and 1 indigo; afterwards the
    indigo supply is 0 and corn 3, so the privilege barrel is 1 corn.  A Craftsman who produced
    nothing gets no privilege barrel (and no prompt), even when others produced."""
    sc = Scenario(players=3)
    sc.player(0, tiles={"corn": (2, 2), "indigo": (1, 1)}, buildings={"small_indigo_plant": 1})
    sc.set_goods_supply(corn=5, indigo=1)
    state = sc.choose("craftsman", 0)
    assert state.goods[:2] == [3, 0]
    assert sc.legal(state, 0) == ["c.corn", "pass"]
    state = sc.act(state, 0, "c.corn")
    assert state.players[0].goods[:2] == [3, 1]
    assert state.goods[0] == 2
    assert sc.invariant_failures(state) == []

    sc = Scenario(players=3)
    sc.player(1, tiles={"corn": (2, 2)})
    state = sc.choose("craftsman", 0)
    assert state.players[1].goods[0] == 2
    assert state.players[0].goods == [0, 0, 0, 0, 0]
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert not sc.events_of("PrivilegeGoodTaken")


def test_t_cra_3_factory_example_classic() -> None:
    """T-CRA-3 (§4.4, §8.2 Factory, example in [C]): David (occupied Factory; 3 manned corn; 3
    manned sugar with a full Sugar Mill; 1 manned tobacco with a manned Tobacco Storage) finds 0
    corn and 2 sugar in the supply: he gets 0 corn, 2 sugar, 1 tobacco → 2 kinds → 1 doubloon."""
    sc = Scenario(players=4)
    david = 3
    sc.player(
        david,
        doubloons=0,
        tiles={"corn": (3, 3), "sugar": (3, 3), "tobacco": (1, 1)},
        buildings={"factory": 1, "sugar_mill": 3, "tobacco_storage": 1},
    )
    sc.set_goods_supply(corn=0, sugar=2)
    state = sc.choose("craftsman", 0)
    assert state.players[david].goods == [0, 0, 2, 1, 0]
    assert state.players[david].doubloons == 1
    assert [e.data for e in sc.events_of("DoubloonsEarned")] == [{"amount": 1, "reason": "factory"}]
    assert sc.invariant_failures(state) == []


def test_t_cra_4_factory_example_2020() -> None:
    """T-CRA-4 (§4.4, §8.2 Factory, example in [A]): Leo (occupied Factory) receives 3 corn, 1
    coffee and 2 indigo: 3 kinds → +2 doubloons."""
    sc = Scenario(players=4)
    leo = 1
    sc.player(
        leo,
        doubloons=0,
        tiles={"corn": (3, 3), "coffee": (1, 1), "indigo": (2, 2)},
        buildings={"factory": 1, "coffee_roaster": 1, "indigo_plant": 2},
    )
    state = sc.choose("craftsman", 0)
    assert state.players[leo].goods == [3, 2, 0, 0, 1]
    assert state.players[leo].doubloons == 2
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("kinds", "bonus"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_factory_bonus_table(kinds: int, bonus: int) -> None:
    """§8.2 Factory table [C], [A]: 0/1/2/3/5 doubloons for 1/2/3/4/5 kinds produced (the number
    of barrels does not matter); an unoccupied Factory pays nothing (§4.0)."""
    goods = ["corn", "indigo", "sugar", "tobacco", "coffee"][:kinds]
    processors = {
        "indigo": "indigo_plant",
        "sugar": "sugar_mill",
        "tobacco": "tobacco_storage",
        "coffee": "coffee_roaster",
    }
    tiles = dict.fromkeys(goods, (2, 2))
    buildings = {processors[g]: 2 for g in goods if g != "corn"}
    for occupied in (1, 0):
        sc = Scenario(players=3)
        sc.player(2, doubloons=0, tiles=tiles, buildings={"factory": occupied, **buildings})
        state = sc.choose("craftsman", 0)
        assert sum(state.players[2].goods) == 2 * kinds
        assert state.players[2].doubloons == (bonus if occupied else 0)


def test_a11_craftsman_privilege_is_a_kind_received_this_phase() -> None:
    """Ruling A11 (§4.4, §14.1; [C] "one he can produce" and "nothing produced, nothing extra",
    [A] "a kind he produces"): only a kind he actually received this phase and that is still in
    the supply.  He could produce sugar, but the supply had none: sugar is not offered; indigo he
    received, but the last one went to him: not offered either; corn is."""
    sc = Scenario(players=3)
    sc.player(
        0,
        tiles={"corn": (1, 1), "indigo": (1, 1), "sugar": (1, 1)},
        buildings={"small_indigo_plant": 1, "small_sugar_mill": 1},
    )
    sc.set_goods_supply(corn=4, indigo=1, sugar=0)
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[:3] == [1, 1, 0]
    assert sc.legal(state, 0) == ["c.corn", "pass"]
    state = sc.act(state, 0, "pass")
    assert state.players[0].goods[:3] == [1, 1, 0]
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_a48_partial_production_when_the_supply_is_short() -> None:
    """Ruling A48 (§4.4, §14.1; the [C] example: only 2 sugar left and David can make 3, so he
    gets 2): a short supply gives what remains; with none left the player gets none."""
    sc = Scenario(players=3)
    sc.player(1, tiles={"sugar": (3, 3)}, buildings={"sugar_mill": 3})
    sc.player(2, tiles={"sugar": (1, 1)}, buildings={"small_sugar_mill": 1})
    sc.set_goods_supply(sugar=2)
    state = sc.choose("craftsman", 0)
    assert state.players[1].goods[2] == 2
    assert state.players[2].goods[2] == 0
    assert state.goods[2] == 0
    assert [e.data for e in sc.events_of("GoodsProduced")] == [{"goods": {"sugar": 2}}]
    assert sc.invariant_failures(state) == []


def test_short_supply_goes_in_turn_order_from_the_craftsman_not_the_governor() -> None:
    """§4.4 [C], [A]: "Clockwise from the Craftsman, each player takes ... the barrels he can
    produce"; "If the supply of a kind is short, the player takes what remains ... Players
    produce in turn order, so the Craftsman has first claim."  The Craftsman is whoever chose the
    role: in a round the Governor (seat 0) began, seat 2 picks the Craftsman.  Seats 0, 2 and 3
    can each make 2 coffee and 3 are left: seat 2 gets 2, seat 3 the last one, the Governor
    none (from the Governor it would be 2, 0, 1).  Then the Craftsman's privilege barrel."""
    sc = Scenario(players=4)
    for seat in (0, 2, 3):
        sc.player(seat, tiles={"coffee": (2, 2)}, buildings=ROASTER_2)
    sc.player(2, tiles={"coffee": (2, 2), "corn": (1, 1)}, buildings=ROASTER_2)
    sc.set_goods_supply(coffee=3)
    state = sc.choose("craftsman", 2, governor=0)
    assert (state.governor, state.chooser) == (0, 2)
    assert [p.goods[COFFEE] for p in state.players] == [0, 0, 2, 1]
    assert state.goods[COFFEE] == 0
    assert [(e.seat, e.data) for e in sc.events_of("GoodsProduced")] == [
        (2, {"goods": {"corn": 1, "coffee": 2}}),
        (3, {"goods": {"coffee": 1}}),
    ]
    assert GAME.prompt(state) == Prompt((2,), "craft_privilege", False)
    assert sc.legal(state, 2) == ["c.corn", "pass"]
    state = sc.act(state, 2, "c.corn")
    assert state.players[2].goods[CORN] == 2
    assert GAME.prompt(state) == Prompt((3,), "role", False)
    assert sc.invariant_failures(state) == []
