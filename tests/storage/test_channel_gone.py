"""A game whose Discord channel was deleted: marked once, moved to another channel of its
server, its lobbies abandoned, its story thread forgotten (``GameRepository.channel_gone``,
``move_channel``), on both backends."""

from __future__ import annotations

import pytest

from storage import CHANNEL_GONE_KIND, STORY_THREAD_KIND, ChannelBusy, GameStatus, Storage
from storage.errors import WrongStatus
from tests.storage.helpers import active_game


async def test_a_deleted_channel_marks_its_game_once(storage: Storage) -> None:
    game = await active_game(storage, channel_id=10)
    await storage.games.set_message(game.id, "table", 500, channel_id=10)
    lobby = await storage.games.create_lobby("puerto-rico", creator_id=7, channel_id=11)
    other = await active_game(storage, channel_id=12, user_base=2000)
    [marked] = await storage.games.channel_gone(10)
    assert marked.id == game.id and marked.status is GameStatus.ACTIVE
    assert marked.messages[CHANNEL_GONE_KIND] == 10 and marked.channel_id == 10
    assert await storage.games.channel_gone(10) == []  # told once: marked before
    assert await storage.games.channel_gone(11) == []  # a lobby: abandoned, nobody to tell
    assert (await storage.games.get(lobby.id)).status is GameStatus.ABANDONED
    assert CHANNEL_GONE_KIND not in (await storage.games.get(other.id)).messages


async def test_a_deleted_story_thread_is_forgotten(storage: Storage) -> None:
    game = await active_game(storage, channel_id=10)
    await storage.games.set_message(game.id, STORY_THREAD_KIND, 600, channel_id=600)
    await storage.games.set_message(game.id, "story@3", 601, channel_id=600)
    assert await storage.games.channel_gone(600) == []  # the game's channel is still there
    record = await storage.games.get(game.id)
    assert STORY_THREAD_KIND not in record.messages and "story@3" in record.messages
    assert CHANNEL_GONE_KIND not in record.messages


async def test_a_game_moves_to_another_channel(storage: Storage) -> None:
    game = await active_game(storage, channel_id=10)
    for kind, message in (("table", 500), (STORY_THREAD_KIND, 500), ("story@3", 501)):
        await storage.games.set_message(game.id, kind, message, channel_id=10)
    await storage.games.channel_gone(10)
    busy = await active_game(storage, channel_id=20, user_base=2000)
    with pytest.raises(ChannelBusy):
        await storage.games.move_channel(game.id, busy.channel_id or 0, guild_id=1)
    moved = await storage.games.move_channel(game.id, 30, guild_id=1)
    assert moved.channel_id == 30 and moved.version == game.version
    assert set(moved.messages) == {"story@3"}  # a phase told stays told
    assert (await storage.games.find_by_channel(30)).id == game.id  # type: ignore[union-attr]
    assert await storage.games.find_by_channel(10) is None
    await storage.games.abandon(game.id)
    with pytest.raises(WrongStatus):
        await storage.games.move_channel(game.id, 31, guild_id=1)
