"""Time away from a game: coming back after running out of time (``/game rejoin``; any click
of theirs on the game does it too, :meth:`bot.play.PlayFlow.returned`), the table's vote to
replace someone who keeps it waiting (``/game kick``; the rules are :mod:`bot.clock`'s), a
pause the table agrees on (``/game pause``: more than half of the people seated ask; no time
bank runs until one of them types ``/game unpause``), and a person away from all their games
(``/game away``: their banks stop and nobody reminds them, within a yearly allowance;
:mod:`storage.absences`).  docs/time.md says it all."""

from __future__ import annotations

import logging
import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import discord

from storage import Absence, AwayAllowance, GameRecord, NotActive, Storage
from storage.records import AWAY_DAYS
from storage.timebank import DAY_MS

from .changes import record_waiting
from .clock import ClockVotes
from .errors import UserError, send_ephemeral, send_error
from .i18n import CATALOG, Catalog
from .notify import Notifier
from .seatnames import escape_name
from .service import GameService

log = logging.getLogger(__name__)


class AbsenceFlow:
    def __init__(self, service: GameService, storage: Storage, votes: ClockVotes,
                 notifier: Notifier, catalog: Catalog = CATALOG) -> None:
        self.service = service
        self.notifier = notifier
        self.storage = storage
        self.votes = votes
        self.catalog = catalog

    def lang(self, interaction: discord.Interaction[Any]) -> str:
        return self.catalog.language_of(interaction.locale)

    # --- coming back --------------------------------------------------------------------------

    async def rejoin(self, interaction: discord.Interaction[Any], game_id: int | None) -> None:
        """``/game rejoin [game]``: take back the seat an AI kept while one was out of time,
        from its next decision: in ``game``, else in the channel's game, else in every game
        where an AI keeps a seat for the caller."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        user_id = interaction.user.id
        try:
            games = await self._kept(interaction, game_id)
            back: list[int] = []
            late = False
            for record in games:
                try:
                    update = await self.service.come_back(record.id, user_id)
                except (UserError, NotActive):  # came back (or the game ended) meanwhile
                    continue
                back.append(record.id)
                late = late or update.late
            if not back:
                raise UserError("err.rejoin_nothing")
            text = self.catalog.t(lang, "reply.rejoined", games=self._games(lang, back))
            if late:
                text += "\n" + self.catalog.t(lang, "reply.table_late", game=back[0])
            await send_ephemeral(interaction, text)
        except Exception as exc:
            await send_error(interaction, exc, where="/game rejoin")

    async def _kept(self, interaction: discord.Interaction[Any], game_id: int | None
                    ) -> list[GameRecord]:
        """The games ``/game rejoin`` means (see :meth:`rejoin`); ``UserError`` for a game
        that keeps no seat for the caller."""
        user_id = interaction.user.id
        if game_id is not None:
            record = await self.storage.games.get(game_id)
            if record.stand_in_of(user_id) is None:
                raise UserError("err.not_stood_in", game=game_id)
            return [record]
        here = await self.storage.games.find_by_channel(interaction.channel_id or 0)
        if here is not None and here.stand_in_of(user_id) is not None:
            return [here]
        return await self.storage.games.list_stood_in(user_id)

    def _games(self, lang: str, ids: list[int]) -> str:
        return self.catalog.join(lang, [f"#{n}" for n in ids])

    # --- the table's vote ---------------------------------------------------------------------

    async def kick(self, interaction: discord.Interaction[Any],
                   player: discord.User | discord.Member) -> None:
        """``/game kick player``: open the table's vote on the seat of ``player``, who keeps
        the channel's game waiting (:meth:`bot.clock.ClockVotes.kick`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self.storage.games.find_by_channel(interaction.channel_id or 0)
            if record is None:
                raise UserError("err.no_game_here")
            vote = await self.votes.kick(record, interaction.user.id, player.id)
            await send_ephemeral(interaction, self.catalog.t(lang, "reply.kick_opened",
                                                             game=vote.game_id))
        except Exception as exc:
            await send_error(interaction, exc, where="/game kick")

    # --- pause ----------------------------------------------------------------------------------

    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        """``/game pause``: the caller's ask to pause the channel's game; the pause begins once
        more than half of the people seated asked (the table shows it), else the channel hears
        who asked and how many more it takes."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self._here(interaction)
            async with self.service.lock(record.id):
                before = await self.storage.games.get(record.id)
                ask = await self.storage.reminders.ask_pause(record.id, interaction.user.id)
                if ask.paused and ask.asked:  # paused by this ask
                    await self._publish(before, "log.paused")
            game_lang = ask.record.language or self.catalog.default
            if ask.paused and not ask.asked:
                text = self.catalog.t(lang, "reply.already_paused", game=record.id)
            elif ask.paused:
                text = self.catalog.t(lang, "reply.paused", game=record.id)
            else:
                text = self.catalog.t(lang, "reply.pause_counted", game=record.id,
                                      asked=len(ask.asked), needed=ask.needed)
                if record.channel_id is not None:
                    await self.notifier.mention(record.channel_id, [], self.catalog.t(
                        game_lang, "notify.pause_asked", game=record.id,
                        who=" ".join(f"<@{u}>" for u in ask.asked), asked=len(ask.asked),
                        needed=ask.needed))
            await send_ephemeral(interaction, text)
        except Exception as exc:
            await send_error(interaction, exc, where="/game pause")

    async def unpause(self, interaction: discord.Interaction[Any]) -> None:
        """``/game unpause``: any person seated ends the pause; the banks run again."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self._here(interaction)
            async with self.service.lock(record.id):
                before = await self.storage.games.get(record.id)
                after = await self.storage.reminders.unpause(record.id, interaction.user.id)
                if after is not None:
                    await self._publish(before, "log.unpaused")
            key = "reply.unpaused" if after is not None else "reply.not_paused"
            await send_ephemeral(interaction, self.catalog.t(lang, key, game=record.id))
        except Exception as exc:
            await send_error(interaction, exc, where="/game unpause")

    async def _here(self, interaction: discord.Interaction[Any]) -> GameRecord:
        record = await self.storage.games.find_by_channel(interaction.channel_id or 0)
        if record is None:
            raise UserError("err.no_game_here")
        return record

    async def _publish(self, before: GameRecord, note: str) -> None:
        """The table again after a pause began or ended (under the game's lock), with a line
        saying so in the game's language."""
        loaded = await self.storage.games.load(before.id)
        line = self.catalog.t(loaded.record.language or self.catalog.default, note)
        await self.service.publishing.publish(loaded.record, loaded.state, [],
                                              before=record_waiting(before), notes=(line,))

    # --- away -----------------------------------------------------------------------------------

    async def away(self, interaction: discord.Interaction[Any], days: int | None,
                   reason: str | None, start: str | None, until: str | None = None) -> None:
        """``/game away``: with ``days``, away from all one's games for that many days (from
        ``start``, a date in the server's time zone, else now), or ``until`` the day one is
        back (a date: the absence ends as it begins), replacing an absence under way or
        planned; ``days:0`` is back now; without, what is under way and what is left of the
        allowance.  The tables of one's running games show it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        user_id = interaction.user.id
        try:
            guild = (await self.storage.settings.guild(interaction.guild_id)
                     if interaction.guild_id is not None else None)
            allowance = AWAY_DAYS if guild is None or guild.away_days is None else guild.away_days
            if days is None and until is None:
                if reason is not None or start is not None:
                    raise UserError("err.away_days_needed")
                await send_ephemeral(interaction, await self._away_status(lang, user_id,
                                                                          allowance))
                return
            if days is not None and until is not None:
                raise UserError("err.away_days_or_until")
            if days == 0:
                if reason is not None or start is not None:
                    raise UserError("err.away_days_needed")
                games = await self.storage.absences.end(user_id)
                if games is None:
                    raise UserError("err.not_away")
                await self._republish(games, user_id, None)
                await send_ephemeral(interaction, self.catalog.t(
                    lang, "reply.away_back", games=self._games(lang, [g.id for g in games])
                    or "—"))
                return
            zone = guild.quiet.zone if guild is not None and guild.quiet is not None else "UTC"
            now = self.storage.db.clock()
            since = away_start(start, zone, now)
            ends = (since + timedelta(days=days) if days is not None
                    else away_until(until or "", zone, now, since))
            try:
                absence, games = await self.storage.absences.set(
                    user_id, since, ends,
                    escape_name(reason[:REASON_LIMIT]) if reason else None,
                    allowance_days=allowance)
            except AwayAllowance as exc:
                raise UserError("err.away_allowance", allowance=exc.allowance_days,
                                left=exc.left_ms // DAY_MS) from exc
            await self._republish(games, user_id, absence)
            await send_ephemeral(interaction, self.catalog.t(
                lang, "reply.away_set", since=moment(absence.since, "F"),
                until=moment(absence.until, "F"),
                games=self._games(lang, [g.id for g in games]) or "—"))
        except Exception as exc:
            await send_error(interaction, exc, where="/game away")

    async def _away_status(self, lang: str, user_id: int, allowance: int) -> str:
        absence = await self.storage.absences.current(user_id)
        used = await self.storage.absences.used_ms(user_id)
        left = max(0, allowance * DAY_MS - used) // DAY_MS  # whole days
        allowance_line = self.catalog.t(lang, "reply.away_allowance", left=left,
                                        allowance=allowance)
        if absence is None:
            return self.catalog.t(lang, "reply.away_none") + "\n" + allowance_line
        key = ("reply.away_now" if absence.under_way(self.storage.db.clock())
               else "reply.away_planned")
        return self.catalog.t(lang, key, since=moment(absence.since, "F"),
                              until=moment(absence.until, "F"),
                              reason=absence.reason or "—") + "\n" + allowance_line

    async def back_after_move(self, user_id: int) -> None:
        """A person away who plays is back: the absence under way ends (a planned one
        stays)."""
        absence = await self.storage.absences.current(user_id)
        if absence is None or not absence.under_way(self.storage.db.clock()):
            return
        games = await self.storage.absences.end(user_id)
        if games:
            await self._republish(games, user_id, None)

    async def _republish(self, games: list[GameRecord], user_id: int,
                         absence: Absence | None) -> None:
        """The tables of ``games`` again, with a line saying ``user_id`` is away (until when,
        why) or back."""
        for record in games:
            try:
                async with self.service.lock(record.id):
                    loaded = await self.storage.games.load(record.id)
                    lang = loaded.record.language or self.catalog.default
                    seat = loaded.record.seat_of(user_id)
                    names = await self.service.publishing.names(loaded.record)
                    name = names.get(seat.seat, "?") if seat is not None else "?"
                    planned = absence is not None and not absence.under_way(
                        self.storage.db.clock())
                    line = (self.catalog.t(lang, "log.back", name=name) if absence is None
                            else self.catalog.t(lang, "log.away_planned" if planned
                                                else "log.away", name=name,
                                                since=moment(absence.since, "D"),
                                                until=moment(absence.until, "D"),
                                                reason=f" ({absence.reason})"
                                                if absence.reason else ""))
                    await self.service.publishing.publish(
                        loaded.record, loaded.state, [], before=record_waiting(loaded.record),
                        notes=(line,))
            except Exception:
                log.warning("game %s: the table could not show the absence", record.id,
                            exc_info=True)


REASON_LIMIT = 100
_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


def moment(when: datetime, style: str) -> str:
    """A moment as Discord shows it in each reader's language and clock."""
    return f"<t:{int(when.timestamp())}:{style}>"


