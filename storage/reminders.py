"""Reminders and the clock: per-game timing, the alerts each wait received, and clock votes.

A *wait* is ``(game, seat, waiting_since)``: it begins when the prompt names the seat and ends
when the seat acts (``seats.waiting_since`` then changes or clears).  Every alert is claimed in
one transaction that first checks the wait is still current, so an alert is sent at most once per
wait however many processes, retries or restarts ask for it:

* ``turn``: the hand-over DM, ``nudge``: the reminder, ``clock``: the vote once the clock ran out.

:meth:`ReminderRepository.claim_nudge` adds the per-user cap: one reminder per user per period
(``user_settings.last_nudge_at``), covering every overdue wait of that user at once.

Clock votes: one per wait that ran out; the other players' ballots (``ai`` or ``abandon``) can
be changed until the vote closes (``takeover``, ``abandon`` or ``cancelled``); closing is a
compare-and-set on ``status = 'open'``, so of two concurrent closers exactly one wins.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from storage.changes import bump, fetch, handed_bank
from storage.database import Database
from storage.errors import NotSeated, WrongStatus
from storage.records import (
    ABANDON_DAYS,
    GameRecord,
    GameStatus,
    from_ms,
    from_ms_required,
    storable_id,
    to_ms,
)
from storage.rows import QUIET_OF_G, stops
from storage.settings import UNSET, Unset
from storage.sql import Row, Tx
from storage.timebank import Pace, Quiet, Stop, quiet_columns, quiet_rule

AlertKind = Literal["turn", "nudge", "clock", "bank_half", "bank_tenth", "heads_up"]
Choice = Literal["ai", "abandon"]
CHOICES: tuple[Choice, ...] = ("ai", "abandon")
VoteStatus = Literal["open", "takeover", "abandon", "cancelled"]


@dataclass(frozen=True, slots=True)
class GameTimers:
    """A game's own timing; ``None`` means the guild's reminder interval, and no pace (no time
    banks, no clock)."""

    game_id: int
    reminder_hours: int | None = None
    pace: Pace | None = None


@dataclass(frozen=True, slots=True)
class Wait:
    """A human seat of an active game that has been waiting, with what it takes to judge it."""

    game_id: int
    seat: int
    user_id: int
    waiting_since: datetime
    guild_id: int | None
    channel_id: int | None
    language: str | None
    reminder_hours: int | None
    """The game's own interval, else the guild's (``None``: the default)."""
    bank_ms: int | None
    """The seat's time bank when this wait began (``None``: the game has no pace); the wait
    ran out the bank once it has lasted as long (:func:`storage.timebank.left`)."""
    quiet: Quiet | None
    """The time the bank does not pay for (the game's rule, else its server's)."""
    nudged: bool
    """This wait was already reminded."""
    clocked: bool
    """A vote was already opened for this wait."""
    warned_half: bool
    """The person was told this wait spent half of the bank it began with."""
    warned_tenth: bool
    """The person was told a tenth of that bank is left."""
    last_nudge_at: datetime | None
    """When the user was last reminded (any game)."""
    own_hours: int | None = None
    """The person's own reminder spacing (before the game's and the server's)."""
    own_quiet: Quiet | None = None
    """The person's quiet hours: nothing is sent to them then."""
    digest: bool = False
    """The person takes a daily digest instead of reminders."""
    muted: bool = False
    """The person muted this game: no reminder for it."""
    stops: tuple[Stop, ...] = ()
    """The game's pauses and the person's absences during the wait: no bank runs, nobody is
    reminded then."""


@dataclass(frozen=True, slots=True)
class TurnMessage:
    """A turn DM, with the wait it told of."""

    game_id: int
    seat: int
    waiting_since: datetime
    user_id: int
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class RetiredMessage:
    """A turn DM none of whose waits is current any more: to edit."""

    user_id: int
    channel_id: int
    message_id: int
    games: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PauseAsk:
    """Where a game stands after a person asked to pause it."""

    record: GameRecord
    asked: tuple[int, ...]
    """The people seated who asked so far (empty when the game was paused already)."""
    needed: int
    """How many asks pause it: more than half of the people seated."""
    paused: bool


