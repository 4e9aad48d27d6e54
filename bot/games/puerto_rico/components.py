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

from typing import Any

import discord

from ...components import IDS, GameIdButton, GameIdSelect, Handlers
from . import flow


class ArrangeSelect(
    GameIdSelect,
    template=rf"ma:{IDS}:(?P<tail>[icn]:[0-9a-z]{{0,40}}(?:-[0-9a-z]{{0,40}})?)",
):
    """One of the Mayor menus (island, city, or the nobles' circles) of a draft arrangement:
    picking circles redraws the panel with the new draft (see :mod:`.arrange`); the tail is
    ``<part>:<draft>``."""

    prefix, where, blank = "ma", "mayor menu", "0.0"

    async def dispatch(
        self, handlers: Handlers, interaction: discord.Interaction[Any], values: list[str]
    ) -> None:
        part, _, draft = self.tail.partition(":")
        await flow.arrange(
            handlers.play, interaction, self.game_id, self.version, part, draft, values
        )


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




class BlackMarketSelect(GameIdSelect, template=rf"bk:{IDS}"):
    """Exp. 1's Black market: the building chosen here (a value is a building's id, never a
    code) redraws the panel with the ways to pay for it, which are the codes."""

    prefix, where = "bk", "black market menu"

    async def dispatch(
        self, handlers: Handlers, interaction: discord.Interaction[Any], values: list[str]
    ) -> None:
        await flow.black_market(handlers.play, interaction, self.game_id, values)
