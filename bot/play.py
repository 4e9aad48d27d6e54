"""Playing on Discord: game action components (``g:`` buttons, ``gs:`` selects) and ``/pr show``.

A click is acknowledged first, then handed to :meth:`GameService.submit`; the service commits,
lets the AI seats play, updates the table message and notifies whoever must act next.  An
outdated click is refused politely and the user privately gets the table as it stands now.
(The controls themselves, role buttons and the private "My turn" panel, come with issue #6.)
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from storage import GameStatus, StaleVersion, Storage

from .components import lobby_level
from .errors import send_error
from .i18n import CATALOG, Catalog
from .lobby import DEFAULT_LEVEL
from .presenters import lobby_embed, table_embed
from .service import GameService, TableUpdate

log = logging.getLogger(__name__)


class PlayFlow:
    def __init__(self, service: GameService, storage: Storage, catalog: Catalog = CATALOG,
                 *, default_language: str = "en") -> None:
        self.service = service
        self.storage = storage
        self.catalog = catalog
        self.default_language = default_language

    async def click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, code: str
    ) -> None:
        await interaction.response.defer()
        try:
            await self.service.submit(game_id, interaction.user.id, version, code)
        except StaleVersion:
            log.info("game %s: outdated click %s (v%s)", game_id, code, version)
            await self.show_current(interaction, game_id, note_key="reply.outdated_table")
        except Exception as exc:
            await send_error(interaction, exc, where=f"game {game_id} {code}")

    async def show_current(
        self, interaction: discord.Interaction[Any], game_id: int, *, note_key: str | None = None
    ) -> None:
        """Privately show the user the game as it stands (in the user's Discord language)."""
        lang = self.catalog.language_of(interaction.locale)
        try:
            update = await self.service.table(game_id)
            note = self.catalog.t(lang, note_key, game=game_id) if note_key else None
            await self.send_table(interaction, update, lang, content=note)
        except Exception as exc:
            await send_error(interaction, exc, where=f"show game {game_id}")

    async def send_table(
        self,
        interaction: discord.Interaction[Any],
        update: TableUpdate,
        lang: str,
        *,
        content: str | None = None,
    ) -> None:
        record = update.record
        image_name = f"game-{record.id}-v{record.version}.png" if update.image else None
        embed = table_embed(record, update.view, update.names, lang, image_name=image_name,
                            catalog=self.catalog)
        files = [discord.File(io.BytesIO(update.image), filename=image_name)] if (
            update.image and image_name) else []
        await interaction.followup.send(
            content=content or discord.utils.MISSING, embed=embed, files=files, ephemeral=True
        )

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """``/pr show``: the channel's game, privately, in the user's language."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.catalog.language_of(interaction.locale)
        try:
            record = await self.storage.games.find_by_channel(interaction.channel_id or 0)
            if record is None:
                await interaction.followup.send(self.catalog.t(lang, "reply.no_game_here"),
                                                ephemeral=True)
                return
            if record.status is GameStatus.LOBBY:
                level = await self._lobby_level(interaction, record.messages.get("lobby"))
                await interaction.followup.send(
                    embed=lobby_embed(record, lang, level, self.catalog), ephemeral=True
                )
                return
            await self.send_table(interaction, await self.service.table(record.id), lang)
        except Exception as exc:
            await send_error(interaction, exc, where="/pr show")

    @staticmethod
    async def _lobby_level(interaction: discord.Interaction[Any], message_id: int | None) -> str:
        """The AI level the lobby message's Add AI button carries."""
        channel = interaction.channel
        if message_id is None or not isinstance(channel, discord.TextChannel | discord.Thread):
            return DEFAULT_LEVEL
        try:
            message = await channel.fetch_message(message_id)
        except discord.HTTPException:
            return DEFAULT_LEVEL
        return lobby_level(message, DEFAULT_LEVEL)
