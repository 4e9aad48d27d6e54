"""Random-playout properties (ARCHITECTURE.md, testing layer 2) over 2, 3, 4 and 5 players.

Many games on the fast path check the end state (conservation, bounded length, a winner, replay
reproducing the final state); fewer games go through the validating path with every invariant
checked after every action: a prompt exists until the end, prompted seats have legal actions,
apply never mutates its input, codes and dumps round-trip, conservation of every component.
"""

from __future__ import annotations

import os

import pytest

from engine import get_game, replay
from engine.policies import make_policy
from engine.puerto_rico import invariant_failures
from engine.simulate import MAX_ACTIONS, canonical_json, play_game, policy_seed, simulate

GAME = get_game("puerto-rico")
# scale with GOVERNOR_PROPERTY_GAMES for a longer soak; the default keeps CI within minutes
FAST_GAMES = int(os.environ.get("GOVERNOR_PROPERTY_GAMES", "400"))
CHECKED_GAMES = max(4, FAST_GAMES // 20)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_fast_playouts_end_cleanly(players: int, policy: str) -> None:
    """FAST_GAMES seeded games per player count and policy: every game ends within the bound,
    with an end reason, at least one winner, all invariants holding at the end, and (for every
    tenth game) the replay of its action log reproducing the final state exactly."""
    options = GAME.normalize_options({"players": players})
    for i in range(FAST_GAMES):
        seed = 10_000 * players + i
        policies = [
            make_policy(policy, "puerto-rico", policy_seed(seed, s)) for s in range(players)
        ]
        result = play_game(GAME, options, seed, policies)
        assert result.failures == []
        assert len(result.actions) < MAX_ACTIONS
        assert invariant_failures(result.final) == []
        outcome = GAME.outcome(result.final)
        assert outcome is not None and outcome.winners and outcome.end_reasons
        assert GAME.prompt(result.final) is None
        if i % 10 == 0:
            replayed, _ = replay("puerto-rico", options, seed, result.actions)
            assert canonical_json(GAME.dump(replayed)) == canonical_json(GAME.dump(result.final))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_checked_playouts_hold_every_invariant_after_every_action(
    players: int, policy: str
) -> None:
    """The validating path with ``--check``: zero invariant failures."""
    result = simulate("puerto-rico", players, CHECKED_GAMES, 500 * players, [policy], check=True)
    assert result["failures"] == []
    assert result["invariant_failures"] == 0


def test_checked_and_fast_paths_make_the_same_games() -> None:
    """The unchecked simulation path applies exactly what the validating path applies."""
    fast = simulate("puerto-rico", 4, 6, 77, ["random"])
    checked = simulate("puerto-rico", 4, 6, 77, ["random"], check=True)
    assert fast["digest"] == checked["digest"]


def test_simulation_is_reproducible() -> None:
    """Equal inputs give equal digests; another seed gives another digest."""
    a = simulate("puerto-rico", 3, 5, 3, ["heuristic", "random", "random"])
    b = simulate("puerto-rico", 3, 5, 3, ["heuristic", "random", "random"])
    c = simulate("puerto-rico", 3, 5, 4, ["heuristic", "random", "random"])
    assert a["digest"] == b["digest"] != c["digest"]


def test_heuristic_beats_three_random_players() -> None:
    """A heuristic seat wins at least 80% of 4-player games against three random seats."""
    result = simulate("puerto-rico", 4, 200, 2024, ["heuristic", "random", "random", "random"])
    assert result["wins_by_seat"][0] >= 0.8 * 200


def test_views_of_finished_games_are_json_and_public_hides_chips() -> None:
    """Views are JSON-safe; the public view never shows a player's VP chips, a seat view shows
    exactly its own."""
    import json

    options = GAME.normalize_options({"players": 4})
    policies = [make_policy("random", "puerto-rico", s) for s in range(4)]
    state = GAME.setup(options, 5)
    for _ in range(150):
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        state, _ = GAME.apply(
            state, seat, policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        )
    public = GAME.view(state, None)
    json.dumps(public)
    assert all(p["vp"] is None for p in public["players"])
    for seat in range(4):
        own = GAME.view(state, seat)
        assert [p["vp"] is not None for p in own["players"]] == [s == seat for s in range(4)]
