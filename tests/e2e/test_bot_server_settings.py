"""``/game server``: a server's defaults for new games (language, reminder hours), changed only by a
member with Manage Server, read by anyone, and used by ``/game new`` and the reminders."""

from __future__ import annotations

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_bot_lobby import open_lobby


async def test_only_a_manager_changes_the_server_defaults(
    world: World, governor: OfflineGovernor
) -> None:
    handle = await world.alice.run("/game server reminder_hours:12", channel=world.general)
    refusal = await handle.wait_for_followup()
    assert refusal.ephemeral and "Manage Server" in refusal.content
    guild = await governor.storage.settings.guild(world.guild.id)
    assert guild.reminder_hours is None and guild.language is None

    handle = await world.manager.run(
        "/game server language:es reminder_hours:12", channel=world.general
    )
    reply = await handle.wait_for_followup()
    assert reply.ephemeral and "12 hours" in reply.content and "Spanish" in reply.content
    guild = await governor.storage.settings.guild(world.guild.id)
    assert guild.language == "es" and guild.reminder_hours == 12


async def test_anyone_reads_the_defaults_and_new_games_use_them(
    world: World, governor: OfflineGovernor
) -> None:
    handle = await world.alice.run("/game server", channel=world.general)
    reply = await handle.wait_for_followup()
    assert "24 hours" in reply.content and "English" in reply.content  # nothing set yet

    await governor.storage.settings.update_guild(world.guild.id, language="es")
    await open_lobby(world, world.alice)  # no language given: the server's default
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.language == "es"


async def test_a_servers_quiet_time_and_a_games_own(
    world: World, governor: OfflineGovernor
) -> None:
    """Issue #35: the manager keeps weekends and nights quiet in a time zone found by its
    autocomplete; a wrong window or zone is refused saying why and changes nothing; a new
    game with a pace shows the server's quiet time, or its own."""
    typed = await world.manager.autocomplete("game server", {"timezone": "madr"},
                                             focused="timezone", channel=world.general)
    assert [c["value"] for c in await typed.choices()] == ["Europe/Madrid"]
    handle = await world.alice.run("/game server quiet_weekends:true", channel=world.general)
    assert "Manage Server" in (await handle.wait_for_followup()).content
    for bad, why in (("quiet_hours:tonight", "is not a daily window"),
                     ("timezone:Mars/Base", "is not a time zone I know")):
        handle = await world.manager.run(f"/game server {bad}", channel=world.general)
        refusal = await handle.wait_for_followup()
        assert refusal.ephemeral and why in refusal.content
    assert (await governor.storage.settings.guild(world.guild.id)).quiet is None

    handle = await world.manager.run(
        "/game server timezone:Europe/Madrid quiet_weekends:true quiet_hours:22-08",
        channel=world.general)
    reply = (await handle.wait_for_followup()).content
    assert "Quiet time (no time bank is spent): weekends and 22:00–08:00 (Europe/Madrid)." in reply
    handle = await world.alice.run("/game server", channel=world.general)
    assert "weekends and 22:00–08:00 (Europe/Madrid)" in (await handle.wait_for_followup()).content

    lobby = await open_lobby(world, world.alice, "pace:normal")
    assert "Quiet time: weekends and 22:00–08:00 (Europe/Madrid)" in str(lobby.embeds[0])
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None
    await governor.storage.games.abandon(record.id)
    lobby = await open_lobby(world, world.alice, "pace:fast quiet_weekends:false")
    assert "Quiet time: none (every hour counts)" in str(lobby.embeds[0])
