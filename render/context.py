"""What every game's image sections share while they draw: the view, its words and names, the
sketch and the regions to frame.  A game's ``context.Table`` extends it with its own readings
of the view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .labels import Labels
from .scene import Sketch

View = Mapping[str, Any]
"""Any game's view, as the generic renderer passes it (a game's layouts narrow it to the
game's view type, ``engine/<game>/view.py``, once at their entry)."""
V = TypeVar("V", bound=View)


@dataclass(frozen=True)
class Drawing(Generic[V]):
    """The view being drawn, its words and names, the sketch, and the regions to frame."""

    view: V
    labels: Labels
    names: list[str]
    sk: Sketch
    marks: frozenset[str]

    @property
    def viewer(self) -> int | None:
        viewer = self.view.get("viewer")
        return viewer if isinstance(viewer, int) else None
