"""Puerto Rico's pieces of goods drawn onto a :class:`~render.scene.Sketch`: a barrel, a
square of a ship's hold or the trading house, an island tile; and the colours of the goods and
tiles.  Goods are told apart by colour *and* by a letter, so they stay distinct in every colour
vision.  The renderer gives these colours to the fixed PNG palette (:data:`COLORS`)."""

from __future__ import annotations

from .. import theme as T
from .. import widgets as W
from ..labels import Labels
from ..scene import Box, Sketch

GOOD_COLORS: dict[str, T.Color] = {
    "corn": (242, 200, 48),
    "indigo": (44, 78, 168),
    "sugar": (250, 250, 246),
    "tobacco": (186, 120, 60),
    "coffee": (62, 38, 26),
}
# Ink on top of each good's colour (chosen for contrast, so the letter reads in any colour vision).
GOOD_INK: dict[str, T.Color] = {
    "corn": T.INK,
    "indigo": T.WHITE,
    "sugar": T.INK,
    "tobacco": T.INK,
    "coffee": T.WHITE,
}
GOOD_EDGE: dict[str, T.Color] = {
    "corn": (170, 130, 20),
    "indigo": (24, 44, 110),
    "sugar": (150, 150, 140),
    "tobacco": (120, 72, 30),
    "coffee": (30, 18, 10),
}
COLORS = T.GameColors(tables=(GOOD_COLORS, GOOD_EDGE))
"""For the palette: the goods' fills, then their edges."""

QUARRY = "quarry"
"""The island's tile that is no plantation: the theme's stone grey, with two lines."""


def tile_colors(tile: str) -> tuple[T.Color, T.Color, T.Color]:
    """Fill, edge and ink of an island tile (a plantation of a good, or a quarry)."""
    if tile == QUARRY:
        return T.QUARRY, T.QUARRY_DARK, T.WHITE
    return GOOD_COLORS[tile], GOOD_EDGE[tile], GOOD_INK[tile]


def barrel(
    sk: Sketch, box: Box, good: str, labels: Labels, *, key: bool = True, static: bool = False
) -> Box:
    """A barrel of ``good``: its colour, hoops, and its letter."""
    fill, edge, ink = GOOD_COLORS[good], GOOD_EDGE[good], GOOD_INK[good]
    sk.rect(box, fill, edge, 2, radius=box.w // 3, static=static)
    for dy in (5, box.h - 6):
        sk.line([(box.x + 4, box.y + dy), (box.right - 5, box.y + dy)], edge, 2, static=static)
    cx, cy = box.center
    sk.text(cx, cy, labels.letter(good), size=T.TEXT_LETTER, bold=True, fill=ink, anchor="mm",
            key=key, static=static)
    return box


def good_slot(
    sk: Sketch, box: Box, good: str | None, labels: Labels, *, static: bool = False
) -> Box:
    """One square of a ship's hold or of the trading house: a good, or empty."""
    if good is None:
        sk.rect(box, T.SLOT, T.BORDER, 2, radius=5, static=static)
        return box
    sk.rect(box, GOOD_COLORS[good], GOOD_EDGE[good], 2, radius=5, static=static)
    cx, cy = box.center
    sk.text(cx, cy, labels.letter(good), size=T.TEXT_LETTER, bold=True, fill=GOOD_INK[good],
            anchor="mm", key=True, static=static)
    return box


def tile(
    sk: Sketch,
    box: Box,
    kind: str,
    labels: Labels,
    occupied: bool | None = None,
    *,
    key: bool = True,
    static: bool = False,
    piece: W.Piece | None = None,
) -> Box:
    """A plantation or quarry tile with its letter; with an occupancy circle when ``occupied``
    is not ``None`` (holding a piece of another kind, drawn by ``piece``, when one is
    given and the tile is occupied)."""
    fill, edge, ink = tile_colors(kind)
    sk.rect(box, fill, edge, 2, radius=6, static=static)
    cx = box.x + box.w // 2
    if kind == QUARRY:
        for k in (1, 2):
            y = box.y + box.h * k // 3
            sk.line([(box.x + 4, y), (box.right - 5, y)], T.QUARRY_DARK, 1, static=static)
    size = T.TEXT_LETTER if box.h >= 40 else T.TEXT_MIN
    if occupied is None:
        sk.text(cx, box.y + box.h // 2, labels.letter(kind), size=size, bold=True,
                fill=ink, anchor="mm", key=key, static=static)
        return box
    sk.text(cx, box.y + 4, labels.letter(kind), size=size, bold=True, fill=ink,
            anchor="mt", key=key, static=static)
    # a light ring: the piece stands out on the dark tiles (tobacco, coffee) too
    W.occupancy(sk, cx - W.CIRCLE_R, box.bottom - W.CIRCLE_R - 5, 1, int(occupied),
                static=static, pieces=1, piece=piece, ring=(T.WHITE, 2))
    return box
