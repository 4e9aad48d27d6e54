"""What the bot last showed of each game: the publish record (schema 6, ``game_publications``).

After every change the bot edits the game's table message and DMs whoever is newly asked to
decide.  Those happen after the commit, so a crash in between leaves the channel showing an
older state and the next player untold.  The record says how far the Discord side got:

* ``version`` and ``seq``: the game version (and log length) the table message was last drawn
  for, written once the table was edited;
* ``due``: the turn notices handed to the notifier with that table, each a wait
  ``(seat, waiting_since)``.  The notifier claims a notice in ``seat_alerts`` right before
  sending it, so a notice whose wait is still current and which has no claim was never sent.

:meth:`PublicationRepository.lagging` finds the games whose record is behind (no row, an older
version, or a due notice still unclaimed) so that start-up can publish them again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from storage.database import Database
from storage.records import from_ms_required, to_ms
from storage.sql import Dialect, Tx

DueNotice = tuple[int, datetime]
"""A turn notice handed to the notifier: ``(seat, waiting_since)`` of the wait it announces."""


@dataclass(frozen=True, slots=True)
class Publication:
    game_id: int
    version: int
    """The game version the table message was last drawn for."""
    seq: int
    """The actions in the log at that version (the events after it were never shown)."""
    due: tuple[DueNotice, ...]
    at: datetime


_LAGGING_SQL = """
SELECT g.id FROM games AS g LEFT JOIN game_publications AS p ON p.game_id = g.id
 WHERE g.id > ?
   AND ((g.status = 'active' AND p.game_id IS NULL)
        OR (g.status IN ('active', 'finished') AND p.version < g.version)
        OR (g.status = 'active' AND EXISTS (
              SELECT 1 FROM {due} AS d
                JOIN seats AS s ON s.game_id = g.id AND s.seat = {seat}
                 AND s.waiting_since = {since} AND s.user_id IS NOT NULL
                LEFT JOIN user_settings AS u ON u.user_id = s.user_id
               WHERE coalesce(u.dm_notifications, 1) = 1
                 AND NOT EXISTS (SELECT 1 FROM seat_alerts AS a
                                  WHERE a.game_id = g.id AND a.seat = s.seat AND a.kind = 'turn'
                                    AND a.waiting_since = s.waiting_since))))
 ORDER BY g.id LIMIT ?
"""
# The due notices [[seat, waiting_since], ...] as rows d, in each backend's JSON functions.
LAGGING_SQL: dict[Dialect, str] = {
    "sqlite": _LAGGING_SQL.format(due="json_each(p.due)", seat="json_extract(d.value, '$[0]')",
                                  since="json_extract(d.value, '$[1]')"),
    "postgresql": _LAGGING_SQL.format(due="json_array_elements(CAST(p.due AS json))",
                                      seat="CAST(d.value ->> 0 AS INTEGER)",
                                      since="CAST(d.value ->> 1 AS BIGINT)"),
}


BEHIND_SQL = """
SELECT g.id FROM games AS g LEFT JOIN game_publications AS p ON p.game_id = g.id
 WHERE g.status = 'active' AND g.id > ? AND g.updated_at <= ?
   AND (p.game_id IS NULL OR p.version < g.version)
UNION
SELECT g.id FROM games AS g JOIN game_publications AS p ON p.game_id = g.id
 WHERE g.status = 'finished' AND g.last_action_at >= ? AND g.id > ? AND g.updated_at <= ?
   AND p.version < g.version
 ORDER BY 1 LIMIT ?
"""
# Two index searches (games_status: the active games, the games finished since), not a pass
# over every game ever played: the reminder pass runs it every few minutes.


class PublicationRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, game_id: int) -> Publication | None:
        row = await self.db.fetchone(
            "SELECT game_id, version, seq, due, at FROM game_publications WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        due = tuple((int(seat), from_ms_required(int(since)))
                    for seat, since in json.loads(row["due"]))
        return Publication(int(row["game_id"]), int(row["version"]), int(row["seq"]), due,
                           from_ms_required(row["at"]))

    async def published(
        self, game_id: int, *, version: int, seq: int, due: Iterable[DueNotice] = ()
    ) -> None:
        """The table now shows ``version`` (``seq`` actions) and ``due`` were handed to the
        notifier.  Due notices of the previous record whose wait is still current and unclaimed
        are kept (a DM deferred by the rate limit is not sent yet).  A record never goes back to
        an older version."""
        wanted = {(seat, to_ms(since)) for seat, since in due}

        async def body(tx: Tx) -> None:
            keep = set(wanted)  # (a body may run again: PostgreSQL after a conflict)
            old = await tx.scalar(
                "SELECT due FROM game_publications WHERE game_id = ?", (game_id,))
            for seat, since in json.loads(old) if old else ():
                if await _pending(tx, game_id, int(seat), int(since)):
                    keep.add((int(seat), int(since)))
            await tx.execute(
                "INSERT INTO game_publications (game_id, version, seq, due, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
                " SET version = excluded.version, seq = excluded.seq, due = excluded.due,"
                " at = excluded.at WHERE excluded.version >= game_publications.version",
                (game_id, version, seq, json.dumps(sorted(keep), separators=(",", ":")),
                 self.db.now_ms()),
            )

        await self.db.write(body)

    async def lagging(self, *, after_id: int = 0, limit: int = 100) -> list[int]:
        """Games whose Discord side is behind: active without a record, active or finished
        with a record of an older version, or active with a due notice never sent (its wait
        current, unclaimed, the person's DMs on).  Ordered by id; page with ``after_id``."""
        rows = await self.db.fetchall(LAGGING_SQL[self.db.dialect], (after_id, limit))
        return [int(r[0]) for r in rows]

    async def behind(self, *, changed_before: datetime, finished_since: datetime,
                     after_id: int = 0, limit: int = 100) -> list[int]:
        """Games whose table shows an older version than the stored one (a publication that
        failed: Discord's 5xx, the database gone meanwhile) and that have not changed since
        ``changed_before`` (a change just made is still being shown): active without a record
        or with an older one, or finished since ``finished_since`` with an older one (the
        final standings not shown).  Ordered by id; page with ``after_id``."""
        before = to_ms(changed_before)
        rows = await self.db.fetchall(
            BEHIND_SQL, (after_id, before, to_ms(finished_since), after_id, before, limit))
        return [int(r[0]) for r in rows]


async def _pending(tx: Tx, game_id: int, seat: int, since: int) -> bool:
    """Whether the wait ``(seat, since)`` is still current and its turn notice unclaimed."""
    row = await tx.fetchone(
        "SELECT 1 FROM seats AS s WHERE s.game_id = ? AND s.seat = ? AND s.waiting_since = ?"
        " AND NOT EXISTS (SELECT 1 FROM seat_alerts AS a WHERE a.game_id = s.game_id"
        " AND a.seat = s.seat AND a.kind = 'turn' AND a.waiting_since = s.waiting_since)",
        (game_id, seat, since),
    )
    return row is not None
