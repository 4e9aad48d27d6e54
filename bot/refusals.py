"""Refusals that say why, with the numbers.

The engine refuses a move with a code and a few fields (``IllegalAction("not_enough_doubloons",
action="b.city_hall")``, ``NotYourTurn(expected=[2])``); it never formats text.  What a person
needs to understand the refusal (the price for them, what they hold, the phase now and who
acts) is in the view of the refused seat, so whoever refuses a move attaches a
:class:`~bot.games.contract.Situation` (:func:`situate`: the game, the seat's view, the names by
seat and the legal codes), and :func:`refusal` turns the code plus the situation into a catalog key
and its fields, in the reader's language.  Whose turn it is and "not now" are said here for every
game; the game's own refusals ("You cannot afford the City hall: it costs 8 doubloons for you, you
have 5 doubloons") come from its presenter (:meth:`bot.games.GamePresenter.refusal`).  Without a
situation the plain ``illegal.*`` texts remain.  Pure.
"""

from __future__ import annotations

from typing import Any, TypeVar

from engine.core import EngineError, GameOver, IllegalAction, InvalidAction, NotYourTurn

from .games import presenter_for
from .games.contract import Refusing, Situation
from .i18n import Catalog

E = TypeVar("E", bound=BaseException)


def situate(exc: E, situation: Situation) -> E:
    """Attach ``situation`` to ``exc`` (returned, to be raised)."""
    exc.situation = situation  # type: ignore[attr-defined]
    return exc


def situation_of(exc: BaseException) -> Situation | None:
    """The situation attached to ``exc`` or to the exception it was raised from."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return None
        found = getattr(seen, "situation", None)
        if isinstance(found, Situation):
            return found
        seen = seen.__cause__ or seen.__context__
    return None


def engine_cause(exc: BaseException) -> EngineError | None:
    seen: BaseException | None = exc
    for _ in range(4):
        if isinstance(seen, EngineError):
            return seen
        if seen is None:
            return None
        seen = seen.__cause__
    return None


def catalog_of(exc: BaseException) -> Catalog | None:
    """The catalog of the game a refusal happened in (its words), when it says."""
    situation = situation_of(exc)
    if situation is None or not situation.kind:
        return None
    try:
        return presenter_for(situation.kind).catalog
    except EngineError:
        return None


def refusal(exc: BaseException, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The key and fields that explain ``exc`` with the numbers of its situation, or ``None``
    when there is no situation or nothing better to say than the plain texts."""
    situation = situation_of(exc)
    if situation is None:
        return None
    try:
        presenter = presenter_for(situation.kind)
    except EngineError:
        return None
    words = Refusing(situation, presenter, lang)
    cause = engine_cause(exc)
    key = getattr(exc, "key", None)
    action = situation.action or (str(cause.details.get("action", "")) if cause else "")
    if isinstance(cause, GameOver) or words.view.get("game_over"):
        return "err.game_over", {"game": situation.game}
    if isinstance(cause, NotYourTurn) or key == "err.not_your_turn":
        return not_your_turn(words, action)
    if isinstance(cause, InvalidAction):
        return "why.unknown_action", {"code": action or "?"}
    if isinstance(cause, IllegalAction):
        if cause.code == "illegal_now":  # the game may know why this choice is not open
            return presenter.refusal(words, cause.code, action) or wrong_decision(words, action)
        if cause.code == "wrong_decision":
            return wrong_decision(words, action)
        if cause.code == "cannot_pass":
            _, what = words.prompt()
            return "why.cannot_pass", {"what": what}
        return presenter.refusal(words, cause.code, action)
    return None


def not_your_turn(w: Refusing, action: str) -> tuple[str, dict[str, Any]]:
    seats, what = w.prompt()
    others = [s for s in seats if s != w.s.seat]
    who = w.catalog.join(w.lang, [w.name(s) for s in others or seats])
    fam = w.presenter.family(action) if action else ""
    when = w.when(fam) if fam else None
    kind = str((w.view.get("prompt") or {}).get("kind", ""))
    if when and fam != w.presenter.prompt_family(kind):
        return "why.wrong_phase_others", {"when": when, "who": who, "what": what}
    key = "why.not_your_turn" if len(others or seats) == 1 else "why.waiting_for_others"
    return key, {"who": who, "what": what, "game": w.s.game}


def wrong_decision(w: Refusing, action: str) -> tuple[str, dict[str, Any]]:
    """"Building is only possible in the Builder phase; now you must choose a role."""
    _, what = w.prompt()
    when = w.when(w.presenter.family(action)) or w.t("illegal.wrong_decision")
    return "why.wrong_decision", {"when": when, "what": what}


__all__ = ["catalog_of", "engine_cause", "refusal",
           "situate", "situation_of"]
