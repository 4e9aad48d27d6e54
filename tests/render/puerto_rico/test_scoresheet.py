"""The final score sheet: each player's chips, building VP, each large-building bonus, total,
tie-break and rank, with the winners marked."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import layout_scoresheet, render_png, render_scoresheet
from render import theme as T
from tests.render.helpers import played, problems


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_part_of_every_score_is_written(players: int) -> None:
    game = played(players, 11, 0, True)
    outcome = game.game.outcome(game.state)
    assert outcome is not None
    data = outcome.to_json()
    scene = layout_scoresheet(data, game="puerto-rico")
    assert problems(scene) == []
    texts = scene.regions
    for score in data["scores"]:
        seat = score["seat"]
        assert f"score:{seat}:name" in texts
        written = {t.text for t in scene.texts if scene.regions[f"score:{seat}"].contains(t.box)}
        for part, value in score["breakdown"].items():
            assert f"score:{seat}:{part}" in texts, part
            assert str(value) in written
        assert str(score["total"]) in written and str(score["tiebreak"]) in written
        for part in ("chips", "buildings", "total", "tiebreak", "rank"):
            assert f"score:{seat}:{part}" in texts
    words = " ".join(t.text for t in scene.texts)
    assert "Winner" in words


def test_the_winner_column_is_gold_and_a_shared_victory_names_everyone() -> None:
    outcome = {
        "scores": [
            {"seat": 0, "total": 50, "breakdown": {"chips": 30, "buildings": 15, "residence": 5},
             "tiebreak": 7, "rank": 1},
            {"seat": 1, "total": 50, "breakdown": {"chips": 35, "buildings": 15},
             "tiebreak": 7, "rank": 1},
            {"seat": 2, "total": 41, "breakdown": {"chips": 20, "buildings": 13, "guild_hall": 8},
             "tiebreak": 3, "rank": 3},
        ],
        "winners": [0, 1],
        "end_reasons": ["vp_chips"],
    }
    names = ["Ana", "Bérénice", "Çağrı"]
    scene = layout_scoresheet(outcome, game="puerto-rico", names=names)
    assert problems(scene) == []
    words = " ".join(t.text for t in scene.texts)
    assert "Shared victory: Ana, Bérénice" in words
    assert "Residence bonus" in words and "Guild hall bonus" in words
    assert "VP chips ran out" in words
    image = Image.open(io.BytesIO(render_png(scene))).convert("RGB")
    for seat, gold in ((0, True), (1, True), (2, False)):
        box = scene.regions[f"score:{seat}"]
        pixel = image.getpixel((box.x + 6, box.bottom - 6))
        assert (pixel == T.WINNER) is gold, seat


def test_a_finished_view_is_accepted_too() -> None:
    game = played(3, 11, 0, True)
    view = game.view()
    assert view["game_over"]
    png = render_scoresheet(view, game="puerto-rico")
    assert png == render_scoresheet(view["outcome"], game="puerto-rico")
    assert Image.open(io.BytesIO(png)).size[0] == T.WIDTH
