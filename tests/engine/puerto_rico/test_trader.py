"""Trader phase (rules spec §4.5, §8.2 Small/Large Market, Office): T-TRA-1..6.
Sources: classic rulebook [C] (its Small Market, both-markets and Office examples), 2020 [A]."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, Prompt
from engine.puerto_rico.data import CORN, INDIGO, SUGAR, TOBACCO
from tests.engine.puerto_rico.scenario import GAME, Scenario


def test_t_tra_1_full_house() -> None:
    """T-TRA-1 (§4.5 [C], [A]): the house holds [indigo].  The Trader with an occupied Small
    Market sells corn for 0 + 1 + 1 = 2; P2 may not sell indigo (no Office) and sells coffee for
    4; P3 (occupied Office) sells indigo for 1: the house is full, P4 may not sell, and the 4
    barrels return to the supply."""
    sc = Scenario(players=4)
    sc.house(["indigo"])
    sc.player(0, doubloons=0, goods={"corn": 1}, buildings={"small_market": 1})
    sc.player(1, doubloons=0, goods={"indigo": 1, "coffee": 1})
    sc.player(2, doubloons=0, goods={"indigo": 1}, buildings={"office": 1})
    sc.player(3, doubloons=0, goods={"sugar": 1})
    supply = list(sc.state.goods)
    state = sc.choose("trader", 0)
    assert GAME.prompt(state) == Prompt((0,), "sell", False)
    state = sc.act(state, 0, "t.corn")
    assert state.players[0].doubloons == 2
    assert sc.legal(state, 1) == ["t.coffee", "pass"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "t.indigo")
    assert err.value.code == "kind_already_in_trading_house"
    state = sc.act(state, 1, "t.coffee")
    assert state.players[1].doubloons == 4
    assert sc.legal(state, 2) == ["t.indigo", "pass"]
    before_empty = [e.data for e in sc.events_of("GoodSold")]
    assert before_empty == [
        {"good": "corn", "price": 2},
        {"good": "coffee", "price": 4},
    ]
    state = sc.act(state, 2, "t.indigo")
    assert state.players[2].doubloons == 1
    # the house was full: P4 is not asked, the house is emptied into the supply
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.players[3].goods[SUGAR] == 1
    assert state.house == []
    assert state.goods == [supply[0] + 1, supply[1] + 2, supply[2], supply[3], supply[4] + 1]
    assert sc.events_of("TradingHouseEmptied")
    assert sc.invariant_failures(state) == []


def test_t_tra_2_house_not_full_keeps_its_barrels() -> None:
    """T-TRA-2 (§4.5 "Emptying" [C], [A]): after a phase with only 2 sales the house keeps
    [sugar, tobacco]; in the next phase only 2 spaces are free and sugar and tobacco can be
    sold only by an Office owner."""
    sc = Scenario(players=4)
    sc.player(0, goods={"sugar": 2})
    sc.player(1, goods={"tobacco": 1, "corn": 1})
    sc.player(2, goods={"tobacco": 1}, buildings={"office": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.sugar")
    state = sc.act(state, 1, "t.tobacco")
    state = sc.act(state, 2, "pass")
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.house == [SUGAR, TOBACCO]
    state = sc.choose("trader", 0)
    assert sc.legal(state, 0) == []  # only sugar, which is blocked: skipped
    assert GAME.prompt(state) == Prompt((1,), "sell", False)
    assert sc.legal(state, 1) == ["t.corn", "pass"]
    state = sc.act(state, 1, "t.corn")
    assert sc.legal(state, 2) == ["t.tobacco", "pass"]
    state = sc.act(state, 2, "t.tobacco")
    # 2 + 2 = 4 barrels: full, so the phase ends at once and the house is emptied
    assert [e.data["good"] for e in sc.events_of("GoodSold")[-2:]] == ["corn", "tobacco"]
    assert state.house == []
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_t_tra_3_small_market_corn_example() -> None:
    """T-TRA-3 (§4.5, §8.2 Small Market; [C] example): Anna, with an occupied Small Market and not
    the Trader, sells corn for 1 doubloon."""
    sc = Scenario(players=3)
    sc.player(1, doubloons=0, goods={"corn": 1}, buildings={"small_market": 1})
    state = sc.choose("trader", 0)
    assert GAME.prompt(state) == Prompt((1,), "sell", False)
    state = sc.act(state, 1, "t.corn")
    assert state.players[1].doubloons == 1
    assert sc.invariant_failures(state) == []


def test_t_tra_4_both_markets_example() -> None:
    """T-TRA-4 (§4.5, §8.2 Large Market; [C] example): occupied Small and Large Markets add +3 to a
    sale (here sugar 2 → 5; with the Trader privilege on top 6); an unoccupied Large Market adds
    nothing (§4.0)."""
    sc = Scenario(players=3)
    sc.player(1, doubloons=0, goods={"sugar": 1}, buildings={"small_market": 1, "large_market": 1})
    sc.player(2, doubloons=0, goods={"indigo": 1}, buildings={"small_market": 1, "large_market": 0})
    sc.player(
        0, doubloons=0, goods={"tobacco": 1}, buildings={"small_market": 1, "large_market": 1}
    )
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.tobacco")
    state = sc.act(state, 1, "t.sugar")
    assert state.players[0].doubloons == 3 + 3 + 1
    assert state.players[1].doubloons == 2 + 3
    state = sc.act(state, 2, "t.indigo")
    assert state.players[2].doubloons == 1 + 1  # the unoccupied Large Market adds nothing
    assert sc.invariant_failures(state) == []


def test_t_tra_5_two_offices_example() -> None:
    """T-TRA-5 (§4.5, §8.2 Office; [C] example): the house holds [tobacco]; Roberto (occupied
    Office) sells tobacco, and Cristina (the other Office, occupied) also sells tobacco; both are
    legal."""
    sc = Scenario(players=4)
    sc.house(["tobacco"])
    roberto, cristina = 1, 2
    sc.player(roberto, doubloons=0, goods={"tobacco": 1}, buildings={"office": 1})
    sc.player(cristina, doubloons=0, goods={"tobacco": 1}, buildings={"office": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, roberto, "t.tobacco")
    state = sc.act(state, cristina, "t.tobacco")
    assert state.house == [TOBACCO] * 3
    assert state.players[roberto].doubloons == 3 and state.players[cristina].doubloons == 3
    assert sc.invariant_failures(state) == []


def test_t_tra_6_no_sale_no_privilege() -> None:
    """T-TRA-6 (§4.0, §4.5 [C], [A]): the Trader sells nothing, so he gets no privilege doubloon;
    when he sells, even corn, he gets +1."""
    sc = Scenario(players=3)
    sc.player(0, doubloons=0, goods={"indigo": 1})
    sc.player(1, doubloons=0, goods={"corn": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "t.corn")
    assert [p.doubloons for p in state.players[:2]] == [0, 0]
    assert state.players[0].goods[INDIGO] == 1
    sc = Scenario(players=3)
    sc.player(0, doubloons=0, goods={"corn": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.corn")
    assert state.players[0].doubloons == 1
    assert sc.invariant_failures(state) == []


def test_corn_sells_for_zero() -> None:
    """§4.5 "Corn may be sold for 0" [C], [A]: a plain sale of corn is legal and pays nothing,
    but it takes a space in the house."""
    sc = Scenario(players=3)
    sc.player(1, doubloons=0, goods={"corn": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 1, "t.corn")
    assert state.players[1].doubloons == 0
    assert state.house == [CORN]
    assert sc.events_of("GoodSold")[-1].data == {"good": "corn", "price": 0}
    assert sc.invariant_failures(state) == []
