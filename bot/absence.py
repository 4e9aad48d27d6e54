"""Time away from a game: coming back after running out of time (``/game rejoin``; any click
of theirs on the game does it too, :meth:`bot.play.PlayFlow.returned`), the table's vote to
replace someone who keeps it waiting (``/game kick``; the rules are :mod:`bot.clock`'s), and a
pause the table agrees on (``/game pause``: more than half of the people seated ask; no time
bank runs until one of them types ``/game unpause``).  docs/time.md says it all."""

from __future__ import annotations

import logging
from typing import Any

import discord

from storage import GameRecord, NotActive, Storage

from .changes import record_waiting
from .clock import ClockVotes
from .errors import UserError, send_ephemeral, send_error
from .i18n import CATALOG, Catalog
from .notify import Notifier
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
