"""No word a player needs is cut (issue #33, item 9: "Caixotes res…", "Trabalhador…", "Usina
grande de açúc…" on 1897's Portuguese table, "…ganha a recompe…" on its panel, "Biblioteca
sobre: Fundición d…" on San Juan's story image, "finn → AI 3 (str…" in the chart's legend).

Every image of every game is drawn in every language with every label at its longest: each
kind of name (roles, buildings and their short forms, cards, goods, effects, Festival
activities, Achievements, phases, prompts...) takes the widest word of its kind in that
language, so whatever building stands in a cell, the cell holds the widest one; the image's own
words (``bot/games/*/i18n/*.images.json``, ``render/*/labels.py``) are drawn as the catalog has
them; players carry long names.  The fitting functions (:func:`render.fonts.fit` and
:func:`render.fonts.wrap`) record every text they shorten (:func:`render.fonts.recording_cuts`),
which sees every cut, in the cached background too, without reading pixels.

Names (the rule the layouts follow, ``docs/render.md``): an AI's name ("IA 3 (difícil)") and a
seat's handover ("finn → AI 3 (strong)") are never cut.  A display name as long as Discord allows
(32 characters) is whole where it heads a player's area (the table's player panel, the private
panel's band, the score sheet's column, the chart's legend and bars); on a tag that only points
at a player (who took a role card, who holds the Buccaneer's token, who met a Festival goal or
activity) it may end with an ellipsis: the table's role buttons and its log lines name the
player in full in the message text, and the player's own area on the same image does.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any

import pytest

from bot.i18n import CATALOG
from bot.rendering import image_labels
from engine.puerto_rico.data import BASE_BUILDINGS, NEW_BUILDINGS, NOBLES_BUILDINGS
from render import fonts, layout_panel, layout_scoresheet, layout_table
from render.chart import CHART_LABELS, layout_chart
from render.games import renderer_for
from render.sample import Played, play
from render.scene import Scene

LANGUAGES = ("en", "es", "pt")

GROUPS = (
    "role", "building", "good", "card", "effect", "privilege", "activity", "achievement",
    "task", "phase", "prompt", "end", "ui.puertoma.skill",
)
"""Kinds of names: every key of a kind (its key without the last part, ``building.harbor`` ->
``building``) takes the widest word of the kind, among those with the same fields (and, for
Puerto Rico's buildings, drawn in the same kind of cell: :data:`CELLS`)."""

SHORTENED = {"building": "short", "card": "short"}
"""A name's short form (``short.<id>``, else the name itself) where a layout prefers it."""

OPTIONS: dict[str, list[tuple[dict[str, Any], tuple[int, ...]]]] = {
    "puerto-rico": [
        ({}, (2, 5)),
        ({"modules": ["new_buildings", "nobles", "buccaneer", "festival"]}, (2, 5)),
    ],
    "puerto-rico-1897": [
        ({"expansions": [1, 2, 3, 4, 5, 6]}, (2, 5)),
        ({"expansions": [3, 4, 5], "puertomas": 2}, (3,)),
    ],
    "san-juan": [({}, (2, 4))],
}
"""Option sets that draw every part of a game's images, at its fewest and most players."""

ACTIONS = (0, 9, 60, 150)
"""Positions of each game: the start, the New Buildings' draft, two later ones (and the end)."""

DISPLAY_NAME = "Wolfgang Maximilian de Habsburgo"
"""As long as a Discord display name may be (32 characters), wide letters."""


def _fields(text: str) -> frozenset[str]:
    return frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f)


def _width(text: str) -> float:
    return fonts.length(text, 22, True)


def _word_width(text: str) -> float:
    return max((fonts.length(w, 22, True) for w in text.split()), default=0.0)


def widest(table: Mapping[str, str], width: Callable[[str], float] = _width) -> dict[str, str]:
    """``table`` with every name of a kind replaced by the widest of its kind (see
    :data:`GROUPS`), and every short form by the widest short form; ``width`` measures
    (the whole text, or its widest word: a word too long for a line is cut too)."""
    out = dict(table)

    kinds: dict[tuple[str, frozenset[str], object], list[str]] = {}
    for key, text in table.items():
        kind, _, name = key.rpartition(".")
        if kind in GROUPS:
            kinds.setdefault((kind, _fields(text), CELLS.get(name)), []).append(key)
    for keys in kinds.values():
        word = max((table[k] for k in keys), key=width)
        out.update(dict.fromkeys(keys, word))
    for kind, short in SHORTENED.items():
        ids = [key.split(".", 1)[1] for key in table if key.rsplit(".", 1)[0] == kind]
        for cell in {CELLS.get(i) for i in ids}:
            same = [i for i in ids if CELLS.get(i) == cell]
            forms = [table.get(f"{short}.{i}", table[f"{kind}.{i}"]) for i in same]
            out.update(dict.fromkeys((f"{short}.{i}" for i in same), max(forms, key=width)))
    return out


CELLS: dict[str, tuple[int, int]] = {
    b.name: (b.size, b.circles)
    for b in (*BASE_BUILDINGS, *NEW_BUILDINGS, *NOBLES_BUILDINGS)
}
"""Puerto Rico's buildings by the cell they are drawn in (spaces, circles): a city's cell holds
the widest name among the buildings drawn in cells like it (a large building's cell is twice
as wide; circles take room from the name's second line)."""