@dataclass(frozen=True, slots=True)
class Stall:
    """A running game in which an AI stands in for every person (all out of time)."""

    game_id: int
    guild_id: int | None
    last: datetime
    """When the last of them ran out of time."""
    days: int
    """After how many days from ``last`` it is abandoned (its server's setting)."""


@dataclass(frozen=True, slots=True)
class ClockVote:
    id: int
    game_id: int
    seat: int
    user_id: int
    waiting_since: datetime
    channel_id: int | None
    message_id: int | None
    status: VoteStatus
    opened_at: datetime
    closed_at: datetime | None
    ballots: Mapping[int, Choice] = field(default_factory=dict)
    """Choice by voter."""
    opened_by: int | None = None
    """Who opened it (``/game kick``; ``None`` for the votes opened by a clock before schema
    19)."""

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    def count(self, choice: Choice) -> int:
        return sum(1 for c in self.ballots.values() if c == choice)


_WAIT_SQL = f"""
SELECT w.game_id, w.seat, w.user_id, w.waiting_since, g.guild_id, g.channel_id, g.language,
       coalesce(t.reminder_hours, gs.reminder_hours) AS reminder_hours, w.bank_ms,
       {QUIET_OF_G} AS quiet_json,
       (SELECT json_group_array(json_array(p.since_at, p.until_at)) FROM game_pauses AS p
         WHERE p.game_id = w.game_id
           AND (p.until_at IS NULL OR p.until_at > w.waiting_since)) AS pauses_json,
       (SELECT json_group_array(json_array(a.since_at, a.until_at)) FROM absences AS a
         WHERE a.user_id = w.user_id AND a.until_at > w.waiting_since) AS away_json,
       (n.waiting_since IS NOT DISTINCT FROM w.waiting_since) AS nudged,
       (c.waiting_since IS NOT DISTINCT FROM w.waiting_since) AS clocked,
       (h.waiting_since IS NOT DISTINCT FROM w.waiting_since) AS warned_half,
       (x.waiting_since IS NOT DISTINCT FROM w.waiting_since) AS warned_tenth,
       u.last_nudge_at, u.reminder_hours AS own_hours, u.zone AS own_zone,
       u.quiet_start AS own_quiet_start, u.quiet_end AS own_quiet_end, u.digest_hour,
       EXISTS (SELECT 1 FROM game_mutes AS m
                WHERE m.user_id = w.user_id AND m.game_id = w.game_id) AS muted
  FROM seats AS w
  JOIN games AS g ON g.id = w.game_id
  LEFT JOIN game_timers AS t ON t.game_id = w.game_id
  LEFT JOIN guild_settings AS gs ON gs.guild_id = g.guild_id
  LEFT JOIN seat_alerts AS n ON n.game_id = w.game_id AND n.seat = w.seat AND n.kind = 'nudge'
  LEFT JOIN seat_alerts AS c ON c.game_id = w.game_id AND c.seat = w.seat AND c.kind = 'clock'
  LEFT JOIN seat_alerts AS h
         ON h.game_id = w.game_id AND h.seat = w.seat AND h.kind = 'bank_half'
  LEFT JOIN seat_alerts AS x
         ON x.game_id = w.game_id AND x.seat = w.seat AND x.kind = 'bank_tenth'
  LEFT JOIN user_settings AS u ON u.user_id = w.user_id
"""
_WAITS_SQL = f"""{_WAIT_SQL}
 WHERE w.waiting_since IS NOT NULL AND w.waiting_since <= ? AND w.waiting_since > ?
   AND w.user_id IS NOT NULL AND g.status = 'active'
   AND (n.waiting_since IS DISTINCT FROM w.waiting_since OR w.bank_ms IS NOT NULL)
 ORDER BY w.waiting_since, w.game_id, w.seat
 LIMIT ?
"""
_WAIT_OF_SQL = f"""{_WAIT_SQL}
 WHERE w.game_id = ? AND w.seat = ? AND w.waiting_since IS NOT NULL
   AND w.user_id IS NOT NULL AND g.status = 'active'
"""


