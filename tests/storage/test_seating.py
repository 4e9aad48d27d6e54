"""Random seating: a lobby's seats renumbered by a permutation as the game starts."""

from __future__ import annotations

import pytest

from storage import InvalidOptions, Storage


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
