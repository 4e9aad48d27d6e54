"""Round structure (rules spec §3): pick order, doubloons on unchosen roles, governor passing,
chooser first then clockwise, and the end of the game only at the end of the round (§7.1).
Sources: [C] and [C'] (3–5 players), [C] 2-player rules (§9)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, Prompt
from engine.puerto_rico.state import GAME_OVER
from tests.engine.puerto_rico.scenario import GAME, Scenario

# Roles picked in one round by seat 0, 1, ...: simple to resolve with ``finish_phase``.
ROUND_PICKS = {
    2: ["settler", "mayor", "builder", "trader", "craftsman", "prospector"],
    3: ["settler", "mayor", "builder"],
    4: ["settler", "mayor", "builder", "prospector"],
    5: ["settler", "mayor", "builder", "prospector", "prospector2"],
}


def play_round(sc: Scenario, picks: list[str]) -> list[int]:
    """Play one round from a role prompt, checking who is asked each time; returns the seats
    asked for a role, in order."""
    state = sc.state
    asked = []
    for card in picks:
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "role"
        asked.append(prompt.seats[0])
        state = sc.act(state, prompt.seats[0], f"r.{card}")
        state = sc.finish_phase(state)
    return asked


@pytest.mark.parametrize("players", [3, 4, 5])
def test_round_pick_order_and_three_doubloons_on_unchosen_roles(players: int) -> None:
    """§3.1/§3.2 ([C], [C']): in 3–5 players each player picks once, clockwise from the governor;
    exactly 3 cards stay unchosen and each gets 1 doubloon from the bank; then the governor card
    passes to the left and the new governor picks first."""
    sc = Scenario(players=players)
    bank = sc.state.bank
    start_money = sum(p.doubloons for p in sc.state.players)
    asked = play_round(sc, ROUND_PICKS[players])
    state = sc.state
    assert asked == list(range(players))
    unchosen = [
        a.code[2:]
        for i, a in enumerate(state.rs.card_actions)
        if a.code[2:] not in ROUND_PICKS[players]
    ]
    assert len(unchosen) == 3
    doubloons = {a.code[2:]: state.card_doubloons[i] for i, a in enumerate(state.rs.card_actions)}
    assert {card: doubloons[card] for card in unchosen} == dict.fromkeys(unchosen, 1)
    assert sum(state.card_doubloons) == 3
    assert sc.events_of("RoundEnded")[-1].data["doubloons_on"] == unchosen
    assert state.governor == 1 and state.round == 2
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    # the bank paid the 3 doubloons plus whatever the round's roles paid to the players
    paid = sum(p.doubloons for p in state.players) - start_money
    assert bank - state.bank == 3 + paid
    assert sc.invariant_failures(state) == []


def test_round_two_players_six_picks_and_one_doubloon() -> None:
    """§3.1 and §9 ([C]): with 2 players the picks go governor, other, governor, other, governor,
    other; the single unchosen card gets 1 doubloon; the governor card passes to the other
    player."""
    sc = Scenario(players=2)
    asked = play_round(sc, ROUND_PICKS[2])
    state = sc.state
    assert asked == [0, 1, 0, 1, 0, 1]
    assert state.card_doubloons == [0, 0, 0, 0, 0, 1, 0]  # the captain was not chosen
    assert state.governor == 1
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_round_doubloons_accumulate_and_the_chooser_takes_them_all() -> None:
    """§3.1 ("added to any already there") and §3.2 ("the chooser always takes the doubloons on
    the card, even if he then uses neither the action nor the privilege") [C]."""
    sc = Scenario(players=3)
    play_round(sc, ["settler", "mayor", "builder"])
    play_round(sc, ["settler", "mayor", "builder"])
    state = sc.state
    assert state.card_doubloons == [0, 0, 0, 2, 2, 2]
    # round 3: the governor (seat 2) takes the Trader with 2 doubloons and sells nothing
    assert GAME.prompt(state) == Prompt((2,), "role", False)
    before = state.players[2].doubloons
    state = sc.act(state, 2, "r.trader")
    assert state.players[2].doubloons == before + 2
    assert state.card_doubloons[4] == 0
    assert sc.events_of("RoleChosen")[-1].data == {
        "role": "trader",
        "card": "trader",
        "doubloons": 2,
    }


def test_round_choosing_is_compulsory_and_a_chosen_card_stays_taken() -> None:
    """§3.2 [C]: on his pick a player must take a remaining card (there is no pass); a chosen card
    stays with its chooser until the end of the round."""
    sc = Scenario(players=4)
    state = sc.state
    assert "pass" not in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "pass")
    assert err.value.code == "wrong_decision"
    state = sc.act(state, 0, "r.prospector")
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert "r.prospector" not in sc.legal(state, 1)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "r.prospector")
    assert err.value.code == "role_taken"
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "r.prospector2")
    assert err.value.code == "role_not_in_game"


