"""The undo rule: which decisions a player may take back.

A player may take back **their own last decision** when, since it:

* no other player acted: not another person, and not an AI seat or another seat's forced move
  either (an AI seat is a player; seeing its reply and then taking one's move back would be
  peeking).  Only the player's own forced moves that the service played right after the
  decision may follow it, and they are taken back with it;
* nothing hidden or random was revealed, by the decision itself or by those forced moves
  (``game.reveals(before, after)`` for each step: a Hacienda draw, the plantations turned face
  up when a Settler phase ends...).

Taking back again reaches the decision before, under the same rule: a player placing colonists
one by one can step back one colonist at a time.  A decision that a later undo already took
back does not count.

Pure: the effective log and the engine; :class:`bot.errors.UserError` explains a refusal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Game
from storage import ActionRecord

from .errors import UserError


@dataclass(frozen=True, slots=True)
class UndoPlan:
    count: int
    """How many of the last actions (that count) are taken back."""
    decision: ActionRecord
    """The player's decision taken back (the first of them)."""


def last_decision(log: Sequence[ActionRecord]) -> int | None:
    """Index of the last action a person decided (not an AI seat, not forced)."""
    for index in range(len(log) - 1, -1, -1):
        if log[index].user_id is not None:
            return index
    return None


def _only_own_moves_since(log: Sequence[ActionRecord], index: int) -> bool:
    """Whether every action after ``log[index]`` is a move of the same seat."""
    seat = log[index].seat
    return all(a.seat == seat for a in log[index + 1 :])


def may_undo(log: Sequence[ActionRecord], user_id: int) -> bool:
    """A cheap first look (no replay): the last person to decide was ``user_id`` and no other
    seat has moved since."""
    index = last_decision(log)
    return index is not None and log[index].user_id == user_id and _only_own_moves_since(log, index)


def plan_undo(
    game: Game[Any],
    options: Mapping[str, Any],
    seed: int,
    log: Sequence[ActionRecord],
    user_id: int,
    *,
    game_id: int = 0,
) -> UndoPlan:
    """What ``user_id`` may take back in a game whose whole effective log is ``log``."""
    index = last_decision(log)
    if index is None or all(a.user_id != user_id for a in log):
        raise UserError("err.undo_nothing", game=game_id)
    if log[index].user_id != user_id or not _only_own_moves_since(log, index):
        raise UserError("err.undo_others", game=game_id)
    state = game.setup(options, seed)
    for action in log[:index]:
        state, _ = game.apply(state, action.seat, game.decode_action(action.code))
    for action in log[index:]:
        after, _ = game.apply(state, action.seat, game.decode_action(action.code))
        if game.reveals(state, after):
            raise UserError("err.undo_revealed", game=game_id)
        state = after
    return UndoPlan(len(log) - index, log[index])
