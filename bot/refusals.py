"""Refusals that say why, with the numbers.

The engine refuses a move with a code and a few fields (``IllegalAction("not_enough_doubloons",
action="b.city_hall")``, ``NotYourTurn(expected=[2])``); it never formats text.  What a person
needs to understand the refusal (the price for them, what they hold, the phase now and who
acts) is in the view of the refused seat, so whoever refuses a move attaches a
:class:`Situation` (:func:`situate`: the game, the seat's view, the names by seat and the legal
codes), and :func:`refusal` turns the code plus the situation into a catalog key and its fields,
in the reader's language.  Whose turn it is and "not now" are said here for every game; the
game's own refusals ("You cannot afford the City hall: it costs 8 doubloons for you, you have 5
doubloons") come from its presenter (:meth:`bot.games.GamePresenter.refusal`).  Without a
situation the plain ``illegal.*`` texts remain.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core import EngineError, GameOver, IllegalAction, InvalidAction, NotYourTurn

from .i18n import Catalog

if TYPE_CHECKING:
    from .games.contract import GamePresenter


@dataclass(frozen=True, slots=True)
class Situation:
    """Where a refusal happened: the refused seat's view of the game at that moment."""

    game: int
    seat: int | None
    view: Mapping[str, Any]
    names: Mapping[int, str]
    legal: tuple[str, ...] = field(default=())
    action: str | None = None
    """The code refused, when the exception does not carry it (a command typed by name)."""
    game_name: str = ""
    """The engine's name of the game (its presenter words the refusal); default: the view's."""

    @property
    def kind(self) -> str:
        return self.game_name or str(self.view.get("game", ""))


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


class Refusing:
    """A refusal's situation in one language, for the generic texts and the game's own."""

    def __init__(self, situation: Situation, presenter: GamePresenter, lang: str) -> None:
        self.s = situation
        self.presenter = presenter
        self.catalog: Catalog = presenter.catalog
        self.lang = lang
        self.view = situation.view
        self.chooser = presenter.words(situation.view, lang)
        self.me: Mapping[str, Any] = self.chooser.me()

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def name(self, seat: object) -> str:
        if isinstance(seat, int):
            if seat == self.s.seat:
                return self.t("why.you")
            return self.s.names.get(seat, self.t("table.seat_name", n=seat + 1))
        return "?"

    def prompt(self) -> tuple[list[int], str]:
        prompt = self.view.get("prompt") or {}
        what = self.presenter.prompt_text(str(prompt.get("kind", "")), self.lang)
        return [int(s) for s in prompt.get("seats", ())], what

    def when(self, family: str) -> str | None:
        """When a kind of decision is taken ("Roles are chosen only between phases")."""
        key = self.presenter.action_family_when(family)
        return self.t(key) if key else None


def catalog_of(exc: BaseException) -> Catalog | None:
    """The catalog of the game a refusal happened in (its words), when it says."""
    situation = situation_of(exc)
    if situation is None or not situation.kind:
        return None
    from .games import presenter_for  # noqa: PLC0415  (the games import this module)

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
    from .games import presenter_for  # noqa: PLC0415

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


__all__ = ["Refusing", "Situation", "catalog_of", "engine_cause", "refusal",
           "situate", "situation_of"]
