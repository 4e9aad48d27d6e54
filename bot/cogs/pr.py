"""``/pr``: the Puerto Rico commands.  Names, descriptions and choices are localized through the
tree's translator (:mod:`bot.i18n.translator`); each callback is one line into a flow."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n.translator import ls

if TYPE_CHECKING:
    from bot.client import GovernorBot

AI_LEVEL_CHOICES = [
    app_commands.Choice(name=ls("choice.ai_level.heuristic"), value="heuristic"),
    app_commands.Choice(name=ls("choice.ai_level.random"), value="random"),
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=ls("choice.language.en"), value="en"),
    app_commands.Choice(name=ls("choice.language.es"), value="es"),
]


@app_commands.guild_only()
class PrCog(
    commands.GroupCog,
    group_name=ls("cmd.pr.name"),
    group_description=ls("cmd.pr.description"),
):
    def __init__(self, bot: GovernorBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=ls("cmd.new.name"), description=ls("cmd.new.description"))
    @app_commands.rename(
        max_players=ls("opt.max_players.name"),
        ai_seats=ls("opt.ai_seats.name"),
        ai_level=ls("opt.ai_level.name"),
        language=ls("opt.language.name"),
        clock_days=ls("opt.clock_days.name"),
    )
    @app_commands.describe(
        max_players=ls("opt.max_players.description"),
        ai_seats=ls("opt.ai_seats.description"),
        ai_level=ls("opt.ai_level.description"),
        language=ls("opt.language.description"),
        clock_days=ls("opt.clock_days.description"),
    )
    @app_commands.choices(ai_level=AI_LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        max_players: app_commands.Range[int, 2, 5] = 5,
        ai_seats: app_commands.Range[int, 0, 4] = 0,
        ai_level: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
        clock_days: app_commands.Range[int, 1, 60] | None = None,
    ) -> None:
        await self.bot.lobby.create(
            interaction,
            max_players=max_players,
            ai_seats=ai_seats,
            ai_level=ai_level.value if ai_level else "heuristic",
            language=language.value if language else None,
            clock_days=clock_days,
        )

    @app_commands.command(name=ls("cmd.show.name"), description=ls("cmd.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.play.show(interaction)

    @app_commands.command(name=ls("cmd.abandon.name"), description=ls("cmd.abandon.description"))
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.lobby.abandon(interaction)

    @app_commands.command(name=ls("cmd.notify.name"), description=ls("cmd.notify.description"))
    @app_commands.rename(enabled=ls("opt.enabled.name"))
    @app_commands.describe(enabled=ls("opt.enabled.description"))
    async def notify(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        await self.bot.notify_setting(interaction, enabled)
