"""The database stops answering, then comes back: said once each way, and the bot catches up.

The storage reports every use of the database (:class:`storage.database.Availability`).  While
it does not answer, each click or command is refused with one clear line ("the game database
does not answer right now, nothing was changed"), and what was under way when it went (a
table not shown, a turn notice not sent, an AI move not made) is left as stored.  This module
logs one WARNING when the outage begins, asks the database every :data:`PROBE_PERIOD` seconds
whether it is back (nobody may click meanwhile), logs one line when it is, and then publishes
again what it left behind (``GameService.resume_all``: the tables behind their game, the turn
notices never sent, the AI seats waiting).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from storage import Database, DatabaseUnavailable

log = logging.getLogger(__name__)

PROBE_PERIOD = 5.0
"""Seconds between two questions to a database that does not answer."""


class DatabaseWatch:
    def __init__(self, db: Database, catch_up: Callable[[], Awaitable[int]], *,
                 period: float = PROBE_PERIOD) -> None:
        self.db = db
        self.catch_up = catch_up
        self.period = period
        self._probe: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        db.availability.losers.append(self._lost)
        db.availability.listeners.append(self._back)

    def _lost(self, exc: BaseException) -> None:
        log.warning("the database %s does not answer (%s: %s); moves are refused until it is "
                    "back, asking it again every %g s", self.db.url, type(exc).__name__,
                    str(exc)[:200], self.period)
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._ask(), name="db-probe")

    async def _ask(self) -> None:
        """Until the database answers (any statement that succeeds ends the outage)."""
        while self.db.availability.down:
            await asyncio.sleep(self.period)
            try:
                await self.db.scalar("SELECT 1")
            except DatabaseUnavailable:
                continue
            except Exception:  # another failure is no outage: the next use tells
                log.debug("the database probe failed", exc_info=True)

    def _back(self, seconds: float) -> None:
        log.warning("the database %s answers again after %.1f s; publishing what it left "
                    "behind (tables, turn notices, AI moves)", self.db.url, seconds)
        task = asyncio.get_running_loop().create_task(self._catch_up(), name="db-catch-up")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self) -> None:
        try:
            await self.catch_up()
        except DatabaseUnavailable:
            pass  # gone again: its next return catches up
        except Exception:
            log.exception("catching up after the database outage failed")

    async def settled(self) -> None:
        """Wait for the catching up under way (tests)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def close(self) -> None:
        self.db.availability.losers.remove(self._lost)
        self.db.availability.listeners.remove(self._back)
        for task in [self._probe, *self._tasks]:
            if task is not None:
                task.cancel()
