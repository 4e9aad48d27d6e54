"""One game's publications run one at a time, in order, in the background: the change waits
for its own a bounded time, then goes on while it finishes (bot/publishing.py).  Gates are
``asyncio.Event``s set by the test: no wall clock is measured."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.changes import TableUpdate
from bot.publishing import Publications
from bot.seats import Actor
from bot.service import GameService
from engine import get_game
from storage import GameRecord, Storage

GAME = get_game("puerto-rico")


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


async def test_a_slow_publication_goes_on_after_the_caller_is_answered() -> None:
    publications = Publications(wait=0.01)
    gate = asyncio.Event()
    order: list[str] = []

    async def slow() -> bool:
        await gate.wait()
        order.append("first")
        return False  # the table was not shown

    async def quick() -> bool:
        order.append("second")
        return True

    assert await publications.run(1, slow) is None  # still under way: the caller goes on
    assert publications.busy(1) and not publications.missed(1)
    second = asyncio.create_task(publications.run(1, quick))
    await asyncio.sleep(0)
    assert order == []  # the second waits for the first, whatever the first's outcome
    gate.set()
    await publications.settled()
    assert order == ["first", "second"]
    assert (await second) in (None, True)  # (its caller may have stopped waiting)
    assert not publications.busy(1) and not publications.missed(1)  # the last one showed it


async def test_a_failed_publication_is_remembered_until_one_shows_the_table() -> None:
    publications = Publications()

    async def failed() -> bool:
        return False

    async def broken() -> bool:
        raise RuntimeError("a bug: logged, the caller answered")

    assert await publications.run(7, failed) is False
    assert publications.missed(7) and not publications.missed(8)
    assert await publications.run(7, broken) is False
    assert publications.missed(7)

    async def shown() -> bool:
        return True

    assert await publications.run(7, shown) is True
    assert not publications.missed(7)


async def test_closing_cancels_every_publication_under_way() -> None:
    publications = Publications(wait=0.0)
    never = asyncio.Event()

    async def stuck() -> bool:
        await never.wait()
        return True

    await publications.run(1, stuck)
    await publications.run(1, stuck)  # chained behind the first
    publications.close()
    await publications.settled()
    assert not publications.busy(1)


async def test_a_late_publication_is_read_since_once() -> None:
    """``read_since_late``: after a publication its change stopped waiting for, the next one
    to ask is told (once) to read the game again; otherwise never."""
    publications = Publications(wait=0.0)
    gate = asyncio.Event()

    async def quick() -> bool:
        return True

    async def slow() -> bool:
        await gate.wait()
        return True

    assert await Publications().run(3, quick) is True
    assert not publications.read_since_late(3)
    assert await publications.run(3, slow) is None  # the caller goes on: late
    gate.set()
    await publications.settled()
    assert publications.read_since_late(3) and not publications.read_since_late(3)
    assert not publications.read_since_late(4)


class Poster:
    """A publisher posting like ``bot.posting.TablePoster``: the table message is stored the
    first time, and each table is drawn for the game's messages as the update carries them.
    Its first publication is held at ``gate`` (Discord slow to answer)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.gate = asyncio.Event()
        self.seen: list[dict[str, int]] = []

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: f"P{s.seat}" for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        self.seen.append(dict(update.record.messages))
        await self.gate.wait()
        if "table" not in update.record.messages:
            await self.storage.games.set_message(update.record.id, "table", 900 + len(self.seen),
                                                 channel_id=update.record.channel_id)

    async def notify_turn(self, update: TableUpdate) -> None:
        return None


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


async def test_the_table_is_posted_once_when_its_first_publication_was_late(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #34: the publication gets the game's messages from the change (no second read),
    yet a publication that went on after its change was answered (its table message stored
    after the next change read the game) is not missed: the next one reads them again and
    edits that table instead of posting a second one.  In the usual case nothing is read."""
    poster = Poster(storage)
    svc = GameService(storage, poster, rng=Keep(1), renderer=None, publish_wait=0.0)
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    max_players=2, ai_seats=0)
    record = await svc.join(record.id, 2)
    started = await svc.start(record.id, Actor(1), record.version)
    assert started.late  # the first table still being posted: the lock is let go
    loaded = await storage.games.load(record.id)
    seat = GAME.prompt(loaded.state).seats[0]  # type: ignore[union-attr]
    user = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
    code = GAME.encode_action(GAME.legal_actions(loaded.state, seat)[0])
    moved = await svc.submit(record.id, user or 0, loaded.record.version, code)
    assert "table" not in moved.record.messages  # read before the first table was stored
    poster.gate.set()
    await svc.settled()
    assert [m.get("table") for m in poster.seen] == [None, 901]  # edited, not posted again
    reads = 0
    real = storage.games.get

    async def counted(game_id: int) -> GameRecord:
        nonlocal reads
        reads += 1
        return await real(game_id)

    monkeypatch.setattr(storage.games, "get", counted)
    svc.publications.wait = 5.0
    loaded = await storage.games.load(record.id)
    seat = GAME.prompt(loaded.state).seats[0]  # type: ignore[union-attr]
    user = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
    code = GAME.encode_action(GAME.legal_actions(loaded.state, seat)[0])
    assert not (await svc.submit(record.id, user or 0, loaded.record.version, code)).update.late
    assert poster.seen[-1]["table"] == 901 and reads == 0
