"""PostgreSQL, the storage for more than one process (``DATABASE_URL=postgresql://...``), through
asyncpg.

* Connection pools: one for statements and transactions, and one for the per-game locks of each
  purpose (a lock holds its connection while its holder works on the first pool, and a clock
  vote's lock holder takes a game's lock: a pool never waits on one that waits on it).
* Every write is one ``REPEATABLE READ`` transaction: it reads one snapshot of the database, and
  it cannot change a row another transaction changed since that snapshot: PostgreSQL aborts it
  (a serialization failure) and it runs again from the start on the new state, up to
  :data:`ATTEMPTS` times after a short random pause (its body only reads and writes the
  database, so running it again is safe).  A change of a game first locks the game's row
  (``FOR UPDATE``, storage/changes.py), so two writers of one game take turns, as SQLite's
  ``BEGIN IMMEDIATE`` makes every writer do; the rows several games share (a person's rating,
  their reminder cap, a seat's alerts) are written by ``UPDATE`` or ``INSERT ... ON CONFLICT``,
  so a concurrent change of them aborts and reruns one writer.  Writes to different games never
  wait for each other.  (``SERIALIZABLE`` was tried first: its predicate locks cover whole index
  pages, where many games' rows lie side by side, so moves of different games aborted each other
  under load, a dozen times in a row at times.)  Reads outside a transaction see the latest
  commit; :meth:`PostgresDatabase.snapshot_read` is one ``REPEATABLE READ`` read-only snapshot.
* The per-game lock (:meth:`PostgresDatabase.lock`) is a session advisory lock on
  ``(LOCK_SPACE + purpose, game_id)``: one holder among every process on the database,
  released when its holder leaves the block or its process dies (the connection closes).
* Migrations: ``storage/migrations/postgresql/``, the version in ``governor_schema``, applied
  under a transaction advisory lock so that processes starting at once apply each one once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.database import (
    LOCK_PURPOSES,
    Database,
    DatabaseBusy,
    LockPurpose,
    consume_exception,
)
from storage.errors import MigrationFailed, SchemaTooNew, StorageError
from storage.migrate import (
    BACKFILLS,
    LATEST_VERSION,
    POSTGRESQL_BASELINE,
    Migration,
    postgresql_migrations,
)
from storage.records import Clock, utc_now
from storage.sql import Dialect, Params, Row, Tx

log = logging.getLogger(__name__)

T = TypeVar("T")

CLOSE_TIMEOUT = 10.0
"""Seconds :meth:`PostgresDatabase.close` waits for the connections in use (a lock held, a
transaction running) before closing them anyway."""

ATTEMPTS = 12
"""How many times a write transaction is tried before :class:`DatabaseBusy`."""

LOCK_SPACE = 0x676F7600  # "gov": the first key of the games' advisory locks (+ purpose)
MIGRATION_LOCK = 0x676F76FF  # the migrations' transaction advisory lock

_RETRY = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
OUTAGES = (
    OSError,  # refused, reset, timed out: the server is down or out of reach
    asyncpg.PostgresConnectionError,  # the connection was lost or never made
    asyncpg.exceptions.AdminShutdownError,  # the server is stopping or restarting ...
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,  # ... or starting
)
"""What asyncpg raises when the server did not answer (:meth:`PostgresDatabase.is_outage`)."""
_STATUS_COUNT = re.compile(r"(\d+)$")


_FUNCTIONS = {  # SQLite's JSON functions the repositories use, and PostgreSQL's for them
    "json_group_array(": "json_agg(",  # (over no rows: '[]' in SQLite, NULL here)
    "json_group_object(": "json_object_agg(",  # ('{}', NULL)
    "json_array(": "json_build_array(",
}
_FUNCTION = re.compile("|".join(re.escape(name) for name in _FUNCTIONS))


@lru_cache(maxsize=1024)
def to_postgresql(sql: str) -> str:
    """``sql`` as PostgreSQL reads it: its ``?`` placeholders numbered (``$1``, ``$2``...; a
    ``?`` inside a quoted literal or name is left alone) and SQLite's JSON functions renamed."""
    sql = _FUNCTION.sub(lambda m: _FUNCTIONS[m[0]], sql)
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _count(status: str) -> int:
    """The rows a statement changed, from its command tag (``UPDATE 3``, ``INSERT 0 1``)."""
    match = _STATUS_COUNT.search(status)
    return int(match[1]) if match else 0


