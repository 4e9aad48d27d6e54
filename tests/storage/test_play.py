"""Committing actions: the log, the snapshot and the version move together; stale versions are
refused; the end of the game is recorded with its results; bad data names the game."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta

import pytest

from engine.core import IllegalAction, NotYourTurn, get_game
from storage import (
    CorruptGame,
    GameNotOver,
    GameStatus,
    NotActive,
    NotSeated,
    StaleVersion,
    Storage,
)
from storage.sql import Params, Tx
from storage.verify import verify_game
from tests.storage.conftest import FakeClock
from tests.storage.helpers import GAMES, active_game, choose, play_some, play_to_end


async def _tamper(storage: Storage, *statements: tuple[str, Params]) -> None:
    """Change rows behind the repositories' back (as a bug, an older bot or a hand edit could),
    in one transaction of the storage's own database, whichever backend it is."""

    async def body(tx: Tx) -> None:
        for sql, params in statements:
            await tx.execute(sql, params)

    await storage.db.write(body)


@pytest.mark.parametrize("game", GAMES)
async def test_commit_appends_log_snapshot_and_version(
    storage: Storage, clock: FakeClock, game: str
) -> None:
    """One commit: log entry with its events, new snapshot, version + 1, seats to act."""
    record = await active_game(storage, game)
    loaded = await storage.games.load(record.id)
    engine_game = get_game(game)
    move = choose(game, loaded.state, random.Random(3))
    assert move is not None
    seat, code = move
    state, events = engine_game.apply(loaded.state, seat, engine_game.decode_action(code))
    clock.advance(minutes=5)
    result = await storage.games.commit_action(
        record.id, expected_version=record.version, seat=seat, code=code, state=state,
        events=events, user_id=record.seats[seat].user_id,
    )
    assert result.record.version == record.version + 1
    assert result.record.seq == 1 and result.action.seq == 1
    assert result.record.last_action_at == clock.now
    assert result.action.events == tuple(e.to_json() for e in events)
    assert result.record == await storage.games.get(record.id)
    again = await storage.games.load(record.id)
    assert again.snapshot == json.loads(json.dumps(engine_game.dump(state)))
    [logged] = await storage.games.actions(record.id)
    assert logged == result.action
    assert (logged.seat, logged.code, logged.user_id) == (seat, code, record.seats[seat].user_id)
    prompt = engine_game.prompt(state)
    assert prompt is not None
    assert result.record.to_act == tuple(sorted(prompt.seats))


@pytest.mark.parametrize("game", GAMES)
async def test_stale_version_is_refused_and_changes_nothing(storage: Storage, game: str) -> None:
    """A second commit based on the same version gets StaleVersion with the current version."""
    record = await active_game(storage, game)
    loaded = await storage.games.load(record.id)
    engine_game = get_game(game)
    move = choose(game, loaded.state, random.Random(1))
    assert move is not None
    seat, code = move
    state, events = engine_game.apply(loaded.state, seat, engine_game.decode_action(code))
    await storage.games.commit_action(
        record.id, expected_version=record.version, seat=seat, code=code, state=state,
        events=events,
    )
    with pytest.raises(StaleVersion) as stale:
        await storage.games.commit_action(
            record.id, expected_version=record.version, seat=seat, code=code, state=state,
            events=events,
        )
    assert stale.value.game_id == record.id
    assert (stale.value.expected, stale.value.current) == (record.version, record.version + 1)
    assert len(await storage.games.actions(record.id)) == 1
    with pytest.raises(StaleVersion):
        await storage.games.play(record.id, seat, code, expected_version=record.version)
    assert await verify_game(storage.db, record.id) == []


async def test_play_passes_engine_errors_through_and_stores_nothing(storage: Storage) -> None:
    """An illegal action or a seat out of turn is the engine's error; the game is untouched."""
    record = await active_game(storage, "test-counter")
    waiting = record.to_act[0]
    other = (waiting + 1) % 4
    with pytest.raises(NotYourTurn):
        await storage.games.play(record.id, other, "draw")
    with pytest.raises(IllegalAction):
        await storage.games.play(record.id, waiting, "add.1")  # "draw" games offer only draw
    with pytest.raises(NotSeated):
        await storage.games.commit_action(
            record.id, expected_version=record.version, seat=7, code="draw",
            state=(await storage.games.load(record.id)).state, events=[],
        )
    assert await storage.games.get(record.id) == record


