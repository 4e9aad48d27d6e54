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

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Final
from zoneinfo import ZoneInfo

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

    @property
    def comeback_ms(self) -> int:
        """The bank of a person taking their seat back from the AI that stood in for them
        while they were out of time: what one move gives (the first bank when a move gives
        nothing)."""
        return self.increment_ms or self.start_ms


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


Stop = tuple[datetime, datetime | None]
"""A stretch no bank pays for besides the quiet time: a pause of the game, a person's absence;
from its start to its end (``None``: not ended yet)."""


def left(bank_ms: int, since: datetime | None, now: datetime, quiet: Quiet | None = None,
         stops: Sequence[Stop] = ()) -> int:
    """What a bank of ``bank_ms`` at the start of the wait begun at ``since`` (``None``: not
    waiting) holds at ``now``, the ``quiet`` time and the ``stops`` not counted; at or under 0
    when it ran out."""
    if since is None:
        return bank_ms
    return bank_ms - charged(since, now, quiet, stops)


def stopped(stops: Sequence[Stop], now: datetime) -> bool:
    """Whether one of ``stops`` holds every bank at ``now`` (a pause, an absence under way)."""
    return any(start <= now and (end is None or now < end) for start, end in stops)


def settle(pace: Pace, bank_ms: int, used_ms: int, moved: bool) -> int:
    """The bank after a wait that used ``used_ms``; ``moved``: it ended by the seat's move."""
    rest = bank_ms - max(0, used_ms)
    if not moved:
        return rest
    return min(pace.cap_ms, max(0, rest) + pace.increment_ms)


# --- quiet time -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Quiet:
    """Time no bank pays for: the weekends and a daily window, in the time zone ``zone`` (an
    IANA name).  A window may run past midnight (22:00 to 08:00); ``None``: no window."""

    zone: str
    weekends: bool = False
    window: tuple[int, int] | None = None
    """(start, end) in minutes after local midnight; end before start runs past midnight."""

    def __post_init__(self) -> None:
        ZoneInfo(self.zone)  # ZoneInfoNotFoundError (a KeyError) for an unknown zone
        if self.window is not None:
            start, end = self.window
            if not (0 <= start < DAY_MINUTES and 0 <= end < DAY_MINUTES) or start == end:
                raise ValueError(f"a quiet window of minutes {start} to {end} does not hold")

    @property
    def empty(self) -> bool:
        return not self.weekends and self.window is None

    def holds(self, now: datetime) -> bool:
        """Whether ``now`` falls in a quiet stretch."""
        day = now.astimezone(ZoneInfo(self.zone)).date()
        return any(start <= now < end for d in (day - timedelta(days=1), day)
                   for start, end in self.quiet_parts(d))

    def quiet_parts(self, day: date) -> list[tuple[datetime, datetime]]:
        """The quiet stretches of the local ``day``, as aware moments (DST included)."""
        zone = ZoneInfo(self.zone)
        midnight = datetime.combine(day, time(), zone)
        following = datetime.combine(day + timedelta(days=1), time(), zone)
        if self.weekends and day.weekday() >= SATURDAY:
            return [(midnight, following)]
        if self.window is None:
            return []
        start, end = self.window

        def at(minutes: int) -> datetime:
            return datetime.combine(day, time(minutes // 60, minutes % 60), zone)

        if start < end:
            return [(at(start), at(end))]
        return [(midnight, at(end)), (at(start), following)]


DAY_MINUTES: Final = 24 * 60
SATURDAY: Final = 5


def quiet_columns(quiet: Quiet | None) -> dict[str, Any]:
    """The stored columns of ``quiet`` (``quiet_zone`` NULL: no quiet time)."""
    if quiet is None:
        return {"quiet_zone": None, "quiet_weekends": 0, "quiet_start": None, "quiet_end": None}
    start, end = quiet.window or (None, None)
    return {"quiet_zone": quiet.zone, "quiet_weekends": int(quiet.weekends),
            "quiet_start": start, "quiet_end": end}


def quiet_rule(stored: list[Any] | None) -> Quiet | None:
    """The :class:`Quiet` of a stored ``[zone, weekends, start, end]`` (``None``: no zone)."""
    if not stored or stored[0] is None:
        return None
    zone, weekends, start, end = stored
    window = None if start is None or end is None else (int(start), int(end))
    return Quiet(str(zone), bool(weekends), window)


def charged(since: datetime, now: datetime, quiet: Quiet | None = None,
            stops: Sequence[Stop] = ()) -> int:
    """The milliseconds a wait from ``since`` to ``now`` spends of a bank: all of it but the
    quiet time and the ``stops``."""
    if now <= since:
        return 0
    spent = now - since
    for start, end in _off_from(quiet, stops, since):
        if start >= now:
            break
        spent -= min(end, now) - start
    return max(0, int(spent.total_seconds() * 1000))


def runs_out(bank_ms: int, since: datetime, quiet: Quiet | None = None,
             stops: Sequence[Stop] = ()) -> datetime | None:
    """The moment a bank of ``bank_ms`` at the start of the wait begun ``since`` is spent:
    walking from ``since``, the bank pays for the time between the quiet stretches and the
    ``stops``; ``None`` while a stop without an end holds it first (a pause under way)."""
    rest = timedelta(milliseconds=max(0, bank_ms))
    cursor = since
    for start, end in _off_from(quiet, stops, since):
        if cursor + rest <= start:
            break
        if start > cursor:
            rest -= start - cursor
        if end == FOREVER:
            return None
        cursor = max(cursor, end)
    return cursor + rest


FOREVER: Final = datetime.max.replace(tzinfo=UTC)
"""The end of a stop that has none yet."""


def _off_from(quiet: Quiet | None, stops: Sequence[Stop], since: datetime
              ) -> Iterator[tuple[datetime, datetime]]:
    """The stretches no bank pays for from ``since`` on: the quiet time and the ``stops``,
    merged, in order and without overlaps (without end when there is quiet time: the caller
    stops)."""
    ends = sorted((max(start, since), FOREVER if end is None else end) for start, end in stops
                  if end is None or end > since)
    parts: Iterator[tuple[datetime, datetime]] = heapq.merge(
        ends, _quiet_from(quiet, since) if quiet is not None and not quiet.empty else iter(()))
    current: tuple[datetime, datetime] | None = None
    for start, end in parts:
        if current is not None and start <= current[1]:
            current = (current[0], max(current[1], end))
        else:
            if current is not None:
                yield current
            current = (start, end)
        if current[1] == FOREVER:  # nothing after a stop without end counts
            break
    if current is not None:
        yield current


def _quiet_from(quiet: Quiet, since: datetime) -> Iterator[tuple[datetime, datetime]]:
    """The quiet stretches from ``since`` on, in order (without end: the caller stops)."""
    zone = ZoneInfo(quiet.zone)
    day = since.astimezone(zone).date()
    while True:
        for start, end in quiet.quiet_parts(day):
            start_utc, end_utc = start.astimezone(UTC), end.astimezone(UTC)
            if end_utc > since:
                yield max(start_utc, since), end_utc
        day += timedelta(days=1)
