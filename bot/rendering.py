"""Drawing images off the event loop, tables first.

The renderer (``render.render_table``, or whatever a test passes) draws a board for a view:
the public view for the channel, a seat's view for that player's private panel.  The channel's
images get their own two workers, and a private panel's image waits while a table is being
drawn, so a crowd of panels never delays the tables everybody waits for.  The score sheet is
drawn once per game.  A renderer that fails is logged and the caller gets ``None`` (a text
table).

* Pillow holds the GIL for most of an image (encoding the PNG, quantizing, much of the
  drawing): an image drawn in a thread stops the event loop for as long, so with many games
  the images and the loop took turns on one core.  The bot's own renderer
  (:func:`draw_board`) therefore runs in worker processes (:data:`IMAGE_PROCESSES`, shared by
  every :class:`Drawing` of the process, started at the first image); a renderer passed in
  (tests) runs in threads as before, and so does the bot's when a process cannot be used.
  The processes keep the bot's priority: the tables go first by the order above, not by the
  operating system (a lower priority starves them on a host shared with busy processes, and
  the next table waits in the game's lock behind the story's images; ``docs/testing.md``).
* An image is a pure function of its inputs, so the last :data:`IMAGE_CACHE` images are kept
  by the digest of (view, highlights, names, language), and the same board asked twice at once
  is drawn once: a panel opened again (the one after a role click, then **My turn**), a story
  board equal to a table already drawn.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import multiprocessing
import pickle
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core import EngineError, Event

from .games import presenter_for
from .i18n import CATALOG, Catalog
from .seatnames import plain
from .workers import follow_parent

if TYPE_CHECKING:
    from render.timelapse import Timelapse

log = logging.getLogger(__name__)

TABLE_THREADS = 2  # channel images at once; private panels get one thread of their own
IMAGE_PROCESSES = {"table": 2, "panel": 1}  # the same, as worker processes (the bot's renderer)
IMAGE_CACHE = 64  # images kept by their inputs' digest (about 130 kB each)
STATUS = "status"
"""The image label carrying a story image's status line (:meth:`Drawing.board`)."""

Renderer = Callable[
    [Mapping[str, Any], Sequence[Event], Mapping[int, str], Mapping[str, str]], bytes
]
"""(view, events to highlight, names by seat, image labels) -> PNG bytes.  Called in a worker
thread.  A seat's view is a private panel's image (drawn around that seat's decision); the
public view is the table."""
ScoreRenderer = Callable[[str, Mapping[str, Any], Mapping[int, str], Mapping[str, str]], bytes]
"""(game, outcome, names by seat, image labels) -> PNG bytes of the score sheet (worker
thread)."""

_DEFAULT: Any = object()
T = TypeVar("T")


def image_labels(game: str, lang: str) -> dict[str, str]:
    """``game``'s words on images in ``lang`` (its catalog's ``image_prefixes`` keys); none
    for a game the bot does not present (the renderer's English then)."""
    try:
        presenter = presenter_for(game)
    except EngineError:
        return {}
    if not presenter.image_prefixes:
        return {}
    return presenter.catalog.section(lang, *presenter.image_prefixes)


def draw_board(
    view: Mapping[str, Any],
    events: Sequence[Event],
    names: Mapping[int, str],
    labels: Mapping[str, str],
) -> bytes:
    """The bot's renderer: ``render.render_panel`` for a seat's view, ``render.render_table``
    for the public view.  Module-level, so that a worker process can run it."""
    from render import render_panel, render_table  # noqa: PLC0415  (imported once per process)

    if isinstance(view.get("viewer"), int):
        return render_panel(view, highlights=events, names=dict(names), labels=labels)
    return render_table(view, events, names=dict(names), labels=labels,
                        status=labels.get(STATUS))


def draw_chart(
    game: str,
    options: Mapping[str, Any],
    seed: int,
    moves: Sequence[tuple[int, str]],
    names: Mapping[int, str],
    labels: Mapping[str, str],
) -> bytes:
    """A finished game's chart (``render.render_chart``): its log replayed for the score by
    round (``engine.story``), then drawn.  Module-level, so that a worker process can run it."""
    from engine import get_game  # noqa: PLC0415  (imported once per process)
    from engine.story import score_history  # noqa: PLC0415
    from render import render_chart  # noqa: PLC0415

    history = score_history(get_game(game), options, seed, moves)
    return render_chart(history.to_json(), game=game, names=dict(names), labels=labels)


def draw_timelapse(frames: Sequence[bytes], limit: int) -> Timelapse:
    """The boards ``frames`` as one animated image of at most ``limit`` bytes
    (``render.timelapse``).  Module-level, so that a worker process can run it."""
    from render.timelapse import timelapse  # noqa: PLC0415  (imported once per process)

    return timelapse(frames, limit=limit)


