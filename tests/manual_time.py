"""Seconds that pass only when a test says so: a monotonic clock and its ``sleep``, for the
code that waits out an interval (the notifier's DM interval and rate limit).

A test hands ``clock`` (the instance itself) and ``clock.sleep`` to the code, and calls
``clock.advance(seconds)`` when the interval has passed: every sleeper whose time has come wakes.
Nothing here depends on how fast the machine is."""

from __future__ import annotations

import asyncio
import heapq
import itertools


class ManualTime:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Until :meth:`advance` has moved the clock ``seconds`` on (or cancelled)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._order), wake))
        await wake

    async def skip(self, seconds: float) -> None:
        """A sleep whose seconds pass at once: the clock moves on by them and the sleeper goes
        on (the order of the waits is kept; a whole game's rate-limited DMs take no time)."""
        self.advance(max(seconds, 0.0))
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        """Move the clock on and wake the sleepers whose time has come."""
        self.now += seconds
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, wake = heapq.heappop(self._sleepers)
            if not wake.done():
                wake.set_result(None)

    @property
    def sleeping(self) -> int:
        """How many sleepers are waiting for the clock (cancelled ones not counted)."""
        return sum(1 for _, _, wake in self._sleepers if not wake.done())
