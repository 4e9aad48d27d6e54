"""§10.2 Guest House and ruling A30: guests (colonists seated on it in the Mayor phase) move to
any empty circle of their owner at the start of a phase (the ``interlude`` prompt, simultaneous,
``pass`` ends it), before each of the owner's own decisions (``g.*`` among his actions, not ending
the decision) and before the Captain's storage; never in the Mayor phase; a moved guest works at
once and stays until the next Mayor phase."""

from __future__ import annotations

from engine.core import Prompt
from tests.engine.puerto_rico.scenario import GAME
from tests.engine.puerto_rico.test_new_buildings import exp1


def test_guests_move_at_the_start_of_a_phase_and_work_at_once_a30() -> None:
    """A30: at the Craftsman's start the owner is asked before production; a guest moved to an
    empty coffee plantation with a free Coffee Roaster circle produces in that same phase."""
    sc = exp1("guest_house", players=3)
    sc.player(
        1,
        tiles={"coffee": (1, 0)},
        buildings={"guest_house": 2, "coffee_roaster": 1},
    )
    state = sc.choose("craftsman", 0)
    assert GAME.prompt(state) == Prompt((1,), "interlude", False)
    assert set(sc.legal(state, 1)) == {"g.coffee", "g.coffee_roaster", "pass"}
    state = sc.act(state, 1, "g.coffee")
    assert state.players[1].workers[4] == 1 and GAME.prompt(state) is not None
    # one guest left, the Roaster's second circle still empty: asked again until he passes
    assert GAME.prompt(state) == Prompt((1,), "interlude", False)
    state = sc.act(state, 1, "pass")
    assert state.players[1].goods[4] == 1  # produced with the moved guest
    assert sc.invariant_failures(state) == []


def test_a_guest_moves_before_his_own_decision_without_ending_it_a30() -> None:
    """A30 / [A] example: after picking the Trader he moves a guest to his Library and doubles
    the privilege; the move is one of his actions and he still decides his sale."""
    sc = exp1("guest_house", "library", players=3)
    sc.player(0, goods={"corn": 1}, buildings={"guest_house": 1, "library": 0})
    sc.player(1, goods={})
    sc.player(2, goods={})
    state = sc.choose("trader", 0)
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.seats == (0,)
    if prompt.kind == "interlude":  # the phase's start: he may also move here; he waits
        state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((0,), "sell", False)
    assert "g.library" in sc.legal(state, 0)
    state = sc.act(state, 0, "g.library")
    assert GAME.prompt(state) == Prompt((0,), "sell", False)  # still his decision
    before = state.players[0].doubloons
    state = sc.act(state, 0, "t.corn")
    assert state.players[0].doubloons - before == 2  # corn 0 + the doubled privilege


def test_no_guest_moves_in_the_mayor_phase_a30() -> None:
    """A30: the Mayor phase seats guests; nobody moves them during it."""
    sc = exp1("guest_house", players=3)
    sc.player(0, tiles={"corn": (2, 0)}, buildings={"guest_house": 2})
    state = sc.choose("mayor", 0)
    for seat in range(3):
        assert not any(code.startswith("g.") for code in sc.legal(state, seat))
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind != "interlude"


def test_a_guest_moves_before_the_storage_a30() -> None:
    """A30 / [A] example: at the end of the Captain phase a guest moved to the Storehouse keeps
    3 more barrels (the interlude comes before the storage)."""
    sc = exp1("guest_house", "storehouse", players=2)
    sc.player(1, goods={"corn": 3, "indigo": 1}, buildings={"guest_house": 1, "storehouse": 0})
    sc.ships([(4, "coffee", 4), (6, "tobacco", 6)])
    state = sc.choose("captain", 0)
    if GAME.prompt(state) == Prompt((1,), "interlude", False):  # the phase's start: waits
        state = sc.act(state, 1, "pass")
    # no load possible: the storage comes next, after the interlude
    assert GAME.prompt(state) == Prompt((1,), "interlude", False)
    state = sc.act(state, 1, "g.storehouse")
    assert state.players[1].goods[:2] == [3, 1]  # 1 + 3 barrels kept: nothing to choose
    assert sc.invariant_failures(state) == []
