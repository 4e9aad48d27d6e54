"""San Juan's pieces drawn onto a :class:`~render.scene.Sketch`: a building in an area (a small
card), a card to read (a hand's, the Councillor's draw, the Gold mine's), a card back, and the
colours of the goods and the card groups.

A card's stripe tells its group: a production building shows its good's colour, a violet
building violet, a monument gold and a cost-6 building dark gold; a good lying on a production
building is a square of the good's colour in its corner (an empty outlined square when none).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.san_juan.view import Building

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box, Sketch
from .cards import Card, card
from .labels import Labels

STAR = "★"
"""On the VP chip of a cost-6 building: it scores by its formula at the end."""


GOOD_COLORS: dict[str, tuple[T.Color, T.Color, T.Color]] = {
    "indigo": ((44, 78, 168), (24, 44, 110), T.WHITE),
    "sugar": ((250, 250, 246), (150, 150, 140), T.INK),
    "tobacco": ((186, 120, 60), (120, 72, 30), T.INK),
    "coffee": ((62, 38, 26), (30, 18, 10), T.WHITE),
}
"""Fill, edge and ink of each good but silver (the colours of Puerto Rico's goods of the same
names; the ink chosen for contrast, so the letter reads in any colour vision)."""
COLORS = T.GameColors(tables=({g: c[0] for g, c in GOOD_COLORS.items()},
                              {g: c[1] for g, c in GOOD_COLORS.items()}))
"""For the palette: the goods' fills, then their edges."""


def good_colors(good: str) -> tuple[T.Color, T.Color, T.Color]:
    """Fill, edge and ink of ``good`` (silver is the theme's stone grey)."""
    return GOOD_COLORS.get(good, (T.QUARRY, T.QUARRY_DARK, T.INK))


def stripe_colors(c: Card) -> tuple[T.Color, T.Color]:
    if c.good:
        fill, edge, _ = good_colors(c.good)
        return fill, edge
    if c.group == "monument":
        return T.GOLD, T.GOLD_DARK
    if c.group == "cost6":
        return T.GOLD_DARK, T.HULL_DARK
    return T.VIOLET, T.VIOLET


def card_fill(c: Card) -> T.Color:
    return T.PANEL if c.production else T.VIOLET_LIGHT


def card_back(sk: Sketch, box: Box, *, static: bool = False) -> Box:
    """A face-down card: what a hand, the piles and a Chapel's cards look like."""
    sk.rect(box, T.BAND, T.GOLD_DARK, 2, radius=4, static=static)
    sk.rect(Box(box.x + 4, box.y + 4, box.w - 8, box.h - 8), None, T.GOLD, 1, radius=3,
            static=static)
    return box


def vp_text(c: Card) -> str:
    return STAR if c.group == "cost6" else str(c.vp)


def name_lines(lb: Labels, kind: str, width: float, most: int = 2, *,
               size: int = T.TEXT_SMALL) -> tuple[tuple[str, ...], int, bool]:
    """(lines, size, bold) of a card's name in ``width`` pixels: one bold line at ``size``,
    else bold at the smallest size, on one line then on up to ``most`` lines, else regular on
    up to ``most`` lines (the short name when the whole one does not fit)."""
    name = lb(f"card.{kind}")
    for sz in dict.fromkeys((size, T.TEXT_SMALL)):
        if fonts.length(name, sz, True) <= width:
            return (name,), sz, True
    small = T.TEXT_SMALL
    short = lb(f"short.{kind}") if lb.has(f"short.{kind}") else name
    tries = [(name, True), (name, False), (short, False)]
    for hyphens in (False, True):  # whole: the name, else its short; a word hyphenated last
        for text, bold in tries:
            if fonts.wraps(text, small, bold, (width,) * most, hyphens=hyphens):
                return fonts.wrap(text, small, bold, (width,) * most), small, bold
    return fonts.wrap(short, small, False, (width,) * most), small, False


