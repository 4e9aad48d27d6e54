"""Puerto Rico (classic rules, 2–5 players).  Importing this package registers the game."""

from . import heuristic  # noqa: F401  (registers the heuristic policy)
from .game import PUERTO_RICO, PuertoRico
from .invariants import invariant_failures

__all__ = ["PUERTO_RICO", "PuertoRico", "invariant_failures"]
