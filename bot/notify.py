"""Direct messages to players, with the fall-backs a shared server needs.

**The hand-over rule** (turn DMs).  After every change the service names the people the prompt
*newly* waits on: human seats whose ``waiting_since`` changed, minus the user who just acted
(:meth:`bot.publishing.Publishing.publish`).  So:

* whoever must act next gets one DM per hand-over: the game, where it is (channel and server
  names, a link to the table message) and what is asked ("choose a role");
* the player who just acted gets none, even when the next decision is theirs again: someone who
  must make several decisions in a row is at the table and is not messaged for each of them;
* forced decisions and AI seats are played by the service before anyone is named, so they never
  cause a DM; a simultaneous prompt (arranging colonists, choosing goods to keep) names several
  seats and each of them gets one DM; a seat still waiting when another seat of the same prompt
  acts is not told again;
* each DM is claimed in storage for its wait ``(game, seat, waiting_since)``
  (:meth:`storage.reminders.ReminderRepository.claim_alert`) right before it is sent, so the same
  pending decision is never announced twice (a repeated publication, a restart, a retry).

**Fall-backs and limits.**

* A user may turn DMs off (``/game notify``; ``dm_notifications`` in storage): no turn DMs then.
* Discord refuses a DM to a user who blocks them (403, code 50007).  That is remembered
  (``dm_blocked``) so we stop trying, and the user is mentioned in the game's channel instead.
  Turning notifications on again clears the mark.
* A turn mention replaces the user's previous one in that channel (deleted once every user it
  pinged has a newer one): a player without DMs keeps one standing "your turn" line, not a pile
  of them (remembered in memory: after a restart an older one stays).
* At most one DM per user per ``min_interval`` seconds, and a global bucket keeps the bot well
  inside Discord's limits.  A hand-over that comes sooner is *deferred*, not dropped: when the
  interval has passed, every decision still pending for that user goes out in one DM (a decision
  the user took meanwhile is left out).

Reminders and the clock (:mod:`bot.reminders`, :mod:`bot.clock`) send through :meth:`Notifier.dm`
and :meth:`Notifier.mention`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from engine.core import Event
from storage import STORY_THREAD_KIND, GameRecord, Storage, UserSettings
from storage.reminders import TurnMessage

from .games import presenter_for
from .i18n import CATALOG, Catalog
from .limits import CONTENT, clip, fit
from .recap import recap_text
from .seatnames import escape_name, everyone

log = logging.getLogger(__name__)

DM_BLOCKED_CODE = 50007


def channel_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """``https://discord.com/channels/<guild>/<channel>[/<message>]`` (a jump link)."""
    base = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


class TokenBucket:
    """At most ``rate`` acquisitions per ``per`` seconds on average, bursts up to ``rate``."""

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.rate = rate
        self.per = per
        self.clock = clock
        self.sleep = sleep
        self.tokens = float(rate)
        self.updated = clock()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = self.clock()
                refill = (now - self.updated) * self.rate / self.per
                self.tokens = min(self.rate, self.tokens + refill)
                self.updated = now
                if self.tokens >= 1:
                    self.tokens -= 1
                    return
                await self.sleep((1 - self.tokens) * self.per / self.rate)


@dataclass
class NotifyReport:
    """What one round of notifications did (for logs and tests)."""

    sent: list[int] = field(default_factory=list)
    mentioned: list[int] = field(default_factory=list)
    opted_out: list[int] = field(default_factory=list)
    throttled: list[int] = field(default_factory=list)
    """Deferred until the user's DM interval has passed."""
    duplicate: list[int] = field(default_factory=list)
    """Already told about this very wait (or no longer waiting): nothing sent."""
    muted: list[int] = field(default_factory=list)
    """Muted this game: nothing sent."""
    held: list[int] = field(default_factory=list)
    """In their quiet hours (told when they end) or in digest mode (told at its hour)."""