@lru_cache(maxsize=32)
def labels_for(game: str, lang: str, words: bool = False) -> dict[str, str]:
    """``game``'s words in ``lang`` as the bot passes them (its catalog over the renderer's
    English, the chart's words too), every name at its longest (``words``: the one with the
    widest word)."""
    table = {**renderer_for(game).english, **CHART_LABELS,
             **CATALOG.section(lang, "chart."), **image_labels(game, lang)}
    return widest(table, _word_width if words else _width)


def names_for(lang: str, players: int) -> list[str]:
    """Long names: a 32-character display name, a handover to an AI with the widest level of
    ``lang``, none (the image's own "Seat 3"), then AI names."""
    levels = [CATALOG.t(lang, f"level.{k}") for k in ("random", "heuristic", "strong")]
    level = max(levels, key=lambda w: fonts.length(w, 22, True))
    ai = [CATALOG.t(lang, "table.ai_name", n=n + 1, level=level) for n in range(players)]
    return [DISPLAY_NAME, f"finn → {ai[1]}", "", *ai[3:]][:players]


@lru_cache(maxsize=64)
def _played(game: str, options: str, players: int, actions: int | None) -> Played:
    import json

    return play(game, players, 7, actions or 0, finish=actions is None,
                options=json.loads(options))


def positions(game: str) -> Iterator[tuple[str, Played]]:
    import json

    for options, counts in OPTIONS[game]:
        for players in counts:
            for actions in (*ACTIONS, None):
                yield (f"{options} {players}p {actions}",
                       _played(game, json.dumps(options, sort_keys=True), players, actions))


def _players(view: Mapping[str, Any]) -> int:
    count = view["players"]
    return count if isinstance(count, int) else len(count)


def scenes(game: str, labels: Mapping[str, str], lang: str) -> Iterator[tuple[str, Any]]:
    """(name, a function drawing one image) for every image of ``game`` with ``labels``."""
    renderer = renderer_for(game)
    for where, p in positions(game):
        players = _players(p.view())
        names = names_for(lang, players)
        role = max((v for k, v in labels.items() if k.startswith("role.")), key=len)
        status = CATALOG.t(lang, "story.ended", round=12, role=role, name=names[0])
        yield (f"{where} table",
               lambda p=p, n=names: layout_table(p.view(), p.highlights(), names=n,
                                                 labels=labels))
        yield (f"{where} story",
               lambda p=p, n=names, s=status: layout_table(p.view(), p.highlights(), names=n,
                                                           labels=labels, status=s))
        for seat in range(players):
            yield (f"{where} seat {seat}",
                   lambda p=p, n=names, s=seat: layout_table(p.view(s), names=n, labels=labels))
            for focus in renderer.focuses:
                yield (f"{where} panel {seat} {focus}",
                       lambda p=p, n=names, s=seat, f=focus: layout_panel(
                           p.view(s), s, f, p.highlights(s), names=n, labels=labels))
        outcome = p.game.outcome(p.state)
        if outcome is not None:
            scores = outcome.to_json()
            yield (f"{where} scores",
                   lambda o=scores, n=names: layout_scoresheet(o, game=game, names=n,
                                                               labels=labels))
            yield f"{where} chart", lambda o=scores, n=names: _chart(game, o, n, labels)


def _chart(game: str, outcome: Mapping[str, Any], names: list[str],
           labels: Mapping[str, str]) -> Scene:
    """The chart of a game that ended with ``outcome`` (a made-up history reaching it)."""
    final = [0] * len(outcome["scores"])
    for score in outcome["scores"]:
        final[int(score["seat"])] = int(score["total"])
    rounds = list(range(16))
    history: dict[str, Any] = {
        "rounds": rounds,
        "totals": [[v * r // 15 for v in final] for r in rounds],
        "winners": list(outcome["winners"]),
    }
    split = renderer_for(game).score_split
    if split is not None:
        by_seat = sorted(outcome["scores"], key=lambda s: int(s["seat"]))
        history["split"] = [[list(part) for part in split(s["breakdown"])] for s in by_seat]
    return layout_chart(history, names=names, labels=labels)


def cuts(game: str, lang: str) -> list[str]:
    """Every text shortened while drawing ``game``'s images in ``lang`` (every name at its
    widest, then with its widest word), with where; but a display name on a tag that says
    the name is whole elsewhere."""
    found: dict[tuple[str, str], str] = {}
    names = [n for n in names_for(lang, 5) if n]
    for words in (False, True):
        for name, draw in scenes(game, labels_for(game, lang, words), lang):
            with fonts.recording_cuts() as shortened:
                draw()
            for cut in shortened:
                named = any(n in cut.text or cut.text in n for n in names)
                if not (cut.elsewhere and named):
                    found.setdefault((cut.text, cut.shown), name)
    return [f"{where}: {text!r} -> {shown!r}" for (text, shown), where in found.items()]


def _one_language_each() -> list[Any]:
    """Every (game, language); the fast tier keeps one language of each game, a different one
    for each game (``tests/tiers.py``)."""
    games = sorted(OPTIONS)
    return [pytest.param(game, lang, marks=() if i == g % len(LANGUAGES) else pytest.mark.slow)
            for g, game in enumerate(games) for i, lang in enumerate(LANGUAGES)]


@pytest.mark.parametrize(("game", "lang"), _one_language_each())
def test_no_word_is_cut(game: str, lang: str) -> None:
    """Every label of every image in every language, at its longest, shows whole: wrapped,
    shrunk or given room, never ellipsized or clipped."""
    found = cuts(game, lang)
    assert not found, "\n".join(found)
