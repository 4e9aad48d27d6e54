"""Golden transcripts (ARCHITECTURE.md, testing layer 3): complete games replay to the recorded
outcome and final state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import game_names, get_game, replay
from tests.engine.golden import GOLDEN_DIR, state_hash

FILES = sorted(GOLDEN_DIR.glob("*.json"))


def test_there_are_golden_games() -> None:
    """At least four recorded games of every game of the registry."""
    games = [json.loads(path.read_text())["game"] for path in FILES]
    for name in game_names():
        assert games.count(name) >= 4, name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_game_replays_to_its_recorded_outcome(path: Path) -> None:
    data = json.loads(path.read_text())
    state, events = replay(data["game"], data["options"], data["seed"], data["actions"])
    game = get_game(data["game"])
    outcome = game.outcome(state)
    assert outcome is not None, "the recorded game must be finished"
    assert outcome.to_json() == data["expected"]["outcome"]
    assert state_hash(state, data["game"]) == data["expected"]["final_state_sha256"]
    assert events[-1].type == "GameEnded"
