"""The clock: what happens when a person keeps a game waiting.

The rules (also in docs/time.md):

* A wait spends the seat's time bank from its ``waiting_since`` (when the prompt named it;
  :mod:`storage.timebank`, the game's pace); the reminder loop (:mod:`bot.reminders`) sees when
  it ran out.  A game without a pace (the default, *unlimited*) has no banks.
* **Out of time** (:meth:`ClockVotes.ran_out`): nobody has to act.  An AI (the table's level,
  else normal) stands in for the person from that decision on, until they come back: their
  next click on the game or ``/game rejoin`` gives them the seat back from its next decision,
  with a bank of what the pace gives one move.  They are told by DM (else mentioned in the
  game's channel); the log says who played what.  While no person is left at the table (all
  timed out, or the rest are AI seats) the stand-ins wait; such a game is abandoned
  (:meth:`ClockVotes.stalls`) once the last person has been out of time for the server's
  ``abandon_days`` (default 14): no result, nobody rated.
* **Kick** (``/game kick``): a table that wants to act before the bank runs out (or that plays
  without a pace) opens a vote on a seat that has kept the game waiting for at least its
  reminder interval: a message in the game's channel mentioning the late player and the
  voters, with two persistent buttons (``cv:<vote>:ai``, ``cv:<vote>:abandon``).  Only the
  *other* people seated vote.  Majority: a choice wins as soon as **more than half of the
  voters** chose it (one voter: one vote; two: both; three: two; four: three).  A tie decides
  nothing; a voter may change their vote until the vote is decided.  The late player playing
  first cancels the vote, as do a finished game and a seat handed over meanwhile.  "Let an AI
  take over": the seat becomes an AI seat for good (:meth:`bot.service.GameService.hand_to_ai`
  re-checks under the game's lock that the player has not acted).  "Abandon the game": the
  game ends without a result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, Literal

import discord

from engine.core import get_game
from storage import ClockVote, GameRecord, GameStatus, NotActive, NotSeated, Storage, Wait

from .components import button_look, checked_id
from .errors import UserError, send_ephemeral, send_error
from .games import presenter_for
from .i18n import CATALOG, Catalog
from .notify import Notifier
from .presenters import ai_level_name
from .seats import takeover_level
from .service import GameService

log = logging.getLogger(__name__)

Choice = Literal["ai", "abandon"]
CHOICES: tuple[Choice, ...] = ("ai", "abandon")
DEFAULT_AI = "heuristic"


def voters(record: GameRecord, late_user: int) -> tuple[int, ...]:
    """Who votes on ``late_user``'s seat: every other person seated at the table."""
    return tuple(u for u in record.user_ids if u != late_user)


def needed(voter_count: int) -> int:
    """Votes a choice needs to win: more than half of the voters."""
    return voter_count // 2 + 1


def decision(vote: ClockVote, eligible: tuple[int, ...]) -> Choice | None:
    """The winning choice, counting the ballots of ``eligible`` voters only; ``None`` while no
    choice has a majority (a tie included)."""
    need = needed(len(eligible))
    for choice in CHOICES:
        if sum(1 for u, c in vote.ballots.items() if u in eligible and c == choice) >= need:
            return choice
    return None


def still_current(vote: ClockVote, record: GameRecord) -> bool:
    """The vote still makes sense: the game is running and the late player still holds the seat
    in the same wait (they have not played)."""
    seat = record.seat(vote.seat)
    return (
        record.status is GameStatus.ACTIVE
        and seat is not None
        and seat.user_id == vote.user_id
        and seat.waiting_since == vote.waiting_since
    )


class ClockVoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cv:(?P<vote>[0-9]{1,19}):(?P<choice>ai|abandon)",
):
    """A vote button; the vote lives in storage, so it survives restarts."""

    def __init__(
        self,
        vote_id: int,
        choice: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=checked_id(f"cv:{vote_id}:{choice}")
            )
        )
        self.vote_id = vote_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ClockVoteButton:
        label, style = button_look(item)
        return cls(int(match["vote"]), match["choice"], label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        votes: ClockVotes | None = getattr(interaction.client, "clock_votes", None)
        try:
            if votes is None:
                raise RuntimeError("the bot has no clock votes")
            await votes.click(interaction, self.vote_id, "ai" if self.choice == "ai" else "abandon")
        except Exception as exc:  # the handler reports its own errors; this is the last net
            await send_error(interaction, exc, where=f"clock vote {self.custom_id}")


def vote_view(vote_id: int, lang: str, catalog: Catalog = CATALOG) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        ClockVoteButton(
            vote_id,
            "ai",
            label=catalog.t(lang, "button.clock_ai"),
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        ClockVoteButton(
            vote_id,
            "abandon",
            label=catalog.t(lang, "button.clock_abandon"),
            style=discord.ButtonStyle.danger,
        )
    )
    return view


class ClockVotes:
    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        storage: Storage,
        notifier: Notifier,
        catalog: Catalog = CATALOG,
        *,
        owns: Callable[[int | None], bool] = lambda _guild_id: True,
        reminder_hours: int = 24,
    ) -> None:
        self.client = client
        self.reminder_hours = reminder_hours
        """The reminder interval of a game and server that set none: a kick waits as long."""
        self.owns = owns
        """Whether this process serves a server's games (:class:`bot.reminders.Reminders`)."""
        self.service = service
        self.storage = storage
        self.notifier = notifier
        self.catalog = catalog

    def _lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's clock-vote lock, in every process on the database (independent of the
        game's own lock, which the vote's work takes inside it)."""
        return self.storage.db.lock(game_id, "clock")

    def _lang(self, record: GameRecord) -> str:
        return record.language or self.catalog.default

    # --- out of time ------------------------------------------------------------------------

    async def ran_out(self, wait: Wait) -> bool:
        """The bank of ``wait`` ran out: an AI stands in for its person until they come back
        (:meth:`bot.service.GameService.hand_to_ai`, reason ``timeout``), and they are told
        how to come back.  False when the wait was over meanwhile (they played, the game
        ended)."""
        try:
            await self.service.hand_to_ai(
                wait.game_id, wait.seat,
                takeover_level(await self.storage.games.get(wait.game_id)),
                user_id=wait.user_id, waiting_since=wait.waiting_since, reason="timeout")
        except (UserError, NotActive):
            return False
        record = await self.storage.games.get(wait.game_id)
        prefs = await self.storage.settings.user(wait.user_id)
        if prefs.dm_notifications and not prefs.dm_blocked and prefs.quiet_at(
                self.storage.db.clock()):
            await self.storage.settings.hold(wait.user_id)  # told as their quiet hours end
            return True
        lang = prefs.language or self._lang(record)
        text = self.catalog.t(lang, "notify.stood_in", game=record.id,
                              where=self.notifier.where(record))
        if prefs.dm_notifications and not prefs.dm_blocked and await self.notifier.dm(
                wait.user_id, text):
            return True
        if record.channel_id is not None:
            await self.notifier.mention(record.channel_id, [wait.user_id], self.catalog.t(
                self._lang(record), "notify.stood_in_channel", mention=f"<@{wait.user_id}>",
                game=record.id))
        return True

    async def stalls(self, now: datetime) -> list[int]:
        """Abandon the games in which every person has been out of time (an AI stands in for
        each) for their server's ``abandon_days``, counted from the last of them; the ids of
        those abandoned.  Each is checked again under the game's lock: a person who came back
        meanwhile keeps it going."""
        done: list[int] = []
        for stall in await self.storage.reminders.stalls(before=now):
            if not self.owns(stall.guild_id):
                continue
            async with self.service.lock(stall.game_id):
                record = await self.storage.games.get(stall.game_id)
                last = max((s.stood_in_at for s in record.seats if s.stood_in_at), default=None)
                if (record.status is not GameStatus.ACTIVE or record.present or last is None
                        or last > now - timedelta(days=stall.days)):
                    continue
                record = await self.storage.games.abandon(record.id,
                                                          expected_version=record.version)
            log.info("game %s: every person out of time for %s days; abandoned",
                     record.id, stall.days)
            done.append(record.id)
            await self._close_table(record)
            if record.channel_id is not None:
                kept = [s.stand_in_for for s in record.seats if s.stand_in_for is not None]
                await self.notifier.mention(record.channel_id, kept, self.catalog.t(
                    self._lang(record), "notify.stall_abandoned", game=record.id,
                    days=stall.days, mentions=" ".join(f"<@{u}>" for u in kept)))
        return done

    async def _close_table(self, record: GameRecord) -> None:
        """The abandoned game's table loses its buttons (where the bot publishes tables)."""
        publisher = getattr(self.client, "publisher", None)
        if publisher is None:
            return
        try:
            await publisher.close_game(record, await self.service.publishing.names(record))
        except Exception:
            log.warning("game %s: the abandoned table could not be closed", record.id,
                        exc_info=True)

    # --- kick -------------------------------------------------------------------------------

    async def kick(self, record: GameRecord, by: int, target: int) -> ClockVote:
        """``/game kick``: ``by`` asks the table to replace ``target``, whose seat keeps the
        game waiting; the vote opened and posted.  Refused (``UserError``) unless ``by`` and
        ``target`` are two people seated in the running game, the game waits on ``target``,
        and it has waited at least the game's reminder interval; or when a vote on that wait
        is already open."""
        if record.status is not GameStatus.ACTIVE:
            raise UserError("err.not_active", game=record.id, status=record.status)
        if record.seat_of(by) is None:
            raise NotSeated(record.id, user_id=by)
        if by == target:
            raise UserError("err.kick_self", game=record.id)
        seat = record.seat_of(target)
        if seat is None:
            raise UserError("err.kick_not_seated", game=record.id, player=f"<@{target}>")
        async with self._lock(record.id):
            wait = await self.storage.reminders.wait_of(record.id, seat.seat)
            if wait is None:
                raise UserError("err.kick_not_waiting", game=record.id, player=f"<@{target}>")
            hours = wait.reminder_hours or self.reminder_hours
            ready = wait.waiting_since + timedelta(hours=hours)
            now = self.storage.db.clock()
            if now < ready:
                raise UserError("err.kick_too_soon", game=record.id, player=f"<@{target}>",
                                hours=hours, when=f"<t:{int(ready.timestamp())}:R>")
            vote = await self.storage.reminders.open_vote(wait, by)
            if vote is None:
                raise UserError("err.kick_open", game=record.id, player=f"<@{target}>")
            if vote.channel_id is None or not await self._post(vote, record, by):
                await self.storage.reminders.close_vote(vote.id, "cancelled")
                raise UserError("err.kick_unposted", game=record.id)
            log.info("game %s: user %s opened vote %s on seat %s", record.id, by, vote.id,
                     vote.seat)
            return await self.storage.reminders.vote(vote.id)

    async def _post(self, vote: ClockVote, record: GameRecord, by: int) -> bool:
        assert vote.channel_id is not None
        lang = self._lang(record)
        eligible = voters(record, vote.user_id)
        try:
            channel = self.client.get_channel(vote.channel_id) or await self.client.fetch_channel(
                vote.channel_id
            )
            if not isinstance(channel, discord.abc.Messageable):
                return False
            message = await channel.send(
                await self._open_text(vote, record, lang, by),
                view=vote_view(vote.id, lang, self.catalog),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False,
                    roles=False,
                    users=[discord.Object(u) for u in (vote.user_id, *eligible)],
                ),
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not post the clock vote (%s)", record.id, exc.code)
            return False
        await self.storage.reminders.set_vote_message(vote.id, message.id)
        return True

    async def _what(self, record: GameRecord, lang: str) -> str:
        loaded = await self.storage.games.load(record.id)
        prompt = get_game(record.game).prompt(loaded.state) if loaded.state is not None else None
        return presenter_for(record.game).prompt_text(prompt.kind, lang) if prompt else "?"

    async def _open_text(self, vote: ClockVote, record: GameRecord, lang: str,
                         by: int | None = None) -> str:
        eligible = voters(record, vote.user_id)
        waited = self.catalog.duration(lang, (vote.opened_at - vote.waiting_since).total_seconds())
        opening = self.catalog.t(
            lang,
            "notify.kick_vote",
            game=record.id,
            by=f"<@{by}>" if by is not None else "?",
            player=f"<@{vote.user_id}>",
            waited=waited,
            what=await self._what(record, lang),
            voters=" ".join(f"<@{u}>" for u in eligible),
            needed=needed(len(eligible)),
            count=len(eligible),
        )
        tally = self.catalog.t(
            lang,
            "notify.clock_tally",
            ai=vote.count("ai"),
            abandon=vote.count("abandon"),
            needed=needed(len(eligible)),
        )
        return f"{opening}\n{tally}"

    # --- voting -----------------------------------------------------------------------------

    async def click(
        self, interaction: discord.Interaction[Any], vote_id: int, choice: Choice
    ) -> None:
        await interaction.response.defer()  # a deferred update of the vote message
        user_lang = self.catalog.language_of(interaction.locale)
        try:
            vote = await self.storage.reminders.vote(vote_id)
        except LookupError:
            await send_ephemeral(interaction, self.catalog.t(user_lang, "err.clock_over"))
            return
        if interaction.message is None or interaction.message.id != vote.message_id:
            # Its buttons redraw the message they sit on: only ever the vote's own message.
            await send_error(interaction, UserError("err.wrong_message"),
                             where=f"clock vote {vote_id} on another message")
            return
        try:
            async with self._lock(vote.game_id):
                await self._click(interaction, vote, choice, user_lang)
        except Exception as exc:
            await send_error(interaction, exc, where=f"clock vote {vote_id} {choice}")

    async def _click(
        self, interaction: discord.Interaction[Any], vote: ClockVote, choice: Choice, user_lang: str
    ) -> None:
        record = await self.storage.games.get(vote.game_id)
        lang = self._lang(record)
        if vote.is_open and not still_current(vote, record):
            await self._close(vote, record, "cancelled")
            vote = await self.storage.reminders.vote(vote.id)
        if not vote.is_open:
            await interaction.edit_original_response(
                content=self._closed_text(vote, record, lang), view=None
            )
            await send_ephemeral(interaction, self.catalog.t(user_lang, "err.clock_over"))
            return
        eligible = voters(record, vote.user_id)
        if interaction.user.id not in eligible:
            raise UserError("err.clock_not_voter", game=record.id)
        vote = await self.storage.reminders.cast(vote.id, interaction.user.id, choice)
        outcome = decision(vote, eligible)
        if outcome is None:
            await interaction.edit_original_response(
                content=await self._open_text(vote, record, lang, vote.opened_by),
                view=vote_view(vote.id, lang, self.catalog),
            )
            await send_ephemeral(
                interaction, self.catalog.t(user_lang, f"reply.clock_voted_{choice}")
            )
            return
        status = await self._carry_out(vote, record, outcome)
        vote = await self.storage.reminders.vote(vote.id)
        record = await self.storage.games.get(vote.game_id)
        await interaction.edit_original_response(
            content=self._closed_text(vote, record, lang), view=None
        )
        log.info("game %s: clock vote %s decided: %s", record.id, vote.id, status)

    async def _carry_out(self, vote: ClockVote, record: GameRecord, outcome: Choice) -> str:
        """Apply the decision; returns the vote's final status."""
        if outcome == "ai":
            try:
                await self.service.hand_to_ai(
                    record.id,
                    vote.seat,
                    takeover_level(record),
                    user_id=vote.user_id,
                    waiting_since=vote.waiting_since,
                    reason="clock",
                )
            except (UserError, NotActive):  # the player played, or the game ended, meanwhile
                await self.storage.reminders.close_vote(vote.id, "cancelled")
                return "cancelled"
            await self.storage.reminders.close_vote(vote.id, "takeover")
            return "takeover"
        async with self.service.lock(record.id):
            current = await self.storage.games.get(record.id)
            if not still_current(vote, current):
                await self.storage.reminders.close_vote(vote.id, "cancelled")
                return "cancelled"
            abandoned = await self.storage.games.abandon(record.id,
                                                         expected_version=current.version)
            await self.storage.reminders.close_vote(vote.id, "abandon")
        await self._close_table(abandoned)
        return "abandon"

    def _closed_text(self, vote: ClockVote, record: GameRecord, lang: str) -> str:
        player = f"<@{vote.user_id}>"
        if vote.status == "takeover":
            seat = record.seat(vote.seat)
            level = ai_level_name(
                (seat.ai_policy if seat else None) or DEFAULT_AI, lang, self.catalog
            )
            return self.catalog.t(
                lang, "notify.clock_takeover", game=record.id, player=player, level=level
            )
        if vote.status == "abandon":
            return self.catalog.t(lang, "notify.clock_abandoned", game=record.id)
        if record.status is GameStatus.ACTIVE:
            return self.catalog.t(lang, "notify.clock_cancelled", game=record.id, player=player)
        return self.catalog.t(lang, "notify.clock_game_over", game=record.id)

    # --- cancelling ---------------------------------------------------------------------------

    async def after_change(self, record: GameRecord) -> None:
        """After a change of ``record``: the votes whose late player has just played are over.
        (A seat handed to an AI is closed by the vote itself; other endings by :meth:`sweep`.)"""
        for vote in await self.storage.reminders.open_votes(record.id):
            seat = record.seat(vote.seat)
            if (
                seat is not None
                and seat.user_id == vote.user_id
                and seat.waiting_since != vote.waiting_since
            ):
                async with self._lock(record.id):
                    await self._close(vote, await self.storage.games.get(record.id), "cancelled")

    async def sweep(self) -> int:
        """Close every open vote that no longer makes sense (the player played, the game ended,
        the seat changed hands); returns how many were closed."""
        closed = 0
        for vote in await self.storage.reminders.open_votes():
            if not self.owns((await self.storage.games.get(vote.game_id)).guild_id):
                continue  # another process's server
            async with self._lock(vote.game_id):
                record = await self.storage.games.get(vote.game_id)
                if not still_current(vote, record):
                    closed += await self._close(vote, record, "cancelled")
        return closed

    async def _close(
        self, vote: ClockVote, record: GameRecord, status: Literal["cancelled"]
    ) -> bool:
        if not await self.storage.reminders.close_vote(vote.id, status):
            return False
        closed = await self.storage.reminders.vote(vote.id)
        log.info("game %s: clock vote %s %s", record.id, vote.id, status)
        if vote.channel_id is None or vote.message_id is None:
            return True
        try:
            channel = self.client.get_channel(vote.channel_id) or await self.client.fetch_channel(
                vote.channel_id
            )
            if not isinstance(channel, discord.TextChannel | discord.Thread):
                return True
            await channel.get_partial_message(vote.message_id).edit(
                content=self._closed_text(closed, record, self._lang(record)), view=None
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not edit the clock vote (%s)", record.id, exc.code)
        return True
