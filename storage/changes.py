"""Steps shared by the write transactions of :mod:`storage.games`."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from engine.core import EngineError, Game, get_game
from storage.bridge import INSERT_RESULT, result_rows
from storage.choices import record_choices
from storage.errors import ChannelBusy, GameNotFound, StaleVersion
from storage.ratings import rate_game
from storage.records import (
    JSON,
    GameRecord,
    SeatRecord,
    from_ms_required,
    storable_id,
    to_ms,
)
from storage.rows import SELECT_GAME, SELECT_GAME_WITH_SNAPSHOT, game_record
from storage.sql import Row, Tx
from storage.timebank import charged, settle

MAX_PROBED_PLAYERS = 12
"""The lobby asks the engine which player counts it accepts up to this many seats."""


@lru_cache(maxsize=256)
def lobby_capacity(game_name: str, options_text: str) -> int:
    """How many seats a lobby can hold: ``options["players"]`` when the creator chose the table
    size, else the largest player count the engine accepts with these options."""
    options = json.loads(options_text)
    if isinstance(options.get("players"), int):
        return int(options["players"])
    game: Game[Any] = get_game(game_name)
    for players in range(MAX_PROBED_PLAYERS, 0, -1):
        try:
            game.normalize_options({**options, "players": players})
        except EngineError:
            continue
        return players
    return MAX_PROBED_PLAYERS


async def fetch_row(tx: Tx, game_id: int, *, snapshot: bool) -> Row:
    """The game's row, read to change it.  On PostgreSQL the row is locked for the rest of the
    transaction: a second writer of the same game waits, then is aborted as a serialization
    failure and runs again on the new version (SQLite's writers already run one at a time)."""
    if not storable_id(game_id):
        raise GameNotFound(game_id)
    sql = SELECT_GAME_WITH_SNAPSHOT if snapshot else SELECT_GAME
    if tx.dialect == "postgresql":
        sql += " FOR UPDATE OF g"
    row = await tx.fetchone(sql, (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    return row


def check_version(record: GameRecord, expected_version: int | None) -> None:
    if expected_version is not None and record.version != expected_version:
        raise StaleVersion(record.id, expected_version, record.version)


async def fetch(tx: Tx, game_id: int, expected_version: int | None) -> GameRecord:
    record = game_record(await fetch_row(tx, game_id, snapshot=False))
    check_version(record, expected_version)
    return record


async def bump(tx: Tx, record: GameRecord, now: int) -> None:
    changed = await tx.execute(
        "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
        (now, record.id, record.version),
    )
    if changed != 1:  # pragma: no cover - impossible inside BEGIN IMMEDIATE
        raise StaleVersion(record.id, record.version, -1)


def changed(record: GameRecord, now: int, **fields: Any) -> GameRecord:
    return dataclasses.replace(
        record, version=record.version + 1, updated_at=from_ms_required(now), **fields
    )


async def set_waiting(
    tx: Tx, record: GameRecord, to_act: Sequence[int], actor: int | None, now: int
) -> tuple[SeatRecord, ...]:
    """Set ``waiting_since`` for the seats the prompt names (kept for seats that were already
    waiting, unless the seat just acted) and clear it for the others.  A new wait also records
    ``waiting_version``: the version this change gives the game (every caller bumps it once).
    A wait that ends spends its time from the seat's bank, and ``actor``'s move adds the pace's
    increment (:func:`storage.timebank.settle`)."""
    wanted = set(to_act)
    version = record.version + 1
    waits: list[Wait] = []
    moment = from_ms_required(now)
    pace = record.pace
    for seat in record.seats:
        if seat.seat in wanted:
            keep = seat.waiting_since is not None and seat.seat != actor
            since = seat.waiting_since if keep else moment
            began = seat.waiting_version if keep else version
        else:
            since = began = None
        bank = seat.bank_ms
        if pace is not None and bank is not None and seat.waiting_since is not None and (
                since != seat.waiting_since):  # the wait ended (or the seat moved and waits anew)
            used = charged(seat.waiting_since, moment, record.quiet, record.stops(seat))
            bank = settle(pace, bank, used, seat.seat == actor)
        waits.append((since, began, bank))
    return await store_waits(tx, record, waits)


Wait = tuple[datetime | None, int | None, int | None]
"""A seat's ``waiting_since``, ``waiting_version`` and ``bank_ms``."""


async def store_waits(tx: Tx, record: GameRecord, waits: Sequence[Wait]
                      ) -> tuple[SeatRecord, ...]:
    """Store ``waits``, one per seat of ``record`` in order, writing only the seats whose wait
    or bank changed; the seats as they are then."""
    new_seats: list[SeatRecord] = []
    updates: list[tuple[int | None, int | None, int | None, int, int]] = []
    for seat, (since, began, bank) in zip(record.seats, waits, strict=True):
        if since == seat.waiting_since and began == seat.waiting_version and bank == seat.bank_ms:
            new_seats.append(seat)
            continue
        updates.append(
            (None if since is None else to_ms(since), began, bank, record.id, seat.seat))
        new_seats.append(dataclasses.replace(
            seat, waiting_since=since, waiting_version=began, bank_ms=bank))
    if updates:
        await tx.executemany(
            "UPDATE seats SET waiting_since = ?, waiting_version = ?, bank_ms = ?"
            " WHERE game_id = ? AND seat = ?",
            updates,
        )
    return tuple(new_seats)


def handed_bank(record: GameRecord, seat: SeatRecord, user_id: int | None, now: int,
                bank_ms: int | None = None) -> int | None:
    """The bank of ``seat`` once handed to ``user_id`` (``None``: an AI) at ``now``: a person
    new to it starts with ``bank_ms``, else the pace's first bank, counted from now even in a
    wait already begun (what the wait spent before is added back, so that
    :func:`storage.timebank.left` gives the whole bank at the hand-over)."""
    if record.pace is None or user_id is None:
        return None
    spent = 0 if seat.waiting_since is None else charged(
        seat.waiting_since, from_ms_required(now), record.quiet, record.stops(seat))
    return (record.pace.start_ms if bank_ms is None else bank_ms) + spent



async def open_banks(tx: Tx, record: GameRecord) -> GameRecord:
    """At the start: every person's seat gets the pace's first bank (none without a pace)."""
    pace = record.pace
    if pace is None:
        return record
    await tx.execute(
        "UPDATE seats SET bank_ms = ? WHERE game_id = ? AND user_id IS NOT NULL",
        (pace.start_ms, record.id))
    return dataclasses.replace(record, seats=tuple(
        dataclasses.replace(s, bank_ms=None if s.user_id is None else pace.start_ms)
        for s in record.seats))


async def store_results(
    tx: Tx, game_id: int, outcome: JSON, seats: Sequence[SeatRecord]
) -> None:
    players = {s.seat: (s.user_id, s.ai_policy) for s in seats}
    await tx.executemany(INSERT_RESULT, result_rows(game_id, outcome, players))
    await rate_game(tx, game_id)  # in the same transaction (storage/ratings.py)
    await record_choices(tx, game_id)  # the favourites (storage/choices.py)


async def check_channel_free(tx: Tx, channel_id: int, except_game: int | None = None) -> None:
    other = await tx.scalar(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')"
        " AND id IS DISTINCT FROM ?",
        (channel_id, except_game),
    )
    if other is not None:
        raise ChannelBusy(channel_id, int(other))
