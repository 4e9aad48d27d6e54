"""Rulings of rules spec §14.1 not naturally covered by a role's own file: A2, A3, A37, A51.
(A4/A17: test_mayor; A6/A12/A13/A46: test_settler; A7/A8/A9/A10/A53: test_captain; A11/A48:
test_craftsman; A14/A18/A38/A47/A52: test_scoring; A15/A16/A55: test_builder.)"""

from __future__ import annotations

from engine.core import Prompt
from engine.puerto_rico.state import GAME_OVER
from tests.engine.puerto_rico.scenario import GAME, Scenario


def test_a2_the_bank_is_unlimited() -> None:
    """Ruling A2 (§2.1, §14.1; no source says what happens when the bank runs out): the bank pays
    anyway — a Prospector privilege and a sale with an empty bank both pay in full."""
    sc = Scenario(players=4)
    sc.player(0, doubloons=0)
    sc.player(1, doubloons=0, goods={"coffee": 1})
    sc.set_bank(0)
    state = sc.choose("prospector", 0)
    assert state.players[0].doubloons == 1
    assert state.bank == -1
    state = sc.act(state, 1, "r.trader")
    state = sc.act(state, 1, "t.coffee")
    assert state.players[1].doubloons == 5
    assert state.bank == -6
    assert sc.invariant_failures(state) == []


def test_a3_e3_triggers_when_the_vp_supply_reaches_zero() -> None:
    """Ruling A3 (§7.1 E3, §14.1): E3 triggers whenever the VP supply reaches 0 or cannot pay.
    In the base game only the Captain phase gives VP; taking exactly the last chip sets E3 (no
    VP on paper needed), and the round is still completed."""
    sc = Scenario(players=3)
    sc.player(1, goods={"indigo": 3})
    sc.set_vp_supply(3)
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    state = sc.act(state, 1, "ship.indigo.0")
    assert state.vp_supply == 0 and state.players[1].vp == 3
    assert state.end_reasons == ["vp_chips"]
    assert sc.events_of("EndTriggered")[-1].data == {"reason": "vp_chips"}
    assert state.phase != GAME_OVER
    assert sc.invariant_failures(state) == []


def test_a37_the_round_is_completed_in_the_2020_edition_too() -> None:
    """Ruling A37 (§7.1, §14.1; [A] "the game ends when … during a round", [C] explicitly at the
    end of the round): with edition "2020" the round in which a condition happened is still
    played to its end."""
    sc = Scenario(players=3, edition="2020")
    sc.player(1, goods={"indigo": 3})
    sc.set_vp_supply(2)
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.indigo.0")
    assert state.end_reasons == ["vp_chips"]
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    state = sc.act(state, 1, "r.builder")
    state = sc.finish_phase(state)
    assert GAME.prompt(state) == Prompt((2,), "role", False)
    state = sc.act(state, 2, "r.settler")
    state = sc.finish_phase(state)
    assert state.phase == GAME_OVER
    assert GAME.outcome(state) is not None
    assert sc.invariant_failures(state) == []


def test_a51_vp_supply_is_tracked_as_a_total_value() -> None:
    """Ruling A51 (§2.3 step 7, §14.1; chips come as 1s and 5s and may be exchanged): only the
    total value is tracked — 126 for 5 players in the 2020 edition (31 × 1 + 19 × 5); earning 7
    VP takes exactly 7 from it, whatever the chips."""
    sc = Scenario(players=5, edition="2020")
    assert sc.state.vp_supply == 126
    assert GAME.view(sc.state, None)["vp_chips_left"] == 126
    sc.player(1, goods={"sugar": 6})
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.sugar.0")
    assert state.players[1].vp == 6
    assert state.vp_supply == 120
    assert GAME.view(state, None)["vp_chips_left"] == 120
    assert GAME.view(state, None)["players"][1]["vp"] is None  # chips are face down
    assert GAME.view(state, 1)["players"][1]["vp"] == 6
    assert sc.invariant_failures(state) == []


def test_reveals_marks_random_draws_that_can_never_be_undone() -> None:
    """Undo support: a Hacienda draw and the end-of-Settler refill reveal random tiles; taking a
    face-up plantation in mid-phase or choosing a role reveals nothing."""
    sc = Scenario(players=3)
    sc.player(1, buildings={"hacienda": 1})
    before = sc.state
    state = sc.choose("settler", 0)
    assert not GAME.reveals(before, state)
    after_pick = sc.act(
        state, 0, f"s.{['corn', 'indigo', 'sugar', 'tobacco', 'coffee'][state.face_up[0]]}"
    )
    assert not GAME.reveals(state, after_pick)
    after_draw = sc.act(after_pick, 1, "s.hacienda")
    assert GAME.reveals(after_pick, after_draw)
    state = sc.act(after_draw, 1, "pass")
    final = sc.act(state, 2, "pass")  # the last Settler turn: the refill reveals new tiles
    assert GAME.reveals(state, final)
