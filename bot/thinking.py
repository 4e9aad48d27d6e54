"""The strong AI's thinking, off the event loop (issue #13).

A strong seat's decision is a search of about a second of CPU (:mod:`engine.search`): run on the
event loop it would stall every interaction of every game.  It runs in worker processes of
their own instead (:data:`AI_PROCESSES`, spawned at the first decision, shared by the process),
at a lower operating-system priority than the bot, so that a queue of AI seats thinking in many
games never takes a core from the bot: the bot's own work always goes first, and a decision
waits in the queue rather than an interaction.

A decision is a pure function of (game, position, seat, seed, budget): the worker gets the
position as the game's dump and gives back the action's code, so a replay, a restart or another
process makes the same choice.  When a worker cannot be used (it died, or the machine refuses
processes) the search runs in a thread; the bot goes on either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import get_game
from engine.search import DEFAULT_BUDGET, Analysis, Search

from .workers import follow_parent

log = logging.getLogger(__name__)

AI_PROCESSES = 1
"""Worker processes for the strong seats.  One: the machines the bot runs on have two cores,
and the other one is the bot's (and the image workers')."""
NICENESS = 10
"""How much lower than the bot's the workers' priority is (``os.nice``)."""


def _lower_priority() -> None:
    """Initializer of the AI's worker: below the bot in the scheduler, and gone with it."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)
    follow_parent()


def think(game_name: str, data: Mapping[str, Any], seat: int, seed: int, budget: int) -> str:
    """The strong choice of ``seat`` in the position ``data`` (the game's dump), as a code."""
    game = get_game(game_name)
    state = game.load(data)
    legal = game.legal_actions(state, seat)
    return game.encode_action(Search(game, budget).choose(state, seat, legal, seed))


def analyse(game_name: str, data: Mapping[str, Any], seat: int, seed: int,
            budget: int) -> Analysis:
    """Every candidate of ``seat``'s decision with its figures (for ``/… hint``)."""
    game = get_game(game_name)
    state = game.load(data)
    legal = game.legal_actions(state, seat)
    return Search(game, budget).analyse(state, seat, legal, seed)


class Thinker:
    """Runs the strong searches: ``await thinker.choose(...)`` never blocks the event loop.
    ``executor`` (tests) replaces the worker processes."""

    def __init__(self, budget: int = DEFAULT_BUDGET, executor: Executor | None = None,
                 processes: int = AI_PROCESSES) -> None:
        self.budget = budget
        self._given = executor
        self._processes = processes
        self._pool: Executor | None = None
        self._fallback: ThreadPoolExecutor | None = None

    def _executor(self) -> Executor:
        if self._given is not None:
            return self._given
        if self._pool is None:
            try:
                self._pool = ProcessPoolExecutor(
                    self._processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority)
            except (OSError, NotImplementedError):  # pragma: no cover - no processes here
                log.warning("no worker process for the AI; it thinks in a thread")
                self._pool = self._thread()
        return self._pool

    def _thread(self) -> ThreadPoolExecutor:
        if self._fallback is None:
            self._fallback = ThreadPoolExecutor(1, thread_name_prefix="ai")
        return self._fallback

    async def choose(self, game_name: str, data: Mapping[str, Any], seat: int,
                     seed: int) -> str:
        """The strong seat's action code (computed off the event loop)."""
        code: str = await self._run(think, game_name, data, seat, seed)
        return code

    async def analyse(self, game_name: str, data: Mapping[str, Any], seat: int,
                      seed: int) -> Analysis:
        """Every candidate of the seat's decision, the best first (``/game hint``)."""
        analysis: Analysis = await self._run(analyse, game_name, data, seat, seed)
        return analysis

    async def _run(self, job: Callable[..., Any], game_name: str, data: Mapping[str, Any],
                   seat: int, seed: int) -> Any:
        loop = asyncio.get_running_loop()
        args = (game_name, dict(data), seat, seed, self.budget)
        try:
            return await loop.run_in_executor(self._executor(), job, *args)
        except BrokenProcessPool:  # a worker died: new workers next time, a thread now
            log.exception("the AI worker died; thinking in a thread")
            self._pool = None
            return await loop.run_in_executor(self._thread(), job, *args)

    def close(self) -> None:
        for pool in (self._pool, self._fallback):
            if pool is not None and pool is not self._given:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._fallback = None
