"""Governor starts against the offline Discord: login, storage, command sync and translations."""

from __future__ import annotations

from tests.e2e.conftest import OfflineGovernor, World


async def test_startup_syncs_localized_commands_to_the_dev_guild_only(
    world: World, governor: OfflineGovernor
) -> None:
    """The commands go to DEV_GUILD_ID at start, never globally; Spanish names come from the
    catalogs through the translator."""
    server = world.server
    commands = await server.wait_for_command_sync(world.guild)
    pr = next(c for c in commands if c["name"] == "pr")
    subs = {o["name"]: o for o in pr["options"]}
    assert set(subs) == {
        "new", "show", "abandon", "notify", "server",
        "role", "settle", "build", "sell", "ship", "place", "keep", "take", "pass",
        "board", "status", "log", "games", "rules", "undo", "leave",
    }
    assert len(subs) <= 25  # Discord's limit of subcommands in a group
    assert subs["build"]["name_localizations"]["es-ES"] == "construir"
    assert subs["build"]["options"][0]["autocomplete"] is True
    assert subs["new"]["name_localizations"]["es-ES"] == "nueva"
    assert subs["new"]["description_localizations"]["es-419"].startswith("Abrir una sala")
    options = {o["name"]: o for o in subs["new"]["options"]}
    assert options["max_players"]["name_localizations"]["es-ES"] == "max_jugadores"
    assert options["max_players"]["min_value"] == 2 and options["max_players"]["max_value"] == 5
    level = {c["value"]: c for c in options["ai_level"]["choices"]}
    assert level["random"]["name_localizations"]["es-ES"].startswith("Fácil")
    assert server.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    assert not server.requests_to("PUT", "/applications/{application_id}/commands")
    assert server.global_commands == [] or not server.global_commands
    assert governor.storage.db.path.exists()
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
    assert [c["name"] for c in server.global_commands] == ["pr"]
    assert [c["name"] for c in server.guild_commands[world.guild.id]] == ["pr"]
    assert not server.gateway_events("identify")
    out = capsys.readouterr().out
    assert "Synced 1 commands globally." in out and f"to server {world.guild.id}" in out


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
        assert await governor.check_commands() == 1
    assert warnings() == [] and isinstance(governor, GovernorBot)
