"""Captain phase (rules spec §4.6): loading, privilege, Harbor, Wharf, storage, emptying."""

from __future__ import annotations

from engine.core import Prompt
from tests.engine.scenario import GAME, Scenario


def test_t_cap_1_worked_example_of_the_classic_rulebook() -> None:
    """T-CAP-1 (§4.6, worked example in [C]): the whole loading sequence, storage and emptying."""
    sc = Scenario(players=4)
    ana, roberto, cristina, david = range(4)
    sc.player(ana, goods={"corn": 2, "sugar": 6})
    sc.player(roberto, goods={"sugar": 2, "tobacco": 3})
    sc.player(cristina, goods={"corn": 2, "tobacco": 1})
    sc.player(david, goods={"corn": 1, "indigo": 5})
    sc.ships([(5, None, 0), (6, "corn", 3), (7, None, 0)])
    state = sc.choose("captain", ana)
    # turn 1: the 5-ship is illegal for sugar (it would leave barrels behind)
    assert "ship.sugar.0" not in sc.legal(state, ana)
    state = sc.act(state, ana, "ship.sugar.2")
    state = sc.act(state, roberto, "ship.sugar.2")  # 1 sugar fills the 7-ship
    state = sc.act(state, cristina, "ship.tobacco.0")
    assert sc.legal(state, david) == ["ship.corn.1"]  # indigo has no legal ship
    state = sc.act(state, david, "ship.corn.1")
    state = sc.act(state, ana, "ship.corn.1")  # corn ship now full
    state = sc.act(state, roberto, "ship.tobacco.0")
    # nobody can load any more. Storage: each player has a single kind left, so nobody has a
    # real choice and nobody is asked; the next role pick follows.
    assert GAME.prompt(state) == Prompt((roberto,), "role", False)
    vp = [p.vp for p in state.players]
    assert vp == [9, 4, 1, 1]
    assert state.players[roberto].goods == [0, 0, 1, 0, 0]
    assert state.players[cristina].goods == [1, 0, 0, 0, 0]
    assert state.players[david].goods == [0, 1, 0, 0, 0]
    # the 6-ship (corn) and 7-ship (sugar) are emptied; the 5-ship keeps 4 tobacco
    assert state.ship_kind == [3, -1, -1] and state.ship_load == [4, 0, 0]
    assert sc.invariant_failures(state) == []
