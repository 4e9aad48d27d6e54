"""Reminders: a background loop that nudges players who keep a decision pending, warns them as
their time bank runs low, and lets an AI stand in once it ran out (:mod:`bot.clock`).

The rules (also in docs/bot.md):

* A person whose seat has waited on one decision for longer than the game's reminder interval
  (the game's own ``reminder_hours``, else the server's ``reminder_hours`` guild setting, else
  :data:`DEFAULT_REMINDER_HOURS`) gets **one** reminder for that wait.
* At most one reminder per person per :data:`NUDGE_CAP` (24 h) across all their games: a
  reminder lists every game then overdue for that person, and a game that becomes overdue
  within 24 h of the last reminder waits for the next one (``user_settings.last_nudge_at``).
* The reminder is a DM in the person's language (their setting, else the game's); someone who
  turned DMs off or blocks them is mentioned in each game's channel instead (a reminder is the
  last resort before the clock, so it is never silently dropped).
* Each reminder is claimed in storage before it is sent
  (:meth:`storage.reminders.ReminderRepository.claim_nudge`): never twice, even with two bots on
  one database.

Time is injected: :meth:`Reminders.tick` reads "now" from the storage's clock, so tests move a
fake clock and call ``tick()`` instead of sleeping.  :meth:`Reminders.start` runs ``tick`` every
``period`` seconds until :meth:`Reminders.stop`.

Each pass also retries the games whose channel refused the bot's posts (``retry``:
:meth:`bot.publisher.DiscordPublisher.retry_blocked`): once an admin grants what was missing,
the table is published again within one period; and it moves on the games left behind
(``resume``: :meth:`bot.service.GameService.resume_stalled`), those waiting on an AI move that
failed and those whose table shows an older version than the stored one (a publication that
failed: a lasting 5xx from Discord, the database gone meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.core import get_game
from storage import (
    CHANNEL_GONE_KIND,
    STORY_THREAD_KIND,
    GameRecord,
    GameStatus,
    Storage,
    UserSettings,
    Wait,
)
from storage.reminders import AlertKind
from storage.timebank import left, runs_out, stopped

from .clock import ClockVotes
from .games import presenter_for
from .i18n import CATALOG, Catalog
from .notify import Notifier, channel_url

log = logging.getLogger(__name__)

DEFAULT_REMINDER_HOURS = 24
NUDGE_CAP = timedelta(hours=24)
MIN_REMINDER = timedelta(hours=1)
"""The shortest interval a game or server can set (whole hours); older waits are looked at."""
BATCH = 500


@dataclass
class TickReport:
    """What one pass did (for logs and tests)."""

    nudged: dict[int, list[int]] = field(default_factory=dict)
    """User id -> the games their reminder listed."""
    mentioned: list[int] = field(default_factory=list)
    """Users reminded in the game channel instead of a DM."""
    capped: list[int] = field(default_factory=list)
    """Users with an overdue game who were reminded less than 24 h ago."""
    stood_in: list[int] = field(default_factory=list)
    """Games in which an AI began standing in for a person out of time."""
    abandoned: list[int] = field(default_factory=list)
    """Games abandoned because every person had been out of time for the server's days."""
    caught_up: list[int] = field(default_factory=list)
    """People told, as their quiet hours ended, what was held for them."""
    digests: list[int] = field(default_factory=list)
    """People sent their daily digest."""
    warned: list[tuple[int, int, str]] = field(default_factory=list)
    """(user, game, ``bank_half`` or ``bank_tenth``): the bank warnings sent."""
    closed: int = 0
    """Clock votes closed because they no longer made sense."""
    republished: int = 0
    """Games published again after their channel refused the bot's posts."""
    resumed: int = 0
    """Games moved on after an AI move that failed, or published again after a publication
    that failed (``resume``)."""


