"""The end chart's split in the game's language (issue #33): every source of VP chips a game
has is worded by its catalog in English, Spanish and Portuguese, with the words the bot gives
the chart (``Drawing.chart``: the generic ``chart.`` words and the game's image words), and a
played game with Church VP reads "Church", "Iglesia", "Igreja" beside its shipping."""

from __future__ import annotations

import pytest

from bot.i18n import CATALOG, LANGUAGES
from bot.rendering import image_labels
from engine import get_game
from engine.policies import make_policy
from engine.simulate import play_game, policy_seed
from engine.story import score_history
from render import layout_game_chart
from render.chart import CHART_LABELS, part_label
from render.games import renderer_for
from render.labels import Labels
from render.puerto_rico.scoresheet import CHIP_BUILDINGS, CHIP_SOURCES, SPENT

SOURCES = {
    "puerto-rico": ["shipping", *CHIP_BUILDINGS, "plunder", "festival", SPENT],
    "puerto-rico-1897": ["shipping", *CHIP_BUILDINGS, *CHIP_SOURCES, SPENT],
}
"""Each game's sources of VP chips (1897's only: Exp. V's activities, the Puertoma's skills)."""


def _labels(game: str, lang: str) -> Labels:
    """The chart's words as the bot passes them (``Drawing.chart``)."""
    words = {**CATALOG.section(lang, "chart."), **image_labels(game, lang)}
    return Labels({**renderer_for(game).english, **words}, CHART_LABELS)


@pytest.mark.parametrize("game", sorted(SOURCES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_source_is_worded_in_every_language(game: str, lang: str) -> None:
    split = renderer_for(game).score_split
    assert split is not None
    gains = {source: (-1 if source == SPENT else 1) for source in SOURCES[game]}
    parts = [p for p, _ in split({"chips": len(gains) - 2, "buildings": 1}, gains)]
    assert len(parts) == len(SOURCES[game]) + 2  # and the buildings, the bonuses
    words = {**CATALOG.section(lang, "chart."), **image_labels(game, lang)}
    labels = _labels(game, lang)
    for part in parts:  # the chart's first key found is the catalog's, in this language
        key = next(k for k in (f"chart.part.{part}", part, f"score.{part}") if labels.has(k))
        assert key in words and part_label(labels, part) == words[key], (part, lang)


@pytest.mark.parametrize(("game", "extra", "words"), [
    ("puerto-rico", {"modules": ["new_buildings"]},
     {"en": ("Church", "Shipping"), "es": ("Iglesia", "Envíos"), "pt": ("Igreja", "Embarques")}),
    ("puerto-rico-1897", {"expansions": [1]},
     {"en": ("Church", "Shipping"), "es": ("Iglesia", "Envíos"), "pt": ("Igreja", "Embarques")}),
])
def test_a_church_game_reads_in_three_languages(game: str, extra: dict[str, object],
                                                words: dict[str, tuple[str, str]]) -> None:
    engine = get_game(game)
    for seed in range(1, 80):
        options = engine.normalize_options({"players": 4, **extra})
        policies = [make_policy("heuristic", game, policy_seed(seed, s)) for s in range(4)]
        moves = [(s, c) for s, c in play_game(engine, options, seed, policies).actions]
        story = score_history(engine, options, seed, moves).to_json()
        if any(g.get("church") for g in story["gains"]):
            break
    else:
        raise AssertionError("no game with Church VP")
    for lang, (church, shipping) in words.items():
        scene = layout_game_chart(story, game=game, labels=_labels(game, lang))
        texts = {t.text for t in scene.texts}
        assert {church, shipping} <= texts, (lang, texts)
