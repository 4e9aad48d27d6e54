"""The bot: a ``commands.Bot`` whose resources are opened in ``setup_hook``.

Everything it depends on comes in through the constructor (the settings, and optionally the
random source, the renderer and the notification limits), so tests build it on a temporary
database and drive it through the offline Discord server.  Storage is opened in ``setup_hook``
and closed in :meth:`close`.

Command sync: when ``DEV_GUILD_ID`` is set, the commands are copied to that server and synced
there at every start (instant, for development).  Global commands are synced only on request
(``python -m bot sync --global``), never on every start.  Once connected, the bot checks that
Discord has commands for it (global, and the development server's) and logs one WARNING saying
what to run when there are none: without them nobody can use the bot.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from storage import Clock, Storage, StorageError
from storage.database import redacted
from storage.records import ABANDON_DAYS, AWAY_DAYS, utc_now

from .absence import AbsenceFlow
from .banks import describe_quiet, server_quiet
from .clock import ClockVoteButton, ClockVotes
from .cogs.game import GameCog, TableOnly, decision_group
from .components import DYNAMIC_ITEMS, answer_unclaimed, claims
from .errors import UserError, quiet_expired_autocomplete, send_ephemeral, send_error
from .games import presenters
from .i18n import CATALOG
from .i18n.translator import CatalogTranslator
from .lobby import LobbyFlow
from .moving import MoveFlow
from .notify import Notifier
from .notify_panel import NOTIFY_ITEMS, NotifyPanel
from .outage import PROBE_PERIOD, DatabaseWatch
from .play import PlayFlow
from .publisher import DiscordPublisher
from .reminders import Reminders
from .rendering import Renderer, default_renderer
from .service import GameService
from .settings import Settings
from .thinking import Thinker

log = logging.getLogger(__name__)

_DEFAULT: Any = object()


class StartupError(Exception):
    """The bot cannot start; ``str(error)`` is one sentence for the operator."""


class ComponentHandlers:
    """Where the persistent components send their clicks (see :mod:`bot.components`)."""

    def __init__(self, lobby: LobbyFlow, play: PlayFlow) -> None:
        self.lobby_click = lobby.click
        self.game_click = play.click
        self.game_select = play.select
        self.table_click = play.table_click
        self.play = play


class GovernorBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        rng: random.Random | None = None,
        renderer: Renderer | None = _DEFAULT,
        dm_interval: float = 60.0,
        dm_clock: Callable[[], float] = time.monotonic,
        dm_sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        clock: Clock = utc_now,
        reminder_period: float | None = 300.0,
        database_probe: float = PROBE_PERIOD,
        sync_dev_guild: bool = True,
        **options: Any,
    ) -> None:
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("help_command", None)
        # Nothing pings unless a send names whom it pings (the awaited player, the voters):
        # a name typed "@everyone" or "<@&role>" that reaches a message pings nobody.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        quiet_expired_autocomplete()  # an autocomplete answered too late: a warning line
        if isinstance(self, commands.AutoShardedBot):
            options.setdefault("shard_ids", list(settings.shard_ids or ()) or None)
            options.setdefault("shard_count", settings.shard_count)
        elif settings.shard_ids is not None:
            raise TypeError("a bot with shards is a ShardedGovernorBot (governor_bot())")
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.settings = settings
        self.rng = rng
        self.renderer: Renderer | None = default_renderer() if renderer is _DEFAULT else renderer
        self.dm_interval = dm_interval
        self.dm_time = (dm_clock, dm_sleep)  # the DM interval's seconds (tests move them)
        self.clock = clock  # "now" for storage, reminders and the game clock (tests move it)
        self.reminder_period = reminder_period  # None: no reminder loop (tests call tick())
        self.database_probe = database_probe  # seconds between questions to a database down
        self.sync_dev_guild = sync_dev_guild
        self._storage: Storage | None = None
        self._service: GameService | None = None
        self._resumed = False
        self.component_handlers: ComponentHandlers | None = None
        self.dynamic_items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()
        """Every component class the bot registers (set in ``setup_hook``)."""

    # --- resources ----------------------------------------------------------------------------

    @property
    def storage(self) -> Storage:
        if self._storage is None:
            raise RuntimeError("storage is opened in setup_hook")
        return self._storage

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the service is built in setup_hook")
        return self._service

    async def setup_hook(self) -> None:
        settings = self.settings
        try:
            self._storage = await Storage.open(settings.database_url, clock=self.clock)
        except (OSError, sqlite3.Error, StorageError) as exc:
            raise StartupError(
                f"Cannot open the database {redacted(settings.database_url)} ({exc}); check "
                f"DATABASE_URL.") from exc
        self.notifier = Notifier(self, self.storage, CATALOG, min_interval=self.dm_interval,
                                 clock=self.dm_time[0], sleep=self.dm_time[1])
        self.publisher = DiscordPublisher(self, self.storage, self.notifier, CATALOG)
        self._service = GameService(
            self.storage, self.publisher, rng=self.rng, renderer=self.renderer, catalog=CATALOG,
            thinker=Thinker(settings.ai_budget),
        )
        self.clock_votes = ClockVotes(self, self.service, self.storage, self.notifier, CATALOG,
                                      owns=settings.owns_guild)
        self.publisher.clock_votes = self.clock_votes
        self.publisher.resume = self.service.resume
        self.reminders = Reminders(
            self.storage, self.notifier, self.clock_votes, CATALOG, period=self.reminder_period,
            retry=self.publisher.retry_blocked, owns=settings.owns_guild,
            resume=functools.partial(self.service.resume_stalled, settings.owns_guild,
                                     skip=lambda game_id: game_id in self.publisher.blocked),
        )
        self.database_watch = DatabaseWatch(self.storage.db, self._resume_games,
                                            period=self.database_probe)
        lang = settings.default_locale
        self.lobby = LobbyFlow(self.service, self.storage, CATALOG, default_language=lang)
        self.play = PlayFlow(self.service, self.storage, CATALOG, default_language=lang)
        self.moves = MoveFlow(self.service, self.storage, self.notifier, CATALOG)
        self.absence = AbsenceFlow(self.service, self.storage, self.clock_votes, self.notifier,
                                   CATALOG)
        self.play.moved.append(self.absence.back_after_move)
        self.notify_panel = NotifyPanel(self.storage, self.notifier, CATALOG)
        self.component_handlers = ComponentHandlers(self.lobby, self.play)
        games = presenters()
        self.dynamic_items = (*DYNAMIC_ITEMS, ClockVoteButton, *NOTIFY_ITEMS,
                              *(item for game in games for item in game.dynamic_items))
        self.add_dynamic_items(*self.dynamic_items)
        await self.tree.set_translator(CatalogTranslator(CATALOG))
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        cog = GameCog(self)
        await self.add_cog(cog)
        for game in games:
            self.tree.add_command(decision_group(game, cog.flow))
        if settings.dev_guild_id and self.sync_dev_guild:
            guild = discord.Object(settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server %s", len(synced), guild.id)
        log.info("storage open at %s", self.storage.db.url)

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)", self.user, self.user.id if self.user else "?")
        if not self._resumed:
            self._resumed = True
            self.publisher.spawn(self._resume_games(), "resume-games")
            self.publisher.spawn(self.check_commands(), "check-commands")
            self.reminders.start()

    async def check_commands(self) -> int | None:
        """How many slash commands Discord has for this application (global ones, and the
        development server's when ``DEV_GUILD_ID`` is set); a WARNING saying what to run when
        there are none.  ``None`` when Discord could not be asked."""
        try:
            found = len(await self.tree.fetch_commands())
            if self.settings.dev_guild_id:
                guild = discord.Object(self.settings.dev_guild_id)
                found += len(await self.tree.fetch_commands(guild=guild))
        except discord.HTTPException as exc:
            log.warning("could not list the registered slash commands (%s %s)", exc.status,
                        exc.code)
            return None
        if not found:
            log.warning(
                "No slash commands are registered for this bot, so nobody can use it: run "
                "`python -m bot sync --global` once (they show up everywhere within an hour), "
                "or set DEV_GUILD_ID to a server id to sync them there at every start."
            )
        return found

    async def _resume_games(self) -> int:
        """At start-up and once the database is back: publish what was left behind."""
        moved = await self.service.resume_all(self.settings.owns_guild)
        if moved:
            log.info("published %d games again (behind their stored state)", moved)
        return moved

    async def close(self) -> None:
        try:
            if self._service is not None:
                self._service.close()
                await self.database_watch.close()
                await self.reminders.stop()
                await self.notifier.close()
                await self.publisher.close()
            await super().close()
        finally:
            if self._storage is not None:
                await self._storage.close()
                self._storage = None

    # --- sync ---------------------------------------------------------------------------------

    async def sync_commands(self, *, guild_id: int | None) -> list[app_commands.AppCommand]:
        """Sync the commands globally (``guild_id=None``, up to an hour to show everywhere) or
        to one server.  Used by ``python -m bot sync``."""
        if guild_id is None:
            return await self.tree.sync()
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)

    # --- a channel deleted --------------------------------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """Its games wait for ``/game move`` and their players are told (:mod:`bot.moving`)."""
        await self._channel_deleted(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game played in that thread, likewise; a story thread is forgotten."""
        await self._channel_deleted(payload.thread_id)

    async def _channel_deleted(self, channel_id: int) -> None:
        if self._service is None:
            return
        try:
            await self.publisher.channel_gone(channel_id)
        except Exception:  # the next post there finds it out (404 10003)
            log.warning("could not mark the games of deleted channel %s", channel_id,
                        exc_info=True)

    # --- errors and small commands ------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every component is one of :attr:`dynamic_items`; a click that none of them claims
        gets a private answer here instead of "This interaction failed"."""
        data: Any = interaction.data or {}
        if interaction.type is discord.InteractionType.component and isinstance(data, dict) \
                and not claims(self.dynamic_items, str(data.get("custom_id", ""))):
            await answer_unclaimed(interaction)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        cause: Exception = (error.original if isinstance(error, app_commands.CommandInvokeError)
                            else error)
        if isinstance(cause, TableOnly):
            cause = UserError("err.table_only")
        name = interaction.command.qualified_name if interaction.command else "?"
        await send_error(interaction, cause, where=f"command {name}")

    async def notify_setting(self, interaction: discord.Interaction[Any], enabled: bool | None,
                             **options: Any) -> None:
        """``/game notify``: the caller's notification settings, a private panel
        (:mod:`bot.notify_panel`)."""
        await self.notify_panel.command(interaction, enabled, **options)

    async def server_settings(
        self, interaction: discord.Interaction[Any], language: str | None, hours: int | None,
        quiet: tuple[str | None, bool | None, str | None] = (None, None, None),
        abandon_days: int | None = None,
        away_days: int | None = None,
    ) -> None:
        """``/game server``: this server's defaults for new games (the language of ``/game new``
        without one, the hours before a reminder) and its quiet time (``quiet``: a time zone,
        the weekends, a daily window; each left out keeps its value); changing them needs
        Manage Server, reading them does not.  The reply is in the user's language."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if interaction.guild_id is None:
                raise UserError("err.guild_only")
            settings = self.storage.settings
            if (language is not None or hours is not None or quiet != (None, None, None)
                    or abandon_days is not None or away_days is not None):
                if not interaction.permissions.manage_guild:
                    raise UserError("err.server_settings")
                changes: dict[str, Any] = {}
                if language is not None:
                    changes["language"] = language
                if hours is not None:
                    changes["reminder_hours"] = hours
                if abandon_days is not None:
                    changes["abandon_days"] = abandon_days
                if away_days is not None:
                    changes["away_days"] = away_days
                if quiet != (None, None, None):
                    was = (await settings.guild(interaction.guild_id)).quiet
                    changes["quiet"] = server_quiet(was, *quiet)
                guild = await settings.update_guild(interaction.guild_id, **changes)
            else:
                guild = await settings.guild(interaction.guild_id)
            lang = CATALOG.language_of(interaction.locale)
            default = guild.language or self.settings.default_locale
            await send_ephemeral(
                interaction,
                CATALOG.t(
                    lang,
                    "reply.server_settings",
                    language=CATALOG.t(lang, f"choice.language.{default}"),
                    hours=guild.reminder_hours or self.reminders.default_hours,
                ) + "\n" + CATALOG.t(lang, "reply.server_quiet",
                                     quiet=describe_quiet(guild.quiet, lang))
                + "\n" + CATALOG.t(lang, "reply.server_abandon",
                                   days=guild.abandon_days or ABANDON_DAYS)
                + "\n" + CATALOG.t(lang, "reply.server_away",
                                   days=AWAY_DAYS if guild.away_days is None
                                   else guild.away_days),
            )
        except Exception as exc:
            await send_error(interaction, exc, where="/game server")

    async def wait_idle(self, timeout: float = 180.0) -> None:
        """Wait for background work (the AI seats thinking, the publications under way, the
        notifications); for tests and shutdown.  ``timeout`` only guards against a hang: it
        returns as soon as the work is done (a publication may wait long for the DM rate
        limit: a whole game played in seconds queues its turn DMs before the final ones)."""
        await asyncio.wait_for(self.play.settled(), timeout)
        await asyncio.wait_for(self.service.settled(), timeout)
        await asyncio.wait_for(self.publisher.drain(timeout), timeout + 1)


class ShardedGovernorBot(GovernorBot, commands.AutoShardedBot):
    """The bot running some of the bot's shards (``Settings.shard_ids`` of
    ``Settings.shard_count``): one gateway connection per shard, the servers of those shards.
    Several processes share the work, each with its own shards, over one PostgreSQL database;
    each one's background work (reminders, clock votes, resuming games after a restart) keeps
    to its own servers (``Settings.owns_guild``)."""


def governor_bot(settings: Settings, **options: Any) -> GovernorBot:
    """The bot for ``settings``: sharded when it names shards."""
    kind = GovernorBot if settings.shard_ids is None else ShardedGovernorBot
    return kind(settings, **options)
