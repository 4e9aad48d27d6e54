"""``bench.render``: the games it measures are the renderer registry's, each at the player
counts its engine plays (no list of games by hand)."""

from __future__ import annotations

from bench import render as bench
from bench.engine import player_counts
from engine import game_names
from render import renderer_names


def test_it_measures_every_drawn_game_at_its_player_counts() -> None:
    measured = bench.games()
    assert list(measured) == [name for name in renderer_names() if name in game_names()]
    assert {"puerto-rico", "san-juan"} <= set(measured)
    for name, counts in measured.items():
        assert counts == player_counts(name) and counts, name
    assert measured["san-juan"] == [2, 3, 4] and measured["puerto-rico"] == [2, 3, 4, 5]
