"""The buildings still for sale, in the board's four columns (the column caps the quarry
discount): each tile shows its cost on a coin, its name, its occupancy circles, its VP and the
copies left; a seat's image adds what that seat would pay now.  Sold-out tiles are greyed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import fonts
from . import theme as T
from . import widgets as W
from .context import Table
from .scene import Box

TILE_H = 60
ROW_GAP = 6
COLUMNS = 4


def building_name(t: Table, name: str, max_width: float, bold: bool = False) -> str:
    """The building's full name if it fits, else its short name (shortened further if needed)."""
    full = t.labels.building(name)
    if fonts.length(full, T.TEXT_SMALL, bold) <= max_width:
        return full
    return fonts.fit(t.labels.building_short(name), T.TEXT_SMALL, bold, max_width)


def _stripe_color(entry: Mapping[str, Any]) -> tuple[T.Color, T.Color]:
    good = entry.get("good")
    if good:
        return T.GOOD_COLORS[good], T.GOOD_EDGE[good]
    return T.VIOLET, T.VIOLET


def _tile(t: Table, box: Box, entry: Mapping[str, Any]) -> None:
    sk, lb = t.sk, t.labels
    name = str(entry["building"])
    large = int(entry.get("size", 1)) == 2
    production = bool(entry.get("good"))
    fill = T.PANEL if production else T.VIOLET_LIGHT
    sk.rect(box, fill, T.VIOLET if large else T.BORDER, 3 if large else 2, radius=8, static=True)
    stripe, edge = _stripe_color(entry)
    sk.rect(Box(box.x + 3, box.y + 3, 9, box.h - 6), stripe, edge, 1, radius=4, static=True)
    cost = int(entry["cost"])
    W.coin(sk, box.x + 32, box.y + 21, 30, cost, size=T.TEXT_SMALL, key=False, static=True)
    text_x = box.x + 54
    label = building_name(t, name, box.right - 8 - text_x)
    sk.text(text_x, box.y + 29, label, size=T.TEXT_SMALL, fill=T.INK, static=True)
    cy = box.y + 45
    circles = W.occupancy(sk, box.x + 18, cy, int(entry["circles"]), 0, static=True)
    vp = sk.text(circles.right + 12, box.y + 53, lb("ui.vp", n=entry["vp"]), size=T.TEXT_SMALL,
                 fill=T.MUTED, static=True)
    left = int(entry["left"])
    if left <= 0:
        sk.rect(box, T.SOLD_OUT_VEIL, radius=8)
        sk.text(box.right - 10, box.y + 53, lb("ui.sold_out"), size=T.TEXT_SMALL, bold=True,
                fill=T.INK, anchor="rs")
        return
    copies = sk.text(box.right - 10, box.y + 53, lb("ui.copies", n=left), size=T.TEXT_SMALL,
                     bold=True, fill=T.INK, anchor="rs")
    price = entry.get("price")
    if price is not None and int(price) != cost:
        room = copies.x - vp.right - 16
        sk.text(vp.right + 10, box.y + 53, lb("ui.price", n=price), size=T.TEXT_SMALL,
                bold=True, fill=T.ACT, max_width=room)


def layout_market(t: Table, y: int) -> int:
    """The market section from ``y``; returns the ``y`` below it."""
    sk, lb = t.sk, t.labels
    sk.text(T.MARGIN + 4, y + 26, lb("ui.buildings"), size=T.TEXT_BODY, bold=True, fill=T.INK,
            max_width=T.INNER - 8, static=True)
    top = y + 38
    col_w = (T.INNER - (COLUMNS - 1) * T.GAP) // COLUMNS
    columns: dict[int, list[Mapping[str, Any]]] = {}
    for entry in t.view["market"]:
        columns.setdefault(int(entry["column"]), []).append(entry)
    order = sorted(columns)
    rows = 0
    for ci, column in enumerate(order[:COLUMNS]):
        x = T.MARGIN + ci * (col_w + T.GAP)
        entries = sorted(columns[column], key=lambda e: (int(e["cost"]), str(e["building"])))
        rows = max(rows, len(entries))
        for ri, entry in enumerate(entries):
            box = Box(x, top + ri * (TILE_H + ROW_GAP), col_w, TILE_H)
            sk.region(f"market:{entry['building']}", box)
            _tile(t, box, entry)
    return top + rows * (TILE_H + ROW_GAP) - ROW_GAP + T.GAP + 4