@pytest.mark.parametrize("game", GAMES)
async def test_game_to_the_end_records_outcome_and_results(
    storage: Storage, clock: FakeClock, game: str
) -> None:
    """The last action finishes the game in the same transaction, with outcome and results."""
    record = await active_game(storage, game, players=4, ai_seats=1)
    finished = await play_to_end(storage, record.id, random.Random(5))
    assert finished.status is GameStatus.FINISHED
    assert finished.finished_at == clock.now and finished.to_act == ()
    loaded = await storage.games.load(record.id)
    outcome = get_game(game).outcome(loaded.state)
    assert outcome is not None
    assert finished.outcome == json.loads(json.dumps(outcome.to_json()))
    results = await storage.games.results(record.id)
    assert [r.seat for r in results] == [0, 1, 2, 3]
    assert [r.user_id for r in results] == [1000, 1001, 1002, None]
    assert results[3].ai_policy == "random"
    assert {r.seat for r in results if r.winner} == set(outcome.winners)
    assert len(await storage.games.actions(record.id)) == finished.seq
    with pytest.raises(NotActive):
        await storage.games.play(record.id, 0, "draw")
    stats = await storage.games.user_stats(1000)
    assert stats.finished == 1 and stats.wins == int(0 in outcome.winners)
    assert await verify_game(storage.db, record.id) == []


async def test_waiting_seats_and_reminders(storage: Storage, clock: FakeClock) -> None:
    """``waiting_since`` starts when the prompt first names a seat: games waiting on a user and
    reminders for long waits come from it."""
    record = await active_game(storage, "test-counter", players=2)
    first = record.to_act[0]
    user = record.seats[first].user_id
    assert user is not None
    assert [g.id for g in await storage.games.list_waiting_on(user)] == [record.id]
    started = clock.now
    clock.advance(hours=30)
    stale = await storage.games.list_waiting_since(clock.now - timedelta(hours=24))
    assert [(g.id, s.seat, s.waiting_since) for g, s in stale] == [(record.id, first, started)]
    result = await storage.games.play(record.id, first, "draw")
    assert result.record.to_act == (1 - first,)
    assert result.record.seats[1 - first].waiting_since == clock.now
    assert await storage.games.list_waiting_on(user) == []
    assert [g.id for g in await storage.games.list_for_user(user)] == [record.id]


@pytest.mark.parametrize("game", GAMES)
async def test_corrupt_snapshot_names_the_game_and_log_repairs_it(
    storage: Storage, game: str
) -> None:
    """A damaged snapshot gives CorruptGame(game_id) for that game only; other games load; the
    log, the source of truth, rebuilds it."""
    broken = await active_game(storage, game, channel_id=1)
    fine = await active_game(storage, game, channel_id=2, user_base=2000)
    await play_some(storage, broken.id, 5, random.Random(2))
    before = await storage.games.load(broken.id)
    for damage in ("{not json", '{"v": 999}', "[]"):
        await _tamper(storage, ("UPDATE games SET snapshot = ? WHERE id = ?", (damage, broken.id)))
        with pytest.raises(CorruptGame) as corrupt:
            await storage.games.load(broken.id)
        assert corrupt.value.game_id == broken.id
        with pytest.raises(CorruptGame):
            await storage.games.play(broken.id, 0, "x")
        await storage.games.load(fine.id)
        assert [p.kind for p in await verify_game(storage.db, broken.id)] == [
            "snapshot_unreadable" if damage != '{"v": 999}' else "snapshot_mismatch"
        ]
    repaired = await storage.games.rebuild_snapshot(broken.id)
    assert repaired.version == before.record.version + 1
    assert (await storage.games.load(broken.id)).snapshot == before.snapshot
    assert await verify_game(storage.db, broken.id) == []


