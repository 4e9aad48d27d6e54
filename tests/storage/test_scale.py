"""10,000 stored games: loading one and listing a user's games stay fast, because every query the
bot runs is an index search (checked on the query plans, then timed)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.storage import BASE_USER, USERS, fill_games, play_template
from engine.core import get_game
from storage import GameStatus, Storage

GAMES = 10_000


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


async def _timed(samples: int, call: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    cuts = statistics.quantiles(times, n=20)
    return cuts[9], cuts[18]  # p50, p95 in ms


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
        await storage.games.list_waiting_since(datetime.now(UTC))
        await storage.games.actions(1234, after_seq=3)
        await storage.games.results(1234)
        await storage.games.user_stats(user)
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


async def test_loading_and_listing_stay_fast(big_db: Path) -> None:
    """Timed on the 10,000-game file (bounds are loose for slow CI machines; the bench reports
    the real figures: well under a millisecond here)."""
    rng = random.Random(0)
    async with await Storage.open(big_db) as storage:
        load = await _timed(300, lambda: storage.games.load(rng.randrange(1, GAMES + 1)))
        listing = await _timed(
            300, lambda: storage.games.list_for_user(
                BASE_USER + rng.randrange(USERS), statuses=list(GameStatus))
        )
        waiting = await _timed(
            300, lambda: storage.games.list_waiting_on(BASE_USER + rng.randrange(USERS))
        )
    for name, (p50, p95) in {"load": load, "list": listing, "waiting": waiting}.items():
        assert p50 < 5 and p95 < 15, (name, p50, p95)
