"""A table update that fails is published again, and the mover is answered at once.

Discord answers the table's edits with a lasting 500: discord.py retries each for about 16
seconds before giving up.  The mover's answer does not wait for that: it comes after a few
seconds (``bot.publishing.PUBLISH_WAIT``) while the publication is still under way, and says
that the move is saved and the table will catch up.  Once the publication gave up, the table
shows the older version and the publish record says so; when Discord works again, the
reminder pass publishes the game again (``GameService.resume_stalled``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from engine.core import get_game
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import shown_version, table_at
from tests.e2e.test_game_notify import FakeClock
from tests.e2e.test_stale_clicks import setup
from tests.offline_discord import StoredMessage, running_client

LATE = "Your move in game #{game} is saved. The table in the channel is slow to show it"


@pytest.mark.parametrize("where", ["table", "panel"])
async def test_a_lasting_5xx_on_the_table_is_published_again_by_the_pass(
    world: World, make_governor: Callable[..., OfflineGovernor],
    caplog: pytest.LogCaptureFixture, where: str,
) -> None:
    server = world.server
    clock = FakeClock()
    bot = make_governor(renderer=None, clock=clock, reminder_period=None)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        record, _ = await setup(world, bot, "puerto-rico")
        table = await table_at(world, bot, record.id)
        custom_id = f"g:{record.id}:{record.version}:r.builder"
        panel: StoredMessage | None = None
        if where == "panel":  # the role chosen in alice's private panel
            panel = await (await world.alice.click(table, label="My turn")).original_message()
        fault = server.inject_error("PATCH", f"/channels/{world.general.id}/messages/{table.id}",
                                    status=500, code=0, message="Internal Server Error",
                                    count=None)
        with caplog.at_level(logging.INFO):
            handle = await world.alice.click(panel or table, custom_id=custom_id)
            assert (await handle.response()).type == 6  # acknowledged at once
            line = LATE.format(game=record.id)
            if panel is None:  # she builds next: her panel comes, with the line
                answer = await handle.wait_for_followup(lambda m: line in m.text())
            else:  # the panel redrawn in place, with the line
                answer = await handle.original_message(lambda m: line in m.text())
            # the answer did not wait for Discord's retries: the publication is still going
            assert bot.service.publications.busy(record.id)
            assert answer.ephemeral and "Buildings you can build now" in answer.text()
            await bot.service.publications.settled()  # discord.py gave up
        assert len(fault.hits) == 5  # the first try and discord.py's four retries
        stored = await bot.storage.games.get(record.id)
        assert stored.version > record.version
        assert shown_version(server.get_message(table.id) or table, record.id) == record.version
        shown = await bot.storage.publications.get(record.id)
        assert shown is not None and shown.version == record.version
        failed = [r for r in caplog.records if "Discord failed the table update" in r.message]
        assert len(failed) == 1 and failed[0].levelno == logging.WARNING
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

        # Discord works again: the next pass publishes the game (once its change is not new)
        fault.cancel()
        assert (await bot.reminders.tick()).resumed == 0  # changed just now: not yet
        clock.advance(minutes=3)
        assert (await bot.reminders.tick()).resumed == 1
        await bot.wait_idle()
        now = await bot.storage.games.get(record.id)
        assert shown_version(server.get_message(table.id) or table, record.id) == now.version
        assert "Builder phase" in (server.get_message(table.id) or table).text()
        assert (await bot.storage.publications.get(record.id)).version == now.version  # type: ignore[union-attr]
        assert (await bot.reminders.tick()).resumed == 0  # caught up
    server.assert_no_failed_interactions()


async def test_a_story_a_failed_publication_missed_is_told_by_the_next(
    world: World, governor: OfflineGovernor
) -> None:
    """The story thread is under way; the publications that end the next role phase all fail
    (a 503, which discord.py does not retry); Discord works again before the reminder pass:
    the next move's publication tells that phase too, not only its own."""
    server = world.server
    record, _ = await setup(world, governor, "puerto-rico")
    table = await table_at(world, governor, record.id)
    rules = get_game("puerto-rico")

    async def ended() -> int:
        return sum(1 for a in await governor.storage.games.actions(record.id)
                   for e in a.events if e["type"] == "PhaseEnded")

    async def move(code: str = "pass") -> None:
        loaded = await governor.storage.games.load(record.id)
        seat = next(s for s in rules.prompt(loaded.state).seats  # type: ignore[union-attr]
                    if loaded.record.seat(s).user_id)  # type: ignore[union-attr]
        legal = [rules.encode_action(a) for a in rules.legal_actions(loaded.state, seat)]
        await governor.service.submit(record.id, loaded.record.seat(seat).user_id or 0,  # type: ignore[union-attr]
                                      loaded.record.version, code if code in legal else legal[-1])
        await governor.wait_idle()

    async def phase(role: str) -> None:
        before = await ended()
        await move(role)
        while await ended() == before:
            await move()

    await phase("r.builder")  # told: the story thread starts
    thread_id = (await governor.storage.games.get(record.id)).messages["thread"]
    fault = server.inject_error("PATCH", f"/channels/{world.general.id}/messages/{table.id}",
                                status=503, code=0, message="Service Unavailable", count=None)
    await phase("r.settler")  # its publications fail
    assert fault.hits
    fault.cancel()
    await move()  # the next role: published, with the phase missed
    stored = await governor.storage.games.get(record.id)
    assert shown_version(server.get_message(table.id) or table, record.id) == stored.version
    told = "\n".join(m.text() for m in server.messages(server.resolve_channel(thread_id)))
    assert told.count("### Round") == await ended(), told
