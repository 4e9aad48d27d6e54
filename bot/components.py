"""Persistent components: every button and select is a ``DynamicItem`` rebuilt from its custom_id.

The custom_id carries everything a click needs, so a restart loses nothing and no view is kept in
memory::

    l:<game>:<version>:<action>      lobby buttons: join, leave, start, cancel, ai.<level>
    lr:<game>:<version>              the lobby's menu of optional rules
    ls:<game>:<version>:add|remove   the lobby's seat menus: an AI seat of any kind added, removed
    g:<game>:<version>:<code>        a game action button (engine action code, < 40 characters)
    gs:<game>:<version>:<name>       a game action select: each option's value is an action code
    t:<game>:<version>:<action>      table buttons: panel ("My turn"), undo, log, leave (confirm)

A game adds its own components (its presenter's ``dynamic_items``: Puerto Rico's Mayor draft
menus ``ma:`` and ``mb:``); they reach the game flow through :attr:`Handlers.play`.

``version`` is the game's version the component was drawn for; the service refuses a click on an
outdated one and the handler shows the current state instead.  The items only parse: the work is
done by the bot's :class:`Handlers` (the lobby cog and the game actions), which acknowledge first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol, Self

import discord

from .errors import send_ephemeral, send_error
from .i18n import CATALOG, Catalog

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100


class Handlers(Protocol):
    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action: str
    ) -> None: ...

    async def game_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, code: str
    ) -> None: ...

    async def table_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action: str
    ) -> None: ...

    async def game_select(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, name: str,
        values: list[str],
    ) -> None: ...

    @property
    def play(self) -> Any:
        """The game flow (:class:`bot.play.PlayFlow`), for a game's own components."""
        ...


def handlers_of(interaction: discord.Interaction[Any]) -> Handlers:
    handlers: Handlers | None = getattr(interaction.client, "component_handlers", None)
    if handlers is None:
        raise RuntimeError("the bot has no component handlers")
    return handlers


def claims(items: Iterable[type[discord.ui.DynamicItem[Any]]], custom_id: str) -> bool:
    """Whether one of ``items`` (the bot's registered component classes) takes ``custom_id``."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)


async def answer_unclaimed(interaction: discord.Interaction[Any],
                           catalog: Catalog = CATALOG) -> None:
    """Answer a click on a component that no item of the bot claims (an id of an older format,
    a tail too long or with other characters than the bot draws, an unknown prefix):
    discord.py would drop it and the user would see "This interaction failed".  One private
    line says the control is no longer valid; nothing changes."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", "")) if isinstance(data, dict) else ""
    log.info("component %r (user %s, message %s) matches no template: refused", custom_id[:120],
             interaction.user.id, interaction.message.id if interaction.message else None)
    lang = catalog.language_of(interaction.locale)
    await send_ephemeral(interaction, catalog.t(lang, "err.unknown_component"), catalog)


def button_look(item: discord.ui.Item[Any]) -> tuple[str, discord.ButtonStyle]:
    """The label and style of a clicked button, to rebuild a persistent button as it was."""
    if isinstance(item, discord.ui.Button):
        return item.label or "?", item.style
    return "?", discord.ButtonStyle.secondary


