"""What the layout step produces: positioned shapes and text, and named regions for the tests.

A :class:`Scene` is plain data (frozen dataclasses, integer pixels), built without Pillow's
drawing code, so the layout can be checked by assertions: every region has a key such as
``market:harbor``, ``ship:0`` or ``player:2:doubloons``.  Shapes are split into a ``static``
list, which depends only on the table's fixed parts (player count, names, labels) and is drawn
underneath, and a ``dynamic`` list drawn on top; the rasterizer caches the static layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from . import fonts
from .theme import Color, Rgba


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box: ``x, y`` top left, ``w, h`` size (pixels)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def contains(self, other: Box) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def grow(self, d: int) -> Box:
        return Box(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: Color | Rgba | None
    outline: Color | None = None
    width: int = 0
    radius: int = 0


@dataclass(frozen=True, slots=True)
class Ellipse:
    box: Box
    fill: Color | None
    outline: Color | None = None
    width: int = 0


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[int, int], ...]
    fill: Color | None
    outline: Color | None = None
    width: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    points: tuple[tuple[int, int], ...]
    fill: Color
    width: int = 1


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text drawn at ``(x, y)`` with Pillow's ``anchor``; ``box`` is its ink box.
    ``key`` marks the figures that must stay legible on a phone (see ``theme.TEXT_KEY``)."""

    x: int
    y: int
    text: str
    size: int
    bold: bool
    fill: Color
    anchor: str
    box: Box
    key: bool = False


Shape = Rect | Ellipse | Polygon | Line | Text


@dataclass(frozen=True, slots=True)
class Scene:
    width: int
    height: int
    background: Color
    static: tuple[Shape, ...]
    dynamic: tuple[Shape, ...]
    regions: dict[str, Box] = field(hash=False, compare=False)

    @property
    def texts(self) -> list[Text]:
        return [s for s in (*self.static, *self.dynamic) if isinstance(s, Text)]

    def recolored(self, colors: Mapping[Color, Color]) -> Scene:
        """The same scene with each colour of ``colors``' keys drawn in its value (an edition
        drawing a shared layout in its own colours); the regions are kept."""
        if not colors:
            return self
        return replace(self, static=_recolor(self.static, colors),
                       dynamic=_recolor(self.dynamic, colors))


_COLOR_FIELDS = ("fill", "outline")


def _recolor(shapes: tuple[Shape, ...], colors: Mapping[Color, Color]) -> tuple[Shape, ...]:
    out: list[Shape] = []
    for shape in shapes:
        changes = {f: colors[c] for f in _COLOR_FIELDS
                   if (c := getattr(shape, f, None)) is not None and c in colors}
        out.append(replace(cast(Any, shape), **changes) if changes else shape)
    return tuple(out)


class Sketch:
    """Accumulates shapes while a layout function walks down the canvas."""

    def __init__(self, width: int, background: Color) -> None:
        self.width = width
        self.background = background
        self.static: list[Shape] = []
        self.dynamic: list[Shape] = []
        self.regions: dict[str, Box] = {}

    def _add(self, shape: Shape, static: bool) -> None:
        (self.static if static else self.dynamic).append(shape)

    def rect(
        self,
        box: Box,
        fill: Color | Rgba | None,
        outline: Color | None = None,
        width: int = 0,
        radius: int = 0,
        *,
        static: bool = False,
    ) -> Box:
        self._add(Rect(box, fill, outline, width, radius), static)
        return box

    def ellipse(
        self,
        box: Box,
        fill: Color | None,
        outline: Color | None = None,
        width: int = 0,
        *,
        static: bool = False,
    ) -> Box:
        self._add(Ellipse(box, fill, outline, width), static)
        return box

    def circle(
        self,
        cx: int,
        cy: int,
        r: int,
        fill: Color | None,
        outline: Color | None = None,
        width: int = 0,
        *,
        static: bool = False,
    ) -> Box:
        return self.ellipse(Box(cx - r, cy - r, 2 * r, 2 * r), fill, outline, width, static=static)

    def polygon(
        self,
        points: list[tuple[int, int]],
        fill: Color | None,
        outline: Color | None = None,
        width: int = 0,
        *,
        static: bool = False,
    ) -> None:
        self._add(Polygon(tuple(points), fill, outline, width), static)

    def line(
        self, points: list[tuple[int, int]], fill: Color, width: int = 1, *, static: bool = False
    ) -> None:
        self._add(Line(tuple(points), fill, width), static)

    def text(
        self,
        x: int,
        y: int,
        text: str,
        *,
        size: int,
        fill: Color,
        bold: bool = False,
        anchor: str = "ls",
        max_width: float | None = None,
        key: bool = False,
        static: bool = False,
        elsewhere: bool = False,
    ) -> Box:
        """Draw ``text``; shortened with an ellipsis to ``max_width`` (``elsewhere``: the
        layout knows it is whole elsewhere, see :class:`render.fonts.Cut`).  Returns the ink
        box."""
        if max_width is not None:
            text = fonts.fit(text, size, bold, max_width, elsewhere=elsewhere)
        left, top, right, bottom = fonts.bbox(text, size, bold, anchor)
        box = Box(x + left, y + top, max(right - left, 0), max(bottom - top, 0))
        if text:
            self._add(Text(x, y, text, size, bold, fill, anchor, box, key), static)
        return box

    def region(self, key: str, box: Box) -> Box:
        self.regions[key] = box
        return box

    def scene(self, height: int) -> Scene:
        return Scene(
            self.width,
            height,
            self.background,
            tuple(self.static),
            tuple(self.dynamic),
            dict(self.regions),
        )
