"""Schema 8 (issue #9): VP amounts are public (the ruling beside ``gain_vp`` in
engine/puerto_rico/ops.py), so the VpEarned events a schema-7 bot stored with no public form
(``"public_data": null``) are rewritten to ``{"amount", "reason"}``: verify agrees with a replay
again, the log stays append-only and the games go on."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.core import get_game
from storage import Database, Storage
from storage.migrate import LATEST_VERSION, migrations
from storage.verify import verify_database
from tests.storage.conftest import FakeClock
from tests.storage.helpers import choose
from tests.storage.test_migrations import T0, _played, schema_of, seed_schema_3, user_version

VP_SCHEMA = next(m.version for m in migrations() if m.name == "vp_public")
APPEND_ONLY = next(s for s in migrations()[0].statements
                   if "CREATE TRIGGER actions_append_only" in s)


def old_form(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as the engine wrote them before the ruling: VpEarned had no public form."""
    return [{**e, "public_data": None} if e["type"] == "VpEarned" else e for e in events]


def seed_old_games(conn: sqlite3.Connection) -> dict[str, int]:
    """Puerto Rico games as a schema-7 bot stored them: one being played, one finished."""
    ids: dict[str, int] = {}
    for channel, (key, seed, moves) in enumerate(
            [("active", 6, 160), ("finished", 7, None)], start=2):
        opts, state, log = _played("puerto-rico", {"players": 3}, seed, moves)
        game = get_game("puerto-rico")
        status = "finished" if game.prompt(state) is None else "active"
        assert status == key
        conn.execute(
            "INSERT INTO games (game, options, seed, status, version, seq, snapshot, channel_id,"
            " guild_id, created_at, updated_at, started_at, last_action_at, finished_at)"
            " VALUES ('puerto-rico', ?, ?, ?, ?, ?, ?, ?, 9, ?, ?, ?, ?, ?)",
            (json.dumps(opts), seed, status, len(log) + 5, len(log),
             json.dumps(game.dump(state)), channel, T0, T0 + len(log), T0, T0 + len(log),
             T0 + len(log) if status == "finished" else None),
        )
        game_id = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
        ids[key] = game_id
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(game_id, seat, 100 + seat, None, T0) for seat in range(3)])
        conn.executemany(
            "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
            " VALUES (?, ?, ?, ?, NULL, ?, ?)",
            [(game_id, i + 1, seat, code, T0 + i, json.dumps(old_form(json.loads(events))))
             for i, (seat, code, events) in enumerate(log)],
        )
    seed_schema_3(conn)  # the seats to act, the outcome and the results
    return ids


def stored_events(path: Path, game_id: int) -> list[list[dict[str, Any]]]:
    with sqlite3.connect(path) as conn:
        return [json.loads(text) for (text,) in conn.execute(
            "SELECT events FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]


def vp_events(log: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [e for events in log for e in events if e["type"] == "VpEarned"]


async def old_database(path: Path, clock: FakeClock) -> dict[str, int]:
    db = await Database.open(path, clock=clock, target_version=VP_SCHEMA - 1)
    await db.close()
    with sqlite3.connect(path) as conn:
        return seed_old_games(conn)


async def test_stored_vp_events_get_their_public_form(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "seven.db"
    ids = await old_database(path, clock)
    before = {key: stored_events(path, game_id) for key, game_id in ids.items()}
    for log in before.values():
        assert vp_events(log) and all(e["public_data"] is None for e in vp_events(log))
    # the old form is what verify rejects: the replay gives the public form now
    db = await Database.open(path, clock=clock, target_version=VP_SCHEMA - 1)
    try:
        report = await verify_database(db)
    finally:
        await db.close()
    assert {(p.game_id, p.kind) for p in report.problems} == {
        (game_id, "events_mismatch") for game_id in ids.values()}

    async with await Storage.open(path, clock=clock) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        report = await storage.verify()
        assert report.ok, report.problems
        # the games go on
        record = (await storage.games.load(ids["active"])).record
        move = choose("puerto-rico", (await storage.games.load(record.id)).state,
                      random.Random(0))
        assert move is not None
        await storage.games.play(record.id, *move, expected_version=record.version)
        assert (await storage.verify()).ok

    for key, game_id in ids.items():
        after = stored_events(path, game_id)[: len(before[key])]
        assert len(vp_events(after)) == len(vp_events(before[key]))
        for old, new in zip(before[key], after, strict=True):
            for o, n in zip(old, new, strict=True):
                if o["type"] != "VpEarned":
                    assert n == o
                    continue
                # the owner's form unchanged; everybody else: the amount and the reason
                assert {k: v for k, v in n.items() if k != "public_data"} == {
                    k: v for k, v in o.items() if k != "public_data"}
                assert n["public_data"] == {"amount": o["data"]["amount"],
                                            "reason": o["data"]["reason"]}


async def test_the_log_is_append_only_again_and_the_schema_is_a_new_files(
        tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "seven.db"
    ids = await old_database(path, clock)
    async with await Storage.open(path, clock=clock):
        pass
    fresh = tmp_path / "fresh.db"
    async with await Storage.open(fresh, clock=clock):
        pass
    assert user_version(path) == user_version(fresh) >= VP_SCHEMA
    assert schema_of(path) == schema_of(fresh)
    with sqlite3.connect(path) as conn, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE actions SET events = '[]' WHERE game_id = ?", (ids["active"],))
