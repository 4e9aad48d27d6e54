"""``Database.write(body, in_thread=True)``: the whole transaction in the connection's thread,
one hand-over from the event loop (the hot path of a move).  It commits what the body wrote,
rolls everything back when the body raises, refuses a body that awaits anything but its
statements (writing nothing), and leaves the connection usable by the ordinary path after.

SQLite's alone (PostgreSQL has no connection thread and ignores ``in_thread``): every test
here opens its own SQLite file instead of taking the two-backend ``storage`` fixture."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage
from storage.sql import ThreadTx, Tx
from tests.storage.conftest import FakeClock


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """An SQLite storage (this module's tests are about SQLite's connection thread)."""
    async with await Storage.open(db_path, clock=clock) as store:
        yield store


async def _count(storage: Storage) -> int:
    return int(await storage.db.scalar("SELECT count(*) FROM user_settings"))


async def test_a_write_in_the_thread_commits_and_runs_off_the_loop(storage: Storage) -> None:
    loop_thread = threading.get_ident()
    seen: list[tuple[type[Tx], int]] = []

    async def body(tx: Tx) -> int:
        seen.append((type(tx), threading.get_ident()))
        await tx.execute("INSERT INTO user_settings (user_id, updated_at) VALUES (?, 0)", (1,))
        await tx.executemany("INSERT INTO user_settings (user_id, updated_at) VALUES (?, 0)",
                             [(2,), (3,)])
        row = await tx.fetchone("SELECT count(*) FROM user_settings")
        assert row is not None
        assert [r[0] for r in await tx.fetchall("SELECT user_id FROM user_settings")] == [1, 2, 3]
        return int(row[0])

    assert await storage.db.write(body, in_thread=True) == 3
    [(kind, thread)] = seen
    assert kind is ThreadTx and thread != loop_thread
    assert await _count(storage) == 3


async def test_a_failing_body_writes_nothing(storage: Storage) -> None:
    async def body(tx: Tx) -> None:
        await tx.execute("INSERT INTO user_settings (user_id, updated_at) VALUES (?, 0)", (7,))
        raise LookupError("no")

    with pytest.raises(LookupError):
        await storage.db.write(body, in_thread=True)
    assert await _count(storage) == 0


async def test_a_body_that_waits_for_something_else_is_refused(storage: Storage) -> None:
    async def body(tx: Tx) -> None:
        await tx.execute("INSERT INTO user_settings (user_id, updated_at) VALUES (?, 0)", (8,))
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="awaited something else"):
        await storage.db.write(body, in_thread=True)
    assert await _count(storage) == 0

    async def ordinary(tx: Tx) -> None:  # the connection is as it was
        await tx.execute("INSERT INTO user_settings (user_id, updated_at) VALUES (?, 0)", (9,))
        await asyncio.sleep(0)

    await storage.db.write(ordinary)
    assert await _count(storage) == 1
