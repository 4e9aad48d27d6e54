"""A tiny deterministic game for storage tests, registered as ``"test-counter"`` only while the
storage tests run (see :func:`registered`), so no other test ever sees it in ``game_names()``.

Seats take turns adding 1 or 2 to a shared counter (or, with ``"draw": true``, a pseudo-random
1..3 from a seeded PRNG whose state lives in the game state) until it reaches ``target``.  It
follows the :class:`engine.core.Game` protocol, so the storage cannot tell it from a real game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine import core as engine_core
from engine.core import (
    CorruptState,
    Event,
    GainEvent,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSetup,
    NotYourTurn,
    Outcome,
    Prompt,
    ScoreLine,
    register,
)

NAME = "test-counter"
DUMP_VERSION = 1


@dataclass(frozen=True, slots=True)
class Add:
    amount: int  # 0 means "draw"

    @property
    def code(self) -> str:
        return "draw" if self.amount == 0 else f"add.{self.amount}"


@dataclass(frozen=True, slots=True)
class CounterState:
    players: int
    target: int
    draw: bool
    total: int
    turn: int
    rng: int
    points: tuple[int, ...]


def _next_rng(rng: int) -> int:
    return (rng * 6364136223846793005 + 1442695040888963407) % 2**64


class CounterGame:
    name = NAME
    legacy_options: Mapping[str, Any] = {}
    gain_events: Mapping[str, GainEvent] = {}

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        players = options.get("players")
        if not isinstance(players, int) or not 1 <= players <= 4:
            raise InvalidSetup("bad_players", players=players)
        target = options.get("target", 6)
        if not isinstance(target, int) or target < 1:
            raise InvalidSetup("bad_target", target=target)
        return {"players": players, "target": target, "draw": bool(options.get("draw", False))}

    def option_sets(self) -> list[dict[str, Any]]:
        return [{"players": n} for n in (1, 2, 3, 4)]

    def determinize(self, state: CounterState, seat: int | None, seed: int) -> CounterState:
        """Nothing is hidden in this game: the state itself."""
        return state

    def setup(self, options: Mapping[str, Any], seed: int) -> CounterState:
        opts = self.normalize_options(options)
        return CounterState(
            opts["players"], opts["target"], opts["draw"], 0, seed % opts["players"],
            _next_rng(seed), (0,) * opts["players"],
        )

    def players(self, state: CounterState) -> int:
        return state.players

    def prompt(self, state: CounterState) -> Prompt | None:
        if state.total >= state.target:
            return None
        return Prompt((state.turn,), "add", False)

    def legal_actions(self, state: CounterState, seat: int) -> list[Any]:
        if self.prompt(state) is None or seat != state.turn:
            return []
        return [Add(0)] if state.draw else [Add(1), Add(2)]

    def apply(
        self, state: CounterState, seat: int, action: Any
    ) -> tuple[CounterState, list[Event]]:
        if self.prompt(state) is None:
            raise GameOver()
        if seat != state.turn:
            raise NotYourTurn(seat=seat)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("not_offered", action=getattr(action, "code", None))
        rng = state.rng
        amount = action.amount
        if amount == 0:
            rng = _next_rng(rng)
            amount = 1 + (rng >> 33) % 3
        points = list(state.points)
        points[seat] += amount
        new = dataclasses.replace(
            state, total=state.total + amount, turn=(state.turn + 1) % state.players, rng=rng,
            points=tuple(points),
        )
        events = [
            Event("Added", seat, {"amount": amount, "total": new.total}),
            Event("Peeked", seat, {"rng": rng % 1000}, private_to=seat, public_data={}),
        ]
        return new, events

    def view(self, state: CounterState, viewer: int | None) -> dict[str, Any]:
        return {"total": state.total, "turn": state.turn}

    def outcome(self, state: CounterState) -> Outcome | None:
        if self.prompt(state) is not None:
            return None
        return self.standing(state)

    def standing(self, state: CounterState) -> Outcome:
        best = max(state.points)
        order = sorted(range(state.players), key=lambda s: -state.points[s])
        ranks = {seat: order.index(seat) + 1 for seat in order}
        scores = tuple(
            ScoreLine(s, state.points[s], {"points": state.points[s]}, 0, ranks[s])
            for s in range(state.players)
        )
        winners = tuple(s for s in range(state.players) if state.points[s] == best)
        return Outcome(scores, winners, ("target",))

    def round(self, state: CounterState) -> int:
        return 1 + state.turn // state.players

    def encode_action(self, action: Any) -> str:
        return str(action.code)

    def decode_action(self, code: str) -> Add:
        if code == "draw":
            return Add(0)
        if code in ("add.1", "add.2"):
            return Add(int(code[4:]))
        raise InvalidAction(code=code)

    def reveals(self, before: CounterState, after: CounterState) -> bool:
        return before.rng != after.rng

    def dump(self, state: CounterState) -> dict[str, Any]:
        return {"v": DUMP_VERSION, **dataclasses.asdict(state), "points": list(state.points)}

    def load(self, data: Mapping[str, Any], *, check: bool = True) -> CounterState:
        if data.get("v") != DUMP_VERSION:
            raise CorruptState("bad_version", v=data.get("v"))
        try:
            state = CounterState(
                int(data["players"]), int(data["target"]), bool(data["draw"]),
                int(data["total"]), int(data["turn"]), int(data["rng"]),
                tuple(int(p) for p in data["points"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptState("bad_field") from exc
        if check and (len(state.points) != state.players
                      or not 0 <= state.turn < state.players):
            raise CorruptState("inconsistent")
        return state


GAME = CounterGame()


def register_counter() -> None:
    register(GAME)


@contextmanager
def registered() -> Iterator[None]:
    """Register the game for the duration of the block.  The engine has no public way to
    unregister a game, so this removes it from the registry dict directly (test-only)."""
    register(GAME)
    try:
        yield
    finally:
        engine_core._REGISTRY.pop(NAME, None)
