"""Policies that choose an action for a seat: the AI seats of the bot and the simulator's players.

A policy is pure and deterministic given its seed: it keeps its own generator state and chooses
only among ``legal_actions``.  ``make_policy(name, game, seed)`` builds one by name.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Protocol

from .core import Game, UnknownGame, get_game
from .rng import below, seed_state


class Policy(Protocol):
    name: str

    def choose(self, game: Game[Any], state: Any, seat: int, legal: list[Any]) -> Any: ...


class RandomPolicy:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = seed_state(seed)

    def choose(self, game: Game[Any], state: Any, seat: int, legal: list[Any]) -> Any:
        self.rng, k = below(self.rng, len(legal))
        return legal[k]


HeuristicFactory = Callable[[int], Policy]
HEURISTICS: dict[str, HeuristicFactory] = {}
POLICY_NAMES = ("random", "heuristic", "strong")


def make_policy(name: str, game_name: str, seed: int, budget: int | None = None) -> Policy:
    """A policy by name (``random``, ``heuristic`` or ``strong``) for the game called
    ``game_name``; ``budget``: the strong level's engine actions per decision (its default
    otherwise)."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "strong":
        from .search import StrongPolicy  # noqa: PLC0415 - the search builds on this module

        return StrongPolicy(game_name, seed) if budget is None else StrongPolicy(
            game_name, seed, budget)
    if name == "heuristic":
        if game_name not in HEURISTICS:
            with contextlib.suppress(UnknownGame):
                get_game(game_name)  # imports the game's package, which registers its policy
        if game_name not in HEURISTICS:
            raise ValueError(f"no heuristic policy for {game_name}")
        return HEURISTICS[game_name](seed)
    raise ValueError(f"unknown policy {name!r} (choose from {', '.join(POLICY_NAMES)})")
