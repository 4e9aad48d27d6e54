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
