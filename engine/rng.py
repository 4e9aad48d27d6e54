"""A small seeded PRNG whose whole state is one integer kept inside the game state.

SplitMix64: fast, well distributed, identical on every machine and Python version (the standard
library's ``random`` makes no such promise across versions).  The state is secret: views never
show it.
"""

from __future__ import annotations

from typing import Final

MASK64: Final = (1 << 64) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
"""SplitMix64's increment (San Juan's deck shuffle steps the generator with it inline)."""


def seed_state(seed: int) -> int:
    """The generator state for a game seed (any integer, negative ones included)."""
    return (seed * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """Advance ``state``; return ``(new_state, value)`` with ``value`` in [0, 2**64)."""
    state = (state + GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Advance ``state``; return ``(new_state, k)`` with ``k`` uniform in [0, n).

    Modulo reduction of a 64-bit value: the bias is below 2**-58 for the small ``n`` of games."""
    if n <= 0:
        raise ValueError("n must be positive")
    # ``next_u64`` inline (every plantation draw and shuffle step of the games comes here)
    state = (state + GAMMA) & MASK64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, (z ^ (z >> 31)) % n
