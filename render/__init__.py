"""Board images: an engine view -> PNG bytes, drawn procedurally with Pillow.

Two steps, kept apart so the first can be tested by assertions:

* layout (pure): ``layout_table(view, ...)`` / ``layout_scoresheet(outcome, ...)`` -> a
  :class:`~render.scene.Scene` of positioned shapes, text and named regions;
* raster: ``render_png(scene)`` -> PNG bytes (cached static layer, fixed palette).

Everything is synchronous and thread-safe: the bot calls these in a worker thread.  The input is
always a view (``game.view(state, viewer)``), never the state, so an image can show only what
its viewer may see.

    render_table(view, names=None, labels=None, highlights=None, status=None) -> bytes
    render_panel(view, seat=None, focus=None, highlights=None, names=None, labels=None) -> bytes
    render_scoresheet(outcome_or_view, names=None, labels=None) -> bytes
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .highlights import EventLike, highlight_keys
from .labels import ENGLISH, Labels
from .layout import layout_table
from .panel import FOCUSES, layout_panel, panel_focus
from .raster import render_png
from .scene import Box, Scene
from .scoresheet import layout_scoresheet

Names = Sequence[str] | Mapping[int, str] | None
LabelTable = Labels | Mapping[str, str] | None


def render_table(
    view: Mapping[str, Any],
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelTable = None,
    status: str | None = None,
) -> bytes:
    """PNG of the table for ``view``: the public view (``viewer`` null) for the channel, or a
    seat's view for that player's private panel (adds his VP chips and his building prices).

    ``highlights``: the events of the last phase (``engine.core.Event`` or their JSON), framed
    on the image; ``names``: display names by seat (default "Seat 1"...); ``labels``: overrides
    of the English words (see ``render.labels.ENGLISH``); ``status``: a line saying what the
    image shows, in place of the phase and whose turn it is (a board kept for the record)."""
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
    viewer), then the part of the table its decision needs (``focus``, one of
    ``render.FOCUSES``; default: ``panel_focus(view, seat)``).  See ``render.panel``."""
    return render_png(layout_panel(view, seat, focus, highlights, names=names, labels=labels))


def render_scoresheet(
    outcome: Mapping[str, Any],
    *,
    names: Names = None,
    labels: LabelTable = None,
) -> bytes:
    """PNG of the final score sheet.  ``outcome`` is ``view["outcome"]`` (or
    ``game.outcome(state).to_json()``); a whole finished view is accepted too."""
    return render_png(layout_scoresheet(outcome, names=names, labels=labels))


__all__ = [
    "ENGLISH",
    "FOCUSES",
    "Box",
    "Labels",
    "Scene",
    "highlight_keys",
    "layout_panel",
    "layout_scoresheet",
    "layout_table",
    "panel_focus",
    "render_panel",
    "render_png",
    "render_scoresheet",
    "render_table",
]
