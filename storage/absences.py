"""Absences (issue #35, schema 21; docs/time.md): a person away in all their games.

While an absence runs no time bank of theirs is spent (:func:`storage.timebank.charged` leaves
it out, like a pause; :attr:`storage.records.SeatRecord.away`) and nobody reminds them.  A
person has one absence under way or planned at a time: setting another replaces it (the one
under way ends now, a planned one is dropped), and ending it early cuts it at that moment.  The
past is never rewritten, so every bank already settled keeps its figure.

A server gives each person an allowance of days in any 365 (``guild_settings.away_days``,
default :data:`storage.records.AWAY_DAYS`): the absences that began in the last 365 days count
for as long as they ran or are planned to run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from storage.changes import bump, changed, fetch
from storage.database import Database
from storage.errors import StorageError
from storage.records import GameRecord, GameStatus, from_ms_required, to_ms
from storage.rows import stops
from storage.sql import Row, Tx
from storage.timebank import DAY_MS, Stop

YEAR = timedelta(days=365)


class AwayAllowance(StorageError):
    """The absence asked for is longer than what is left of the person's allowance."""

    code = "away_allowance"

    def __init__(self, left_ms: int, allowance_days: int) -> None:
        super().__init__(left_ms=left_ms, allowance_days=allowance_days)
        self.left_ms = left_ms
        self.allowance_days = allowance_days


@dataclass(frozen=True, slots=True)
class Absence:
    user_id: int
    since: datetime
    until: datetime
    reason: str | None

    def under_way(self, now: datetime) -> bool:
        return self.since <= now < self.until


def _absence(row: Row) -> Absence:
    return Absence(int(row["user_id"]), from_ms_required(row["since_at"]),
                   from_ms_required(row["until_at"]), row["reason"])


class AbsenceRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def current(self, user_id: int) -> Absence | None:
        """The person's absence under way, else the one planned next (``None``: neither)."""
        row = await self.db.fetchone(
            "SELECT user_id, since_at, until_at, reason FROM absences"
            " WHERE user_id = ? AND until_at > ? ORDER BY since_at LIMIT 1",
            (user_id, self.db.now_ms()))
        return None if row is None else _absence(row)

    async def used_ms(self, user_id: int) -> int:
        """How much of the allowance the person's absences of the last 365 days take (the
        planned ones included, for as long as they are planned)."""

        async def body(tx: Tx) -> int:
            return await _used(tx, user_id, self.db.now_ms())

        return await self.db.snapshot_read(body)

    async def set(self, user_id: int, since: datetime, until: datetime, reason: str | None,
                  *, allowance_days: int) -> tuple[Absence, list[GameRecord]]:
        """Mark ``user_id`` away from ``since`` (not before now) to ``until``, replacing the
        absence under way or planned; :class:`AwayAllowance` when it would take more than
        ``allowance_days`` in 365 days.  Returns it and the person's running games, each with a
        new version (their tables show the absence)."""
        if until <= since:
            raise ValueError("an absence ends after it begins")

        async def body(tx: Tx) -> tuple[Absence, list[GameRecord]]:
            now = self.db.now_ms()
            start = max(to_ms(since), now)
            await _end(tx, user_id, now)
            used = await _used(tx, user_id, now)
            wanted = to_ms(until) - start
            rest = allowance_days * DAY_MS - used
            if wanted > rest:
                raise AwayAllowance(max(0, rest), allowance_days)
            await tx.execute(
                "INSERT INTO absences (user_id, since_at, until_at, reason, set_at)"
                " VALUES (?, ?, ?, ?, ?)", (user_id, start, to_ms(until), reason, now))
            absence = Absence(user_id, from_ms_required(start), until, reason)
            return absence, await _touch_games(tx, user_id, now)

        return await self.db.write(body)

    async def end(self, user_id: int) -> list[GameRecord] | None:
        """The person is back: the absence under way ends now, a planned one is dropped.
        ``None`` when there was none; else the person's running games, each with a new version
        (their tables no longer show the absence)."""

        async def body(tx: Tx) -> list[GameRecord] | None:
            now = self.db.now_ms()
            if not await _end(tx, user_id, now):
                return None
            return await _touch_games(tx, user_id, now)

        return await self.db.write(body)


async def _end(tx: Tx, user_id: int, now: int) -> bool:
    """End the absence under way now and drop the planned ones; whether there was any."""
    ended = await tx.execute(
        "UPDATE absences SET until_at = ? WHERE user_id = ? AND since_at < ? AND until_at > ?",
        (now, user_id, now, now))
    dropped = await tx.execute(
        "DELETE FROM absences WHERE user_id = ? AND since_at >= ?", (user_id, now))
    return bool(ended or dropped)


async def absences_after(tx: Tx, user_id: int, after: int) -> tuple[Stop, ...]:
    """``user_id``'s absences that end after ``after`` (ms), in order: what bears on a bank
    counted from then (``SeatRecord.away``, as a game's read gives it)."""
    rows = await tx.fetchall(
        "SELECT since_at, until_at FROM absences WHERE user_id = ? AND until_at > ?",
        (user_id, after))
    return stops([[r["since_at"], r["until_at"]] for r in rows])


async def _used(tx: Tx, user_id: int, now: int) -> int:
    rows = await tx.fetchall(
        "SELECT since_at, until_at FROM absences WHERE user_id = ? AND since_at > ?",
        (user_id, now - int(YEAR.total_seconds() * 1000)))
    return sum(int(r["until_at"]) - int(r["since_at"]) for r in rows)


async def _touch_games(tx: Tx, user_id: int, now: int) -> list[GameRecord]:
    """A new version of each running game of ``user_id`` (their tables are drawn again)."""
    rows = await tx.fetchall(
        "SELECT s.game_id FROM seats AS s JOIN games AS g ON g.id = s.game_id"
        " WHERE s.user_id = ? AND g.status = ? ORDER BY s.game_id",
        (user_id, GameStatus.ACTIVE.value))
    out = []
    for row in rows:
        record = await fetch(tx, int(row["game_id"]), None)
        await bump(tx, record, now)
        out.append(changed(record, now))
    return out
