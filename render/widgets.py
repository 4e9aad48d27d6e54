"""Game pieces drawn procedurally onto a :class:`~render.scene.Sketch`: coins, barrels,
plantation tiles, colonists, occupancy circles, ships and small labels.

Each function takes the box or centre where the piece goes and returns the box it covers, so
the layout can keep track of space.  Goods are told apart by colour *and* by a letter, so they
stay distinct in every colour vision.
"""

from __future__ import annotations

from collections.abc import Callable

from . import fonts
from . import theme as T
from .scene import Box, Sketch

CIRCLE_R = 8
CIRCLE_STEP = 20

Piece = Callable[[Sketch, int, int], Box]
"""Draws a game's own kind of piece centred on ``(cx, cy)`` in an occupancy circle's place
(``piece(sk, cx, cy)``), and returns the box it covers."""


def coin(
    sk: Sketch,
    cx: int,
    cy: int,
    d: int,
    value: int | str,
    *,
    size: int = T.TEXT_KEY,
    key: bool = True,
    static: bool = False,
) -> Box:
    """A gold doubloon with ``value`` written on it."""
    r = d // 2
    box = sk.circle(cx, cy, r, T.GOLD, T.GOLD_DARK, 2, static=static)
    sk.text(cx, cy, str(value), size=size, bold=True, fill=T.INK, anchor="mm", key=key,
            static=static)
    return box


