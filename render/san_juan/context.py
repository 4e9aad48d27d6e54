"""The state shared by the sections of San Juan's images while they draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from engine.san_juan.view import SanJuanView, Seat

from ..context import Drawing, View


def san_juan_view(view: View) -> SanJuanView:
    """``view`` as San Juan's: the renderer's entries take any game's view from the generic
    registry (``render.games``), and a San Juan view is exactly what the engine's ``view``
    returns (a test checks every key of it over random games), so this is the one cast."""
    return cast(SanJuanView, view)


@dataclass(frozen=True)
class Table(Drawing[SanJuanView]):
    """The generic drawing state plus this game's readings of the view."""

    @property
    def seats(self) -> list[Seat]:
        return self.view["seats"]

    def prompted(self) -> list[int]:
        """The seats the current prompt asks (none between decisions or at the end)."""
        prompt = self.view["prompt"]
        return [] if prompt is None else list(prompt["seats"])

    def done(self) -> set[int]:
        return set(self.view["done"])

    @property
    def over(self) -> bool:
        return self.view["phase"] == "over"


def player_count(view: SanJuanView) -> int:
    return view["players"]
