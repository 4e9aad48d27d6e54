"""A San Juan player's private panel image, drawn around the decision: a narrower canvas than
the table (so the same type sizes read larger on a phone), the player's own things first, then
only the part of the table the decision needs:

    band: name, Governor, round                 the decision (or who is awaited)
    own area: hand count, buildings n/12, VP; the buildings (four a row)
    own hand as readable cards (name, cost, VP, effect); the drawn cards apart, in teal
    the focus: role cards | trading house (prices, what your goods fetch) | Gold mine's cards |
               hand or drawn (framed: the decision is about them) | none
    legend

``layout_panel(view, seat, focus)`` is pure like ``layout_table``; the focus defaults to the
seat's decision (``panel_focus``), or to the phase being played while the seat waits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..context import View
from ..scene import Box, Scene
from .cards import card
from .context import Table, san_juan_view
from .highlights import EventLike
from .labels import Labels
from .layout import (
    draw_marks,
    drawn_section,
    gold_mine,
    hand_section,
    legend,
    make_table,
    outcome_line,
    phase_text,
    price_cells,
    role_cards,
)
from .pieces import good_colors
from .players import HEADER_H, area, area_height, header

PANEL_WIDTH = 800
M = 12
INNER = PANEL_WIDTH - 2 * M
PAD = 14
AREA_COLUMNS = 4
HAND_COLUMNS = 3

FOCUSES = ("roles", "hand", "drawn", "trading_house", "gold_mine", "none")
FOCUS_OF_PROMPT = {
    "role": "roles",
    "build": "hand",
    "pay": "hand",
    "carpenter": "hand",
    "poor_house": "hand",
    "chapel": "hand",
    "hand_limit": "hand",
    "produce": "none",
    "sell": "trading_house",
    "councillor": "drawn",
    "variant_keep": "drawn",
    "prospector": "none",
    "gold_mine": "gold_mine",
    "gold_mine_take": "gold_mine",
}
FOCUS_OF_PHASE = {
    "variant_keep": "drawn",
    "chapel": "hand",
    "hand_limit": "hand",
    "role": "roles",
    "builder": "hand",
    "producer": "none",
    "trader": "trading_house",
    "councillor": "drawn",
    "prospector": "gold_mine",
    "over": "none",
}


def panel_focus(view: View, seat: int) -> str:
    """The part of the table ``seat``'s panel shows: what its decision needs, or the current
    phase's part while it waits."""
    sj = san_juan_view(view)
    prompt, phase = sj["prompt"], sj["phase"]
    if prompt is not None and seat in prompt["seats"]:
        return FOCUS_OF_PROMPT.get(prompt["kind"], FOCUS_OF_PHASE.get(phase, "roles"))
    return FOCUS_OF_PHASE.get(phase, "roles")


def _band(t: Table, seat: int, y: int) -> int:
    lb = t.labels
    governor = lb("ui.governor") if t.view["governor"] == seat else None
    W.seat_band(t.sk, Box(M, y, INNER, 50), seat, t.names[seat],
                lb("ui.round", n=t.view["round"]), governor, 220)
    return y + 50 + T.GAP


def _decision(t: Table, seat: int, y: int) -> int:
    sk, lb = t.sk, t.labels
    prompt = t.view["prompt"]
    width = INNER - 8
    won = outcome_line(t)
    if won:
        text, fill = won, T.INK
    elif prompt is not None and seat in prompt["seats"]:
        text = "▶ " + lb("ui.your_turn", what=lb(f"prompt.{prompt['kind']}"))
        fill = T.ACT
    elif prompt is not None and prompt["seats"]:
        who = ", ".join(t.names[s] for s in prompt["seats"])
        text, fill = lb("ui.waiting", names=who, what=lb(f"prompt.{prompt['kind']}")), T.MUTED
    else:
        text, fill = phase_text(t), T.MUTED
    lines = fonts.wrap(text, T.TEXT_KEY, True, (width,) * 3)  # long names: a third line
    for k, line in enumerate(lines):
        box = sk.text(M + 4, y + 26 + 30 * k, line, size=T.TEXT_KEY, bold=True, fill=fill,
                      key=True)
        sk.region("prompt" if k == 0 else f"prompt:{k}", box)
    return y + 30 * len(lines) + 8


