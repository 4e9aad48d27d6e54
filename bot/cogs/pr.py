"""``/pr``: the Puerto Rico commands.  Names, descriptions and choices are localized through the
tree's translator (:mod:`bot.i18n.translator`); each callback is one line into a flow."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import CommandFlow
from bot.i18n.translator import ls

if TYPE_CHECKING:
    from bot.client import GovernorBot

Choices = list[app_commands.Choice[str]]

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
        self.flow = CommandFlow(bot.service, bot.play)
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
        await self.flow.abandon(interaction)

    @app_commands.command(name=ls("cmd.notify.name"), description=ls("cmd.notify.description"))
    @app_commands.rename(enabled=ls("opt.enabled.name"))
    @app_commands.describe(enabled=ls("opt.enabled.description"))
    async def notify(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        await self.bot.notify_setting(interaction, enabled)

    @app_commands.command(name=ls("cmd.server.name"), description=ls("cmd.server.description"))
    @app_commands.rename(
        language=ls("opt.default_language.name"), reminder_hours=ls("opt.reminder_hours.name")
    )
    @app_commands.describe(
        language=ls("opt.default_language.description"),
        reminder_hours=ls("opt.reminder_hours.description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def server(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str] | None = None,
        reminder_hours: app_commands.Range[int, 1, 168] | None = None,
    ) -> None:
        await self.bot.server_settings(
            interaction, language.value if language else None, reminder_hours
        )

    # --- decisions: one command each, autocomplete lists the caller's legal choices ---------

    @app_commands.command(name=ls("cmd.role.name"), description=ls("cmd.role.description"))
    @app_commands.rename(role=ls("opt.role.name"))
    @app_commands.describe(role=ls("opt.role.description"))
    async def role(self, interaction: discord.Interaction[Any], role: str) -> None:
        await self.flow.decide(interaction, "role", role)

    @role.autocomplete("role")
    async def role_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "role", current)

    @app_commands.command(name=ls("cmd.settle.name"), description=ls("cmd.settle.description"))
    @app_commands.rename(tile=ls("opt.tile.name"))
    @app_commands.describe(tile=ls("opt.tile.description"))
    async def settle(self, interaction: discord.Interaction[Any], tile: str) -> None:
        await self.flow.decide(interaction, "settle", tile)

    @settle.autocomplete("tile")
    async def settle_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "settle", current)

    @app_commands.command(name=ls("cmd.build.name"), description=ls("cmd.build.description"))
    @app_commands.rename(building=ls("opt.building.name"))
    @app_commands.describe(building=ls("opt.building.description"))
    async def build(self, interaction: discord.Interaction[Any], building: str) -> None:
        await self.flow.decide(interaction, "build", building)

    @build.autocomplete("building")
    async def build_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "build", current)

    @app_commands.command(name=ls("cmd.sell.name"), description=ls("cmd.sell.description"))
    @app_commands.rename(good=ls("opt.good.name"))
    @app_commands.describe(good=ls("opt.good.description"))
    async def sell(self, interaction: discord.Interaction[Any], good: str) -> None:
        await self.flow.decide(interaction, "sell", good)

    @sell.autocomplete("good")
    async def sell_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "sell", current)

    @app_commands.command(name=ls("cmd.ship.name"), description=ls("cmd.ship.description"))
    @app_commands.rename(cargo=ls("opt.cargo.name"))
    @app_commands.describe(cargo=ls("opt.cargo.description"))
    async def ship(self, interaction: discord.Interaction[Any], cargo: str) -> None:
        await self.flow.decide(interaction, "ship", cargo)

    @ship.autocomplete("cargo")
    async def ship_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "ship", current)

    @app_commands.command(name=ls("cmd.place.name"), description=ls("cmd.place.description"))
    @app_commands.rename(where=ls("opt.where.name"))
    @app_commands.describe(where=ls("opt.where.description"))
    async def place(self, interaction: discord.Interaction[Any], where: str) -> None:
        await self.flow.decide(interaction, "place", where)

    @place.autocomplete("where")
    async def place_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "place", current)

    @app_commands.command(name=ls("cmd.keep.name"), description=ls("cmd.keep.description"))
    @app_commands.rename(goods=ls("opt.goods.name"))
    @app_commands.describe(goods=ls("opt.goods.description"))
    async def keep(self, interaction: discord.Interaction[Any], goods: str) -> None:
        await self.flow.decide(interaction, "keep", goods)

    @keep.autocomplete("goods")
    async def keep_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "keep", current)

    @app_commands.command(name=ls("cmd.take.name"), description=ls("cmd.take.description"))
    @app_commands.rename(choice=ls("opt.choice.name"))
    @app_commands.describe(choice=ls("opt.choice.description"))
    async def take(self, interaction: discord.Interaction[Any], choice: str) -> None:
        await self.flow.decide(interaction, "take", choice)

    @take.autocomplete("choice")
    async def take_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return await self.flow.complete(interaction, "take", current)

    @app_commands.command(name=ls("cmd.pass.name"), description=ls("cmd.pass.description"))
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.decide(interaction, "pass", "pass")

    # --- questions and the seat -------------------------------------------------------------

    @app_commands.command(name=ls("cmd.board.name"), description=ls("cmd.board.description"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.board(interaction)

    @app_commands.command(name=ls("cmd.status.name"), description=ls("cmd.status.description"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.status(interaction)

    @app_commands.command(name=ls("cmd.log.name"), description=ls("cmd.log.description"))
    @app_commands.rename(lines=ls("opt.lines.name"))
    @app_commands.describe(lines=ls("opt.lines.description"))
    async def log(
        self, interaction: discord.Interaction[Any], lines: app_commands.Range[int, 1, 100] = 25
    ) -> None:
        await self.flow.log(interaction, lines)

    @app_commands.command(name=ls("cmd.games.name"), description=ls("cmd.games.description"))
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.games(interaction)

    @app_commands.command(name=ls("cmd.rules.name"), description=ls("cmd.rules.description"))
    @app_commands.rename(topic=ls("opt.topic.name"))
    @app_commands.describe(topic=ls("opt.topic.description"))
    async def rules(self, interaction: discord.Interaction[Any], topic: str | None = None) -> None:
        await self.flow.rules(interaction, topic)

    @rules.autocomplete("topic")
    async def rules_choices(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return self.flow.rules_topics(interaction, current)

    @app_commands.command(name=ls("cmd.undo.name"), description=ls("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.undo(interaction)

    @app_commands.command(name=ls("cmd.leave.name"), description=ls("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.leave(interaction)
