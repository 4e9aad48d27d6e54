"""The game's messages in its channel: the one table message, edited after every action; the
story of the game, one post with the board image at the end of every role phase; the final
standings.

* The table message is posted once and edited after each change (its id is stored with the
  game, so this survives restarts; a deleted one is posted again).  Turn notifications link to
  it, and it carries the role buttons, **My turn**, **Undo** and **Log**.
* When role phases end, a story post follows with the board at the end of each phase (several
  phases ended by one automatic run share one post), that phase's log lines, a **My turn**
  button and a link up to the table, so the channel reads as the story of the game and the
  latest post is always a place to act from.
* At the end, the table shows the final board and standings, and a last post brings the score
  sheet with the breakdown and the tie-break.

Called by :meth:`bot.publisher.DiscordPublisher.publish_table` under the game's lock, so two
updates of one game never interleave.  The table edit comes first: it is what players wait for.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from storage import GameRecord, Storage

from .i18n import CATALOG, Catalog
from .service import TableUpdate
from .table import TableMessages

log = logging.getLogger(__name__)

TABLE = "table"
FINAL = "final"
"""The score sheet posted when the game ended (``/pr status`` and ``/pr games`` link to it)."""


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"

EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.DMChannel)


class TablePoster:
    def __init__(self, client: discord.Client, storage: Storage, catalog: Catalog = CATALOG
                 ) -> None:
        self.client = client
        self.storage = storage
        self.catalog = catalog

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    def messages(self, update: TableUpdate) -> TableMessages:
        record = update.record
        return TableMessages(record, update.names, record.language or self.catalog.default,
                             self.catalog)

    async def publish(self, update: TableUpdate) -> None:
        record = update.record
        if record.channel_id is None:
            return
        channel = await self.channel(record.channel_id)
        if channel is None:
            return
        draw = self.messages(update)
        layout, files = draw.table(update)
        table_id = (await self.storage.games.get(record.id)).messages.get(TABLE)
        if table_id is None or not await self._edit(channel, table_id, view=layout,
                                                    attachments=files):
            message = await channel.send(view=layout, files=files)
            table_id = message.id
            await self.storage.games.set_message(record.id, TABLE, message.id,
                                                 channel_id=record.channel_id)
        link = jump_url(record.guild_id, record.channel_id, table_id)
        phases = await update.ended_phases()
        if phases:
            story, story_files = draw.story(phases, update.recent, link,
                                            over=bool(update.view.get("game_over")))
            await channel.send(view=story, files=story_files)
        if update.view.get("game_over"):
            final, final_files = draw.final(update, link)
            first = FINAL not in (await self.storage.games.get(record.id)).messages
            message = await channel.send(view=final, files=final_files)
            await self.storage.games.set_message(record.id, FINAL, message.id,
                                                 channel_id=record.channel_id)
            notifier = getattr(self.client, "notifier", None)
            if first and notifier is not None:  # the standings by DM, once per game
                await notifier.final_standings(
                    await self.storage.games.get(record.id), update.names,
                    jump_url(record.guild_id, record.channel_id, message.id))

    async def close(self, record: GameRecord, names: dict[int, str]) -> None:
        """The table of an abandoned game: no buttons left, a line saying so."""
        table_id = record.messages.get(TABLE)
        if record.channel_id is None or table_id is None:
            return
        channel = await self.channel(record.channel_id)
        if channel is not None:
            draw = TableMessages(record, names, record.language or self.catalog.default,
                                 self.catalog)
            await self._edit(channel, table_id, view=draw.closed(), attachments=[])

    async def _edit(self, channel: discord.abc.Messageable, message_id: int, **fields: Any
                    ) -> bool:
        """Edit a message of ours (a table drawn as an embed by an older version becomes a
        layout); ``False`` when it was deleted."""
        if not isinstance(channel, EDITABLE):
            return False
        try:
            await channel.get_partial_message(message_id).edit(content=None, embed=None,
                                                               **fields)
        except discord.NotFound:
            log.info("table message %s was deleted; posting it again", message_id)
            return False
        return True
