"""Records: frozen values returned by the repositories.

Times are timezone-aware UTC ``datetime`` values; the database stores them as integer milliseconds
since the Unix epoch.  JSON columns come back as plain dicts/lists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from enum import StrEnum
from typing import Any, Final
from zoneinfo import ZoneInfo

from storage.timebank import Pace, Quiet, Stop

AWAY_DAYS: Final = 21
"""The days a person may be away (``/game away``) in any 365, unless their server says
otherwise (``guild_settings.away_days``)."""

ABANDON_DAYS: Final = 14
"""A game in which every person timed out (an AI stands in for each) is abandoned this many
days after the last of them, unless its server says otherwise (``guild_settings``)."""

JSON = dict[str, Any]
Clock = Callable[[], datetime]
"""Returns "now" as an aware UTC datetime; passed in so tests control time."""


MAX_ROW_ID = 2**63 - 1
"""The largest id a row can have: SQLite's INTEGER and PostgreSQL's BIGINT are 64-bit signed."""


def storable_id(value: int) -> bool:
    """Whether ``value`` can be a row's id.  An id read from a custom_id may have any number of
    digits; one outside the 64-bit range names no row (and would make the driver raise)."""
    return 0 <= value <= MAX_ROW_ID


def utc_now() -> datetime:
    return datetime.now(UTC)


def to_ms(moment: datetime) -> int:
    if moment.tzinfo is None:
        raise ValueError("naive datetime: pass an aware UTC datetime")
    return round(moment.timestamp() * 1000)


def from_ms(value: int | None) -> datetime | None:
    if value is None:
        return None
    return datetime.fromtimestamp(value / 1000, UTC)


def from_ms_required(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1000, UTC)


def dumps(value: Any) -> str:
    """The one JSON encoding of the storage: compact, keys sorted, ASCII-safe."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def is_open(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat at the table: a Discord user or an AI policy (exactly one of the two)."""

    seat: int
    user_id: int | None
    ai_policy: str | None
    joined_at: datetime
    waiting_since: datetime | None = None
    """Set while the current prompt names this seat (since when it has had to decide)."""
    waiting_version: int | None = None
    """The game version at which this wait began (the version after the change that started
    it); ``None`` while not waiting.  A wait ends when the seat acts or is no longer named."""
    bank_ms: int | None = None
    """The seat's time bank at the start of its present wait (else now): ``None`` for an AI
    seat and in a game without a pace (:mod:`storage.timebank`)."""
    stand_in_for: int | None = None
    """The person an AI seat is kept for: their bank ran out, and the AI plays until they come
    back (``/game rejoin``, their next click); ``None`` for a person's seat or an AI's own."""
    stood_in_at: datetime | None = None
    """When the AI began standing in (``None`` unless ``stand_in_for``)."""
    away: tuple[Stop, ...] = ()
    """The person's absences (``/game away``) that bear on the seat's bank: those that end
    after its present wait began (else after the game's last change)."""

    @property
    def is_ai(self) -> bool:
        return self.ai_policy is not None

    @property
    def waiting(self) -> bool:
        return self.waiting_since is not None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game without its snapshot (see :class:`LoadedGame`)."""

    id: int
    game: str
    options: JSON
    seed: int | None
    status: GameStatus
    version: int
    """Bumped by every change of the game (seats, start, each action, end); buttons carry it."""
    seq: int
    """Number of actions in the log (the ``seq`` of the last one; 0 before the first)."""
    guild_id: int | None
    channel_id: int | None
    creator_id: int | None
    language: str | None
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    last_action_at: datetime | None
    finished_at: datetime | None
    seats: tuple[SeatRecord, ...] = ()
    messages: Mapping[str, int] = field(default_factory=dict)
    """Discord message ids by kind (``"table"``, ``"lobby"``...)."""
    outcome: JSON | None = None
    ai_level: str | None = None
    """The table's AI level (``/game new ai_level``): a seat taken over plays it."""
    hints: bool = False
    """Whether the players may ask the strong AI for advice (``/game hint``)."""
    pace: Pace | None = None
    """The game's time control (``None``: unlimited, no banks)."""
    quiet: Quiet | None = None
    """The time no bank pays for: the game's own rule, else its server's (``None``: none)."""
    pauses: tuple[Stop, ...] = ()
    """The game's pauses, oldest first (the last one without an end while under way): no
    bank runs then (``/game pause``)."""

    def stops(self, seat: SeatRecord) -> tuple[Stop, ...]:
        """The stretches no bank of ``seat`` pays for besides the quiet time: the game's
        pauses and its person's absences."""
        return (*self.pauses, *seat.away) if seat.away else self.pauses

    @property
    def paused(self) -> bool:
        """Whether a pause is under way."""
        return bool(self.pauses) and self.pauses[-1][1] is None

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats the current prompt names."""
        return tuple(s.seat for s in self.seats if s.waiting_since is not None)

    def seat_of(self, user_id: int) -> SeatRecord | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def stand_in_of(self, user_id: int) -> SeatRecord | None:
        """The seat an AI keeps for ``user_id`` while they are out of time (else ``None``)."""
        for seat in self.seats:
            if seat.stand_in_for == user_id:
                return seat
        return None

    @property
    def present(self) -> bool:
        """Whether a person holds a seat (a table of stand-ins only waits for one to return)."""
        return any(s.user_id is not None for s in self.seats)

    def seat(self, number: int) -> SeatRecord | None:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        return None

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if s.user_id is not None)


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game with its engine state (``game.load`` of the stored snapshot)."""

    record: GameRecord
    state: Any
    snapshot: JSON


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One entry of the append-only action log with the events it produced (JSON)."""

    game_id: int
    seq: int
    seat: int
    code: str
    user_id: int | None
    at: datetime
    events: tuple[JSON, ...]


@dataclass(frozen=True, slots=True)
class CommitResult:
    record: GameRecord
    action: ActionRecord


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What :meth:`GameRepository.play` did: the committed action and the new engine state."""

    record: GameRecord
    action: ActionRecord
    state: Any
    events: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """A finished game's line for one seat (for statistics)."""

    game_id: int
    seat: int
    user_id: int | None
    ai_policy: str | None
    total: int
    rank: int
    winner: bool
    tiebreak: int
    breakdown: JSON


