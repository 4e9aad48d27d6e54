"""Time banks (issue #35; docs/time.md): each person's allowance of waiting over a whole game.

A game's :class:`Pace` gives every person's seat ``start`` when the game starts.  A wait on a
seat (from when the prompt names it until it acts or is no longer named) spends what it lasted;
simultaneous decisions charge each waiting seat its own wait.  Each move a seat makes adds
``increment``, never above ``cap``; a bank that ran out counts as empty then, so the first move
after running out leaves ``increment``.  A game without a pace (*unlimited*) has no banks.

The arithmetic is here, pure, so that every storage change that ends a wait
(``storage.changes.set_waiting``) settles the banks in its own transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

HOUR_MS: Final = 3_600_000
DAY_MS: Final = 24 * HOUR_MS

PACE_NAMES: Final = ("unlimited", "relaxed", "normal", "fast", "custom")
"""What ``/game new pace:`` offers, in order."""


@dataclass(frozen=True, slots=True)
class Pace:
    """A time control: the bank a seat starts with, what each move adds, the most it holds."""

    name: str
    """``relaxed``, ``normal``, ``fast`` (the presets) or ``custom``."""
    start_ms: int
    increment_ms: int
    cap_ms: int

    def __post_init__(self) -> None:
        if self.name not in PACE_NAMES or self.name == "unlimited":
            raise ValueError(f"no pace named {self.name!r}")
        if not 0 < self.start_ms <= self.cap_ms or not 0 <= self.increment_ms <= self.cap_ms:
            raise ValueError(f"a bank of {self.start_ms} ms, +{self.increment_ms} ms a move, "
                             f"at most {self.cap_ms} ms does not hold")


PRESETS: Final = {
    "relaxed": Pace("relaxed", 7 * DAY_MS, 2 * DAY_MS, 10 * DAY_MS),
    "normal": Pace("normal", 3 * DAY_MS, DAY_MS, 5 * DAY_MS),
    "fast": Pace("fast", DAY_MS, 8 * HOUR_MS, 2 * DAY_MS),
}
"""The paces ``/game new`` names (docs/time.md says who they suit)."""


def per_move(days: int) -> Pace:
    """The clock of a game stored before the banks (``clock_days``: ``days`` for each decision):
    a bank of ``days`` that every move fills again, the same deadline for every wait."""
    span = days * DAY_MS
    return Pace("custom", span, span, span)


def left(bank_ms: int, since: datetime | None, now: datetime) -> int:
    """What a bank of ``bank_ms`` at the start of the wait begun at ``since`` (``None``: not
    waiting) holds at ``now``; at or under 0 when it ran out."""
    if since is None:
        return bank_ms
    return bank_ms - max(0, int((now - since).total_seconds() * 1000))


def settle(pace: Pace, bank_ms: int, used_ms: int, moved: bool) -> int:
    """The bank after a wait that used ``used_ms``; ``moved``: it ended by the seat's move."""
    rest = bank_ms - max(0, used_ms)
    if not moved:
        return rest
    return min(pace.cap_ms, max(0, rest) + pace.increment_ms)
