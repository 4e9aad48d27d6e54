"""Persistent components: every button and select is a ``DynamicItem`` rebuilt from its custom_id.

The custom_id carries everything a click needs, so a restart loses nothing and no view is kept in
memory::

    l:<game>:<version>:<action>      lobby buttons: join, leave, start, cancel, ai.<level>
    g:<game>:<version>:<code>        a game action button (engine action code, < 40 characters)
    gs:<game>:<version>:<name>       a game action select: each option's value is an action code
    t:<game>:<version>:<action>      table buttons: panel ("My turn"), undo, log, leave (confirm)
    ma:<game>:<version>:<part>:<d>   Mayor draft menus (part i: island, c: city; d: the draft)
    mb:<game>:<version>:<d>          confirm the Mayor draft ``d`` (see :mod:`bot.arrange`)

``version`` is the game's version the component was drawn for; the service refuses a click on an
outdated one and the handler shows the current state instead.  The items only parse: the work is
done by the bot's :class:`Handlers` (the lobby cog and the game actions), which acknowledge first.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from .errors import send_error

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100
LOBBY_ACTIONS = ("join", "leave", "start", "cancel")


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

    async def arrange(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        part: str,
        draft: str,
        values: list[str],
    ) -> None: ...


def _handlers(interaction: discord.Interaction[Any]) -> Handlers:
    handlers: Handlers | None = getattr(interaction.client, "component_handlers", None)
    if handlers is None:
        raise RuntimeError("the bot has no component handlers")
    return handlers


def _button_look(item: discord.ui.Item[Any]) -> tuple[str, discord.ButtonStyle]:
    if isinstance(item, discord.ui.Button):
        return item.label or "?", item.style
    return "?", discord.ButtonStyle.secondary


def _check(custom_id: str) -> str:
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
    return custom_id


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"l:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<action>[a-z]+(?:\.[a-z]+)?)",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=_check(f"l:{game_id}:{version}:{action}")
            )
        )
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        label, style = _button_look(item)
        return cls(int(match["game"]), int(match["version"]), match["action"],
                   label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _handlers(interaction).lobby_click(
                interaction, self.game_id, self.version, self.action
            )
        except Exception as exc:  # the handler reports its own errors; this is the last net
            await send_error(interaction, exc, where=f"lobby button {self.custom_id}")


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"g:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<code>[a-z0-9._]{1,60})",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        code: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                emoji=emoji,
                custom_id=_check(f"g:{game_id}:{version}:{code}"),
            )
        )
        self.game_id = game_id
        self.version = version
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        label, style = _button_look(item)
        return cls(int(match["game"]), int(match["version"]), match["code"],
                   label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _handlers(interaction).game_click(
                interaction, self.game_id, self.version, self.code
            )
        except Exception as exc:
            await send_error(interaction, exc, where=f"game button {self.custom_id}")


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gs:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<name>[a-z0-9_]{1,40})",
):
    """A choice among action codes (buildings to build, goods to ship...): option values are
    the codes themselves."""

    def __init__(
        self,
        game_id: int,
        version: int,
        name: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=_check(f"gs:{game_id}:{version}:{name}"),
                options=options or [discord.SelectOption(label="?", value="pass")],
                placeholder=placeholder,
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.version = version
        self.name = name

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        options = list(item.options) if isinstance(item, discord.ui.Select) else []
        placeholder = item.placeholder if isinstance(item, discord.ui.Select) else None
        return cls(int(match["game"]), int(match["version"]), match["name"],
                   options or None, placeholder=placeholder)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values  # filled from the interaction by discord.py
        try:
            if not values:
                raise ValueError("a select submitted no value")
            await _handlers(interaction).game_click(
                interaction, self.game_id, self.version, str(values[0])
            )
        except Exception as exc:
            await send_error(interaction, exc, where=f"game select {self.custom_id}")


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"t:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<action>[a-z]{1,12})",
):
    """A button of the table that is not a move: ``panel`` (the private "My turn" panel),
    ``undo``, ``log``, ``leave`` (the confirmation of /pr leave)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, disabled=disabled,
                custom_id=_check(f"t:{game_id}:{version}:{action}"),
            )
        )
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        label, style = _button_look(item)
        return cls(int(match["game"]), int(match["version"]), match["action"],
                   label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _handlers(interaction).table_click(
                interaction, self.game_id, self.version, self.action
            )
        except Exception as exc:
            await send_error(interaction, exc, where=f"table button {self.custom_id}")


class ArrangeSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ma:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<part>[ic]):"
    r"(?P<draft>[0-9a-z]{0,40})",
):
    """One of the two Mayor menus (island or city) of a draft arrangement: picking circles
    redraws the panel with the new draft (see :mod:`bot.arrange`)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        part: str,
        draft: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=_check(f"ma:{game_id}:{version}:{part}:{draft}"),
                options=options or [discord.SelectOption(label="?", value="0.0")],
                placeholder=placeholder,
                min_values=0,
                max_values=max(1, max_values),
            )
        )
        self.game_id = game_id
        self.version = version
        self.part = part
        self.draft = draft

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ArrangeSelect:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(int(match["game"]), int(match["version"]), match["part"], match["draft"],
                   list(select.options) if select else None,
                   max_values=select.max_values if select else 25)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _handlers(interaction).arrange(
                interaction, self.game_id, self.version, self.part, self.draft,
                [str(v) for v in self.item.values],
            )
        except Exception as exc:
            await send_error(interaction, exc, where=f"mayor menu {self.custom_id}")


class ArrangeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mb:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,12}):(?P<draft>[0-9a-z]{0,40})",
):
    """Confirm a Mayor draft: every placement of the draft in one service call."""

    def __init__(
        self,
        game_id: int,
        version: int,
        draft: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.success,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, disabled=disabled,
                custom_id=_check(f"mb:{game_id}:{version}:{draft}"),
            )
        )
        self.game_id = game_id
        self.version = version
        self.draft = draft

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ArrangeButton:
        label, style = _button_look(item)
        return cls(int(match["game"]), int(match["version"]), match["draft"],
                   label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _handlers(interaction).arrange(
                interaction, self.game_id, self.version, "ok", self.draft, []
            )
        except Exception as exc:
            await send_error(interaction, exc, where=f"mayor confirm {self.custom_id}")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, GameButton, GameSelect, TableButton, ArrangeSelect, ArrangeButton,
)


def lobby_view(
    game_id: int, version: int, labels: dict[str, str], level: str
) -> discord.ui.View:
    """The lobby's five buttons, drawn for ``version``; Add AI adds an AI of ``level``."""
    view = discord.ui.View(timeout=None)
    green, grey = discord.ButtonStyle.success, discord.ButtonStyle.secondary
    for action, style in (
        ("join", discord.ButtonStyle.primary),
        ("leave", grey),
        (f"ai.{level}", grey),
        ("start", green),
        ("cancel", discord.ButtonStyle.danger),
    ):
        key = "add_ai" if action.startswith("ai.") else action
        view.add_item(LobbyButton(game_id, version, action, label=labels[key], style=style))
    return view


def lobby_level(message: discord.Message | None, default: str) -> str:
    """The AI level a lobby message's Add AI button carries (the lobby keeps no other state)."""
    if message is None:
        return default
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None) or ""
            match = LobbyButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match and match["action"].startswith("ai."):
                return match["action"].removeprefix("ai.")
    return default
