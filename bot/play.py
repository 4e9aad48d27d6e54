"""Playing on Discord: every game component lands here, and ``/game show``.

* ``g:`` buttons and ``gs:`` selects submit an action code.  On the public table (role
  buttons) the click is a deferred update; when the player then has a decision to make (the
  Builder they just chose), their private panel opens at once.  In a private panel the panel
  is redrawn in place with what comes next.
* ``t:`` buttons: **My turn** opens (or refreshes) the private panel, **Undo** takes back the
  player's last decision, **Log** shows the log privately, ``leave`` confirms ``/game leave``.
* A game's own components (Puerto Rico's Mayor draft) call back into this flow
  (:meth:`panel_here`, :meth:`outdated`, the service).

Every handler acknowledges first, then calls the service.  An outdated click is refused
politely: nothing changes and the user sees the game as it stands now.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from storage import DatabaseUnavailable, GameStatus, NotActive, NotSeated, StaleVersion, Storage

from .changes import TableUpdate
from .components import TableButton, lobby_level
from .errors import UserError, send_ephemeral, send_error
from .games import presenter_for
from .i18n import CATALOG, Catalog
from .lobby import DEFAULT_LEVEL
from .panels import PanelView
from .presenters import lobby_embed, table_embed
from .service import GameService
from .turns import TurnService

log = logging.getLogger(__name__)

LOG_LIMIT = 1900


def is_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the clicked component sits on an ephemeral message (a private panel)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


PUBLIC_PLACES = {"table", "channel"}
"""Where a game component may sit when it is not in a private (ephemeral) message:
``"table"``: only the game's own table message; ``"channel"``: a message in the game's channel
or its story thread other than its lobby (the table and the story posts carry My turn, Undo and
Log); ``None``: nowhere public."""


def is_select(interaction: discord.Interaction[Any]) -> bool:
    data: dict[str, Any] = dict(interaction.data or {})
    return bool(data.get("component_type", 2) != discord.ComponentType.button.value)


class PlayFlow:
    def __init__(self, service: GameService, storage: Storage, catalog: Catalog = CATALOG,
                 *, default_language: str = "en") -> None:
        self.service = service
        self.storage = storage
        self.catalog = catalog
        self.default_language = default_language
        self.turns = TurnService(service)
        self.moved: list[Callable[[int], Awaitable[None]]] = []
        """Called with the user id after each move of a person, once the click is answered
        (a person away who plays is back: :meth:`bot.absence.AbsenceFlow.back_after_move`)."""
        self._after: set[asyncio.Task[None]] = set()

    def lang(self, interaction: discord.Interaction[Any]) -> str:
        return self.catalog.language_of(interaction.locale)

    # --- actions ----------------------------------------------------------------------------

    async def placed(self, interaction: discord.Interaction[Any], game_id: int,
                     public: str | None) -> bool:
        """Whether the clicked component may act where it sits (every handler asks first).

        A private (ephemeral) message is only ever its owner's, so any game component may act
        there and redraw it.  Publicly a component may only sit where the bot draws it for
        this game (``public``: see :data:`PUBLIC_PLACES`); the handlers never edit a public
        message, so a forged custom_id (a panel's menu, another game's button, a private-only
        action) on the table is refused here with an ephemeral line, and nothing changes."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            return True
        allowed = False
        if message is not None and public in PUBLIC_PLACES:
            try:
                record = await self.storage.games.get(game_id)
            except DatabaseUnavailable as exc:  # not the component's fault: say what it is
                await send_error(interaction, exc, where=f"component of game {game_id}")
                return False
            except Exception:  # an unknown game: refused like any stranger's message
                record = None
            if record is not None and public == "table":
                allowed = record.messages.get("table") == message.id
            elif record is not None:  # the table or a story post, never the lobby
                allowed = (message.channel.id in (record.channel_id,
                                                  record.messages.get("thread"))
                           and record.messages.get("lobby") != message.id)
        if not allowed:
            log.warning("game %s: component refused on message %s", game_id,
                        message.id if message else None)
            await send_error(interaction, UserError("err.wrong_message"),
                             where=f"misplaced component of game {game_id}")
        return allowed

    async def outdated(self, interaction: discord.Interaction[Any], game_id: int,
                       private: bool) -> None:
        """Answer a click drawn for an older version: the game moved on and nothing was done.

        One answer for every game and every component: it never says what happened since
        (an action's events carry more than its own move: the Puertomas' moves, the choices
        a simultaneous step reveals at its end, so no log line can stand for the click).  In a
        private panel the line comes with the panel redrawn as the game stands; under the
        table (which the publication keeps current; one left behind is published again) with
        a **My turn** button when the game asks the clicker something now."""
        lang = self.lang(interaction)
        line = self.catalog.t(lang, "reply.moved_on", game=game_id)
        if private:
            await self.panel_here(interaction, game_id, note=line)
            return
        try:
            await self.service.resume(game_id)
        except Exception:
            log.exception("game %s: could not bring the table up to date", game_id)
        try:
            panel = await self.turns.panel(game_id, interaction.user.id, render=False)
        except Exception:  # not seated, or the game is over: the line alone
            panel = None
        if panel is None or panel.kind is None:
            await send_ephemeral(interaction, line)
            return
        # a layout (its button redraws this very message as the panel, also a layout)
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        row.add_item(TableButton(game_id, panel.record.version, "panel",
                                 label=self.catalog.t(lang, "button.my_turn"),
                                 style=discord.ButtonStyle.success))
        layout = discord.ui.LayoutView(timeout=None)
        layout.add_item(discord.ui.TextDisplay(line))
        layout.add_item(row)
        try:
            await interaction.followup.send(view=layout, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("game %s: the outdated click's answer was refused (%s)", game_id,
                        exc.code)

    async def select(self, interaction: discord.Interaction[Any], game_id: int, version: int,
                     name: str, values: list[str]) -> None:
        """A game menu: one value is an action code; the values of a multi-select stand for
        one code its game composes (San Juan's payment).  A wrong count is refused by the game
        or the engine with a clear message, and nothing changes."""
        await interaction.response.defer()
        try:
            record = await self.storage.games.get(game_id)
            code = presenter_for(record.game).select_code(name, values)
            if code is None:
                raise UserError("err.unknown_action")
        except Exception as exc:
            await send_error(interaction, exc, where=f"game {game_id} menu {name}")
            return
        await self.act(interaction, game_id, version, code)

    async def click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, code: str
    ) -> None:
        await interaction.response.defer()
        await self.act(interaction, game_id, version, code)

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, code: str
    ) -> None:
        """Submit ``code`` for the (acknowledged) interaction's user."""
        private = is_private(interaction)
        if not await self.placed(interaction, game_id,
                                 None if is_select(interaction) else "channel"):
            return  # a move never edits a public message; a panel's menu is private
        try:
            result = await self.service.submit(game_id, interaction.user.id, version, code)
        except StaleVersion:
            log.info("game %s: outdated click %s (v%s)", game_id, code, version)
            await self.outdated(interaction, game_id, private)
            return
        except NotSeated as refused:  # perhaps someone an AI stands in for, coming back
            error: Exception = refused
            try:
                if await self.returned(interaction, game_id):
                    return
            except Exception as again:
                error = again
            await send_error(interaction, error, where=f"game {game_id} {code}")
            return
        except Exception as exc:
            await send_error(interaction, exc, where=f"game {game_id} {code}")
            return
        await self.after_move(interaction, game_id, private, late=result.update.late)
        for hook in self.moved:
            task = asyncio.create_task(self._quietly(hook, interaction.user.id))
            self._after.add(task)
            task.add_done_callback(self._after.discard)

    @staticmethod
    async def _quietly(hook: Callable[[int], Awaitable[None]], user_id: int) -> None:
        try:
            await hook(user_id)
        except Exception:
            log.warning("after the move of user %s: %r failed", user_id, hook, exc_info=True)

    async def settled(self) -> None:
        """Wait for the work after the moves (tests, shutdown)."""
        while self._after:
            await asyncio.gather(*self._after, return_exceptions=True)

    async def returned(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """A click of someone an AI keeps a seat for in ``game_id`` (an acknowledged
        interaction): they take the seat back from its next decision and are told so (the
        click itself decided nothing: the AI has played what it was for).  False for anyone
        else (the click goes on as usual)."""
        record = await self.storage.games.get(game_id)
        if record.status is not GameStatus.ACTIVE or record.stand_in_of(
                interaction.user.id) is None:
            return False
        try:
            await self.service.come_back(game_id, interaction.user.id)
        except (UserError, NotActive):
            return False  # came back meanwhile, or the game ended: the click goes on
        await send_ephemeral(interaction, self.catalog.t(self.lang(interaction), "reply.came_back",
                                                         game=game_id))
        return True

    def late_line(self, interaction: discord.Interaction[Any], game_id: int) -> str:
        """The player's move is stored but the table does not show it yet."""
        return self.catalog.t(self.lang(interaction), "reply.table_late", game=game_id)

    async def after_move(self, interaction: discord.Interaction[Any], game_id: int,
                         private: bool, *, late: bool = False) -> None:
        """Redraw the private panel in place, or open it when a public click led straight to
        the player's next decision.  When the table is ``late`` (:mod:`bot.publishing`) the
        answer says the move is saved and the table will catch up: in the panel, or alone
        under the table (a public click has no other answer then)."""
        note = self.late_line(interaction, game_id) if late else None
        if private:
            await self.panel_here(interaction, game_id, compact=True, note=note, moved=True)
            return
        try:
            panel = await self.turns.panel(game_id, interaction.user.id, render=False)
        except Exception as exc:  # the move itself went through
            log.warning("game %s: no panel after a move: %r", game_id, exc)
            if note:
                await send_ephemeral(interaction, note)
            return
        if panel.kind is not None:
            await self.send_panel(interaction, game_id, note=note, moved=True)
        elif note:
            await send_ephemeral(interaction, note)

    # --- the private panel ------------------------------------------------------------------

    async def panel_view(self, interaction: discord.Interaction[Any], game_id: int, *,
                         note_key: str | None = None, draft: str | None = None,
                         render: bool = True, compact: bool = False, note: str | None = None
                         ) -> tuple[Any, list[discord.File]]:
        """The user's panel; with ``compact`` the board image is left out when the user has
        nothing to decide (right after their move: the table shows the board)."""
        panel = await self.turns.panel(game_id, interaction.user.id, render=False)
        lang = self.lang(interaction)
        if render and not (compact and panel.kind is None):
            panel = await self.turns.with_image(panel, draft, language=lang)
        catalog = presenter_for(panel.record.game).catalog
        if note_key:
            note = catalog.t(lang, note_key, game=game_id)
        return PanelView(panel, lang, catalog, note=note, draft=draft).build(
            reuse_image=not render)

    async def send_panel(self, interaction: discord.Interaction[Any], game_id: int, *,
                         note_key: str | None = None, note: str | None = None,
                         moved: bool = False) -> None:
        """A new private panel (a followup of an acknowledged interaction).  ``moved``: right
        after the user's move, which is stored whatever happens to the panel."""
        try:
            layout, files = await self.panel_view(interaction, game_id, note_key=note_key,
                                                  note=note)
            await interaction.followup.send(view=layout, files=files, ephemeral=True)
        except Exception as exc:
            await self.panel_failed(interaction, game_id, exc, moved)

    async def panel_failed(self, interaction: discord.Interaction[Any], game_id: int,
                           exc: Exception, moved: bool) -> None:
        """A panel that could not be drawn: the error, or right after the user's move (stored
        already: "nothing was changed" would be wrong) that the move is saved."""
        if not moved:
            await send_error(interaction, exc, where=f"panel of game {game_id}")
            return
        log.warning("game %s: no panel after a move: %r", game_id, exc)
        await send_ephemeral(interaction, self.late_line(interaction, game_id))

    async def panel_here(self, interaction: discord.Interaction[Any], game_id: int, *,
                         note_key: str | None = None, draft: str | None = None,
                         render: bool = True, compact: bool = False, note: str | None = None,
                         moved: bool = False) -> None:
        """Redraw the private panel the user clicked in (already acknowledged); only ever a
        private message (:meth:`placed`).  ``moved``: right after the user's move."""
        try:
            layout, files = await self.panel_view(interaction, game_id, note_key=note_key,
                                                  draft=draft, render=render, compact=compact,
                                                  note=note)
            if render:
                await interaction.edit_original_response(view=layout, attachments=files)
            else:
                await interaction.edit_original_response(view=layout)
        except Exception as exc:
            await self.panel_failed(interaction, game_id, exc, moved)

    # --- table buttons ----------------------------------------------------------------------

    async def table_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action: str
    ) -> None:
        private = is_private(interaction)
        if private:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        if not await self.placed(interaction, game_id, None if action == "leave" else "channel"):
            return  # the confirmation of /game leave is private; the others sit in the channel
        try:
            if action != "log" and await self.returned(interaction, game_id):
                return
        except Exception as exc:
            await send_error(interaction, exc, where=f"table button {action}")
            return
        if action == "panel":
            if private:
                await self.panel_here(interaction, game_id)
            else:
                await self.send_panel(interaction, game_id)
        elif action == "undo":
            await self.undo(interaction, game_id, version, private)
        elif action == "log":
            await self.send_log(interaction, game_id)
        elif action == "leave":
            await self.leave(interaction, game_id)
        else:
            await send_error(interaction, ValueError(action), where=f"table button {action}")

    async def undo(self, interaction: discord.Interaction[Any], game_id: int,
                   version: int | None, private: bool) -> None:
        """Take back the user's last decision as the button's message showed the game (a table
        or a panel): a double click undoes once, an outdated button nothing."""
        try:
            update = await self.turns.undo(game_id, interaction.user.id, version)
        except StaleVersion:
            await self.outdated(interaction, game_id, private)
            return
        except Exception as exc:
            await send_error(interaction, exc, where=f"undo in game {game_id}")
            return
        lang = self.lang(interaction)
        note = "\n".join([self.catalog.t(lang, "reply.undone", game=game_id), *(
            [self.late_line(interaction, game_id)] if update.late else [])])
        if private:
            await self.panel_here(interaction, game_id, note=note, moved=True)
        else:
            await self.send_panel(interaction, game_id, note=note, moved=True)

    async def send_log(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        lang = self.lang(interaction)
        try:
            record, lines = await self.turns.log_lines(game_id, lang)
            text = "\n".join(lines) or self.catalog.t(lang, "reply.log_empty")
            title = self.catalog.t(lang, "reply.log_title", game=record.id)
            await send_ephemeral(interaction, f"**{title}**\n{text[-LOG_LIMIT:]}")
        except Exception as exc:
            await send_error(interaction, exc, where=f"log of game {game_id}")

    async def leave(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        lang = self.lang(interaction)
        try:
            update = await self.turns.leave(game_id, interaction.user.id)
            key = "reply.left" if update is not None else "reply.left_abandoned"
            publisher = getattr(interaction.client, "publisher", None)
            if update is None and publisher is not None:  # nobody left to play: close the table
                record = await self.storage.games.get(game_id)
                await publisher.close_game(record, await self.turns.names(record))
            await interaction.edit_original_response(
                content=self.catalog.t(lang, key, game=game_id), view=None)
        except Exception as exc:
            await send_error(interaction, exc, where=f"leave game {game_id}")

    # --- showing the game -------------------------------------------------------------------

    async def show_current(
        self, interaction: discord.Interaction[Any], game_id: int, *, note_key: str | None = None
    ) -> None:
        """Privately show the user the game as it stands (in the user's Discord language)."""
        lang = self.lang(interaction)
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
                            presenter=presenter_for(record.game))
        files = [discord.File(io.BytesIO(update.image), filename=image_name)] if (
            update.image and image_name) else []
        await interaction.followup.send(
            content=content or discord.utils.MISSING, embed=embed, files=files, ephemeral=True
        )

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """``/game show``: the channel's game, privately: a player's panel, else the table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self.storage.games.find_by_channel(interaction.channel_id or 0)
            if record is None:
                await interaction.followup.send(self.catalog.t(lang, "reply.no_game_here"),
                                                ephemeral=True)
                return
            if record.status is GameStatus.LOBBY:
                level = await self._lobby_level(interaction, record.messages.get("lobby"))
                await interaction.followup.send(
                    embed=lobby_embed(record, lang, level, presenter_for(record.game).catalog),
                    ephemeral=True
                )
                return
            if record.seat_of(interaction.user.id) is not None:
                await self.send_panel(interaction, record.id)
                return
            await self.send_table(interaction, await self.service.table(record.id), lang)
        except Exception as exc:
            await send_error(interaction, exc, where="/game show")

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

