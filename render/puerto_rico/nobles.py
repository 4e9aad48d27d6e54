"""Exp. 2, the Nobles, on Puerto Rico's images, drawn from the view's noble keys: the public
``nobles`` {supply, ship, raid_to_place}, each player's ``nobles`` {total, san_juan}, each
island entry's ``noble`` and each city entry's ``nobles`` (docs/engine.md, the view).  Without
the module those keys are absent and nothing here draws, so every other game's image stays
exactly as it was.

* A noble on a circle (an island tile, a building) is a piece of its own: a violet disc in a
  gold ring under a gold crown, where a colonist is a plain brown disc.  The two differ in
  shape (the crown, the ring) and in colour (violet and gold against brown, and a light ring
  against none), so they stay apart in every colour vision and on every tile colour
  (:func:`piece`).  A building's nobles take its first circles, as the engine places them.
* In San Juan, on the colonist ship and in the supply, a noble is a violet figure crowned in
  gold (:func:`figure`) with its count, beside the colonists' brown figure and theirs.  The
  view's ``colonists`` and ``san_juan`` counts hold colonists only and every piece
  respectively, so San Juan shows ``san_juan - nobles.san_juan`` colonists
  (:func:`in_san_juan`).
* The legends show both pieces (``legend.noble``, ``legend.noble_san_juan``).

Regions: ``player:<seat>:san_juan:nobles`` (only while nobles wait there), ``noble_ship``,
``noble_supply``.  Pure.
"""

from __future__ import annotations

from engine.puerto_rico.view import CityBuilding, NoblesPart, PlayerEntry, PuertoRicoView

from .. import theme as T
from .. import widgets as W
from ..scene import Box, Sketch

CROWN_W = 12
CROWN_H = 8


def part(view: PuertoRicoView) -> NoblesPart | None:
    """The view's public ``nobles`` key ({supply, ship, raid_to_place}); ``None`` without the
    module."""
    return view["nobles"]


def has_module(view: PuertoRicoView) -> bool:
    return part(view) is not None


def in_san_juan(player: PlayerEntry) -> tuple[int, int]:
    """(colonists, nobles) waiting in a player's San Juan (no nobles without the module)."""
    nobles = player.get("nobles")
    waiting = 0 if nobles is None else nobles["san_juan"]
    return player["san_juan"] - waiting, waiting


def on_building(entry: CityBuilding) -> int:
    """How many of a city entry's ``colonists`` are nobles (0 without the module)."""
    return entry.get("nobles", 0)


def crown(sk: Sketch, cx: int, base: int, w: int, h: int, *, static: bool = False) -> Box:
    """A gold crown of three points, ``w`` wide and ``h`` high, standing on ``base``."""
    x0, x1 = cx - w // 2, cx + w // 2
    top = base - h
    points = [
        (x0, base),
        (x0, top),
        (x0 + w // 4, base - h * 3 // 8),
        (cx, top),
        (x1 - w // 4, base - h * 3 // 8),
        (x1, top),
        (x1, base),
    ]
    sk.polygon(points, T.GOLD, T.BAND, 1, static=static)
    return Box(x0, top, x1 - x0 + 1, h + 1)


def piece(sk: Sketch, cx: int, cy: int, *, static: bool = False) -> Box:
    """A noble on the occupancy circle centred on ``(cx, cy)``: a violet disc in a gold ring
    (dark-edged, so the ring shows on a yellow corn tile too) under a gold crown that rises
    above the circle.  Returns the box it covers."""
    r = W.CIRCLE_R
    crown(sk, cx, cy - r + 2, CROWN_W, CROWN_H, static=static)
    sk.circle(cx, cy, r + 1, T.BAND, static=static)
    sk.circle(cx, cy, r, T.GOLD, static=static)
    sk.circle(cx, cy, r - 3, T.VIOLET, static=static)
    top = cy - r + 2 - CROWN_H
    return Box(cx - r - 1, top, 2 * r + 2, cy + r + 1 - top)


RISE = CROWN_H - 3  # a figure's crown above its head: its points reach the figure's top


def figure_width(h: int) -> int:
    """The width of a noble's figure ``h`` high."""
    return (h - RISE) * 3 // 4


def figure(sk: Sketch, x: int, y: int, h: int = 32, *, static: bool = False) -> Box:
    """A noble as a figure (``h`` high from ``(x, y)``, its crown included): the colonist's
    figure in violet, dark-edged, a gold crown on its head."""
    body = h - RISE
    w = figure_width(h)
    head = body * 3 // 8
    mid = x + w // 2
    top = y + RISE
    outline = [(x + 1, y + h), (mid - 3, top + head), (mid + 3, top + head), (x + w - 1, y + h)]
    sk.polygon(outline, T.VIOLET, T.BAND, 1, static=static)
    sk.circle(mid, top + head // 2 + 1, head // 2 + 1, T.VIOLET, T.BAND, 1, static=static)
    crown(sk, mid, top + 3, 14, CROWN_H, static=static)
    return Box(x, y, w, h)


__all__ = [
    "crown",
    "figure",
    "figure_width",
    "has_module",
    "in_san_juan",
    "on_building",
    "part",
    "piece",
]