def away_start(text: str | None, zone: str, now: datetime) -> datetime:
    """When an absence asked for from ``text`` (a date, ``2026-12-12``, at midnight in
    ``zone``) begins; now without a date or for today.  ``UserError`` for a date that cannot be
    read, is past, or is more than a year away."""
    if text is None:
        return now
    return max(away_day(text, zone, now), now)


def away_until(text: str, zone: str, now: datetime, since: datetime) -> datetime:
    """When an absence asked for ``until`` the day ``text`` names ends: that day's midnight
    in ``zone`` (one is back that day).  ``UserError`` as for ``away_start``, and for a day not
    after the absence begins."""
    ends = away_day(text, zone, now)
    if ends <= since:
        raise UserError("err.away_until_order", date=text)
    return ends


def away_day(text: str, zone: str, now: datetime) -> datetime:
    """Midnight in ``zone`` of the day ``text`` names (``2026-12-12``), from today to a year
    away; ``UserError`` otherwise."""
    match = _DATE.match(text)
    try:
        if match is None:
            raise ValueError(text)
        day = date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError as exc:
        raise UserError("err.away_date", date=text) from exc
    begins = datetime.combine(day, time(), ZoneInfo(zone)).astimezone(UTC)
    today = now.astimezone(ZoneInfo(zone)).date()
    if day < today or day > today + timedelta(days=365):
        raise UserError("err.away_date_range", date=text)
    return begins
