"""Schema 13 (issue #33): San Juan's Councillor draws clockwise now, each seat drawing or passing
first (``councillor_draw: clockwise``).  The games a schema-12 bot stored were played with every
seat's cards drawn when the phase opened, and their options and snapshots do not say so: the
migration gives each the value it was played with (``Game.legacy_options``), so that their logs
replay as they were played, ``verify`` agrees, and the games go on with the rules they began with.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from engine.core import get_game
from engine.san_juan.save_v1 import CARDS as CARDS_THEN
from engine.san_juan.save_v1 import ROLES as ROLES_THEN
from storage import Database, Storage
from storage.migrate import LATEST_VERSION, migrations
from storage.verify import verify_database
from tests.storage.conftest import FakeClock
from tests.storage.helpers import choose
from tests.storage.test_migrations import T0, _played, seed_schema_3

SCHEMA = next(m.version for m in migrations() if m.name == "legacy_options")


def as_stored_before(data: dict[str, Any]) -> dict[str, Any]:
    """A snapshot as a schema-12 bot wrote it: no ``councillor_draw``, no ``waiting``, and the
    save format of its time (format 1: card kinds and roles as indices of the tables then,
    ``engine/san_juan/save_v1.py``; a hand as its sorted kinds)."""
    card = {name: i for i, name in enumerate(CARDS_THEN)}
    role = {name: i for i, name in enumerate(ROLES_THEN)}

    def kinds(names: list[str]) -> list[int]:
        return [card[name] for name in names]

    out = {k: v for k, v in data.items() if k != "waiting"}
    out["format"] = 1
    out["options"] = {k: v for k, v in data["options"].items() if k != "councillor_draw"}
    for key in ("pile", "discard", "gm_cards"):
        out[key] = kinds(data[key])
    out["role"] = -1 if data["role"] is None else role[data["role"]]
    out["b_kind"] = -1 if data["b_kind"] is None else card[data["b_kind"]]
    out["taken"] = [data["taken"].get(name, -1) for name in ROLES_THEN]
    out["players"] = [{
        "hand": sorted(card[name] for name, n in p["hand"].items() for _ in range(n)),
        "area": [kinds(stack) for stack in p["area"]],
        "goods": [-1 if g is None else card[g] for g in p["goods"]],
        "chapel": kinds(p["chapel"]),
        "drawn": kinds(p["drawn"]),
        "fresh": p["fresh"],
    } for p in data["players"]]
    return out


def seed_old_games(conn: sqlite3.Connection) -> dict[str, int]:
    """San Juan games as a schema-12 bot stored them (played with the draws of their time):
    one being played, one finished; and a lobby, whose options are not the engine's yet."""
    ids: dict[str, int] = {}
    game = get_game("san-juan")
    for channel, (key, seed, moves) in enumerate([("active", 6, 120), ("finished", 7, None)],
                                                 start=2):
        opts, state, log = _played("san-juan", {"players": 3, "councillor_draw": "at_once"},
                                   seed, moves)
        assert any(code == "r.councillor" for _, code, _ in log)
        status = "finished" if game.prompt(state) is None else "active"
        assert status == key
        old_options = {k: v for k, v in opts.items() if k != "councillor_draw"}
        conn.execute(
            "INSERT INTO games (game, options, seed, status, version, seq, snapshot, channel_id,"
            " guild_id, created_at, updated_at, started_at, last_action_at, finished_at)"
            " VALUES ('san-juan', ?, ?, ?, ?, ?, ?, ?, 9, ?, ?, ?, ?, ?)",
            (json.dumps(old_options), seed, status, len(log) + 5, len(log),
             json.dumps(as_stored_before(game.dump(state))), channel, T0, T0 + len(log), T0,
             T0 + len(log), T0 + len(log) if status == "finished" else None),
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
            [(game_id, i + 1, seat, code, T0 + i, events)
             for i, (seat, code, events) in enumerate(log)],
        )
    conn.execute(
        "INSERT INTO games (game, options, status, channel_id, creator_id, created_at,"
        " updated_at) VALUES ('san-juan', '{\"players\": 3}', 'lobby', 5, 1, ?, ?)", (T0, T0))
    ids["lobby"] = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
    seed_schema_3(conn)  # the seats to act, the outcome and the results
    return ids


def stored(path: Path, game_id: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    with sqlite3.connect(path) as conn:
        options, snapshot = conn.execute(
            "SELECT options, snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
    return json.loads(options), None if snapshot is None else json.loads(snapshot)


async def test_old_games_keep_the_councillor_draws_they_were_played_with(
        tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "twelve.db"
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    await db.close()
    with sqlite3.connect(path) as conn:
        ids = seed_old_games(conn)
    # before the migration, a replay deals the draws as new games do: the old logs break
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    try:
        report = await verify_database(db)
    finally:
        await db.close()
    assert {p.game_id for p in report.problems} == {ids["active"], ids["finished"]}

    async with await Storage.open(path, clock=clock) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        report = await storage.verify()
        assert report.ok, report.problems
        for key in ("active", "finished"):
            options, snapshot = stored(path, ids[key])
            assert options["councillor_draw"] == "at_once"
            assert snapshot is not None and snapshot["options"] == options
        # a lobby has not started: it will play the rules of its start
        assert stored(path, ids["lobby"])[0] == {"players": 3}
        # the active game goes on, with its draws dealt at the start of a Councillor phase
        rng = random.Random(0)
        game = get_game("san-juan")
        for _ in range(60):
            record = (await storage.games.load(ids["active"])).record
            state = (await storage.games.load(ids["active"])).state
            move = choose("san-juan", state, rng)
            if move is None:
                break
            if move[1] == "draw" and state.phase == 7:
                raise AssertionError("an old game's Councillor asks for the draw")
            await storage.games.play(record.id, *move, expected_version=record.version)
        assert game.load(stored(path, ids["active"])[1] or {}).options["councillor_draw"] == (
            "at_once")
        assert (await storage.verify()).ok


async def test_the_migration_leaves_new_games_alone(tmp_path: Path, clock: FakeClock) -> None:
    """A game stored with the option keeps it (``clockwise``): only missing options are
    filled."""
    path = tmp_path / "twelve.db"
    db = await Database.open(path, clock=clock, target_version=SCHEMA - 1)
    await db.close()
    opts, state, log = _played("san-juan", {"players": 2}, 3, 40)
    game = get_game("san-juan")
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO games (game, options, seed, status, version, seq, snapshot, channel_id,"
            " guild_id, created_at, updated_at, started_at, last_action_at)"
            " VALUES ('san-juan', ?, 3, 'active', ?, ?, ?, 2, 9, ?, ?, ?, ?)",
            (json.dumps(opts), len(log), len(log), json.dumps(game.dump(state)), T0, T0, T0, T0))
        game_id = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at)"
            " VALUES (?, ?, ?, NULL, ?)", [(game_id, seat, 100 + seat, T0) for seat in (0, 1)])
        conn.executemany(
            "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
            " VALUES (?, ?, ?, ?, NULL, ?, ?)",
            [(game_id, i + 1, seat, code, T0 + i, events)
             for i, (seat, code, events) in enumerate(log)])
        seed_schema_3(conn)
    before = stored(path, game_id)
    async with await Storage.open(path, clock=clock) as storage:
        assert (await storage.verify()).ok
    assert stored(path, game_id) == before and before[0]["councillor_draw"] == "clockwise"
