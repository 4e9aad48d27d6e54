"""Puerto Rico's base words: what the choices' words (:mod:`.choices`) and the expansions' words
(:mod:`.new_buildings`, :mod:`.nobles`) share, below them all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from engine.puerto_rico.view import MarketEntry, PlayerEntry, RoleCard
from engine.puerto_rico_1897.view import KernelView

from ...i18n import Catalog
from ...words import Words
from .catalog import CATALOG


def puerto_rico_view(view: Mapping[str, Any]) -> KernelView:
    """``view`` as the kernel's: the generic bot hands the presenter a view through the
    contract's ``Mapping``; a classic view is exactly what the engine's ``view`` returns (a
    test checks every key of it over random games), and 1897's presenter hands over its view
    read back into the kernel's words (1897's parts with it): the one cast."""
    return cast(KernelView, view)


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

    view: KernelView

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
        self.view = puerto_rico_view(view)
        self.effects: Mapping[str, Effect] = effects or self.extras.get("effects") or {}
        self.market: dict[str, MarketEntry] = {m["building"]: m for m in self.view["market"]}
        self.roles: dict[str, RoleCard] = {r["card"]: r for r in self.view["roles"]}
        buccaneer = self.view["buccaneer"]
        self.captured = (buccaneer["captured"] or "") if buccaneer is not None else ""

    def player(self) -> PlayerEntry | None:
        """The viewer's own entry of the view's players (``None`` in the public view)."""
        viewer = self.view["viewer"]
        return None if viewer is None else self.view["players"][viewer]

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
