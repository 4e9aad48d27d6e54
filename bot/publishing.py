"""A change shown on Discord: its table drawn (:class:`Publishing`) and published, each game's
publications one at a time and in order, never holding up the player (:class:`Publications`).

A change is committed first; then its table, story posts and turn notices go to Discord (the
publisher).  That can take long: discord.py retries a 5xx for about 16 seconds before giving
up, a rate limit makes it wait.  So a publication runs as a task of its own: the change waits
for it :data:`PUBLISH_WAIT` seconds at most (normally it is done well before, and the player's
answer comes after the table, as they expect), then answers the player anyway with a short
"the table will catch up" (``TableUpdate.late``) while the task goes on.

One game's publications never overlap: each waits for the one before it (whatever its
outcome), so the table never goes back to an older version and a phase is told once.  A
publication that fails leaves the publish record (:mod:`storage.publications`) behind the
game; the reminder pass publishes such a game again (:mod:`bot.resume`), and
:meth:`Publications.busy` keeps it from doing so while one is still under way.

Once the table is shown, the publish record says so (with the turn notices handed over),
before the notices go out: a crash before it leaves the record behind the stored version, and
:mod:`bot.resume` publishes the game again at the next start.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.core import Event, Game, get_game
from storage import DatabaseUnavailable, GameRecord, GameStatus, Storage

from .changes import PhaseEnd, Publisher, RatingLine, TableUpdate
from .errors import ChannelGone, PostingBlocked, PublishFailed, UserError
from .gamelog import phase_end_points, phase_events
from .games import presenter_for
from .history import History
from .i18n import Catalog
from .rendering import Drawing
from .seatnames import SeatNames, everyone

if TYPE_CHECKING:
    from render.timelapse import Timelapse

log = logging.getLogger(__name__)

PUBLISH_WAIT = 5.0
"""Seconds a change waits for its publication before answering the player without it (well
within Discord's 15 minutes for a deferred interaction's answer)."""


class Publications:
    def __init__(self, wait: float = PUBLISH_WAIT) -> None:
        self.wait = wait
        self._last: dict[int, asyncio.Task[bool]] = {}
        """Each game's latest publication (the next one waits for it)."""
        self._running: set[asyncio.Task[bool]] = set()
        """Every publication not finished (the earlier ones of a game too)."""
        self._missed: set[int] = set()
        """The games whose last publication did not show the table: the next one tells the
        story since the table last shown (:class:`Publishing`)."""

    def missed(self, game_id: int) -> bool:
        """Whether the game's last publication (finished) did not show its table."""
        return game_id in self._missed

    def busy(self, game_id: int) -> bool:
        """Whether a publication of the game is under way (or waiting for the one before)."""
        task = self._last.get(game_id)
        return task is not None and not task.done()

    async def run(self, game_id: int, work: Callable[[], Awaitable[bool]]) -> bool | None:
        """Run ``work`` (a publication: ``True`` once the table is shown) after the game's
        previous one, and wait for it :attr:`wait` seconds at most: its result, or ``None``
        when it is still under way (it goes on; cancelling the caller does not stop it)."""
        before = self._last.get(game_id)

        async def publish() -> bool:
            if before is not None and not before.done():
                await asyncio.wait({before})
            shown = False
            try:
                shown = await work()
            finally:
                (self._missed.discard if shown else self._missed.add)(game_id)
            return shown

        task = asyncio.create_task(publish(), name=f"publish-{game_id}")
        self._last[game_id] = task
        self._running.add(task)
        task.add_done_callback(lambda done: self._done(game_id, done))
        finished, _ = await asyncio.wait({task}, timeout=self.wait)
        if task not in finished:
            log.info("game %s: the table is slow to publish; the player is answered without "
                     "waiting for it", game_id)
            return None
        if task.cancelled() or task.exception() is not None:  # (logged by _done)
            return False
        return task.result()

    def _done(self, game_id: int, task: asyncio.Task[bool]) -> None:
        self._running.discard(task)
        if self._last.get(game_id) is task:
            del self._last[game_id]
        if not task.cancelled() and task.exception() is not None:  # work reports its own
            log.error("game %s: a publication failed", game_id, exc_info=task.exception())

    async def settled(self) -> None:
        """Wait until no publication is under way (tests, and a clean shutdown)."""
        while self._running:
            await asyncio.wait(set(self._running))

    def close(self) -> None:
        for task in self._running:
            task.cancel()


