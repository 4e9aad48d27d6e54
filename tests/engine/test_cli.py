"""The engine's command line (kept exact: it is used for acceptance)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_simulate_json_has_every_documented_field() -> None:
    proc = run(
        "simulate",
        "--game",
        "puerto-rico",
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


def test_simulate_digest_is_stable_and_policies_mix() -> None:
    args = (
        "simulate",
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


def test_replay_of_a_finished_golden_game_has_the_outcome() -> None:
    proc = run("replay", str(ROOT / "tests" / "golden" / "pr-4p-heuristic.json"))
    data = json.loads(proc.stdout)
    assert data["prompt"] is None and data["outcome"]["winners"]
