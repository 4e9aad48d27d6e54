"""Puerto Rico's base words: what the choices' words (:mod:`.choices`) and the expansions' words
(:mod:`.new_buildings`, :mod:`.nobles`) share, below them all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...i18n import Catalog
from ...words import Words
from .catalog import CATALOG


@dataclass(frozen=True, slots=True)
class Effect:
    """What an action would change for the acting seat (measured by the service)."""

    doubloons: int = 0
    vp: int = 0
    barrels: int = 0
    made: tuple[tuple[str, int], ...] = ()
    """The barrels of each kind the action brings (production)."""


class PrWords(Words):
    """Puerto Rico's words for what one viewer sees: its tiles, buildings and places, and the
    effects the service measured; the base of the choices' words (:class:`.choices.Chooser`),
    which the expansions' words (:mod:`.new_buildings`, :mod:`.nobles`) read."""

    def __init__(
        self,
        view: Mapping[str, Any],
        lang: str,
        catalog: Catalog = CATALOG,
        *,
        effects: Mapping[str, Effect] | None = None,
        prompt_kind: str | None = None,
        extras: Mapping[str, Any] | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(view, lang, catalog, extras=extras, kind=prompt_kind or kind)
        self.effects: Mapping[str, Effect] = effects or self.extras.get("effects") or {}
        self.market = {str(m["building"]): m for m in view.get("market", ())}
        self.roles = {str(r["card"]): r for r in view.get("roles", ())}
        buccaneer = view.get("buccaneer")
        self.captured = str(buccaneer.get("captured") or "") if isinstance(
            buccaneer, Mapping) else ""

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

    def effect_of(self, key: str) -> str | None:
        return self.t(key) if self.catalog.has(key) else None

    def goods_words(self, counts: Mapping[str, int]) -> str:
        return self.catalog.join(self.lang, [f"{n} {self.tile(g)}" for g, n in counts.items()
                                             if n])
