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
from dataclasses import dataclass
from typing import Any

from storage.bridge import engine_game, snapshot_of
from storage.changes import fetch, set_waiting
from storage.database import Database
from storage.errors import NotActive, WrongStatus
from storage.records import ActionRecord, GameRecord, GameStatus, from_ms_required
from storage.rows import ACTION_COLUMNS, NOT_UNDONE, action_record
from storage.sql import Tx
from storage.verify import replay_log


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
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND {NOT_UNDONE}"
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
        # Seats still asked keep their waiting time; the others are asked from now on.
        seats = await set_waiting(tx, record, snap.to_act, None, now)
        new = dataclasses.replace(
            record,
            version=record.version + 1,
            updated_at=from_ms_required(now),
            last_action_at=from_ms_required(now),
            seats=seats,
        )
        return UndoResult(new, state, tuple(action_record(a) for a in undone))

    return await db.write(body)