def test_round_chooser_resolves_first_then_clockwise() -> None:
    """§3.2 [C]: the chooser resolves the action first, then each other player clockwise."""
    sc = Scenario(players=4)
    state = sc.act(sc.state, 0, "r.prospector")
    state = sc.act(state, 1, "r.trader")  # nobody has goods: the phase is skipped
    state = sc.act(state, 2, "r.settler")
    asked = []
    while (prompt := GAME.prompt(state)) is not None and prompt.kind == "settle":
        asked.append(prompt.seats[0])
        state = sc.act(state, prompt.seats[0], "pass")
    assert asked == [2, 3, 0, 1]


def test_round_game_ends_only_at_the_end_of_the_round() -> None:
    """§3.2 "End check" and §7.1 [C]: a condition met during the first pick does not stop the
    round; the remaining picks are played, the unchosen roles get their doubloons, then the game
    ends and is scored."""
    sc = Scenario(players=3)
    sc.set_colonists(supply=1)  # the Mayor refill (3) cannot be made: E1
    state = sc.act(sc.state, 0, "r.mayor")
    state = sc.finish_phase(state)
    assert state.end_reasons == ["colonists"]
    assert state.phase != GAME_OVER
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert GAME.outcome(state) is None
    state = sc.act(state, 1, "r.settler")
    state = sc.finish_phase(state)
    assert GAME.prompt(state) == Prompt((2,), "role", False)
    state = sc.act(state, 2, "r.builder")
    state = sc.finish_phase(state)
    assert state.phase == GAME_OVER
    assert GAME.prompt(state) is None
    assert sum(state.card_doubloons) == 3  # placed although it no longer matters
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("colonists",)
    assert [e.type for e in sc.events[-2:]] == ["RoundEnded", "GameEnded"]
    assert sc.invariant_failures(state) == []


def test_prospector_example_card_with_two_doubloons_yields_three() -> None:
    """§4.7 Prospector, example in [C]: picking a Prospector card that holds 2 doubloons yields 3
    in total (the card's 2 plus the privilege doubloon); the other players do nothing."""
    sc = Scenario(players=4)
    sc.role_doubloons("prospector", 2)
    sc.player(0, doubloons=0)
    others = [p.doubloons for p in sc.state.players[1:]]
    state = sc.choose("prospector", 0)
    assert state.players[0].doubloons == 3
    assert [p.doubloons for p in state.players[1:]] == others
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert [e.data for e in sc.events_of("DoubloonsEarned")] == [
        {"amount": 1, "reason": "prospector"}
    ]
    assert sc.invariant_failures(state) == []


def test_prospector_both_cards_in_five_players() -> None:
    """§4.7 "Availability" and §2.2 [C]: 5 players have 2 Prospector cards; both may be chosen
    in the same round, each paying its own privilege doubloon."""
    sc = Scenario(players=5)
    sc.player(0, doubloons=0)
    sc.player(1, doubloons=0)
    state = sc.choose("prospector", 0)
    state = sc.act(state, 1, "r.prospector2")
    assert [p.doubloons for p in state.players[:2]] == [1, 1]
    assert sc.invariant_failures(state) == []
