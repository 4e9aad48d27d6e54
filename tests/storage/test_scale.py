"""10,000 stored games: loading one and listing a user's games stay fast, because every query the
bot runs is an index search.  Checked on the query plans and by counting the work of each query
(SQLite virtual-machine steps), never with a clock: the milliseconds are ``python -m
bench.storage``'s business, and a test must pass on a loaded machine."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bench.storage import BASE_USER, USERS, fill_games, play_template
from engine.core import get_game
from storage import GameStatus, Storage

GAMES = 10_000
# The most virtual-machine steps a statement may take per row it returns (plus one): about 180
# today for a load, 120 for a listing; one pass over the games table costs 30,000.
STEPS_PER_ROW = 400


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """10,000 games copied from real ones: running Puerto Rico games (mid-game snapshots and
    logs) and finished test-counter games, seats drawn from 2,000 users."""
    path = tmp_path_factory.mktemp("scale") / "big.db"

    async def create() -> None:
        async with await Storage.open(path):
            pass

    asyncio.run(create())
    templates = [
        play_template("puerto-rico", {"players": 4}, 1, moves=25),
        play_template("puerto-rico", {"players": 4}, 2, moves=40),
        play_template("test-counter", {"players": 4, "target": 20}, 3),
    ]
    ids = fill_games(path, templates, GAMES, seed=5)
    assert len(ids) == GAMES
    return path


async def test_every_query_is_an_index_search(big_db: Path) -> None:
    """No statement the repository runs for loading, committing or listing scans a table."""
    async with await Storage.open(big_db) as storage:
        statements: list[str] = []
        await storage.db.set_trace(statements.append)
        record = await storage.games.get(1234)
        user = record.seats[0].user_id
        assert user is not None
        await storage.games.load(1234)
        await storage.games.list_for_user(user)
        await storage.games.list_waiting_on(user)
        if record.channel_id is not None:
            await storage.games.find_by_channel(record.channel_id)
        await storage.games.find_by_channel(10**15)  # no game there: the story-thread search
        await storage.games.list_waiting_since(datetime.now(UTC))
        await storage.publications.behind(changed_before=datetime.now(UTC),
                                          finished_since=datetime(2020, 1, 1, tzinfo=UTC))
        await storage.games.actions(1234, after_seq=3)
        await storage.games.results(1234)
        await storage.games.user_stats(user)
        await storage.ratings.leaderboard(record.guild_id, record.game, offset=20)
        await storage.ratings.rating(record.guild_id, record.game, user)
        await storage.ratings.changes(1234)
        await storage.ratings.history(record.guild_id, record.game, user)
        await storage.ratings.status(1234)
        await storage.settings.user(user)
        active = await storage.games.list_by_status(GameStatus.ACTIVE, limit=1)
        loaded = await storage.games.load(active[0].id)
        await storage.games.play(
            loaded.record.id, loaded.record.to_act[0],
            _legal_code(loaded.record.game, loaded.state, loaded.record.to_act[0]),
        )
        await storage.db.set_trace(None)
    conn = sqlite3.connect(big_db)
    try:
        checked = 0
        for statement in statements:
            if not statement.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE")):
                continue
            plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + statement)]
            assert not [p for p in plan if p.startswith("SCAN")], (statement, plan)
            checked += 1
        assert checked >= 12
    finally:
        conn.close()


def _legal_code(game_name: str, state: object, seat: int) -> str:
    game = get_game(game_name)
    return game.encode_action(game.legal_actions(state, seat)[0])


def _vm_steps(conn: sqlite3.Connection, sql: str) -> tuple[int, int]:
    """(SQLite virtual-machine steps, rows returned) of one statement: a count of the work done,
    the same on an idle laptop and on a loaded CI machine."""
    steps = 0

    def tick() -> int:
        nonlocal steps
        steps += 1
        return 0  # go on

    conn.set_progress_handler(tick, 1)
    try:
        rows = len(conn.execute(sql).fetchall())
    finally:
        conn.set_progress_handler(None, 1)
    return steps, rows


async def _traced(storage: Storage, calls: list[Callable[[], Awaitable[object]]]) -> list[str]:
    statements: list[str] = []
    await storage.db.set_trace(statements.append)
    try:
        for call in calls:
            await call()
    finally:
        await storage.db.set_trace(None)
    return statements


async def test_loading_and_listing_work_does_not_grow_with_the_stored_games(big_db: Path) -> None:
    """The work of each statement behind loading a game, listing a user's games and listing the
    games waiting on a user is bounded by the rows it returns, not by the 10,000 games stored:
    counted in SQLite virtual-machine steps (not timed; ``python -m bench.storage`` reports the
    milliseconds).  One pass over the games table alone costs 3 steps per stored game."""
    rng = random.Random(0)
    async with await Storage.open(big_db) as storage:
        statements = await _traced(storage, [
            *(partial(storage.games.load, rng.randrange(1, GAMES + 1)) for _ in range(100)),
            *(partial(storage.games.list_for_user, BASE_USER + rng.randrange(USERS),
                      statuses=list(GameStatus)) for _ in range(100)),
            *(partial(storage.games.list_waiting_on, BASE_USER + rng.randrange(USERS))
              for _ in range(100)),
        ])
    assert len(statements) == 300
    conn = sqlite3.connect(big_db)
    try:
        scan, _ = _vm_steps(conn, "SELECT id FROM games WHERE seed = -1")
        assert scan >= 3 * GAMES  # the reference: one pass over the games table
        costs = [(*_vm_steps(conn, statement), statement) for statement in statements]
    finally:
        conn.close()
    returned = sum(rows for _, rows, _ in costs)
    assert returned >= 300  # real work: a game per load, the users' games
    for steps, rows, statement in costs:
        assert steps <= STEPS_PER_ROW * (rows + 1), (steps, rows, statement)
    assert STEPS_PER_ROW * (max(rows for _, rows, _ in costs) + 1) < scan


async def test_loading_and_listing_find_exactly_the_right_games(big_db: Path) -> None:
    """On the 10,000-game file, the index searches miss nothing and add nothing: a loaded game
    is the stored one, and a user's listings equal what a full read of the tables gives."""
    raw = sqlite3.connect(big_db)
    try:
        games: dict[int, tuple[str, str, int, int, Any]] = {
            int(r[0]): (str(r[1]), str(r[2]), int(r[3]), int(r[4]), json.loads(r[5]))
            for r in raw.execute("SELECT id, game, status, updated_at, seq, snapshot FROM games")
        }  # id -> (game, status, updated_at, seq, snapshot)
        seats = raw.execute("SELECT game_id, user_id, waiting_since FROM seats").fetchall()
    finally:
        raw.close()
    assert len(games) == GAMES
    rng = random.Random(1)
    async with await Storage.open(big_db) as storage:
        for game_id in rng.sample(sorted(games), 50):
            name, _, _, seq, snapshot = games[game_id]
            loaded = await storage.games.load(game_id)
            assert (loaded.record.id, loaded.record.game, loaded.record.seq) == (
                game_id, name, seq)
            assert get_game(name).dump(loaded.state) == snapshot
        users = [BASE_USER + u for u in rng.sample(range(USERS), 50)]
        listed = 0
        for user in users:
            mine = [g for g, u, _ in seats if u == user]
            expected = sorted(mine, key=lambda g: (-games[g][2], -g))  # latest activity first
            got = await storage.games.list_for_user(user, statuses=list(GameStatus))
            assert [r.id for r in got] == expected
            listed += len(got)
            waiting = sorted(
                (int(w), g) for g, u, w in seats
                if u == user and w is not None and games[g][1] == GameStatus.ACTIVE.value
            )
            got = await storage.games.list_waiting_on(user)
            assert [r.id for r in got] == [g for _, g in waiting]
    assert listed >= 50 * 4 * GAMES // USERS // 2  # about 20 seats per user
