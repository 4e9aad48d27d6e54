"""Lobbies: creating, seating, leaving, starting, abandoning; the errors each refusal raises."""

from __future__ import annotations

import pytest

from engine.core import InvalidSetup, UnknownGame
from storage import (
    ChannelBusy,
    GameNotFound,
    GameStatus,
    InvalidOptions,
    LobbyFull,
    NotInLobby,
    NotSeated,
    SeatTaken,
    StaleVersion,
    Storage,
    WrongStatus,
)
from tests.storage.conftest import FakeClock
from tests.storage.helpers import GAMES, active_game


async def test_create_lobby_seats_the_creator(storage: Storage, clock: FakeClock) -> None:
    """The creator takes seat 0; the lobby starts at version 0 with times from the clock."""
    record = await storage.games.create_lobby(
        "puerto-rico", creator_id=1, guild_id=2, channel_id=3, language="es"
    )
    assert record.status is GameStatus.LOBBY
    assert record.version == 0 and record.seq == 0
    assert [(s.seat, s.user_id) for s in record.seats] == [(0, 1)]
    assert (record.guild_id, record.channel_id, record.creator_id) == (2, 3, 1)
    assert record.language == "es"
    assert record.created_at == clock.now
    assert record.seed is None
    assert record == await storage.games.get(record.id)


async def test_unknown_game_or_bad_options_are_refused_at_creation(storage: Storage) -> None:
    """The engine must know the game; options naming the player count are validated at once."""
    with pytest.raises(UnknownGame):
        await storage.games.create_lobby("no-such-game", creator_id=1)
    with pytest.raises(InvalidSetup):
        await storage.games.create_lobby("puerto-rico", creator_id=1, options={"players": 9})


async def test_join_add_ai_leave_renumber_seats(storage: Storage, clock: FakeClock) -> None:
    """Seats stay 0..n-1: leaving moves later seats down; every change bumps the version."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    clock.advance(minutes=1)
    record = await storage.games.join(record.id, 2)
    record = await storage.games.add_ai(record.id, "heuristic")
    record = await storage.games.join(record.id, 3)
    assert record.version == 3
    assert [(s.seat, s.user_id, s.ai_policy) for s in record.seats] == [
        (0, 1, None), (1, 2, None), (2, None, "heuristic"), (3, 3, None)
    ]
    assert record.seats[1].joined_at == clock.now
    record = await storage.games.leave(record.id, user_id=2)
    assert [(s.seat, s.user_id, s.ai_policy) for s in record.seats] == [
        (0, 1, None), (1, None, "heuristic"), (2, 3, None)
    ]
    record = await storage.games.leave(record.id, seat=1)
    assert [(s.seat, s.user_id) for s in record.seats] == [(0, 1), (1, 3)]
    assert record == await storage.games.get(record.id)
    assert record.version == 5


async def test_seat_errors(storage: Storage) -> None:
    """A user sits once (SeatTaken); leaving needs a seat (NotSeated); unknown ids GameNotFound."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    with pytest.raises(SeatTaken) as taken:
        await storage.games.join(record.id, 1)
    assert (taken.value.game_id, taken.value.user_id, taken.value.seat) == (record.id, 1, 0)
    with pytest.raises(NotSeated):
        await storage.games.leave(record.id, user_id=99)
    with pytest.raises(GameNotFound):
        await storage.games.join(12345, 1)
    with pytest.raises(GameNotFound):
        await storage.games.get(12345)


async def test_lobby_full_from_engine_limits_and_table_size(storage: Storage) -> None:
    """Puerto Rico seats at most five; a table size chosen by the creator caps the lobby."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    for user in range(2, 6):
        record = await storage.games.join(record.id, user)
    with pytest.raises(LobbyFull) as full:
        await storage.games.add_ai(record.id, "random")
    assert full.value.seats == 5
    small = await storage.games.create_lobby("puerto-rico", creator_id=1, options={"players": 3})
    await storage.games.join(small.id, 2)
    await storage.games.join(small.id, 3)
    with pytest.raises(LobbyFull):
        await storage.games.join(small.id, 4)


async def test_stale_lobby_version_is_refused(storage: Storage) -> None:
    """A lobby button carrying an old version (somebody joined meanwhile) is refused."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    await storage.games.join(record.id, 2, expected_version=record.version)
    with pytest.raises(StaleVersion) as stale:
        await storage.games.start(record.id, expected_version=record.version)
    assert (stale.value.expected, stale.value.current) == (0, 1)
    assert (await storage.games.get(record.id)).status is GameStatus.LOBBY


