"""San Juan's action codes in words: the labels of buttons, select options and autocomplete
choices, in the reader's language (the seed's Spanish card names).

Pure: an engine action code (``b.smithy``, ``p.indigo_plant*2,well``...) plus the view the
chooser sees (a seat view carries that seat's hand, the costs of what it may build and the
context of its decision) become a short label and a description.  Cards of one kind are
interchangeable, so a code names kinds and counts; the words do too ("Indigo plant ×2, Well").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.san_juan.data import CARDS, KIND_INDEX
from engine.san_juan.view import Pending, SanJuanView, Seat

from ...i18n import Catalog
from ...words import Words
from .catalog import CATALOG

FAMILIES = {
    "r": "role", "b": "build", "p": "pay", "draw": "draw", "reveal": "gold_mine",
    "gm": "gold_mine", "pr": "produce", "s": "sell", "k": "keep", "d": "discard",
    "c": "chapel", "pass": "pass",
}
"""The kind of decision of a code, by its head (``p+g.`` pays with goods only)."""


def san_juan_view(view: Mapping[str, Any]) -> SanJuanView:
    """``view`` as San Juan's: the generic bot hands the presenter a view through the
    contract's ``Mapping``, and San Juan's presenter only ever gets what San Juan's engine
    ``view`` returns (a test checks every key of it over random games): the one cast."""
    return cast(SanJuanView, view)


def family(code: str) -> str:
    head = code.split(".", 1)[0].split("+", 1)[0]
    return FAMILIES.get(head, "other")


def multiset(text: str) -> list[tuple[str, int]]:
    """``indigo_plant*2,well`` -> ``[("indigo_plant", 2), ("well", 1)]``."""
    out = []
    for part in text.split(","):
        name, _, count = part.partition("*")
        if name:
            out.append((name, int(count) if count.isdigit() else 1))
    return out


def pay_parts(code: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The cards and goods a payment code names."""
    cards_text, _, goods_text = code.partition("+")
    cards = multiset(cards_text[2:]) if cards_text.startswith("p.") else []
    goods = multiset(goods_text[2:]) if goods_text.startswith("g.") else []
    return cards, goods


class SanJuanWords(Words):
    """Words for the San Juan codes one viewer may choose now."""

    view: SanJuanView

    def __init__(
        self,
        view: Mapping[str, Any],
        lang: str,
        catalog: Catalog = CATALOG,
        *,
        extras: Mapping[str, Any] | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(view, lang, catalog, extras=extras, kind=kind)
        self.view = san_juan_view(view)
        self.pending: Pending = self.view.get("pending") or {"decision": ""}

    def seat(self) -> Seat | None:
        """The viewer's own entry of the view's seats (``None`` in the public view)."""
        viewer = self.view["viewer"]
        return None if viewer is None else self.view["seats"][viewer]

    def me(self) -> Mapping[str, Any]:
        """The viewer's own entry of the view's seats (empty in the public view)."""
        return self.seat() or {}

    # --- names ------------------------------------------------------------------------------

    def card(self, name: str) -> str:
        return self.word("card", name)

    def role(self, name: str) -> str:
        return self.word("role", name)

    def good(self, name: str) -> str:
        return self.word("good", name)

    def counted(self, items: Sequence[tuple[str, int]], word: Any) -> str:
        """``[("indigo_plant", 2), ("well", 1)]`` -> "Indigo plant ×2, Well"."""
        return ", ".join(word(name) if n == 1 else f"{word(name)} ×{n}" for name, n in items)

    def cards(self, names: Sequence[str]) -> str:
        """Card names in hand order, repeats counted."""
        counts: dict[str, int] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        return self.counted(sorted(counts.items(), key=lambda kv: KIND_INDEX.get(kv[0], 99)),
                            self.card)

    # --- labels -----------------------------------------------------------------------------

    def plain_label(self, code: str) -> str:
        fam = family(code)
        body = code.split(".", 1)[1] if "." in code else ""
        if fam == "role":
            role, _, lib = body.partition(".")
            return self.t("act.role_library" if lib else "act.role", role=self.role(role))
        if fam == "build":
            name, _, at = body.partition("@")
            cost = self.pending.get("costs", {}).get(code)
            if at:
                label = self.t("act.build_over", card=self.card(name), over=self.over(int(at)))
            else:
                label = self.t("act.build", card=self.card(name))
            return label if cost is None else self.t("act.with_cost", label=label, n=int(cost))
        if fam == "pay":
            cards, goods = pay_parts(code)
            card_words = self.counted(cards, self.card)
            good_words = self.counted(goods, self.good)
            if cards and goods:
                return self.t("act.pay_goods", cards=card_words, goods=good_words)
            if goods:
                return self.t("act.pay_goods_only", goods=good_words)
            return self.t("act.pay", cards=card_words)
        if code == "draw":
            n = int(self.pending.get("draw", 1))
            key = f"act.draw_{self.prompt_kind}"
            if not self.catalog.has(key):
                return self.t("act.draw", n=n)
            return self.t(key, n=n, keep=int(self.pending.get("keep", 1)))
        if code == "pass" and self.prompt_kind == "councillor" and "draw" in self.pending:
            return self.t("pass.councillor_draw")  # declined before seeing a card
        if code == "reveal":
            return self.t("act.reveal")
        if fam == "gold_mine":
            return self.t("act.take", card=self.card(body))
        if fam == "produce":
            return self.t("act.produce", goods=self.counted(multiset(body), self.good))
        if fam == "sell":
            label = self.t("act.sell", goods=self.counted(multiset(body), self.good))
            gain = (self.extras.get("effects") or {}).get(code)
            return label if gain is None else self.t("act.with_gain", label=label, n=int(gain))
        if fam == "keep":
            return self.t("act.keep", cards=self.counted(multiset(body), self.card))
        if fam == "discard":
            return self.t("act.discard", cards=self.counted(multiset(body), self.card))
        if fam == "chapel":
            return self.t("act.chapel", card=self.card(body))
        return super().plain_label(code)

    def over(self, index: int) -> str:
        """The name of the viewer's own building at area ``index`` (what a Crane covers)."""
        me = self.seat()
        buildings = [] if me is None else me["buildings"]
        if 0 <= index < len(buildings):
            return self.card(buildings[index]["card"])
        return "?"

    def description(self, code: str) -> str | None:
        fam = family(code)
        if fam == "build":
            name = code.split(".", 1)[1].partition("@")[0]
            kind = KIND_INDEX.get(name)
            cost = self.pending.get("costs", {}).get(code)
            if kind is None or cost is None:
                return None
            card = CARDS[kind]
            effect = self.word("effect", name)
            return self.t("act.build_desc", vp=card.vp, effect=effect)
        if fam == "role":
            return self.word("privilege", code.split(".")[1])
        return None

    def choice_name(self, code: str) -> str:
        return super().choice_name(code)
