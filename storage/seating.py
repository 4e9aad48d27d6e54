"""Seating order: renumber a lobby's seats before the game starts (random seating).

:func:`reseat` is the change inside a transaction: :meth:`storage.games.GameRepository.start`
makes it part of the start (``order=``), so a game is either still a lobby in its old order or
started in its new one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from storage.records import GameRecord, SeatRecord
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

