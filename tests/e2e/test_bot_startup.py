"""Governor starts against the offline Discord: login, storage, command sync and translations."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import OfflineGovernor, World


async def test_startup_syncs_localized_commands_to_the_dev_guild_only(
    world: World, governor: OfflineGovernor
) -> None:
    """The commands go to DEV_GUILD_ID at start, never globally; Spanish names come from the
    catalogs through the translator (a game's own words from its own catalog).  The tree:
    ``/game`` for what every game shares, one group per game for its decisions, each within
    Discord's limits (25 subcommands per group, 100 commands)."""
    from bot.games import PACKAGES, presenter_for

    server = world.server
    commands = await server.wait_for_command_sync(world.guild)
    by_name = {c["name"]: c for c in commands}
    assert set(by_name) == {"game"} | {presenter_for(g).command for g in PACKAGES}
    assert len(commands) <= 100
    game = {o["name"]: o for o in by_name["game"]["options"]}
    assert set(game) == {"new", "show", "abandon", "notify", "server", "board", "status", "log",
                         "games", "rules", "undo", "leave", "hint", "leaderboard",
                         "stats", "move", "rejoin", "kick", "pause", "unpause", "away", "follow",
                         "unfollow"}
    assert by_name["game"]["name_localizations"]["es-ES"] == "partida"
    # /game log show|replay|export: a group of its own
    assert game["log"]["type"] == 2
    assert {o["name"] for o in game["log"]["options"]} == {"show", "replay", "export"}
    subs = {o["name"]: o for o in by_name["pr"]["options"]}
    assert set(subs) == {"role", "settle", "build", "sell", "ship", "place", "keep", "take",
                         "buccaneer", "raid", "draft", "guest", "pass"}
    for command in commands:
        assert len(command["options"]) <= 25  # Discord's limit of subcommands in a group
        if command["name"] == "game":  # installable by a person too, usable everywhere
            assert command.get("integration_types") == [0, 1]
            assert command.get("contexts") == [0, 1, 2]
        else:  # a game's decisions: at its table only
            assert command.get("dm_permission") is False or command.get("contexts") == [0]
    assert subs["build"]["name_localizations"]["es-ES"] == "construir"
    assert subs["build"]["options"][0]["autocomplete"] is True
    assert subs["build"]["options"][0]["name"] == "building"
    assert subs["build"]["options"][0]["name_localizations"]["es-ES"] == "edificio"
    subs = game
    assert subs["new"]["name_localizations"]["es-ES"] == "nueva"
    choices = {c["value"]: c for c in {o["name"]: o for o in subs["new"]["options"]}["game"][
        "choices"]}
    assert set(choices) == set(PACKAGES)
    assert choices["puerto-rico"]["name"] == "Puerto Rico"
    assert subs["new"]["description_localizations"]["es-419"].startswith("Abrir una sala")
    options = {o["name"]: o for o in subs["new"]["options"]}
    assert options["max_players"]["name_localizations"]["es-ES"] == "max_jugadores"
    assert options["max_players"]["min_value"] == 2 and options["max_players"]["max_value"] == 5
    level = {c["value"]: c for c in options["ai_level"]["choices"]}
    assert level["random"]["name_localizations"]["es-ES"].startswith("Fácil")
    assert server.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    assert not server.requests_to("PUT", "/applications/{application_id}/commands")
    assert server.global_commands == [] or not server.global_commands
    assert Path(governor.settings.database_url).exists()
    assert not server.unhandled_requests


async def test_global_sync_only_on_request(world: World, bot_settings, capsys) -> None:
    """``python -m bot sync --global`` logs in, syncs the commands globally once and exits,
    without touching the gateway or the development server."""
    import bot.__main__ as entry
    from tests.offline_discord import patched_discord

    server = world.server
    with patched_discord(server):
        assert await entry.sync(bot_settings, None) == 0
        assert await entry.sync(bot_settings, world.guild.id) == 0
    from bot.games import PACKAGES

    groups = 1 + len(PACKAGES)  # /game, and one group per game
    assert sorted(c["name"] for c in server.global_commands)[0] == "game"
    assert len(server.global_commands) == groups
    assert len(server.guild_commands[world.guild.id]) == groups
    assert not server.gateway_events("identify")
    out = capsys.readouterr().out
    assert f"Synced {groups} commands globally." in out and f"to server {world.guild.id}" in out


async def test_a_bot_without_commands_says_what_to_run(
    world: World, make_governor, bot_settings, caplog
) -> None:
    """Issue #9: an admin who followed the set-up with a token only had no slash commands and
    nothing in the log.  With none registered (no DEV_GUILD_ID, nothing synced) the bot logs
    one WARNING naming `python -m bot sync --global` and DEV_GUILD_ID; once synced, none."""
    import dataclasses
    import logging

    import bot.__main__ as entry
    from bot.client import GovernorBot
    from tests.offline_discord import patched_discord, running_client

    caplog.set_level(logging.WARNING, logger="bot.client")
    server = world.server
    settings = dataclasses.replace(bot_settings, dev_guild_id=None)  # a token only

    def warnings() -> list[str]:
        return [r.getMessage() for r in caplog.records
                if r.name == "bot.client" and "No slash commands" in r.getMessage()]

    governor = OfflineGovernor(settings, guild_ready_timeout=0.05)
    async with running_client(server, governor):
        await server.wait_for(lambda: warnings() or None, what="the warning")
        assert await governor.check_commands() == 0
    assert len(warnings()) == 2  # once at the start, once by the call above
    assert "python -m bot sync --global" in warnings()[0] and "DEV_GUILD_ID" in warnings()[0]
    assert server.requests_to("GET", "/applications/{application_id}/commands")

    # DEV_GUILD_ID set but its sync turned off: the development server is asked too.
    caplog.clear()
    governor = make_governor(sync_dev_guild=False)
    async with running_client(server, governor):
        await server.wait_for(lambda: warnings() or None, what="the warning")
    assert server.requests_to("GET", "/applications/{application_id}/guilds/{guild_id}/commands")

    # Synced globally once: no warning.
    with patched_discord(server):
        assert await entry.sync(settings, None) == 0
    caplog.clear()
    governor = OfflineGovernor(settings, guild_ready_timeout=0.05)
    async with running_client(server, governor):
        # one top-level command per group: /game and each game's decision group
        assert await governor.check_commands() == len(governor.tree.get_commands()) >= 2
    assert warnings() == [] and isinstance(governor, GovernorBot)
