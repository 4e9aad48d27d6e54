"""San Juan's score sheet (§6.2, §6.3): building VP, Chapel cards, each cost-6 bonus someone
scored, total, tie-break (cards in hand + goods) and rank, the winners' columns gold."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import layout_scoresheet, render_png, render_scoresheet
from render import theme as T
from render.san_juan.labels import as_labels
from render.san_juan.scoresheet import score_parts
from tests.render.san_juan import fixtures as F
from tests.render.san_juan.checks import LANGUAGES, all_words, problems, words


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_part_of_every_score_is_written(players: int, language: str) -> None:
    data = F.outcome(players)
    scene = layout_scoresheet(data, game="san-juan", names=F.LONG_NAMES[:players],
                              labels=LANGUAGES[language])
    assert problems(scene) == []
    for score in data["scores"]:
        seat = score["seat"]
        for part, value in score["breakdown"].items():
            assert words(scene, f"score:{seat}:{part}") == str(value), part
        assert words(scene, f"score:{seat}:total") == str(score["total"])
        assert words(scene, f"score:{seat}:tiebreak") == str(score["tiebreak"])
        assert f"score:{seat}:rank" in scene.regions


def test_the_rows_follow_the_scoring_order() -> None:
    """Printed VP, Chapel cards, then the cost-6 bonuses in the rules' order with the Palace
    last (it is scored last, §6.2); a bonus nobody scored has no row."""
    lb = as_labels(None)
    rows = score_parts(F.outcome(4)["scores"], lb)
    assert [k for k, _ in rows] == ["buildings", "chapel", "guild_hall", "city_hall",
                                    "triumphal_arch", "palace"]
    assert [w for _, w in rows][:3] == ["Building VP", "Chapel cards", "Guild hall bonus"]
    assert [k for k, _ in score_parts(F.outcome(4)["scores"][2:], lb)] == ["buildings",
                                                                          "chapel",
                                                                          "triumphal_arch"]


def test_a_shared_victory_names_everyone_and_gilds_their_columns() -> None:
    """A-11: equal VP and equal tie-break: both win."""
    data = F.outcome(3, shared=True)
    assert data["winners"] == [0, 1]
    names = ["Ana", "Bérénice", "Çağrı"]
    scene = layout_scoresheet(data, game="san-juan", names=names)
    assert problems(scene) == []
    text = all_words(scene)
    assert "Shared victory: Ana, Bérénice" in text
    assert "Tie-break: cards in hand + goods at the end" in text
    assert "Game over: a player has 12 buildings" in text
    image = Image.open(io.BytesIO(render_png(scene))).convert("RGB")
    for seat, gold in ((0, True), (1, True), (2, False)):
        box = scene.regions[f"score:{seat}"]
        assert (image.getpixel((box.x + 6, box.bottom - 6)) == T.WINNER) is gold, seat


def test_spanish_rows() -> None:
    scene = layout_scoresheet(F.outcome(4), game="san-juan", labels=LANGUAGES["es"])
    text = all_words(scene)
    for word in ("Puntuación final", "PV de edificios", "Cartas de la capilla",
                 "Bonificación: Palacio", "Desempate: cartas en la mano + mercancías al final"):
        assert word in text


def test_a_finished_view_with_its_outcome_is_accepted_too() -> None:
    data = F.outcome(2)
    png = render_scoresheet({"outcome": data}, game="san-juan")
    assert png == render_scoresheet(data, game="san-juan")
