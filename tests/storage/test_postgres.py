"""What the PostgreSQL backend promises beyond the contract every backend keeps (those tests take
the two-backend ``storage`` fixture): URLs and SQL translation, migrations of a shared database by
processes starting together, the per-game lock across processes, exactly-once claims between
bot processes, and write transactions run again after a conflict.

Several ``Storage`` objects opened on one database have connections of their own, so between
them the database behaves as between processes; where it matters, real processes are used."""

from __future__ import annotations

import asyncio
import logging
import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import (
    LATEST_VERSION,
    Database,
    PlayResult,
    SchemaTooNew,
    StaleVersion,
    Storage,
    parse_url,
)
from storage.database import LockPurpose
from storage.migrate import POSTGRESQL_BASELINE, postgresql_migrations
from storage.postgres import MIGRATION_LOCK, PostgresDatabase, to_postgresql
from storage.sql import Tx
from storage.timebank import per_move
from tests.postgres import PostgresForTests
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game, choose

ROOT = Path(__file__).parents[2]
MIGRATED = "PostgreSQL database migrated to schema"

# 120 s only guards against a hang (a loaded machine may take seconds to start a process); no
# test here measures time.
HANG = 120


@pytest.fixture
async def url(postgres: PostgresForTests) -> AsyncIterator[str]:
    """A fresh database at the latest schema."""
    async with postgres.database() as made:
        yield made


@pytest.fixture
async def empty_url(postgres: PostgresForTests) -> AsyncIterator[str]:
    """A database with nothing in it, not even the schema."""
    async with postgres.database(migrated=False) as made:
        yield made


@pytest.fixture
async def pair(url: str, clock: FakeClock) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two storages on one database, as two bot processes would have (same clock)."""
    first = await Storage.open(url, clock=clock)
    second = await Storage.open(url, clock=clock)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _sql(url: str, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` run on a connection of its own (outside any storage)."""
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


# --- URLs and SQL --------------------------------------------------------------------------------


@pytest.mark.parametrize(("target", "expected"), [
    ("sqlite:///governor.db", ("sqlite", "governor.db")),
    ("sqlite:///data/governor.db", ("sqlite", "data/governor.db")),
    ("sqlite:////var/lib/governor.db", ("sqlite", "/var/lib/governor.db")),
    ("governor.db", ("sqlite", "governor.db")),
    ("/var/lib/governor.db", ("sqlite", "/var/lib/governor.db")),
    (Path("/var/lib/governor.db"), ("sqlite", "/var/lib/governor.db")),
    ("postgresql://bot:secret@db.example:5433/governor",
     ("postgresql", "postgresql://bot:secret@db.example:5433/governor")),
    ("postgres://bot@db.example/governor", ("postgresql", "postgres://bot@db.example/governor")),
])
def test_parse_url(target: str | Path, expected: tuple[str, str]) -> None:
    assert parse_url(target) == expected


@pytest.mark.parametrize(("target", "message"), [
    ("mysql://bot@db.example/governor", "unknown database URL scheme in 'mysql'"),
    ("redis://localhost", "unknown database URL scheme in 'redis'"),
    ("sqlite://", "an SQLite URL is sqlite:///relative/path or sqlite:////absolute"),
    ("sqlite:///", "an SQLite URL is sqlite:///relative/path or sqlite:////absolute"),
    ("sqlite://host/governor.db", "an SQLite URL is sqlite:///relative/path"),
])
def test_parse_url_refuses_what_it_cannot_open(target: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_url(target)


async def test_an_unknown_scheme_is_refused_before_anything_is_opened(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="use sqlite:///FILE or postgresql://USER@HOST/DB"):
        await Storage.open("mysql://bot@localhost/governor")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("sqlite", "postgresql"), [
    ("SELECT 1", "SELECT 1"),
    ("SELECT a FROM t WHERE b = ? AND c IN (?, ?)",
     "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"),
    ("SELECT '?' FROM t WHERE b = ?", "SELECT '?' FROM t WHERE b = $1"),
    ("SELECT 'it''s ?', ? FROM t", "SELECT 'it''s ?', $1 FROM t"),
    ('SELECT "odd?name" FROM t WHERE b = ?', 'SELECT "odd?name" FROM t WHERE b = $1'),
    ("SELECT json_group_array(x) FROM t", "SELECT json_agg(x) FROM t"),
    ("SELECT json_group_object(k, v) FROM t WHERE k > ?",
     "SELECT json_object_agg(k, v) FROM t WHERE k > $1"),
    ("SELECT json_array(a, ?)", "SELECT json_build_array(a, $1)"),
])
def test_to_postgresql(sqlite: str, postgresql: str) -> None:
    assert to_postgresql(sqlite) == postgresql