class Publishing:
    """What a change shows: the public view drawn with the end of the log, the story of the
    role phases it ended, the score sheet at the end; handed to the publisher in the game's
    order, then recorded as shown."""

    def __init__(self, storage: Storage, publisher: Publisher | None, drawing: Drawing,
                 history: History, publications: Publications, catalog: Catalog) -> None:
        self.storage = storage
        self.publisher = publisher
        self.drawing = drawing
        self.history = history
        self.publications = publications
        self.catalog = catalog

    async def names(self, record: GameRecord) -> dict[int, str]:
        """The seats' names as the table shows them."""
        if self.publisher is None:
            return {s.seat: f"Seat {s.seat + 1}" for s in record.seats}
        return await self.publisher.seat_names(record)

    async def table(self, game_id: int) -> TableUpdate:
        """The game as it stands (for ``/game show`` and after a refused outdated click)."""
        loaded = await self.storage.games.load(game_id)
        if loaded.record.status is GameStatus.LOBBY:
            raise UserError("err.not_active", game=game_id, status=loaded.record.status)
        names = await self.names(loaded.record)
        return await self.update(loaded.record, loaded.state, [], names, ())

    async def update(
        self,
        record: GameRecord,
        state: Any,
        events: Sequence[Event],
        names: dict[int, str],
        newly_waiting: tuple[int, ...],
        notes: tuple[str, ...] = (),
    ) -> TableUpdate:
        """The public view, its image (highlighting the current role phase), the end of the log,
        a board image for every role phase this change ended, and the score sheet at the end."""
        game = get_game(record.game)
        view = game.view(state, None)
        public = tuple(e for e in (ev.for_viewer(None) for ev in events) if e is not None)
        recent = await self.history.recent(record)
        highlights = phase_events(recent, openers=presenter_for(record.game).phase_openers)
        lang = record.language
        image = await self.drawing.board(view, highlights, names, lang)
        scores = chart = None
        ratings: tuple[RatingLine, ...] = ()
        rating = None
        if view.get("game_over") and view.get("outcome"):
            # the finished view (its outcome, and the boards a sheet may draw: the Puertomas')
            scores = await self.drawing.scores(record.game, view, everyone(names), lang)
            chart = await self._chart(record, names)
            ratings, rating = await self._ratings(record, names)
        ended = sum(1 for e in events if e.type == "PhaseEnded")
        story = functools.partial(self.story, record, game, ended, view, names) if ended \
            else None
        return TableUpdate(record, view, public, names, image, newly_waiting, recent,
                           scoresheet=scores, chart=chart, notes=notes, story=story,
                           ratings=ratings, rating=rating)

    async def _chart(self, record: GameRecord, names: Mapping[int, str]) -> bytes | None:
        """The chart of a finished game: its log (the actions that count) replayed and drawn
        off the event loop."""
        if record.seed is None:
            return None
        log_all = await self.storage.games.actions(record.id)
        return await self.drawing.chart(record.game, record.options, record.seed,
                                        [(a.seat, a.code) for a in log_all], everyone(names),
                                        record.language)

    async def _ratings(self, record: GameRecord, names: Mapping[int, str]
                       ) -> tuple[tuple[RatingLine, ...], str | None]:
        """The rating changes of a finished game, each named as the table names its seat (one
        who left by the name they played under)."""
        changes = await self.storage.ratings.changes(record.id)
        seat_of = {s.user_id: s.seat for s in record.seats if s.user_id is not None}
        lines = []
        for change in changes:
            seat = seat_of.get(change.user_id)
            name = names.get(seat) if seat is not None else None
            if name is None and isinstance(names, SeatNames):
                name = names.person(change.user_id)
            lines.append(RatingLine(name or f"<@{change.user_id}>", change.points_before,
                                    change.points_after))
        return tuple(lines), await self.storage.ratings.status(record.id)

    async def story(
        self, record: GameRecord, game: Game[Any], ended: int, view: Mapping[str, Any],
        names: Mapping[int, str],
    ) -> tuple[PhaseEnd, ...]:
        """The phases a change ended with their images: drawn after the table is shown (it
        may replay the log, and it draws).  Each image says what ended instead of whose turn
        it is."""
        phases = await self.history.phase_ends(record, game, ended, view)
        writer = presenter_for(record.game).log_writer(names,
                                                      record.language or self.catalog.default)
        drawn = await asyncio.gather(*(
            self.drawing.board(p.view, p.events, names, record.language, urgent=False,
                               status=writer.phase_ended(p.round, p.role, p.chooser, p.chosen))
            for p in phases))
        return tuple(dataclasses.replace(p, image=image)
                     for p, image in zip(phases, drawn, strict=True))

    async def timelapse(self, game_id: int, limit: int) -> Timelapse:
        """A game that is over as one animated image of at most ``limit`` bytes: the public
        board at the end of every role phase, each saying what ended (as the story's images),
        then the final board.  Drawn behind the tables, without pushing them out of the cache.
        ``UserError`` for a game still played or with nothing to show."""
        record = await self.storage.games.get(game_id)
        if record.status.is_open:
            raise UserError("err.replay_not_over", game=record.id)
        if record.seed is None:  # abandoned in its lobby
            raise UserError("err.replay_empty", game=record.id)
        loaded = await self.storage.games.load(game_id)
        game = get_game(record.game)
        view = game.view(loaded.state, None)
        whole = await self.storage.games.actions(record.id)
        count = len(phase_end_points(whole))
        phases = await self.history.phase_ends(record, game, count, view, whole) if count \
            else []
        if not phases:
            raise UserError("err.replay_empty", game=record.id)
        names = await self.names(record)
        writer = presenter_for(record.game).log_writer(names,
                                                      record.language or self.catalog.default)
        frames = await asyncio.gather(*(
            self.drawing.board(p.view, p.events, names, record.language, urgent=False,
                               status=writer.phase_ended(p.round, p.role, p.chooser, p.chosen),
                               keep=False)
            for p in phases))
        final = await self.drawing.board(view, (), names, record.language, urgent=False,
                                         keep=False)
        drawn = [f for f in (*frames, final) if f]
        if not drawn:
            raise UserError("err.replay_no_images")
        try:
            return await self.drawing.timelapse(drawn, limit)
        except ValueError as exc:
            log.warning("game %d: no time-lapse within %d bytes (%s)", record.id, limit, exc)
            raise UserError("err.replay_too_big", game=record.id) from exc

    # --- publishing -----------------------------------------------------------------------------

    async def publish(
        self,
        record: GameRecord,
        state: Any,
        events: Sequence[Event],
        *,
        before: Mapping[int, object],
        actor: int | None = None,
        notes: tuple[str, ...] = (),
        newly: tuple[int, ...] | None = None,
    ) -> TableUpdate:
        """Draw the new table and hand it to the publisher.  The change is already committed,
        so a Discord failure here is logged, never reported as a failed action.  The user who
        just acted is not notified (they are at the table right now): the people notified are
        those the prompt names whose wait changed since ``before`` (``waiting_since`` by seat);
        ``newly`` overrides who is.

        The publication runs in the background (:class:`Publications`), after the game's
        previous one; this waits for it a few seconds at most, then returns the update marked
        ``late``.  So does a database that stopped answering after the commit (the table is
        drawn once it is back: ``bot/outage.py``, or the reminder pass)."""
        if newly is None:
            newly = tuple(
                s.user_id
                for s in record.seats
                if s.user_id is not None
                and s.user_id != actor
                and s.waiting_since is not None
                and before.get(s.seat) != s.waiting_since
            )
        try:
            names = await self.names(record)
            update = await self.update(record, state, events, names, newly, notes)
        except DatabaseUnavailable as exc:
            log.warning("game %s: v%s is not drawn, the database does not answer (%s)",
                        record.id, record.version, exc)
            view = get_game(record.game).view(state, None)
            return TableUpdate(record, view, (), {}, None, newly, late=True)
        if self.publisher is not None:
            deliver = functools.partial(self._deliver, update, newly)
            if not await self.publications.run(record.id, deliver):
                update = dataclasses.replace(update, late=True)
        return update

    async def notify_again(self, record: GameRecord, state: Any, users: tuple[int, ...]
                           ) -> None:
        """Hand turn notices to the publisher without drawing the table again."""
        if self.publisher is None:
            return
        view = get_game(record.game).view(state, None)
        update = TableUpdate(record, view, (), await self.names(record), None, users)
        try:
            await self.publisher.notify_turn(update)
        except Exception:
            log.exception("game %s: could not notify the next players", record.id)

    async def _deliver(self, update: TableUpdate, newly: Sequence[int]) -> bool:
        """The publication of ``update`` (a task of :attr:`publications`): the table, its
        publish record, then the turn notices.  Whether the table was shown."""
        assert self.publisher is not None
        record = update.record
        shown = False
        try:
            if self.publications.missed(record.id):  # the story the last one could not tell
                update = await self._with_untold_story(update)
            await self.publisher.publish_table(update)
        except (PostingBlocked, PublishFailed, ChannelGone):
            pass  # told and logged by the publisher; published again once it can post
        except DatabaseUnavailable as exc:
            log.warning("game %s: the table was not published, the database does not answer "
                        "(%s); published again once it is back", record.id, exc)
        except Exception:
            log.exception("game %s: could not publish the table", record.id)
        else:
            shown = True
            await self._published(record, newly)
        try:
            await self.publisher.notify_turn(update)
        except DatabaseUnavailable as exc:
            log.warning("game %s: the turn notices wait for the database (%s)", record.id, exc)
        except Exception:
            log.exception("game %s: could not notify the next players", record.id)
        return shown

    async def _with_untold_story(self, update: TableUpdate) -> TableUpdate:
        """``update`` telling the role phases ended since the table last shown, not only its
        own: a publication of the game failed before it (those already told are skipped by
        the publisher)."""
        record = update.record
        shown = await self.storage.publications.get(record.id)
        since = await self.storage.games.actions(record.id, after_seq=shown.seq if shown else 0)
        ended = sum(1 for a in since if a.seq <= record.seq
                    for e in a.events if e.get("type") == "PhaseEnded")
        if not ended:
            return update
        story = functools.partial(self.story, record, get_game(record.game), ended,
                                  update.view, update.names)
        return dataclasses.replace(update, phases=(), story=story)

    async def _published(self, record: GameRecord, newly: Sequence[int]) -> None:
        """Record that the table shows ``record.version`` and the turn notices due to ``newly``
        (their waits) are being handed over."""
        due = [(s.seat, s.waiting_since) for s in record.seats
               if s.user_id in newly and s.waiting_since is not None]
        try:
            await self.storage.publications.published(
                record.id, version=record.version, seq=record.seq, due=due)
        except DatabaseUnavailable as exc:  # shown again once the database is back
            log.warning("game %s: the publication of v%s was not recorded (%s)", record.id,
                        record.version, exc)
        except Exception:
            log.exception("game %s: could not record the publication", record.id)
