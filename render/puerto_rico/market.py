"""The buildings still for sale, in the board's four columns (the column caps the quarry
discount): each tile shows its whole name, then its cost on a coin (a seat's image: what that
seat would pay now), its occupancy circles, its VP on a chip and the copies left.  Sold-out
tiles are greyed.  During an Exp. 1 draft the empty violet spaces stand among them, each with
its printed cost (:mod:`.new_buildings`)."""

from __future__ import annotations

from engine.puerto_rico.view import MarketEntry

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from . import new_buildings as nb
from . import pieces as P
from . import puertoma
from .context import Table
from .players import building_lines

TILE_H = 64
ROW_GAP = 6
COLUMNS = 4


def building_name(t: Table, name: str, max_width: float, bold: bool = False) -> str:
    """The building's full name if it fits, else its short name (shortened further if needed)."""
    full = t.labels.building(name)
    if fonts.length(full, T.TEXT_SMALL, bold) <= max_width:
        return full
    return fonts.fit(t.labels.building_short(name), T.TEXT_SMALL, bold, max_width)


def _stripe_color(entry: MarketEntry) -> tuple[T.Color, T.Color]:
    good = entry["good"]
    if good:
        return P.GOOD_COLORS[good], P.GOOD_EDGE[good]
    return T.VIOLET, T.VIOLET


def market_tile(t: Table, box: Box, entry: MarketEntry, lines: int = 1, *,
                static: bool = True) -> None:
    """One building for sale: its whole name on ``lines`` lines across the tile, then a row
    with its cost on a coin (a seat's view: that seat's price, ringed when it differs), its
    occupancy circles, its VP on a chip and the copies left, all at the running size.
    ``static``: the parts that depend only on the building go to the cached layer (the table);
    a panel draws everything per image."""
    sk, lb = t.sk, t.labels
    name = entry["building"]
    large = entry["size"] == 2
    production = bool(entry["good"])
    fill = T.PANEL if production else T.VIOLET_LIGHT
    sk.rect(box, fill, T.VIOLET if large else T.BORDER, 3 if large else 2, radius=8,
            static=static)
    stripe, edge = _stripe_color(entry)
    sk.rect(Box(box.x + 3, box.y + 3, 8, box.h - 6), stripe, edge, 1, radius=4, static=static)
    text_x = box.x + 16
    width = box.right - 6 - text_x
    if lines == 1:
        names: tuple[str, ...] = (building_name(t, name, width),)
    else:
        names = building_lines(t, name, width, width)
    for k, line in enumerate(names):
        sk.text(text_x, box.y + 23 + 22 * k, line, size=T.TEXT_SMALL, fill=T.INK, static=static)
    cy = box.bottom - 19
    cost = entry["cost"]
    price = entry.get("price")
    value = cost if price is None else price
    coin = W.coin(sk, text_x + 14, cy, 28, value, size=T.TEXT_SMALL, key=False,
                  static=static and price is None)
    if value != cost:
        sk.ellipse(coin.grow(2), None, T.ACT, 3)
    left = entry["left"]
    row = coin.right
    if static or left > 0:
        circles = W.occupancy(sk, coin.right + 7, cy, entry["circles"], 0, static=static)
        row = W.vp_badge(sk, circles.right + 8, cy, entry["vp"], static=static).right
    if left <= 0:
        sk.rect(box, T.SOLD_OUT_VEIL, radius=8)
        word = lb("ui.sold_out")
        if fonts.fits(word, T.TEXT_SMALL, True, box.right - 8 - row - 8):
            sk.text(box.right - 8, cy + 7, word, size=T.TEXT_SMALL, bold=True, fill=T.INK,
                    anchor="rs")
        else:  # no room right of the (veiled) circles: a label over them, at the right
            W.pill(sk, box.right - 6, cy, word, T.PANEL, T.INK, max_width=box.w - 22,
                   align="right")
        return
    sk.text(box.right - 8, cy + 7, lb("ui.copies", n=left), size=T.TEXT_SMALL, bold=True,
            fill=T.INK, anchor="rs")


def layout_market(t: Table, y: int) -> int:
    """The market section from ``y``; returns the ``y`` below it."""
    sk, lb = t.sk, t.labels
    caption = "ui.market_price" if t.viewer is not None else "ui.buildings"
    drafting = nb.caption(t)
    if drafting is not None:
        box = W.text_block(sk, T.MARGIN + 4, y + 26, drafting, size=T.TEXT_BODY,
                           width=T.INNER - 8, most=1, fill=T.VIOLET, smaller=T.TEXT_SMALL)
        sk.region("draft", box)
    else:
        W.text_block(sk, T.MARGIN + 4, y + 26, lb(caption), size=T.TEXT_BODY, width=T.INNER - 8,
                     most=1, fill=T.INK, smaller=T.TEXT_SMALL, static=True)
    top = y + 38
    col_w = (T.INNER - (COLUMNS - 1) * T.GAP) // COLUMNS
    columns: dict[int, list[MarketEntry]] = {c: [] for c in nb.spaces(t.view)}
    for building in t.view["market"]:
        columns.setdefault(building["column"], []).append(building)
    order = sorted(columns)
    rows = 0
    for ci, column in enumerate(order[:COLUMNS]):
        x = T.MARGIN + ci * (col_w + T.GAP)
        entries = nb.entries(t.view, column, columns[column])
        rows = max(rows, len(entries))
        for ri, entry in enumerate(entries):
            box = Box(x, top + ri * (TILE_H + ROW_GAP), col_w, TILE_H)
            if isinstance(entry, int):
                nb.space_tile(t, box, entry, f"draft:{entry}:{ri}")
                continue
            sk.region(f"market:{entry['building']}", box)
            market_tile(t, box, entry)
            puertoma.reserve_marks(t, box, entry)
    return top + rows * (TILE_H + ROW_GAP) - ROW_GAP + T.GAP + 4
