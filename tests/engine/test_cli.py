"""The engine's command line (kept exact: it is used for acceptance); the simulate and replay
commands are checked for every game of the registry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import game_names, get_game, replay
from engine.policies import make_policy

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("game", game_names())
def test_simulate_json_has_every_documented_field(game: str) -> None:
    proc = run(
        "simulate",
        "--game",
        game,
        "--players",
        "3",
        "--games",
        "5",
        "--seed",
        "9",
        "--check",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in (
        "games",
        "actions",
        "seconds",
        "games_per_s",
        "actions_per_s",
        "mean_rounds",
        "end_reasons",
        "wins_by_seat",
        "mean_winning_score",
        "digest",
        "invariant_failures",
    ):
        assert key in data
    assert data["games"] == 5 and data["invariant_failures"] == 0
    assert abs(sum(data["wins_by_seat"]) - 5) < 1e-6  # ties are split
    assert sum(data["end_reasons"].values()) >= 5


@pytest.mark.parametrize("game", game_names())
def test_simulate_digest_is_stable_and_policies_mix(game: str) -> None:
    args = (
        "simulate",
        "--game",
        game,
        "--players",
        "4",
        "--games",
        "3",
        "--seed",
        "1",
        "--json",
        "--policies",
        "heuristic,random,random,random",
    )
    first, second = run(*args), run(*args)
    assert json.loads(first.stdout)["digest"] == json.loads(second.stdout)["digest"]
    assert json.loads(first.stdout)["policies"] == ["heuristic", "random", "random", "random"]


def test_simulate_rejects_bad_arguments() -> None:
    assert run("simulate", "--players", "7", "--games", "1").returncode == 2
    assert run("simulate", "--players", "3", "--policies", "heuristic,random").returncode == 2
    assert run("simulate", "--game", "chess", "--players", "2").returncode == 2
    assert run("simulate", "--game", "san-juan", "--players", "5", "--games", "1").returncode == 2
    assert run("simulate", "--players", "3", "--options", "[1]").returncode == 2
    assert run("simulate", "--players", "3", "--options", "{").returncode == 2
    bad = run("simulate", "--game", "san-juan", "--players", "3", "--options", '{"x": 1}')
    assert bad.returncode == 2 and "unknown_option" in bad.stderr


def test_simulate_passes_options() -> None:
    """``--options`` reaches the game: San Juan's variant start."""
    proc = run(
        "simulate",
        "--game",
        "san-juan",
        "--players",
        "2",
        "--games",
        "2",
        "--options",
        '{"variant_start": true}',
        "--check",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["invariant_failures"] == 0


def _first_actions(game_name: str, count: int) -> tuple[dict[str, object], list[list[object]]]:
    game = get_game(game_name)
    options = game.option_sets()[1]
    state = game.setup(options, 4)
    policies = [make_policy("random", game_name, s) for s in range(options["players"])]
    actions: list[list[object]] = []
    for _ in range(count):
        prompt = game.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        action = policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        actions.append([seat, game.encode_action(action)])
        state, _ = game.apply(state, seat, action)
    return options, actions


@pytest.mark.parametrize("game", game_names())
def test_replay_of_any_game_prints_its_prompt_and_public_view(game: str, tmp_path: Path) -> None:
    options, actions = _first_actions(game, 6)
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": game, "options": options, "seed": 4, "actions": actions}))
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    state, _ = replay(game, options, 4, actions)
    engine_game = get_game(game)
    prompt = engine_game.prompt(state)
    assert prompt is not None
    assert data["version"] == 6
    assert data["view"] == json.loads(json.dumps(engine_game.view(state, None)))
    assert data["prompt"]["seats"] == list(prompt.seats) and data["prompt"]["kind"] == prompt.kind
    for seat in prompt.seats:
        legal = [engine_game.encode_action(a) for a in engine_game.legal_actions(state, seat)]
        assert data["prompt"]["legal"][str(seat)] == legal


@pytest.mark.parametrize("game", game_names())
def test_replay_of_any_game_names_the_failing_action(game: str, tmp_path: Path) -> None:
    options, actions = _first_actions(game, 3)
    actions[2][1] = "no.such.code"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": game, "options": options, "seed": 4, "actions": actions}))
    proc = run("replay", str(path))
    assert proc.returncode == 1
    assert "action 2" in proc.stderr and "unknown_action" in proc.stderr


def test_replay_prints_prompt_view_and_outcome(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(
        json.dumps(
            {
                "game": "puerto-rico",
                "options": {"players": 3},
                "seed": 4,
                "actions": [[0, "r.settler"], [0, "s.quarry"]],
            }
        )
    )
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["version"] == 2
    assert data["prompt"]["seats"] == [1] and data["prompt"]["kind"] == "settle"
    assert "pass" in data["prompt"]["legal"]["1"]
    assert data["view"]["quarries_left"] == 7
    assert data["outcome"] is None
    assert all(p["vp"] is None for p in data["view"]["players"])


def test_replay_names_the_index_of_an_illegal_action(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "game": "puerto-rico",
                "options": {"players": 3},
                "seed": 4,
                "actions": [[0, "r.settler"], [1, "s.quarry"]],
            }
        )
    )
    proc = run("replay", str(path))
    assert proc.returncode == 1
    assert "action 1" in proc.stderr and "not_your_turn" in proc.stderr


def test_replay_of_a_file_without_its_seed_says_why_it_cannot(tmp_path: Path) -> None:
    """A game exported while it was played (``/game log export``) has no seed yet."""
    path = tmp_path / "early.json"
    path.write_text(json.dumps({"game": "puerto-rico", "options": {"players": 3}, "seed": None,
                                "actions": [[0, "r.settler"]]}))
    proc = run("replay", str(path))
    assert proc.returncode == 2 and "has no seed" in proc.stderr, proc.stderr


def test_replay_of_a_finished_golden_game_has_the_outcome() -> None:
    proc = run("replay", str(ROOT / "tests" / "golden" / "pr-4p-heuristic.json"))
    data = json.loads(proc.stdout)
    assert data["prompt"] is None and data["outcome"]["winners"]
