# mypy: disable-error-code="union-attr"
# (a prompt or event a scenario knows exists: the tests read it straight away)
"""The round (rules spec §3.1–§3.3, §5.10, §5.11, §5.17, §2.7): worked examples S-17, S-24;
tests D-01, D-02, D-03, D-12 (variant); rulings A-8, A-10, A-13, A-21."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.san_juan.actions import DISCARD, multi

from .scenario import GAME, Scenario, kind, legal_codes, prompt_kind


def test_s24_two_player_round_governor_opponent_governor() -> None:
    """S-24 (§3.2): with 2 players the choices are G, O, G (3 distinct roles, each performed by
    both); then the round ends and O becomes Governor."""
    sc = Scenario(players=2)
    state = sc.state
    assert state.governor == 0 and GAME.prompt(state).seats == (0,)
    state = sc.act(state, 0, "r.prospector")
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state).seats == (1,) and prompt_kind(state) == "role"
    assert "r.prospector" not in legal_codes(state, 1)
    state = sc.act(state, 1, "r.builder")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state).seats == (0,) and prompt_kind(state) == "role"
    assert sorted(legal_codes(state, 0)) == ["r.councillor", "r.producer", "r.trader"]
    state = sc.act(state, 0, "r.trader")  # nobody has a good: the phase ends at once
    assert [e.seat for e in sc.of_type("RoleChosen")] == [0, 1, 0]
    assert [e.data["role"] for e in sc.of_type("PhaseEnded")] == ["prospector", "builder", "trader"]
    assert [e.data for e in sc.of_type("RoundEnded")] == [{"round": 1}]
    assert state.round == 2 and state.governor == 1
    assert GAME.prompt(state).seats == (1,) and prompt_kind(state) == "role"
    assert len(legal_codes(state, 1)) == 5


def test_three_and_four_players_choose_once_each() -> None:
    """§3.1: every player chooses exactly one role per round, clockwise from the Governor."""
    for players in (3, 4):
        sc = Scenario(players=players)
        state = sc.state
        for turn in range(players):
            assert GAME.prompt(state).seats == (turn,)
            state = sc.act(
                state,
                turn,
                "r.prospector" if turn == 0 else ["r.trader", "r.producer", "r.builder"][turn - 1],
            )
            while prompt_kind(state) != "role":
                state = sc.act(state, GAME.prompt(state).seats[0], "pass")
        assert state.round == 2 and state.governor == 1


@pytest.mark.parametrize("case", ["a", "b", "c"])
def test_s17_library_once_per_round_with_two_players(case: str) -> None:
    """S-17 (§5.17, A-8): in a 2-player game the Library doubles at most one privilege per
    round; the opponent uses his own on his own role."""
    sc = Scenario(players=2)
    lib = ["indigo_plant", "sugar_mill", "tobacco_storage", "coffee_roaster", "library"]
    sc.player(0, buildings=lib)
    sc.player(1, buildings=lib)
    state = sc.state
    if case == "c":
        state = sc.act(state, 0, "r.builder.lib")
        state = sc.act(state, 0, "pass")
        state = sc.act(state, 1, "pass")
        assert "r.producer.lib" in legal_codes(state, 1)
        state = sc.act(state, 1, "r.producer.lib")
        assert (
            max(len(GAME.decode_action(c).goods) for c in legal_codes(state, 1) if c != "pass") == 3
        )
        return
    state = sc.act(state, 0, "r.builder.lib" if case == "a" else "r.builder")
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 1, "r.councillor")
    for seat in (0, 1):
        state = sc.act(state, seat, "pass")
    codes = legal_codes(state, 0)
    assert ("r.producer.lib" in codes) == (case == "b")
    if case == "a":
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, 0, GAME.decode_action("r.producer.lib"))
        assert err.value.code == "library_used_this_round"
    state = sc.act(state, 0, "r.producer.lib" if case == "b" else "r.producer")
    limit = max(len(GAME.decode_action(c).goods) for c in legal_codes(state, 0) if c != "pass")
    assert limit == (3 if case == "b" else 2)


def test_d01_chapel_before_the_hand_limit() -> None:
    """D-01 (§3.3, §5.10): at the start of round 2, an active Chapel and 9 cards: one card
    under the Chapel, then 8 > 7 means one discard (two without the Chapel card)."""
    for place in (True, False):
        sc = Scenario(players=3)
        sc.player(0, hand=["x"] * 9, buildings=["indigo_plant", "chapel"])
        state = sc.end_round()
        assert prompt_kind(state) == "chapel" and GAME.prompt(state).seats == (0,)
        if place:
            card = GAME.decode_action(legal_codes(state, 0)[0])
            state = sc.act(state, 0, card.code)
            assert len(state.players[0].chapel) == 1
        else:
            state = sc.act(state, 0, "pass")
        assert prompt_kind(state) == "hand_limit"
        sizes = {len(GAME.decode_action(c).cards) for c in legal_codes(state, 0)}
        assert sizes == {1 if place else 2}
        assert GAME.view(state, 0)["pending"] == {
            "decision": "hand_limit",
            "limit": 7,
            "discard": 1 if place else 2,
        }
        state = sc.act(state, 0, legal_codes(state, 0)[0])
        assert sum(state.players[0].hand) == 7 and prompt_kind(state) == "role"


def test_a10_a_chapel_card_is_secret() -> None:
    """A-10: which card and whether one was placed stay the owner's; opponents see no count."""
    sc = Scenario(players=3)
    sc.player(0, hand=["x", "x"], buildings=["indigo_plant", "chapel"], chapel=2)
    state = sc.end_round()
    state = sc.act(state, 0, legal_codes(state, 0)[0])
    placed = sc.of_type("ChapelCardPlaced")
    assert placed and placed[0].for_viewer(1) is None and placed[0].for_viewer(None) is None
    assert GAME.view(state, 1)["seats"][0]["chapel"] is None
    assert GAME.view(state, 0)["seats"][0]["chapel"] == 3
    # the points shown to the others leave the Chapel cards out; the owner's include them
    assert GAME.view(state, 1)["seats"][0]["vp"] == 1 + 2
    assert GAME.view(state, None)["seats"][0]["vp"] == 1 + 2
    assert GAME.view(state, 0)["seats"][0]["vp"] == 1 + 2 + 3
    assert len(GAME.view(state, 0)["chapel_names"]) == 3
    assert GAME.view(state, 1)["seats"][1]["chapel"] == 0  # no Chapel, nothing to hide


