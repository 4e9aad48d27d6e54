"""The engine contract shared by every game (Puerto Rico now; San Juan and 1897 later).

A game is an object registered by name that implements :class:`Game`.  Everything is pure and
synchronous: no I/O, no clocks, no global randomness.  A game is fully reproducible from
``(game name, options, seed, action codes)`` through :func:`replay`.

Errors form a narrow tree, each with a machine-readable ``code``; the engine never words a message
for people (the bot does that in the player's language).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, TypeVar

from .games import PACKAGES

JSON = dict[str, Any]

# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


class EngineError(Exception):
    """Base of every error the engine raises on purpose.  ``code`` is stable and machine-readable;
    ``details`` carries structured context (never prose meant for players)."""

    default_code = "engine_error"

    def __init__(self, code: str | None = None, **details: Any) -> None:
        self.code = code or self.default_code
        self.details: dict[str, Any] = details
        extra = ", ".join(f"{k}={v!r}" for k, v in details.items())
        super().__init__(f"{self.code}" + (f" ({extra})" if extra else ""))


class InvalidAction(EngineError):
    """The action code is unknown or malformed: it names no action of this game."""

    default_code = "unknown_action"


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now (``code`` says why)."""

    default_code = "illegal_now"


class NotYourTurn(EngineError):
    """The seat is not among those the current prompt asks."""

    default_code = "not_your_turn"


class GameOver(EngineError):
    """The game has ended; no action is accepted."""

    default_code = "game_over"


class InvalidSetup(EngineError):
    """Options rejected at setup (``code`` names the problem, ``details`` the option)."""

    default_code = "bad_setup"


class CorruptState(EngineError):
    """A saved state that cannot be loaded (wrong version, missing or inconsistent fields)."""

    default_code = "corrupt_state"


class UnknownGame(EngineError):
    """No game is registered under that name."""

    default_code = "unknown_game"


class ReplayError(EngineError):
    """An action in a replay failed; ``index`` is its position in the action list."""

    default_code = "replay_failed"

    def __init__(self, index: int, seat: int, action: str, cause: EngineError) -> None:
        super().__init__("replay_failed", index=index, seat=seat, action=action, cause=cause.code)
        self.index = index
        self.cause = cause


# ---------------------------------------------------------------------------------------------
# Values crossing the contract
# ---------------------------------------------------------------------------------------------


class Action(Protocol):
    """An action is a small frozen value with a canonical text code (see ``Game.encode_action``)."""

    @property
    def code(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Prompt:
    """Who must decide what now.

    ``seats`` lists every seat that must decide; several seats means the decisions are
    independent and may be taken in any order (e.g. arranging colonists).  ``forced`` is true when
    the single prompted seat has exactly one legal action: the application may apply it
    automatically and log it.  A prompt is public, so a game with hidden hands leaves ``forced``
    false where it would tell the table what a hand holds (San Juan: a hand that allows one build
    only); ``forced`` always implies one seat with one legal action, not the converse.
    """

    seats: tuple[int, ...]
    kind: str
    forced: bool = False


@dataclass(frozen=True, slots=True)
class Event:
    """A past-tense fact (``type`` such as ``"RoleChosen"``) produced by ``apply``.

    ``private_to`` is ``None`` when everyone may see the event.  Otherwise only that seat sees
    ``data``; everybody else sees ``public_data`` (a redacted form) or nothing when it is ``None``.
    """

    type: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: int | None = None
    public_data: Mapping[str, Any] | None = None

    def for_viewer(self, viewer: int | None) -> Event | None:
        """The event as ``viewer`` (a seat, or ``None`` for the public) may see it."""
        if self.private_to is None or viewer == self.private_to:
            return self
        if self.public_data is None:
            return None
        return Event(self.type, self.seat, self.public_data, None, None)

    def to_json(self) -> JSON:
        out: JSON = {"type": self.type, "seat": self.seat, "data": dict(self.data)}
        if self.private_to is not None:
            out["private_to"] = self.private_to
            out["public_data"] = None if self.public_data is None else dict(self.public_data)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        public = data.get("public_data")
        return Event(
            type=str(data["type"]),
            seat=data.get("seat"),
            data=dict(data.get("data") or {}),
            private_to=data.get("private_to"),
            public_data=None if public is None else dict(public),
        )


class PromptJSON(TypedDict):
    """A view's ``prompt``: the seats asked and what about (a game's view may add keys)."""

    seats: list[int]
    kind: str


class ScoreLineJSON(TypedDict):
    """:meth:`ScoreLine.to_json`."""

    seat: int
    total: int
    breakdown: dict[str, int]
    tiebreak: int
    rank: int


class OutcomeJSON(TypedDict):
    """:meth:`Outcome.to_json`: a finished view's ``outcome``, the score sheet's input."""

    scores: list[ScoreLineJSON]
    winners: list[int]
    end_reasons: list[str]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's final score: ``breakdown`` maps named parts (``"chips"``, ``"buildings"``,
    ``"guild_hall"``...) to points; ``tiebreak`` is the value compared between tied players."""

    seat: int
    total: int
    breakdown: Mapping[str, int]
    tiebreak: int
    rank: int

    def to_json(self) -> ScoreLineJSON:
        return {
            "seat": self.seat,
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "tiebreak": self.tiebreak,
            "rank": self.rank,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final scores (ordered by seat), the winners (several on a shared victory) and why the
    game ended."""

    scores: tuple[ScoreLine, ...]
    winners: tuple[int, ...]
    end_reasons: tuple[str, ...]

    def to_json(self) -> OutcomeJSON:
        return {
            "scores": [s.to_json() for s in self.scores],
            "winners": list(self.winners),
            "end_reasons": list(self.end_reasons),
        }


