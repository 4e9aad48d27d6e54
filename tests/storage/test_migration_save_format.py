"""Schema 14 (issue #34): saves by name.  The games a schema-13 bot stored have snapshots of
format 1 (buildings and cards as table indices); the migration loads each with its engine and
stores the engine's dump of today (format 2), so that ``verify`` agrees with a replay and the
games go on.  The snapshots are the format-1 dumps of tests/engine/saves/, written by the engine
before format 2, with their action logs.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from engine import get_game, replay
from storage import Database, Storage
from storage.migrate import LATEST_VERSION, migrations
from storage.records import dumps
from storage.verify import verify_database
from tests.engine.test_save_format import GAMES, format1
from tests.postgres import PostgresForTests
from tests.storage.conftest import FakeClock
from tests.storage.helpers import choose
from tests.storage.test_migrations import T0, seed_schema_3

SCHEMA = next(m.version for m in migrations() if m.name == "save_format_names")


def stored_games(game: str) -> dict[str, tuple[dict[str, Any], int]]:
    """A game of ``game`` being played and a finished one among the format-1 saves: the entry
    and the number of actions its snapshot follows."""
    engine_game = get_game(game)
    active: tuple[dict[str, Any], int] | None = None
    finished: tuple[dict[str, Any], int] | None = None
    for _, entry in sorted(format1(game).items()):
        for at in sorted(int(n) for n in entry["checkpoints"]):
            state, _ = replay(game, entry["options"], entry["seed"], entry["actions"][:at])
            if engine_game.prompt(state) is None:
                finished = finished or (entry, at)
            elif at > 20:
                active = (entry, at)  # the latest with a few rounds played
    assert active is not None and finished is not None
    return {"active": active, "finished": finished}


def seed_format_1_games(conn: sqlite3.Connection) -> dict[tuple[str, str], int]:
    """Games as a schema-13 bot stored them: for every game, one being played and one finished,
    each with its format-1 snapshot, its seats and its log (with the events of each action)."""
    ids: dict[tuple[str, str], int] = {}
    channel = 2
    for game in GAMES:
        engine_game = get_game(game)
        for status, (entry, at) in stored_games(game).items():
            actions = entry["actions"][:at]
            state = engine_game.setup(entry["options"], entry["seed"])
            log = []
            for seat, code in actions:
                state, events = engine_game.apply(state, seat, engine_game.decode_action(code))
                log.append((seat, code, dumps([e.to_json() for e in events])))
            snapshot = entry["checkpoints"][str(at)]
            assert snapshot["format"] == 1
            conn.execute(
                "INSERT INTO games (game, options, seed, status, version, seq, snapshot,"
                " channel_id, guild_id, created_at, updated_at, started_at, last_action_at,"
                " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 9, ?, ?, ?, ?, ?)",
                (game, dumps(entry["options"]), entry["seed"], status, at + 5, at,
                 dumps(snapshot), channel, T0, T0 + at, T0, T0 + at,
                 T0 + at if status == "finished" else None))
            game_id = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
            ids[(game, status)] = game_id
            channel += 1
            players = engine_game.players(state)
            machines = range(players - int(entry["options"].get("puertomas", 0)), players)
            conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, None if seat in machines else 100 + seat,
                  "puertoma" if seat in machines else None, T0) for seat in range(players)])
            conn.executemany(
                "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
                " VALUES (?, ?, ?, ?, NULL, ?, ?)",
                [(game_id, i + 1, seat, code, T0 + i, events)
                 for i, (seat, code, events) in enumerate(log)])
    seed_schema_3(conn)  # the seats to act, the outcomes and the results
    return ids


def snapshot(path: Path, game_id: int) -> dict[str, Any]:
    with sqlite3.connect(path) as conn:
        [text] = conn.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
    value: dict[str, Any] = json.loads(text)
    return value


async def test_format_1_snapshots_are_stored_again_by_name(
        tmp_path: Path, clock: FakeClock) -> None:
    """Every game's stored snapshots of format 1, active and finished, become its engine's
    format-2 dump of the same state; ``verify`` passes; the games being played go on."""
    path = tmp_path / "thirteen.db"
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    await db.close()
    with sqlite3.connect(path) as conn:
        ids = seed_format_1_games(conn)
    # before the migration, a replay's snapshot (format 2) differs from every stored one
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    try:
        report = await verify_database(db)
    finally:
        await db.close()
    assert {p.game_id for p in report.problems} == set(ids.values())
    assert {p.kind for p in report.problems} == {"snapshot_mismatch"}

    async with await Storage.open(path, clock=clock) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        report = await storage.verify()
        assert report.ok, report.problems
        for (game, status), game_id in ids.items():
            saved = snapshot(path, game_id)
            assert saved["format"] == 2, (game, status)
            loaded = await storage.games.load(game_id)
            assert get_game(game).dump(loaded.state) == saved
        rng = random.Random(5)
        for game in GAMES:
            game_id = ids[(game, "active")]
            for _ in range(30):
                loaded = await storage.games.load(game_id)
                move = choose(game, loaded.state, rng)
                if move is None:
                    break
                await storage.games.play(game_id, *move, expected_version=loaded.record.version)
            assert snapshot(path, game_id)["format"] == 2
        assert (await storage.verify()).ok


async def test_the_migration_keeps_a_snapshot_its_engine_cannot_read(
        tmp_path: Path, clock: FakeClock) -> None:
    """A snapshot that does not load is left as it is for ``verify`` to report (and
    ``verify --repair`` to rebuild from the log); the others are migrated."""
    path = tmp_path / "thirteen.db"
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    await db.close()
    with sqlite3.connect(path) as conn:
        ids = seed_format_1_games(conn)
        broken = ids[("san-juan", "active")]
        conn.execute("UPDATE games SET snapshot = ? WHERE id = ?",
                     ('{"format": 1, "game": "san-juan"}', broken))
    async with await Storage.open(path, clock=clock) as storage:
        report = await storage.verify()
        assert {(p.game_id, p.kind) for p in report.problems} == {(broken, "snapshot_mismatch")}
        assert snapshot(path, broken) == {"format": 1, "game": "san-juan"}
        await storage.games.rebuild_snapshot(broken)
        assert (await storage.verify()).ok
        assert snapshot(path, broken)["format"] == 2


async def test_the_same_on_postgresql(
        tmp_path: Path, clock: FakeClock, postgres: PostgresForTests) -> None:
    """On PostgreSQL the back-fill is the same step: a schema-13 database holding the same
    format-1 games (copied row for row from an SQLite file) is migrated, verified and played."""
    path = tmp_path / "thirteen.db"
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    await db.close()
    with sqlite3.connect(path) as conn:
        ids = seed_format_1_games(conn)
        tables = {table: conn.execute(f"SELECT * FROM {table}")
                  for table in ("games", "seats", "actions", "results")}
        rows = {table: ([d[0] for d in cursor.description], cursor.fetchall())
                for table, cursor in tables.items()}
    async with postgres.database(migrated=False) as url:
        db = await Database.open(url, clock=clock, target_version=SCHEMA - 1)
        await db.close()
        pg = await asyncpg.connect(url)
        try:
            for table, (columns, values) in rows.items():
                marks = ", ".join(f"${i + 1}" for i in range(len(columns)))
                await pg.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    values)
        finally:
            await pg.close()
        async with await Storage.open(url, clock=clock) as storage:
            assert await storage.db.schema_version() == LATEST_VERSION
            report = await storage.verify()
            assert report.ok, report.problems
            for (game, status), game_id in ids.items():
                loaded = await storage.games.load(game_id)
                assert loaded.snapshot["format"] == 2, (game, status)
            rng = random.Random(6)
            game_id = ids[("puerto-rico-1897", "active")]
            for _ in range(10):
                loaded = await storage.games.load(game_id)
                move = choose("puerto-rico-1897", loaded.state, rng)
                assert move is not None
                await storage.games.play(game_id, *move, expected_version=loaded.record.version)
            assert (await storage.verify()).ok
