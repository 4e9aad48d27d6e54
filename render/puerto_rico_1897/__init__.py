"""Puerto Rico 1897's images: the Puerto Rico kernel's layouts in 1897's words and colours.

1897 is an edition of the Puerto Rico kernel (``docs/engine-1897.md``), and so are its
images: the table, the private panel and the score sheet are :mod:`render.puerto_rico`'s,
drawn from the 1897 view read back into the kernel's words by the engine
(:mod:`engine.puerto_rico_1897.vocabulary`, the one place that decides how), labelled with
1897's words (:mod:`.labels`) and with Fruit in its own colour (D-2: green, where the kernel
draws Indigo blue).  Importing this package registers its renderer under the game's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core import Event
from engine.puerto_rico_1897.vocabulary import (
    kernel_data,
    kernel_event,
    kernel_outcome,
    kernel_view,
)

from .. import theme as T
from ..games import GameRenderer, register_renderer
from ..highlights import EventLike
from ..labels import Labels
from ..puerto_rico import layout as classic_layout
from ..puerto_rico import panel as classic_panel
from ..puerto_rico import pieces as classic_pieces
from ..puerto_rico import scoresheet as classic_scoresheet
from ..scene import Scene
from .labels import ENGLISH

GAME = "puerto-rico-1897"
View = Mapping[str, Any]
Names = Sequence[str] | Mapping[int, str] | None
LabelsLike = Labels | Mapping[str, str] | None

FRUIT: T.Color = (58, 138, 62)
FRUIT_EDGE: T.Color = (30, 84, 34)
"""1897's Fruit (rules D-2: green), drawn where the kernel draws Indigo."""
COLORS = T.GameColors(named={"FRUIT": FRUIT, "FRUIT_EDGE": FRUIT_EDGE},
                      tables=classic_pieces.COLORS.tables)
"""For the palette: the Fruit's, and the kernel's goods' it draws."""

RECOLOR: dict[T.Color, T.Color] = {
    classic_pieces.GOOD_COLORS["indigo"]: FRUIT,
    classic_pieces.GOOD_EDGE["indigo"]: FRUIT_EDGE,
}
"""The kernel's Indigo drawn as 1897's Fruit (its ink, white, reads on both)."""


def _events(highlights: Iterable[EventLike] | None) -> list[Event] | None:
    return None if highlights is None else [kernel_event(e) for e in highlights]


def _labels(labels: LabelsLike) -> Labels:
    """The 1897 table under the caller's overrides (a ready :class:`Labels` is the caller's)."""
    return labels if isinstance(labels, Labels) else Labels(labels, ENGLISH)


def layout_table(
    view: View,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelsLike = None,
    status: str | None = None,
) -> Scene:
    scene = classic_layout.layout_table(
        kernel_view(view), _events(highlights), names=names, labels=_labels(labels), status=status
    )
    return scene.recolored(RECOLOR)


def layout_panel(
    view: View,
    seat: int | None = None,
    focus: str | None = None,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Names = None,
    labels: LabelsLike = None,
) -> Scene:
    scene = classic_panel.layout_panel(
        kernel_view(view), seat, focus, _events(highlights), names=names, labels=_labels(labels)
    )
    return scene.recolored(RECOLOR)


def panel_focus(view: View, seat: int) -> str:
    return classic_panel.panel_focus(kernel_view(view), seat)


def layout_scoresheet(
    outcome: Mapping[str, Any], *, names: Names = None, labels: LabelsLike = None
) -> Scene:
    kernel: Mapping[str, Any] = kernel_outcome(outcome)
    scene = classic_scoresheet.layout_scoresheet(kernel, names=names, labels=_labels(labels))
    return scene.recolored(RECOLOR)  # the Puertomas' Fruit properties, from a finished view


def score_split(breakdown: Mapping[str, int], gains: Mapping[str, int] | None = None
                ) -> list[tuple[str, int]]:
    """Classic's split of a score (VP tokens are its VP chips), its sources in the kernel's
    words too (the Park administration's tokens are the Hunting lodge's chips)."""
    return classic_scoresheet.score_split(
        kernel_data(breakdown), None if gains is None else kernel_data(gains))


RENDERER = register_renderer(
    GameRenderer(
        name=GAME,
        english=ENGLISH,
        layout_table=layout_table,
        layout_panel=layout_panel,
        layout_scoresheet=layout_scoresheet,
        panel_focus=panel_focus,
        focuses=classic_panel.FOCUSES,
        score_split=score_split,
        colors=COLORS,
    )
)

__all__ = [
    "COLORS",
    "ENGLISH",
    "FRUIT",
    "FRUIT_EDGE",
    "RECOLOR",
    "RENDERER",
    "layout_panel",
    "layout_scoresheet",
    "layout_table",
    "panel_focus",
]
