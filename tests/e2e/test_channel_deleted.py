"""A game whose channel (or thread) was deleted does not end: its players are told once by
DM, ``/game games`` shows it "channel deleted — /game move", and its creator or a Manage
Server holder continues it in another channel of the server (``/game move game:N``: the table
is posted there, the game goes on, its story in a thread of the new channel) or ends it
(``/game abandon game:N``: no result, no ratings).

The deletion is known from the gateway (CHANNEL_DELETE, THREAD_DELETE) or, when that event
was missed, from Discord's 404 10003 Unknown Channel on the next post."""

from __future__ import annotations

from typing import Any

import pytest

from bot.seats import Actor
from engine.core import get_game
from engine.policies import make_policy
from storage import CHANNEL_GONE_KIND, GameRecord, GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import table_at
from tests.offline_discord import Channel, ChannelType, ScriptedUser, StoredMessage

GONE_DM = "Game #{game} (Puerto Rico, Offline Table) is paused: its channel was deleted."


async def game_in(world: World, bot: OfflineGovernor, channel: Channel, carol: ScriptedUser
                  ) -> GameRecord:
    """alice (the creator), carol and an AI at a game of ``channel``, its table posted."""
    service = bot.service
    record = await service.create_lobby(creator_id=world.alice.id, guild_id=world.guild.id,
                                        channel_id=channel.id, language="en",
                                        game="puerto-rico", max_players=3)
    record = await service.join(record.id, carol.id)
    record = await service.add_ai(record.id, Actor(world.alice.id), record.version, "heuristic")
    await service.start(record.id, Actor(world.alice.id), record.version)
    await table_at(world, bot, record.id)
    return await bot.storage.games.get(record.id)


async def reply_to(user: ScriptedUser, command: str, channel: Channel) -> str:
    handle = await user.run(command, channel=channel)
    answer = await handle.wait_for_followup()
    assert answer.ephemeral
    return answer.content


def told(user: ScriptedUser, game: int) -> list[StoredMessage]:
    return [m for m in user.dms if GONE_DM.format(game=game) in m.text()]


async def play_until_a_story(bot: OfflineGovernor, game_id: int) -> GameRecord:
    """The people's heuristic choices through the service until the game has a story
    thread (a role phase ended)."""
    rules = get_game("puerto-rico")
    for _ in range(60):
        loaded = await bot.storage.games.load(game_id)
        if "thread" in loaded.record.messages:
            return loaded.record
        prompt = rules.prompt(loaded.state)
        assert prompt is not None
        seat = next(s for s in prompt.seats if loaded.record.seat(s).user_id)  # type: ignore[union-attr]
        action = make_policy("heuristic", "puerto-rico", loaded.record.version).choose(
            rules, loaded.state, seat, rules.legal_actions(loaded.state, seat))
        await bot.service.submit(game_id, loaded.record.seat(seat).user_id or 0,  # type: ignore[union-attr]
                                 loaded.record.version, rules.encode_action(action))
        await bot.wait_idle()
    raise AssertionError("no phase ended")


@pytest.mark.parametrize("kind", ["channel", "thread"])
async def test_a_deleted_channel_then_move(world: World, governor: OfflineGovernor, kind: str
                                           ) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    room = (server.add_text_channel(world.guild, "pr-room") if kind == "channel" else
            server.add_channel(world.guild, "pr-thread", type=ChannelType.PUBLIC_THREAD,
                               parent=world.general))
    record = await game_in(world, governor, room, carol)
    server.delete_channel(room)  # CHANNEL_DELETE / THREAD_DELETE
    for person in (world.alice, carol):
        await person.wait_for_dm(lambda m: GONE_DM.format(game=record.id) in m.text())
    gone = await governor.storage.games.get(record.id)
    assert gone.status is GameStatus.ACTIVE and CHANNEL_GONE_KIND in gone.messages
    # told once: the same deletion found again (a post's 10003) tells nobody
    assert await governor.publisher.channel_gone(room.id) == []
    await governor.wait_idle()
    assert len(told(world.alice, record.id)) == 1 and len(told(carol, record.id)) == 1
    listed = await reply_to(carol, "/game games", world.general)
    assert f"#{record.id} Puerto Rico" in listed
    assert "channel deleted — /game move" in listed and f"<#{room.id}>" not in listed
    # only its creator or Manage Server moves it, to a channel of its server
    refused = await reply_to(carol, f"/game move game:{record.id}", world.general)
    assert refused == f"Only the creator of game #{record.id} or a member with Manage Server " \
                      "can do that."
    mark = server.mark()
    moved = await reply_to(world.alice, f"/game move game:{record.id}", world.general)
    assert moved == f"Game #{record.id} goes on in this channel: its table is posted here."
    table = await server.wait_for_message(world.general, lambda m: f"game #{record.id} · "
                                          "round" in m.text(), since=mark)
    now = await governor.storage.games.get(record.id)
    assert now.channel_id == world.general.id and now.messages["table"] == table.id
    assert CHANNEL_GONE_KIND not in now.messages
    # the game goes on there: its buttons work, its story gets a thread of the new channel
    story = await play_until_a_story(governor, record.id)
    thread = server.resolve_channel(story.messages["thread"])
    assert thread.parent_id == world.general.id
    listed = await reply_to(carol, "/game games", world.general)
    assert "channel deleted" not in listed and f"<#{world.general.id}>" in listed
    again = await reply_to(world.alice, f"/game move game:{record.id}", world.general)
    assert again == (f"Game #{record.id} still has its channel <#{world.general.id}>: only a "
                     "game whose channel was deleted moves.")
    server.assert_no_failed_interactions()


