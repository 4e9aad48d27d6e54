"""Seating order: renumber a lobby's seats before the game starts (random seating).

Kept apart from :mod:`storage.games` because it is one small transaction of its own; the bot
calls it right before :meth:`storage.games.GameRepository.start`, under its per-game lock.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from storage.changes import bump, changed, fetch
from storage.database import Database
from storage.errors import NotInLobby
from storage.records import GameRecord, GameStatus
from storage.sql import Tx


async def reorder_seats(
    db: Database, game_id: int, order: Sequence[int], *, expected_version: int | None = None
) -> GameRecord:
    """Seat ``order[i]`` (a current seat number) becomes seat ``i``; bumps the version.

    ``order`` must be a permutation of the current seats (``ValueError`` otherwise).  Only a game
    in the lobby can be reseated (:class:`NotInLobby`); :class:`StaleVersion` as usual."""
    wanted = [int(s) for s in order]

    async def body(tx: Tx) -> GameRecord:
        record = await fetch(tx, game_id, expected_version)
        if record.status is not GameStatus.LOBBY:
            raise NotInLobby(game_id, record.status)
        if sorted(wanted) != [s.seat for s in record.seats]:
            raise ValueError(f"{wanted} is not a permutation of the seats of game {game_id}")
        count = len(wanted)
        # Two steps through numbers no seat uses, so the primary key never collides.
        await tx.execute(
            "UPDATE seats SET seat = seat + ? WHERE game_id = ?", (count, game_id)
        )
        await tx.executemany(
            "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?",
            [(new, game_id, old + count) for new, old in enumerate(wanted)],
        )
        now = db.now_ms()
        await bump(tx, record, now)
        by_number = {s.seat: s for s in record.seats}
        seats = tuple(
            dataclasses.replace(by_number[old], seat=new) for new, old in enumerate(wanted)
        )
        return changed(record, now, seats=seats)

    return await db.write(body)
