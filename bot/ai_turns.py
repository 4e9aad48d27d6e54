"""The moves a game makes by itself: forced decisions and the AI seats' choices, each its own
commit, until a person must decide.

A quick AI level chooses at once (:func:`engine.policies.make_policy`, seeded from the game
seed and the log position, so that a replay makes the same moves and a restart changes
nothing).  A level whose decisions are searches (:data:`THINKING_LEVELS`) thinks in the AI
workers (:class:`bot.thinking.Thinker`) after the table is shown, never inside an interaction:
one thinking task per game, which applies its move under the game's lock if the game is still
where it was, and looks again otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Event, Game, get_game
from engine.policies import make_policy
from storage import GameRecord, GameStatus, Storage

from .changes import record_waiting
from .history import History
from .publishing import Publishing
from .thinking import Thinker

log = logging.getLogger(__name__)

THINKING_LEVELS = frozenset({"strong"})
"""The levels whose decisions are searches: thought in :class:`Thinker`'s workers, after the
table is shown, never inside an interaction (:meth:`AiTurns.think_later`)."""
MAX_AUTOMATIC_STEPS = 5000  # a whole game is ~1000 actions; this only stops a runaway loop


@dataclass(frozen=True, slots=True)
class Thought:
    """A decision of a seat whose level searches: taken off the event loop, by ``seed``."""

    seat: int
    seed: int


class AiTurns:
    def __init__(self, storage: Storage, history: History, publishing: Publishing,
                 thinker: Thinker) -> None:
        self.storage = storage
        self.history = history
        self.publishing = publishing
        self.thinker = thinker
        self.tasks: dict[int, asyncio.Task[None]] = {}
        """The games an AI seat is thinking about, by id (one task each)."""
        self._wanted: set[int] = set()

    def close(self) -> None:
        for task in self.tasks.values():
            task.cancel()

    async def settled(self) -> None:
        """Wait until no AI seat is thinking (tests, and a clean shutdown)."""
        while self.tasks:
            await asyncio.gather(*self.tasks.values(), return_exceptions=True)

    async def play(self, record: GameRecord, state: Any) -> tuple[Any, GameRecord, list[Event]]:
        """Apply forced decisions and the AI seats' choices until the prompt names only people
        with a real choice (or the game is over, or a seat thinks: :meth:`think_later`).  Each
        action is its own commit.  The state, the game and the events after them."""
        game = get_game(record.game)
        events: list[Event] = []
        for _ in range(MAX_AUTOMATIC_STEPS):
            prompt = game.prompt(state)
            if prompt is None:
                break
            choice = self.choice(game, record, state, prompt.seats, prompt.forced)
            if choice is None:
                break
            if isinstance(choice, Thought):
                self.think_later(record.id)
                break
            seat, action = choice
            state, new = game.apply(state, seat, action)
            record = await self.history.commit(game, record, seat, game.encode_action(action),
                                               state, new)
            events.extend(new)
        else:  # pragma: no cover - the engine bounds every game
            log.error("game %s: automatic steps did not stop", record.id)
        return state, record, events

    def choice(
        self,
        game: Game[Any],
        record: GameRecord,
        state: Any,
        seats: Sequence[int],
        forced: bool,
    ) -> tuple[int, Any] | Thought | None:
        """The next decision the game takes itself (a forced one, an AI seat's), or a
        :class:`Thought` for a seat whose level searches (:data:`THINKING_LEVELS`); ``None``
        when a person must decide."""
        for number in seats:
            seat = record.seat(number)
            legal = game.legal_actions(state, number)
            if not legal:
                continue
            if forced and len(seats) == 1 and len(legal) == 1:
                return number, legal[0]
            if seat is not None and seat.stand_in_for is not None and not record.present:
                continue  # stand-ins only: the table waits for a person to come back
            if seat is not None and seat.ai_policy is not None:
                # Seeded from (game seed, log position, seat): the same game replays the same
                # AI moves, and a restart changes nothing.
                policy_seed = ((record.seed or 0) * 1_000_003 + record.seq * 31 + number) % 2**63
                if seat.ai_policy in THINKING_LEVELS:
                    return Thought(number, policy_seed)
                try:
                    policy = make_policy(seat.ai_policy, record.game, policy_seed)
                except ValueError:
                    log.error("game %s seat %s: unknown AI %r", record.id, number, seat.ai_policy)
                    policy = make_policy("random", record.game, policy_seed)
                return number, policy.choose(game, state, number, legal)
        return None

    def think_later(self, game_id: int) -> None:
        """Let the game's strong seat think, after whatever holds the game's lock now (the
        table of the change that led to it is shown first).  One thinking task per game: a
        second call while it runs makes it look at the game again when done."""
        self._wanted.add(game_id)
        if game_id not in self.tasks:
            self.tasks[game_id] = asyncio.get_running_loop().create_task(
                self._thinking_loop(game_id), name=f"think-{game_id}")

    async def _thinking_loop(self, game_id: int) -> None:
        try:
            while game_id in self._wanted:
                self._wanted.discard(game_id)
                try:
                    await self._think_once(game_id)
                except Exception:
                    log.exception("game %s: the AI could not play", game_id)
        finally:
            self.tasks.pop(game_id, None)

    async def _think_once(self, game_id: int) -> None:
        """One strong decision: searched from the stored position without the game's lock
        (people may look at the table meanwhile), then applied under the lock if the game is
        still where it was; if it moved on (an action, an undo, a seat handed over) the game
        is looked at again."""
        loaded = await self.storage.games.load(game_id)
        record, state = loaded.record, loaded.state
        if record.status is not GameStatus.ACTIVE:
            return
        game = get_game(record.game)
        prompt = game.prompt(state)
        if prompt is None:
            return
        choice = self.choice(game, record, state, prompt.seats, prompt.forced)
        if not isinstance(choice, Thought):
            if choice is not None:  # e.g. left over by a restart: play it as a change would
                async with self.storage.db.lock(game_id):
                    current = await self.storage.games.get(game_id)
                    if current.version == record.version:
                        state, new_record, more = await self.play(record, state)
                        if more:
                            await self.publishing.publish(new_record, state, more,
                                                          before=record_waiting(record))
            return
        code = await self.thinker.choose(record.game, game.dump(state), choice.seat,
                                         choice.seed)
        async with self.storage.db.lock(game_id):
            current = await self.storage.games.get(game_id)
            if current.version != record.version:
                self._wanted.add(game_id)
                return
            action = game.decode_action(code)
            state, new = game.apply(state, choice.seat, action)
            after = await self.history.commit(game, record, choice.seat,
                                              game.encode_action(action), state, new)
            state, new_record, more = await self.play(after, state)
            await self.publishing.publish(new_record, state, [*new, *more],
                                          before=record_waiting(record))