def _wait(row: Row) -> Wait:
    return Wait(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        waiting_since=from_ms_required(row["waiting_since"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        language=row["language"],
        reminder_hours=row["reminder_hours"],
        bank_ms=row["bank_ms"],
        quiet=quiet_rule(json.loads(row["quiet_json"] or "null")),
        stops=stops([*json.loads(row["pauses_json"] or "[]"),
                     *json.loads(row["away_json"] or "[]")]),
        nudged=bool(row["nudged"]),
        clocked=bool(row["clocked"]),
        warned_half=bool(row["warned_half"]),
        warned_tenth=bool(row["warned_tenth"]),
        last_nudge_at=from_ms(row["last_nudge_at"]),
        own_hours=row["own_hours"],
        own_quiet=None if row["own_quiet_start"] is None or row["own_quiet_end"] is None
        else Quiet(row["own_zone"] or "UTC", False,
                   (int(row["own_quiet_start"]), int(row["own_quiet_end"]))),
        digest=row["digest_hour"] is not None,
        muted=bool(row["muted"]),
    )


def _vote(row: Row, ballots: Sequence[Row] = ()) -> ClockVote:
    return ClockVote(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        waiting_since=from_ms_required(row["waiting_since"]),
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        status=row["status"],
        opened_at=from_ms_required(row["opened_at"]),
        closed_at=from_ms(row["closed_at"]),
        ballots={int(b["user_id"]): b["choice"] for b in ballots},
        opened_by=row["opened_by"],
    )


async def _running_seat(tx: Tx, game_id: int, user_id: int) -> GameRecord:
    """The running game ``game_id``, where ``user_id`` holds a seat."""
    record = await fetch(tx, game_id, None)
    if record.status is not GameStatus.ACTIVE:
        raise WrongStatus(game_id, record.status)
    if record.seat_of(user_id) is None:
        raise NotSeated(game_id, user_id=user_id)
    return record


async def _still_waiting(tx: Tx, game_id: int, seat: int, since: int) -> bool:
    """Whether the seat of an active game is still in the wait that began at ``since``."""
    row = await tx.fetchone(
        "SELECT 1 FROM seats AS s JOIN games AS g ON g.id = s.game_id"
        " WHERE s.game_id = ? AND s.seat = ? AND s.waiting_since = ? AND g.status = 'active'",
        (game_id, seat, since),
    )
    return row is not None


async def _claim(tx: Tx, game_id: int, seat: int, kind: AlertKind, since: int, now: int) -> bool:
    if not await _still_waiting(tx, game_id, seat, since):
        return False
    changed = await tx.execute(
        "INSERT INTO seat_alerts (game_id, seat, kind, waiting_since, at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat, kind) DO UPDATE"
        " SET waiting_since = excluded.waiting_since, at = excluded.at"
        " WHERE seat_alerts.waiting_since <> excluded.waiting_since",
        (game_id, seat, kind, since, now),
    )
    return changed == 1


async def _fill_banks(tx: Tx, game_id: int, now: int) -> None:
    """The first bank, from ``now``, for each person seated in ``game_id`` (if running) who
    has none (:func:`storage.changes.handed_bank`, the game's pace just set)."""
    record = await fetch(tx, game_id, None)
    if record.status is not GameStatus.ACTIVE:
        return
    banks = [(handed_bank(record, seat, seat.user_id, now), game_id, seat.seat)
             for seat in record.seats if seat.user_id is not None and seat.bank_ms is None]
    if banks:
        await tx.executemany("UPDATE seats SET bank_ms = ? WHERE game_id = ? AND seat = ?",
                             banks)


class ReminderRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- per-game timing --------------------------------------------------------------------

    async def timers(self, game_id: int) -> GameTimers:
        row = await self.db.fetchone(
            "SELECT reminder_hours, pace, bank_start_ms, bank_increment_ms, bank_cap_ms"
            " FROM game_timers WHERE game_id = ?", (game_id,)
        )
        if row is None:
            return GameTimers(game_id)
        pace = None if row["pace"] is None else Pace(
            row["pace"], row["bank_start_ms"], row["bank_increment_ms"], row["bank_cap_ms"])
        return GameTimers(game_id, row["reminder_hours"], pace)

    async def set_timers(
        self,
        game_id: int,
        *,
        reminder_hours: int | Unset | None = UNSET,
        pace: Pace | Unset | None = UNSET,
        quiet: Quiet | Unset | None = UNSET,
    ) -> GameTimers:
        """Partial update (a field left out keeps its value; ``None`` clears it).  A pace set
        on a running game gives each person's seat without a bank the first bank, counted
        from now (:func:`storage.changes.handed_bank`); none clears the banks.  (A lobby's
        banks are given at the start: :func:`storage.changes.open_banks`.)"""
        changes: dict[str, Any] = {}
        if reminder_hours is not UNSET:
            if reminder_hours is not None and (
                    not isinstance(reminder_hours, int) or reminder_hours <= 0):
                raise ValueError("reminder_hours must be a positive number")
            changes["reminder_hours"] = reminder_hours
        if quiet is not UNSET:  # (None: the server's quiet time)
            changes.update(quiet_columns(quiet))
        if pace is not UNSET:
            changes.update(
                pace=None if pace is None else pace.name,
                bank_start_ms=None if pace is None else pace.start_ms,
                bank_increment_ms=None if pace is None else pace.increment_ms,
                bank_cap_ms=None if pace is None else pace.cap_ms)

        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO game_timers (game_id) VALUES (?) ON CONFLICT (game_id) DO NOTHING",
                (game_id,),
            )
            if changes:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                await tx.execute(
                    f"UPDATE game_timers SET {assignments} WHERE game_id = ?",
                    (*changes.values(), game_id),
                )
            if pace is None:
                await tx.execute("UPDATE seats SET bank_ms = NULL WHERE game_id = ?", (game_id,))
            elif not isinstance(pace, Unset):
                await _fill_banks(tx, game_id, self.db.now_ms())

        await self.db.write(body)
        return await self.timers(game_id)

    # --- pauses -----------------------------------------------------------------------------

    async def ask_pause(self, game_id: int, user_id: int) -> PauseAsk:
        """``user_id`` (seated in the running game) asks to pause it: once more than half of
        the people seated asked, the pause begins (the asks are cleared and the game gets a new
        version: its table shows the pause).  ``WrongStatus``, ``NotSeated``; a game already
        paused is returned as it is."""

        async def body(tx: Tx) -> PauseAsk:
            record = await _running_seat(tx, game_id, user_id)
            people = record.user_ids
            need = len(people) // 2 + 1
            if record.paused:
                return PauseAsk(record, (), need, True)
            now = self.db.now_ms()
            await tx.execute(
                "INSERT INTO pause_asks (game_id, user_id, at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO NOTHING", (game_id, user_id, now))
            rows = await tx.fetchall(
                "SELECT user_id FROM pause_asks WHERE game_id = ? ORDER BY at, user_id",
                (game_id,))
            asked = tuple(u for u in (int(r["user_id"]) for r in rows) if u in people)
            if len(asked) < need:
                return PauseAsk(record, asked, need, False)
            await tx.execute("INSERT INTO game_pauses (game_id, since_at) VALUES (?, ?)",
                             (game_id, now))
            await tx.execute("DELETE FROM pause_asks WHERE game_id = ?", (game_id,))
            await bump(tx, record, now)
            return PauseAsk(await fetch(tx, game_id, None), asked, need, True)

        return await self.db.write(body)

    async def unpause(self, game_id: int, user_id: int) -> GameRecord | None:
        """``user_id`` (seated in the running game) ends its pause: the banks run again from
        now.  ``None`` when the game is not paused (nothing changes); ``WrongStatus``,
        ``NotSeated``."""

        async def body(tx: Tx) -> GameRecord | None:
            record = await _running_seat(tx, game_id, user_id)
            if not record.paused:
                return None
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE game_pauses SET until_at = ? WHERE game_id = ? AND until_at IS NULL",
                (now, game_id))
            await tx.execute("DELETE FROM pause_asks WHERE game_id = ?", (game_id,))
            await bump(tx, record, now)
            return await fetch(tx, game_id, None)

        return await self.db.write(body)

    # --- alerts -----------------------------------------------------------------------------

    async def claim_alert(
        self, game_id: int, seat: int, kind: AlertKind, waiting_since: datetime
    ) -> bool:
        """Record that the wait ``(game, seat, waiting_since)`` gets its ``kind`` alert now.
        False when it already got one, or the seat is no longer in that wait."""
        since = to_ms(waiting_since)

        async def body(tx: Tx) -> bool:
            return await _claim(tx, game_id, seat, kind, since, self.db.now_ms())

        return await self.db.write(body)

    async def claim_heads_up(self, game_id: int, seat: int, waiting_since: datetime) -> bool:
        """Record that ``seat`` (not asked itself) is told now that it is probably next, for
        the wait of the seat before it begun at ``waiting_since``; False when it already
        was."""
        since = to_ms(waiting_since)

        async def body(tx: Tx) -> bool:
            changed = await tx.execute(
                "INSERT INTO seat_alerts (game_id, seat, kind, waiting_since, at)"
                " VALUES (?, ?, 'heads_up', ?, ?) ON CONFLICT (game_id, seat, kind) DO UPDATE"
                " SET waiting_since = excluded.waiting_since, at = excluded.at"
                " WHERE seat_alerts.waiting_since <> excluded.waiting_since",
                (game_id, seat, since, self.db.now_ms()))
            return changed == 1

        return await self.db.write(body)

    async def waits(
        self, *, before: datetime, after: datetime | None = None, limit: int = 500
    ) -> list[Wait]:
        """Human seats of active games waiting since at most ``before`` (and more than
        ``after``), longest wait first, with their game's timing and what they were told.
        Waits with nothing left to do (reminded, and clocked or without a clock) are left out,
        so old waits nobody acts on never crowd out the new ones."""
        lower = -1 if after is None else to_ms(after)
        rows = await self.db.fetchall(_WAITS_SQL, (to_ms(before), lower, limit))
        return [_wait(r) for r in rows]

    async def wait_of(self, game_id: int, seat: int) -> Wait | None:
        """The present wait of a person's ``seat`` (``None``: the game does not wait on it)."""
        row = await self.db.fetchone(_WAIT_OF_SQL, (game_id, seat))
        return None if row is None else _wait(row)

    async def stalls(self, *, before: datetime) -> list[Stall]:
        """The running games where an AI stands in for every person seated (each one's bank
        ran out) and the last of them since at most ``before`` (the days of the server's
        ``abandon_days`` are the caller's to count); read from the stand-ins' index."""
        rows = await self.db.fetchall(
            "SELECT s.game_id, g.guild_id, max(s.stood_in_at) AS last, gs.abandon_days"
            "  FROM seats AS s JOIN games AS g ON g.id = s.game_id"
            "  LEFT JOIN guild_settings AS gs ON gs.guild_id = g.guild_id"
            " WHERE s.stand_in_for IS NOT NULL AND g.status = 'active'"
            "   AND NOT EXISTS (SELECT 1 FROM seats AS p"
            "                    WHERE p.game_id = s.game_id AND p.user_id IS NOT NULL)"
            " GROUP BY s.game_id, g.guild_id, gs.abandon_days"
            " ORDER BY s.game_id")
        out = []
        for row in rows:
            days = int(row["abandon_days"] or ABANDON_DAYS)
            last = from_ms_required(row["last"])
            if last <= before - timedelta(days=days):
                out.append(Stall(int(row["game_id"]), row["guild_id"], last, days))
        return out

    async def stalled_ai(
        self, *, before: datetime, after_id: int = 0, limit: int = 500
    ) -> list[int]:
        """Active games with an AI seat asked to decide since at most ``before``, by id (those
        after ``after_id``, at most ``limit``): the AI moves left to play at start-up
        (``GameService.resume_all``), or that failed (``GameService.resume_stalled``).  Read
        through indexes (the active games', or the waits'), never a table whole, and no game
        loaded."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT s.game_id FROM seats AS s JOIN games AS g ON g.id = s.game_id"
            " WHERE s.waiting_since IS NOT NULL AND s.waiting_since <= ?"
            " AND s.ai_policy IS NOT NULL AND g.status = 'active' AND s.game_id > ?"
            # (stand-ins without a person at the table wait for one: nothing to resume)
            " AND (s.stand_in_for IS NULL OR EXISTS (SELECT 1 FROM seats AS p"
            "      WHERE p.game_id = s.game_id AND p.user_id IS NOT NULL))"
            " ORDER BY s.game_id LIMIT ?",
            (to_ms(before), after_id, limit),
        )
        return [int(r["game_id"]) for r in rows]

    async def claim_nudge(
        self, user_id: int, waits: Sequence[Wait], *, not_after: datetime
    ) -> list[Wait]:
        """One reminder for ``user_id`` covering ``waits``, unless the user was reminded after
        ``not_after`` (the per-user cap).  Returns the waits claimed (still current and not yet
        reminded; empty when capped) and sets ``last_nudge_at`` when any was."""

        async def body(tx: Tx) -> list[Wait]:
            last = await tx.scalar(
                "SELECT last_nudge_at FROM user_settings WHERE user_id = ?", (user_id,)
            )
            if last is not None and last > to_ms(not_after):
                return []
            now = self.db.now_ms()
            claimed = [
                w for w in waits
                if w.user_id == user_id
                and await _claim(tx, w.game_id, w.seat, "nudge", to_ms(w.waiting_since), now)
            ]
            if claimed:
                await tx.execute(
                    "INSERT INTO user_settings (user_id, last_nudge_at, updated_at)"
                    " VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                    " SET last_nudge_at = excluded.last_nudge_at, updated_at = excluded.updated_at",
                    (user_id, now, now),
                )
            return claimed

        return await self.db.write(body)

    # --- turn DMs ---------------------------------------------------------------------------

    async def remember_turn_dm(self, message: TurnMessage) -> None:
        """``message`` told of its wait (its DM is edited once that wait is over)."""

        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO turn_messages (game_id, seat, waiting_since, user_id, channel_id,"
                " message_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (message.game_id, message.seat, to_ms(message.waiting_since), message.user_id,
                 message.channel_id, message.message_id))

        await self.db.write(body)

    async def retire_turn_dms(self, record: GameRecord) -> list[RetiredMessage]:
        """The turn DMs of ``record`` whose wait is over (the seat acted, changed hands, or the
        game is no longer running) are forgotten; those DMs that no longer tell of any current
        wait (of any game) are returned, to be edited."""

        rows = await self.db.fetchall(  # read first: most changes retire nothing
            "SELECT game_id, seat, waiting_since, user_id, channel_id, message_id"
            " FROM turn_messages WHERE game_id = ?", (record.id,))
        running = record.status is GameStatus.ACTIVE
        over = []
        for row in rows:
            seat = record.seat(int(row["seat"]))
            current = (running and seat is not None and seat.user_id == row["user_id"]
                       and seat.waiting_since is not None
                       and to_ms(seat.waiting_since) == int(row["waiting_since"]))
            if not current:
                over.append(row)
        if not over:
            return []

        async def body(tx: Tx) -> list[RetiredMessage]:
            out: list[RetiredMessage] = []
            gone = 0
            for row in over:
                gone += await tx.execute(
                    "DELETE FROM turn_messages WHERE game_id = ? AND seat = ?"
                    " AND waiting_since = ? AND message_id = ?",
                    (row["game_id"], row["seat"], row["waiting_since"], row["message_id"]))
            if not gone:
                return out  # another process retired them
            for message_id in dict.fromkeys(int(r["message_id"]) for r in over):
                left_over = await tx.scalar(
                    "SELECT count(*) FROM turn_messages WHERE message_id = ?", (message_id,))
                if not left_over:
                    games = sorted({int(r["game_id"]) for r in over
                                    if int(r["message_id"]) == message_id})
                    first = next(r for r in over if int(r["message_id"]) == message_id)
                    out.append(RetiredMessage(int(first["user_id"]), int(first["channel_id"]),
                                              message_id, tuple(games)))
            return out

        return await self.db.write(body)

    # --- clock votes ------------------------------------------------------------------------

    async def open_vote(self, wait: Wait, by: int | None = None) -> ClockVote | None:
        """Open the vote on ``wait``, asked by ``by`` (``/game kick``); ``None`` when one was
        already opened for this wait or the seat is no longer in it."""
        since = to_ms(wait.waiting_since)

        async def body(tx: Tx) -> int | None:
            now = self.db.now_ms()
            if not await _claim(tx, wait.game_id, wait.seat, "clock", since, now):
                return None
            await tx.execute(
                "INSERT INTO clock_votes (game_id, seat, user_id, waiting_since, channel_id,"
                " opened_at, opened_by) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat, waiting_since) DO NOTHING",
                (wait.game_id, wait.seat, wait.user_id, since, wait.channel_id, now, by),
            )
            found = await tx.scalar(
                "SELECT id FROM clock_votes WHERE game_id = ? AND seat = ? AND waiting_since = ?"
                " AND status = 'open'",
                (wait.game_id, wait.seat, since),
            )
            return None if found is None else int(found)

        vote_id = await self.db.write(body)
        return None if vote_id is None else await self.vote(vote_id)

    async def vote(self, vote_id: int) -> ClockVote:
        """The vote with its ballots; ``LookupError`` when there is none."""
        if not storable_id(vote_id):
            raise LookupError(f"no clock vote {vote_id}")

        async def body(tx: Tx) -> ClockVote:
            row = await tx.fetchone("SELECT * FROM clock_votes WHERE id = ?", (vote_id,))
            if row is None:
                raise LookupError(f"no clock vote {vote_id}")
            ballots = await tx.fetchall(
                "SELECT user_id, choice FROM clock_ballots WHERE vote_id = ? ORDER BY at, user_id",
                (vote_id,),
            )
            return _vote(row, ballots)

        return await self.db.snapshot_read(body)

    async def open_votes(self, game_id: int | None = None) -> list[ClockVote]:
        """Open votes of one game, or of every game (oldest first)."""
        if game_id is None:
            rows = await self.db.fetchall(
                "SELECT id FROM clock_votes WHERE status = 'open' ORDER BY id"
            )
        else:
            rows = await self.db.fetchall(
                "SELECT id FROM clock_votes WHERE game_id = ? AND status = 'open' ORDER BY id",
                (game_id,),
            )
        return [await self.vote(int(r["id"])) for r in rows]

    async def set_vote_message(self, vote_id: int, message_id: int) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(
                "UPDATE clock_votes SET message_id = ? WHERE id = ?", (message_id, vote_id)
            )

        await self.db.write(body)

    async def cast(self, vote_id: int, user_id: int, choice: Choice) -> ClockVote:
        """Record (or change) ``user_id``'s ballot on an open vote; the vote afterwards.  A vote
        that is no longer open is returned unchanged."""
        if choice not in CHOICES:
            raise ValueError(f"unknown choice {choice!r}")

        async def body(tx: Tx) -> None:
            status = await tx.scalar("SELECT status FROM clock_votes WHERE id = ?", (vote_id,))
            if status is None:
                raise LookupError(f"no clock vote {vote_id}")
            if status == "open":
                await tx.execute(
                    "INSERT INTO clock_ballots (vote_id, user_id, choice, at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (vote_id, user_id) DO UPDATE"
                    " SET choice = excluded.choice, at = excluded.at"
                    " WHERE clock_ballots.choice <> excluded.choice",
                    (vote_id, user_id, choice, self.db.now_ms()),
                )

        await self.db.write(body)
        return await self.vote(vote_id)

    async def close_vote(self, vote_id: int, status: VoteStatus) -> bool:
        """Close an open vote with ``status``; False when it was already closed."""
        if status == "open":
            raise ValueError("closing needs a final status")

        async def body(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE clock_votes SET status = ?, closed_at = ? WHERE id = ? AND status = 'open'",
                (status, self.db.now_ms(), vote_id),
            )
            return changed == 1

        return await self.db.write(body)
