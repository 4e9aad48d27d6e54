"""Prompt kinds and forced flags (engine contract ``engine.core.Prompt``): a prompt with exactly
one legal action is forced; the simultaneous prompts (Mayor "arrange", Captain "keep") list every
seat with a real choice and no other seat; a seat with nothing to decide is resolved
automatically without a prompt.  Rules refer to the spec sections cited per test."""

from __future__ import annotations

import pytest

from engine.core import NotYourTurn, Prompt
from tests.engine.puerto_rico.scenario import GAME, Scenario


def test_prompt_with_exactly_one_legal_action_is_forced() -> None:
    """§4.6.1 rules 4–7 [C], [A] (loading is compulsory): the only legal load is forced; with two
    options it is not; a role pick (several cards) and an optional offer (accept or pass) are never
    forced."""
    sc = Scenario(players=4)
    sc.player(1, goods={"coffee": 8})
    sc.player(2, goods={"corn": 2})
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["ship.coffee.2"]
    assert GAME.prompt(state) == Prompt((1,), "ship", True)
    state = sc.act(state, 1, "ship.coffee.2")
    assert sc.legal(state, 2) == ["ship.corn.0", "ship.corn.1"]
    assert GAME.prompt(state) == Prompt((2,), "ship", False)
    assert GAME.view(state, None)["prompt"] == {"seats": [2], "kind": "ship", "forced": False}

    sc = Scenario(players=4)
    sc.player(0, buildings={"hospice": 1})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.quarry")
    assert GAME.prompt(state) == Prompt((0,), "hospice", False)
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((1,), "settle", False)
    # the role pick offers several cards, even the last pick of a 3-player round (4 left)
    sc = Scenario(players=3)
    state = sc.act(sc.state, 0, "r.settler")
    state = sc.finish_phase(state)
    state = sc.act(state, 1, "r.builder")
    state = sc.finish_phase(state)
    assert GAME.prompt(state) == Prompt((2,), "role", False)
    assert len(sc.legal(state, 2)) == 4


def test_prompt_keep_lists_every_seat_with_a_real_choice_and_no_other() -> None:
    """§4.6.3 [C], [A] ("the player chooses what to keep"): after loading, seats with several ways
    to keep barrels are asked together (any order); a seat with a single way (one kind, or nothing)
    is resolved automatically."""
    sc = Scenario(players=4)
    sc.player(0, goods={"corn": 2, "indigo": 1})
    sc.player(1, goods={"sugar": 3})
    sc.player(3, goods={"tobacco": 1, "coffee": 2})
    sc.ships([(5, "corn", 5), (6, "indigo", 6), (7, "sugar", 7)])  # tobacco, coffee: no room
    state = sc.choose("captain", 2)
    # nobody can load (every ship is full): the keep prompt follows at once
    assert GAME.prompt(state) == Prompt((0, 3), "keep", False)
    assert state.players[1].goods == [0, 0, 1, 0, 0]  # one kind only: kept 1 automatically
    assert sc.legal(state, 1) == [] and sc.legal(state, 2) == []
    with pytest.raises(NotYourTurn):
        sc.act(state, 1, "keep.sugar1")
    assert sc.legal(state, 3) == ["keep.tobacco1", "keep.coffee1"]
    state = sc.act(state, 3, "keep.coffee1")
    assert GAME.prompt(state) == Prompt((0,), "keep", False)
    state = sc.act(state, 0, "keep.corn1")
    assert GAME.prompt(state) == Prompt((3,), "role", False)
    assert state.players[0].goods == [1, 0, 0, 0, 0]
    assert state.players[3].goods == [0, 0, 0, 0, 1]
    assert sc.invariant_failures(state) == []


def test_prompt_arrange_lists_every_seat_with_a_real_choice_and_no_other() -> None:
    """§4.2 step 3, ruling A17 (simultaneous by default): seats with fewer colonists than circles
    and several places to choose from are asked together; the others are filled automatically
    (no choice: every circle filled, or a single kind of place)."""
    sc = Scenario(players=5)
    sc.set_colonists(ship=5)
    sc.player(1, tiles={"corn": 1, "sugar": 1})  # 1 colonist, 2 places: a choice
    sc.player(2, tiles={"corn": 3})  # 1 colonist, one kind of place: no choice
    sc.player(4, tiles={"quarry": 1}, buildings={"hacienda": 0})  # a choice
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((1, 4), "arrange", False)
    assert state.players[2].workers[0] == 1 and state.players[2].san_juan == 0
    assert state.players[0].workers[1] == 1 and state.players[3].workers[0] == 1
    state = sc.act(state, 4, "m.hacienda")
    state = sc.act(state, 1, "m.sugar")
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_seats_with_nothing_to_decide_are_skipped_without_a_prompt() -> None:
    """§4.1 (full island), §4.3 (cannot pay), §4.5 (nothing sellable), §4.4 (production is
    automatic) [C], [A]: such a seat's turn passes at once; only seats with a decision are
    prompted."""
    sc = Scenario(players=4)
    sc.player(1, tiles={"corn": 12})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((2,), "settle", False)  # seat 1: full island

    sc = Scenario(players=4)
    for seat in range(4):
        sc.player(seat, doubloons=0)
    sc.player(2, doubloons=1)
    state = sc.choose("builder", 0)  # the Builder can build a Small Indigo Plant for 0
    assert GAME.prompt(state) == Prompt((0,), "build", False)
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((2,), "build", False)  # seat 1: cannot pay anything

    sc = Scenario(players=4)
    sc.player(3, goods={"corn": 1})
    state = sc.choose("trader", 0)
    assert GAME.prompt(state) == Prompt((3,), "sell", False)  # seats 0-2 hold nothing

    sc = Scenario(players=4)
    sc.player(1, tiles={"corn": (2, 2)})
    state = sc.choose("craftsman", 0)  # production needs no decision; no privilege barrel
    assert state.players[1].goods[0] == 2
    assert GAME.prompt(state) == Prompt((1,), "role", False)
