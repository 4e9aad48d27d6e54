"""A player's area on San Juan's images, one panel per player stacked in seat order:

    | name [you] [Governor] [▶ to act] [✓ done]     🂠 5   Buildings 7/12   ⬢ VP 9 |
    | buildings as small cards, six a row: name, cost coin, VP chip, the good's square,  |
    | a covered pile with what lies under it, the Chapel's cards (? for the others)      |

The same area is drawn on the table (1000 px) and, for the player's own, on the private panel
(:func:`area` with fewer columns).
"""

from __future__ import annotations

from engine.san_juan.view import Building, Seat

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from .context import Table
from .labels import Labels
from .pieces import CARD_H, TEXT_LINE, building_card, building_lines, card_back

HEADER_H = 52
CARD_GAP = 6
COLUMNS = 6
SLOTS = 12
"""Twelve buildings end the game: the area keeps room for twelve."""


def rows_for(count: int, columns: int) -> int:
    return max((SLOTS + columns - 1) // columns, (count + columns - 1) // columns)


def row_heights(lb: Labels, p: Seat, width: int, columns: int = COLUMNS) -> list[int]:
    """The height of each row of ``p``'s area ``width`` pixels wide: :data:`CARD_H`, taller by
    a line or two where a pile's words need them."""
    buildings = p["buildings"]
    w = (width - (columns - 1) * CARD_GAP) // columns
    chapel_at = chapel_index(p)
    heights = [CARD_H] * rows_for(len(buildings), columns)
    for i, building in enumerate(buildings):
        chapel = chapel_of(p, building) if i == chapel_at else False
        lines = building_lines(lb, building, chapel, w)
        r = i // columns
        heights[r] = max(heights[r], CARD_H + (lines - 3) * TEXT_LINE)
    return heights


def area_height(lb: Labels, p: Seat, width: int, columns: int = COLUMNS) -> int:
    """A player's panel: the header and the area's rows."""
    rows = row_heights(lb, p, width, columns)
    return HEADER_H + sum(rows) + CARD_GAP * (len(rows) - 1) + 12


def chapel_of(p: Seat, building: Building) -> int | bool | None:
    """The cards under ``building``'s Chapel (top or covered) as its owner's view tells them:
    a count, ``None`` when hidden from this viewer, ``False`` when the pile has no Chapel."""
    if "chapel" not in (building["card"], *building["covered"]):
        return False
    return p["chapel"]


def chapel_index(p: Seat) -> int | None:
    """The one pile of ``p``'s area that shows the Chapel's cards: its top-level Chapel, else
    the last pile with a covered Chapel (cards under every Chapel count together)."""
    found = None
    for i, building in enumerate(p["buildings"]):
        if building["card"] == "chapel":
            return i
        if "chapel" in building["covered"]:
            found = i
    return found


def header(t: Table, seat: int, p: Seat, x: int, y: int, right: int, *,
           name: bool = True) -> None:
    """The line above an area: name and marks on the left, hand, buildings and VP on the right
    (``name=False``: only the figures, for the private panel, whose band names the player)."""
    sk, lb = t.sk, t.labels
    key = f"player:{seat}"
    base = y + 36
    vp = sk.text(right, base, lb("ui.vp", n=p["vp"]), size=T.TEXT_KEY, bold=True,
                 fill=T.INK, anchor="rs", key=True)
    chip = W.vp_chip(sk, vp.x - 18, y + 27, 13)
    sk.region(f"{key}:vp", Box(chip.x, y + 12, vp.right - chip.x, 30))
    count = sk.text(chip.x - 20, base, lb("ui.buildings", n=p["building_count"]),
                    size=T.TEXT_BODY, fill=T.INK, anchor="rs", key=True)
    sk.region(f"{key}:buildings", count)
    hand = sk.text(count.x - 22, base, str(p["hand"]), size=T.TEXT_KEY, bold=True,
                   fill=T.INK, anchor="rs", key=True)
    back = card_back(sk, Box(hand.x - 28, y + 12, 22, 30))
    sk.region(f"{key}:hand", Box(back.x, y + 12, hand.right - back.x, 30))
    limit = back.x - 16
    drawn = p["drawn"]
    if drawn > 0:  # the Councillor's cards, still to decide on
        note = sk.text(limit, base, lb("ui.drew", n=drawn), size=T.TEXT_SMALL, bold=True,
                       fill=T.ACT, anchor="rs")
        sk.region(f"{key}:drawn", note)
        limit = note.x - 14
    if not name:
        return
    pills: list[tuple[str, T.Color, T.Color, str]] = []
    if t.viewer == seat:
        pills.append((lb("ui.you"), T.BAND, T.BAND_TEXT, "you"))
    if t.view["governor"] == seat:
        pills.append((lb("ui.governor"), T.GOLD, T.INK, "governor"))
    if seat in t.prompted():
        pills.append(("▶ " + lb("ui.to_act"), T.ACT, T.WHITE, "to_act"))
    elif seat in t.done() and not t.over:
        pills.append(("✓ " + lb("ui.done"), T.ACT_LIGHT, T.ACT, "done"))
    pill_w = sum(int(fonts.length(text, T.TEXT_SMALL, True)) + 26 for text, *_ in pills)
    # the whole name (it heads the area): smaller or on two lines when it must
    lines, size, bold = W.fit_lines(t.names[seat], T.TEXT_HEADING, max(limit - x - pill_w, 60),
                                    2, smaller=T.TEXT_SMALL)
    boxes = [sk.text(x, base if len(lines) == 1 else y + 22 + 24 * k, line, size=size,
                     bold=bold, fill=T.INK) for k, line in enumerate(lines)]
    who = Box(boxes[0].x, min(b.y for b in boxes), max(b.right for b in boxes) - boxes[0].x,
              max(b.bottom for b in boxes) - min(b.y for b in boxes))
    sk.region(f"{key}:name", who)
    px = who.right + 12
    for text, fill, ink, what in pills:
        if px + 40 > limit:
            break
        box = W.pill(sk, px, y + 28, text, fill, ink, max_width=limit - px)
        sk.region(f"{key}:{what}", box)
        px = box.right + 10


def area(t: Table, seat: int, p: Seat, x: int, y: int, width: int, columns: int,
         *, static: bool = False) -> int:
    """``p``'s buildings from ``(x, y)``: ``columns`` a row, a faint space for each of the
    twelve; returns the ``y`` below them."""
    sk, lb = t.sk, t.labels
    buildings = p["buildings"]
    w = (width - (columns - 1) * CARD_GAP) // columns
    heights = row_heights(lb, p, width, columns)
    tops = [y + sum(heights[:r]) + r * CARD_GAP for r in range(len(heights))]
    for k in range(len(heights) * columns):
        r, c = divmod(k, columns)
        sk.rect(Box(x + c * (w + CARD_GAP), tops[r], w, heights[r]), T.PANEL_ALT,
                T.FAINT, 2, radius=8, static=static)
    chapel_at = chapel_index(p)
    key = f"player:{seat}"
    for i, building in enumerate(buildings):
        r, c = divmod(i, columns)
        box = Box(x + c * (w + CARD_GAP), tops[r], w, heights[r])
        sk.region(f"{key}:building:{i}", box)
        sk.region(f"{key}:card:{building['card']}", box)
        chapel = chapel_of(p, building) if i == chapel_at else False
        building_card(sk, lb, box, building, chapel=chapel, key=f"{key}:building:{i}")
        if chapel is not False:
            sk.region(f"{key}:chapel", sk.regions[f"{key}:building:{i}:chapel"])
    h = sum(heights) + CARD_GAP * (len(heights) - 1)
    sk.region(f"{key}:area", Box(x, y, columns * (w + CARD_GAP) - CARD_GAP, h))
    return y + h


LEFT = T.MARGIN + 24
RIGHT = T.MARGIN + T.INNER - 14


def _panel(t: Table, seat: int, y: int) -> int:
    sk = t.sk
    p = t.seats[seat]
    count = len(p["buildings"])
    h = area_height(t.labels, p, RIGHT - LEFT)
    box = sk.region(f"player:{seat}", Box(T.MARGIN, y, T.INNER, h))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=12, static=True)
    sk.rect(Box(T.MARGIN + 5, y + 6, 9, h - 12), T.seat_color(seat), radius=4, static=True)
    header(t, seat, p, LEFT, y, RIGHT)
    area(t, seat, p, LEFT, y + HEADER_H, RIGHT - LEFT, COLUMNS, static=count <= SLOTS)
    if seat in t.prompted():
        sk.rect(box, None, T.ACT, 4, radius=12)
    return y + h


def layout_players(t: Table, y: int) -> int:
    """Every player's panel from ``y``; returns the ``y`` below them."""
    for seat in range(len(t.seats)):
        y = _panel(t, seat, y) + T.GAP
    return y
