"""The state shared by the sections of the table layout while they draw."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..context import Drawing, View


@dataclass(frozen=True)
class Table(Drawing[View]):
    """The generic drawing state plus this game's readings of the view."""

    def market_entry(self, building: str) -> Mapping[str, Any]:
        """The market's entry for ``building`` (cost, VP, kind, good...); empty if unknown."""
        for entry in self.view.get("market") or ():
            if entry.get("building") == building:
                return dict(entry)
        return {}


def ends_after(view: Mapping[str, Any]) -> str:
    """``phase`` when the game ends as soon as the phase that triggers its end is done (the
    kernel's ``end_timing`` option: 1897's END-2), else ``round``."""
    return "phase" if (view.get("options") or {}).get("end_timing") == "phase" else "round"
