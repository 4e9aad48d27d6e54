"""Exp. 1, the New Buildings, on Puerto Rico's images (drawn from the view's ``draft`` key and
its ``forest`` island tiles; nothing here draws without the module):

* **forests**: an island tile of their own, dark green with a tree, and no occupancy circle
  (a forest never holds a colonist) (:func:`forest_tile`);
* **the draft**: while spaces are empty, the market shows them in their columns, each an
  outlined space with its printed cost and "to draft" (a large building's framed thicker),
  among the buildings already drafted,
  and the market's caption says how many are left (:func:`spaces`, :func:`space_tile`,
  :func:`caption`); the new buildings' names come from the label table like the others;
* the Guest house's guests are its colonists, drawn on it like any building's.

Regions: ``draft:<cost>:<k>`` (an empty space), ``player:<seat>:island:forest`` (the newest
forest).  Pure.
"""

from __future__ import annotations

from engine.puerto_rico.view import IslandTile, MarketEntry, PuertoRicoView

from .. import theme as T
from .. import widgets as W
from ..scene import Box, Sketch
from . import nobles
from . import pieces as P
from .context import Table

FOREST = "forest"
LARGE_COST = 10
COLUMNS = 4


def column_of(cost: int) -> int:
    """The board column of a violet space of printed ``cost`` (1-3, 4-6, 7-9, 10)."""
    return min(COLUMNS, (cost - 1) // 3 + 1)


def spaces(view: PuertoRicoView) -> dict[int, list[int]]:
    """The draft's empty spaces: their printed costs by board column (none without Exp. 1 or
    once the draft is over)."""
    part = view["draft"]
    if part is None:
        return {}
    out: dict[int, list[int]] = {}
    for cost, n in sorted((int(c), n) for c, n in part["spaces_left"].items()):
        out.setdefault(column_of(cost), []).extend([cost] * n)
    return out


def left(view: PuertoRicoView) -> int:
    return sum(len(costs) for costs in spaces(view).values())


def caption(t: Table) -> str | None:
    """The market's caption while the draft goes on ("Building draft: 9 spaces left...")."""
    n = left(t.view)
    if not n:
        return None
    part = t.view["draft"]
    drafted = 0 if part is None else len(part["drafted"])
    return t.labels("ui.draft_caption", n=n, drafted=drafted)


def space_tile(t: Table, box: Box, cost: int, key: str) -> None:
    """An empty violet space of the board: outlined, its printed cost, "to draft"."""
    sk, lb = t.sk, t.labels
    sk.region(key, box)
    large = cost >= LARGE_COST  # a large building's space: the thick frame of its tiles
    sk.rect(box, T.PANEL_ALT, T.VIOLET, 3 if large else 2, radius=8)
    cy = box.y + box.h // 2
    coin = W.coin(sk, box.x + 24, cy, 30, cost, size=T.TEXT_SMALL, key=False)
    sk.text(coin.right + 10, cy + 7, lb("ui.draft_space"), size=T.TEXT_SMALL, bold=True,
            fill=T.VIOLET, max_width=box.right - coin.right - 18)


def entries(view: PuertoRicoView, column: int, built: list[MarketEntry]
            ) -> list[MarketEntry | int]:
    """A market column's tiles in cost order: the buildings (``built``) and, during the
    draft, the empty spaces as their printed costs."""
    out: list[tuple[int, int, MarketEntry | int]] = [(e["cost"], 0, e) for e in built]
    out.extend((cost, 1, cost) for cost in spaces(view).get(column, ()))
    out.sort(key=lambda item: (item[0], item[1],
                               "" if isinstance(item[2], int) else item[2]["building"]))
    return [item for _, _, item in out]


def forest_tile(sk: Sketch, box: Box) -> Box:
    """A forest: a plantation laid face down, dark green with a tree; no circle."""
    sk.rect(box, T.FOREST, T.FOREST_DARK, 2, radius=6)
    cx = box.x + box.w // 2
    top, bottom = box.y + box.h // 6, box.bottom - box.h // 4
    mid = (top + bottom) // 2
    half = box.w * 3 // 10
    sk.polygon([(cx, top), (cx + half * 2 // 3, mid), (cx - half * 2 // 3, mid)], T.FOREST_LIGHT)
    sk.polygon([(cx, top + (mid - top) // 2), (cx + half, bottom),
                (cx - half, bottom)], T.FOREST_LIGHT)
    trunk = max(box.w // 10, 3)
    sk.rect(Box(cx - trunk // 2, bottom, trunk, max(box.bottom - bottom - 5, 2)), T.HULL_DARK)
    return box


def island_tile(t: Table, box: Box, entry: IslandTile) -> None:
    """One island tile: a forest, or a plantation or quarry with its circle (Exp. 2: a noble
    there drawn as one, :func:`render.puerto_rico.nobles.piece`)."""
    if entry["tile"] == FOREST:
        forest_tile(t.sk, box)
        return
    P.tile(t.sk, box, entry["tile"], t.labels, entry["occupied"],
           piece=nobles.piece if entry.get("noble") else None)


def has_module(view: PuertoRicoView) -> bool:
    return view["draft"] is not None


__all__ = ["FOREST", "caption", "column_of", "entries", "forest_tile", "has_module",
           "island_tile", "left", "space_tile", "spaces"]
