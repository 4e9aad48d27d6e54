"""Seat hand-overs: who held a seat of a running game before it changed hands (schema 7,
``seat_handovers``).

A seat of a running game changes hands when its player leaves (an AI takes it over) or when the
clock vote lets an AI take it (:meth:`storage.games.GameRepository.replace_seat`, in the same
transaction).  The action log keeps the seat of every action, and the seat's *current* occupant
is in ``seats``; a hand-over row says who held the seat before and up to which action, so the
history can name whoever acted at the time:

* ``after_seq`` is the length of the log (``games.seq``) when the seat changed hands: the former
  occupant held the seat for the actions up to ``after_seq``, the new one from ``after_seq + 1``.
  ``seq`` only grows (an undo marks actions, it never reuses their numbers), so the position is
  exact even around undone actions.
* Rows are append-only and ordered by ``(after_seq, id)``; a seat may change hands several times.

Games started before schema 7 are back-filled (:func:`backfill_handovers`): a seat whose
``joined_at`` is after the game's start was handed over then; its former player is the last
user who acted for it before that moment.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from storage.records import Clock, SeatRecord, from_ms_required
from storage.sql import Row, Tx

log = logging.getLogger(__name__)

Reason = Literal["left", "clock", "replaced", "timeout", "returned"]
REASONS: tuple[Reason, ...] = ("left", "clock", "replaced", "timeout", "returned")
"""``left``: the player gave up the seat (``/game leave``); ``clock``: the table's vote let an
AI take it (``/game kick``); ``timeout``: the player's time bank ran out and an AI stands in
for them; ``returned``: they took the seat back from that AI (schema 19); ``replaced``: any
other hand-over."""

HANDOVER_COLUMNS = (
    "id, game_id, seat, after_seq, from_user_id, from_ai_policy, to_user_id, to_ai_policy,"
    " reason, at"
)
SELECT_HANDOVERS = (
    f"SELECT {HANDOVER_COLUMNS} FROM seat_handovers WHERE game_id = ? ORDER BY after_seq, id"
)


@dataclass(frozen=True, slots=True)
class SeatHandover:
    """One seat changing hands in a running game."""

    game_id: int
    seat: int
    after_seq: int
    """The log's length then: the former occupant held the seat for the actions up to here."""
    from_user_id: int | None
    from_ai_policy: str | None
    to_user_id: int | None
    to_ai_policy: str | None
    reason: Reason
    at: datetime

    @property
    def from_human(self) -> bool:
        return self.from_user_id is not None

    @property
    def to_human(self) -> bool:
        return self.to_user_id is not None


def _reason(text: object) -> Reason:
    for reason in REASONS:
        if reason == text:
            return reason
    return "replaced"


def handover_record(row: Row) -> SeatHandover:
    return SeatHandover(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        after_seq=int(row["after_seq"]),
        from_user_id=row["from_user_id"],
        from_ai_policy=row["from_ai_policy"],
        to_user_id=row["to_user_id"],
        to_ai_policy=row["to_ai_policy"],
        reason=_reason(row["reason"]),
        at=from_ms_required(row["at"]),
    )


def occupant_at(
    seat: SeatRecord, handovers: Iterable[SeatHandover], seq: int
) -> tuple[int | None, str | None]:
    """``(user_id, ai_policy)`` of whoever held ``seat`` for the action ``seq``: the former
    occupant of the first later hand-over of that seat, else its current occupant."""
    for handover in sorted(handovers, key=lambda h: h.after_seq):
        if handover.seat == seat.seat and handover.after_seq >= seq:
            return handover.from_user_id, handover.from_ai_policy
    return seat.user_id, seat.ai_policy


async def insert_handover(
    tx: Tx,
    game_id: int,
    before: SeatRecord,
    *,
    after_seq: int,
    user_id: int | None,
    ai_policy: str | None,
    reason: Reason,
    now: int,
) -> SeatHandover:
    """Record that ``before`` (the seat as it was) goes to ``user_id`` or ``ai_policy`` now."""
    if reason not in REASONS:
        raise ValueError(f"unknown hand-over reason {reason!r}")
    await tx.execute(
        "INSERT INTO seat_handovers (game_id, seat, after_seq, from_user_id, from_ai_policy,"
        " to_user_id, to_ai_policy, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, before.seat, after_seq, before.user_id, before.ai_policy, user_id, ai_policy,
         reason, now),
    )
    return SeatHandover(game_id, before.seat, after_seq, before.user_id, before.ai_policy,
                        user_id, ai_policy, reason, from_ms_required(now))


# --- the schema 7 back-fill -------------------------------------------------------------------


async def backfill_handovers(tx: Tx, clock: Clock) -> None:
    """Schema 7: a seat of a started game whose ``joined_at`` is after the start changed hands
    then (``replace_seat`` dates the seat).  Its former occupant is the last user who acted for
    it before that moment (the log's ``user_id``); a seat none acted for is left alone, its
    history cannot be told.  The reason is ``clock`` when a clock vote on that player's seat
    ended in a takeover, else ``left``."""
    del clock  # the rows are dated by the seats themselves
    seats = await tx.fetchall(
        "SELECT s.game_id, s.seat, s.user_id, s.ai_policy, s.joined_at FROM seats AS s"
        " JOIN games AS g ON g.id = s.game_id"
        " WHERE g.started_at IS NOT NULL AND s.joined_at > g.started_at"
        " ORDER BY s.game_id, s.seat"
    )
    for row in seats:
        game_id, seat, joined = int(row["game_id"]), int(row["seat"]), int(row["joined_at"])
        after = await tx.scalar(
            "SELECT max(seq) FROM actions WHERE game_id = ? AND at < ?", (game_id, joined)
        )
        after_seq = int(after or 0)
        former = await tx.scalar(
            "SELECT user_id FROM actions WHERE game_id = ? AND seat = ? AND seq <= ?"
            " AND user_id IS NOT NULL ORDER BY seq DESC LIMIT 1",
            (game_id, seat, after_seq),
        )
        if former is None or former == row["user_id"]:
            continue
        voted = await tx.scalar(
            "SELECT count(*) FROM clock_votes WHERE game_id = ? AND seat = ? AND user_id = ?"
            " AND status = 'takeover'",
            (game_id, seat, former),
        )
        reason: Reason = "clock" if voted else "left"
        await tx.execute(
            "INSERT INTO seat_handovers (game_id, seat, after_seq, from_user_id, to_user_id,"
            " to_ai_policy, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seat, after_seq, former, row["user_id"], row["ai_policy"], reason, joined),
        )
        log.info("schema 7 back-fill: game %d seat %d was handed over after action %d",
                 game_id, seat, after_seq)

