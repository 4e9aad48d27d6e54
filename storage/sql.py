"""The statements of one transaction, whatever the database: :class:`Tx`.

Repositories write one SQL text for both backends: ``?`` placeholders, standard SQL, and the few
constructs SQLite and PostgreSQL both read the same way (``ON CONFLICT ... DO UPDATE``,
``IS DISTINCT FROM``, ``CAST(? AS TEXT)`` where a parameter's type must be said).  Where the two
really differ (JSON aggregation), :attr:`Tx.dialect` names the backend and the repository picks
its text.  The PostgreSQL transaction (:mod:`storage.postgres`) turns ``?`` into ``$n``.
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal, Protocol

import aiosqlite

Params = Sequence[Any]
Dialect = Literal["sqlite", "postgresql"]


class Row(Protocol):
    """A result row: by column position or by name (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> Any: ...


class Tx(ABC):
    """Statements inside one transaction (or one consistent read); only valid inside its
    callback."""

    __slots__ = ()

    dialect: Dialect = "sqlite"

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT into a table with an ``id`` key; returns the new row's ``id``."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each of ``rows``."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query."""

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]


class AioTx(Tx):
    """SQLite through the aiosqlite connection: each statement is one hand-over to its thread."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        rowid = cursor.lastrowid
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise RuntimeError("no rowid after INSERT")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))


class ThreadTx(Tx):
    """The same statements run directly on the ``sqlite3`` connection, in the database's own
    thread (:meth:`storage.database.SqliteDatabase.write` with ``in_thread``): a transaction
    whose body awaits nothing but its statements runs there whole, one hand-over from the event
    loop instead of one per statement."""

    __slots__ = ("_raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    async def execute(self, sql: str, params: Params = ()) -> int:
        return self._raw.execute(sql, params).rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        rowid = self._raw.execute(sql, params).lastrowid
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise RuntimeError("no rowid after INSERT")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._raw.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(self._raw.execute(sql, params).fetchall())

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = self._raw.execute(sql, params).fetchone()
        return row
