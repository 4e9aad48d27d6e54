"""Drawing images off the event loop, tables first.

The renderer (``render.render_table``, or whatever a test passes) draws a board for a view:
the public view for the channel, a seat's view for that player's private panel.  Pillow holds
the GIL much of the time, so with many games at once the images compete: the channel's images
get their own two threads, and a private panel's image waits while a table is being drawn, so
a crowd of panels never delays the tables everybody waits for.  The score sheet is drawn once
per game.  A renderer that fails is logged and the caller gets ``None`` (a text table).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.core import Event

from .i18n import CATALOG, Catalog

log = logging.getLogger(__name__)

TABLE_THREADS = 2  # channel images at once; private panels get one thread of their own
STATUS = "status"
"""The image label carrying a story image's status line (:meth:`Drawing.board`)."""
IMAGE_LABELS = (
    "role.", "building.", "good.", "tile.", "phase.", "prompt.", "end.",
    "short.", "ui.", "legend.", "score.", "letter.",
)

Renderer = Callable[
    [Mapping[str, Any], Sequence[Event], Mapping[int, str], Mapping[str, str]], bytes
]
"""(view, events to highlight, names by seat, image labels) -> PNG bytes.  Called in a worker
thread.  A seat's view is a private panel's image (drawn around that seat's decision); the
public view is the table."""
ScoreRenderer = Callable[[Mapping[str, Any], Mapping[int, str], Mapping[str, str]], bytes]
"""(outcome, names by seat, image labels) -> PNG bytes of the score sheet (worker thread)."""

_DEFAULT: Any = object()


def default_renderer() -> Renderer | None:
    """``render.render_table`` for the public view and ``render.render_panel`` for a seat's view
    when the renderer is installed and importable, else ``None``."""
    try:
        from render import render_panel, render_table  # noqa: PLC0415  (optional: text fallback)
    except Exception:  # pragma: no cover - the renderer ships with the bot
        log.warning("render is not available; tables are posted as text", exc_info=True)
        return None

    def draw(
        view: Mapping[str, Any],
        events: Sequence[Event],
        names: Mapping[int, str],
        labels: Mapping[str, str],
    ) -> bytes:
        if isinstance(view.get("viewer"), int):
            return render_panel(view, highlights=events, names=dict(names), labels=labels)
        return render_table(view, events, names=dict(names), labels=labels,
                            status=labels.get(STATUS))

    return draw


def default_score_renderer() -> ScoreRenderer | None:
    """``render.render_scoresheet`` when the renderer is importable, else ``None``."""
    try:
        from render import render_scoresheet  # noqa: PLC0415  (optional, as above)
    except Exception:  # pragma: no cover - the renderer ships with the bot
        return None

    def draw(outcome: Mapping[str, Any], names: Mapping[int, str],
             labels: Mapping[str, str]) -> bytes:
        return render_scoresheet(outcome, names=dict(names), labels=labels)

    return draw


class Drawing:
    """The bot's images.  Without a renderer every method returns ``None``; without a score
    renderer given, the real one is used whenever boards are drawn at all."""

    def __init__(
        self,
        renderer: Renderer | None,
        score_renderer: ScoreRenderer | None = _DEFAULT,
        catalog: Catalog = CATALOG,
    ) -> None:
        self.renderer = renderer
        self.score_renderer: ScoreRenderer | None = (
            (default_score_renderer() if renderer is not None else None)
            if score_renderer is _DEFAULT else score_renderer
        )
        self.catalog = catalog
        self._tables = ThreadPoolExecutor(TABLE_THREADS, thread_name_prefix="render-table")
        self._panels = ThreadPoolExecutor(1, thread_name_prefix="render-panel")
        self._drawing = 0  # tables being drawn now
        self._drawn = asyncio.Condition()

    def labels(self, language: str | None) -> dict[str, str]:
        return self.catalog.section(language or self.catalog.default, *IMAGE_LABELS)

    async def board(
        self,
        view: Mapping[str, Any],
        events: Sequence[Event],
        names: Mapping[int, str],
        language: str | None,
        *,
        urgent: bool | None = None,
        status: str | None = None,
    ) -> bytes | None:
        """The board of ``view`` in the game's language.  ``urgent`` (default: a public view,
        the table) goes first; the others (panels, the story's phase images) wait their turn.
        ``status``: a line saying what the image shows, instead of whose turn it is (a story
        image: "Round 3 · the Builder phase (chosen by alice) ended")."""
        if self.renderer is None:
            return None
        labels = self.labels(language)
        if status:  # the renderer takes an image's words as its labels
            labels[STATUS] = status
        loop = asyncio.get_running_loop()
        if urgent is None:
            urgent = view.get("viewer") is None
        try:
            if not urgent:
                async with self._drawn:
                    await self._drawn.wait_for(lambda: self._drawing == 0)
                return await loop.run_in_executor(self._panels, self.renderer, view, events,
                                                  names, labels)
            self._drawing += 1
            try:
                return await loop.run_in_executor(self._tables, self.renderer, view, events,
                                                  names, labels)
            finally:
                self._drawing -= 1
                async with self._drawn:
                    self._drawn.notify_all()
        except Exception:
            log.exception("rendering failed; posting the table as text")
            return None

    async def scores(self, outcome: Mapping[str, Any], names: Mapping[int, str],
                     language: str | None) -> bytes | None:
        if self.score_renderer is None:
            return None
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._tables, self.score_renderer, outcome, names, self.labels(language))
        except Exception:
            log.exception("the score sheet could not be drawn")
            return None

    def close(self) -> None:
        self._tables.shutdown(wait=False, cancel_futures=True)
        self._panels.shutdown(wait=False, cancel_futures=True)


if __name__ == "__main__":  # a language's image words: python -m bot.rendering es > es.json
    import json
    import sys

    print(json.dumps(CATALOG.section(sys.argv[1] if len(sys.argv) > 1 else CATALOG.default,
                                     *IMAGE_LABELS), ensure_ascii=False, indent=1))