async def test_unknown_game_name_is_a_corrupt_game_not_a_crash(storage: Storage) -> None:
    """A row naming a game this build does not know (renamed, removed) is CorruptGame; listings
    still work."""
    record = await active_game(storage, "test-counter", players=2)
    await _tamper(storage, ("UPDATE games SET game = 'gone' WHERE id = ?", (record.id,)))
    with pytest.raises(CorruptGame) as corrupt:
        await storage.games.load(record.id)
    assert corrupt.value.game_id == record.id
    assert [g.id for g in await storage.games.list_for_user(1000)] == [record.id]
    assert [p.kind for p in await verify_game(storage.db, record.id)] == ["replay_failed"]


async def test_unreadable_row_is_skipped_in_listings(storage: Storage) -> None:
    """Broken options JSON: get() names the game; a user's listing skips it."""
    bad = await active_game(storage, "test-counter", players=2)
    good = await active_game(storage, "test-counter", players=2, channel_id=5)
    await _tamper(storage, ("UPDATE games SET options = '{' WHERE id = ?", (bad.id,)))
    with pytest.raises(CorruptGame):
        await storage.games.get(bad.id)
    assert [g.id for g in await storage.games.list_for_user(1000)] == [good.id]


async def test_finish_only_when_over(storage: Storage) -> None:
    """finish() finalizes an active game whose state is over and refuses one still running."""
    record = await active_game(storage, "test-counter", players=2)
    with pytest.raises(GameNotOver):
        await storage.games.finish(record.id)
    done = await play_to_end(storage, record.id, random.Random(0))
    # Simulate a game left active although over (e.g. written by an older bot).
    await _tamper(
        storage,
        ("UPDATE games SET status = 'active', outcome = NULL, finished_at = NULL WHERE id = ?",
         (record.id,)),
        ("DELETE FROM results WHERE game_id = ?", (record.id,)),
    )
    finished = await storage.games.finish(record.id)
    assert finished.status is GameStatus.FINISHED and finished.outcome == done.outcome
    assert len(await storage.games.results(record.id)) == 2


async def test_action_log_is_append_only(storage: Storage) -> None:
    """A trigger refuses any UPDATE of a logged action, and the refused change is rolled back
    whole."""
    record = await active_game(storage, "test-counter", players=2)
    await play_some(storage, record.id, 2, random.Random(0))
    logged = await storage.games.actions(record.id)
    with pytest.raises(storage.db.integrity_errors, match="the action log is append-only"):
        await _tamper(storage, ("UPDATE actions SET code = 'add.2' WHERE game_id = ?",
                                (record.id,)))
    assert await storage.games.actions(record.id) == logged
    assert await verify_game(storage.db, record.id) == []


async def test_listings(storage: Storage) -> None:
    """A user's open games, by status, and every game of a status."""
    a = await active_game(storage, "test-counter", players=2, channel_id=1)
    b = await storage.games.create_lobby("test-counter", creator_id=1000, channel_id=2)
    c = await active_game(storage, "test-counter", players=2, channel_id=3)
    await storage.games.abandon(c.id)
    mine = {g.id for g in await storage.games.list_for_user(1000)}
    assert mine == {a.id, b.id}
    assert [g.id for g in await storage.games.list_for_user(
        1000, statuses=[GameStatus.ABANDONED])] == [c.id]
    assert [g.id for g in await storage.games.list_by_status(GameStatus.ACTIVE)] == [a.id]
    assert [g.id for g in await storage.games.list_by_status()] == [a.id, b.id, c.id]
    assert [g.id for g in await storage.games.list_by_status(after_id=a.id, limit=1)] == [b.id]


async def test_cancelled_caller_does_not_break_the_transaction(storage: Storage) -> None:
    """Cancelling the awaiting coroutine (an interaction timing out) leaves the commit whole:
    either fully stored or not at all, and the connection stays usable."""
    record = await active_game(storage, "test-counter", players=2)
    seat = record.to_act[0]
    task = asyncio.create_task(storage.games.play(record.id, seat, "draw"))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.05)
    assert await verify_game(storage.db, record.id) == []
    now = await storage.games.get(record.id)
    assert now.seq in (0, 1) and now.version == record.version + now.seq
