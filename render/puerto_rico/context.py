"""The state shared by the sections of the table layout while they draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from engine.puerto_rico.view import MarketEntry, PuertoRicoView
from engine.puerto_rico_1897.view import KernelView

from ..context import Drawing, View


def puerto_rico_view(view: View) -> KernelView:
    """``view`` as the kernel's: the renderer's entries take any game's view from the generic
    registry (``render.games``); a classic view is exactly what the engine's ``view`` returns
    (a test checks every key of it over random games), and 1897's renderer hands over its view
    read back into the kernel's words (1897's parts with it), so this is the one cast."""
    return cast(KernelView, view)


@dataclass(frozen=True)
class Table(Drawing[KernelView]):
    """The generic drawing state plus this game's readings of the view."""

    def market_entry(self, building: str) -> MarketEntry | None:
        """The market's entry for ``building`` (cost, VP, kind, good...); ``None`` if unknown."""
        return next((e for e in self.view["market"] if e["building"] == building), None)


def ends_after(view: PuertoRicoView) -> str:
    """``phase`` when the game ends as soon as the phase that triggers its end is done (the
    kernel's ``end_timing`` option: 1897's END-2), else ``round``."""
    return "phase" if view["options"].get("end_timing") == "phase" else "round"
