"""Taking decisions back: :meth:`storage.games.GameRepository.undo_last`.

The action log stays append-only.  An undo appends a mark for each action it takes back
(``undone_actions``) and, in the same transaction, stores the snapshot rebuilt by replaying the
remaining actions, bumps the version and sets the seats to act.  Every replay of the log
(``verify``, ``rebuild_snapshot``) and :meth:`GameQueries.actions` skip the marked actions, so
``python -m storage verify`` keeps proving that the snapshot is what the log says.

Which actions may be taken back (whose decision, whether it revealed anything) is the caller's
rule; the storage only requires that they are the last ones that count and the game is active.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.bridge import engine_game, snapshot_of
from storage.changes import Wait, fetch, set_waiting, store_waits
from storage.database import Database
from storage.errors import NotActive, WrongStatus
from storage.records import (
    ActionRecord,
    GameRecord,
    GameStatus,
    SeatRecord,
    from_ms,
    from_ms_required,
    to_ms,
)
from storage.rows import ACTION_COLUMNS, NOT_UNDONE, action_record
from storage.sql import Row, Tx
from storage.verify import replay_log


def seat_before(record: GameRecord, seat: SeatRecord, user_id: int | None) -> str | None:
    """What a move of ``seat`` keeps of it for an undo (schema 25): its wait and bank as they
    were before the move, for a person's move (``user_id``) in a game with a pace (none
    otherwise: no bank to give back)."""
    if record.pace is None or user_id is None:
        return None
    since = None if seat.waiting_since is None else to_ms(seat.waiting_since)
    return json.dumps([since, seat.waiting_version, seat.bank_ms])


async def restore_waiting(tx: Tx, record: GameRecord, to_act: Sequence[int],
                          undone: Sequence[Row], now: int) -> tuple[SeatRecord, ...]:
    """The seats' waits and banks after taking back ``undone`` (oldest first) in a game with a
    pace: a seat whose move is taken back finds its wait and bank as they were before its first
    such move (the increment it earned, and the time since, are not its to keep); a wait the
    moves began ends with nothing spent; a seat asked throughout keeps its wait; any other seat
    asked is asked from now.  A move stored before schema 25, or by another person than the
    seat's now, keeps nothing: the seat is asked from now."""
    wanted = set(to_act)
    before: dict[int, tuple[int | None, int | None, int | None]] = {}
    for row in undone:
        seat = record.seat(int(row["seat"]))
        if int(row["seat"]) in before or seat is None or row["user_id"] != seat.user_id:
            continue
        stored = row["seat_before"]
        if stored is not None:
            since, version, bank = json.loads(stored)
            if since is not None:  # (a move made unasked: an 1897 announcement)
                before[seat.seat] = (since, version, bank)
    version = record.version + 1
    waits: list[Wait] = []
    for seat in record.seats:
        if seat.seat not in wanted:
            waits.append((None, None, seat.bank_ms))
        elif seat.seat in before:
            since, began, bank = before[seat.seat]
            waits.append((from_ms(since), began, bank))
        elif seat.waiting_since is not None:
            waits.append((seat.waiting_since, seat.waiting_version, seat.bank_ms))
        else:
            waits.append((from_ms_required(now), version, seat.bank_ms))
    return await store_waits(tx, record, waits)


@dataclass(frozen=True, slots=True)
class UndoResult:
    record: GameRecord
    state: Any
    """The engine state after the remaining actions (the new snapshot)."""
    undone: tuple[ActionRecord, ...]
    """The actions taken back, oldest first."""


async def undo_last(
    db: Database,
    game_id: int,
    count: int,
    *,
    expected_version: int | None = None,
    user_id: int | None = None,
) -> UndoResult:
    """Take back the last ``count`` actions that count (``count >= 1``) of an active game.

    :class:`StaleVersion` unless the game is at ``expected_version`` (when given);
    :class:`NotActive` for a game that is not being played; :class:`WrongStatus` when the log
    holds fewer than ``count`` actions; :class:`CorruptGame` when the rest does not replay."""
    if count < 1:
        raise ValueError("count must be at least 1")

    async def body(tx: Tx) -> UndoResult:
        record = await fetch(tx, game_id, expected_version)
        if record.status is not GameStatus.ACTIVE or record.seed is None:
            raise NotActive(game_id, record.status)
        rows = await tx.fetchall(
            f"SELECT {ACTION_COLUMNS}, seat_before FROM actions WHERE game_id = ? AND {NOT_UNDONE}"
            " ORDER BY seq",
            (game_id,),
        )
        if len(rows) < count:
            raise WrongStatus(game_id, record.status)
        kept, undone = rows[: len(rows) - count], rows[len(rows) - count :]
        game = engine_game(game_id, record.game)
        state, _ = replay_log(
            game_id, game, record.options, record.seed,
            [(int(a["seat"]), str(a["code"])) for a in kept],
        )
        snap = snapshot_of(game, state)
        if not snap.to_act:  # pragma: no cover - a prefix of a running game is running
            raise NotActive(game_id, GameStatus.FINISHED)
        now = db.now_ms()
        await tx.executemany(
            "INSERT INTO undone_actions (game_id, seq, undone_at, undone_by) VALUES (?, ?, ?, ?)",
            [(game_id, int(a["seq"]), now, user_id) for a in undone],
        )
        await tx.execute(
            "UPDATE games SET version = version + 1, snapshot = ?, updated_at = ?,"
            " last_action_at = ? WHERE id = ?",
            (snap.text, now, now, game_id),
        )
        if record.pace is None:
            # Seats still asked keep their waiting time; the others are asked from now on.
            seats = await set_waiting(tx, record, snap.to_act, None, now)
        else:  # the banks: as if the moves taken back had never been made
            seats = await restore_waiting(tx, record, snap.to_act, undone, now)
        new = dataclasses.replace(
            record,
            version=record.version + 1,
            updated_at=from_ms_required(now),
            last_action_at=from_ms_required(now),
            seats=seats,
        )
        return UndoResult(new, state, tuple(action_record(a) for a in undone))

    return await db.write(body)
