"""Numbered schema migrations tracked by ``PRAGMA user_version`` (SQLite; PostgreSQL keeps its
version in a table, :mod:`storage.postgres`, and starts at :data:`POSTGRESQL_BASELINE`).

Migration ``N`` is the file ``storage/migrations/NNNN_name.sql``, optionally followed by a Python
back-fill step registered in :data:`BACKFILLS`.  Each migration runs in its own
``BEGIN IMMEDIATE`` transaction together with ``PRAGMA user_version = N``: a crash leaves the file
at ``N - 1`` or ``N``, never in between, and two processes starting at once do not both apply
it.  Foreign keys are off while migrating (a table rebuild needs that) and
``PRAGMA foreign_key_check`` must pass before the commit.  A database from a newer schema is
refused (:class:`SchemaTooNew`); we never downgrade.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import aiosqlite

from storage.bridge import (
    INSERT_RESULT,
    engine_game,
    load_state,
    parse_json_object,
    result_rows,
    snapshot_of,
)
from storage.choices import rebuild_choices
from storage.errors import CorruptGame, MigrationFailed, SchemaTooNew
from storage.handovers import backfill_handovers
from storage.ratings import rebuild
from storage.records import Clock, dumps, to_ms
from storage.sql import AioTx, Tx

log = logging.getLogger(__name__)

Backfill = Callable[[Tx, Clock], Awaitable[None]]

_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(script: str) -> list[str]:
    """Split an SQL script into complete statements (triggers' inner ``;`` included)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    rest = [ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if rest:
        raise ValueError(f"incomplete SQL statement at the end: {rest[0]!r}")
    return statements


@cache
def migrations() -> tuple[Migration, ...]:
    """Every SQLite migration shipped with the package, in order; numbers must be 1, 2, 3..."""
    found: list[Migration] = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _FILE.match(entry.name)
        if match:
            script = entry.read_text(encoding="utf-8")
            found.append(Migration(int(match[1]), match[2], tuple(split_statements(script))))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must be 1..n without gaps, found {numbers}")
    return tuple(found)


LATEST_VERSION = len(migrations())

POSTGRESQL_BASELINE = 12
"""PostgreSQL came with schema 12: its first migration, ``postgresql/0012_baseline.sql``, creates
that schema whole.  Every later schema is a pair of files, ``NNNN_name.sql`` for SQLite and
``postgresql/NNNN_name.sql``, with one Python back-fill (it gets a :class:`Tx` of either
backend), so that a schema number means the same tables on both."""


@cache
def postgresql_migrations() -> tuple[Migration, ...]:
    """The PostgreSQL migrations, in order: the baseline, then one for each later schema.  Each
    is one script (run as one in its transaction: PL/pgSQL bodies hold ``;``)."""
    found: list[Migration] = []
    for entry in resources.files("storage.migrations").joinpath("postgresql").iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2],
                                   (entry.read_text(encoding="utf-8"),)))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if numbers != list(range(POSTGRESQL_BASELINE, LATEST_VERSION + 1)):
        raise RuntimeError(f"PostgreSQL migrations must be {POSTGRESQL_BASELINE}..{LATEST_VERSION}"
                           f" without gaps, found {numbers}")
    return tuple(found)


async def migrate(conn: aiosqlite.Connection, clock: Clock, *, target: int = LATEST_VERSION) -> int:
    """Bring the database to ``target`` (default: the latest schema); returns the version."""
    current = await _user_version(conn)
    if current > LATEST_VERSION:
        raise SchemaTooNew(current, LATEST_VERSION)
    for migration in migrations():
        if migration.version <= current or migration.version > target:
            continue
        await _apply(conn, clock, migration)
        current = migration.version
    return current


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def _apply(conn: aiosqlite.Connection, clock: Clock, migration: Migration) -> None:
    await conn.execute("PRAGMA foreign_keys = OFF")
    await conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have applied it while we waited for the write lock.
        if await _user_version(conn) >= migration.version:
            await conn.execute("COMMIT")
            return
        for statement in migration.statements:
            await conn.execute(statement)
        backfill = BACKFILLS.get(migration.version)
        if backfill is not None:
            await backfill(AioTx(conn), clock)
        problems = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        if problems:
            raise RuntimeError(f"foreign_key_check failed: {[tuple(p) for p in problems[:5]]}")
        await conn.execute(f"PRAGMA user_version = {migration.version}")
        await conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        if isinstance(exc, Exception):
            raise MigrationFailed(migration.version, exc) from exc
        raise
    log.info("database migrated to schema %d (%s)", migration.version, migration.name)


# --- Python back-fill steps ----------------------------------------------------------------------


async def _backfill_turns_results(tx: Tx, clock: Clock) -> None:
    """Schema 3: mark the seats the prompt names in active games, and store the outcome and
    results of finished games, both read from the snapshots.  A game the engine cannot load is
    left as it is (``python -m storage verify`` reports it); the migration does not fail for it."""
    now = to_ms(clock())
    rows = await tx.fetchall(
        "SELECT id, game, status, snapshot, updated_at FROM games "
        "WHERE status IN ('active', 'finished') AND snapshot IS NOT NULL"
    )
    for row in rows:
        game_id = int(row["id"])
        try:
            game = engine_game(game_id, row["game"])
            state, _ = load_state(game_id, game, row["snapshot"])
            snap = snapshot_of(game, state)
        except CorruptGame as exc:
            log.warning("schema 3 back-fill skips game %d: %s", game_id, exc)
            continue
        if row["status"] == "active":
            for seat in snap.to_act:
                await tx.execute(
                    "UPDATE seats SET waiting_since = ? WHERE game_id = ? AND seat = ?",
                    (row["updated_at"] or now, game_id, seat),
                )
        elif snap.outcome is not None:
            await tx.execute(
                "UPDATE games SET outcome = ? WHERE id = ?", (dumps(snap.outcome), game_id)
            )
            seats = {
                int(s["seat"]): (s["user_id"], s["ai_policy"])
                for s in await tx.fetchall(
                    "SELECT seat, user_id, ai_policy FROM seats WHERE game_id = ?", (game_id,)
                )
            }
            await tx.executemany(INSERT_RESULT, result_rows(game_id, snap.outcome, seats))


