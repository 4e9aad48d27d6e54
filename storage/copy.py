"""Copy a whole database to another, of either backend, and prove the copy: moving a community's
SQLite file to PostgreSQL (``python -m storage copy governor.db postgresql://...``).

The source is read in one snapshot (the bot may keep running on it; what it writes after the
snapshot is not in the copy, so stop it first to move for good), a page at a time.  The target
must be empty, at the same schema; every row is written in one transaction, in the order of the
foreign keys, so a failed copy leaves the target empty.  Then the target is read again, table by
table in the order of each table's key, and compared with what was read: the row counts and a
SHA-256 of every row's values must be equal, or the copy is reported as failed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from storage.database import Database
from storage.errors import StorageError
from storage.sql import Row, Tx

TABLES: tuple[tuple[str, str], ...] = (
    ("games", "id"),
    ("seats", "game_id, seat"),
    ("actions", "game_id, seq"),
    ("game_messages", "game_id, kind"),
    ("user_settings", "user_id"),
    ("guild_settings", "guild_id"),
    ("results", "game_id, seat"),
    ("game_timers", "game_id"),
    ("seat_alerts", "game_id, seat, kind"),
    ("clock_votes", "id"),
    ("clock_ballots", "vote_id, user_id"),
    ("undone_actions", "game_id, seq"),
    ("game_publications", "game_id"),
    ("seat_handovers", "id"),
    ("ratings", "guild_id, game, user_id"),
    ("rating_changes", "game_id, user_id"),
    ("choices", "game_id, user_id, kind, name"),
    ("game_pauses", "game_id, since_at"),
    ("pause_asks", "game_id, user_id"),
    ("absences", "user_id, since_at"),
    ("game_mutes", "user_id, game_id"),
    ("turn_messages", "game_id, seat, waiting_since, message_id"),
    ("follows", "game_id, user_id"),
)
"""Every table of the schema with its key, parents before children."""

IDENTITY_TABLES = ("games", "clock_votes", "seat_handovers")
"""Tables whose ``id`` PostgreSQL numbers itself: its counter moves past the copied ids."""

PAGE = 2000


class CopyFailed(StorageError):
    """The copy could not be made or does not equal its source."""

    code = "copy_failed"


@dataclass
class TableCopy:
    name: str
    rows: int
    digest: str


@dataclass
class CopyReport:
    tables: list[TableCopy] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows,
                "tables": {t.name: {"rows": t.rows, "sha256": t.digest} for t in self.tables}}


async def _pages(tx: Tx, table: str, key: str) -> AsyncIterator[list[Row]]:
    """The table's rows in key order, a page at a time (memory stays small; each page starts
    after the last key of the one before, found in the key's index)."""
    columns = [c.strip() for c in key.split(",")]
    after: list[Any] | None = None
    while True:
        where = "" if after is None else f" WHERE ({key}) > ({', '.join('?' for _ in columns)})"
        page = await tx.fetchall(
            f"SELECT * FROM {table}{where} ORDER BY {key} LIMIT {PAGE}", after or ())
        if page:
            yield page
        if len(page) < PAGE:
            return
        after = [page[-1][c] for c in columns]


class _Digest:
    """A table's row count and the SHA-256 of its rows in key order, each as JSON (an integer
    and a text differ)."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.sha = hashlib.sha256()
        self.rows = 0

    def add(self, page: list[Row]) -> None:
        for row in page:
            record = dict(zip(row.keys(), row, strict=True))
            self.sha.update(json.dumps(record, sort_keys=True, separators=(",", ":")).encode())
            self.sha.update(b"\n")
            self.rows += 1

    def result(self) -> TableCopy:
        return TableCopy(self.table, self.rows, self.sha.hexdigest())


async def digests(db: Database) -> list[TableCopy]:
    """Each table's row count and SHA-256 (:class:`_Digest`), read in one snapshot."""

    async def body(tx: Tx) -> list[TableCopy]:
        out: list[TableCopy] = []
        for table, key in TABLES:
            digest = _Digest(table)
            async for page in _pages(tx, table, key):
                digest.add(page)
            out.append(digest.result())
        return out

    return await db.snapshot_read(body)


async def copy_database(source: Database, target: Database) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target`` and compare the two; raises
    :class:`CopyFailed` when the target is not empty or the copy differs.  The rows go a page
    at a time from the source's snapshot into the target's one transaction."""
    versions = (await source.schema_version(), await target.schema_version())
    if versions[0] != versions[1]:
        raise CopyFailed(reason="the two databases are at different schemas",
                         source=versions[0], target=versions[1])
    for table, _ in TABLES:
        if await target.scalar(f"SELECT count(*) FROM {table}"):
            raise CopyFailed(reason="the target database is not empty", table=table)

    async def read(source_tx: Tx) -> list[TableCopy]:
        async def write(tx: Tx) -> list[TableCopy]:
            copied: list[TableCopy] = []
            for table, key in TABLES:
                digest = _Digest(table)
                async for page in _pages(source_tx, table, key):
                    digest.add(page)
                    columns = list(page[0].keys())
                    marks = ", ".join("?" for _ in columns)
                    await tx.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                        [list(row) for row in page])
                copied.append(digest.result())
            if tx.dialect == "postgresql":
                for table in IDENTITY_TABLES:
                    await tx.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")
            return copied

        return await target.write(write)

    copied = await source.snapshot_read(read)
    # What was read from the source (which may have moved on since: the bot running) against
    # what the target holds now.
    written = await digests(target)
    for want, got in zip(copied, written, strict=True):
        if want.rows != got.rows:
            raise CopyFailed(reason="a table's row count differs after the copy",
                             table=want.name, source=want.rows, target=got.rows)
        if want.digest != got.digest:
            raise CopyFailed(reason="a table's rows differ after the copy", table=want.name)
    return CopyReport(written)
