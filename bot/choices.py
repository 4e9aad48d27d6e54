"""Action codes in words: the labels of buttons, select options and autocomplete choices.

Pure: an engine action code (``b.harbor``, ``ship.corn.1``...) plus the view the chooser sees
(a seat view carries that seat's building prices) and the effects the service measured by
trying each action on a copy of the game (doubloons earned by a sale, VP and barrels of a load)
become a short label and an optional description, in one language.  The engine stays the one
source of legality: this module only words codes it was given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .i18n import CATALOG, Catalog

LABEL_LIMIT = 80  # buttons take 80 characters, select options and choices 100
DESCRIPTION_LIMIT = 100
FAMILIES = {
    "r": "role", "s": "settle", "o": "offer", "m": "mayor", "b": "build", "c": "craft",
    "t": "sell", "ship": "ship", "wharf": "ship", "keep": "keep", "pass": "pass",
}


@dataclass(frozen=True, slots=True)
class Effect:
    """What an action would change for the acting seat (measured by the service)."""

    doubloons: int = 0
    vp: int = 0
    barrels: int = 0


def family(code: str) -> str:
    """``role``, ``settle``, ``offer``, ``mayor``, ``build``, ``craft``, ``sell``, ``ship``,
    ``keep`` or ``pass``."""
    return FAMILIES.get(code.split(".", 1)[0], "other")


def clip(text: str, limit: int = LABEL_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Chooser:
    """Words for the codes one viewer may choose now."""

    def __init__(
        self,
        view: Mapping[str, Any],
        lang: str,
        catalog: Catalog = CATALOG,
        *,
        effects: Mapping[str, Effect] | None = None,
        prompt_kind: str | None = None,
    ) -> None:
        self.view = view
        self.lang = lang
        self.catalog = catalog
        self.effects = effects or {}
        self.prompt_kind = prompt_kind or str((view.get("prompt") or {}).get("kind", ""))
        self.market = {str(m["building"]): m for m in view.get("market", ())}
        self.roles = {str(r["card"]): r for r in view.get("roles", ())}

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def word(self, prefix: str, value: str) -> str:
        key = f"{prefix}.{value}"
        return self.t(key) if self.catalog.has(key) else value.replace("_", " ")

    def tile(self, tile: str) -> str:
        return self.word("tile" if tile == "quarry" else "good", tile)

    def building(self, name: str) -> str:
        return self.word("building", name)

    def slot(self, slot: str) -> str:
        """A place for a colonist: a plantation kind, the quarry or a building."""
        if slot in self.market or self.catalog.has(f"building.{slot}"):
            return self.building(slot)
        if slot == "quarry":
            return self.t("act.quarry")
        return self.t("act.plantation", tile=self.tile(slot))

    def price(self, building: str) -> int:
        entry = self.market.get(building, {})
        return int(entry.get("price", entry.get("cost", 0)))

    # --- labels ---------------------------------------------------------------------------

    def label(self, code: str) -> str:
        return clip(self._label(code))

    def _label(self, code: str) -> str:
        head, _, rest = code.partition(".")
        effect = self.effects.get(code)
        if code == "pass":
            key = f"pass.{self.prompt_kind}"
            return self.t(key) if self.catalog.has(key) else self.t("pass.default")
        if head == "r":
            role = self.roles.get(rest, {})
            name = self.word("role", str(role.get("role", rest.rstrip("2"))))
            coins = int(role.get("doubloons") or 0)
            return self.t("act.role_bonus", role=name, n=coins) if coins else name
        if head == "s":
            if rest == "hacienda":
                return self.t("act.hacienda")
            if rest == "quarry":
                return self.t("act.quarry")
            return self.t("act.plantation", tile=self.tile(rest))
        if head == "o":
            return self.t("act.accept_colonist")
        if head == "m":
            if rest == "privilege":
                return self.t("act.mayor_privilege")
            if rest == "auto":
                return self.t("act.auto")
            return self.t("act.place", slot=self.slot(rest))
        if head == "b":
            return self.t("act.build", building=self.building(rest), price=self.price(rest))
        if head == "c":
            return self.t("act.craft", good=self.tile(rest))
        if head == "t":
            if effect is not None:
                return self.t("act.sell", good=self.tile(rest), n=effect.doubloons)
            return self.t("act.sell_plain", good=self.tile(rest))
        if head == "ship":
            good, _, index = rest.partition(".")
            ship = self._ship(index)
            return self.t("act.ship", good=self.tile(good), ship=int(index) + 1,
                          count=ship.get("count", 0), capacity=ship.get("capacity", 0))
        if head == "wharf":
            return self.t("act.wharf", good=self.tile(rest))
        if head == "keep":
            return self.keep_words(rest)
        return code

    def _ship(self, index: str) -> Mapping[str, Any]:
        ships: Sequence[Mapping[str, Any]] = self.view.get("ships", ())
        return ships[int(index)] if index.isdigit() and int(index) < len(ships) else {}

    def keep_words(self, body: str) -> str:
        if body == "none":
            return self.t("act.keep_none")
        parts = []
        for part in body.split("."):
            name = part.rstrip("0123456789")
            parts.append(f"{part[len(name):]} {self.tile(name)}")
        return self.t("act.keep", goods=", ".join(parts))

    def description(self, code: str) -> str | None:
        """A second line (select options, autocomplete): what the choice costs or brings."""
        head, _, rest = code.partition(".")
        effect = self.effects.get(code)
        if head == "b" and rest in self.market:
            entry = self.market[rest]
            return clip(self.t("act.build_details", cost=entry.get("cost", 0),
                               vp=entry.get("vp", 0), circles=entry.get("circles", 0),
                               left=entry.get("left", 0)), DESCRIPTION_LIMIT)
        if head in ("ship", "wharf") and effect is not None:
            return clip(self.t("act.ship_effect", n=effect.barrels, vp=effect.vp),
                        DESCRIPTION_LIMIT)
        return None

    def choice_name(self, code: str) -> str:
        """Label and description on one line (autocomplete shows a single line)."""
        details = self.description(code)
        text = self._label(code) if details is None else f"{self._label(code)} · {details}"
        return clip(text, DESCRIPTION_LIMIT)
