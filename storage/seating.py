"""Seating order: renumber a lobby's seats before the game starts (random seating).

:func:`reseat` is the change inside a transaction: :meth:`storage.games.GameRepository.start`
makes it part of the start (``order=``), so a game is either still a lobby in its old order or
started in its new one.  :func:`reorder_seats` is the same change as a transaction of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from storage.changes import bump, changed, fetch
from storage.database import Database
from storage.errors import NotInLobby
from storage.records import GameRecord, GameStatus, SeatRecord
from storage.sql import Tx


async def reseat(tx: Tx, record: GameRecord, order: Sequence[int]) -> tuple[SeatRecord, ...]:
    """In ``tx``: seat ``order[i]`` (a current seat number) becomes seat ``i``; the seats, in
    their new order.  ``ValueError`` unless ``order`` is a permutation of the seats; the caller
    has checked that the game is a lobby and bumps its version."""
    wanted = [int(s) for s in order]
    if sorted(wanted) != [s.seat for s in record.seats]:
        raise ValueError(f"{wanted} is not a permutation of the seats of game {record.id}")
    count = len(wanted)
    # Two steps through numbers no seat uses, so the primary key never collides.
    await tx.execute("UPDATE seats SET seat = seat + ? WHERE game_id = ?", (count, record.id))
    await tx.executemany(
        "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?",
        [(new, record.id, old + count) for new, old in enumerate(wanted)],
    )
    by_number = {s.seat: s for s in record.seats}
    return tuple(dataclasses.replace(by_number[old], seat=new) for new, old in enumerate(wanted))


async def reorder_seats(
    db: Database, game_id: int, order: Sequence[int], *, expected_version: int | None = None
) -> GameRecord:
    """Seat ``order[i]`` (a current seat number) becomes seat ``i``; bumps the version.

    ``order`` must be a permutation of the current seats (``ValueError`` otherwise).  Only a game
    in the lobby can be reseated (:class:`NotInLobby`); :class:`StaleVersion` as usual."""

    async def body(tx: Tx) -> GameRecord:
        record = await fetch(tx, game_id, expected_version)
        if record.status is not GameStatus.LOBBY:
            raise NotInLobby(game_id, record.status)
        seats = await reseat(tx, record, order)
        now = db.now_ms()
        await bump(tx, record, now)
        return changed(record, now, seats=seats)

    return await db.write(body)
