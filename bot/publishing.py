"""Each game's publications, one at a time and in order, never holding up the player.

A change is committed first; then its table, story posts and turn notices go to Discord (the
publisher).  That can take long: discord.py retries a 5xx for about 16 seconds before giving
up, a rate limit makes it wait.  So a publication runs as a task of its own: the change waits
for it :data:`PUBLISH_WAIT` seconds at most (normally it is done well before, and the player's
answer comes after the table, as they expect), then answers the player anyway with a short
"the table will catch up" (``TableUpdate.late``) while the task goes on.

One game's publications never overlap: each waits for the one before it (whatever its
outcome), so the table never goes back to an older version and a phase is told once.  A
publication that fails leaves the publish record (:mod:`storage.publications`) behind the
game; the reminder pass publishes such a game again (``GameService.resume_stalled``), and
:meth:`Publications.busy` keeps it from doing so while one is still under way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

PUBLISH_WAIT = 5.0
"""Seconds a change waits for its publication before answering the player without it (well
within Discord's 15 minutes for a deferred interaction's answer)."""


class Publications:
    def __init__(self, wait: float = PUBLISH_WAIT) -> None:
        self.wait = wait
        self._last: dict[int, asyncio.Task[bool]] = {}
        """Each game's latest publication (the next one waits for it)."""
        self._running: set[asyncio.Task[bool]] = set()
        """Every publication not finished (the earlier ones of a game too)."""
        self._missed: set[int] = set()
        """The games whose last publication did not show the table: the next one tells the
        story since the table last shown (``GameService._with_untold_story``)."""

    def missed(self, game_id: int) -> bool:
        """Whether the game's last publication (finished) did not show its table."""
        return game_id in self._missed

    def busy(self, game_id: int) -> bool:
        """Whether a publication of the game is under way (or waiting for the one before)."""
        task = self._last.get(game_id)
        return task is not None and not task.done()

    async def run(self, game_id: int, work: Callable[[], Awaitable[bool]]) -> bool | None:
        """Run ``work`` (a publication: ``True`` once the table is shown) after the game's
        previous one, and wait for it :attr:`wait` seconds at most: its result, or ``None``
        when it is still under way (it goes on; cancelling the caller does not stop it)."""
        before = self._last.get(game_id)

        async def publish() -> bool:
            if before is not None and not before.done():
                await asyncio.wait({before})
            shown = False
            try:
                shown = await work()
            finally:
                (self._missed.discard if shown else self._missed.add)(game_id)
            return shown

        task = asyncio.create_task(publish(), name=f"publish-{game_id}")
        self._last[game_id] = task
        self._running.add(task)
        task.add_done_callback(lambda done: self._done(game_id, done))
        finished, _ = await asyncio.wait({task}, timeout=self.wait)
        if task not in finished:
            log.info("game %s: the table is slow to publish; the player is answered without "
                     "waiting for it", game_id)
            return None
        if task.cancelled() or task.exception() is not None:  # (logged by _done)
            return False
        return task.result()

    def _done(self, game_id: int, task: asyncio.Task[bool]) -> None:
        self._running.discard(task)
        if self._last.get(game_id) is task:
            del self._last[game_id]
        if not task.cancelled() and task.exception() is not None:  # work reports its own
            log.error("game %s: a publication failed", game_id, exc_info=task.exception())

    async def settled(self) -> None:
        """Wait until no publication is under way (tests, and a clean shutdown)."""
        while self._running:
            await asyncio.wait(set(self._running))

    def close(self) -> None:
        for task in self._running:
            task.cancel()
