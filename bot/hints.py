"""A hint's words (``/game hint``): the best choices of :mod:`engine.advice`, in the reader's
language, in the order of the figures they show, each with how sure it is.

Nothing is shown that the advice cannot back: below ``MIN_PLAYOUTS`` playouts a choice (a low
``AI_BUDGET``, a busy host that hit the hint's time bound) the reply says the AI could not look
far enough ahead, with no percentage at all.
"""

from __future__ import annotations

from engine.advice import MIN_PLAYOUTS, Confidence
from engine.core import get_game

from .games import presenter_for
from .turns import Hint

FIRST = {
    Confidence.CLEAR: "hint.first_clear",
    Confidence.LIKELY: "hint.first_likely",
    Confidence.EVEN: "hint.first_even",
}
"""How sure the first choice is of beating the second."""
OTHER = {
    Confidence.CLEAR: "hint.other_clear",
    Confidence.LIKELY: "hint.other_likely",
    Confidence.EVEN: "hint.other_even",
}
"""How sure a later choice is of being worse than the first."""


def hint_text(hint: Hint, lang: str) -> str:
    """A hint in ``lang``: the decision, then the best choices, each with its chance of winning
    and margin of error, the reason in numbers (its playouts' average margin over the best
    other player, and how many playouts), and how sure its place is."""
    panel = hint.panel
    advice = hint.advice
    presenter = presenter_for(panel.record.game)
    t = presenter.catalog.t
    decision = presenter.prompt_text(panel.kind or "", lang)
    if not advice.enough:
        return t(lang, "hint.too_few", game=panel.record.id, decision=decision,
                 n=advice.playouts, need=MIN_PLAYOUTS)
    words = presenter.words(panel.view, lang, extras=panel.extras, kind=panel.kind)
    game = get_game(panel.record.game)
    lines = [t(lang, "hint.title", game=panel.record.id, decision=decision)]
    for rank, choice in enumerate(advice.choices, start=1):
        margin = round(choice.margin)
        key = ("hint.reason_ahead" if margin > 0 else "hint.reason_behind" if margin < 0
               else "hint.reason_level")
        reason = t(lang, key, margin=abs(margin), n=choice.playouts)
        sure = t(lang, (FIRST if rank == 1 else OTHER)[choice.confidence])
        lines.append(t(lang, "hint.line", rank=rank,
                       choice=words.choice_name(game.encode_action(choice.action)),
                       chance=choice.percent, error=max(1, round(100 * choice.error)),
                       reason=reason, sure=sure))
    if advice.entrants < advice.legal:  # among very many choices the race took a sample
        lines.append(t(lang, "hint.sampled", looked=advice.entrants, total=advice.legal))
    return "\n".join(lines)
