"""The publish record (schema 6): what the bot last showed of a game, which games lag behind, and
the version each seat's wait began at."""

from __future__ import annotations

import random
from datetime import timedelta

from storage import GameStatus, Storage
from tests.storage.conftest import FakeClock
from tests.storage.helpers import active_game, choose


async def started(storage: Storage, channel: int = 1) -> int:
    record = await storage.games.create_lobby("puerto-rico", creator_id=1, channel_id=channel)
    await storage.games.join(record.id, 2)
    await storage.games.join(record.id, 3)
    return (await storage.games.start(record.id, seed=4)).id


async def play(storage: Storage, game_id: int, moves: int) -> None:
    for _ in range(moves):
        loaded = await storage.games.load(game_id)
        move = choose("puerto-rico", loaded.state, random.Random(loaded.record.seq))
        assert move is not None
        await storage.games.play(game_id, *move, expected_version=loaded.record.version)


async def test_a_wait_remembers_the_version_it_began_at(storage: Storage) -> None:
    """A seat named by the prompt gets the version of the change that named it; it keeps it
    while other seats act, and a seat that acts and is named again begins a new wait."""
    game_id = await started(storage)
    record = await storage.games.get(game_id)
    [waiting] = [s for s in record.seats if s.waiting_since is not None]
    assert waiting.waiting_version == record.version
    assert all(s.waiting_version is None for s in record.seats if s is not waiting)
    for _ in range(60):
        before = await storage.games.get(game_id)
        await play(storage, game_id, 1)
        after = await storage.games.get(game_id)
        last = (await storage.games.actions(game_id))[-1]
        for old, new in zip(before.seats, after.seats, strict=True):
            if new.waiting_since is None:
                assert new.waiting_version is None
            elif old.waiting_since is not None and new.seat != last.seat:
                assert new.waiting_version == old.waiting_version  # the same wait goes on
            else:
                assert new.waiting_version == after.version  # a new wait


async def test_lagging_games(storage: Storage, clock: FakeClock) -> None:
    """A game is behind until its table is recorded at its version; a due notice keeps it behind
    until the notifier claims it (or its wait ends); lobbies and abandoned games never are."""
    lobby = await storage.games.create_lobby("puerto-rico", creator_id=1, channel_id=9)
    game_id = await started(storage)
    assert await storage.publications.lagging() == [game_id]
    record = await storage.games.get(game_id)
    [seat] = [s for s in record.seats if s.waiting_since is not None]
    assert seat.waiting_since is not None
    due = [(seat.seat, seat.waiting_since)]
    await storage.publications.published(game_id, version=record.version, seq=record.seq, due=due)
    shown = await storage.publications.get(game_id)
    assert shown is not None and shown.version == record.version and shown.due == tuple(due)
    assert await storage.publications.lagging() == [game_id]  # the DM is not claimed yet
    assert await storage.reminders.claim_alert(game_id, seat.seat, "turn", seat.waiting_since)
    assert await storage.publications.lagging() == []
    await play(storage, game_id, 1)
    assert await storage.publications.lagging() == [game_id]
    # An older record never replaces a newer one.
    await storage.publications.published(game_id, version=record.version - 1, seq=0)
    assert (await storage.publications.get(game_id)).version == record.version  # type: ignore[union-attr]
    await storage.games.abandon(game_id)
    await storage.games.abandon(lobby.id)
    assert await storage.publications.lagging() == []


async def test_an_unsent_notice_is_kept_until_its_wait_ends(storage: Storage) -> None:
    """A notice still due (deferred by the rate limit) survives the next record while its wait
    lasts, and is dropped once the wait is over."""
    game_id = await started(storage)
    record = await storage.games.get(game_id)
    [seat] = [s for s in record.seats if s.waiting_since is not None]
    assert seat.waiting_since is not None
    await storage.publications.published(game_id, version=record.version, seq=record.seq,
                                          due=[(seat.seat, seat.waiting_since)])
    await storage.publications.published(game_id, version=record.version, seq=record.seq)
    kept = await storage.publications.get(game_id)
    assert kept is not None and kept.due == ((seat.seat, seat.waiting_since),)
    await play(storage, game_id, 1)
    record = await storage.games.get(game_id)
    await storage.publications.published(game_id, version=record.version, seq=record.seq)
    dropped = await storage.publications.get(game_id)
    assert dropped is not None and all(d[0] != seat.seat or d[1] != seat.waiting_since
                                       for d in dropped.due)


async def test_games_whose_table_is_behind(storage: Storage, clock: FakeClock) -> None:
    """The reminder pass's list: an active game until its record reaches its version (however
    its notices stand), a finished one whose last table was not shown while it finished
    recently; never a game changed just now (being shown), a lobby, an abandoned game, or one
    shown as it is."""

    async def behind(*, ago: float = 0.0, finished: timedelta = timedelta(days=1),
                     after_id: int = 0) -> list[int]:
        return await storage.publications.behind(
            changed_before=clock() - timedelta(seconds=ago), finished_since=clock() - finished,
            after_id=after_id)

    lobby = await storage.games.create_lobby("puerto-rico", creator_id=1, channel_id=9)
    game_id = await started(storage)
    assert await behind() == [game_id]
    assert await behind(ago=1) == []  # a change just made is being shown: not yet
    record = await storage.games.get(game_id)
    await storage.publications.published(game_id, version=record.version, seq=record.seq)
    assert await behind() == []
    await play(storage, game_id, 2)
    assert await behind() == [game_id]
    assert await behind(after_id=game_id) == []
    # A finished game: behind while its end was not shown, if it ended since then.
    counter = await active_game(storage, "test-counter", players=2, channel_id=5)
    shown = await storage.games.get(counter.id)
    await storage.publications.published(counter.id, version=shown.version, seq=shown.seq)
    while (loaded := await storage.games.load(counter.id)).record.status is GameStatus.ACTIVE:
        move = choose("test-counter", loaded.state, random.Random(loaded.record.seq))
        assert move is not None
        await storage.games.play(counter.id, *move, expected_version=loaded.record.version)
    assert await behind() == [game_id, counter.id]
    assert await behind(finished=timedelta(hours=-1)) == [game_id]
    await storage.games.abandon(game_id)
    await storage.games.abandon(lobby.id)
    assert await behind() == [counter.id]
