"""Puerto Rico 1897's images: the Puerto Rico kernel's layouts in 1897's words and colours.

1897 is an edition of the Puerto Rico kernel (``docs/engine-1897.md``), and so are its
images: the table, the private panel and the score sheet are :mod:`render.puerto_rico`'s,
drawn from the 1897 view read back into the kernel's words (the engine's own word table,
:mod:`engine.puerto_rico_1897.names`, so there is no second copy of it), labelled with 1897's
words (:mod:`.labels`) and with Fruit in its own colour (D-2: green, where the kernel draws
Indigo blue).  Importing this package registers its renderer under the game's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core import Event
from engine.puerto_rico.data import GOODS
from engine.puerto_rico_1897 import names
from engine.puerto_rico_1897.data import EXPANSION_MODULES

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


def kernel_view(view: View) -> dict[str, Any]:
    """An 1897 view in the kernel's words, its expansions as the kernel's modules."""
    out: dict[str, Any] = names.data(_without_puertoma(view), reverse=True)
    options = dict(out.get("options") or {})
    options["modules"] = [
        EXPANSION_MODULES[n] for n in options.get("expansions") or () if n in EXPANSION_MODULES
    ]
    out["options"] = options
    _puertoma_back(view, out)
    return out


PUERTOMA = "puertoma"
"""The view's Puertoma part (rules spec §8; only with Puertomas)."""


def _without_puertoma(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return {k: v for k, v in data.items() if k != PUERTOMA} if PUERTOMA in data else data


def _puertoma_back(given: Mapping[str, Any], out: dict[str, Any]) -> None:
    """The Puertoma part of ``given`` into ``out`` as the kernel's view has it.  The kernel
    already names its fields in 1897's words (``properties``, ``workers``, ``level``: they are
    no classic words, so the edition left them as they were), and only its values were
    translated (Fruit, the Recruiter, a building's name): these alone are read back, where a
    whole reading would turn the fields into classic words the kernel never wrote
    (``plantations``, ``colonists``, ``column``)."""
    part = given.get(PUERTOMA)
    if isinstance(part, Mapping):
        out[PUERTOMA] = _values_back(part)


def _values_back(obj: Any) -> Any:
    if isinstance(obj, str):
        return names.word(obj, names.REVERSE)
    if isinstance(obj, Mapping):  # its keys are its own, but for a good's (the VP area's Fruit)
        return {_good_back(k): _values_back(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_values_back(v) for v in obj]
    return obj


def _good_back(key: Any) -> Any:
    word = names.word(key, names.REVERSE) if isinstance(key, str) else key
    return word if word in GOODS else key


def kernel_event(event: EventLike) -> Event:
    """An 1897 event (or its JSON) in the kernel's words."""
    e = event if isinstance(event, Event) else Event.from_json(event)
    return Event(
        names.word(e.type, names.REVERSE),
        e.seat,
        names.data(e.data, reverse=True),
        e.private_to,
        None if e.public_data is None else names.data(e.public_data, reverse=True),
    )


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
    kernel: Mapping[str, Any] = names_data(outcome)
    scene = classic_scoresheet.layout_scoresheet(kernel, names=names, labels=_labels(labels))
    return scene.recolored(RECOLOR)  # the Puertomas' Fruit properties, from a finished view


def names_data(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """A final outcome's JSON in the kernel's words (its breakdown's parts, its end reasons);
    a finished view given in its place is read as :func:`kernel_view` reads it (the score
    sheet then draws the Puertomas' boards)."""
    if "scores" not in outcome and isinstance(outcome.get("outcome"), Mapping):
        return kernel_view(outcome)
    out: dict[str, Any] = names.data(_without_puertoma(outcome), reverse=True)
    _puertoma_back(outcome, out)
    return out


def score_split(breakdown: Mapping[str, int], gains: Mapping[str, int] | None = None
                ) -> list[tuple[str, int]]:
    """Classic's split of a score (VP tokens are its VP chips), its sources in the kernel's
    words too (the Park administration's tokens are the Hunting lodge's chips)."""
    return classic_scoresheet.score_split(
        names.data(breakdown, reverse=True),
        None if gains is None else names.data(gains, reverse=True))


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
    "kernel_event",
    "kernel_view",
    "layout_panel",
    "layout_scoresheet",
    "layout_table",
    "panel_focus",
]
