"""The state shared by the sections of San Juan's images while they draw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..context import Drawing, View


@dataclass(frozen=True)
class Table(Drawing):
    """The generic drawing state plus this game's readings of the view."""

    @property
    def seats(self) -> Sequence[Mapping[str, Any]]:
        return list(self.view.get("seats") or ())

    def prompted(self) -> list[int]:
        """The seats the current prompt asks (none between decisions or at the end)."""
        prompt = self.view.get("prompt") or {}
        return [int(s) for s in prompt.get("seats") or ()]

    def done(self) -> set[int]:
        return {int(s) for s in self.view.get("done") or ()}

    @property
    def over(self) -> bool:
        return self.view.get("phase") == "over"


def player_count(view: View) -> int:
    players = view.get("players")
    if isinstance(players, int):
        return players
    return len(view.get("seats") or ())