@dataclass(frozen=True, slots=True)
class UserStats:
    user_id: int
    finished: int
    wins: int
    best: int | None
    average: float | None
    average_place: float | None = None
    """The mean of the final ranks (1: first; tied players share a rank)."""
    longest: tuple[int, int] | None = None
    """(game id, milliseconds from its start to its end) of the longest finished game."""
    fastest: tuple[int, int] | None = None
    """Likewise, the shortest."""
    favourites: tuple[Favourite, ...] = ()
    """The roles the user chose and the buildings they built most, most first (at most
    :data:`FAVOURITES` of each kind)."""
    pace: MovePace | None = None
    """How fast the user moves (``None``: no move of theirs was timed)."""


@dataclass(frozen=True, slots=True)
class MovePace:
    """How fast a person moves: the median wait of their moves, and their time-outs."""

    moves: int
    """Their moves timed (from schema 18 on: how long each had waited for them)."""
    median_ms: int | None
    """The median of those waits (``None`` without a timed move)."""
    timeouts: int
    """Their banks that ran out (a clock vote was opened on their wait)."""


FAVOURITES = 3
"""How many favourite roles, and buildings, a user's statistics name."""


@dataclass(frozen=True, slots=True)
class Favourite:
    """``count`` times, over the games counted, ``kind`` (``role`` or ``building``) ``name``
    (the engine's id) of ``game``."""

    game: str
    kind: str
    name: str
    count: int


@dataclass(frozen=True, slots=True)
class UserSettings:
    user_id: int
    language: str | None = None
    dm_notifications: bool = True
    dm_blocked: bool = False
    """Discord refused a DM (the user blocks them); cleared when a DM goes through again."""
    last_nudge_at: datetime | None = None
    zone: str | None = None
    """The person's time zone (an IANA name; ``None``: UTC), for their quiet hours and
    digest."""
    quiet_window: tuple[int, int] | None = None
    """Their quiet hours: (start, end) in minutes after local midnight (end before start runs
    past midnight); nothing is sent to them then."""
    digest_hour: int | None = None
    """The local hour of their daily digest (``None``: a DM per turn instead)."""
    heads_up: bool = False
    """A DM when they are next (the seat before theirs is asked)."""
    reminder_hours: int | None = None
    """Their own reminder spacing (``None``: the game's, else the server's)."""
    held_at: datetime | None = None
    """Since when something meant for them waits for their quiet hours to end."""
    digest_at: datetime | None = None
    """When their last digest went out (or digest mode was turned on)."""

    @property
    def quiet(self) -> Quiet | None:
        """Their quiet hours as a rule of :mod:`storage.timebank` (``None``: none)."""
        if self.quiet_window is None:
            return None
        return Quiet(self.zone or "UTC", False, self.quiet_window)

    def quiet_at(self, now: datetime) -> bool:
        """Whether ``now`` falls in their quiet hours."""
        quiet = self.quiet
        return quiet is not None and quiet.holds(now)

    def digest_due(self, now: datetime) -> datetime | None:
        """The moment of the digest due at ``now`` (today's hour, in their zone, has come and
        none went out since), else ``None``."""
        if self.digest_hour is None:
            return None
        zone = ZoneInfo(self.zone or "UTC")
        moment = datetime.combine(now.astimezone(zone).date(), time(self.digest_hour),
                                  zone).astimezone(UTC)
        if now < moment or (self.digest_at is not None and self.digest_at >= moment):
            return None
        return moment


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    language: str | None = None
    reminder_hours: int | None = None
    defaults: JSON = field(default_factory=dict)
    """Other defaults for new games (for example game options)."""
    quiet: Quiet | None = None
    """The time no bank of this server's games pays for (a game may have its own)."""
    abandon_days: int | None = None
    """After how many days a game where every person timed out is abandoned (``None``: the
    default, :data:`ABANDON_DAYS`)."""
    away_days: int | None = None
    """The days of absence (``/game away``) a person has in a year here (``None``: the
    default, :data:`AWAY_DAYS`)."""
