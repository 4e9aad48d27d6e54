"""The Discord side of a game change: the table message in the game's channel, display names,
and the turn notifications.  Implements :class:`bot.service.Publisher`.

Channel posts are in the game's language.  The table message is posted once and edited after
each change (its id is stored with the game, so this survives restarts); a deleted one is posted
again.  Notifications run as background tasks so that a slow or rate-limited DM never holds the
game's lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord

from storage import GameRecord, Storage

from .i18n import CATALOG, Catalog
from .notify import Notifier
from .posting import TablePoster
from .presenters import seat_names
from .seatnames import with_history
from .service import TableUpdate

if TYPE_CHECKING:
    from .clock import ClockVotes

log = logging.getLogger(__name__)

TABLE = "table"
EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.DMChannel)


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class DiscordPublisher:
    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        notifier: Notifier,
        catalog: Catalog = CATALOG,
    ) -> None:
        self.client = client
        self.storage = storage
        self.notifier = notifier
        self.catalog = catalog
        self._names: dict[int, str] = {}
        self.tables = TablePoster(client, storage, catalog)
        self.clock_votes: ClockVotes | None = None
        """Set by the client once the votes exist (they need the service, which needs us)."""
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- names ------------------------------------------------------------------------------

    async def person_name(self, user_id: int, guild_id: int | None) -> str | None:
        guild = self.client.get_guild(guild_id) if guild_id else None
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return member.display_name
        if user_id in self._names:
            return self._names[user_id]
        user = self.client.get_user(user_id)
        if user is None:
            try:
                user = await self.client.fetch_user(user_id)
            except discord.HTTPException:
                return None
        self._names[user_id] = user.display_name
        return user.display_name

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        """The seats' names now, knowing who held them before (:mod:`bot.seatnames`)."""
        handovers = await self.storage.games.handovers(record.id)
        former = [u for h in handovers for u in (h.from_user_id, h.to_user_id) if u is not None]
        people: dict[int, str] = {}
        for user_id in dict.fromkeys([*record.user_ids, *former]):
            name = await self.person_name(user_id, record.guild_id)
            if name:
                people[user_id] = name
        lang = self._lang(record)
        return with_history(seat_names(record, lang, self.catalog, people), handovers, lang,
                            self.catalog, people)

    def _lang(self, record: GameRecord) -> str:
        return record.language or self.catalog.default

    # --- the table --------------------------------------------------------------------------

    async def publish_table(self, update: TableUpdate) -> None:
        """The table message, the story of the phases that ended, the final standings
        (:mod:`bot.posting`)."""
        await self.tables.publish(update)

    # --- notifications ----------------------------------------------------------------------

    async def notify_turn(self, update: TableUpdate) -> None:
        """DM whoever is newly asked to decide (:mod:`bot.notify`); close the clock votes whose
        late player just played (:mod:`bot.clock`)."""
        record = update.record
        if self.clock_votes is not None:
            self.spawn(self.clock_votes.after_change(record), f"clock-{record.id}")
        if not update.newly_waiting or update.view.get("prompt") is None:
            return
        kind = str(update.view["prompt"]["kind"])
        message_id = (await self.storage.games.get(record.id)).messages.get(TABLE)
        notice = self.notifier.notice(record, kind, update.newly_waiting, message_id)
        self.spawn(self.notifier.turn(notice, update.newly_waiting), f"notify-{record.id}")

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait for the pending notifications (at shutdown and in tests)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def close(self) -> None:
        await self.drain()
        for task in list(self._tasks):
            task.cancel()
