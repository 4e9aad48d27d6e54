"""A finished game told by its numbers: each seat's score round by round, and what each seat
chose (its roles and its buildings).  For every game of the registry, from its contract only.

* :func:`score_history` replays a game and takes each seat's :meth:`~engine.core.Game.standing`
  (the score as if the game ended then, hidden VP counted) at the start and at the end of every
  round.  A game's chart shows it once the game is over: while a game is played the chips and
  the Chapel cards it counts are hidden.  On the way it adds up the points each seat took
  during play by why it took them (the game's :attr:`~engine.core.Game.gain_events`: Puerto
  Rico's VP chips for shipping, the Harbor, the Church, a plunder...): the chart's split names
  each source.
* :func:`choices` counts, per seat, the roles chosen and the buildings built, from the events
  the actions produced (``RoleChosen`` with its ``role``; ``BuildingBuilt`` with its
  ``building``, or its ``card`` where a building is a card): the players' favourites.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import GainEvent, Game, Outcome

CHOICE_EVENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "RoleChosen": ("role", ("role",)),
    "BuildingBuilt": ("building", ("building", "card")),
}
"""Event type -> (the kind of choice, the data keys naming what was chosen, the first found)."""


@dataclass(frozen=True, slots=True)
class ScoreHistory:
    """``rounds[i]``: 0 for the start, else the round that had ended (the last point is the end
    of the game, in the round it ended); ``totals[i]``: every seat's score then.  ``final``: the
    standing at the end (the outcome, for a finished game).  ``gains``: by seat, the points it
    took during play by source (the game's ``gain_events``; a source given back is
    negative)."""

    rounds: tuple[int, ...]
    totals: tuple[tuple[int, ...], ...]
    final: Outcome
    gains: tuple[Mapping[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        lines = sorted(self.final.scores, key=lambda line: line.seat)
        return {
            "rounds": list(self.rounds),
            "totals": [list(t) for t in self.totals],
            "winners": list(self.final.winners),
            "breakdowns": [dict(line.breakdown) for line in lines],
            "gains": [dict(g) for g in self.gains],
        }


def _totals(outcome: Outcome) -> tuple[int, ...]:
    return tuple(line.total for line in sorted(outcome.scores, key=lambda line: line.seat))


def score_history(
    game: Game[Any], options: Mapping[str, Any], seed: int, moves: Iterable[tuple[int, str]]
) -> ScoreHistory:
    """Replay ``moves`` (seat, action code) from ``game.setup(options, seed)`` and take the
    scores at the start and whenever a round ends, and the points each seat took on the way
    by source (``gains``).  Raises what the engine raises for an illegal move (the log is the
    game's own, so that means a corrupt log)."""
    state = game.setup(options, seed)
    rounds = [0]
    totals = [_totals(game.standing(state))]
    gained: list[Counter[str]] = [Counter() for _ in totals[0]]
    current = game.round(state)
    table = game.gain_events
    taken = True  # the standing of the state as it is now has been taken
    for seat, code in moves:
        state, events = game.apply(state, seat, game.decode_action(code))
        add_gains(gained, (e.to_json() for e in events if e.type in table), table)
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
    return ScoreHistory(tuple(rounds), tuple(totals), final, tuple(dict(g) for g in gained))


def add_gains(gained: Sequence[Counter[str]], events: Iterable[Mapping[str, Any]],
              table: Mapping[str, GainEvent]) -> None:
    """Add to ``gained`` (a counter by seat) the points ``events`` (as JSON) gave each seat,
    by source (``table``: the game's ``gain_events``); what cannot be read is left out."""
    for event in events:
        found = table.get(str(event.get("type")))
        seat = event.get("seat")
        if found is None or not isinstance(seat, int) or not 0 <= seat < len(gained):
            continue
        data = event.get("data") or {}
        points, reason = data.get(found.points), found.source or data.get("reason")
        if isinstance(points, int) and points and isinstance(reason, str):
            gained[seat][reason] += found.sign * points


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
