"""Everything the storage asks of the engine, in one place: find a game by name, turn states into
snapshots and back, and read who must act and how a game ended.  Every engine or JSON failure about
a stored game becomes :class:`CorruptGame` naming the game, so one bad row never takes the bot down.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import EngineError, Event, Game, get_game
from storage.errors import CorruptGame
from storage.records import JSON, dumps


def engine_game(game_id: int, name: str) -> Game[Any]:
    """The engine game called ``name``; :class:`CorruptGame` when none is registered."""
    try:
        return get_game(name)
    except EngineError as exc:
        raise CorruptGame(game_id, exc) from exc


def parse_json_object(game_id: int, text: str | None, what: str) -> JSON:
    if text is None:
        raise CorruptGame(game_id, f"{what} missing")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise CorruptGame(game_id, f"{what} is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise CorruptGame(game_id, f"{what} is not a JSON object")
    return value


def load_state(game_id: int, game: Game[Any], snapshot_text: str | None, *, check: bool = True
               ) -> tuple[Any, JSON]:
    """``game.load`` of a stored snapshot; :class:`CorruptGame` on any failure.  ``check``:
    with the engine's invariants (``Game.load``); a game loaded to be played is what the engine
    itself dumped, and leaves them to ``python -m storage verify``."""
    snapshot = parse_json_object(game_id, snapshot_text, "snapshot")
    try:
        return game.load(snapshot, check=check), snapshot
    except EngineError as exc:
        raise CorruptGame(game_id, exc) from exc
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        # A careless load() may leak these on malformed data; they still only concern this game.
        raise CorruptGame(game_id, exc) from exc


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A state serialized for storage, with what the tables denormalize from it."""

    text: str
    to_act: tuple[int, ...]
    outcome: JSON | None


def snapshot_of(game: Game[Any], state: Any) -> Snapshot:
    """Serialize ``state`` and read its prompt (and outcome once it is over)."""
    text = dumps(game.dump(state))
    prompt = game.prompt(state)
    if prompt is not None:
        return Snapshot(text, tuple(sorted(set(prompt.seats))), None)
    outcome = game.outcome(state)
    return Snapshot(text, (), None if outcome is None else dict(outcome.to_json()))


def events_json(events: Sequence[Event | Mapping[str, Any]]) -> list[JSON]:
    return [e.to_json() if isinstance(e, Event) else dict(e) for e in events]


def result_rows(
    game_id: int, outcome: Mapping[str, Any], seats: Mapping[int, tuple[int | None, str | None]]
) -> list[tuple[Any, ...]]:
    """Rows of the ``results`` table for a finished game (one per scored seat)."""
    winners = {int(w) for w in outcome.get("winners", ())}
    rows: list[tuple[Any, ...]] = []
    for line in outcome.get("scores", ()):
        seat = int(line["seat"])
        user_id, ai_policy = seats.get(seat, (None, None))
        rows.append(
            (
                game_id,
                seat,
                user_id,
                ai_policy,
                int(line.get("total", 0)),
                int(line.get("rank", 0)),
                1 if seat in winners else 0,
                int(line.get("tiebreak", 0)),
                dumps(line.get("breakdown", {})),
            )
        )
    return rows


INSERT_RESULT = (
    "INSERT INTO results "
    "(game_id, seat, user_id, ai_policy, total, rank, winner, tiebreak, breakdown) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
    " user_id = excluded.user_id, ai_policy = excluded.ai_policy, total = excluded.total,"
    " rank = excluded.rank, winner = excluded.winner, tiebreak = excluded.tiebreak,"
    " breakdown = excluded.breakdown"
)
