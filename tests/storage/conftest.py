"""Fixtures for storage tests: a real SQLite file in a temporary directory and a clock the test
moves by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engine  # noqa: F401  (registers "puerto-rico")
from storage import Storage
from tests.storage.counter_game import registered


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture(scope="package", autouse=True)
def counter_game_registered() -> Iterator[None]:
    """"test-counter" exists for the storage tests only."""
    with registered():
        yield


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "governor.db"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path, clock=clock)
    try:
        yield store
    finally:
        await store.close()
