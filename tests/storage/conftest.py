"""Fixtures for storage tests: the storage on each backend (a real SQLite file in a temporary
directory, a fresh database on a real PostgreSQL server) and a clock the test moves by hand.

A test that takes ``storage`` runs once per backend; one that opens its own SQLite file
(``db_path``) is about SQLite alone."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engine  # noqa: F401  (registers "puerto-rico")
from storage import Storage
from tests.postgres import PostgresForTests
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


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def database_url(backend: str, db_path: Path, request: pytest.FixtureRequest
                       ) -> AsyncIterator[str]:
    """A new, empty database of ``backend`` at the latest schema."""
    async for url in _new_database(backend, db_path, request, migrated=True):
        yield url


@pytest.fixture
async def unmigrated_url(backend: str, db_path: Path, request: pytest.FixtureRequest
                         ) -> AsyncIterator[str]:
    """A new database of ``backend`` without even a schema (a test migrates it to the schema
    it wants, then stores rows as an older bot would have)."""
    async for url in _new_database(backend, db_path, request, migrated=False):
        yield url


async def _new_database(backend: str, db_path: Path, request: pytest.FixtureRequest, *,
                        migrated: bool) -> AsyncIterator[str]:
    if backend == "sqlite":  # (a file not there yet: Storage.open migrates it)
        yield f"sqlite:///{db_path}"
        return
    postgres: PostgresForTests = request.getfixturevalue("postgres")
    async with postgres.database(migrated=migrated) as url:
        yield url


@pytest.fixture
async def storage(database_url: str, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(database_url, clock=clock)
    try:
        yield store
    finally:
        await store.close()
