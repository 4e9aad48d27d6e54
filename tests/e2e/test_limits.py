"""Discord's length limits end to end (issue #9): what a user types is echoed short, every reply
fits, and a reply Discord refuses still ends the "thinking…" (the offline server enforces the
limits as Discord does: tests/offline_discord/validation.py)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import COMMANDS, start
from tests.offline_discord import StoredMessage

LONG = ("plantation " * 200)[:1990]
"""A slash option of 1,990 characters: quoted whole, any refusal would pass 2,000."""


def fits(message: StoredMessage) -> bool:
    return len(message.content) <= 2000 and message.content.strip() != ""


async def test_a_long_option_is_quoted_short_on_every_command_that_echoes_it(
    world: World, governor: OfflineGovernor
) -> None:
    """Every decision command refuses a name that is not a choice (the one asked now by quoting
    it): with 1,990 characters typed, the reply quotes at most about 100 of them and reaches
    the user."""
    await start(world, governor, world.alice, [world.bob], "max_players:2")
    commands = sorted(set(COMMANDS.values()))
    assert len(commands) == 8
    for command, option in commands:
        handle = await world.alice.slash(command, {option: LONG}, channel=world.general)
        assert (await handle.response()).type == 5
        reply = await handle.original_message()
        assert fits(reply), (command, len(reply.content))
        assert not handle.rejected
        if command == "pr role":  # the decision asked now: the name typed is quoted
            assert "plantation plantation" in reply.content, reply.content
            assert len(reply.content) < 400 and "…" in reply.content, reply.content
            # the choices are listed by name, without their own costs and effects
            assert " — " not in reply.content and "Settler" in reply.content, reply.content
    # /game rules takes free text too: an unknown topic gets the overview, within the limit.
    handle = await world.bob.slash("game rules", {"topic": LONG}, channel=world.general)
    reply = await handle.original_message()
    assert fits(reply) and reply.content.startswith("No topic is called “plantation"), reply.content
    handle = await world.bob.slash("game rules", {"topic": "harbour"}, channel=world.general)
    assert (await handle.original_message()).content.startswith("No topic is called “harbour”")
    handle = await world.bob.slash("game rules", {"topic": "harbor"}, channel=world.general)
    assert "No topic" not in (await handle.original_message()).content


@pytest.mark.parametrize("where", ["reply", "followup"])
async def test_a_refused_reply_falls_back_to_a_short_one(
    world: World, governor: OfflineGovernor, where: str
) -> None:
    """When Discord refuses a reply's form (50035) anyway, the user gets the short generic
    reply instead of "thinking…" forever."""
    from discord import Interaction

    from bot.errors import send_ephemeral

    route = ("/interactions/{interaction_id}/{interaction_token}/callback" if where == "reply"
             else "/webhooks/{webhook_id}/{webhook_token}")
    seen: list[Interaction] = []

    async def hello(interaction: Interaction) -> None:
        seen.append(interaction)
        if where == "followup":
            await interaction.response.defer(ephemeral=True, thinking=True)
        await send_ephemeral(interaction, "a reply Discord refuses")

    governor.notify_setting = lambda interaction, enabled, **_: hello(interaction)  # type: ignore
    fault = world.server.inject_error("POST", route, status=400, code=50035, count=1)
    handle = await world.alice.slash("game notify", {"enabled": True}, channel=world.general)
    reply = await handle.original_message()
    assert seen and fault.hits
    assert "Something went wrong" in reply.content
