"""Copy a whole database to another, of either backend, and prove the copy: moving a community's
SQLite file to PostgreSQL (``python -m storage copy governor.db postgresql://...``).

The source is read in one snapshot (the bot may keep running on it; what it writes after the
snapshot is not in the copy, so stop it first to move for good).  The target must be empty, at
the same schema; every row is written in one transaction, in the order of the foreign keys, so a
failed copy leaves the target empty.  Then both databases are read again, table by table in the
order of each table's key, and compared: the row counts and a SHA-256 of every row's values must
be equal, or the copy is reported as failed.
"""

from __future__ import annotations

import hashlib
import json
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


async def _pages(tx: Tx, table: str, key: str) -> list[list[Row]]:
    pages: list[list[Row]] = []
    offset = 0
    while True:
        page = await tx.fetchall(
            f"SELECT * FROM {table} ORDER BY {key} LIMIT {PAGE} OFFSET {offset}")
        if page:
            pages.append(page)
        if len(page) < PAGE:
            return pages
        offset += PAGE


def _values(row: Row) -> list[Any]:
    return list(row)  # (a row iterates over its values, in the order of its keys)


def _digest(table: str, pages: list[list[Row]]) -> TableCopy:
    """The table's row count and the SHA-256 of its rows in key order, each as JSON (an
    integer and a text differ)."""
    sha = hashlib.sha256()
    count = 0
    for page in pages:
        for row in page:
            record = dict(zip(row.keys(), _values(row), strict=True))
            sha.update(json.dumps(record, sort_keys=True, separators=(",", ":")).encode())
            sha.update(b"\n")
            count += 1
    return TableCopy(table, count, sha.hexdigest())


async def read_all(db: Database) -> dict[str, list[list[Row]]]:
    """Every row of every table, in pages, read in one snapshot."""

    async def body(tx: Tx) -> dict[str, list[list[Row]]]:
        return {table: await _pages(tx, table, key) for table, key in TABLES}

    return await db.snapshot_read(body)


async def digests(db: Database) -> list[TableCopy]:
    """Each table's :func:`_digest`, read in one snapshot."""
    tables = await read_all(db)
    return [_digest(table, tables[table]) for table, _ in TABLES]


async def copy_database(source: Database, target: Database) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target`` and compare the two; raises
    :class:`CopyFailed` when the target is not empty or the copy differs."""
    versions = (await source.schema_version(), await target.schema_version())
    if versions[0] != versions[1]:
        raise CopyFailed(reason="the two databases are at different schemas",
                         source=versions[0], target=versions[1])
    for table, _ in TABLES:
        if await target.scalar(f"SELECT count(*) FROM {table}"):
            raise CopyFailed(reason="the target database is not empty", table=table)

    tables = await read_all(source)

    async def write(tx: Tx) -> None:
        for table, _ in TABLES:
            for page in tables[table]:
                columns = list(page[0].keys())
                marks = ", ".join("?" for _ in columns)
                await tx.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    [_values(row) for row in page])
        if tx.dialect == "postgresql":
            for table in IDENTITY_TABLES:
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")

    await target.write(write)
    # What was read from the source (which may have moved on since: the bot running) against
    # what the target holds now.
    copied = [_digest(table, tables[table]) for table, _ in TABLES]
    written = await digests(target)
    for want, got in zip(copied, written, strict=True):
        if want.rows != got.rows:
            raise CopyFailed(reason="a table's row count differs after the copy",
                             table=want.name, source=want.rows, target=got.rows)
        if want.digest != got.digest:
            raise CopyFailed(reason="a table's rows differ after the copy", table=want.name)
    return CopyReport(written)
