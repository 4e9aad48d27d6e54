"""Board images: an engine view -> PNG bytes, drawn procedurally with Pillow.

Two steps, kept apart so the first can be tested by assertions:

* layout (pure): ``layout_table(view, ...)`` / ``layout_scoresheet(outcome, game=...)`` -> a
  :class:`~render.scene.Scene` of positioned shapes, text and named regions;
* raster: ``render_png(scene)`` -> PNG bytes (cached static layer, fixed palette).

Everything is synchronous and thread-safe: the bot calls these in a worker process.  The input is
always a view (``game.view(state, viewer)``), never the state, so an image can show only what
its viewer may see.  The view names its game (``view["game"]``); each game draws itself in its own
package (``render/<game>/``, found through :mod:`render.games`), on the shared toolkit (scene,
raster, fonts, theme, widgets, labels, the score sheet).

    render_table(view, highlights=None, names=None, labels=None, status=None) -> bytes
    render_panel(view, seat=None, focus=None, highlights=None, names=None, labels=None) -> bytes
    render_scoresheet(outcome_or_view, game=..., names=None, labels=None) -> bytes
    render_chart(history, game=..., names=None, labels=None) -> bytes
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .chart import layout_chart
from .games import GameRenderer, game_of, register_renderer, renderer_for, renderer_names
from .highlights import EventLike
from .labels import Labels
from .raster import render_png
from .scene import Box, Scene

Names = Sequence[str] | Mapping[int, str] | None
LabelTable = Labels | Mapping[str, str] | None


def layout_table(
    view: Mapping[str, Any],
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelTable = None,
    status: str | None = None,
) -> Scene:
    """The table's scene for ``view``, drawn by its game's renderer."""
    return renderer_for(game_of(view)).layout_table(
        view, highlights, names=names, labels=labels, status=status)


def layout_panel(
    view: Mapping[str, Any],
    seat: int | None = None,
    focus: str | None = None,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelTable = None,
) -> Scene:
    """A player's private panel's scene, drawn by the view's game's renderer."""
    return renderer_for(game_of(view)).layout_panel(
        view, seat, focus, highlights, names=names, labels=labels)


def panel_focus(view: Mapping[str, Any], seat: int) -> str:
    """The part of the table ``seat``'s panel shows by default."""
    return renderer_for(game_of(view)).panel_focus(view, seat)


def layout_scoresheet(
    outcome: Mapping[str, Any],
    *,
    game: str,
    names: Names = None,
    labels: LabelTable = None,
) -> Scene:
    """The score sheet's scene of a finished ``game``."""
    return renderer_for(game).layout_scoresheet(outcome, names=names, labels=labels)


def render_table(
    view: Mapping[str, Any],
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelTable = None,
    status: str | None = None,
) -> bytes:
    """PNG of the table for ``view``: the public view (``viewer`` null) for the channel, or a
    seat's view for that player's private panel.

    ``highlights``: the events of the last phase (``engine.core.Event`` or their JSON), framed
    on the image; ``names``: display names by seat (default "Seat 1"...); ``labels``: overrides
    of the game's English words (its renderer's ``english``); ``status``: a line saying what
    the image shows, in place of the phase and whose turn it is (a board kept for the record)."""
    return render_png(layout_table(view, highlights, names=names, labels=labels, status=status))


def render_panel(
    view: Mapping[str, Any],
    seat: int | None = None,
    focus: str | None = None,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelTable = None,
) -> bytes:
    """PNG of a player's private panel: ``seat``'s own board first (default: the view's
    viewer), then the part of the table its decision needs (``focus``, one of its renderer's
    ``focuses``; default: ``panel_focus(view, seat)``)."""
    return render_png(layout_panel(view, seat, focus, highlights, names=names, labels=labels))


def render_scoresheet(
    outcome: Mapping[str, Any],
    *,
    game: str,
    names: Names = None,
    labels: LabelTable = None,
) -> bytes:
    """PNG of the final score sheet of ``game``.  ``outcome`` is ``view["outcome"]`` (or
    ``game.outcome(state).to_json()``); a whole finished view is accepted too."""
    return render_png(layout_scoresheet(outcome, game=game, names=names, labels=labels))


def layout_game_chart(
    history: Mapping[str, Any],
    *,
    game: str,
    names: Names = None,
    labels: LabelTable = None,
) -> Scene:
    """The scene of a finished ``game``'s chart: each seat's score by round (``history``:
    ``engine.story.ScoreHistory.to_json()``) and, where the game splits a score (its renderer's
    ``score_split``), where each seat's points came from (``history["breakdowns"]``, with the
    points taken during play by source, ``history["gains"]``).  The split's parts are worded
    by ``labels``, else the game's English."""
    renderer = renderer_for(game)
    split = renderer.score_split
    breakdowns = history.get("breakdowns")
    if split is not None and isinstance(breakdowns, Sequence):
        gains = history.get("gains")
        by_seat = list(gains) if isinstance(gains, Sequence) else []
        history = {**history, "split": [
            [list(p) for p in split(b, by_seat[s] if s < len(by_seat) else None)]
            for s, b in enumerate(breakdowns)]}
    words = labels if isinstance(labels, Labels) else {**renderer.english, **(labels or {})}
    return layout_chart(history, names=names, labels=words)


def render_chart(
    history: Mapping[str, Any],
    *,
    game: str,
    names: Names = None,
    labels: LabelTable = None,
) -> bytes:
    """PNG of a finished ``game``'s chart (:func:`layout_game_chart`)."""
    return render_png(layout_game_chart(history, game=game, names=names, labels=labels))


__all__ = [
    "Box",
    "GameRenderer",
    "Labels",
    "Scene",
    "layout_game_chart",
    "layout_panel",
    "layout_scoresheet",
    "layout_table",
    "panel_focus",
    "register_renderer",
    "render_chart",
    "render_panel",
    "render_png",
    "render_scoresheet",
    "render_table",
    "renderer_for",
    "renderer_names",
]