async def test_translated_statements_run(url: str) -> None:
    """The translation is what PostgreSQL runs: a literal ``?`` stays a value, the placeholders
    after it get their own parameters, and the JSON functions exist under their new names."""
    async with await Storage.open(url) as storage:
        row = await storage.db.fetchone("SELECT '?' AS q, ?::text AS p, ?::int AS n", ("x", 3))
        assert row is not None and tuple(row) == ("?", "x", 3)
        assert await storage.db.scalar("SELECT json_array(?::int, 'a')::text", (1,)) == '[1, "a"]'
        assert await storage.db.scalar(
            "SELECT json_group_array(n)::text FROM (VALUES (1), (2)) AS v (n)") == "[1, 2]"


# --- migrations ----------------------------------------------------------------------------------


async def _schema(url: str) -> list[tuple[str, ...]]:
    """The tables, columns, indexes and triggers of the database (to compare two)."""
    return await _sql(
        url,
        "SELECT 'column', table_name || '.' || column_name, data_type || ' ' || is_nullable"
        "  FROM information_schema.columns WHERE table_schema = 'public'"
        " UNION ALL SELECT 'index', indexname, indexdef FROM pg_indexes"
        "  WHERE schemaname = 'public'"
        " UNION ALL SELECT 'trigger', tgname, tgrelid::regclass::text FROM pg_trigger"
        "  WHERE NOT tgisinternal"
        " UNION ALL SELECT 'constraint', conname, pg_get_constraintdef(oid) FROM pg_constraint"
        "  WHERE connamespace = 'public'::regnamespace"
        " ORDER BY 1, 2, 3")