def default_renderer() -> Renderer | None:
    """:func:`draw_board` when the renderer is installed and importable, else ``None``."""
    try:
        import render  # noqa: F401, PLC0415  (optional: text fallback without it)
    except Exception:  # pragma: no cover - the renderer ships with the bot
        log.warning("render is not available; tables are posted as text", exc_info=True)
        return None
    return draw_board


_PROCESSES: dict[str, ProcessPoolExecutor] = {}


def _processes(kind: str) -> ProcessPoolExecutor:
    """The worker processes for ``kind`` (``table`` or ``panel``) images, started on first use
    (spawned: the bot's threads are not copied into them) and shared by the whole process."""
    pool = _PROCESSES.get(kind)
    if pool is None:
        pool = _PROCESSES[kind] = ProcessPoolExecutor(
            IMAGE_PROCESSES[kind], mp_context=multiprocessing.get_context("spawn"),
            initializer=follow_parent)
    return pool


def _stop(kind: str) -> None:
    if (pool := _PROCESSES.pop(kind, None)) is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def drawn_names(names: Mapping[int, str]) -> dict[int, str]:
    """The names as an image shows them: without the escapes they carry as Discord text (a
    backslash would be drawn; :func:`bot.seatnames.plain`)."""
    return {seat: plain(name) for seat, name in names.items()}


def _digest(*inputs: Any) -> bytes | None:
    """A digest of an image's inputs (``None`` when they cannot be pickled: not cached)."""
    try:
        return hashlib.blake2b(pickle.dumps(inputs, pickle.HIGHEST_PROTOCOL),
                               digest_size=16).digest()
    except Exception:
        return None


def default_score_renderer() -> ScoreRenderer | None:
    """``render.render_scoresheet`` when the renderer is importable, else ``None``."""
    try:
        from render import render_scoresheet  # noqa: PLC0415  (optional, as above)
    except Exception:  # pragma: no cover - the renderer ships with the bot
        return None

    def draw(game: str, outcome: Mapping[str, Any], names: Mapping[int, str],
             labels: Mapping[str, str]) -> bytes:
        return render_scoresheet(outcome, game=game, names=dict(names), labels=labels)

    return draw