class Reminders:
    def __init__(
        self,
        storage: Storage,
        notifier: Notifier,
        votes: ClockVotes | None = None,
        catalog: Catalog = CATALOG,
        *,
        clock: Callable[[], datetime] | None = None,
        period: float | None = 300.0,
        default_hours: int = DEFAULT_REMINDER_HOURS,
        retry: Callable[[], Awaitable[int]] | None = None,
        owns: Callable[[int | None], bool] = lambda _guild_id: True,
        resume: Callable[[datetime], Awaitable[int]] | None = None,
    ) -> None:
        self.storage = storage
        self.owns = owns
        """Whether this process serves a server's games (its shards: ``Settings.owns_guild``);
        the waits of the others are another process's to remind."""
        self.notifier = notifier
        self.votes = votes
        self.catalog = catalog
        self.clock = clock or storage.db.clock
        self.period = period
        self.default_hours = default_hours
        self.retry = retry
        self.resume = resume
        """Given "now", resume the stalled games of this process's servers
        (``GameService.resume_stalled``)."""
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    # --- the loop ---------------------------------------------------------------------------

    def start(self) -> None:
        """Run :meth:`tick` every ``period`` seconds (nothing when ``period`` is ``None``)."""
        if self.period is None or self._task is not None:
            return
        self._task = asyncio.create_task(self._run(self.period), name="reminders")

    async def _run(self, period: float) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                report = await self.tick()
            except Exception:
                log.exception("the reminder pass failed; trying again in %s s", period)
            else:
                if (report.nudged or report.stood_in or report.abandoned or report.closed
                        or report.republished or report.resumed):
                    log.info("reminders: %s", report)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- one pass ---------------------------------------------------------------------------

    async def tick(self) -> TickReport:
        """Publish again the games whose channel refused the bot, move on those left waiting on
        a failed AI move, close the clock votes that no longer make sense, open those whose
        clock ran out, and send the reminders that are due."""
        async with self._lock:
            report = TickReport()
            if self.retry is not None:
                try:
                    report.republished = await self.retry()
                except Exception:
                    log.warning("retrying the blocked games failed", exc_info=True)
            now = self.clock()
            if self.resume is not None:
                try:
                    report.resumed = await self.resume(now)
                except Exception:
                    log.warning("resuming the stalled games failed", exc_info=True)
            if self.votes is not None:
                report.closed = await self.votes.sweep()
            due: dict[int, list[Wait]] = {}
            late: list[Wait] = []
            warn: list[tuple[Wait, AlertKind]] = []
            after: datetime | None = None
            while True:
                waits = await self.storage.reminders.waits(
                    before=now - MIN_REMINDER, after=after, limit=BATCH
                )
                for wait in waits:
                    if not self.owns(wait.guild_id) or stopped(wait.stops, now):
                        continue  # another process's; or paused: nobody is asked anything
                    quiet = wait.own_quiet is not None and wait.own_quiet.holds(now)
                    hours = wait.own_hours or wait.reminder_hours or self.default_hours
                    if (not wait.nudged and not quiet and not wait.digest and not wait.muted
                            and wait.waiting_since <= now - timedelta(hours=hours)):
                        due.setdefault(wait.user_id, []).append(wait)
                    if wait.bank_ms is not None:
                        rest = left(wait.bank_ms, wait.waiting_since, now, wait.quiet, wait.stops)
                        if rest <= 0:
                            late.append(wait)
                        elif not quiet and (kind := bank_warning(wait, rest)) is not None:
                            warn.append((wait, kind))  # (in quiet hours: at their end)
                if len(waits) < BATCH:
                    break
                # Waits that began at the same moment straddle pages only in pathological
                # cases (a batch of 500 simultaneous waits); they are seen at the next pass.
                after = waits[-1].waiting_since
            for wait in late:
                if self.votes is not None and await self.votes.ran_out(wait):
                    report.stood_in.append(wait.game_id)
            if self.votes is not None:
                report.abandoned = await self.votes.stalls(now)
            for wait, kind in warn:
                if await self.storage.reminders.claim_alert(
                        wait.game_id, wait.seat, kind, wait.waiting_since):
                    await self._warn(wait, kind)
                    report.warned.append((wait.user_id, wait.game_id, kind))
            report.caught_up = await self._catch_up(now)
            report.digests = await self._digests(now)
            for user_id, waits in due.items():
                last = waits[0].last_nudge_at
                if last is not None and last > now - NUDGE_CAP:
                    report.capped.append(user_id)
                    continue
                claimed = await self.storage.reminders.claim_nudge(
                    user_id, waits, not_after=now - NUDGE_CAP
                )
                if not claimed:
                    report.capped.append(user_id)
                    continue
                report.nudged[user_id] = [w.game_id for w in claimed]
                if not await self._nudge(user_id, claimed, now):
                    report.mentioned.append(user_id)
            return report

    async def _nudge(self, user_id: int, waits: list[Wait], now: datetime) -> bool:
        """Remind ``user_id`` of ``waits`` by DM; True when the DM went out, False when they
        were mentioned in the channels instead."""
        prefs = await self.storage.settings.user(user_id)
        lang = prefs.language or waits[0].language or self.catalog.default
        lines: list[str] = [self.catalog.t(lang, "notify.nudge")]
        described: list[tuple[Wait, GameRecord, str]] = []
        for wait in waits:
            record, what = await self._describe(wait, lang)
            if record is None:
                continue
            described.append((wait, record, what))
            lines.append(self.catalog.t(
                lang,
                "notify.nudge_line",
                game=record.id,
                where=self.notifier.where(record),
                hours=_hours(now - wait.waiting_since),
                what=what,
                link=_link(record),
            ).strip())
        if not described:
            return True
        if prefs.dm_notifications and not prefs.dm_blocked and await self.notifier.dm(
            user_id, "\n".join(lines)
        ):
            return True
        for wait, record, _ in described:
            if record.channel_id is None:
                continue
            game_lang = record.language or self.catalog.default
            _, what = await self._describe(wait, game_lang)
            text = self.catalog.t(
                game_lang,
                "notify.nudge_channel",
                mention=f"<@{user_id}>",
                game=record.id,
                hours=_hours(now - wait.waiting_since),
                what=what,
            )
            await self.notifier.mention(record.channel_id, [user_id], text)
        return False

    # --- quiet hours and digests ---------------------------------------------------------------

    async def _catch_up(self, now: datetime) -> list[int]:
        """The people whose quiet hours held something back and are over: one DM with what
        waits on them now (a decision taken meanwhile is left out); each once (the hold is
        released by a compare-and-set)."""
        told: list[int] = []
        for prefs in await self.storage.settings.held():
            if prefs.quiet_at(now) or prefs.held_at is None:
                continue
            if not await self.storage.settings.release(prefs.user_id, prefs.held_at):
                continue  # another pass (another process) took it
            if prefs.digest_hour is not None:
                continue  # the digest tells it at its hour
            if await self._waiting_dm(prefs, now, "notify.caught_up"):
                told.append(prefs.user_id)
                # it reminded them of all that waits: the next reminder a day later at most
                await self.storage.settings.mark_nudged(prefs.user_id, now)
        return told

    async def _digests(self, now: datetime) -> list[int]:
        """The daily digests due: one DM each listing every game waiting on the person (and
        those where an AI plays for them), at their hour in their time zone; nothing on a day
        nothing waits."""
        sent: list[int] = []
        for prefs in await self.storage.settings.digest_users():
            moment = prefs.digest_due(now)
            if moment is None or not await self.storage.settings.claim_digest(
                    prefs.user_id, moment, now):
                continue
            if await self._waiting_dm(prefs, now, "notify.digest"):
                sent.append(prefs.user_id)
        return sent

    async def _waiting_dm(self, prefs: UserSettings, now: datetime, title: str) -> bool:
        """A DM to ``prefs``' person listing every open game waiting on them and those where an
        AI stands in for them (``title`` above); False when there is nothing to list or the DM
        did not go through."""
        if not prefs.dm_notifications or prefs.dm_blocked:
            return False
        muted = await self.storage.settings.muted(prefs.user_id)
        waiting = [r for r in await self.storage.games.list_waiting_on(prefs.user_id)
                   if r.id not in muted]
        stood_in = await self.storage.games.list_stood_in(prefs.user_id)
        first = next(iter([*waiting, *stood_in]), None)
        # the person's language, else their first game's (as a reminder)
        lang = prefs.language or (first.language if first else None) or self.catalog.default
        lines: list[str] = []
        for record in waiting:
            seat = record.seat_of(prefs.user_id)
            if seat is None or seat.waiting_since is None:
                continue
            described, what = await self._describe_game(record.id, lang)
            if described is None:
                continue
            lines.append(self.catalog.t(
                lang, "notify.nudge_line", game=record.id, where=self.notifier.where(record),
                hours=_hours(now - seat.waiting_since), what=what, link=_link(record)).strip())
        for record in stood_in:
            lines.append(self.catalog.t(lang, "notify.digest_stood_in", game=record.id,
                                        where=self.notifier.where(record)))
        if not lines:
            return False
        return await self.notifier.dm(prefs.user_id, "\n".join(
            [self.catalog.t(lang, title), *lines]))

    async def _warn(self, wait: Wait, kind: AlertKind) -> None:
        """Tell the person of ``wait`` that half of its bank is spent, or that a tenth is
        left (``kind``): by DM in their language, else a mention in the game's story thread
        (else its channel)."""
        prefs = await self.storage.settings.user(wait.user_id)
        lang = prefs.language or wait.language or self.catalog.default
        record, what = await self._describe(wait, lang)
        if record is None or wait.bank_ms is None:
            return
        out = runs_out(wait.bank_ms, wait.waiting_since, wait.quiet, wait.stops)
        if out is None:  # paused meanwhile
            return
        when = f"<t:{int(out.timestamp())}:R>"
        text = self.catalog.t(lang, f"notify.{kind}", game=record.id,
                              where=self.notifier.where(record), what=what, when=when,
                              link=_link(record)).strip()
        if prefs.dm_notifications and not prefs.dm_blocked and await self.notifier.dm(
                wait.user_id, text):
            return
        where = record.messages.get(STORY_THREAD_KIND) or record.channel_id
        if where is not None:  # the game's thread, else its channel
            game_lang = record.language or self.catalog.default
            _, what = await self._describe(wait, game_lang)
            await self.notifier.mention(where, [wait.user_id], self.catalog.t(
                game_lang, f"notify.{kind}_channel", mention=f"<@{wait.user_id}>",
                game=record.id, what=what, when=when))

    async def _describe(self, wait: Wait, lang: str) -> tuple[GameRecord | None, str]:
        """The game of ``wait`` and, in words, what it asks of the seat."""
        return await self._describe_game(wait.game_id, lang)

    async def _describe_game(self, game_id: int, lang: str) -> tuple[GameRecord | None, str]:
        """The game and, in words, what it asks now (``None`` for a game not running)."""
        loaded = await self.storage.games.load(game_id)
        if loaded.record.status is not GameStatus.ACTIVE or loaded.state is None or (
                CHANNEL_GONE_KIND in loaded.record.messages):  # paused: its players were told
            return None, ""
        prompt = get_game(loaded.record.game).prompt(loaded.state)
        what = (presenter_for(loaded.record.game).prompt_text(prompt.kind, lang)
                if prompt is not None else "?")
        return loaded.record, what


def bank_warning(wait: Wait, rest: int) -> AlertKind | None:
    """The warning a wait is due with ``rest`` of its bank left (the bank it began with:
    ``wait.bank_ms``): a tenth left, else half spent, each once; ``None`` when none is due."""
    bank = wait.bank_ms or 0
    if rest * 10 <= bank and not wait.warned_tenth:
        return "bank_tenth"
    if rest * 2 <= bank and not (wait.warned_half or wait.warned_tenth):
        return "bank_half"
    return None


def _hours(delta: timedelta) -> int:
    return int(delta.total_seconds() // 3600)


def _link(record: GameRecord) -> str:
    if record.channel_id is None:
        return ""
    return channel_url(record.guild_id, record.channel_id, record.messages.get("table"))