@pytest.mark.parametrize(("cards", "discard"), [(13, 1), (12, 0)])
def test_d02_tower(cards: int, discard: int) -> None:
    """D-02 (§5.11): with an active Tower the limit is 12."""
    sc = Scenario(players=3)
    sc.player(0, hand=["x"] * cards, buildings=["indigo_plant", "tower"])
    state = sc.end_round()
    if discard:
        assert prompt_kind(state) == "hand_limit" and GAME.prompt(state).seats == (0,)
        assert {len(GAME.decode_action(c).cards) for c in legal_codes(state, 0)} == {discard}
    else:
        assert prompt_kind(state) == "role"


def test_d03_the_hand_limit_is_only_checked_at_the_round_start() -> None:
    """D-03 (§3.3): 10 cards in the middle of a round ask nothing until the next round starts,
    where every seat over its limit discards at once (a simultaneous step)."""
    sc = Scenario(players=3)
    sc.player(1, hand=["x"] * 10)
    sc.player(2, hand=["x"] * 9)
    state = sc.choose("prospector", 0)
    state = sc.act(state, 0, "pass")
    assert prompt_kind(state) == "role"
    state = sc.act(state, 1, "r.councillor")
    for seat in (1, 2, 0):
        state = sc.act(state, seat, "pass")
    state = sc.act(state, 2, "r.trader")
    assert prompt_kind(state) == "hand_limit" and GAME.prompt(state).seats == (1, 2)
    assert not GAME.prompt(state).forced
    state = sc.act(state, 2, legal_codes(state, 2)[0])
    state = sc.act(state, 1, legal_codes(state, 1)[0])
    assert [sum(p.hand) for p in state.players][1:] == [7, 7]


def test_hand_limit_discard_of_the_wrong_size_is_refused() -> None:
    """§3.3: the discard is exactly down to the limit."""
    sc = Scenario(players=3)
    sc.player(0, hand=["x"] * 9)
    state = sc.end_round()
    cards = tuple(sorted(state.players[0].hand_cards()))[:1]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, multi(DISCARD, cards))
    assert err.value.code == "discard_not_allowed"


@pytest.mark.parametrize(("players", "pile", "discard"), [(2, 97, 3), (3, 89, 6), (4, 80, 10)])
def test_d12_variant_start(players: int, pile: int, discard: int) -> None:
    """D-12 / §2.7 / A-21: the starting player draws 5, the next ones 6, 7, 8; each keeps 4
    (all at once) and discards the rest."""
    sc = Scenario(players=players, variant_start=True)
    state = sc.state
    assert [len(p.drawn) for p in state.players] == [5, 6, 7, 8][:players]
    assert prompt_kind(state) == "variant_keep"
    assert GAME.prompt(state).seats == tuple(range(players))
    for seat in reversed(range(players)):
        codes = legal_codes(state, seat)
        assert {len(GAME.decode_action(c).cards) for c in codes} == {4}
        state = sc.act(state, seat, codes[-1])
    assert len(state.pile) == pile and len(state.discard) == discard
    assert all(sum(p.hand) == 4 for p in state.players)
    assert prompt_kind(state) == "role" and state.round == 1


def test_a13_no_start_of_round_steps_before_round_one() -> None:
    """A-13: the first round starts with the Governor's role choice."""
    state = GAME.setup({"players": 4}, 1)
    assert prompt_kind(state) == "role" and state.round == 1 and state.governor == 0
    assert kind("indigo_plant") in state.players[3].top