async def _backfill_vp_public(tx: Tx, clock: Clock) -> None:
    """Schema 8: stored ``VpEarned`` events get their public form ``{"amount", "reason"}`` (VP
    amounts are public, totals hidden: the ruling beside ``gain_vp`` in
    engine/puerto_rico/ops.py), as the engine writes them now, so the log shows them and
    ``verify`` agrees with a replay.  Then the log's append-only trigger, lifted by
    0008_vp_public.sql for this rewrite, is put back as 0001 made it.

    The events are found by their shape alone (a private ``VpEarned`` without a public form),
    whatever the game: a database older than schema 8 predates every other game (San Juan and
    1897 came after it), and no engine writes that shape now, so it names no game."""
    rows = await tx.fetchall(
        "SELECT game_id, seq, events FROM actions WHERE events LIKE '%\"VpEarned\"%'"
    )
    for row in rows:
        try:
            events = json.loads(row["events"])
        except ValueError:
            continue  # left as it is: verify reports it
        changed = False
        for event in events if isinstance(events, list) else ():
            if (isinstance(event, dict) and event.get("type") == "VpEarned"
                    and event.get("private_to") is not None and event.get("public_data") is None
                    and isinstance(event.get("data"), dict)):
                data = event["data"]
                event["public_data"] = {"amount": data.get("amount"), "reason": data.get("reason")}
                changed = True
        if changed:
            await tx.execute("UPDATE actions SET events = ? WHERE game_id = ? AND seq = ?",
                             (dumps(events), row["game_id"], row["seq"]))
    [trigger] = [s for s in migrations()[0].statements
                 if "CREATE TRIGGER actions_append_only" in s]
    await tx.execute(trigger)


async def _backfill_ratings(tx: Tx, clock: Clock) -> None:
    """Rate every game finished before ratings existed, in the order they finished."""
    await rebuild(tx)


async def _backfill_choices(tx: Tx, clock: Clock) -> None:
    """Count the favourites of every game finished before they were counted."""
    await rebuild_choices(tx)


async def backfill_legacy_options(tx: Tx, clock: Clock) -> None:
    """Every started game gets, for each of its engine's ``legacy_options`` it lacks, the value
    it was played with (an option added when a rule changed: the game was stored before), in its
    options and in its snapshot (the engine's ``load`` fills them; the snapshot is written as
    the engine dumps it now), so that its log replays as it was played and ``verify`` agrees.
    A game the engine cannot load keeps its snapshot (``python -m storage verify`` reports it).
    Generic: each engine says what its options were; this step names no game."""
    rows = await tx.fetchall(
        "SELECT id, game, options, snapshot FROM games WHERE status <> 'lobby'")
    for row in rows:
        game_id = int(row["id"])
        try:
            game = engine_game(game_id, row["game"])
            options = parse_json_object(game_id, row["options"], "options")
        except CorruptGame as exc:
            log.warning("schema 13 back-fill skips game %d: %s", game_id, exc)
            continue
        missing = {k: v for k, v in game.legacy_options.items() if k not in options}
        if not missing:
            continue
        snapshot = row["snapshot"]
        if snapshot is not None:
            try:
                snapshot = snapshot_of(game, load_state(game_id, game, snapshot)[0]).text
            except CorruptGame as exc:
                log.warning("schema 13 back-fill keeps game %d's snapshot: %s", game_id, exc)
        await tx.execute("UPDATE games SET options = ?, snapshot = ? WHERE id = ?",
                         (dumps({**options, **missing}), snapshot, game_id))


async def backfill_save_format(tx: Tx, clock: Clock) -> None:
    """Every stored snapshot is written again as its engine dumps it now (schema 14: saves by
    name, issue #34): the engine's ``load`` reads the format it was stored in, its ``dump`` writes
    today's, so that what is stored no longer depends on a table's order and ``verify`` agrees
    with a replay.  A snapshot the engine cannot load is kept as it is (``python -m storage
    verify`` reports it).  Generic: this step names no game and no format."""
    last = 0
    while rows := await tx.fetchall(
            "SELECT id, game, snapshot FROM games WHERE snapshot IS NOT NULL AND id > ?"
            " ORDER BY id LIMIT 500", (last,)):  # a page at a time: bounded memory
        for row in rows:
            last = game_id = int(row["id"])
            try:
                game = engine_game(game_id, row["game"])
                state, _ = load_state(game_id, game, row["snapshot"])
            except CorruptGame as exc:
                log.warning("schema 14 back-fill keeps game %d's snapshot: %s", game_id, exc)
                continue
            snapshot = dumps(game.dump(state))
            if snapshot != row["snapshot"]:
                await tx.execute("UPDATE games SET snapshot = ? WHERE id = ?",
                                 (snapshot, game_id))


BACKFILLS: dict[int, Backfill] = {
    3: _backfill_turns_results, 7: backfill_handovers, 8: _backfill_vp_public,
    11: _backfill_ratings, 12: _backfill_choices, 13: backfill_legacy_options,
    14: backfill_save_format}

__all__ = [
    "BACKFILLS",
    "LATEST_VERSION",
    "POSTGRESQL_BASELINE",
    "Migration",
    "backfill_legacy_options",
    "backfill_save_format",
    "migrate",
    "migrations",
    "postgresql_migrations",
    "split_statements",
]
