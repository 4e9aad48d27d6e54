"""The database contract (:class:`Database`) and its default backend, SQLite
(:class:`SqliteDatabase`): one long-lived aiosqlite connection per process.  PostgreSQL is
:mod:`storage.postgres`.

* WAL journal (readers never block the writer), ``synchronous=FULL`` (a commit that returned is on
  disk: it survives a killed process and a power cut), foreign keys on, a busy timeout so that two
  processes on one file wait for each other instead of failing.
* Every write runs as one ``BEGIN IMMEDIATE`` transaction through :meth:`SqliteDatabase.write`.
  The write lock is taken at ``BEGIN``, so a transaction never fails half-way because another
  writer came first.  The hot one, a move (``GameRepository.commit_action``), runs whole in the
  connection's thread (``in_thread``): one hand-over from the event loop instead of one per
  statement.
* One connection is shared by every coroutine of the process, so every use of it is serialized by an
  ``asyncio.Lock`` (otherwise a reader could see another coroutine's uncommitted writes).  A write
  transaction runs in its own shielded task: cancelling the caller (an interaction timing out, the
  bot shutting down) never leaves a transaction half-done; it commits or rolls back as a whole.
* Migrations (numbered SQL files, ``PRAGMA user_version``) run at :meth:`Database.open`.
* The per-game lock (:meth:`Database.lock`) is the process's own: SQLite serves one process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.errors import StorageError
from storage.migrate import LATEST_VERSION, migrate
from storage.records import Clock, to_ms, utc_now
from storage.sql import AioTx, Dialect, Params, Row, ThreadTx, Tx

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_BUSY_TIMEOUT_MS = 10_000

SQLITE_OUTAGES = ("disk I/O error", "unable to open database", "database or disk is full")
"""The words of SQLite's errors that say its file is out of reach, not that a statement is
wrong (:meth:`SqliteDatabase.is_outage`)."""

LockPurpose = Literal["game", "clock"]
LOCK_PURPOSES: tuple[LockPurpose, ...] = ("game", "clock")
"""What a game is locked for (:meth:`Database.lock`): a change of the game, a clock vote."""


class DatabaseBusy(StorageError):
    """Another process held the write lock for longer than the busy timeout."""

    code = "database_busy"


class DatabaseUnavailable(StorageError):
    """The database did not answer: PostgreSQL down, restarting or out of reach, SQLite's file
    unreadable (an I/O error, a full disk).  Nothing was done; the same call works again once
    the database is back (:class:`Availability` says when)."""

    code = "database_unavailable"


class Availability:
    """Whether the database answered its last statement, and who wants to know when it comes
    back.  Every use of the database reports here (:meth:`Database.answered`): a failure of
    the kinds its backend names as outages marks it down, the next success up again, which
    calls each of :attr:`listeners` once with the outage's length in seconds.  It logs
    nothing: the bot says it once for each change (``bot/outage.py``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.down_since: float | None = None
        self.cause: BaseException | None = None
        """The failure that marked it down."""
        self.listeners: list[Callable[[float], object]] = []
        """Called when the database answers again after an outage."""
        self.losers: list[Callable[[BaseException], object]] = []
        """Called when an outage begins (the first failure after a success)."""

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def lost(self, exc: BaseException) -> None:
        if self.down_since is not None:
            return
        self.down_since, self.cause = self.clock(), exc
        for listener in list(self.losers):
            listener(exc)

    def answered(self) -> None:
        if self.down_since is None:
            return
        seconds, self.down_since, self.cause = self.clock() - self.down_since, None, None
        for listener in list(self.listeners):
            listener(seconds)


class Database(ABC):
    """The storage's database, SQLite (:class:`SqliteDatabase`, the default) or PostgreSQL
    (:class:`storage.postgres.PostgresDatabase`): one contract, the repositories' only way in.

    :meth:`open` picks the backend from a URL (``sqlite:///governor.db``,
    ``postgresql://user@host/db``) or takes a plain path as an SQLite file."""

    dialect: Dialect
    integrity_errors: tuple[type[Exception], ...]
    """What the driver raises when a statement breaks a constraint."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.availability = Availability()
        self._game_locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = (
            weakref.WeakValueDictionary())

    @staticmethod
    async def open(
        target: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        synchronous: str = "FULL",
        target_version: int | None = None,
    ) -> Database:
        """Open the database ``target`` names and migrate it to the latest schema (or
        ``target_version``, for tests of old schemas)."""
        backend, location = parse_url(target)
        if backend == "postgresql":
            from storage.postgres import PostgresDatabase  # noqa: PLC0415 - asyncpg on demand

            return await PostgresDatabase.connect(location, clock=clock,
                                                  target_version=target_version)
        return await SqliteDatabase.open_file(
            location, clock=clock, busy_timeout_ms=busy_timeout_ms, synchronous=synchronous,
            target_version=target_version)

    @property
    @abstractmethod
    def url(self) -> str:
        """Where the database is (a PostgreSQL URL never shows its password)."""

    def is_outage(self, exc: BaseException) -> bool:
        """Whether ``exc``, raised by the driver, says that the database did not answer (as
        opposed to a statement it refused)."""
        return False

    async def answered(self, work: Awaitable[T]) -> T:
        """``await work`` (a use of the database), reported to :attr:`availability`; a failure
        that :meth:`is_outage` becomes :class:`DatabaseUnavailable`."""
        try:
            result = await work
        except Exception as exc:
            if not self.is_outage(exc):
                raise
            self.availability.lost(exc)
            raise DatabaseUnavailable(url=self.url, cause=f"{type(exc).__name__}: {exc}"[:200]
                                      ) from exc
        self.availability.answered()
        return result

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def now_ms(self) -> int:
        return to_ms(self.clock())

    @abstractmethod
    async def write(self, body: Callable[[Tx], Awaitable[T]], *, in_thread: bool = False) -> T:
        """Run ``body`` inside one write transaction: committed when it returns, rolled back
        when it raises; it runs to the end even if the caller is cancelled.  Two writes of one
        game (its row read with ``storage.changes.fetch_row``) or of one row never interleave:
        on SQLite every write runs alone; on PostgreSQL the second one runs again on the new
        state (:mod:`storage.postgres`), so ``body`` must do nothing but its statements and
        computations on what they return."""

    @abstractmethod
    async def snapshot_read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body`` in one read transaction: every statement sees the same database
        state."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    @asynccontextmanager
    async def lock(self, game_id: int, purpose: LockPurpose = "game") -> AsyncIterator[None]:
        """Hold game ``game_id`` alone for ``purpose``: one holder at a time in this process
        (and, on PostgreSQL, among every process on the database).  Not reentrant; locks of
        different purposes are independent (a clock vote's work takes the game's lock inside
        its own)."""
        async with self._local_lock(game_id, purpose):
            yield

    def _local_lock(self, game_id: int, purpose: LockPurpose) -> asyncio.Lock:
        key = (LOCK_PURPOSES.index(purpose), game_id)
        lock = self._game_locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._game_locks[key] = lock
        return lock

    @abstractmethod
    async def set_trace(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback`` with the text of every statement run (``None`` stops); for
        debugging and for the tests that count statements."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def integrity_check(self) -> list[str]:
        """The database's own consistency check: an empty list when it is sound."""

    @abstractmethod
    async def backup(self, target: str | os.PathLike[str]) -> Path:
        """A consistent copy of the database at ``target``."""


def redacted(target: str | os.PathLike[str]) -> str:
    """``target`` fit for a log line: a URL's password replaced by ``***``."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", os.fspath(target))


def parse_url(target: str | os.PathLike[str]) -> tuple[Dialect, str]:
    """``(backend, location)`` of a ``DATABASE_URL``: ``sqlite:///path`` (or a plain path) gives
    the file's path; ``postgresql://...`` (or ``postgres://``) the URL itself."""
    text = os.fspath(target)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql", text
    if text.startswith("sqlite://"):
        path = text.removeprefix("sqlite://")
        if not path.startswith("/") or path == "/":
            raise ValueError(f"an SQLite URL is sqlite:///relative/path or sqlite:////absolute, "
                             f"not {text!r}")
        return "sqlite", path[1:]
    if "://" in text:
        raise ValueError(f"unknown database URL scheme in {text.split('://')[0]!r}: "
                         f"use sqlite:///FILE or postgresql://USER@HOST/DB")
    return "sqlite", text


class SqliteDatabase(Database):
    """One open SQLite database file.  Create with :meth:`open`; close with :meth:`close`."""

    dialect: Dialect = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        super().__init__(clock)
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    @property
    def url(self) -> str:
        return f"sqlite:///{self.path}"

    def is_outage(self, exc: BaseException) -> bool:
        """The file cannot be read or written (SQLite's I/O error, a full disk, the file gone
        or out of reach); a busy database is :class:`DatabaseBusy`, a bad statement a bug."""
        return isinstance(exc, sqlite3.OperationalError) and any(
            words in str(exc) for words in SQLITE_OUTAGES)

    @classmethod
    async def open_file(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        synchronous: str = "FULL",
        target_version: int | None = None,
    ) -> SqliteDatabase:
        """Open (creating if needed) and migrate to the latest schema (or ``target_version``,
        for tests of old schemas)."""
        db_path = Path(path)
        conn = await aiosqlite.connect(
            str(db_path), isolation_level=None, timeout=busy_timeout_ms / 1000
        )
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            mode = await _wal(conn, busy_timeout_ms)
            if str(mode).lower() != "wal":
                log.warning("journal_mode is %s, not wal (%s)", mode, db_path)
            if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
                raise ValueError(f"bad synchronous mode {synchronous!r}")
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            # Truncate the WAL back to 32 MiB after a checkpoint instead of keeping its peak size.
            await conn.execute("PRAGMA journal_size_limit = 33554432")
            await _check_json1(conn)
            await migrate(conn, clock, target=LATEST_VERSION if target_version is None
                          else target_version)
            await conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, db_path, clock)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            try:
                await self._conn.execute("PRAGMA optimize")
            except sqlite3.Error:  # pragma: no cover - optimize is advisory
                log.debug("PRAGMA optimize failed", exc_info=True)
            await self._conn.close()

    # --- transactions -------------------------------------------------------------------------

    async def write(self, body: Callable[[Tx], Awaitable[T]], *, in_thread: bool = False) -> T:
        """Run ``body`` inside one ``BEGIN IMMEDIATE`` transaction: committed when it returns,
        rolled back when it raises.  Runs to the end even if the caller is cancelled.

        ``in_thread``: the whole transaction (its begin, ``body``, its commit) runs in the
        connection's thread as one call, its statements straight on the ``sqlite3``
        connection (:class:`~storage.sql.ThreadTx`): one hand-over between the event loop and
        that thread instead of one per statement (each wakes the other thread, measured in
        docs/testing.md; the hot path of a move, ``GameRepository.commit_action``, has six).
        ``body`` must then await nothing but its statements (and coroutines that do the same);
        anything else is a RuntimeError and nothing is written."""
        work = self._write_in_thread(body) if in_thread else self._write(body)
        task = asyncio.ensure_future(work)
        task.add_done_callback(consume_exception)
        return await self.answered(asyncio.shield(task))

    async def _write_in_thread(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._lock:
            run: Callable[..., Awaitable[T]] = self._conn._execute  # aiosqlite private, >= 0.20
            return await run(self._transaction, body)

    def _transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """``write(body, in_thread=True)`` in the connection's thread (aiosqlite's ``_execute``
        runs it there, between the other statements of the connection)."""
        raw = self._conn._conn  # the sqlite3 connection (aiosqlite private, >= 0.20)
        try:
            raw.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise DatabaseBusy(path=str(self.path)) from exc
            raise
        try:
            result = _drive(body(ThreadTx(raw)))
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        return result

    async def _write(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise DatabaseBusy(path=str(self.path)) from exc
                raise
            try:
                result = await body(AioTx(self._conn))
                await self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                raise
            return result

    async def snapshot_read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body`` in one read transaction: every statement sees the same database state."""
        return await self.answered(self._snapshot_read(body))

    async def _snapshot_read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._lock:
            await self._conn.execute("BEGIN")
            try:
                return await body(AioTx(self._conn))
            finally:
                if self._conn.in_transaction:
                    await self._conn.execute("COMMIT")

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self.answered(self._fetchall(sql, params))

    async def _fetchall(self, sql: str, params: Params) -> list[Row]:
        async with self._lock:
            return list(await self._conn.execute_fetchall(sql, params))

    # --- maintenance ----------------------------------------------------------------------------

    async def set_trace(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback`` with the text of every statement run (``None`` stops); for
        debugging and for the tests that check query plans."""
        # sqlite3 takes None to stop tracing; aiosqlite's annotation leaves None out.
        await self._conn.set_trace_callback(callback)  # type: ignore[arg-type]

    async def schema_version(self) -> int:
        return int(await self.scalar("PRAGMA user_version"))

    async def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: an empty list when the file is sound."""
        rows = await self.fetchall("PRAGMA integrity_check")
        messages = [str(r[0]) for r in rows]
        return [] if messages == ["ok"] else messages

    async def backup(self, target: str | os.PathLike[str]) -> Path:
        """A consistent copy of the database at ``target`` (see :func:`backup_file`), made on a
        separate connection in a worker thread so the bot keeps running meanwhile."""
        return await asyncio.to_thread(backup_file, self.path, Path(target))


def backup_file(source: Path, target: Path) -> Path:
    """Copy ``source`` to ``target`` with SQLite's online backup API.

    The copy is taken in one step, i.e. inside one read transaction: it is the database as of one
    commit, while writers go on (WAL).  It is written to a temporary file, checked with
    ``integrity_check`` and then renamed over ``target``, so ``target`` is never half-written."""
    target = Path(target)
    tmp = target.with_name(target.name + ".partial")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        leftover.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=DEFAULT_BUSY_TIMEOUT_MS / 1000)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode = DELETE")
            result = [r[0] for r in dst.execute("PRAGMA integrity_check")]
            if result != ["ok"]:
                raise StorageError(reason="backup failed integrity_check", detail=result[:5])
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(tmp, target)
    return target


def _drive(work: Awaitable[T]) -> T:
    """Run a coroutine that never suspends (its awaits all finish at once) to its result."""
    coro = work.__await__()
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a write run in the database thread awaited something else than its "
                       "statements")


def consume_exception(task: asyncio.Future[Any]) -> None:
    """A shielded write whose caller was cancelled: nobody awaits it; keep asyncio quiet (the
    transaction was rolled back and the caller already got CancelledError)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("write finished after its caller was cancelled", exc_info=task.exception())


async def _scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0] if rows else None


async def _wal(conn: aiosqlite.Connection, busy_timeout_ms: int) -> Any:
    """``PRAGMA journal_mode = WAL``, tried again while the file is locked, up to the busy
    timeout.  Converting a new file reads it and then writes it; when another process writes it
    meanwhile (several processes starting at once), SQLite answers "database is locked" at once,
    without waiting the busy timeout (the reader would deadlock with the writer)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + busy_timeout_ms / 1000
    pause = 0.001
    while True:
        try:
            return await _scalar(conn, "PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:
            if not ("locked" in str(exc) or "busy" in str(exc)) or loop.time() >= deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.05)


async def _check_json1(conn: aiosqlite.Connection) -> None:
    try:
        await _scalar(conn, "SELECT json_array(1)")
    except sqlite3.OperationalError as exc:  # pragma: no cover - SQLite >= 3.38 has JSON built in
        raise StorageError(reason="SQLite without JSON functions", version=sqlite3.sqlite_version
                           ) from exc
