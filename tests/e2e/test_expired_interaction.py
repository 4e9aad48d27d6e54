"""An interaction that expired before the bot acknowledged it (404, 10062 Unknown interaction:
Discord's 3 seconds passed on a loaded machine) is one WARNING line without a traceback, and
the bot does not try to answer it again (the token takes no reply any more)."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import start
from tests.offline_discord import InteractionHandle

UNKNOWN_INTERACTION = 10062


async def expire(world: World, handle: InteractionHandle) -> None:
    """The injected 10062 reached the bot, and the server gave up waiting for the callback."""
    await handle.wait_for_rejection(UNKNOWN_INTERACTION)
    await world.server.wait_for(lambda: handle.failed or None)


def replies_to(world: World, handle: InteractionHandle) -> list[str]:
    """The requests the bot made with ``handle``'s interaction after its callback: followups,
    edits of the original response, and callbacks again."""
    return [r.path for r in world.server.requests if handle.token in r.path]


async def test_an_expired_interaction_is_one_warning_line(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture
) -> None:
    """A slash command and a button click, each refused with 10062 at its deferral, and an
    autocomplete whose choices came too late: no ERROR, no traceback, one WARNING naming 10062
    each, and no further reply attempted."""
    game = await start(world, governor, world.alice, [world.bob], "max_players:2")
    world.server.ack_timeout = 0.5  # the injected failure means no acknowledgement comes
    caplog.set_level(logging.INFO)
    command = await world.alice.run("/game status", channel=world.general,
                                    reject_callback_with=UNKNOWN_INTERACTION)
    await expire(world, command)
    table = world.server.get_message(game.messages["table"])
    assert table is not None
    click = await world.bob.click(table, label="My turn", reject_callback_with=UNKNOWN_INTERACTION)
    await expire(world, click)
    # discord.py answers an autocomplete itself, after our choices, and logs what fails then
    typing = await world.alice.autocomplete("game rules", {"topic": "har"}, focused="topic",
                                            channel=world.general,
                                            reject_callback_with=UNKNOWN_INTERACTION)
    await expire(world, typing)
    world.server.failed_interactions.clear()  # injected on purpose
    await governor.wait_idle()

    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING
             and r.name.startswith(("bot", "discord.app_commands"))]
    assert [r.levelno for r in noisy] == [logging.WARNING] * 3, [r.getMessage() for r in noisy]
    assert all(r.exc_info is None and "10062" in r.getMessage() for r in noisy)
    assert "command game status" in noisy[0].getMessage()
    assert "autocomplete" in noisy[2].getMessage()
    for handle in (command, click, typing):  # the callback only: nothing after it
        assert [p.endswith("/callback") for p in replies_to(world, handle)] == [True]
