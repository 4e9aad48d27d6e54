"""Forged components: a custom_id the bot never drew on that message (a panel's menu, a private
confirmation, another game's button, a lobby or vote button) clicked on the public table or on
the lobby.  Each is refused with one clear private line, the game does not change and the
message clicked is never replaced.

Where each family may act (bot/play.py ``PlayFlow.placed``, bot/lobby.py, bot/clock.py):

* ``g:``  a private panel, or a message in the game's channel other than its lobby (the
  table's role buttons; a move never edits the message it sits on);
* ``gs:``, ``ma:``, ``mb:``  a private panel only (they redraw the panel in place);
* ``t:``  panel, undo, log: a private panel or a message in the game's channel other than its
  lobby (the table and the story posts); leave: the private confirmation only;
* ``l:``  the game's own lobby message only (it is redrawn in place);
* ``cv:`` the vote's own message only (it is redrawn in place).
"""

from __future__ import annotations

from typing import Any

import pytest

from storage import Wait
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import start, table_at
from tests.e2e.test_bot_lobby import is_lobby
from tests.offline_discord import (
    Channel,
    ComponentType,
    ScriptedUser,
    StoredMessage,
)

REFUSED = "does not belong on this message"


async def lobby_in(world: World, user: ScriptedUser, channel: Channel) -> StoredMessage:
    mark = world.server.mark()
    handle = await user.run("/game new", channel=channel)
    await handle.wait_for_followup()
    return await world.server.wait_for_message(channel, is_lobby(), since=mark)


async def forge(user: ScriptedUser, message: StoredMessage, custom_id: str,
                values: list[str] | None = None) -> str:
    """Attach a component with ``custom_id`` to ``message`` (as a modified client or a stale
    message could show it; a select when ``values`` is given), click it and return the private
    answer.  The forged row is taken off again afterwards."""
    stored = user.server.get_message(message.id)
    assert stored is not None
    if values is None:
        item: dict[str, Any] = {"type": ComponentType.BUTTON, "style": 2, "label": "forged",
                                "custom_id": custom_id}
    else:
        item = {"type": ComponentType.STRING_SELECT, "custom_id": custom_id, "min_values": 0,
                "max_values": 25, "options": [{"label": v, "value": v} for v in values or ["x"]]}
    row = {"type": ComponentType.ACTION_ROW, "components": [item]}
    stored.components.append(row)
    try:
        if values is None:
            handle = await user.click(stored, custom_id=custom_id)
        else:
            handle = await user.select(stored, values, custom_id=custom_id)
        answer = await handle.wait_for_followup()
    finally:
        stored.components.remove(row)
    assert answer.ephemeral
    return answer.content


def fingerprint(world: World, message_id: int) -> tuple[str, list[str]]:
    message = world.server.get_message(message_id)
    assert message is not None
    return message.text(), [str(c.get("custom_id")) for c in message.iter_components()]


async def test_forged_components_on_the_table_are_refused(
    world: World, governor: OfflineGovernor
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    record = await start(world, governor, world.alice, [carol], "max_players:2")
    table = await table_at(world, governor, record.id)
    other = server.add_text_channel(world.guild, "other")
    lobby = await lobby_in(world, carol, other)
    elsewhere = await governor.storage.games.find_by_channel(other.id)
    assert elsewhere is not None
    since = (await governor.storage.games.get(record.id)).seat(0).waiting_since  # type: ignore[union-attr]
    assert since is not None
    vote = await governor.storage.reminders.open_vote(Wait(
        record.id, 0, world.alice.id, since, world.guild.id, world.general.id, "en",
        None, 1, None, False, False, False, False, None))
    assert vote is not None
    await governor.storage.reminders.set_vote_message(vote.id, lobby.id)
    g, v = record.id, record.version
    forged: list[tuple[str, list[str] | None]] = [
        (f"gs:{g}:{v}:build", ["r.builder"]),           # a panel's menu
        (f"ma:{g}:{v}:i:", []),                          # the Mayor draft's menus ...
        (f"mb:{g}:{v}:", None),                          # ... and its Confirm
        (f"t:{g}:{v}:leave", None),                      # /game leave's private confirmation
        (f"t:{elsewhere.id}:{elsewhere.version}:panel", None),  # another game's My turn
        (f"g:{elsewhere.id}:{elsewhere.version}:r.builder", None),  # another game's move
        (f"l:{g}:{v}:start", None),                      # lobby buttons
        (f"l:{elsewhere.id}:{elsewhere.version}:join", None),
        (f"cv:{vote.id}:abandon", None),                 # a clock vote's button
    ]
    before = fingerprint(world, table.id)
    for custom_id, values in forged:
        answer = await forge(world.alice, table, custom_id, values)
        assert REFUSED in answer, (custom_id, answer)
        assert fingerprint(world, table.id) == before, custom_id
        now = await governor.storage.games.get(record.id)
        assert now.version == record.version and now.status is record.status, custom_id
    assert (await governor.storage.games.get(elsewhere.id)).version == elsewhere.version
    assert (await governor.storage.reminders.vote(vote.id)).ballots == {}
    # The table's own buttons still work.
    handle = await world.alice.click(table, custom_id=f"g:{g}:{v}:r.builder")
    assert (await handle.response()).type == 6
    await server.wait_for(lambda: "Builder phase" in fingerprint(world, table.id)[0] or None)
    await governor.wait_idle()
    server.assert_no_failed_interactions()


@pytest.mark.parametrize("family", ["g", "gs", "t", "ma", "mb", "l"])
async def test_forged_components_on_the_lobby_are_refused(
    world: World, governor: OfflineGovernor, family: str
) -> None:
    """Game components on the lobby of an open game (and another lobby's button): refused, and
    the lobby stays as it was."""
    server = world.server
    lobby = await lobby_in(world, world.alice, world.general)
    other = await lobby_in(world, world.bob, server.add_text_channel(world.guild, "other"))
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and other is not None
    g, v = record.id, record.version
    custom_id, values = {
        "g": (f"g:{g}:{v}:r.builder", None),
        "gs": (f"gs:{g}:{v}:build", ["r.builder"]),
        "t": (f"t:{g}:{v}:panel", None),
        "ma": (f"ma:{g}:{v}:c:", []),
        "mb": (f"mb:{g}:{v}:", None),
        "l": (f"l:{g + 1}:{v}:join", None),  # the other lobby's Join
    }[family]
    before = fingerprint(world, lobby.id)
    answer = await forge(world.bob, lobby, custom_id, values)
    assert REFUSED in answer, answer
    assert fingerprint(world, lobby.id) == before
    assert (await governor.storage.games.get(g)).version == v
    server.assert_no_failed_interactions()
