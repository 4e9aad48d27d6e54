"""What the game service hands back after a change, and to whom: the values the Discord side
presents (:class:`TableUpdate`, :class:`PhaseEnd`, :class:`SubmitResult`) and the
:class:`Publisher` it hands them to.  Values only; the service's parts fill them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Event
from storage import ActionRecord, GameRecord


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """A game as it stands after a change, ready to be shown in its channel."""

    record: GameRecord
    view: Mapping[str, Any]
    """The public view (``game.view(state, None)``)."""
    events: tuple[Event, ...]
    """Public forms of the events of this change (for highlights and the log)."""
    names: dict[int, str]
    image: bytes | None
    """PNG of the public view, or ``None`` when rendering is unavailable (text only)."""
    newly_waiting: tuple[int, ...]
    """Users the prompt now names who were not waiting before (to notify)."""
    recent: tuple[ActionRecord, ...] = ()
    """The end of the log (actions that count, oldest first): the table's last lines."""
    phases: tuple[PhaseEnd, ...] = ()
    """The role phases this change ended, oldest first, when already drawn (else ``story``)."""
    scoresheet: bytes | None = None
    """PNG of the final scores once the game is over."""
    chart: bytes | None = None
    """PNG of the score by round once the game is over (posted with the score sheet)."""
    notes: tuple[str, ...] = ()
    """Lines for the table in the game's language about this change (an undo...)."""
    story: Callable[[], Awaitable[tuple[PhaseEnd, ...]]] | None = None
    """Draws the role phases this change ended (a board image each for the channel); called
    after the table is shown, since it replays the log and renders."""
    ratings: tuple[RatingLine, ...] = ()
    """Once the game is over: each rated person's rating before and after it (by place)."""
    rating: str | None = None
    """Once the game is over: ``rated``, or why not (``storage.ratings``)."""
    late: bool = False
    """The table was not shown in time (:mod:`bot.publishing`): its publication goes on, or
    failed and the reminder pass publishes the game again.  The player is told it will catch
    up."""

    async def ended_phases(self) -> tuple[PhaseEnd, ...]:
        return self.phases or (await self.story() if self.story is not None else ())


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A person's rating change in a finished game, for the final post."""

    name: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class PhaseEnd:
    """A role phase that ended: the public board at its end and what changed during it."""

    seq: int
    role: str
    chooser: int | None
    round: int
    """The phase's round (its board is as it stood when the phase ended, before the end of
    the round that the same action may have brought: :func:`bot.gamelog.view_at_phase_end`)."""
    view: Mapping[str, Any]
    events: tuple[Event, ...]
    image: bytes | None
    chosen: int | None = None
    """The ``seq`` of the phase's role choice (to name who chose it then)."""
    part: int = 0
    """Which ``PhaseEnded`` of its action ended it (1 when one action ended two phases)."""


@dataclass(frozen=True, slots=True)
class SubmitResult:
    record: GameRecord
    seat: int
    code: str
    update: TableUpdate


class Publisher(Protocol):
    """The Discord side of a change (``bot.publisher.DiscordPublisher``; a fake in tests)."""

    async def seat_names(self, record: GameRecord) -> dict[int, str]: ...

    async def publish_table(self, update: TableUpdate) -> None: ...

    async def notify_turn(self, update: TableUpdate) -> None: ...


def record_waiting(record: GameRecord) -> dict[int, object]:
    """``waiting_since`` by seat (to tell who is newly asked to decide after a change)."""
    return {s.seat: s.waiting_since for s in record.seats}
