"""Undo in the storage: actions taken back are marked, never deleted; the snapshot, the seats to
act and ``verify`` follow the log without them; the time banks are given back as they were."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import get_game
from storage import GameStatus, NotActive, StaleVersion, Storage, WrongStatus
from storage.timebank import HOUR_MS, PRESETS, left
from storage.verify import replay_log, verify_game
from tests.storage.conftest import FakeClock
from tests.storage.helpers import GAMES, active_game, play_some, play_to_end


@pytest.mark.parametrize("game", GAMES)
async def test_undo_marks_the_last_actions_and_rebuilds_the_snapshot(
    storage: Storage, game: str
) -> None:
    """The last two actions are taken back: the log keeps them (marked), the snapshot is the
    replay of the others, the version moves on and verify agrees."""
    record = await active_game(storage, game)
    record = await play_some(storage, record.id, 4, random.Random(5))
    assert record.status is GameStatus.ACTIVE
    logged = await storage.games.actions(record.id)
    result = await storage.games.undo_last(
        record.id, 2, expected_version=record.version, user_id=1000
    )
    assert result.record.version == record.version + 1
    assert result.record.seq == record.seq == 4
    assert result.undone == tuple(logged[-2:])
    engine = get_game(game)
    expected, _ = replay_log(record.id, engine, record.options, record.seed or 0,
                             [(a.seat, a.code) for a in logged[:-2]])
    loaded = await storage.games.load(record.id)
    assert loaded.snapshot == json.loads(json.dumps(engine.dump(expected)))
    prompt = engine.prompt(expected)
    assert prompt is not None and loaded.record.to_act == tuple(sorted(prompt.seats))
    assert result.record == loaded.record
    assert await storage.games.actions(record.id) == logged[:-2]
    assert await storage.games.actions(record.id, include_undone=True) == logged
    assert await verify_game(storage.db, record.id) == []


@pytest.mark.parametrize("game", GAMES)
async def test_play_goes_on_after_an_undo(storage: Storage, game: str) -> None:
    """New actions continue the sequence after the marked ones; replays skip the marks, so
    verify and rebuild_snapshot agree with the snapshot, up to the end of the game."""
    record = await active_game(storage, game)
    record = await play_some(storage, record.id, 4, random.Random(1))
    await storage.games.undo_last(record.id, 2)
    record = await play_some(storage, record.id, 1, random.Random(2))
    assert record.seq == 5
    assert [a.seq for a in await storage.games.actions(record.id)] == [1, 2, 5]
    assert await verify_game(storage.db, record.id) == []
    snapshot = (await storage.games.load(record.id)).snapshot
    rebuilt = await storage.games.rebuild_snapshot(record.id)
    assert rebuilt.seq == 5 and (await storage.games.load(record.id)).snapshot == snapshot
    finished = await play_to_end(storage, record.id, random.Random(3))
    assert finished.status is GameStatus.FINISHED
    assert (await storage.verify()).ok


async def test_undo_refusals(storage: Storage) -> None:
    """An outdated version, more actions than the log holds, or a finished game are refused
    and change nothing; the marks themselves cannot be edited."""
    record = await active_game(storage)
    record = await play_some(storage, record.id, 2, random.Random(4))
    with pytest.raises(StaleVersion):
        await storage.games.undo_last(record.id, 1, expected_version=record.version - 1)
    with pytest.raises(WrongStatus):
        await storage.games.undo_last(record.id, 3)
    assert await storage.games.get(record.id) == record
    await storage.games.undo_last(record.id, 1)
    with pytest.raises(storage.db.integrity_errors, match="undo marks are append-only"):
        await storage.db.write(lambda tx: tx.execute("UPDATE undone_actions SET undone_by = 1"))
    finished = await play_to_end(storage, record.id, random.Random(6))
    with pytest.raises(NotActive):
        await storage.games.undo_last(finished.id, 1)


async def test_an_undo_gives_the_banks_back_as_they_were(
    storage: Storage, clock: FakeClock
) -> None:
    """Schema 25: taking a move back restores its seat's wait and bank (the move's increment is
    not kept, nor the time since it stopped counting), and the wait the move began for the
    next seat ends with nothing spent; so moving and taking it back again and again earns
    nothing."""
    record = await active_game(storage, players=2)
    await storage.reminders.set_timers(record.id, pace=PRESETS["normal"])
    record = await storage.games.get(record.id)
    [asked] = record.to_act
    first = record.seat(asked)
    assert first is not None and first.bank_ms is not None and first.waiting_since is not None
    since, bank = first.waiting_since, first.bank_ms
    other = record.seat(1 - asked)
    assert other is not None and other.bank_ms is not None
    for _ in range(3):
        clock.advance(hours=2)
        loaded = await storage.games.load(record.id)
        played = await storage.games.play(record.id, asked, handing_on(loaded.state, asked),
                                          expected_version=loaded.record.version,
                                          user_id=first.user_id)
        moved = played.record.seat(asked)
        assert moved is not None and moved.bank_ms is not None
        assert moved.bank_ms > bank - HOUR_MS * 2  # the increment, for now
        assert played.record.to_act == (1 - asked,)  # the move began the other seat's wait
        clock.advance(hours=1)
        undone = await storage.games.undo_last(record.id, 1, user_id=first.user_id)
        seat, nxt = undone.record.seat(asked), undone.record.seat(1 - asked)
        assert seat is not None and nxt is not None
        assert (seat.waiting_since, seat.bank_ms) == (since, bank)
        assert (nxt.waiting_since, nxt.bank_ms) == (None, other.bank_ms)
        assert undone.record == (await storage.games.get(record.id))
        record = undone.record
    assert left(bank, since, clock.now, record.quiet, record.stops(first)) == bank - 9 * HOUR_MS
    assert await verify_game(storage.db, record.id) == []


def handing_on(state: object, seat: int) -> str:
    """A legal move of ``seat`` after which the other seat is asked (a role whose phase ends
    at once, in Puerto Rico: the Prospector)."""
    game = get_game("puerto-rico")
    for action in game.legal_actions(state, seat):
        after, _ = game.apply(state, seat, action)
        prompt = game.prompt(after)
        if prompt is not None and prompt.seats == (1 - seat,):
            return game.encode_action(action)
    raise AssertionError("no move hands the turn on")
