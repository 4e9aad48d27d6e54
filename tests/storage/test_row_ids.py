"""An id read from a custom_id may have any number of digits: one outside the 64-bit range of
SQLite's INTEGER and PostgreSQL's BIGINT names no game and no vote, instead of making the
driver raise (SQLite's OverflowError, asyncpg's DataError), on both backends."""

from __future__ import annotations

import pytest

from storage import GameNotFound, Storage
from storage.records import MAX_ROW_ID

HUGE = (MAX_ROW_ID + 1, 10**19 - 1, 10**30)


@pytest.mark.parametrize("game_id", HUGE)
async def test_a_game_id_beyond_64_bits_is_no_game(storage: Storage, game_id: int) -> None:
    with pytest.raises(GameNotFound):
        await storage.games.get(game_id)
    with pytest.raises(GameNotFound):
        await storage.games.load(game_id)
    with pytest.raises(GameNotFound):  # a change of it (the row read to change it)
        await storage.games.abandon(game_id)


@pytest.mark.parametrize("vote_id", HUGE)
async def test_a_vote_id_beyond_64_bits_is_no_vote(storage: Storage, vote_id: int) -> None:
    with pytest.raises(LookupError):
        await storage.reminders.vote(vote_id)