async def test_a_missed_deletion_is_found_by_the_next_post_then_abandon(
    world: World, governor: OfflineGovernor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gateway's event never reached the bot: the next table post gets 404 10003 Unknown
    Channel, and the game is marked and its players told as above; then its creator ends it
    from another channel."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    room = server.add_text_channel(world.guild, "pr-room")
    record = await game_in(world, governor, room, carol)

    async def missed(channel_id: int) -> None:
        return None

    monkeypatch.setattr(governor, "_channel_deleted", missed)
    server.delete_channel(room)
    loaded = await governor.storage.games.load(record.id)
    seat = loaded.record.to_act[0]
    code = get_game("puerto-rico").encode_action(
        get_game("puerto-rico").legal_actions(loaded.state, seat)[0])
    result = await governor.service.submit(record.id, loaded.record.seat(seat).user_id or 0,  # type: ignore[union-attr]
                                           loaded.record.version, code)
    assert result.update.late  # the table could not be shown
    for person in (world.alice, carol):
        await person.wait_for_dm(lambda m: GONE_DM.format(game=record.id) in m.text())
    unknown = [r for r in server.requests if r.error_code == 10003]
    assert unknown and all(r.status == 404 for r in unknown)
    assert CHANNEL_GONE_KIND in (await governor.storage.games.get(record.id)).messages
    # the reminder pass leaves it alone (nothing to post until it is moved)
    before = len(server.requests)
    await governor.reminders.tick()
    assert not [r for r in server.requests[before:] if str(room.id) in r.path]

    # ended from anywhere in its server, by its creator: no result, no ratings
    refused = await reply_to(carol, f"/game abandon game:{record.id}", world.general)
    assert refused.startswith(f"Only the creator of game #{record.id}")
    ended = await reply_to(world.alice, f"/game abandon game:{record.id}", world.general)
    assert ended == f"Game #{record.id} is cancelled."
    final = await governor.storage.games.get(record.id)
    assert final.status is GameStatus.ABANDONED
    assert await governor.storage.games.results(record.id) == []
    assert await governor.storage.ratings.changes(record.id) == []
    await carol.wait_for_dm(lambda m: f"Game #{record.id}, whose channel was deleted, was "
                                      f"abandoned by <@{world.alice.id}>." in m.text())
    listed = await reply_to(carol, "/game games", world.general)
    assert "channel deleted" not in listed
    server.assert_no_failed_interactions()


async def test_in_spanish_and_portuguese(world: World, governor: OfflineGovernor) -> None:
    """The DM and the line of /game games in the person's language."""
    server = world.server
    lucia = server.add_user("lucia", guild=world.guild, locale="es-ES")
    joao = server.add_user("joao", guild=world.guild, locale="pt-BR")
    await governor.storage.settings.update_user(lucia.id, language="es")
    await governor.storage.settings.update_user(joao.id, language="pt")
    room = server.add_text_channel(world.guild, "sala")
    service = governor.service
    record = await service.create_lobby(creator_id=lucia.id, guild_id=world.guild.id,
                                        channel_id=room.id, language="es", game="puerto-rico",
                                        max_players=2)
    record = await service.join(record.id, joao.id)
    await service.start(record.id, Actor(lucia.id), record.version)
    await table_at(world, governor, record.id)
    server.delete_channel(room)
    es: Any = await lucia.wait_for_dm(lambda m: "se borró su canal" in m.text())
    assert es.text().startswith(f"La partida n.º {record.id} (Puerto Rico, Offline Table)")
    assert f"/partida mover partida:{record.id}" in es.text()
    pt: Any = await joao.wait_for_dm(lambda m: "o canal dela foi apagado" in m.text())
    assert pt.text().startswith(f"A partida nº {record.id} (Puerto Rico, Offline Table)")
    assert "canal borrado — /partida mover" in await reply_to(lucia, "/game games",
                                                               world.general)
    assert "canal apagado — /partida mover" in await reply_to(joao, "/game games",
                                                               world.general)
    server.assert_no_failed_interactions()