def name_fits(lb: Labels, kind: str, width: float, most: int) -> bool:
    """Whether :func:`name_lines` puts a card's name (or its short name) whole on ``most``
    lines of ``width`` pixels."""
    name = lb(f"card.{kind}")
    short = lb(f"short.{kind}") if lb.has(f"short.{kind}") else name
    return any(fonts.wraps(text, T.TEXT_SMALL, bold, (width,) * most)
               for text, bold in ((name, True), (name, False), (short, False)))


def good_square(sk: Sketch, box: Box, good: str, full: bool) -> Box:
    """The place of a good on a production building: a barrel of the good's colour when one
    lies there, an empty outline when none."""
    if not full:
        sk.rect(box, None, T.FAINT, 2, radius=5)
        return box
    fill, edge, _ = good_colors(good)
    sk.rect(box, fill, edge, 2, radius=box.w // 3)
    for dy in (6, box.h - 7):
        sk.line([(box.x + 4, box.y + dy), (box.right - 5, box.y + dy)], edge, 2)
    return box


CARD_H = 112
"""A building's card in an area (its row taller for a pile with long names)."""
CARD_TEXT_LINES = 3
"""Text lines on a building in an area: its name, and what a pile covers."""


TEXT_LINE = 22
"""A text line on a building in an area; a pile whose words need more than
:data:`CARD_TEXT_LINES` lines makes its row taller by as many."""


def _overs(lb: Labels, top: str, extra: str) -> list[str]:
    """What a pile covers ("over: Silver smelter" + ``extra``), whole then with the short
    name of the covered card."""
    return [lb("ui.over", card=lb(word)) + extra
            for word in dict.fromkeys((f"card.{top}", f"short.{top}"))
            if lb.has(word) or word.startswith("card.")]


def _pile_layouts(lb: Labels, kind: str, top: str, extra: str, width: float, total: int
                  ) -> Iterator[tuple[int, str]]:
    """(name lines, over text) that go whole on ``total`` lines, in order of preference: the
    building's name on one line when it can be, else on two."""
    for most in (1, 2):
        if name_fits(lb, kind, width, most):
            room = (width,) * (total - most)
            for under in _overs(lb, top, extra):
                if fonts.wraps(under, T.TEXT_SMALL, False, room):
                    yield most, under


def pile_lines(lb: Labels, kind: str, top: str | None, extra: str, width: float) -> int:
    """The text lines a building in an area needs: :data:`CARD_TEXT_LINES`, or more for a
    pile whose building and covered card have long names (at most three more)."""
    if top is None:
        return CARD_TEXT_LINES
    for total in range(CARD_TEXT_LINES, CARD_TEXT_LINES + 4):
        if next(_pile_layouts(lb, kind, top, extra, width, total), None) is not None:
            return total
    return CARD_TEXT_LINES


def pile_text(lb: Labels, kind: str, top: str | None, extra: str, width: float,
              total: int = CARD_TEXT_LINES
              ) -> tuple[tuple[str, ...], int, bool, tuple[str, ...]]:
    """(name lines, size, bold, "over: …" lines) of a building in an area ``width`` pixels
    wide, on ``total`` lines: its name on two lines at most; on a pile (``top``: the card
    right under it) what it covers (``extra`` after it: "+1", the Chapel's count) on the
    lines left, with the covered card's short name when the whole one does not fit."""
    if top is None:
        return (*name_lines(lb, kind, width), ())
    most, under = next(_pile_layouts(lb, kind, top, extra, width, total),
                       (1, _overs(lb, top, extra)[-1]))
    lines, size, bold = name_lines(lb, kind, width, most=most)
    room = (width,) * (total - len(lines))
    return lines, size, bold, fonts.wrap(under, T.TEXT_SMALL, False, room)


def pile_extra(building: Building, chapel: int | bool | None) -> str:
    """What follows a pile's "over: …": "+n" more covered cards, and the Chapel's count when
    the pile is a production building (no room beside its good)."""
    covered = building["covered"]
    extra = f" +{len(covered) - 1}" if len(covered) > 1 else ""
    if covered and card(building["card"]).good and chapel is not False:
        extra += f" ({'?' if chapel is None else chapel})"
    return extra


def pile_geometry(lb: Labels, building: Building, chapel: int | bool | None,
                  width: int) -> tuple[int, int, int]:
    """(left, width, lines) of the words of a pile in an area card ``width`` pixels wide: 16
    px from its face's left edge, 8 from the right, on :data:`CARD_TEXT_LINES` lines; when
    they do not fit, from just right of the stripe to 4 px from the edge, on as many lines as
    they need (:func:`pile_lines`)."""
    covered = building["covered"]
    kind, extra = building["card"], pile_extra(building, chapel)
    face = width - 4
    if next(_pile_layouts(lb, kind, covered[-1], extra, face - 24, CARD_TEXT_LINES),
            None) is not None:
        return 16, face - 24, CARD_TEXT_LINES
    return 14, face - 18, pile_lines(lb, kind, covered[-1], extra, face - 18)


def building_lines(lb: Labels, building: Building, chapel: int | bool | None,
                   width: int) -> int:
    """The text lines of ``building`` in an area card ``width`` pixels wide."""
    if not building["covered"]:
        return CARD_TEXT_LINES
    return pile_geometry(lb, building, chapel, width)[2]


def building_card(
    sk: Sketch,
    lb: Labels,
    box: Box,
    building: Building,
    *,
    chapel: int | bool | None = False,
    key: str,
) -> None:
    """A building in a player's area, ``box`` its space: name, cost (coin), VP (chip); a
    production building's good; a covered pile drawn as a pile with what lies under it named;
    ``chapel``: the cards under this pile's Chapel (``None``: hidden, ``False``: no Chapel
    here), a card back with their count at the bottom right (beside the good of a production
    building there is no room: after what the pile covers).  An inactive building (built this
    builder phase) is dimmed."""
    c = card(building["card"])
    covered = building["covered"]
    active = building["active"]
    face = box
    if covered:  # a pile: the cards under it peek out at the top right
        face = Box(box.x, box.y + 4, box.w - 4, box.h - 4)
        sk.rect(Box(box.x + 4, box.y, box.w - 4, box.h - 4), T.PANEL_ALT, T.BORDER, 2, radius=8)
    fill = card_fill(c) if active else T.SOLD_OUT
    ink = T.INK if active else T.MUTED
    sk.rect(face, fill, T.VIOLET if c.group == "cost6" else T.BORDER,
            3 if c.group == "cost6" else 2, radius=8)
    stripe, edge = stripe_colors(c)
    sk.rect(Box(face.x + 3, face.y + 3, 8, face.h - 6), stripe, edge, 1, radius=4)
    x = face.x + 16
    width = face.right - 8 - x
    if covered:  # a pile: its words closer to the edges, on more lines when they need them
        left, width, total = pile_geometry(lb, building, chapel, box.w)
        x = face.x + left
        lines, size, bold, under = pile_text(lb, c.kind, covered[-1],
                                             pile_extra(building, chapel), width, total)
    else:
        (lines, size, bold), under = name_lines(lb, c.kind, width), ()
    y = face.y + 24
    for line in lines:
        sk.text(x, y, line, size=size, bold=bold, fill=ink)
        y += TEXT_LINE
    if covered:
        boxes = []
        for line in under:
            boxes.append(sk.text(x, y, line, size=T.TEXT_SMALL, fill=T.MUTED))
            y += TEXT_LINE
        if c.good and chapel is not False and boxes:
            left, top = min(b.x for b in boxes), boxes[0].y
            sk.region(f"{key}:chapel", Box(left, top, max(b.right for b in boxes) - left,
                                           boxes[-1].bottom - top))
    cy = face.bottom - 19
    coin = W.coin(sk, x + 14, cy, 28, c.cost if c.cost >= 0 else "?", size=T.TEXT_SMALL,
                  key=False)
    W.vp_badge(sk, coin.right + 6, cy, vp_text(c))
    right = face.right - 8
    if c.good:
        square = Box(right - 26, cy - 15, 26, 30)
        good_square(sk, square, c.good, building["good"])
        sk.region(f"{key}:good", square)
    elif chapel is not False:
        count = "?" if chapel is None else str(chapel)
        num = sk.text(right, cy + 8, count, size=T.TEXT_KEY, bold=True, fill=T.INK, anchor="rs",
                      key=True)
        back = card_back(sk, Box(num.x - 24, cy - 13, 19, 26))
        sk.region(f"{key}:chapel", Box(back.x, cy - 13, num.right - back.x, 26))


NAME_STEP = 24
EFFECT_STEP = 22
EFFECT_LINES = 4
HAND_MIN_H = 92


@dataclass(frozen=True, slots=True)
class HandText:
    """How a card to read lays out in a given width: its name's lines, size and weight, its
    effect's lines, and whether the ``×n`` of copies needs a line of its own below them."""

    name: tuple[str, ...]
    size: int
    bold: bool
    effect: tuple[str, ...]
    tag_line: bool = False

    @property
    def height(self) -> int:
        last = 30 + NAME_STEP * (len(self.name) - 1)
        if self.effect:
            last += 26 + EFFECT_STEP * (len(self.effect) - 1)
        if self.tag_line:
            last += EFFECT_STEP
        return max(last + 14, HAND_MIN_H)


def hand_text(lb: Labels, kind: str, width: int, count: int = 1) -> HandText:
    """The text of a card to read ``width`` pixels wide (see :func:`hand_card`)."""
    inner = width - 26
    lines, size, bold = name_lines(lb, kind, inner - 74, size=T.TEXT_BODY)
    effect = lb(f"effect.{kind}") if lb.has(f"effect.{kind}") else ""
    wrapped = fonts.wrap(effect, T.TEXT_SMALL, False, (inner,) * EFFECT_LINES) if effect else ()
    tag_line = False
    if count > 1 and wrapped:  # the ×n of copies, at the bottom right: below the last line
        tag = fonts.length(f"×{count}", T.TEXT_KEY, True) + 10  # when it leaves no room
        tag_line = fonts.length(wrapped[-1], T.TEXT_SMALL) > inner - tag
    return HandText(lines, size, bold, wrapped, tag_line)


def hand_height(lb: Labels, kinds: list[tuple[str, int]], width: int) -> int:
    """The height that fits every card of ``kinds`` (kind, copies) ``width`` pixels wide."""
    return max((hand_text(lb, k, width, n).height for k, n in kinds), default=HAND_MIN_H)


def hand_card(
    sk: Sketch,
    lb: Labels,
    box: Box,
    kind: str,
    *,
    count: int = 1,
    marked: bool = False,
) -> None:
    """A card to read: its name, cost (coin) and VP (chip) at the top, its effect in a few
    words below; ``count`` copies of it (``×n``); ``marked``: drawn, not yet kept (teal)."""
    c = card(kind)
    text = hand_text(lb, kind, box.w, count)
    sk.rect(box, card_fill(c), T.ACT if marked else T.BORDER, 3 if marked else 2, radius=10)
    stripe, edge = stripe_colors(c)
    sk.rect(Box(box.x + 3, box.y + 3, 9, box.h - 6), stripe, edge, 1, radius=4)
    x = box.x + 18
    right = box.right - 8
    cy = box.y + 22
    chip = W.vp_badge(sk, right - 30, cy, vp_text(c))
    W.coin(sk, chip.x - 21, cy, 30, c.cost if c.cost >= 0 else "?", size=T.TEXT_SMALL,
           key=False)
    y = box.y + 30
    for line in text.name:
        sk.text(x, y, line, size=text.size, bold=text.bold, fill=T.INK)
        y += NAME_STEP
    y += 2
    for line in text.effect:
        sk.text(x, y, line, size=T.TEXT_SMALL, fill=T.MUTED)
        y += EFFECT_STEP
    if count > 1:
        sk.text(right, box.bottom - 9, f"×{count}", size=T.TEXT_KEY, bold=True, fill=T.INK,
                anchor="rs", key=True)


def cards_grid(width: int, columns: int, gap: int = T.GAP) -> int:
    """The width of one card when ``columns`` cards and their gaps fill ``width``."""
    return (width - (columns - 1) * gap) // columns


def grouped(kinds: list[str]) -> list[tuple[str, int]]:
    """A hand's kinds (sorted) as (kind, copies), in the hand's order."""
    out: list[tuple[str, int]] = []
    for kind in kinds:
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + 1)
        else:
            out.append((kind, 1))
    return out
