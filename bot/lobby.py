"""The lobby on Discord: ``/game new`` posts it; its buttons (Join, Leave, Add AI, Start, Cancel)
and menus (an AI seat of any level added, an AI seat removed, the optional rules) land in
:meth:`LobbyFlow.click`.

Each handler acknowledges first (a deferral, well inside Discord's 3 seconds), then calls the
service and redraws the lobby message from the stored game.  A click drawn for an outdated
version is refused by the service; the user is told so privately and the message is redrawn as
the game stands now.  Every failure goes through :func:`bot.errors.send_error`.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from typing import Any

import discord

from storage import GameRecord, GameStatus, NotInLobby, StaleVersion, Storage, WrongStatus

from .banks import chosen_pace, chosen_quiet
from .components import lobby_level, lobby_view
from .errors import MissingPermissions, UserError, send_ephemeral, send_error
from .games import presenter_for
from .games.contract import GamePresenter
from .i18n import CATALOG, Catalog
from .limits import fit_message
from .permissions import missing, needed
from .presenters import (
    ai_level_name,
    closed_lobby_embed,
    lobby_embed,
    move_paces,
    seat_line,
)
from .seats import AI_LEVELS, Actor, offered_seats
from .service import GameService

log = logging.getLogger(__name__)

LOBBY = "lobby"
DEFAULT_LEVEL = "heuristic"


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    return Actor(interaction.user.id, can_manage=interaction.permissions.manage_guild)


class LobbyFlow:
    def __init__(self, service: GameService, storage: Storage, catalog: Catalog = CATALOG,
                 *, default_language: str = "en") -> None:
        self.service = service
        self.storage = storage
        self.catalog = catalog
        self.default_language = default_language
        self._draw_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        # lobbies being posted, until their message's id is stored (``create``); a click on
        # the new message's buttons comes to this process too (it owns the guild's shard)
        self._posting: dict[int, asyncio.Event] = {}

    def _draw_lock(self, game_id: int) -> asyncio.Lock:
        lock = self._draw_locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._draw_locks[game_id] = lock
        return lock

    def labels(self, lang: str) -> dict[str, str]:
        return {
            **{k: self.catalog.t(lang, f"button.{k}")
               for k in ("join", "leave", "add_ai", "start", "cancel")},
            **{k: self.catalog.t(lang, f"lobby.{k}") for k in ("rules", "add_seat", "remove_seat")},
        }

    @staticmethod
    def seat_options(record: GameRecord, lang: str, presenter: GamePresenter
                     ) -> tuple[list[discord.SelectOption], list[discord.SelectOption]]:
        """The lobby's seat menus: the kinds it may add now ("AI (strong)", "Puertoma (hard)",
        each saying how it plays) and its AI seats to remove ("3. AI (easy)")."""
        t = presenter.catalog.t
        add = []
        for kind in offered_seats(record):
            name = ai_level_name(kind, lang, presenter.catalog)
            label = t(lang, "lobby.ai_kind", level=name) if kind in AI_LEVELS else name
            add.append(discord.SelectOption(label=label[:100], value=kind,
                                            description=t(lang, f"lobby.about.{kind}")[:100]))
        remove = [discord.SelectOption(
            label=seat_line(s.user_id, s.ai_policy, s.seat, lang, presenter.catalog)[:100],
            value=str(s.seat)) for s in record.seats if s.ai_policy is not None]
        return add, remove

    async def lobby_message(self, record: GameRecord, level: str) -> dict[str, Any]:
        """``embed`` and ``view`` of the lobby message for ``record`` (open or closed); an open
        lobby names each seated person's median time to move in this server."""
        lang = record.language or self.default_language
        if record.status is GameStatus.LOBBY:
            presenter = presenter_for(record.game)
            on = presenter.variants_on(record.options)
            rules = [discord.SelectOption(
                label=presenter.catalog.t(lang, f"variant.{ident}")[:100], value=ident,
                default=ident in on) for ident in presenter.variants]
            add, remove = self.seat_options(record, lang, presenter)
            return fit_message(
                embed=lobby_embed(record, lang, level, presenter.catalog,
                                  await move_paces(self.storage, record)),
                view=lobby_view(record.id, record.version, self.labels(lang), level,
                                rules[:25] or None, add, remove),
            )
        key = "lobby.started" if record.status is not GameStatus.ABANDONED else "lobby.cancelled"
        return {"embed": closed_lobby_embed(record, lang, key, None,
                                            presenter_for(record.game).catalog), "view": None}

    @staticmethod
    def check_channel(interaction: discord.Interaction[Any]) -> None:
        """Refuse (:class:`MissingPermissions`, naming each) when the bot lacks a permission the
        game needs in the interaction's channel: the table would fail there later (and its
        story needs a thread of its own: :mod:`bot.posting`)."""
        lacking = missing(interaction.app_permissions,
                          needed(interaction.channel, story_thread=True))
        if lacking:
            raise MissingPermissions(lacking, interaction.channel_id)

    # --- /game new ----------------------------------------------------------------------------

    async def create(
        self,
        interaction: discord.Interaction[Any],
        *,
        game: str | None = None,
        max_players: int | None = None,
        ai_seats: int,
        ai_level: str,
        language: str | None,
        pace: str | None = None,
        bank_days: int | None = None,
        increment_hours: int | None = None,
        cap_days: int | None = None,
        timezone: str | None = None,
        quiet_weekends: bool | None = None,
        quiet_hours: str | None = None,
        variants: Sequence[str] = (),
        hints: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            channel = interaction.channel
            if interaction.guild_id is None or not isinstance(channel, discord.abc.Messageable):
                raise UserError("err.guild_only")
            self.check_channel(interaction)
            guild = await self.storage.settings.guild(interaction.guild_id)
            if language is None:
                language = guild.language or self.default_language
            quiet = chosen_quiet(timezone, quiet_weekends, quiet_hours,
                                 guild.quiet.zone if guild.quiet else None)
            record = await self.service.create_lobby(
                creator_id=interaction.user.id,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                language=language,
                game=game,
                max_players=max_players,
                ai_seats=ai_seats,
                ai_level=ai_level,
                pace=chosen_pace(pace, bank_days, increment_hours, cap_days),
                quiet=quiet,
                variants=variants,
                hints=hints,
            )
            # A button of the new message clicked before its id is stored waits for it
            # (``click``) instead of being refused; no lock is held over the post.
            posted = self._posting[record.id] = asyncio.Event()
            try:
                try:
                    message = await channel.send(**await self.lobby_message(record, ai_level))
                except discord.HTTPException:
                    # No lobby message: free the channel again rather than leave a ghost game.
                    await self.storage.games.abandon(record.id)
                    raise
                await self.storage.games.set_message(
                    record.id, LOBBY, message.id, channel_id=interaction.channel_id
                )
            finally:
                posted.set()
                del self._posting[record.id]
            lang = self.catalog.language_of(interaction.locale)
            await interaction.followup.send(
                self.catalog.t(lang, "reply.created", game=record.id), ephemeral=True
            )
        except Exception as exc:
            await send_error(interaction, exc, where="/game new")

    # --- buttons ----------------------------------------------------------------------------

    async def click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action: str
    ) -> None:
        await interaction.response.defer()  # deferred update of the lobby message
        level = lobby_level(interaction.message, DEFAULT_LEVEL)
        actor = actor_of(interaction)
        try:
            # Its buttons redraw the message they sit on: only ever the game's own lobby (a
            # forged custom_id on the table or elsewhere must not replace that message).
            lobby_id = (await self.storage.games.get(game_id)).messages.get(LOBBY)
            posting = self._posting.get(game_id)
            if lobby_id is None and posting is not None:  # clicked while ``create`` posts it
                await posting.wait()
                lobby_id = (await self.storage.games.get(game_id)).messages.get(LOBBY)
            if interaction.message is None or interaction.message.id != lobby_id:
                raise UserError("err.wrong_message")
            if action == "join":
                await self.service.join(game_id, actor.user_id)
            elif action == "leave":
                await self.service.leave(game_id, actor.user_id)
            elif action.startswith("ai."):
                await self.service.add_ai(game_id, actor, version, action.removeprefix("ai."))
            elif action.startswith("remove."):
                seat = action.removeprefix("remove.")
                if not seat.isdigit() or len(seat) > 2:
                    raise UserError("err.unknown_action")
                await self.service.remove_ai(game_id, actor, version, int(seat))
            elif action.startswith("rules="):
                chosen = [v for v in action.removeprefix("rules=").split(",") if v]
                await self.service.set_variants(game_id, actor, version, chosen)
            elif action == "start":
                self.check_channel(interaction)
                await self.service.start(game_id, actor, version)
            elif action == "cancel":
                record = await self.service.cancel(game_id, actor, version)
                lang = record.language or self.default_language
                await interaction.edit_original_response(
                    embed=closed_lobby_embed(record, lang, "lobby.cancelled", actor.user_id,
                                             self.catalog),
                    view=None,
                )
                return
            else:
                raise UserError("err.unknown_action")
        except (StaleVersion, NotInLobby, WrongStatus) as exc:
            await self.redraw(interaction, game_id, level)
            lang = self.catalog.language_of(interaction.locale)
            if isinstance(exc, StaleVersion):
                log.info("lobby %s: outdated click %s (v%s)", game_id, action, version)
                await send_ephemeral(interaction, self.catalog.t(lang, "reply.outdated",
                                                                 game=game_id))
            else:
                await send_error(interaction, exc, where=f"lobby {game_id} {action}")
            return
        except Exception as exc:
            await send_error(interaction, exc, where=f"lobby {game_id} {action}")
            return
        await self.redraw(interaction, game_id, level)

    async def redraw(self, interaction: discord.Interaction[Any], game_id: int, level: str
                     ) -> None:
        """Edit the clicked lobby message to show the game as stored now.  Serialized per game
        and always drawn from a fresh read, so concurrent clicks end on the latest state."""
        try:
            async with self._draw_lock(game_id):
                record = await self.storage.games.get(game_id)
                await interaction.edit_original_response(
                    **await self.lobby_message(record, level))
        except Exception as exc:
            await send_error(interaction, exc, where=f"redraw lobby {game_id}")

    # --- /game abandon --------------------------------------------------------------------------

    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.catalog.language_of(interaction.locale)
        try:
            record = await self.storage.games.find_by_channel(interaction.channel_id or 0)
            if record is None:
                await interaction.followup.send(self.catalog.t(lang, "reply.no_game_here"),
                                                ephemeral=True)
                return
            was_lobby = record.status is GameStatus.LOBBY
            record = await self.service.cancel(record.id, actor_of(interaction))
            game_lang = record.language or self.default_language
            key = "lobby.cancelled" if was_lobby else "lobby.abandoned"
            closed = closed_lobby_embed(record, game_lang, key, interaction.user.id,
                                        presenter_for(record.game).catalog)
            channel = interaction.channel
            lobby_id = record.messages.get(LOBBY)
            if was_lobby and lobby_id and isinstance(channel, discord.TextChannel | discord.Thread):
                await channel.get_partial_message(lobby_id).edit(embed=closed, view=None)
            elif isinstance(channel, discord.abc.Messageable):
                await channel.send(embed=closed)
            await interaction.followup.send(
                self.catalog.t(lang, "reply.cancelled", game=record.id), ephemeral=True
            )
        except Exception as exc:
            await send_error(interaction, exc, where="/game abandon")
