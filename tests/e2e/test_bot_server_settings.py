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
