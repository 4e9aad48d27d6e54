"""A channel where the bot lacks a permission (issue #9): refused up front naming exactly what is
missing, and a game whose channel stops taking posts tells its players and resumes by itself
once an admin grants it again.  The offline server resolves permissions as Discord does
(roles, then channel overwrites) and answers 403 / 50013."""

from __future__ import annotations

import asyncio
import logging

import pytest

from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, shown_version, start, table_message
from tests.e2e.test_bot_lobby import is_lobby, open_lobby, press
from tests.offline_discord import Perm


async def test_pr_new_without_attach_files_is_refused_naming_it(
    world: World, governor: OfflineGovernor
) -> None:
    server = world.server
    server.set_overwrite(world.general, server.bot_user, deny=Perm.ATTACH_FILES | Perm.EMBED_LINKS)
    mark = server.mark()
    handle = await world.alice.run("/game new", channel=world.general)
    assert (await handle.response()).ephemeral
    reply = await handle.original_message()
    assert reply.content == (f"I need Embed Links and Attach Files in <#{world.general.id}>: ask "
                             "an admin to grant this in the channel's permissions, then try "
                             "again."), reply.content
    assert await governor.storage.games.find_by_channel(world.general.id) is None
    assert not [m for m in server.messages(world.general, include_ephemeral=False)
                if m.id > 0 and is_lobby()(m)]
    assert not server.requests_to("POST", "/channels/{channel_id}/messages")

    # In Spanish, one permission missing.
    server.set_overwrite(world.general, server.bot_user, deny=Perm.ATTACH_FILES)
    handle = await world.alice.slash("game new", {}, channel=world.general, locale="es-ES")
    reply = await handle.original_message()
    assert reply.content.startswith(f"Necesito Adjuntar archivos en <#{world.general.id}>")

    # Granted: the lobby opens.
    server.set_overwrite(world.general, server.bot_user, deny=0)
    await open_lobby(world, world.alice)
    assert mark is not None


async def test_start_checks_again(world: World, governor: OfflineGovernor) -> None:
    """A permission taken away while the lobby is open: Start is refused, naming it, and the
    game stays in its lobby (no table that would fail)."""
    server = world.server
    lobby = await open_lobby(world, world.alice, "max_players:2")
    bob = f"<@{world.bob.id}>"
    _, lobby = await press(world, world.bob, lobby, "Join", lambda m: bob in m.text())
    server.set_overwrite(world.general, server.bot_user, deny=Perm.ATTACH_FILES)
    handle, _ = await press(world, world.alice, lobby, "Start")
    refusal = await handle.wait_for_followup()
    assert refusal.ephemeral and "Attach Files" in refusal.content
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.status is GameStatus.LOBBY
    server.set_overwrite(world.general, server.bot_user, deny=0)
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())


