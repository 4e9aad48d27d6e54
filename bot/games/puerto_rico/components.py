"""Puerto Rico's own persistent components: the Mayor draft's menus and its confirmation, and
the Black market's building menu (Exp. 1).

    ma:<game>:<version>:<part>:<d>   Mayor draft menus (part i: island, c: city, n: the circles
                                     of Exp. 2's nobles; d: the draft, ``<pieces>-<nobles>``
                                     with nobles)
    mb:<game>:<version>:<d>          confirm the Mayor draft ``d`` (see :mod:`.arrange`)
    bk:<game>:<version>              the buildings the Black market makes affordable: choosing
                                     one redraws the panel with its payments (each a code)

Like every component they only parse; the work is :mod:`.flow`'s, reached through the bot's
game flow (:attr:`bot.components.Handlers.play`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ...components import IDS, GameIdButton, Handlers, checked_id, handlers_of
from ...errors import send_error
from . import flow


class ArrangeSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"ma:{IDS}:(?P<part>[icn]):"
    r"(?P<draft>[0-9a-z]{0,40}(?:-[0-9a-z]{0,40})?)",
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
        min_values: int = 0,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=checked_id(f"ma:{game_id}:{version}:{part}:{draft}"),
                options=options or [discord.SelectOption(label="?", value="0.0")],
                placeholder=placeholder,
                min_values=min_values,
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
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["part"],
            match["draft"],
            list(select.options) if select else None,
            max_values=select.max_values if select else 25,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await flow.arrange(
                handlers_of(interaction).play,
                interaction,
                self.game_id,
                self.version,
                self.part,
                self.draft,
                [str(v) for v in self.item.values],
            )
        except Exception as exc:
            await send_error(interaction, exc, where=f"mayor menu {self.custom_id}")


class ArrangeButton(GameIdButton,
                    template=rf"mb:{IDS}:(?P<tail>[0-9a-z]{{0,40}}(?:-[0-9a-z]{{0,40}})?)"):
    """Confirm a Mayor draft: every placement of the draft in one service call."""

    prefix, where = "mb", "mayor confirm"
    default_style = discord.ButtonStyle.success

    @property
    def draft(self) -> str:
        return self.tail

    async def dispatch(self, handlers: Handlers, interaction: discord.Interaction[Any]) -> None:
        await flow.arrange(handlers.play, interaction, self.game_id, self.version, "ok",
                           self.tail, [])




class BlackMarketSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"bk:{IDS}",
):
    """Exp. 1's Black market: the building chosen here (a value is a building's id, never a
    code) redraws the panel with the ways to pay for it, which are the codes."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=checked_id(f"bk:{game_id}:{version}"),
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BlackMarketSelect:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(int(match["game"]), int(match["version"]),
                   list(select.options) if select else None,
                   placeholder=select.placeholder if select else None)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await flow.black_market(handlers_of(interaction).play, interaction, self.game_id,
                                    [str(v) for v in self.item.values])
        except Exception as exc:
            await send_error(interaction, exc, where=f"black market menu {self.custom_id}")