@dataclass(frozen=True, slots=True)
class GainEvent:
    """How an event type gives a seat points during play (:attr:`Game.gain_events`): the data
    key of the points, their source (``None``: the event's ``reason``) and the sign (-1: points
    given back)."""

    points: str
    source: str | None
    sign: int


S = TypeVar("S")


class Game(Protocol[S]):
    """The contract every game implements.  ``S`` is the game's own state type."""

    name: str

    legacy_options: Mapping[str, Any]
    """The value each option had before it existed, for games stored without it: a rule made
    an option when it changed, so that a game stored before replays as it was played (``load``
    fills them into a snapshot's options; storage's migrations into a stored game's)."""

    gain_events: Mapping[str, GainEvent]
    """Event type -> how it gives a seat points during play (VP chips taken, or paid back),
    by source: the end chart splits a score by them (``engine.story``).  Empty for a game
    whose score has no such points."""

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        """Validate ``options`` and fill defaults; raise :class:`InvalidSetup`."""
        ...

    def setup(self, options: Mapping[str, Any], seed: int) -> S: ...

    def players(self, state: S) -> int: ...

    def prompt(self, state: S) -> Prompt | None: ...

    def legal_actions(self, state: S, seat: int) -> list[Any]: ...

    def apply(self, state: S, seat: int, action: Any) -> tuple[S, list[Event]]: ...

    def view(self, state: S, viewer: int | None) -> Mapping[str, Any]:
        """What ``viewer`` (a seat, ``None`` for the public) may see: a JSON-ready dict whose
        keys the game types (a ``TypedDict`` in ``engine/<game>/view.py``); read-only."""
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def standing(self, state: S) -> Outcome:
        """The scores as if the game ended now, with everything hidden counted (VP chips,
        Chapel cards): the story of a game once it is over (its score by round), never shown
        while it is played."""
        ...

    def round(self, state: S) -> int:
        """The round being played, 1 first."""
        ...

    def encode_action(self, action: Any) -> str: ...

    def decode_action(self, code: str) -> Any: ...

    def reveals(self, before: S, after: S) -> bool:
        """Whether the step from ``before`` to ``after`` revealed hidden information or a random
        draw (then it can never be undone)."""
        ...

    def dump(self, state: S) -> JSON: ...

    def load(self, data: Mapping[str, Any], *, check: bool = True) -> S:
        """The state a :meth:`dump` stands for; :class:`CorruptState` when ``data`` cannot be
        one.  ``check``: also every invariant of the state (each component conserved, counts in
        range), as tests, fuzzing and ``python -m storage verify`` want; a game loaded to be
        played (the bot's every click) is the engine's own dump and leaves them out."""
        ...

    def option_sets(self) -> list[JSON]:
        """Representative option dicts (every player count, each module or variant on and off
        where it changes the rules): the generic tests play every one of them."""
        ...

    def determinize(self, state: S, seat: int | None, seed: int) -> S:
        """A copy of ``state`` in which everything hidden from ``seat`` (``None``: hidden from
        everyone, i.e. the public's knowledge) is resampled with a generator seeded by ``seed``,
        consistently with what ``seat`` sees: ``view(result, seat) == view(state, seat)``.  For
        search-based AI seats (sample the unknown, then plan) and for the no-leak tests."""
        ...


# ---------------------------------------------------------------------------------------------
# Registry and helpers
# ---------------------------------------------------------------------------------------------

_REGISTRY: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game[Any]:
    """The game registered under ``name``, importing its package from the catalog
    (:data:`engine.games.PACKAGES`) the first time; :class:`UnknownGame` otherwise."""
    game = _REGISTRY.get(name)
    if game is None:
        package = PACKAGES.get(name) if isinstance(name, str) else None
        if package is not None:
            importlib.import_module(package)  # registers the game
            game = _REGISTRY.get(name)
    if game is None:
        raise UnknownGame(name=name)
    return game


def game_names() -> list[str]:
    """Every game of the catalog and every game registered at run time, sorted."""
    return sorted(set(PACKAGES) | set(_REGISTRY))


def apply_code(game: Game[S], state: S, seat: int, code: str) -> tuple[S, list[Event]]:
    """Decode ``code`` and apply it for ``seat``."""
    return game.apply(state, seat, game.decode_action(code))


def replay(
    game_name: str,
    options: Mapping[str, Any],
    seed: int,
    actions: Iterable[tuple[int, str]] | Sequence[Sequence[Any]],
) -> tuple[Any, list[Event]]:
    """Rebuild a game from its setup and action codes.  Returns the final state and every event.

    An action that fails raises :class:`ReplayError` naming its index."""
    game = get_game(game_name)
    state = game.setup(options, seed)
    events: list[Event] = []
    for index, item in enumerate(actions):
        seat, code = int(item[0]), str(item[1])
        try:
            state, new = apply_code(game, state, seat, code)
        except EngineError as exc:
            raise ReplayError(index, seat, code, exc) from exc
        events.extend(new)
    return state, events
