"""The command tree, the same for every game.

* ``/game``: what every game shares, acting on the game of the channel: ``new`` (with the game
  to play), ``show``, ``board``, ``status``, ``log`` (``show``, ``replay``, ``export``),
  ``games``, ``rules``, ``undo``, ``leave``, ``rejoin``, ``kick``, ``pause``, ``unpause``,
  ``away``, ``follow``, ``unfollow``,
  ``abandon``, ``notify``, ``server``, ``hint``; and the server's ``leaderboard`` and ``stats``;
  ``move`` (and ``abandon game:``) for a game whose channel was deleted (:mod:`bot.moving`).
* ``/<game>`` (``/pr``, ``/sj``...): one group per game with its decisions, one command each
  (its presenter's :data:`~bot.games.GamePresenter.decisions`), whose autocomplete lists exactly
  the caller's legal choices now (:func:`decision_group`).

Discord allows 100 global commands and 25 subcommands per group: this tree uses one global
command per game plus ``/game`` (23 of its 25), and each game's decisions fit its own group of
25 with room for its expansions.  Names, descriptions and choices are localized through the
tree's translator (:mod:`bot.i18n.translator`; a game's words come from its own catalog); each
callback is one line into a flow."""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.absence import AbsenceFlow
from bot.banks import MAX_BANK_DAYS, MAX_CAP_DAYS, MAX_INCREMENT_HOURS, zone_choices
from bot.commands import CommandFlow
from bot.games import PACKAGES, GamePresenter, presenter_for
from bot.games.contract import Decision
from bot.i18n.translator import ls
from bot.lobby import LobbyFlow
from bot.moving import MoveFlow
from bot.notify_panel import NotifyPanel
from bot.play import PlayFlow
from bot.service import GameService
from storage.settings import MAX_ABANDON_DAYS
from storage.timebank import PACE_NAMES

Choices = list[app_commands.Choice[str]]


class Flows(Protocol):
    """What the command tree calls (the bot, :class:`bot.client.GovernorBot`, which adds this
    cog once its flows exist)."""

    @property
    def service(self) -> GameService: ...

    lobby: LobbyFlow
    play: PlayFlow
    moves: MoveFlow
    absence: AbsenceFlow
    notify_panel: NotifyPanel

    async def notify_setting(self, interaction: discord.Interaction[Any], enabled: bool | None,
                             **options: Any) -> None: ...

    async def server_settings(self, interaction: discord.Interaction[Any], language: str | None,
                              hours: int | None,
                              quiet: tuple[str | None, bool | None, str | None] = (
                                  None, None, None),
                              abandon_days: int | None = None,
                              away_days: int | None = None) -> None: ...

AI_LEVEL_CHOICES = [
    app_commands.Choice(name=ls("choice.ai_level.heuristic"), value="heuristic"),
    app_commands.Choice(name=ls("choice.ai_level.strong"), value="strong"),
    app_commands.Choice(name=ls("choice.ai_level.random"), value="random"),
]
def zones_typed(current: str) -> Choices:
    """The IANA time zones whose name holds what was typed (the autocomplete)."""
    return [app_commands.Choice(name=zone, value=zone) for zone in zone_choices(current)]


PACE_CHOICES = [app_commands.Choice(name=ls(f"choice.pace.{name}"), value=name)
                for name in PACE_NAMES]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=ls("choice.language.en"), value="en"),
    app_commands.Choice(name=ls("choice.language.es"), value="es"),
    app_commands.Choice(name=ls("choice.language.pt"), value="pt"),
]


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game the bot offers, by its own name in each language."""
    return [app_commands.Choice(name=ls("game.title", presenter_for(name).catalog), value=name)
            for name in PACKAGES]


EVERYWHERE = frozenset({"games", "status", "away", "notify", "rejoin"})
"""The ``/game`` commands that work wherever the person is (the bot's DMs, a server without
the bot, with the app installed to their account); the others are for a game's table."""