@dataclass(frozen=True, slots=True)
class TurnNotice:
    game_id: int
    channel_id: int | None
    language: str | None
    what: dict[str, str]
    """The decision asked for, by language (``{"en": "choose a role", "es": ...}``)."""
    link: str | None
    waits: Mapping[int, tuple[int, datetime]] = field(default_factory=dict)
    """The wait each user is told about: user id -> (seat, waiting_since).  A user listed here
    is told at most once per wait; a user not listed is told unconditionally."""
    where: str = ""
    """Where the game is played, for people: "#general, Offline Table"."""
    title: Mapping[str, str] = field(default_factory=dict)
    """The game's name, by language ("Puerto Rico")."""
    recap: Callable[[int, str], Sequence[str]] | None = None
    """(user, language) -> what the others did since the user's last move (:mod:`bot.recap`),
    written only for the language each DM is sent in."""

    def text(self, lang: str) -> str:
        return self.what.get(lang) or next(iter(self.what.values()), "")


class Notifier:
    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        catalog: Catalog = CATALOG,
        *,
        min_interval: float = 60.0,
        rate: int = 5,
        per: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.client = client
        self.storage = storage
        self.catalog = catalog
        self.min_interval = min_interval
        self.clock = clock  # seconds, for the DM interval and the bucket (tests move them)
        self.sleep = sleep  # how to wait for them
        self.bucket = TokenBucket(rate, per, clock, sleep)
        self._last_dm: dict[int, float] = {}
        self._deferred: dict[int, list[TurnNotice]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._pings: dict[tuple[int, int], discord.Message] = {}
        """(channel, user) -> the turn mention standing for that user there."""

    async def set_enabled(self, user_id: int, enabled: bool) -> UserSettings:
        """``/game notify``: turning DMs on also forgets an earlier refusal (the user may have
        opened their DMs since)."""
        if enabled:
            return await self.storage.settings.update_user(
                user_id, dm_notifications=True, dm_blocked=False
            )
        return await self.storage.settings.update_user(user_id, dm_notifications=False)

    # --- turn notices -----------------------------------------------------------------------

    def where(self, record: GameRecord) -> str:
        """"#general, Offline Table" when the channel is known, else a channel mention.  The
        names are chosen by people: escaped (:func:`bot.seatnames.escape_name`)."""
        if record.channel_id is None:
            return ""
        channel = self.client.get_channel(record.channel_id)
        name = getattr(channel, "name", None)
        guild = getattr(channel, "guild", None)
        if not name:
            return f"<#{record.channel_id}>"
        here = f"#{escape_name(name)}"
        return f"{here}, {escape_name(guild.name)}" if guild is not None else here

    def notice(
        self,
        record: GameRecord,
        kind: str,
        user_ids: Sequence[int],
        table_message_id: int | None = None,
    ) -> TurnNotice:
        """The notice for the prompt ``kind`` of ``record`` to ``user_ids`` (their waits are
        read from the record's seats)."""
        waits: dict[int, tuple[int, datetime]] = {}
        for seat in record.seats:
            if (
                seat.user_id is not None
                and seat.user_id in user_ids
                and seat.waiting_since is not None
            ):
                waits[seat.user_id] = (seat.seat, seat.waiting_since)
        link = (
            channel_url(record.guild_id, record.channel_id, table_message_id)
            if record.channel_id
            else None
        )
        presenter = presenter_for(record.game)
        return TurnNotice(
            game_id=record.id,
            channel_id=record.channel_id,
            language=record.language,
            what={lang: presenter.prompt_text(kind, lang) for lang in self.catalog.languages},
            link=link,
            waits=waits,
            where=self.where(record),
            title={lang: presenter.title(lang) for lang in self.catalog.languages},
        )

    async def turn(self, notice: TurnNotice, user_ids: Sequence[int]) -> NotifyReport:
        """Tell ``user_ids`` it is their turn: a DM each, or one mention in the game channel for
        those who cannot get a DM.  A user whose last DM was too recent is told later."""
        report = NotifyReport()
        if not user_ids:
            return report
        settings = await self.storage.settings.users(list(dict.fromkeys(user_ids)))
        muting = await self.storage.settings.muting(notice.game_id)
        now = self.storage.db.clock()
        fallback: list[int] = []
        for user_id, prefs in settings.items():
            if user_id in muting:
                report.muted.append(user_id)
            elif not prefs.dm_notifications:
                report.opted_out.append(user_id)
            elif not prefs.dm_blocked and prefs.digest_hour is not None:
                report.held.append(user_id)  # the digest lists it at its hour
            elif not prefs.dm_blocked and prefs.quiet_at(now):
                report.held.append(user_id)
                # the catch-up tells this turn: the same turn published again later is no DM
                await self._claim(notice, user_id)
                await self.storage.settings.hold(user_id)
            elif prefs.dm_blocked:
                if await self._claim(notice, user_id):
                    fallback.append(user_id)
                else:
                    report.duplicate.append(user_id)
            elif self.clock() - self._last_dm.get(user_id, -1e18) < self.min_interval:
                report.throttled.append(user_id)
                self._defer(user_id, notice)
            elif not await self._claim(notice, user_id):
                report.duplicate.append(user_id)
            elif await self._turn_dm(user_id, self._turn_line(prefs, notice), [notice]):
                report.sent.append(user_id)
            else:
                fallback.append(user_id)
        if fallback and await self._turn_mention(fallback, notice):
            report.mentioned.extend(fallback)
        log.debug("game %s notifications: %s", notice.game_id, report)
        return report

    def _turn_line(self, prefs: UserSettings, notice: TurnNotice) -> str:
        lang = prefs.language or notice.language or self.catalog.default
        where = notice.where or (f"<#{notice.channel_id}>" if notice.channel_id else "")
        line = self.catalog.t(
            lang, "notify.dm", game=notice.game_id, where=where, what=notice.text(lang),
            link=notice.link or "", title=notice.title.get(lang, ""),
        ).strip()
        lines = notice.recap(prefs.user_id, lang) if notice.recap is not None else ()
        return clip("\n".join(filter(None, [line, recap_text(lines, lang, self.catalog)])),
                    CONTENT)

    async def _claim(self, notice: TurnNotice, user_id: int) -> bool:
        wait = notice.waits.get(user_id)
        if wait is None:
            return True
        seat, since = wait
        return await self.storage.reminders.claim_alert(notice.game_id, seat, "turn", since)

    async def _turn_mention(self, user_ids: list[int], notice: TurnNotice) -> bool:
        if notice.channel_id is None:
            return False
        lang = notice.language or self.catalog.default
        text = self.catalog.t(
            lang,
            "notify.channel",
            mentions=" ".join(f"<@{u}>" for u in user_ids),
            game=notice.game_id,
            what=notice.text(lang),
        )
        sent = await self._send(notice.channel_id, user_ids, text)
        if sent is None:
            return False
        await self._replace_pings(notice.channel_id, user_ids, sent)
        return True

    async def _replace_pings(self, channel_id: int, user_ids: Sequence[int],
                             sent: discord.Message) -> None:
        """``sent`` is now each of ``user_ids``' turn mention in the channel; an older one that
        no longer stands for anybody is deleted."""
        older = [self._pings.get((channel_id, u)) for u in user_ids]
        for u in user_ids:
            self._pings[(channel_id, u)] = sent
        standing = {m.id for m in self._pings.values()}
        for message in {m.id: m for m in older if m is not None}.values():
            if message.id in standing:
                continue
            try:
                await message.delete()
            except discord.HTTPException as exc:  # already gone, or no right to: it stays
                log.info("could not delete an old turn mention %s (%s)", message.id, exc.code)

    async def heads_up(self, record: GameRecord, asked: int, names: Mapping[int, str],
                       what: Mapping[str, str]) -> list[int]:
        """A person who asked for it (``heads_up``) and sits right after seat ``asked`` (alone
        in a new wait) hears that they are probably next; once per that wait (claimed in
        ``seat_alerts``), never in their quiet hours, digest mode or a game they muted.  Who
        was told."""
        seat = record.seat(asked)
        if seat is None or seat.waiting_since is None or len(record.seats) < 2:
            return []
        after = record.seats[(record.seats.index(seat) + 1) % len(record.seats)]
        user_id = after.user_id
        if user_id is None or after.waiting_since is not None or user_id == seat.user_id:
            return []
        prefs = await self.storage.settings.user(user_id)
        now = self.storage.db.clock()
        if (not prefs.heads_up or not prefs.dm_notifications or prefs.dm_blocked
                or prefs.digest_hour is not None or prefs.quiet_at(now)
                or record.id in await self.storage.settings.muted(user_id)):
            return []
        if not await self.storage.reminders.claim_heads_up(record.id, after.seat,
                                                           seat.waiting_since):
            return []
        lang = prefs.language or record.language or self.catalog.default
        text = self.catalog.t(lang, "notify.heads_up", game=record.id, where=self.where(record),
                              name=names.get(asked, "?"), what=what.get(lang, ""))
        return [user_id] if await self.dm(user_id, text) else []

    async def follow_pings(self, record: GameRecord, ended: Sequence[tuple[Event, int]],
                           names: Mapping[int, str], link: str | None) -> list[int]:
        """The people who follow ``record`` (``/game follow``; not seated) hear that the
        phases ``ended`` (``PhaseEnded`` events, each with its round) are over: by DM in their
        language, else a mention in the game's story thread (else its channel); nothing in
        their quiet hours or when they take a digest.  Who was told."""
        if not ended:
            return []
        seated = set(record.user_ids)
        followers = [u for u in await self.storage.settings.followers(record.id)
                     if u not in seated]
        if not followers:
            return []
        now = self.storage.db.clock()
        words = presenter_for(record.game).catalog
        told: list[int] = []
        mention: list[int] = []

        def text(lang: str) -> str:
            phases = [words.t(lang, "story.ended", round=round_,
                              role=words.t(lang, f"role.{e.data.get('role')}")
                              if words.has(f"role.{e.data.get('role')}") else
                              str(e.data.get("role", "?")),
                              name=names.get(e.seat, "?") if e.seat is not None else "?")
                      for e, round_ in ended]
            return self.catalog.t(lang, "notify.follow", game=record.id,
                                  where=self.where(record), phases="; ".join(phases),
                                  link=link or "").strip()

        for user_id, prefs in (await self.storage.settings.users(followers)).items():
            if prefs.digest_hour is not None or prefs.quiet_at(now):
                continue
            lang = prefs.language or record.language or self.catalog.default
            if prefs.dm_notifications and not prefs.dm_blocked and await self.dm(
                    user_id, text(lang)):
                told.append(user_id)
            else:
                mention.append(user_id)
        where = record.messages.get(STORY_THREAD_KIND) or record.channel_id
        if mention and where is not None:
            lang = record.language or self.catalog.default
            line = " ".join(f"<@{u}>" for u in mention) + " " + text(lang)
            if await self.mention(where, mention, line):
                told.extend(mention)
        return told

    # --- deferred hand-overs ----------------------------------------------------------------

    def _defer(self, user_id: int, notice: TurnNotice) -> None:
        self._deferred.setdefault(user_id, []).append(notice)
        if user_id not in self._timers:
            task = asyncio.create_task(self._later(user_id), name=f"deferred-dm-{user_id}")
            self._timers[user_id] = task
            task.add_done_callback(_log_failure)

    async def _later(self, user_id: int) -> None:
        try:
            while (wait := self._last_dm.get(user_id, 0.0) + self.min_interval
                   - self.clock()) > 0:
                await self.sleep(wait)
        finally:
            self._timers.pop(user_id, None)
            notices = self._deferred.pop(user_id, [])
        prefs = (await self.storage.settings.users([user_id]))[user_id]
        if not prefs.dm_notifications:
            return
        due = [n for n in notices if await self._claim(n, user_id)]
        if not due:
            return
        if prefs.dm_blocked or not await self._turn_dm(
            user_id, "\n".join(self._turn_line(prefs, n) for n in due), due
        ):
            for notice in due:
                await self._turn_mention([user_id], notice)

    def pending(self) -> dict[int, int]:
        """Deferred hand-overs by user (for tests and logs)."""
        return {user: len(notices) for user, notices in self._deferred.items()}

    async def close(self) -> None:
        """Forget the deferred hand-overs (at shutdown; the reminders cover them later)."""
        timers = list(self._timers.values())
        for task in timers:
            task.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    # --- the end of a game --------------------------------------------------------------------

    async def final_standings(self, record: GameRecord, names: Mapping[int, str], link: str
                              ) -> list[int]:
        """One DM to every person seated when a game ends: the final standings and a link to
        the score sheet, in their language; none to those with DMs off or blocked.  The caller
        calls this once per game (when the score sheet is first posted).  Returns who got it."""
        outcome = record.outcome or {}
        users = [s.user_id for s in record.seats if s.user_id is not None]
        sent = []
        for user_id, prefs in (await self.storage.settings.users(users)).items():
            if not prefs.dm_notifications or prefs.dm_blocked:
                continue
            lang = prefs.language or record.language or self.catalog.default
            if await self.dm(user_id, self.standings(record, outcome, names, lang, link)):
                sent.append(user_id)
        return sent

    def standings(self, record: GameRecord, outcome: Mapping[str, Any],
                  names: Mapping[int, str], lang: str, link: str) -> str:
        t = presenter_for(record.game).catalog.t
        names = everyone(names)  # "bob → AI 2 (normal)": all who held each seat
        winners = self.catalog.join(lang, [names.get(int(w), "?")
                                           for w in outcome.get("winners", ())])
        lines = [t(lang, "notify.final", game=record.id, where=self.where(record),
                   winners=winners or "?", link=link)]
        for score in sorted(outcome.get("scores", ()), key=lambda s: (s["rank"], s["seat"])):
            lines.append(t(lang, "notify.final_line", rank=score["rank"],
                           name=names.get(int(score["seat"]), "?"), total=score["total"]))
        return "\n".join(lines)

    # --- sending ----------------------------------------------------------------------------

    async def dm(self, user_id: int, text: str) -> bool:
        """Send ``text`` to ``user_id`` privately.  False when it could not be delivered; a
        refusal because the user blocks DMs is remembered (``dm_blocked``)."""
        return await self.dm_message(user_id, text) is not None

    async def dm_message(self, user_id: int, text: str) -> discord.Message | None:
        """:meth:`dm`, giving the message sent (``None``: not delivered)."""
        await self.bucket.acquire()
        self._last_dm[user_id] = self.clock()
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            return await user.send(fit(text, CONTENT))
        except discord.Forbidden as exc:
            if exc.code == DM_BLOCKED_CODE:
                log.info("user %s does not accept DMs; remembered, mentioning instead", user_id)
                await self.storage.settings.update_user(user_id, dm_blocked=True)
            else:
                log.warning("DM to %s refused (%s)", user_id, exc.code)
            return None
        except discord.HTTPException as exc:
            log.warning("DM to %s failed (%s %s)", user_id, exc.status, exc.code)
            return None

    async def _turn_dm(self, user_id: int, text: str, notices: Sequence[TurnNotice]) -> bool:
        """A turn DM telling of ``notices``; remembered by their waits, so that it is marked
        as done once they are over (:meth:`retire`)."""
        message = await self.dm_message(user_id, text)
        if message is None:
            return False
        for notice in notices:
            wait = notice.waits.get(user_id)
            if wait is not None:
                await self.storage.reminders.remember_turn_dm(TurnMessage(
                    notice.game_id, wait[0], wait[1], user_id, message.channel.id, message.id))
        return True

    async def retire(self, record: GameRecord) -> int:
        """After a change of ``record``: the turn DMs none of whose waits is current any more
        say so ("this turn is over"), in their reader's language; how many were edited."""
        edited = 0
        for retired in await self.storage.reminders.retire_turn_dms(record):
            prefs = await self.storage.settings.user(retired.user_id)
            lang = prefs.language or record.language or self.catalog.default
            games = self.catalog.join(lang, [f"#{g}" for g in retired.games])
            try:
                channel = self.client.get_channel(retired.channel_id) or (
                    await self.client.fetch_channel(retired.channel_id))
                if not isinstance(channel, discord.DMChannel | discord.PartialMessageable):
                    continue
                await channel.get_partial_message(retired.message_id).edit(
                    content=self.catalog.t(lang, "notify.dm_done", games=games))
                edited += 1
            except discord.HTTPException as exc:  # deleted by its reader, or DMs closed since
                log.info("turn DM %s could not be marked as done (%s)", retired.message_id,
                         exc.code)
        return edited

    async def mention(self, channel_id: int, user_ids: Sequence[int], text: str) -> bool:
        """Post ``text`` in the channel, pinging exactly ``user_ids`` (nobody else)."""
        return await self._send(channel_id, user_ids, text) is not None

    async def _send(self, channel_id: int, user_ids: Sequence[int], text: str
                    ) -> discord.Message | None:
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(
                channel_id
            )
            if not isinstance(channel, discord.abc.Messageable):
                return None
            return await channel.send(
                fit(text, CONTENT),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in user_ids]
                ),
            )
        except discord.HTTPException as exc:
            log.warning("could not mention %s in channel %s (%s)", user_ids, channel_id,
                        exc.code)
            return None


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task %s failed", task.get_name(), exc_info=task.exception())