def checked_id(custom_id: str) -> str:
    """``custom_id`` itself, refused when longer than Discord allows."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
    return custom_id


class GameIdButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?!)",  # never matches: only the subclasses below are registered
):
    """The body shared by the buttons whose custom_id is ``<prefix>:<game>:<version>:<tail>``:
    built from the parts, rebuilt from the custom_id after a restart (keeping its label and
    style), and a click handed to one method of the bot's :class:`Handlers`."""

    prefix: ClassVar[str]
    where: ClassVar[str]  # names the button in the log of an unexpected failure
    default_style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(
        self,
        game_id: int,
        version: int,
        tail: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle | None = None,
        disabled: bool = False,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style or self.default_style,
                disabled=disabled,
                emoji=emoji,
                custom_id=checked_id(f"{self.prefix}:{game_id}:{version}:{tail}"),
            )
        )
        self.game_id = game_id
        self.version = version
        self.tail = tail

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        label, style = button_look(item)
        return cls(
            int(match["game"]), int(match["version"]), match["tail"], label=label, style=style
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.dispatch(handlers_of(interaction), interaction)
        except Exception as exc:  # the handler reports its own errors; this is the last net
            await send_error(interaction, exc, where=f"{self.where} {self.custom_id}")

    async def dispatch(self, handlers: Handlers, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


IDS = r"(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12})"


class LobbyButton(GameIdButton, template=rf"l:{IDS}:(?P<tail>[a-z]+(?:\.[a-z_]+)?)"):
    prefix, where = "l", "lobby button"

    @property
    def action(self) -> str:
        return self.tail

    async def dispatch(self, handlers: Handlers, interaction: discord.Interaction[Any]) -> None:
        await handlers.lobby_click(interaction, self.game_id, self.version, self.tail)


class GameButton(GameIdButton, template=rf"g:{IDS}:(?P<tail>[a-z0-9._,+@*-]{{1,80}})"):
    """A game action: the tail is the engine's action code."""

    prefix, where = "g", "game button"

    @property
    def code(self) -> str:
        return self.tail

    async def dispatch(self, handlers: Handlers, interaction: discord.Interaction[Any]) -> None:
        await handlers.game_click(interaction, self.game_id, self.version, self.tail)


class GameIdSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"(?!)",  # never matches: only the subclasses are registered
):
    """The body shared by the menus whose custom_id is ``<prefix>:<game>:<version>[:<tail>]``
    (a subclass's template names its ``tail`` group, if any): built from the parts, rebuilt
    from the custom_id after a restart (keeping its options, placeholder and number of values),
    and the values picked handed to :meth:`dispatch`."""

    prefix: ClassVar[str]
    where: ClassVar[str]  # names the menu in the log of an unexpected failure
    blank: ClassVar[str] = "?"  # the value of the one option a menu rebuilt without any shows

    def __init__(
        self,
        game_id: int,
        version: int,
        tail: str = "",
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        disabled: bool = False,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        custom_id = f"{self.prefix}:{game_id}:{version}" + (f":{tail}" if tail else "")
        super().__init__(
            discord.ui.Select(
                custom_id=checked_id(custom_id),
                options=options or [discord.SelectOption(label="?", value=self.blank)],
                placeholder=placeholder,
                disabled=disabled,
                min_values=min_values,
                max_values=max(1, min_values, max_values),
            )
        )
        self.game_id = game_id
        self.version = version
        self.tail = tail

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(
            int(match["game"]),
            int(match["version"]),
            match.groupdict().get("tail") or "",
            (list(select.options) if select else []) or None,
            placeholder=select.placeholder if select else None,
            min_values=select.min_values if select else 1,
            max_values=select.max_values if select else 1,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = [str(v) for v in self.item.values]  # filled from the interaction
        try:
            await self.dispatch(handlers_of(interaction), interaction, values)
        except Exception as exc:  # the handler reports its own errors; this is the last net
            await send_error(interaction, exc, where=f"{self.where} {self.custom_id}")

    async def dispatch(
        self, handlers: Handlers, interaction: discord.Interaction[Any], values: list[str]
    ) -> None:
        raise NotImplementedError


class GameSelect(GameIdSelect, template=rf"gs:{IDS}:(?P<tail>[a-z0-9_]{{1,40}})"):
    """A choice among action codes (buildings to build, goods to ship...): option values are
    the codes themselves.  A menu of several values (``max_values`` > 1: the cards that pay for
    a building) stands for one code that the game's presenter composes from them
    (:meth:`bot.games.GamePresenter.compose`)."""

    prefix, where, blank = "gs", "game select", "pass"

    @property
    def name(self) -> str:
        return self.tail

    async def dispatch(
        self, handlers: Handlers, interaction: discord.Interaction[Any], values: list[str]
    ) -> None:
        await handlers.game_select(interaction, self.game_id, self.version, self.tail, values)


class TableButton(GameIdButton, template=rf"t:{IDS}:(?P<tail>panel|undo|log|leave)"):
    """A button of the table that is not a move: ``panel`` (the private "My turn" panel),
    ``undo``, ``log``, ``leave`` (the confirmation of /game leave)."""

    prefix, where = "t", "table button"

    @property
    def action(self) -> str:
        return self.tail

    async def dispatch(self, handlers: Handlers, interaction: discord.Interaction[Any]) -> None:
        await handlers.table_click(interaction, self.game_id, self.version, self.tail)


class LobbyRules(GameIdSelect, template=rf"lr:{IDS}"):
    """The lobby's menu of the game's optional rules (``GamePresenter.variants``): the values
    chosen are the rules on; the creator (or Manage Server) changes them before the start."""

    prefix, where = "lr", "lobby rules"

    async def dispatch(
        self, handlers: Handlers, interaction: discord.Interaction[Any], values: list[str]
    ) -> None:
        await handlers.lobby_click(
            interaction, self.game_id, self.version, "rules=" + ",".join(values)
        )


class LobbySeats(GameIdSelect, template=rf"ls:{IDS}:(?P<tail>add|remove)"):
    """The lobby's seat menus (creator or Manage Server): ``add`` seats an AI of the level
    picked, or a seat the game plays itself (values: seat kinds, ``ai.<kind>`` to the lobby);
    ``remove`` frees the AI seat picked (values: seat numbers, ``remove.<seat>``)."""

    prefix, where = "ls", "lobby seats"

    async def dispatch(
        self, handlers: Handlers, interaction: discord.Interaction[Any], values: list[str]
    ) -> None:
        action = "ai" if self.tail == "add" else "remove"
        await handlers.lobby_click(interaction, self.game_id, self.version,
                                   f"{action}.{values[0] if values else ''}")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    GameButton,
    GameSelect,
    TableButton,
    LobbyRules,
    LobbySeats,
)


def lobby_view(game_id: int, version: int, labels: dict[str, str], level: str,
               rules: list[discord.SelectOption] | None = None,
               add: Sequence[discord.SelectOption] = (),
               remove: Sequence[discord.SelectOption] = ()) -> discord.ui.View:
    """The lobby drawn for ``version``: its five buttons (Add AI adds an AI of ``level``, and is
    greyed out unless ``add`` offers that level), then a menu for each of ``add`` (the seat
    kinds the table may take now), ``remove`` (its AI seats) and ``rules`` (the game's
    optional rules), each only when it has options: four rows at most, one tap and a pick
    each on a phone."""
    view = discord.ui.View(timeout=None)
    green, grey = discord.ButtonStyle.success, discord.ButtonStyle.secondary
    offered = {str(o.value) for o in add}
    for action, style in (
        ("join", discord.ButtonStyle.primary),
        ("leave", grey),
        (f"ai.{level}", grey),
        ("start", green),
        ("cancel", discord.ButtonStyle.danger),
    ):
        key = "add_ai" if action.startswith("ai.") else action
        view.add_item(LobbyButton(game_id, version, action, label=labels[key], style=style,
                                  disabled=key == "add_ai" and level not in offered))
    for tail, options in (("add", add), ("remove", remove)):
        if options:
            view.add_item(LobbySeats(game_id, version, tail, list(options)[:25],
                                     placeholder=labels.get(f"{tail}_seat")))
    if rules:
        view.add_item(LobbyRules(game_id, version, "", rules, placeholder=labels.get("rules"),
                                 min_values=0, max_values=len(rules)))
    return view


def lobby_level(message: discord.Message | None, default: str) -> str:
    """The AI level a lobby message's Add AI button carries (the lobby keeps no other state)."""
    if message is None:
        return default
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None) or ""
            match = LobbyButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match and match["tail"].startswith("ai."):
                return match["tail"].removeprefix("ai.")
    return default