class PgTx(Tx):
    """Statements on one asyncpg connection (inside its transaction, when one is open)."""

    __slots__ = ("_conn", "_trace")

    dialect: Dialect = "postgresql"

    def __init__(self, conn: Any, trace: Callable[[str], object] | None = None) -> None:
        self._conn = conn
        self._trace = trace

    def _sql(self, sql: str) -> str:
        if self._trace is not None:
            self._trace(sql)
        return to_postgresql(sql)

    async def execute(self, sql: str, params: Params = ()) -> int:
        return _count(await self._conn.execute(self._sql(sql), *params))

    async def insert(self, sql: str, params: Params = ()) -> int:
        return int(await self._conn.fetchval(self._sql(sql) + " RETURNING id", *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._conn.executemany(self._sql(sql), batch)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.fetch(self._sql(sql), *params))


class PostgresDatabase(Database):
    """One PostgreSQL database.  Create with :meth:`connect`; close with :meth:`close`."""

    dialect: Dialect = "postgresql"
    integrity_errors = (asyncpg.IntegrityConstraintViolationError,)

    def __init__(self, pool: Any, locks: dict[LockPurpose, Any], dsn: str, clock: Clock
                 ) -> None:
        super().__init__(clock)
        self._pool = pool
        self._locks = locks
        self._dsn = dsn
        self._trace: Callable[[str], object] | None = None
        self._closed = False
        self.retries = 0
        """Write transactions run again after a conflict with another (for tests and figures)."""

    @property
    def url(self) -> str:
        parts = urlsplit(self._dsn)
        host = parts.hostname or ""
        netloc = (f"{parts.username}@" if parts.username else "") + host + (
            f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))

    def is_outage(self, exc: BaseException) -> bool:
        return isinstance(exc, OUTAGES)

    @classmethod
    async def connect(
        cls,
        dsn: str,
        *,
        clock: Clock = utc_now,
        target_version: int | None = None,
        pool_size: int = 10,
        lock_pool_size: int = 32,
        clock_lock_pool_size: int = 8,
    ) -> PostgresDatabase:
        """Connect to ``dsn`` and migrate it to the latest schema (or ``target_version``)."""
        target = LATEST_VERSION if target_version is None else target_version
        if target < POSTGRESQL_BASELINE:
            raise ValueError(f"PostgreSQL schemas start at {POSTGRESQL_BASELINE}, not {target}")
        try:
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size)
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(reason="cannot connect to PostgreSQL", detail=str(exc)) from exc
        locks: dict[LockPurpose, Any] = {}
        try:
            async with pool.acquire() as conn:
                await _migrate(conn, clock, target)
            sizes: dict[LockPurpose, int] = {"game": lock_pool_size,
                                             "clock": clock_lock_pool_size}
            for purpose in LOCK_PURPOSES:  # (connections opened only while locks are held)
                locks[purpose] = await asyncpg.create_pool(dsn, min_size=0,
                                                           max_size=sizes[purpose])
        except BaseException:
            for opened in locks.values():
                await opened.close()
            await pool.close()
            raise
        return cls(pool, locks, dsn, clock)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for pool in (*self._locks.values(), self._pool):
            try:  # waits for the connections in use to come back ...
                await asyncio.wait_for(pool.close(), CLOSE_TIMEOUT)
            except TimeoutError:  # ... a while, then closes them anyway
                log.warning("closing the database with work still running on it")
                pool.terminate()

    # --- transactions -------------------------------------------------------------------------

    async def write(self, body: Callable[[Tx], Awaitable[T]], *, in_thread: bool = False) -> T:
        task = asyncio.ensure_future(self._write(body))  # in_thread is SQLite's alone
        task.add_done_callback(consume_exception)
        return await self.answered(asyncio.shield(task))

    async def _write(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        pause = 0.002
        for attempt in range(1, ATTEMPTS + 1):
            try:
                async with self._pool.acquire() as conn, conn.transaction(
                        isolation="repeatable_read"):
                    return await body(PgTx(conn, self._trace))
            except _RETRY as exc:
                if attempt == ATTEMPTS:
                    raise DatabaseBusy(path=self.url, attempts=attempt) from exc
                self.retries += 1
                await asyncio.sleep(random.uniform(0, pause))
                pause = min(pause * 2, 0.2)
        raise AssertionError("unreachable")  # pragma: no cover

    async def snapshot_read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        return await self.answered(self._snapshot_read(body))

    async def _snapshot_read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._pool.acquire() as conn, conn.transaction(
                isolation="repeatable_read", readonly=True):
            return await body(PgTx(conn, self._trace))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self.answered(self._fetchall(sql, params))

    async def _fetchall(self, sql: str, params: Params) -> list[Row]:
        async with self._pool.acquire() as conn:
            return await PgTx(conn, self._trace).fetchall(sql, params)

    @asynccontextmanager
    async def lock(self, game_id: int, purpose: LockPurpose = "game") -> AsyncIterator[None]:
        space = LOCK_SPACE + LOCK_PURPOSES.index(purpose)
        async with self._local_lock(game_id, purpose), _Acquired(self, purpose) as conn:
            await self.answered(conn.execute("SELECT pg_advisory_lock($1, $2)", space, game_id))
            try:
                yield
            finally:
                try:
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", space, game_id)
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError,
                        asyncpg.exceptions.InternalClientError):
                    # The lock's connection was lost while held (PostgreSQL released the lock
                    # then): the changes made under it were still each checked on their own
                    # (serializable writes, the game's row locked), so nothing is at risk.
                    log.warning("game %s: the %s lock's connection was lost while held",
                                game_id, purpose, exc_info=True)

    # --- maintenance ----------------------------------------------------------------------------

    async def set_trace(self, callback: Callable[[str], object] | None) -> None:
        self._trace = callback

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await _version(conn)

    async def integrity_check(self) -> list[str]:
        """PostgreSQL keeps its own pages consistent (and checks them with data checksums when
        the cluster has them); this checks what the schema cannot say: every foreign key the
        migrations declare is validated, and no trigger is disabled."""
        rows = await self.fetchall(
            "SELECT conname FROM pg_constraint WHERE NOT convalidated"
            " UNION ALL SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
            " AND tgenabled = 'D'")
        return [f"not in force: {row[0]}" for row in rows]

    async def backup(self, target: Any) -> Path:
        raise StorageError(reason="a PostgreSQL database is backed up with pg_dump (README, "
                                  "'Running at scale'), not by the bot", target=str(target))


