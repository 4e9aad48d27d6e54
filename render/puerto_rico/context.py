"""The state shared by the sections of the table layout while they draw."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..scene import Sketch
from .labels import Labels

View = Mapping[str, Any]


@dataclass(frozen=True)
class Table:
    """The view being drawn, its words and names, the sketch, and the regions to frame."""

    view: View
    labels: Labels
    names: list[str]
    sk: Sketch
    marks: frozenset[str]

    @property
    def viewer(self) -> int | None:
        viewer = self.view.get("viewer")
        return viewer if isinstance(viewer, int) else None

    def market_entry(self, building: str) -> Mapping[str, Any]:
        """The market's entry for ``building`` (cost, VP, kind, good...); empty if unknown."""
        for entry in self.view.get("market") or ():
            if entry.get("building") == building:
                return dict(entry)
        return {}
