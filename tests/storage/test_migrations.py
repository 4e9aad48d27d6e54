"""Schema migrations: from an empty file, from every earlier schema with data in it, atomically,
never downgrading, and safely when two processes start at once."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from collections.abc import Mapping
from pathlib import Path

import aiosqlite
import pytest

from engine.core import get_game
from storage import LATEST_VERSION, Database, MigrationFailed, SchemaTooNew, Storage, database
from storage.bridge import INSERT_RESULT, result_rows, snapshot_of
from storage.migrate import Migration, migrate, migrations, split_statements
from storage.records import dumps
from tests.storage.conftest import FakeClock
from tests.storage.helpers import choose

T0 = 1_767_268_800_000  # 2026-01-01T12:00Z in ms


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            " ORDER BY type, name"
        ).fetchall()
    return [(t, n, s) for t, n, s in rows]


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _played(game_name: str, options: Mapping[str, object], seed: int, moves: int | None):
    """Play ``moves`` random legal actions (None: to the end) with the engine alone."""
    game = get_game(game_name)
    opts = game.normalize_options(options)
    state = game.setup(opts, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str, str]] = []
    while moves is None or len(log) < moves:
        move = choose(game_name, state, rng)
        if move is None:
            break
        seat, code = move
        state, events = game.apply(state, seat, game.decode_action(code))
        log.append((seat, code, dumps([e.to_json() for e in events])))
    return opts, state, log


def seed_schema_1(conn: sqlite3.Connection) -> dict[str, int]:
    """Rows a bot running schema 1 would have written: a lobby, active games of both games and a
    finished one."""
    ids: dict[str, int] = {}
    conn.execute(
        "INSERT INTO games (game, options, status, channel_id, creator_id, created_at, updated_at)"
        " VALUES ('puerto-rico', '{}', 'lobby', 1, 1, ?, ?)", (T0, T0))
    ids["lobby"] = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
    conn.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, 0, 1, ?)",
                 (ids["lobby"], T0))
    cases = {
        "counter_active": ("test-counter", {"players": 3, "target": 30}, 4, 5),
        "counter_finished": ("test-counter", {"players": 2, "target": 9}, 5, None),
        "pr_active": ("puerto-rico", {"players": 4}, 6, 40),
    }
    for channel, (key, (name, options, seed, moves)) in enumerate(cases.items(), start=2):
        opts, state, log = _played(name, options, seed, moves)
        game = get_game(name)
        status = "finished" if game.prompt(state) is None else "active"
        conn.execute(
            "INSERT INTO games (game, options, seed, status, version, seq, snapshot, channel_id,"
            " guild_id, created_at, updated_at, started_at, last_action_at, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 9, ?, ?, ?, ?, ?)",
            (name, dumps(opts), seed, status, len(log) + 5, len(log), dumps(game.dump(state)),
             channel if status == "active" else None, T0, T0 + len(log), T0, T0 + len(log),
             T0 + len(log) if status == "finished" else None),
        )
        game_id = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
        ids[key] = game_id
        for seat in range(int(opts["players"])):
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, None if seat == 1 else 100 + seat,
                 "random" if seat == 1 else None, T0),
            )
        conn.executemany(
            "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
            " VALUES (?, ?, ?, ?, NULL, ?, ?)",
            [(game_id, i + 1, seat, code, T0 + i, events)
             for i, (seat, code, events) in enumerate(log)],
        )
        conn.execute("INSERT INTO game_messages (game_id, kind, message_id) VALUES (?, 'table', ?)",
                     (game_id, 5000 + game_id))
    return ids


def seed_schema_2(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO user_settings (user_id, language, dm_notifications, updated_at)"
                 " VALUES (100, 'es', 0, ?)", (T0,))
    conn.execute("INSERT INTO guild_settings (guild_id, reminder_hours, updated_at)"
                 " VALUES (9, 12, ?)", (T0,))


def seed_schema_3(conn: sqlite3.Connection) -> None:
    """What a schema-3 bot also wrote with those rows: the seats to act and the results."""
    rows = conn.execute(
        "SELECT id, game, status, snapshot, updated_at FROM games WHERE snapshot IS NOT NULL"
    ).fetchall()
    for game_id, name, status, snapshot, updated_at in rows:
        game = get_game(name)
        snap = snapshot_of(game, game.load(json.loads(snapshot)))
        if status == "active":
            conn.executemany(
                "UPDATE seats SET waiting_since = ? WHERE game_id = ? AND seat = ?",
                [(updated_at, game_id, seat) for seat in snap.to_act],
            )
        elif snap.outcome is not None:
            conn.execute("UPDATE games SET outcome = ? WHERE id = ?",
                         (dumps(snap.outcome), game_id))
            seats = {
                int(seat): (user_id, policy)
                for seat, user_id, policy in conn.execute(
                    "SELECT seat, user_id, ai_policy FROM seats WHERE game_id = ?", (game_id,))
            }
            conn.executemany(INSERT_RESULT, result_rows(game_id, snap.outcome, seats))


async def test_migrations_are_numbered_and_complete() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, LATEST_VERSION + 1))
    assert all(m.statements for m in found)


async def test_from_empty(db_path: Path, clock: FakeClock) -> None:
    """A new file gets every migration; opening again changes nothing."""
    async with await Storage.open(db_path, clock=clock) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        assert (await storage.verify()).ok
    schema = schema_of(db_path)
    assert {"games", "seats", "actions", "game_messages", "user_settings", "guild_settings",
            "results"} <= {name for kind, name, _ in schema if kind == "table"}
    async with await Storage.open(db_path, clock=clock):
        pass
    assert schema_of(db_path) == schema
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("start", range(LATEST_VERSION))
async def test_from_each_earlier_schema(tmp_path: Path, clock: FakeClock, start: int) -> None:
    """A file at schema ``start`` holding games upgrades in place: its data intact, new columns
    back-filled from the snapshots, the same schema as a new file, and verify passes."""
    fresh = tmp_path / "fresh.db"
    async with await Storage.open(fresh, clock=clock):
        pass
    old = tmp_path / "old.db"
    db = await Database.open(old, clock=clock, target_version=start)
    await db.close()
    assert user_version(old) == start
    ids: dict[str, int] = {}
    if start >= 1:
        with sqlite3.connect(old) as conn:
            ids = seed_schema_1(conn)
            if start >= 2:
                seed_schema_2(conn)
            if start >= 3:
                seed_schema_3(conn)
    async with await Storage.open(old, clock=clock) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        report = await storage.verify()
        assert report.ok, report.problems
        if ids:
            lobby = await storage.games.get(ids["lobby"])
            assert [s.user_id for s in lobby.seats] == [1]
            for key in ("counter_active", "pr_active"):
                loaded = await storage.games.load(ids[key])
                prompt = get_game(loaded.record.game).prompt(loaded.state)
                assert prompt is not None
                assert loaded.record.to_act == tuple(sorted(prompt.seats))
                assert loaded.record.messages == {"table": 5000 + ids[key]}
            finished = await storage.games.get(ids["counter_finished"])
            assert finished.outcome is not None
            results = await storage.games.results(finished.id)
            assert [r.user_id for r in results] == [100, None]
            # The upgraded games keep being played.
            record = (await storage.games.load(ids["pr_active"])).record
            move = choose("puerto-rico", (await storage.games.load(record.id)).state,
                          random.Random(0))
            assert move is not None
            await storage.games.play(record.id, *move, expected_version=record.version)
            if start >= 2:
                assert (await storage.settings.user(100)).language == "es"
                assert (await storage.settings.guild(9)).reminder_hours == 12
    assert schema_of(old) == schema_of(fresh)


async def test_newer_schema_is_refused(db_path: Path, clock: FakeClock) -> None:
    """A file from a newer bot is never downgraded or touched."""
    async with await Storage.open(db_path, clock=clock):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(SchemaTooNew) as too_new:
        await Storage.open(db_path, clock=clock)
    assert (too_new.value.found, too_new.value.supported) == (LATEST_VERSION + 1, LATEST_VERSION)
    assert user_version(db_path) == LATEST_VERSION + 1


async def test_failed_migration_rolls_back_whole(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration whose second statement fails leaves no trace of its first one and the
    version unchanged."""
    async with await Storage.open(db_path, clock=clock):
        pass
    broken = Migration(LATEST_VERSION + 1, "broken", (
        "CREATE TABLE half_done (x INTEGER)",
        "INSERT INTO no_such_table VALUES (1)",
    ))
    monkeypatch.setattr("storage.migrate.migrations", lambda: (*migrations(), broken))
    monkeypatch.setattr("storage.migrate.LATEST_VERSION", LATEST_VERSION + 1)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(MigrationFailed) as failed:
            await migrate(conn, clock, target=LATEST_VERSION + 1)
    assert failed.value.version == LATEST_VERSION + 1
    assert user_version(db_path) == LATEST_VERSION
    assert "half_done" not in {name for _, name, _ in schema_of(db_path)}


