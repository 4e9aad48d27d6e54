"""San Juan (2–4 players, with the variant start).  Importing this package registers the game
and its heuristic policy."""

from . import heuristic  # noqa: F401  (registers the heuristic policy)
from .game import SAN_JUAN, SanJuan
from .invariants import invariant_failures

__all__ = ["SAN_JUAN", "SanJuan", "invariant_failures"]
