"""Games brought up to their stored state on Discord: at start-up and once the database is back
(:meth:`Resumer.resume_all`), and by the reminder pass for the games stuck meanwhile
(:meth:`Resumer.resume_stalled`).

A game is behind when its publish record (:mod:`storage.publications`) shows an older version
than the stored one (a crash between a commit and the table edit, a publication that failed),
when a turn notice handed over was never claimed, or when it waits on an AI seat.  Resuming it
lets the AI seats and forced decisions play, publishes the table as it stands with the story
of the phases ended since it was last shown, and sends each person asked since then who has
not acted since one turn DM (the ``seat_alerts`` claims keep it to one per wait).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from engine.core import Event
from storage import CHANNEL_GONE_KIND, GameRecord, GameStatus, Storage

from .ai_turns import AiTurns
from .changes import TableUpdate
from .errors import PostingBlocked
from .publishing import Publications, Publishing

log = logging.getLogger(__name__)

STALLED_AFTER = timedelta(minutes=2)
"""A game whose AI seat has been asked that long is stuck: its move failed
(:meth:`Resumer.resume_stalled`)."""
BEHIND_FINISHED = timedelta(days=7)
"""How long after its end a game whose last table failed to show is still published again."""


class Resumer:
    def __init__(self, storage: Storage, ai: AiTurns, publishing: Publishing,
                 publications: Publications) -> None:
        self.storage = storage
        self.ai = ai
        self.publishing = publishing
        self.publications = publications

    async def resume(self, game_id: int) -> TableUpdate | None:
        """Bring a game's Discord side up to its stored state (at start-up, after a crash):
        let AI seats and forced decisions play if the game waits on them, and publish the
        table again when the publish record (:mod:`storage.publications`) is behind the stored
        version: the table as it stands, the story of the phases ended since the table last
        shown, and a turn DM to each person asked since then who has not acted since.  Turn
        notices handed over but never sent (no claim in ``seat_alerts``) are sent again; the
        claims make every DM go out at most once per wait however often this runs.

        Returns the update when the table was published again, ``None`` otherwise (also when
        a publication of the game is under way: its end records what it showed)."""
        async with self.storage.db.lock(game_id):
            if self.publications.busy(game_id):
                return None
            loaded = await self.storage.games.load(game_id)
            status = loaded.record.status
            if status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
                return None
            if CHANNEL_GONE_KIND in loaded.record.messages:
                return None  # its channel was deleted: it waits for /game move
            state, record = loaded.state, loaded.record
            if status is GameStatus.ACTIVE:
                state, record, _ = await self.ai.play(record, state)
            shown = await self.storage.publications.get(game_id)
            shown_version, shown_seq = (shown.version, shown.seq) if shown else (-1, 0)
            waiting = {s.seat: s for s in record.seats
                       if s.user_id is not None and s.waiting_since is not None}
            newly: list[int] = []
            if shown is not None:  # notices handed over with the last table, still due
                newly += [waiting[seat].user_id or 0 for seat, since in shown.due
                          if seat in waiting and waiting[seat].waiting_since == since]
            if shown_version >= record.version:
                if newly:
                    await self.publishing.notify_again(record, state,
                                                       tuple(dict.fromkeys(newly)))
                return None
            since = await self.storage.games.actions(game_id, after_seq=shown_seq)
            acted = {a.user_id for a in since if a.user_id is not None}
            newly += [s.user_id for s in waiting.values() if s.user_id is not None
                      and (s.waiting_version or 0) > shown_version and s.user_id not in acted]
            events = [Event.from_json(e) for a in since for e in a.events]
            log.info("game %s: publishing v%s again (shown: v%s)", game_id, record.version,
                     shown_version)
            return await self.publishing.publish(record, state, events, before={},
                                                 newly=tuple(dict.fromkeys(newly)))

    async def resume_all(self, owns: Callable[[int | None], bool] = lambda _id: True) -> int:
        """At start-up, :meth:`resume` every game whose Discord side lags behind its stored
        state (``storage.publications.lagging``) and every active game waiting on an AI seat,
        among the servers this process serves (``owns``, its shards); returns how many tables
        were published again."""
        ids = set(await self._ai_waiting(before=self.storage.db.clock()))
        after = 0
        while page := await self.storage.publications.lagging(after_id=after):
            ids.update(page)
            after = page[-1]
        return await self._resume_each(sorted(ids), owns, lambda _record: True)

    async def resume_stalled(self, owns: Callable[[int | None], bool], now: datetime,
                      skip: Callable[[int], bool] = lambda _id: False) -> int:
        """While running (the reminder pass calls it): :meth:`resume` the games of this
        process's servers that are stuck --

        * the active games that have waited on an AI seat since :data:`STALLED_AFTER` or
          longer (an AI move that failed: its worker died, the database refused it) and that
          this process is not thinking about (a strong seat takes its time);
        * the games whose table shows an older version than the stored one (a publication
          that failed: a lasting 5xx from Discord, the database gone meanwhile) for
          :data:`STALLED_AFTER` or longer, active or finished within :data:`BEHIND_FINISHED`,
          unless a publication of theirs is under way
          (:meth:`resume` skips those) or ``skip`` says another retry takes them (a channel
          refusing our posts: ``DiscordPublisher.retry_blocked``)."""
        ids = set(await self._ai_waiting(before=now - STALLED_AFTER))
        ids -= set(self.ai.tasks)
        behind: list[int] = []
        while page := await self.storage.publications.behind(
                changed_before=now - STALLED_AFTER, finished_since=now - BEHIND_FINISHED,
                after_id=behind[-1] if behind else 0):
            behind += page
        ids |= {game_id for game_id in behind if not skip(game_id)}
        return await self._resume_each(sorted(ids), owns,
                                       lambda record: record.id not in self.ai.tasks)

    async def _ai_waiting(self, *, before: datetime) -> list[int]:
        """The active games whose AI seat has been asked since ``before`` or earlier, by id."""
        ids: list[int] = []
        while page := await self.storage.reminders.stalled_ai(
                before=before, after_id=ids[-1] if ids else 0):
            ids += page
        return ids

    async def _resume_each(self, ids: Sequence[int], owns: Callable[[int | None], bool],
                           keep: Callable[[GameRecord], bool]) -> int:
        moved = 0
        for game_id in ids:
            try:
                record = await self.storage.games.get(game_id)
                if not owns(record.guild_id):
                    continue  # another process's server: it resumes its own
                if keep(record):
                    moved += await self.resume(game_id) is not None
            except PostingBlocked:
                continue  # the channel refuses us: the blocked channels' retry takes it on
            except Exception:
                log.exception("could not resume game %s", game_id)
        return moved
