"""The per-game clock: when a player's time bank runs out (:mod:`storage.timebank`, the
game's pace), the other players vote to let an AI take the seat or to abandon the game.

The rules (also in docs/bot.md and docs/time.md):

* A wait spends the seat's bank from its ``waiting_since`` (when the prompt named it); the
  reminder loop (:mod:`bot.reminders`) sees when it ran out.  A game without a pace (the
  default, *unlimited*; ``/game new pace:`` sets one) has no clock.
* When it runs out, one vote is opened for that wait: a message in the game's channel that
  mentions the late player and the voters, with two persistent buttons (``cv:<vote>:ai``,
  ``cv:<vote>:abandon``).  Only the *other* people seated at the table vote; a table whose only
  person is the late player (the rest are AI seats) gets no vote.
* Majority: a choice wins as soon as **more than half of the voters** chose it (one voter: one
  vote; two: both; three: two; four: three).  A tie decides nothing and the game keeps waiting;
  a voter may change their vote until the vote is decided.
* The late player playing before that cancels the vote (the message says so); so do a finished
  or abandoned game and a seat handed over by other means.
* "Let an AI take over": the seat becomes an AI seat (the level of the table's other AI seats,
  else normal) and, if the game waits on it, the AI plays at once through
  :meth:`bot.service.GameService.hand_to_ai`, which re-checks under the game's lock that the
  player has not acted meanwhile.  "Abandon the game": the game ends without a result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal

import discord

from engine.core import get_game
from storage import ClockVote, GameRecord, GameStatus, NotActive, Storage, Wait

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
    ) -> None:
        self.client = client
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

    # --- opening ----------------------------------------------------------------------------

    async def open(self, wait: Wait) -> ClockVote | None:
        """The clock of ``wait`` ran out: open its vote and post it.  ``None`` when there is
        nobody to vote or the vote was already opened (or the wait is over)."""
        async with self._lock(wait.game_id):
            record = await self.storage.games.get(wait.game_id)
            if not voters(record, wait.user_id):
                # Only AI seats are kept waiting: nothing to vote on; remember it was seen.
                await self.storage.reminders.claim_alert(
                    wait.game_id, wait.seat, "clock", wait.waiting_since
                )
                log.info("game %s: clock ran out for seat %s, nobody to vote", record.id, wait.seat)
                return None
            vote = await self.storage.reminders.open_vote(wait)
            if vote is None:
                return None
            if vote.channel_id is None or not await self._post(vote, record):
                await self.storage.reminders.close_vote(vote.id, "cancelled")
                return None
            log.info(
                "game %s: clock ran out for seat %s; vote %s opened", record.id, vote.seat, vote.id
            )
            return await self.storage.reminders.vote(vote.id)

    async def _post(self, vote: ClockVote, record: GameRecord) -> bool:
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
                await self._open_text(vote, record, lang),
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

    async def _open_text(self, vote: ClockVote, record: GameRecord, lang: str) -> str:
        eligible = voters(record, vote.user_id)
        waited = self.catalog.duration(lang, (vote.opened_at - vote.waiting_since).total_seconds())
        opening = self.catalog.t(
            lang,
            "notify.clock_vote",
            game=record.id,
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
                content=await self._open_text(vote, record, lang),
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
            await self.storage.games.abandon(record.id, expected_version=current.version)
            await self.storage.reminders.close_vote(vote.id, "abandon")
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
