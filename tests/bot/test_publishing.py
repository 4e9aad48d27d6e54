"""One game's publications run one at a time, in order, in the background: the change waits
for its own a bounded time, then goes on while it finishes (bot/publishing.py).  Gates are
``asyncio.Event``s set by the test: no wall clock is measured."""

from __future__ import annotations

import asyncio

from bot.publishing import Publications


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
