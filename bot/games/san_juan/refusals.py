"""San Juan's refusals with the numbers: "You pay exactly 3 cards for the Smithy: you chose 2."
The generic part (whose turn it is, not now, an unknown code) is :mod:`bot.refusals`; this
module words the engine's San Juan codes (``IllegalAction.code``) from the refused seat's own
view (its hand and pending decision: nothing anyone else could not see).  Pure.
"""

from __future__ import annotations

from typing import Any

from ..contract import Refusing
from .words import SanJuanWords, family, multiset, pay_parts

PROMPT_FAMILIES = {
    "role": "role", "build": "build", "pay": "pay", "carpenter": "draw", "poor_house": "draw",
    "prospector": "draw", "gold_mine": "gold_mine", "gold_mine_take": "gold_mine",
    "produce": "produce", "sell": "sell", "councillor": "keep", "variant_keep": "keep",
    "chapel": "chapel", "hand_limit": "discard",
}


def chosen(action: str) -> int:
    """How many cards (and goods) ``action`` names."""
    fam = family(action)
    if fam == "pay":
        cards, goods = pay_parts(action)
        return sum(n for _, n in cards) + sum(n for _, n in goods)
    body = action.split(".", 1)[1] if "." in action else ""
    return sum(n for _, n in multiset(body)) if body else 0


def illegal(w: Refusing, code: str, action: str) -> tuple[str, dict[str, Any]] | None:
    words = w.chooser
    assert isinstance(words, SanJuanWords)
    pending = words.pending
    if code == "wrong_amount" and pending["decision"] == "pay":
        return "why.pay_count", {"card": words.card(str(pending.get("building"))),
                                 "n": int(pending.get("cost", 0)), "chosen": chosen(action)}
    if code == "keep_not_allowed" and "keep" in pending:
        return "why.keep_count", {"n": int(pending["keep"]), "chosen": chosen(action)}
    if code == "discard_not_allowed" and "discard" in pending:
        return "why.discard_count", {"n": int(pending["discard"]), "chosen": chosen(action)}
    if code == "cannot_pay" and action in (pending.get("prices") or {}):
        # the card leaves the hand to be built: the others pay (and a Black market's goods)
        name = action.split(".", 1)[1].partition("@")[0]
        fields = {"card": words.card(name), "n": pending["prices"][action],
                  "have": max(0, len(words.view.get("hand") or ()) - 1)}
        goods = int(pending.get("goods_allowed") or 0)
        if goods:
            return "why.cannot_pay_goods", {**fields, "goods": goods}
        return "why.cannot_pay", fields
    if code == "over_capacity" and "capacity" in pending:
        return "why.capacity", {"n": int(pending["capacity"]), "chosen": chosen(action)}
    return None