class Drawing:
    """The bot's images.  Without a renderer every method returns ``None``; without a score
    renderer given, the real one is used whenever boards are drawn at all."""

    def __init__(
        self,
        renderer: Renderer | None,
        score_renderer: ScoreRenderer | None = _DEFAULT,
        catalog: Catalog = CATALOG,
        *,
        processes: bool = True,
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
        self.in_processes = processes and renderer is draw_board
        """Whether the boards are drawn in worker processes (else in threads)."""
        self._images: OrderedDict[bytes, asyncio.Future[bytes | None]] = OrderedDict()
        self._labels: dict[str, dict[str, str]] = {}

    def labels(self, language: str | None, game: str) -> dict[str, str]:
        """The words on ``game``'s images in ``language`` (its presenter's image labels)."""
        lang = language or self.catalog.default
        key = f"{game}:{lang}"
        if key not in self._labels:  # the catalogs do not change while the bot runs
            self._labels[key] = image_labels(game, lang)
        return dict(self._labels[key])

    async def board(
        self,
        view: Mapping[str, Any],
        events: Sequence[Event],
        names: Mapping[int, str],
        language: str | None,
        *,
        urgent: bool | None = None,
        status: str | None = None,
        keep: bool = True,
    ) -> bytes | None:
        """The board of ``view`` in the game's language.  ``urgent`` (default: a public view,
        the table) goes first; the others (panels, the story's phase images) wait their turn.
        ``status``: a line saying what the image shows, instead of whose turn it is (a story
        image: "Round 3 · the Builder phase (chosen by alice) ended").
        The same board asked again is not drawn again (see the module's docstring); ``keep``
        false draws it without keeping it (a time-lapse's many frames would push the tables
        out)."""
        if self.renderer is None:
            return None
        if urgent is None:
            urgent = view.get("viewer") is None
        names, status = drawn_names(names), plain(status) if status else status
        key = _digest(view, events, dict(names), language or self.catalog.default, status)
        if key is None or not keep:
            return await self._draw(view, events, names, language, urgent, status)
        image = self._images.get(key)
        if image is None:
            image = self._images[key] = asyncio.ensure_future(
                self._draw(view, events, names, language, urgent, status))
            image.add_done_callback(functools.partial(self._forget_failed, key))
            while len(self._images) > IMAGE_CACHE:
                self._images.popitem(last=False)
        else:
            self._images.move_to_end(key)
        return await asyncio.shield(image)

    def _forget_failed(self, key: bytes, image: asyncio.Future[bytes | None]) -> None:
        """An image that failed (or was cancelled) is drawn again when asked again."""
        if (image.cancelled() or image.result() is None) and self._images.get(key) is image:
            del self._images[key]

    async def _draw(
        self,
        view: Mapping[str, Any],
        events: Sequence[Event],
        names: Mapping[int, str],
        language: str | None,
        urgent: bool,
        status: str | None = None,
    ) -> bytes | None:
        assert self.renderer is not None
        labels = self.labels(language, str(view.get("game", "")))
        if status:  # the renderer takes an image's words as its labels
            labels[STATUS] = status
        try:
            if not urgent:
                async with self._drawn:
                    await self._drawn.wait_for(lambda: self._drawing == 0)
                return await self._run("panel", view, events, names, labels)
            self._drawing += 1
            try:
                return await self._run("table", view, events, names, labels)
            finally:
                self._drawing -= 1
                async with self._drawn:
                    self._drawn.notify_all()
        except Exception:
            log.exception("rendering failed; posting the table as text")
            return None

    async def _run(self, kind: str, view: Mapping[str, Any], events: Sequence[Event],
                   names: Mapping[int, str], labels: Mapping[str, str]) -> bytes:
        """Draw in a worker process when we may, else (or when the processes broke) a thread."""
        assert self.renderer is not None
        if self.in_processes:
            return await self._job(kind, draw_board, view, list(events), dict(names),
                                   dict(labels))
        return await self._thread(kind, self.renderer, view, events, names, labels)

    async def _job(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a module-level function) in ``kind``'s worker processes; in a thread
        when there are none (a sandbox; a script without a main guard), when they broke or when
        the inputs cannot go to a process."""
        loop = asyncio.get_running_loop()
        try:
            job = loop.run_in_executor(_processes(kind), fn, *args)
        except Exception:
            log.warning("no image worker processes; drawing in threads", exc_info=True)
            self.in_processes = False
            _stop(kind)
        else:
            try:
                return await job
            except BrokenProcessPool:  # a worker died: new ones for the next image
                log.exception("an image worker process died; drawing this one in a thread")
                _stop(kind)
            except pickle.PicklingError:
                log.exception("an image's inputs cannot go to a process; drawing in threads")
                self.in_processes = False
        return await self._thread(kind, fn, *args)

    async def _thread(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        executor: Executor = self._tables if kind == "table" else self._panels
        return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)

    async def chart(self, game: str, options: Mapping[str, Any], seed: int,
                    moves: Sequence[tuple[int, str]], names: Mapping[int, str],
                    language: str | None) -> bytes | None:
        """A finished game's chart (:func:`draw_chart`: the score by round and, for Puerto
        Rico, where the points came from), drawn beside the tables when boards are drawn at
        all; ``None`` when it cannot be (logged)."""
        if self.renderer is None:
            return None
        lang = language or self.catalog.default
        labels = {**self.catalog.section(lang, "chart."), **self.labels(language, game)}
        names = drawn_names(names)
        try:
            if self.in_processes:
                return await self._job("table", draw_chart, game, dict(options), seed,
                                       list(moves), dict(names), labels)
            return await self._thread("table", draw_chart, game, options, seed, moves, names,
                                      labels)
        except Exception:
            log.exception("the chart of a game could not be drawn")
            return None

    async def scores(self, game: str, outcome: Mapping[str, Any], names: Mapping[int, str],
                     language: str | None) -> bytes | None:
        if self.score_renderer is None:
            return None
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._tables, self.score_renderer, game, outcome, drawn_names(names),
                self.labels(language, game))
        except Exception:
            log.exception("the score sheet could not be drawn")
            return None

    async def timelapse(self, frames: Sequence[bytes], limit: int) -> Timelapse:
        """``frames`` (PNG boards) as one animated image within ``limit`` bytes, made in a
        private panel's worker (behind the tables).  Raises ``ValueError`` when no size fits."""
        if self.in_processes:
            return await self._job("panel", draw_timelapse, list(frames), limit)
        return await self._thread("panel", draw_timelapse, frames, limit)

    def close(self) -> None:
        self._tables.shutdown(wait=False, cancel_futures=True)
        self._panels.shutdown(wait=False, cancel_futures=True)


if __name__ == "__main__":  # a game's image words: python -m bot.rendering puerto-rico es
    import json
    import sys

    if len(sys.argv) < 2:
        sys.exit("usage: python -m bot.rendering GAME [LANGUAGE]")
    print(json.dumps(image_labels(sys.argv[1], sys.argv[2] if len(sys.argv) > 2
                                  else CATALOG.default), ensure_ascii=False, indent=1))
