"""The story of a finished game (engine/story.py), for every game of the registry: the score
round by round ends on the outcome, and the choices count every role chosen and building built."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import game_names, get_game
from engine.policies import make_policy
from engine.simulate import play_game, policy_seed
from engine.story import choices, score_history


def _played(
    name: str, players: int, seed: int
) -> tuple[Any, dict[str, Any], list[tuple[int, str]]]:
    game = get_game(name)
    options = game.normalize_options({"players": players})
    policies = [make_policy("heuristic", name, policy_seed(seed, s)) for s in range(players)]
    result = play_game(game, options, seed, policies)
    return game, options, [(seat, code) for seat, code in result.actions]


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("players", [2, 4])
def test_the_score_by_round_starts_at_the_setup_and_ends_on_the_outcome(
    name: str, players: int
) -> None:
    game, options, moves = _played(name, players, 21)
    history = score_history(game, options, 21, moves)
    state = game.setup(options, 21)
    assert history.totals[0] == tuple(s.total for s in game.standing(state).scores)
    # one point per round that ended, in order, the last one the end of the game
    assert history.rounds == tuple(range(len(history.rounds)))
    assert len(history.rounds) >= 5
    for seat, code in moves:
        state, _ = game.apply(state, seat, game.decode_action(code))
    outcome = game.outcome(state)
    assert outcome is not None and history.final == outcome
    assert history.totals[-1] == tuple(s.total for s in outcome.scores)
    assert history.rounds[-1] == game.round(state)
    assert all(len(t) == players for t in history.totals)
    assert history.to_json()["winners"] == list(outcome.winners)
    # the VP chips and Chapel cards count: somebody scored before the end
    assert max(history.totals[-2]) > 0


def test_the_score_of_a_round_is_the_standing_when_it_ended() -> None:
    game, options, moves = _played("puerto-rico", 3, 4)
    history = score_history(game, options, 4, moves)
    state = game.setup(options, 4)
    at_round_end = {}
    for seat, code in moves:
        before = game.round(state)
        state, _ = game.apply(state, seat, game.decode_action(code))
        if game.round(state) != before:
            at_round_end[before] = tuple(s.total for s in game.standing(state).scores)
    for r, totals in zip(history.rounds[1:-1], history.totals[1:-1], strict=True):
        assert at_round_end[r] == totals


@pytest.mark.parametrize("name", game_names())
def test_choices_count_every_role_chosen_and_every_building_built(name: str) -> None:
    game, options, moves = _played(name, 3, 8)
    state = game.setup(options, 8)
    logs = []
    for seat, code in moves:
        state, events = game.apply(state, seat, game.decode_action(code))
        logs.append([e.to_json() for e in events])
    counted = choices(logs)
    roles: Counter[int] = Counter()
    built: Counter[int] = Counter()
    for events in logs:
        for e in events:
            if e["type"] == "RoleChosen":
                roles[e["seat"]] += 1
            elif e["type"] == "BuildingBuilt":
                built[e["seat"]] += 1
    assert sum(roles.values()) >= 3 * 5 and sum(built.values()) >= 3
    for seat in range(3):
        assert (
            sum(n for (s, k, _), n in counted.items() if s == seat and k == "role") == roles[seat]
        )
        assert (
            sum(n for (s, k, _), n in counted.items() if s == seat and k == "building")
            == built[seat]
        )
    assert all(isinstance(name, str) and name for _, _, name in counted)


def test_choices_skip_what_they_cannot_read() -> None:
    events: list[list[dict[str, Any]]] = [
        [
            {"type": "RoleChosen", "seat": None, "data": {"role": "mayor"}},
            {"type": "RoleChosen", "seat": 1, "data": {}},
            {"type": "BuildingBuilt", "seat": 0, "data": {"card": "smithy"}},
            {"type": "GoodsShipped", "seat": 0, "data": {"good": "corn"}},
        ]
    ]
    assert choices(events) == Counter({(0, "building", "smithy"): 1})
