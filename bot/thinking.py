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

A hint (``/game hint``, :mod:`engine.advice`) is one person waiting on one answer, not a table's
AI: it has a worker process of its own (it never queues behind the strong seats' decisions), a
budget ``HINT_FACTOR`` times a move's, and at most ``HINT_SECONDS`` of its worker's time (the race
stops between deals; its figures still compare the same deals, and too few of them show none).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import get_game
from engine.advice import Advice, advise
from engine.search import DEFAULT_BUDGET, Search

from .workers import follow_parent

log = logging.getLogger(__name__)

AI_PROCESSES = 1
"""Worker processes for the strong seats.  One: the machines the bot runs on have two cores,
and the other one is the bot's (and the image workers')."""
NICENESS = 10
"""How much lower than the bot's the workers' priority is (``os.nice``)."""
HINT_FACTOR = 8
"""A hint's budget in moves' budgets: a person waits on one answer worth reading (about 150
playouts of each of the best three choices at a Puerto Rico opening at the default budget)."""
HINT_SECONDS = 10.0
"""The most a hint thinks, in its worker (a slow or busy host gets fewer playouts, said so)."""


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


def hint(game_name: str, data: Mapping[str, Any], seat: int, seed: int, budget: int,
         keep: int, seconds: float | None) -> Advice:
    """The best ``keep`` choices of ``seat``'s decision in ``data`` with their figures, within
    ``budget`` and ``seconds`` of this worker's time (``None``: the budget only)."""
    game = get_game(game_name)
    state = game.load(data)
    legal = game.legal_actions(state, seat)
    stop = None
    if seconds is not None:
        deadline = time.monotonic() + seconds

        def stop() -> bool:
            return time.monotonic() >= deadline

    return advise(Search(game, budget), state, seat, legal, seed, keep=keep, stop=stop)


class Thinker:
    """Runs the strong searches: ``await thinker.choose(...)`` never blocks the event loop.
    ``executor`` (tests) replaces the worker processes; ``hint_budget`` (engine actions) and
    ``hint_seconds`` (``None``: no time bound) size a hint."""

    def __init__(self, budget: int = DEFAULT_BUDGET, executor: Executor | None = None,
                 processes: int = AI_PROCESSES, *, hint_budget: int | None = None,
                 hint_seconds: float | None = HINT_SECONDS) -> None:
        self.budget = budget
        self.hint_budget = HINT_FACTOR * budget if hint_budget is None else hint_budget
        self.hint_seconds = hint_seconds
        self._given = executor
        self._processes = processes
        self._pool: Executor | None = None
        self._hint_pool: Executor | None = None
        self._fallback: ThreadPoolExecutor | None = None

    def _executor(self) -> Executor:
        if self._given is not None:
            return self._given
        if self._pool is None:
            self._pool = self._processes_or_thread(self._processes)
        return self._pool

    def _hint_executor(self) -> Executor:
        if self._given is not None:
            return self._given
        if self._hint_pool is None:  # one process: hints wait on each other, not on the seats
            self._hint_pool = self._processes_or_thread(1)
        return self._hint_pool

    def _processes_or_thread(self, count: int) -> Executor:
        try:
            return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_lower_priority)
        except (OSError, NotImplementedError):  # pragma: no cover - no processes here
            log.warning("no worker process for the AI; it thinks in a thread")
            return self._thread()

    def _thread(self) -> ThreadPoolExecutor:
        if self._fallback is None:
            self._fallback = ThreadPoolExecutor(1, thread_name_prefix="ai")
        return self._fallback

    async def choose(self, game_name: str, data: Mapping[str, Any], seat: int,
                     seed: int) -> str:
        """The strong seat's action code (computed off the event loop)."""
        code: str = await self._run(
            False, think, game_name, dict(data), seat, seed, self.budget)
        return code

    async def advise(self, game_name: str, data: Mapping[str, Any], seat: int, seed: int,
                     keep: int) -> Advice:
        """The best ``keep`` choices of the seat's decision with their figures (``/game
        hint``), in the hints' own worker, within the hint's budget and time."""
        advice: Advice = await self._run(
            True, hint, game_name, dict(data), seat, seed, self.hint_budget, keep,
            self.hint_seconds)
        return advice

    async def _run(self, for_hint: bool, job: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        executor = self._hint_executor() if for_hint else self._executor()
        try:
            return await loop.run_in_executor(executor, job, *args)
        except BrokenProcessPool:  # a worker died: new workers next time, a thread now
            log.exception("the AI worker died; thinking in a thread")
            if for_hint:
                self._hint_pool = None
            else:
                self._pool = None
            return await loop.run_in_executor(self._thread(), job, *args)

    def close(self) -> None:
        for pool in (self._pool, self._hint_pool, self._fallback):
            if pool is not None and pool is not self._given:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._hint_pool = self._fallback = None
