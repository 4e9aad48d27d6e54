"""Who sits at a table and who runs it: the AI levels, the seat kinds a lobby offers, the level
of an AI taking a seat over, and who may manage a game (its creator, or Manage Server).

Pure rules over a :class:`storage.GameRecord` and the game's presenter (which seats a game
takes is the game's: :meth:`bot.games.GamePresenter.seat_refusal`); the lobby service, the
lobby's messages and the clock read them here.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage import GameRecord, GameStatus

from .errors import UserError
from .games import presenter_for
from .games.contract import GamePresenter
from .seatnames import escape_name

AI_LEVELS = ("random", "heuristic", "strong")  # stored as the seat's ai_policy
TAKEOVER_DEFAULT = "heuristic"
"""The level of a seat taken over at a table that names none (:func:`takeover_level`)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who clicked: the user and whether they hold Manage Server where the game is."""

    user_id: int
    can_manage: bool = False


def is_manager(record: GameRecord, actor: Actor) -> bool:
    """The game's creator, or someone holding Manage Server where it is played."""
    return actor.can_manage or (
        record.creator_id is not None and actor.user_id == record.creator_id
    )


def check_manager(record: GameRecord, actor: Actor) -> None:
    if not is_manager(record, actor):
        raise UserError("err.not_allowed", game=record.id)


def takeover_level(record: GameRecord) -> str:
    """The AI level for a taken-over seat (its player left, or the clock's vote): the table's
    (``/game new ai_level``, which the lobby shows), else normal.  Never the level of the
    table's AI seats, which the lobby may seat at any level each (nor a seat kind the game
    plays itself, 1897's Puertoma)."""
    if record.ai_level in AI_LEVELS:
        return record.ai_level
    return TAKEOVER_DEFAULT


def capacity(record: GameRecord) -> int:
    """The seats of a lobby's table (its ``players`` option, else the game's largest)."""
    return int(record.options.get("players", presenter_for(record.game).players[1]))


def offered_seats(record: GameRecord) -> list[str]:
    """The seat kinds a lobby offers to add now: every AI level, then every seat kind the game
    plays itself, while a seat is free and the game allows one more of that kind
    (``GamePresenter.seat_refusal``: a start it could never accept is not offered)."""
    presenter = presenter_for(record.game)
    seats = capacity(record)
    if record.status is not GameStatus.LOBBY or len(record.seats) >= seats:
        return []
    kinds = [s.ai_policy for s in record.seats]
    lang = record.language or "en"
    return [kind for kind in (*AI_LEVELS, *presenter.automata)
            if presenter.seat_refusal(kinds, kind, seats, lang) is None]


def check_level(presenter: GamePresenter, level: str, lang: str) -> None:
    """An AI level, or a seat kind the game plays itself; else a specific refusal."""
    if level in presenter.automata:
        return
    if level not in AI_LEVELS:
        raise UserError("err.no_such_seat_kind", level=escape_name(level[:40]),
                        title=presenter.title(lang))