def pawn(sk: Sketch, x: int, y: int, h: int = 28, *, static: bool = False) -> Box:
    """A colonist (a small figure) with its top left corner at ``(x, y)``."""
    w = h * 3 // 4
    head = h * 3 // 8
    sk.circle(x + w // 2, y + head // 2 + 1, head // 2 + 1, T.COLONIST, static=static)
    mid = x + w // 2
    body = [(x + 1, y + h), (mid - 3, y + head), (mid + 3, y + head), (x + w - 1, y + h)]
    sk.polygon(body, T.COLONIST, static=static)
    return Box(x, y, w, h)


def occupancy(
    sk: Sketch,
    x: int,
    cy: int,
    circles: int,
    filled: int,
    *,
    static: bool = False,
    pieces: int = 0,
    piece: Piece | None = None,
    ring: tuple[T.Color, int] = (T.HULL_DARK, 1),
) -> Box:
    """``circles`` occupancy circles from ``x`` (left edge), the first ``filled`` ones taken;
    the first ``pieces`` of those hold a piece of another kind, drawn by ``piece``; ``ring``:
    the outline of a taken circle (colour, width)."""
    for i in range(circles):
        cx = x + CIRCLE_R + i * CIRCLE_STEP
        if i < min(pieces, filled) and piece is not None:
            piece(sk, cx, cy)
        elif i < filled:
            sk.circle(cx, cy, CIRCLE_R, T.COLONIST, *ring, static=static)
        else:
            sk.circle(cx, cy, CIRCLE_R, T.WHITE, T.MUTED, 2, static=static)
    width = 2 * CIRCLE_R + max(circles - 1, 0) * CIRCLE_STEP
    return Box(x, cy - CIRCLE_R, width, 2 * CIRCLE_R)


def circles_width(circles: int) -> int:
    return 2 * CIRCLE_R + max(circles - 1, 0) * CIRCLE_STEP


def pill(
    sk: Sketch,
    x: int,
    cy: int,
    text: str,
    fill: T.Color,
    ink: T.Color,
    *,
    size: int = T.TEXT_SMALL,
    max_width: float = 400,
    align: str = "left",
    static: bool = False,
    elsewhere: bool = False,
) -> Box:
    """A rounded label.  ``x`` is its left edge, right edge or centre (``align``); shortened
    to ``max_width`` (``elsewhere``: it names a player named whole elsewhere)."""
    text, bold = fonts.fit_weight(text, size, max_width - 16, elsewhere=elsewhere)
    w = int(fonts.length(text, size, bold)) + 16
    h = size + 10
    left = {"left": x, "right": x - w, "center": x - w // 2}[align]
    box = Box(left, cy - h // 2, w, h)
    sk.rect(box, fill, radius=h // 2, static=static)
    sk.text(left + w // 2, cy, text, size=size, bold=bold, fill=ink, anchor="mm", static=static)
    return box


def vp_chip(sk: Sketch, cx: int, cy: int, r: int, *, static: bool = False) -> Box:
    """A victory-point chip (a hexagon)."""
    points = [
        (cx - r, cy),
        (cx - r // 2, cy - r * 7 // 8),
        (cx + r // 2, cy - r * 7 // 8),
        (cx + r, cy),
        (cx + r // 2, cy + r * 7 // 8),
        (cx - r // 2, cy + r * 7 // 8),
    ]
    sk.polygon(points, T.CHIP, T.INK, 1, static=static)
    return Box(cx - r, cy - r, 2 * r, 2 * r)


def ship_hull(sk: Sketch, box: Box, color: T.Color, edge: T.Color, *, static: bool = False) -> None:
    """A ship seen from above: a long hold with a pointed bow on the right."""
    bow = min(box.h, 36)
    x0, y0, x1, y1 = box.x, box.y, box.right, box.bottom
    points = [
        (x0 + 6, y0),
        (x1 - bow, y0),
        (x1, (y0 + y1) // 2),
        (x1 - bow, y1),
        (x0 + 6, y1),
        (x0, y1 - 6),
        (x0, y0 + 6),
    ]
    sk.polygon(points, color, edge, 2, static=static)


def highlight(sk: Sketch, box: Box) -> None:
    """The frame around whatever just changed."""
    sk.rect(box.grow(3), None, T.HIGHLIGHT, 4, radius=8)


def name_tag(
    sk: Sketch,
    cx: int,
    cy: int,
    text: str,
    fill: T.Color,
    ink: T.Color,
    *,
    max_width: int,
    size: int = T.TEXT_SMALL,
    static: bool = False,
) -> Box:
    """A rounded label centred on ``(cx, cy)``: one line when ``text`` fits in ``max_width``,
    else two lines broken between words (a seat's name on a role card: "AI 2 (normal)"); a
    longer name ends with an ellipsis: it points at a player whose area names them whole, as
    the table message's role buttons do."""
    inner = max_width - 16
    if fonts.fits(text, size, True, inner) or fonts.fits(text, size, False, inner):
        return pill(sk, cx, cy, text, fill, ink, size=size, max_width=max_width, align="center",
                    static=static)
    bold = all(fonts.length(w, size, True) <= inner for w in text.split())
    lines = fonts.wrap(text, size, bold, (inner, inner), elsewhere=True)
    step = size + 2
    w = int(max(fonts.length(line, size, bold) for line in lines)) + 16
    h = step * len(lines) + 10
    box = Box(cx - w // 2, cy - h // 2, w, h)
    sk.rect(box, fill, radius=12, static=static)
    top = box.y + 5
    for k, line in enumerate(lines):
        sk.text(cx, top + step * k + step // 2, line, size=size, bold=bold, fill=ink,
                anchor="mm", static=static)
    return box


def vp_badge(sk: Sketch, x: int, cy: int, vp: int | str, *, static: bool = False) -> Box:
    """A VP chip with its value on it (``x``: its left edge): a building's victory points."""
    r = 15
    box = vp_chip(sk, x + r, cy, r, static=static)
    sk.text(x + r, cy, str(vp), size=T.TEXT_SMALL, bold=True, fill=T.WHITE, anchor="mm",
            static=static)
    return box


def heading_lines(text: str, size: int, width: float) -> tuple[tuple[str, ...], bool]:
    """(lines, bold) for a card's title: one bold line when it fits, else one regular line,
    else two regular lines broken between words ("Buscador de oro" on a narrow role card)."""
    if fonts.length(text, size, True) <= width:
        return (text,), True
    if fonts.length(text, size, False) <= width:
        return (text,), False
    return fonts.wrap(text, size, False, (width, width)), False


def seat_band(sk: Sketch, box: Box, seat: int, name: str, round_text: str,
              governor: str | None, governor_width: int) -> None:
    """A panel's title band (``box``, 50 px high): the seat's colour, its player's name, the
    round on the right and, for the Governor, the ``governor`` pill before it.  Regions:
    ``title``, ``player:<seat>:name``, ``player:<seat>:governor``.  The name is whole: it
    heads the panel."""
    x, y = box.x, box.y
    sk.rect(sk.region("title", box), T.BAND, radius=10)
    sk.rect(Box(x + 6, y + 8, 8, 34), T.seat_color(seat), radius=4)
    round_box = sk.text(x + box.w - 16, y + 35, round_text, size=T.TEXT_KEY, bold=True,
                        fill=T.BAND_TEXT, anchor="rs")
    rx = round_box.x - 16
    if governor is not None:
        gov = pill(sk, rx, y + 25, governor, T.GOLD, T.INK, max_width=governor_width,
                   align="right")
        sk.region(f"player:{seat}:governor", gov)
        rx = gov.x - 12
    # the whole name: regular or smaller when it must, else on two lines (32 characters)
    lines, size, bold = fit_lines(name, T.TEXT_HEADING, rx - x - 24, 2, smaller=T.TEXT_SMALL)
    boxes = [sk.text(x + 24, y + (35 if len(lines) == 1 else 20 + 24 * k), line, size=size,
                     bold=bold, fill=T.BAND_TEXT) for k, line in enumerate(lines)]
    left, top = min(b.x for b in boxes), min(b.y for b in boxes)
    sk.region(f"player:{seat}:name", Box(left, top, max(b.right for b in boxes) - left,
                                         max(b.bottom for b in boxes) - top))


def fit_lines(text: str, size: int, width: float, most: int = 2, *, bold: bool = True,
              smaller: int | None = None) -> tuple[tuple[str, ...], int, bool]:
    """(lines, size, bold) that hold ``text`` whole in ``width`` pixels, the first that does
    of: one line at ``size`` (bold when ``bold``, else regular), the same at ``smaller``,
    then up to ``most`` lines at ``smaller`` (else ``size``) broken between words, then with
    a word hyphenated.  A text that fits nowhere is wrapped and shortened (a cut: see
    :func:`render.fonts.recording_cuts`)."""
    sizes = tuple(dict.fromkeys((size, smaller or size)))
    weights = (True, False) if bold else (False,)
    for sz in sizes:
        for b in weights:
            if fonts.fits(text, sz, b, width):
                return (text,), sz, b
    small = sizes[-1]
    for hyphens in (False, True):
        for b in weights:
            if most > 1 and fonts.wraps(text, small, b, (width,) * most, hyphens=hyphens):
                return fonts.wrap(text, small, b, (width,) * most), small, b
    return fonts.wrap(text, small, False, (width,) * most), small, False


def text_block(sk: Sketch, x: int, y: int, text: str, *, size: int, width: float,
               most: int = 2, fill: T.Color, bold: bool = True, smaller: int | None = None,
               step: int | None = None, anchor: str = "ls", static: bool = False,
               key: bool = False) -> Box:
    """``text`` whole in ``width`` pixels (:func:`fit_lines`): one line with its baseline at
    ``y`` when it fits, else its lines around ``y`` (their middle where one line's would be),
    ``step`` apart (default: the size + 1).  Returns the box of the lines."""
    lines, sz, b = fit_lines(text, size, width, most, bold=bold, smaller=smaller)
    step = step or sz + 1
    top = y - step * (len(lines) - 1) // 2
    boxes = [sk.text(x, top + step * k, line, size=sz, bold=b, fill=fill, anchor=anchor,
                     static=static, key=key) for k, line in enumerate(lines)]
    left, right = min(b.x for b in boxes), max(b.right for b in boxes)
    upper, lower = min(b.y for b in boxes), max(b.bottom for b in boxes)
    return Box(left, upper, right - left, lower - upper)