class TableOnly(app_commands.CheckFailure):
    """A ``/game`` command of the table, used where the bot is not installed (its DMs, a
    server without it): refused with what works there (``err.table_only``)."""


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCog(
    commands.GroupCog,
    group_name=ls("cmd.game.name"),
    group_description=ls("cmd.game.description"),
):
    def __init__(self, bot: Flows) -> None:
        self.bot = bot
        self.flow = CommandFlow(bot.service, bot.play)
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """The app is installable by a person too (Discord's integration types and contexts):
        where the bot is not part of the server (its DMs, a server without it) only
        :data:`EVERYWHERE` works; decisions happen at the table."""
        command = interaction.command
        if interaction.is_guild_integration() or (command is not None
                                                  and command.name in EVERYWHERE):
            return True
        raise TableOnly()

    @app_commands.command(name=ls("cmd.new.name"), description=ls("cmd.new.description"))
    @app_commands.rename(
        game=ls("opt.game.name"),
        max_players=ls("opt.max_players.name"),
        ai_seats=ls("opt.ai_seats.name"),
        ai_level=ls("opt.ai_level.name"),
        language=ls("opt.language.name"),
        pace=ls("opt.pace.name"),
        bank_days=ls("opt.bank_days.name"),
        increment_hours=ls("opt.increment_hours.name"),
        cap_days=ls("opt.cap_days.name"),
        timezone=ls("opt.timezone.name"),
        quiet_weekends=ls("opt.quiet_weekends.name"),
        quiet_hours=ls("opt.quiet_hours.name"),
        variant=ls("opt.variant.name"),
        hints=ls("opt.hints.name"),
    )
    @app_commands.describe(
        game=ls("opt.game.description"),
        max_players=ls("opt.max_players.description"),
        ai_seats=ls("opt.ai_seats.description"),
        ai_level=ls("opt.ai_level.description"),
        language=ls("opt.language.description"),
        pace=ls("opt.pace.description"),
        bank_days=ls("opt.bank_days.description"),
        increment_hours=ls("opt.increment_hours.description"),
        cap_days=ls("opt.cap_days.description"),
        timezone=ls("opt.timezone.description"),
        quiet_weekends=ls("opt.quiet_weekends.description"),
        quiet_hours=ls("opt.quiet_hours.description"),
        variant=ls("opt.variant.description"),
        hints=ls("opt.hints.description"),
    )
    @app_commands.choices(game=game_choices(), ai_level=AI_LEVEL_CHOICES,
                          language=LANGUAGE_CHOICES, pace=PACE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str] | None = None,
        max_players: app_commands.Range[int, 2, 5] | None = None,
        ai_seats: app_commands.Range[int, 0, 4] = 0,
        ai_level: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
        pace: app_commands.Choice[str] | None = None,
        bank_days: app_commands.Range[int, 1, MAX_BANK_DAYS] | None = None,
        increment_hours: app_commands.Range[int, 0, MAX_INCREMENT_HOURS] | None = None,
        cap_days: app_commands.Range[int, 1, MAX_CAP_DAYS] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        quiet_weekends: bool | None = None,
        quiet_hours: app_commands.Range[str, 1, 40] | None = None,
        variant: str | None = None,
        hints: bool = False,
    ) -> None:
        await self.bot.lobby.create(
            interaction,
            game=game.value if game else None,
            max_players=max_players,
            ai_seats=ai_seats,
            ai_level=ai_level.value if ai_level else "heuristic",
            language=language.value if language else None,
            pace=pace.value if pace else None,
            bank_days=bank_days,
            increment_hours=increment_hours,
            cap_days=cap_days,
            timezone=timezone,
            quiet_weekends=quiet_weekends,
            quiet_hours=quiet_hours,
            variants=[variant] if variant else [],
            hints=hints,
        )

    @new.autocomplete("timezone")
    async def timezone_choices(self, interaction: discord.Interaction[Any], current: str
                               ) -> Choices:
        """The IANA time zones whose name holds what was typed."""
        return zones_typed(current)

    @new.autocomplete("variant")
    async def variant_choices(self, interaction: discord.Interaction[Any], current: str
                              ) -> Choices:
        """The optional rules of the game being chosen (of every game before one is)."""
        chosen = getattr(interaction.namespace, "game", None)
        lang = self.flow.lang(interaction)
        wanted = current.strip().casefold()
        out = []
        for name in PACKAGES:
            if chosen and name != chosen:
                continue
            presenter = presenter_for(name)
            for ident in presenter.variants:
                label = presenter.catalog.t(lang, "lobby.variant_choice",
                                            title=presenter.title(lang),
                                            variant=presenter.catalog.t(lang, f"variant.{ident}"))
                if not wanted or wanted in label.casefold() or wanted in ident:
                    out.append(app_commands.Choice(name=label[:100], value=ident))
        return out[:25]

    @app_commands.command(name=ls("cmd.show.name"), description=ls("cmd.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.play.show(interaction)

    @app_commands.command(name=ls("cmd.abandon.name"), description=ls("cmd.abandon.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.game_id.description"))
    async def abandon(self, interaction: discord.Interaction[Any],
                      game: app_commands.Range[int, 1] | None = None) -> None:
        if game is None:
            await self.flow.abandon(interaction)
        else:  # a game whose channel was deleted, from anywhere in its server
            await self.bot.moves.abandon(interaction, game)

    @app_commands.command(name=ls("cmd.move.name"), description=ls("cmd.move.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.moved_game.description"))
    async def move(self, interaction: discord.Interaction[Any],
                   game: app_commands.Range[int, 1]) -> None:
        await self.bot.moves.move(interaction, game)

    @app_commands.command(name=ls("cmd.notify.name"), description=ls("cmd.notify.description"))
    @app_commands.rename(enabled=ls("opt.enabled.name"), timezone=ls("opt.timezone.name"),
                         quiet_hours=ls("opt.quiet_hours.name"),
                         digest_hour=ls("opt.digest_hour.name"),
                         reminder_hours=ls("opt.reminder_hours.name"),
                         heads_up=ls("opt.heads_up.name"))
    @app_commands.describe(enabled=ls("opt.enabled.description"),
                           timezone=ls("opt.own_timezone.description"),
                           quiet_hours=ls("opt.own_quiet_hours.description"),
                           digest_hour=ls("opt.digest_hour.description"),
                           reminder_hours=ls("opt.own_reminder_hours.description"),
                           heads_up=ls("opt.heads_up.description"))
    async def notify(self, interaction: discord.Interaction[Any], enabled: bool | None = None,
                     timezone: app_commands.Range[str, 1, 60] | None = None,
                     quiet_hours: app_commands.Range[str, 1, 40] | None = None,
                     digest_hour: app_commands.Range[int, 0, 23] | None = None,
                     reminder_hours: app_commands.Range[int, 1, 168] | None = None,
                     heads_up: bool | None = None) -> None:
        await self.bot.notify_setting(interaction, enabled, timezone=timezone,
                                      quiet_hours=quiet_hours, digest_hour=digest_hour,
                                      reminder_hours=reminder_hours, heads_up=heads_up)

    @notify.autocomplete("timezone")
    async def notify_timezone_choices(self, interaction: discord.Interaction[Any], current: str
                                      ) -> Choices:
        return zones_typed(current)

    @app_commands.command(name=ls("cmd.server.name"), description=ls("cmd.server.description"))
    @app_commands.rename(
        language=ls("opt.default_language.name"), reminder_hours=ls("opt.reminder_hours.name"),
        timezone=ls("opt.timezone.name"), quiet_weekends=ls("opt.quiet_weekends.name"),
        quiet_hours=ls("opt.quiet_hours.name"), abandon_days=ls("opt.abandon_days.name"),
        away_days=ls("opt.server_away_days.name"),
    )
    @app_commands.describe(
        language=ls("opt.default_language.description"),
        reminder_hours=ls("opt.reminder_hours.description"),
        timezone=ls("opt.server_timezone.description"),
        quiet_weekends=ls("opt.server_quiet_weekends.description"),
        quiet_hours=ls("opt.server_quiet_hours.description"),
        abandon_days=ls("opt.abandon_days.description"),
        away_days=ls("opt.server_away_days.description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def server(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str] | None = None,
        reminder_hours: app_commands.Range[int, 1, 168] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        quiet_weekends: bool | None = None,
        quiet_hours: app_commands.Range[str, 1, 40] | None = None,
        abandon_days: app_commands.Range[int, 1, MAX_ABANDON_DAYS] | None = None,
        away_days: app_commands.Range[int, 0, 365] | None = None,
    ) -> None:
        await self.bot.server_settings(
            interaction, language.value if language else None, reminder_hours,
            quiet=(timezone, quiet_weekends, quiet_hours), abandon_days=abandon_days,
            away_days=away_days,
        )

    @server.autocomplete("timezone")
    async def server_timezone_choices(self, interaction: discord.Interaction[Any], current: str
                                      ) -> Choices:
        return zones_typed(current)

    # --- questions and the seat -------------------------------------------------------------

    @app_commands.command(name=ls("cmd.board.name"), description=ls("cmd.board.description"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.board(interaction)

    @app_commands.command(name=ls("cmd.status.name"), description=ls("cmd.status.description"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.status(interaction)

    log = app_commands.Group(name=ls("cmd.log.name"), description=ls("cmd.log.description"))
    """``/game log show|replay|export``: a game's history."""

    @log.command(name=ls("cmd.log_show.name"), description=ls("cmd.log_show.description"))
    @app_commands.rename(lines=ls("opt.lines.name"))
    @app_commands.describe(lines=ls("opt.lines.description"))
    async def log_show(
        self, interaction: discord.Interaction[Any], lines: app_commands.Range[int, 1, 100] = 25
    ) -> None:
        await self.flow.log(interaction, lines)

    @log.command(name=ls("cmd.log_replay.name"), description=ls("cmd.log_replay.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.game_id.description"))
    async def log_replay(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.flow.log_replay(interaction, game)

    @log.command(name=ls("cmd.log_export.name"), description=ls("cmd.log_export.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.game_id.description"))
    async def log_export(
        self, interaction: discord.Interaction[Any], game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.flow.log_export(interaction, game)

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
        return await self.flow.rules_topics(interaction, current)

    @app_commands.command(name=ls("cmd.hint.name"), description=ls("cmd.hint.description"))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.hint(interaction)

    @app_commands.command(name=ls("cmd.leaderboard.name"),
                          description=ls("cmd.leaderboard.description"))
    @app_commands.rename(game=ls("opt.game.name"), page=ls("opt.page.name"))
    @app_commands.describe(game=ls("opt.leaderboard_game.description"),
                           page=ls("opt.page.description"))
    @app_commands.choices(game=game_choices())
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await self.flow.leaderboard(interaction, game.value if game else None, page)

    @app_commands.command(name=ls("cmd.stats.name"), description=ls("cmd.stats.description"))
    @app_commands.rename(player=ls("opt.player.name"), game=ls("opt.game.name"))
    @app_commands.describe(player=ls("opt.player.description"),
                           game=ls("opt.stats_game.description"))
    @app_commands.choices(game=game_choices())
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.flow.stats(interaction, player.id if player else None,
                              game.value if game else None)

    @app_commands.command(name=ls("cmd.undo.name"), description=ls("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.undo(interaction)

    @app_commands.command(name=ls("cmd.leave.name"), description=ls("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.leave(interaction)

    # --- time away ----------------------------------------------------------------------------

    @app_commands.command(name=ls("cmd.rejoin.name"), description=ls("cmd.rejoin.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.rejoin_game.description"))
    async def rejoin(self, interaction: discord.Interaction[Any],
                     game: app_commands.Range[int, 1] | None = None) -> None:
        await self.bot.absence.rejoin(interaction, game)

    @app_commands.command(name=ls("cmd.away.name"), description=ls("cmd.away.description"))
    @app_commands.rename(days=ls("opt.away_days.name"), reason=ls("opt.away_reason.name"),
                         start=ls("opt.away_start.name"), until=ls("opt.away_until.name"))
    @app_commands.describe(days=ls("opt.away_days.description"),
                           reason=ls("opt.away_reason.description"),
                           start=ls("opt.away_start.description"),
                           until=ls("opt.away_until.description"))
    async def away(self, interaction: discord.Interaction[Any],
                   days: app_commands.Range[int, 0, 365] | None = None,
                   reason: app_commands.Range[str, 1, 100] | None = None,
                   start: app_commands.Range[str, 1, 12] | None = None,
                   until: app_commands.Range[str, 1, 12] | None = None) -> None:
        await self.bot.absence.away(interaction, days, reason, start, until)

    @app_commands.command(name=ls("cmd.follow.name"), description=ls("cmd.follow.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.game_id.description"))
    async def follow(self, interaction: discord.Interaction[Any],
                     game: app_commands.Range[int, 1] | None = None) -> None:
        await self.bot.notify_panel.follow(interaction, game, True)

    @app_commands.command(name=ls("cmd.unfollow.name"),
                          description=ls("cmd.unfollow.description"))
    @app_commands.rename(game=ls("opt.game_id.name"))
    @app_commands.describe(game=ls("opt.game_id.description"))
    async def unfollow(self, interaction: discord.Interaction[Any],
                       game: app_commands.Range[int, 1] | None = None) -> None:
        await self.bot.notify_panel.follow(interaction, game, False)

    @app_commands.command(name=ls("cmd.pause.name"), description=ls("cmd.pause.description"))
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.absence.pause(interaction)

    @app_commands.command(name=ls("cmd.unpause.name"),
                          description=ls("cmd.unpause.description"))
    async def unpause(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.absence.unpause(interaction)

    @app_commands.command(name=ls("cmd.kick.name"), description=ls("cmd.kick.description"))
    @app_commands.rename(player=ls("opt.player.name"))
    @app_commands.describe(player=ls("opt.kick_player.description"))
    async def kick(self, interaction: discord.Interaction[Any],
                   player: discord.User | discord.Member) -> None:
        await self.bot.absence.kick(interaction, player)


def decision_group(presenter: GamePresenter, flow: CommandFlow) -> app_commands.Group:
    """``/<game>``: the game's decisions, one command each (guild only)."""
    catalog = presenter.catalog
    group = app_commands.Group(name=ls(f"cmd.{presenter.command}.name", catalog),
                               description=ls(f"cmd.{presenter.command}.description", catalog),
                               guild_only=True)
    for decision in presenter.decisions:
        group.add_command(decision_command(presenter, decision, flow))
    return group


def decision_command(presenter: GamePresenter, decision: Decision, flow: CommandFlow
                     ) -> app_commands.Command[Any, Any, None]:
    """One decision: ``/<game> <name> <option>``, the option autocompleted with exactly the
    caller's legal choices of that kind; a command without an option (``pass``) decides at
    once."""
    catalog = presenter.catalog
    game, kind = presenter.name, decision.name
    name = ls(f"cmd.{kind}.name", catalog)
    description = ls(f"cmd.{kind}.description", catalog)
    if decision.option is None:
        value = decision.representative or kind

        async def decide_now(interaction: discord.Interaction[Any]) -> None:
            await flow.decide(interaction, game, kind, value)

        return app_commands.Command(name=name, description=description, callback=decide_now)

    async def decide(interaction: discord.Interaction[Any], choice: str) -> None:
        await flow.decide(interaction, game, kind, choice)

    renamed = app_commands.rename(choice=ls(f"opt.{decision.option}.name", catalog))(decide)
    described = app_commands.describe(
        choice=ls(f"opt.{decision.option}.description", catalog))(renamed)
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name=name, description=description, callback=described)

    async def choices(interaction: discord.Interaction[Any], current: str) -> Choices:
        return await flow.complete(interaction, game, kind, current)

    command.autocomplete("choice")(choices)
    return command