async def test_two_processes_starting_at_once_migrate_once(tmp_path: Path) -> None:
    """Several processes opening a new file together: each migration applied exactly once."""
    path = tmp_path / "race.db"
    code = (
        "import asyncio, sys\n"
        "import engine\n"
        "from storage import Storage\n"
        "async def main():\n"
        "    s = await Storage.open(sys.argv[1])\n"
        "    print(await s.db.schema_version())\n"
        "    await s.close()\n"
        "asyncio.run(main())\n"
    )
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, str(path), stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[2],
        )
        for _ in range(4)
    ]
    outputs = [await p.communicate() for p in procs]
    for (out, err), proc in zip(outputs, procs, strict=True):
        assert proc.returncode == 0, err.decode()
        assert out.decode().strip() == str(LATEST_VERSION)
    fresh = tmp_path / "fresh.db"
    async with await Storage.open(fresh):
        pass
    assert schema_of(path) == schema_of(fresh)


async def test_switching_a_new_file_to_wal_waits_for_a_writer_instead_of_failing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why several processes starting at once could fail under load: one of them converts the
    new file to WAL while another writes it, and SQLite answers "database is locked" at once
    there, without its busy timeout (the converting reader would deadlock with the writer).  The
    opening tries again, within the busy timeout, instead of failing.  Deterministic: the other
    writer is a connection of this test that lets go once the first attempt met its lock."""
    path = tmp_path / "held.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    attempts: list[str] = []
    real = database._scalar

    async def watched(conn: aiosqlite.Connection, sql: str) -> object:
        if "journal_mode" in sql:
            attempts.append(sql)
            if len(attempts) == 2:
                holder.execute("ROLLBACK")  # the other process is done
        return await real(conn, sql)

    monkeypatch.setattr(database, "_scalar", watched)
    try:
        async with await Storage.open(path, busy_timeout_ms=60_000) as storage:
            assert await storage.db.schema_version() == LATEST_VERSION
    finally:
        holder.close()
    assert len(attempts) == 2
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_split_statements_keeps_triggers_whole() -> None:
    script = """
    -- a comment
    CREATE TABLE t (x INTEGER); -- trailing
    CREATE TRIGGER t_no_update BEFORE UPDATE ON t
    BEGIN
        SELECT RAISE(ABORT, 'no; really');
    END;
    -- the end
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].rstrip().endswith("END;")
    with pytest.raises(ValueError):
        split_statements("CREATE TABLE t (x INTEGER)")


async def test_schema_6_dates_the_waits_and_records_the_games_as_shown(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Schema 6: a seat already waiting gets its game's version as the version its wait began
    (stricter than the truth, never looser), and every game being played or finished counts as
    shown at its version with nothing due; a lobby has no record."""
    path = tmp_path / "five.db"
    db = await Database.open(path, clock=clock, target_version=5)
    await db.close()
    with sqlite3.connect(path) as conn:
        ids = seed_schema_1(conn)
        seed_schema_3(conn)
    async with await Storage.open(path, clock=clock) as storage:
        for key in ("counter_active", "pr_active", "counter_finished"):
            record = await storage.games.get(ids[key])
            for seat in record.seats:
                expected = record.version if seat.waiting_since is not None else None
                assert seat.waiting_version == expected
            shown = await storage.publications.get(record.id)
            assert shown is not None and (shown.version, shown.seq, shown.due) == (
                record.version, record.seq, ())
        assert await storage.publications.get(ids["lobby"]) is None
        assert await storage.publications.lagging() == []