class _Acquired:
    """A connection of the lock pool of ``purpose`` for the ``async with`` of a lock: its
    acquisition reported to the database's availability (a server down is
    :class:`DatabaseUnavailable`), its release never raising (a connection lost meanwhile is
    dropped by the pool)."""

    def __init__(self, db: PostgresDatabase, purpose: LockPurpose) -> None:
        self._pool = db._locks[purpose]
        self._db = db
        self._conn: Any = None

    async def __aenter__(self) -> Any:
        self._conn = await self._db.answered(self._pool.acquire())
        return self._conn

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self._pool.release(self._conn)
        except (*OUTAGES, asyncpg.InterfaceError):
            log.debug("a lock connection lost while held was dropped", exc_info=True)


# --- migrations -------------------------------------------------------------------------------


async def _version(conn: Any) -> int:
    # The catalog itself, not to_regclass: a connection that looked before another created the
    # table keeps "no such table" in its cache even after waiting for the migration lock.
    exists = await conn.fetchval(
        "SELECT EXISTS (SELECT FROM pg_catalog.pg_class WHERE relname = 'governor_schema'"
        " AND relnamespace = current_schema()::regnamespace)")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT version FROM governor_schema"))


async def _migrate(conn: Any, clock: Clock, target: int) -> int:
    """Bring the database to ``target``: each migration in its own transaction, under a
    transaction advisory lock (another process starting at once waits, then finds it done)."""
    current = await _version(conn)
    if current > LATEST_VERSION:
        raise SchemaTooNew(current, LATEST_VERSION)
    for migration in postgresql_migrations():
        if migration.version <= current or migration.version > target:
            continue
        await _apply(conn, clock, migration)
        current = migration.version
    return current


async def _apply(conn: Any, clock: Clock, migration: Migration) -> None:
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            if await _version(conn) >= migration.version:
                return  # another process applied it while we waited
            await conn.execute(migration.statements[0])
            backfill = BACKFILLS.get(migration.version)
            if backfill is not None and migration.version > POSTGRESQL_BASELINE:
                await backfill(PgTx(conn), clock)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS governor_schema (version INTEGER NOT NULL);"
                "DELETE FROM governor_schema;")
            await conn.execute("INSERT INTO governor_schema (version) VALUES ($1)",
                               migration.version)
    except (asyncpg.PostgresError, ValueError) as exc:
        raise MigrationFailed(migration.version, exc) from exc
    log.info("PostgreSQL database migrated to schema %d (%s)", migration.version, migration.name)