async def test_a_fresh_database_is_migrated_once(
    empty_url: str, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An empty database reaches the latest schema, the same as every other one; opening it
    again applies nothing and keeps what it holds."""
    caplog.set_level(logging.INFO, logger="storage.postgres")
    async with await Storage.open(empty_url) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        record = await active_game(storage, "test-counter", players=2)
    applied = [r.getMessage() for r in caplog.records if r.getMessage().startswith(MIGRATED)]
    assert len(applied) == len(postgresql_migrations()) >= 1
    assert applied[-1].startswith(f"{MIGRATED} {LATEST_VERSION} ")
    caplog.clear()
    async with await Storage.open(empty_url) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        assert await storage.games.get(record.id) == record
    assert not [r for r in caplog.records if r.getMessage().startswith(MIGRATED)]
    assert await _sql(empty_url, "SELECT version FROM governor_schema") == [(LATEST_VERSION,)]
    assert await _schema(empty_url) == await _schema(url)


async def _waiting(url: str, count: int, kind: str | None = None) -> None:
    """Until ``count`` sessions of the database wait for a lock (of ``kind``: ``advisory``...;
    a row's is ``transactionid`` or ``tuple``); how long it takes does not matter."""
    while (await _sql(url, "SELECT count(*) FROM pg_stat_activity WHERE datname ="
                      " current_database() AND wait_event_type = 'Lock'"
                      " AND wait_event = coalesce($1, wait_event)", kind))[0][0] < count:
        await asyncio.sleep(0.01)


OPENER = (
    "import asyncio, logging, sys\n"
    "import engine\n"
    "from storage import Storage\n"
    "logging.basicConfig(level=logging.INFO, format='%(message)s')\n"
    "async def main():\n"
    "    s = await Storage.open(sys.argv[1])\n"
    "    print(await s.db.schema_version())\n"
    "    await s.close()\n"
    "asyncio.run(main())\n"
)
"""A process that opens the database (migrating it, logging each migration) and prints its
schema version."""

async def _openers(url: str, count: int) -> list[asyncio.subprocess.Process]:
    return [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", OPENER, url, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=ROOT,
        )
        for _ in range(count)
    ]


async def _opened(procs: list[asyncio.subprocess.Process]) -> list[str]:
    """Wait for the openers: each opened the database at the latest schema; the migrations
    they applied, from their logs."""
    applied: list[str] = []
    for proc in procs:
        out, err = await asyncio.wait_for(proc.communicate(), HANG)
        assert proc.returncode == 0, err.decode()
        assert out.decode().strip() == str(LATEST_VERSION)
        applied += [line for line in err.decode().splitlines() if line.startswith(MIGRATED)]
    return applied


async def test_processes_starting_at_once_migrate_once(empty_url: str, url: str) -> None:
    """Four processes open one empty database together: every one opens it at the latest
    schema, and between them each migration was applied exactly once.

    The worst moment is forced: all four have found the database empty and wait for the
    migrations' lock (held here) before any of them migrates.  (Not strict: whether a waiter
    still reads its stale cache depends on how the server's invalidation queue overflowed;
    test_a_process_that_waited_sees_the_migration_done shows the bug every time.)"""
    gate = await asyncpg.connect(empty_url)
    try:
        async with gate.transaction():
            await gate.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            procs = await _openers(empty_url, 4)
            await asyncio.wait_for(_waiting(empty_url, 4, "advisory"), HANG)
    finally:
        await gate.close()
    applied = await _opened(procs)
    assert sorted(applied) == sorted(
        f"{MIGRATED} {m.version} ({m.name})" for m in postgresql_migrations())
    assert await _sql(empty_url, "SELECT version FROM governor_schema") == [(LATEST_VERSION,)]
    assert await _schema(empty_url) == await _schema(url)


async def test_a_process_that_waited_sees_the_migration_done(empty_url: str) -> None:
    """Two processes find the database empty and wait for the migrations' lock; meanwhile the
    holder (standing for a third process) brings it to the latest version.  When they get the
    lock they must see that and apply nothing (here: no migration logged, no table made)."""
    gate = await asyncpg.connect(empty_url)
    try:
        async with gate.transaction():
            await gate.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            procs = await _openers(empty_url, 2)
            await asyncio.wait_for(_waiting(empty_url, 2, "advisory"), HANG)
            await gate.execute("CREATE TABLE governor_schema (version INTEGER NOT NULL)")
            await gate.execute("INSERT INTO governor_schema (version) VALUES ($1)",
                               LATEST_VERSION)
    finally:
        await gate.close()
    assert await _opened(procs) == []
    assert await _sql(empty_url, "SELECT to_regclass('games') IS NULL") == [(True,)]


async def test_a_newer_schema_is_refused(url: str) -> None:
    """A database a newer bot migrated is never opened (nor downgraded) by this one."""
    await _sql(url, "UPDATE governor_schema SET version = $1", LATEST_VERSION + 1)
    with pytest.raises(SchemaTooNew) as too_new:
        await Storage.open(url)
    assert (too_new.value.found, too_new.value.supported) == (LATEST_VERSION + 1, LATEST_VERSION)
    assert await _sql(url, "SELECT version FROM governor_schema") == [(LATEST_VERSION + 1,)]


async def test_no_schema_before_the_baseline(empty_url: str) -> None:
    """PostgreSQL starts at the baseline: an older target is a mistake, refused untouched."""
    with pytest.raises(ValueError, match="PostgreSQL schemas start at"):
        await Database.open(empty_url, target_version=POSTGRESQL_BASELINE - 1)
    assert await _sql(empty_url, "SELECT to_regclass('governor_schema') IS NULL") == [(True,)]


# --- the per-game lock ---------------------------------------------------------------------------


async def _entered(db: Database, game_id: int, purpose: LockPurpose = "game") -> None:
    """Take the lock and leave it at once (to show it can be taken)."""
    async with db.lock(game_id, purpose):
        pass


async def test_the_game_lock_holds_between_storages(
    pair: tuple[Storage, Storage], url: str
) -> None:
    """While one storage holds game 7, the other's lock on game 7 waits until it leaves; other
    games and the clock lock of game 7 are free meanwhile; a waiter given up leaves nothing
    held."""
    first, second = pair
    order: list[str] = []

    async def second_takes_it() -> None:
        async with second.db.lock(7):
            order.append("second in")

    async with first.db.lock(7):
        order.append("first in")
        waiting = asyncio.create_task(second_takes_it())
        given_up = asyncio.create_task(_entered(second.db, 7))
        await asyncio.sleep(0.2)
        assert not waiting.done() and not given_up.done()
        given_up.cancel()
        with pytest.raises(asyncio.CancelledError):
            await given_up
        await asyncio.wait_for(_entered(second.db, 8), HANG)
        await asyncio.wait_for(_entered(second.db, 7, "clock"), HANG)
        assert not waiting.done()
        order.append("first out")
    await asyncio.wait_for(waiting, HANG)
    assert order == ["first in", "first out", "second in"]
    # Nothing left held: each can take it again.
    await asyncio.wait_for(_entered(first.db, 7), HANG)
    await asyncio.wait_for(_entered(second.db, 7), HANG)
    assert await _sql(url, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND"
                      " database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                      ) == [(0,)]


LOCK_HOLDER = (
    "import asyncio, sys\n"
    "from storage import Storage\n"
    "async def main():\n"
    "    s = await Storage.open(sys.argv[1])\n"
    "    async with s.db.lock(int(sys.argv[2])):\n"
    "        print('held', flush=True)\n"
    "        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)\n"
    "    print('left', flush=True)\n"
    "    await s.close()\n"
    "asyncio.run(main())\n"
)


async def _holder(url: str, game_id: int) -> asyncio.subprocess.Process:
    """A process that holds ``game_id``'s lock until it reads a line (or is killed)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LOCK_HOLDER, url, str(game_id), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.readline(), HANG) == b"held\n"
    return proc


async def test_the_game_lock_holds_between_processes(url: str) -> None:
    """A process holding game 7: this one waits for it, not for game 8, and enters once the
    other leaves; when the holding process dies instead, its lock goes with its connection."""
    async with await Storage.open(url) as storage:
        for ending in ("leaves", "is killed"):
            holder = await _holder(url, 7)
            waiting = asyncio.create_task(_entered(storage.db, 7))
            await asyncio.sleep(0.2)
            assert not waiting.done(), ending
            await asyncio.wait_for(_entered(storage.db, 8), HANG)
            assert not waiting.done(), ending
            if ending == "leaves":
                assert holder.stdin is not None and holder.stdout is not None
                holder.stdin.write(b"\n")
                await holder.stdin.drain()
                assert await asyncio.wait_for(holder.stdout.readline(), HANG) == b"left\n"
            else:
                holder.kill()
            await asyncio.wait_for(waiting, HANG)
            await asyncio.wait_for(holder.wait(), HANG)
            assert holder.returncode == (0 if ending == "leaves" else -9), ending


# --- exactly once between processes --------------------------------------------------------------


async def test_alerts_and_votes_are_claimed_once_between_storages(
    pair: tuple[Storage, Storage], clock: FakeClock
) -> None:
    """Several claims of one wait from two storages at once: one wins; the vote it opens is
    one; concurrent ballots are all kept; of two closers one wins."""
    first, second = pair
    record = await active_game(first, channel_id=1)
    [seat] = record.to_act
    since = record.seats[seat].waiting_since
    assert since is not None
    racers = [first, second] * 3

    claims = await asyncio.gather(
        *(s.reminders.claim_alert(record.id, seat, "turn", since) for s in racers))
    assert sorted(claims) == [False] * 5 + [True]

    clock.advance(days=3)
    await first.reminders.set_timers(record.id, pace=per_move(1))
    [wait] = await second.reminders.waits(before=clock.now)
    nudges = await asyncio.gather(
        *(s.reminders.claim_nudge(wait.user_id, [wait], not_after=clock.now) for s in racers))
    assert sorted(len(n) for n in nudges) == [0] * 5 + [1]
    assert (await first.settings.user(wait.user_id)).last_nudge_at == clock.now

    votes = await asyncio.gather(*(s.reminders.open_vote(wait) for s in racers))
    opened = [v for v in votes if v is not None]
    assert len(opened) == 1
    [vote] = opened
    assert [v.id for v in await second.reminders.open_votes(record.id)] == [vote.id]

    await asyncio.gather(*(s.reminders.cast(vote.id, USER + n, "ai" if n % 2 else "abandon")
                           for n, s in enumerate(racers, start=1)))
    ballots = (await first.reminders.vote(vote.id)).ballots
    assert ballots == {USER + n: "ai" if n % 2 else "abandon" for n in range(1, 7)}

    closes = await asyncio.gather(first.reminders.close_vote(vote.id, "takeover"),
                                  second.reminders.close_vote(vote.id, "cancelled"))
    assert sorted(closes) == [False, True]
    assert (await second.reminders.vote(vote.id)).status == ("takeover" if closes[0]
                                                             else "cancelled")


# --- conflicts -----------------------------------------------------------------------------------


async def test_a_conflicting_write_runs_again_on_the_new_state(
    pair: tuple[Storage, Storage]
) -> None:
    """A write that read a row another transaction changed before it wrote is rolled back and
    run again on the new state: no update is lost and the caller sees no error."""
    first, second = pair
    assert isinstance(first.db, PostgresDatabase)
    await first.db.write(lambda tx: tx.execute(
        "INSERT INTO user_settings (user_id, updated_at) VALUES (1, 0)"))
    has_read, other_wrote = asyncio.Event(), asyncio.Event()
    seen: list[int] = []

    async def increment(tx: Tx) -> int:
        value = int(await tx.scalar("SELECT updated_at FROM user_settings WHERE user_id = 1"))
        seen.append(value)
        if len(seen) == 1:  # the first run waits for the other writer, to conflict with it
            has_read.set()
            await other_wrote.wait()
        await tx.execute("UPDATE user_settings SET updated_at = ? WHERE user_id = 1",
                         (value + 1,))
        return value + 1

    task = asyncio.create_task(first.db.write(increment))
    await asyncio.wait_for(has_read.wait(), HANG)
    await second.db.write(lambda tx: tx.execute(
        "UPDATE user_settings SET updated_at = updated_at + 10 WHERE user_id = 1"))
    other_wrote.set()
    assert await asyncio.wait_for(task, HANG) == 11
    assert seen == [0, 10]
    assert first.db.retries == 1
    assert await second.db.scalar("SELECT updated_at FROM user_settings WHERE user_id = 1") == 11


async def test_two_plays_on_one_version_one_wins_the_other_is_stale(
    pair: tuple[Storage, Storage], url: str
) -> None:
    """Two storages play on one version at the same moment, both past their check of the
    version and waiting for the game's row: the one that gets it commits; the other conflicts,
    runs again, and is told the version that won (StaleVersion, not a driver error)."""
    first, second = pair
    assert isinstance(first.db, PostgresDatabase) and isinstance(second.db, PostgresDatabase)
    record = await active_game(first, "puerto-rico", players=4)
    rng = random.Random(3)
    for round_ in range(5):
        loaded = await first.games.load(record.id)
        move = choose(loaded.record.game, loaded.state, rng)
        assert move is not None
        version = loaded.record.version
        retries = first.db.retries + second.db.retries
        gate = await asyncpg.connect(url)  # holds the game's row until both plays wait for it
        try:
            async with gate.transaction():
                await gate.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", record.id)
                plays = asyncio.gather(
                    *(s.games.play(record.id, *move, expected_version=version)
                      for s in (first, second)), return_exceptions=True)
                await asyncio.wait_for(_waiting(url, 2), HANG)
        finally:
            await gate.close()
        results = await asyncio.wait_for(plays, HANG)
        won = [r for r in results if isinstance(r, PlayResult)]
        stale = [r for r in results if isinstance(r, StaleVersion)]
        assert len(won) == 1 and len(stale) == 1, (round_, results)
        assert (stale[0].expected, stale[0].current) == (version, version + 1)
        assert won[0].record.version == version + 1
        assert first.db.retries + second.db.retries == retries + 1, round_
    actions = await second.games.actions(record.id)
    assert [a.seq for a in actions] == [1, 2, 3, 4, 5]
    assert (await first.verify()).ok


async def test_many_commits_on_one_version_from_two_storages(
    pair: tuple[Storage, Storage]
) -> None:
    """Six commits at once (three per storage) on one version, 10 rounds: exactly one is
    stored each round, the others are stale, the log has no gap."""
    first, second = pair
    record = await active_game(first, "test-counter", players=3)
    rng = random.Random(4)
    rounds = 0
    for _ in range(10):
        loaded = await first.games.load(record.id)
        move = choose(loaded.record.game, loaded.state, rng)
        if move is None:
            break
        version = loaded.record.version
        results = await asyncio.gather(
            *(s.games.play(record.id, *move, expected_version=version)
              for s in (first, second) * 3), return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == (
            ["PlayResult"] + ["StaleVersion"] * 5), results
        assert all(r.current == version + 1 for r in results if isinstance(r, StaleVersion))
        rounds += 1
    assert rounds > 0
    actions = await second.games.actions(record.id)
    assert [a.seq for a in actions] == list(range(1, rounds + 1))
    assert (await first.verify()).ok


async def test_moves_of_different_games_at_once_never_conflict(
    pair: tuple[Storage, Storage]
) -> None:
    """Twenty games moving at once from two storages (two processes, to the database): no
    write waits for or aborts another.  (With SERIALIZABLE, whose predicate locks cover whole
    index pages, such a load gave a thousand reruns and a dozen writes refused as busy.)"""
    first, second = pair
    games = [(await active_game(first, channel_id=700 + n, user_base=USER * (n + 1))).id
             for n in range(20)]

    async def play(storage: Storage, game_id: int) -> int:
        rng = random.Random(game_id)
        moves = 0
        for _ in range(15):
            loaded = await storage.games.load(game_id)
            move = choose("puerto-rico", loaded.state, rng)
            assert move is not None
            seat, code = move
            await storage.games.play(game_id, seat, code,
                                     expected_version=loaded.record.version, user_id=None)
            moves += 1
        return moves

    played = await asyncio.gather(*(play(first if n % 2 else second, game_id)
                                    for n, game_id in enumerate(games)))
    assert played == [15] * 20
    for storage in pair:
        assert isinstance(storage.db, PostgresDatabase) and storage.db.retries == 0
    assert (await first.verify()).ok