@pytest.mark.parametrize("game", GAMES)
async def test_start_sets_up_the_engine_state(storage: Storage, game: str) -> None:
    """Start fixes the player count and the seed, stores the first snapshot and marks the seats
    the first prompt names."""
    record = await active_game(storage, game, players=3, seed=11)
    assert record.status is GameStatus.ACTIVE
    assert record.options["players"] == 3 and record.seed == 11
    loaded = await storage.games.load(record.id)
    from engine.core import get_game

    engine_game = get_game(game)
    expected = engine_game.setup(record.options, 11)
    assert loaded.snapshot == engine_game.dump(expected)
    prompt = engine_game.prompt(loaded.state)
    assert prompt is not None
    assert record.to_act == tuple(sorted(prompt.seats))
    assert loaded.record == record


async def test_start_refused_by_the_engine(storage: Storage) -> None:
    """One player cannot start Puerto Rico: InvalidOptions wraps the engine's InvalidSetup."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    with pytest.raises(InvalidOptions) as refused:
        await storage.games.start(record.id)
    assert isinstance(refused.value.cause, InvalidSetup)
    assert (await storage.games.get(record.id)).status is GameStatus.LOBBY


async def test_seats_are_fixed_once_started(storage: Storage) -> None:
    """Joining, leaving and starting again need the lobby (NotInLobby)."""
    record = await active_game(storage, "puerto-rico", players=2)
    with pytest.raises(NotInLobby):
        await storage.games.join(record.id, 77)
    with pytest.raises(NotInLobby):
        await storage.games.leave(record.id, user_id=1000)
    with pytest.raises(NotInLobby):
        await storage.games.start(record.id)


async def test_replace_seat_hands_a_running_seat_to_an_ai_and_back(storage: Storage) -> None:
    record = await active_game(storage, "puerto-rico", players=3)
    record = await storage.games.replace_seat(record.id, 1, ai_policy="heuristic")
    assert record.seats[1].is_ai and record.seats[1].user_id is None
    with pytest.raises(SeatTaken):
        await storage.games.replace_seat(record.id, 1, user_id=1000)
    record = await storage.games.replace_seat(record.id, 1, user_id=5)
    assert record.seats[1].user_id == 5
    assert record == await storage.games.get(record.id)


async def test_abandon(storage: Storage, clock: FakeClock) -> None:
    """Abandoning clears whose turn it is and frees the channel; only open games."""
    record = await active_game(storage, "puerto-rico", channel_id=50)
    clock.advance(hours=1)
    record = await storage.games.abandon(record.id)
    assert record.status is GameStatus.ABANDONED
    assert record.finished_at == clock.now and record.to_act == ()
    assert await storage.games.find_by_channel(50) is None
    with pytest.raises(WrongStatus):
        await storage.games.abandon(record.id)
    assert record == await storage.games.get(record.id)


async def test_one_open_game_per_channel(storage: Storage) -> None:
    """The channel's game is unambiguous: a second open game there is ChannelBusy."""
    first = await storage.games.create_lobby("puerto-rico", creator_id=1, channel_id=9)
    with pytest.raises(ChannelBusy) as busy:
        await storage.games.create_lobby("puerto-rico", creator_id=2, channel_id=9)
    assert busy.value.game_id == first.id
    other = await storage.games.create_lobby("puerto-rico", creator_id=2, channel_id=10)
    with pytest.raises(ChannelBusy):
        await storage.games.set_channel(other.id, 9)
    found = await storage.games.find_by_channel(9)
    assert found is not None and found.id == first.id
    await storage.games.abandon(first.id)
    moved = await storage.games.set_channel(other.id, 9, guild_id=4)
    assert (moved.channel_id, moved.guild_id) == (9, 4)
    found = await storage.games.find_by_channel(9)
    assert found is not None and found.id == other.id


async def test_messages_language_and_options(storage: Storage) -> None:
    """Message ids, language and lobby options are kept with the game."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1, channel_id=3)
    await storage.games.set_message(record.id, "lobby", 111, channel_id=3)
    await storage.games.set_message(record.id, "table", 222)
    await storage.games.set_message(record.id, "table", 333)
    await storage.games.set_language(record.id, "es")
    record = await storage.games.set_options(record.id, {"edition": "classic"})
    got = await storage.games.get(record.id)
    assert got.messages == {"lobby": 111, "table": 333}
    assert got.language == "es" and got.options == {"edition": "classic"}
    await storage.games.clear_message(record.id, "lobby")
    assert (await storage.games.get(record.id)).messages == {"table": 333}
    with pytest.raises(InvalidOptions):
        await storage.games.set_options(record.id, {"players": 1})
