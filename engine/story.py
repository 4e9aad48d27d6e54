"""A finished game told by its numbers: each seat's score round by round, and what each seat
chose (its roles and its buildings).  For every game of the registry, from its contract only.

* :func:`score_history` replays a game and takes each seat's :meth:`~engine.core.Game.standing`
  (the score as if the game ended then, hidden VP counted) at the start and at the end of every
  round.  A game's chart shows it once the game is over: while a game is played the chips and
  the Chapel cards it counts are hidden.
* :func:`choices` counts, per seat, the roles chosen and the buildings built, from the events
  the actions produced (``RoleChosen`` with its ``role``; ``BuildingBuilt`` with its
  ``building``, or its ``card`` where a building is a card): the players' favourites.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import Game, Outcome

CHOICE_EVENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "RoleChosen": ("role", ("role",)),
    "BuildingBuilt": ("building", ("building", "card")),
}
"""Event type -> (the kind of choice, the data keys naming what was chosen, the first found)."""


@dataclass(frozen=True, slots=True)
class ScoreHistory:
    """``rounds[i]``: 0 for the start, else the round that had ended (the last point is the end
    of the game, in the round it ended); ``totals[i]``: every seat's score then.  ``final``: the
    standing at the end (the outcome, for a finished game)."""

    rounds: tuple[int, ...]
    totals: tuple[tuple[int, ...], ...]
    final: Outcome

    def to_json(self) -> dict[str, Any]:
        lines = sorted(self.final.scores, key=lambda line: line.seat)
        return {
            "rounds": list(self.rounds),
            "totals": [list(t) for t in self.totals],
            "winners": list(self.final.winners),
            "breakdowns": [dict(line.breakdown) for line in lines],
        }


def _totals(outcome: Outcome) -> tuple[int, ...]:
    return tuple(line.total for line in sorted(outcome.scores, key=lambda line: line.seat))


def score_history(
    game: Game[Any], options: Mapping[str, Any], seed: int, moves: Iterable[tuple[int, str]]
) -> ScoreHistory:
    """Replay ``moves`` (seat, action code) from ``game.setup(options, seed)`` and take the
    scores at the start and whenever a round ends.  Raises what the engine raises for an
    illegal move (the log is the game's own, so that means a corrupt log)."""
    state = game.setup(options, seed)
    rounds = [0]
    totals = [_totals(game.standing(state))]
    current = game.round(state)
    taken = True  # the standing of the state as it is now has been taken
    for seat, code in moves:
        state, _ = game.apply(state, seat, game.decode_action(code))
        taken = False
        now = game.round(state)
        if now != current:
            rounds.append(current)
            totals.append(_totals(game.standing(state)))
            current, taken = now, True
    final = game.outcome(state) or game.standing(state)
    if not taken:
        rounds.append(current)
        totals.append(_totals(final))
    return ScoreHistory(tuple(rounds), tuple(totals), final)


def choices(actions: Iterable[Sequence[Mapping[str, Any]]]) -> Counter[tuple[int, str, str]]:
    """How many times each seat chose each role and built each building: (seat, kind, name) ->
    count, from the events (as JSON) of every action of a game."""
    out: Counter[tuple[int, str, str]] = Counter()
    for events in actions:
        for event in events:
            found = CHOICE_EVENTS.get(str(event.get("type")))
            seat = event.get("seat")
            if found is None or not isinstance(seat, int):
                continue
            kind, keys = found
            data = event.get("data") or {}
            name = next((data[k] for k in keys if isinstance(data.get(k), str)), None)
            if name is not None:
                out[(seat, kind, name)] += 1
    return out
