"""A game whose channel was deleted: ``/game move game:N`` continues it in the channel where
it is typed, ``/game abandon game:N`` ends it from anywhere in its server.

Deleting a channel does not end its game (``DiscordPublisher.channel_gone`` marks it and tells
its players by DM); either command is for its creator or a Manage Server holder, in the game's
own server.  Moving posts the table in the new channel and the game goes on (its story in a
thread started from that table at the next phase's end); abandoning ends it without a result
and without ratings, as ``/game abandon`` does in a game's channel.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from storage import CHANNEL_GONE_KIND, GameNotFound, GameRecord, Storage

from .errors import UserError, send_ephemeral, send_error
from .i18n import CATALOG, Catalog
from .lobby import LobbyFlow, actor_of
from .notify import Notifier
from .service import GameService

log = logging.getLogger(__name__)


class MoveFlow:
    def __init__(self, service: GameService, storage: Storage, notifier: Notifier,
                 catalog: Catalog = CATALOG) -> None:
        self.service = service
        self.storage = storage
        self.notifier = notifier
        self.catalog = catalog

    def lang(self, interaction: discord.Interaction[Any]) -> str:
        return self.catalog.language_of(interaction.locale)

    async def of_this_server(self, interaction: discord.Interaction[Any], game_id: int
                             ) -> GameRecord:
        """Game ``game_id``, which must be of the interaction's server (another server's game
        is no game here)."""
        record = await self.storage.games.get(game_id)
        if interaction.guild_id is None or record.guild_id != interaction.guild_id:
            raise GameNotFound(game_id)
        return record

    async def move(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """``/game move game:N``, typed in the channel where the game goes on."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            if interaction.guild_id is None:
                raise UserError("err.guild_only")
            await self.of_this_server(interaction, game_id)
            LobbyFlow.check_channel(interaction)  # the table and its story thread, here
            update = await self.service.move(game_id, actor_of(interaction),
                                             interaction.channel_id or 0, interaction.guild_id)
            text = self.catalog.t(lang, "reply.moved", game=game_id)
            if update.late:
                text += "\n" + self.catalog.t(lang, "reply.table_late", game=game_id)
            await send_ephemeral(interaction, text)
        except Exception as exc:
            await send_error(interaction, exc, where=f"/game move {game_id}")

    async def abandon(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """``/game abandon game:N`` for a game whose channel was deleted: ended without a
        result; the other people seated are told by DM.  A game that still has its channel is
        ended there."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self.of_this_server(interaction, game_id)
            if CHANNEL_GONE_KIND not in record.messages:
                raise UserError("err.abandon_elsewhere", game=game_id,
                                channel=record.channel_id)
            record = await self.service.cancel(game_id, actor_of(interaction))
            log.info("game %s, whose channel was deleted, abandoned by %s", game_id,
                     interaction.user.id)
            await send_ephemeral(interaction, self.catalog.t(lang, "reply.cancelled",
                                                             game=game_id))
        except Exception as exc:
            await send_error(interaction, exc, where=f"/game abandon {game_id}")
            return
        others = [s.user_id for s in record.seats
                  if s.user_id is not None and s.user_id != interaction.user.id]
        for user_id, prefs in (await self.storage.settings.users(others)).items():
            if prefs.dm_notifications and not prefs.dm_blocked:
                text = self.catalog.t(prefs.language or record.language or self.catalog.default,
                                      "lobby.abandoned_gone", game=game_id,
                                      user=f"<@{interaction.user.id}>")
                await self.notifier.dm(user_id, text)