def _own_area(t: Table, seat: int, y: int) -> int:
    sk = t.sk
    p = t.seats[seat]
    x, right = M + PAD, M + INNER - PAD
    h = area_height(t.labels, p, right - x, AREA_COLUMNS)
    box = sk.region(f"player:{seat}", Box(M, y, INNER, h))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=12)
    header(t, seat, p, x, y, right, name=False)
    area(t, seat, p, x, y + HEADER_H, right - x, AREA_COLUMNS)
    return y + h + T.GAP


def _roles(t: Table, y: int) -> int:
    return role_cards(t, M, y, INNER, static=False) + T.GAP


def _trading_house(t: Table, seat: int, y: int) -> int:
    """The face-up tile's prices, the tiles face down and turned, and what each of the seat's
    goods would fetch now."""
    sk, lb = t.sk, t.labels
    house = t.view["trading_house"]
    prices = house["prices"]
    goods = [str(card(b["card"]).good) for b in t.seats[seat]["buildings"]
             if b["good"] and card(b["card"]).good]
    h = 100 + (56 if prices is not None and goods else 0)
    if house["revealed"]:
        h += 30
    box = sk.region("trading_house:section", Box(M, y, INNER, h))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=10)
    x = M + PAD
    caption = sk.text(x, y + 32, lb("ui.trading_house"), size=T.TEXT_BODY, bold=True,
                      fill=T.INK, max_width=INNER // 2)
    face = house["face_up"]
    parts = [lb("ui.tile", n=face)] if face is not None else []
    parts.append(lb("ui.face_down", n=house["stack"]))
    info = sk.text(M + INNER - PAD, y + 32, " · ".join(parts), size=T.TEXT_BODY, bold=True,
                   fill=T.INK, anchor="rs", max_width=M + INNER - PAD - caption.right - 20,
                   key=True)
    sk.region("trading_house:tile", info)
    price_cells(t, x, y + 46, INNER - 2 * PAD)
    sk.region("trading_house", Box(x, y + 46, INNER - 2 * PAD, 40))
    row = y + 100
    if prices is not None and goods:
        label = sk.text(x, row + 30, lb("ui.sells_for"), size=T.TEXT_BODY, fill=T.INK,
                        max_width=300)
        gx = label.right + 16
        for good in goods:
            if gx + 44 > M + INNER - PAD:
                break
            fill, edge, ink = good_colors(good)
            sk.rect(Box(gx, row + 6, 38, 38), fill, edge, 2, radius=6)
            sk.text(gx + 19, row + 25, str(prices.get(good, "?")), size=T.TEXT_KEY, bold=True,
                    fill=ink, anchor="mm", key=True)
            gx += 44
        row += 56
    seen = [str(n) for n in house["revealed"]]
    if seen:
        box = sk.text(x, row + 20, lb("ui.seen", tiles=", ".join(seen)), size=T.TEXT_SMALL,
                      fill=T.MUTED, max_width=INNER - 2 * PAD)
        sk.region("trading_house:seen", box)
    return y + h + T.GAP


def layout_panel(
    view: View,
    seat: int | None = None,
    focus: str | None = None,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The private panel's image for ``seat`` (default: the view's viewer): its own area and
    hand, then the part of the table ``focus`` names (default: :func:`panel_focus`)."""
    if seat is None:
        viewer = san_juan_view(view)["viewer"]
        if viewer is None:
            raise ValueError("a panel is drawn for a seat: pass seat or a seat's view")
        seat = viewer
    if focus is None:
        focus = panel_focus(view, seat)
    if focus not in FOCUSES:
        raise ValueError(f"unknown focus {focus!r}; one of {', '.join(FOCUSES)}")
    t = make_table(view, highlights, names, labels, PANEL_WIDTH)
    y = _band(t, seat, M)
    y = _decision(t, seat, y)
    y = _own_area(t, seat, y)
    if t.viewer == seat:  # the hand and drawn cards are in the seat's own view only
        y = hand_section(t, M, y, INNER, HAND_COLUMNS, framed=focus == "hand")
        y = drawn_section(t, M, y, INNER, HAND_COLUMNS, framed=focus == "drawn")
    if focus == "roles":
        y = _roles(t, y)
    elif focus == "trading_house":
        y = _trading_house(t, seat, y)
    elif focus == "gold_mine":
        y = gold_mine(t, M, y, INNER, 2)
    y = legend(t, M, y, INNER, static=False) + M
    draw_marks(t)
    return t.sk.scene(y)
