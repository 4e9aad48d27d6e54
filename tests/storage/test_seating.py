"""Random seating: a lobby's seats renumbered by a permutation before the start."""

from __future__ import annotations

import pytest

from storage import InvalidOptions, NotInLobby, StaleVersion, Storage
from storage.seating import reorder_seats


async def test_reorder_seats_renumbers_and_bumps_the_version(storage: Storage) -> None:
    """Seat order[i] becomes seat i; users and AI policies move with their seats."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    await storage.games.join(record.id, 2)
    record = await storage.games.add_ai(record.id, "heuristic")
    moved = await reorder_seats(storage.db, record.id, [2, 0, 1], expected_version=record.version)
    assert [(s.seat, s.user_id, s.ai_policy) for s in moved.seats] == [
        (0, None, "heuristic"), (1, 1, None), (2, 2, None)
    ]
    assert moved.version == record.version + 1
    assert moved == await storage.games.get(record.id)
    started = await storage.games.start(record.id, seed=5, expected_version=moved.version)
    assert started.seat_of(1) is not None and started.seat_of(1).seat == 1  # type: ignore[union-attr]


async def test_reorder_seats_refusals(storage: Storage) -> None:
    """Not a permutation: ValueError; outdated version: StaleVersion; started: NotInLobby."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    record = await storage.games.join(record.id, 2)
    with pytest.raises(ValueError):
        await reorder_seats(storage.db, record.id, [0, 0])
    with pytest.raises(StaleVersion):
        await reorder_seats(storage.db, record.id, [1, 0], expected_version=record.version - 1)
    assert (await storage.games.get(record.id)) == record
    await storage.games.start(record.id, seed=1)
    with pytest.raises(NotInLobby):
        await reorder_seats(storage.db, record.id, [1, 0])


async def test_start_reseats_and_sets_options_in_its_own_transaction(storage: Storage) -> None:
    """``start(order=…, options=…)``: the new order and options arrive with the start, one
    version later; a start the engine refuses leaves the lobby's seats and options as they were
    (nothing half done for a second click to trip over)."""
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    await storage.games.join(record.id, 2)
    record = await storage.games.add_ai(record.id, "heuristic")
    lobby_options = dict(record.options)
    with pytest.raises(InvalidOptions):
        await storage.games.start(
            record.id, seed=5, expected_version=record.version,
            options={**record.options, "modules": ["no_such_module"]}, order=[2, 0, 1],
        )
    assert await storage.games.get(record.id) == record
    started = await storage.games.start(
        record.id, seed=5, expected_version=record.version,
        options={**record.options, "modules": ["festival"]}, order=[2, 0, 1],
    )
    assert started.version == record.version + 1
    assert [(s.seat, s.user_id, s.ai_policy) for s in started.seats] == [
        (0, None, "heuristic"), (1, 1, None), (2, 2, None)
    ]
    assert started.options["modules"] == ["festival"] and started.options["players"] == 3
    assert lobby_options.get("modules") != ["festival"]
    assert started == await storage.games.get(record.id)
    loaded = await storage.games.load(record.id)
    assert loaded.state.rs.modules == ("festival",)


async def test_start_refuses_an_order_that_is_not_a_permutation(storage: Storage) -> None:
    record = await storage.games.create_lobby("puerto-rico", creator_id=1)
    await storage.games.join(record.id, 2)
    record = await storage.games.join(record.id, 3)
    for order in ([0, 1], [0, 0, 1], [1, 2, 3]):
        with pytest.raises(ValueError, match="not a permutation"):
            await storage.games.start(record.id, seed=1, order=order)
    assert await storage.games.get(record.id) == record
    started = await storage.games.start(record.id, seed=1, order=[0, 1, 2])  # as they sit
    assert [s.user_id for s in started.seats] == [1, 2, 3]
