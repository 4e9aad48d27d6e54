"""bench.puerto_rico.peer: our classic engine beside a peer's, when a checkout of it is given."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.puerto_rico import peer

FAKE = '''
class GameConfig:
    def __init__(self, num_players, seed):
        self.num_players, self.seed = num_players, seed


class Game:
    """A stand-in with the peer's interface: a game of 3 moves per player."""

    def __init__(self, config):
        self.left = 3 * config.num_players

    @property
    def is_terminal(self):
        return self.left == 0

    def legal_actions(self):
        return ["a", "b"]

    def apply(self, action, validate=True):
        assert not validate and action in ("a", "b")
        self.left -= 1
'''


def fake_peer(root: Path) -> Path:
    engine = root / "puerto_rico" / "engine"
    engine.mkdir(parents=True)
    for folder in (root / "puerto_rico", engine):
        (folder / "__init__.py").write_text("")
    (engine / "game.py").write_text(FAKE)
    (engine / "state.py").write_text("from .game import GameConfig\n")
    return root


def test_without_a_peer_it_says_so_and_measures_ours(capsys: pytest.CaptureFixture[str]) -> None:
    assert peer.main(["--games", "2", "--repeat", "1", "--players", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["peer"] is None and "no peer checkout" in out["why"]
    figure = out["players"]["2"]
    assert set(figure) == {"ours"} and figure["ours"]["actions_per_game"] > 100


@pytest.fixture
def forget_the_peer() -> Iterator[None]:
    """The fake peer's modules leave ``sys.modules`` with the test."""
    yield
    for name in [n for n in sys.modules if n == "puerto_rico" or n.startswith("puerto_rico.")]:
        del sys.modules[name]


@pytest.mark.usefixtures("forget_the_peer")
def test_a_peer_checkout_plays_the_same_seeds_beside_ours(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = fake_peer(tmp_path / "peer")
    assert peer.main(["--peer", str(root), "--games", "3", "--chunk", "2", "--repeat", "2",
                      "--players", "2", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["peer"] == str(root) and out["why"] is None
    for players in (2, 4):
        figure = out["players"][str(players)]
        assert figure["peer"]["actions_per_game"] == 3 * players
        assert len(figure["ratios"]) == 2 and figure["ratio"] > 0


def test_a_folder_without_the_peer_is_refused(tmp_path: Path) -> None:
    play, why = peer.peer(str(tmp_path))
    assert play is None and "puerto_rico/engine/game.py" in why
