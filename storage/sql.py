"""A thin typed layer over an aiosqlite connection used inside one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

Params = Sequence[Any] | dict[str, Any]
Row = sqlite3.Row


class Tx:
    """Statements inside one transaction (or one locked read); only valid inside its callback."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT; returns the new rowid."""
        cursor = await self._conn.execute(sql, params)
        rowid = cursor.lastrowid
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise RuntimeError("no rowid after INSERT")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        for row in await self._conn.execute_fetchall(sql, params):
            return row
        return None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]


class ThreadTx(Tx):
    """The same statements run directly on the ``sqlite3`` connection, in the database's own
    thread (:meth:`storage.database.Database.write` with ``in_thread``): a transaction whose
    body awaits nothing but its statements runs there whole, one hand-over from the event loop
    instead of one per statement."""

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