@pytest.mark.parametrize("fixed_by", ["retry", "next action"])
async def test_a_channel_that_loses_send_messages_mid_game(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture, fixed_by: str
) -> None:
    """Send Messages and Send Messages in Threads denied mid-game (with Send Messages in
    Threads the story would go on in the game's thread): the story, one post per round in the
    channel then, fails at the round's end; each player is told by DM what to ask an admin for
    (once), one WARNING is logged and no traceback; when the permission comes
    back the reminders' pass (or the next action) publishes the game again and the table shows
    the current state."""
    caplog.set_level(logging.INFO)
    server = world.server
    gm, alice = world.manager, world.alice
    record = await start(world, governor, alice, [gm], "max_players:2")
    players = Players(world, governor, record.id, {alice.id: alice, gm.id: gm}, command_share=0)
    server.set_overwrite(world.general, server.bot_user,
                         deny=Perm.SEND_MESSAGES | Perm.SEND_MESSAGES_IN_THREADS)
    for _ in range(80):  # until a round ends: its story post is refused
        move = await players.next_move()
        assert move is not None
        await players.make(move[0], move[2])
        if governor.publisher.blocked:
            break
    assert record.id in governor.publisher.blocked
    for person in (alice, gm):
        told = await person.wait_for_dm(lambda m: "is stuck" in m.content)
        assert "I need Send Messages and Send Messages in Threads there" in told.content
        assert "#general" in told.content
    # More moves while blocked: nobody is told twice.
    move = await players.next_move()
    assert move is not None
    await players.make(move[0], move[2])
    assert [len([m for m in p.dms if "is stuck" in m.content]) for p in (alice, gm)] == [1, 1]
    warnings = [r for r in caplog.records if "cannot post in channel" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert "send_messages" in warnings[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info and r.name.startswith("bot")]
    shown = await governor.storage.publications.get(record.id)
    now = await governor.storage.games.get(record.id)
    assert shown is None or shown.version < now.version  # not recorded as shown

    # Still denied: the reminders' pass tries nothing.
    assert (await governor.reminders.tick()).republished == 0
    server.set_overwrite(world.general, server.bot_user, deny=0)
    channel = governor.get_channel(world.general.id)
    await server.wait_for(
        lambda: channel.permissions_for(channel.guild.me).send_messages or None,  # type: ignore
        what="the permission back in the bot's cache")
    posts = len(server.messages(world.general, include_ephemeral=False))
    if fixed_by == "retry":
        assert (await governor.reminders.tick()).republished == 1
    else:
        move = await players.next_move()
        assert move is not None
        await players.make(move[0], move[2])
    await server.wait_for(lambda: not governor.publisher.blocked or None,
                          what="the game no longer blocked")
    now = await governor.storage.games.get(record.id)
    assert shown_version(table_message(world, now), record.id) == now.version

    async def recorded() -> bool:
        shown = await governor.storage.publications.get(record.id)
        return shown is not None and shown.version == now.version

    guard = asyncio.get_running_loop().time() + 60  # against a hang only
    while not await recorded():
        assert asyncio.get_running_loop().time() < guard, "the publication was not recorded"
        await asyncio.sleep(0.01)
    if fixed_by == "retry":  # the story the channel missed is told, in the game's thread now
        assert len(server.messages(world.general, include_ephemeral=False)) == posts
        story = "\n".join(m.text() for m in server.messages(now.messages["thread"]))
        log = await governor.storage.games.actions(record.id)
        first = next(i for i, a in enumerate(log) if any(
            e["type"] == "RoundEnded" for e in a.events))
        ended = sum(e["type"] == "PhaseEnded" for a in log[: first + 1] for e in a.events)
        assert story.count("### Round 1 · ") == ended  # the whole of round 1, once
    assert any("posting works again" in r.getMessage() for r in caplog.records)


def test_what_is_missing_is_what_an_admin_must_grant() -> None:
    """Named as granted: only View Channel when the channel is hidden, not what a missing Send
    Messages takes away with it; threads need their own variant; every name has its words."""
    import discord

    from bot.games.puerto_rico.catalog import CATALOG
    from bot.permissions import GAME_CHANNEL, IN_THREAD, STORY_THREAD, missing, needed

    everything = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                     attach_files=True, read_message_history=True)
    assert missing(everything) == []
    assert missing(discord.Permissions.none()) == ["view_channel"]
    no_send = discord.Permissions(view_channel=True, read_message_history=True)
    assert missing(no_send) == ["send_messages"]
    no_files = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
    assert missing(no_files) == ["attach_files", "read_message_history"]
    assert missing(discord.Permissions(administrator=True)) == []
    assert needed(object()) == GAME_CHANNEL
    assert needed(object(), story_thread=True) == (*GAME_CHANNEL, *STORY_THREAD)
    for lang in CATALOG.languages:
        for name in {*GAME_CHANNEL, *IN_THREAD, *STORY_THREAD}:
            assert CATALOG.has(f"perm.{name}") and CATALOG.t(lang, f"perm.{name}")
