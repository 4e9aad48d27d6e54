"""The Festival Activity cards (the kernel's ``festival_activities`` module: 1897's Expansion V,
rules spec §7.5): under the Festival board, the three cards side by side, each with its name,
its task, the pieces drawn onto it and its reward, and who completed it.

The view's entry (``festival_activities``, public) lists each card's ``activity`` and ``task``,
its ``plantations`` ({tile, count}), ``goods`` ({good, count}), ``building``, ``reward``
({colonists, doubloons, vp}) and ``completed_by``.
"""

from __future__ import annotations

from engine.puerto_rico_1897.festival_activities import ActivityCard
from engine.puerto_rico_1897.view import KernelView

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from . import pieces as P
from .context import Table
from .modules import board_of_three, done_pill

ACTIVITIES_H = 170
PIECE = 30  # a tile's or a barrel's width on a card
REWARD_STEP = 44


def cards(view: KernelView) -> list[ActivityCard]:
    return view.get("festival_activities") or []


def layout_activities(t: Table, x: int, y: int, w: int) -> int:
    """The cards (``w`` wide from ``x``) under their caption; the ``y`` below them (``y``
    itself without the module).  A card's name or task too long for its line takes two, and
    the board grows by as many lines (every card's pieces stay on one row)."""
    found = cards(t.view)
    if not found:
        return y
    cell_w = (w - 16 - 2 * 8) // 3  # as board_of_three cuts it
    texts = [_texts(t, card, cell_w) for card in found[:3]]
    extra = max((len(a) + len(b) - 2 for (a, _), b in texts), default=0)
    cells = board_of_three(t, "activities", t.labels("ui.activities"),
                           Box(x, y, w, ACTIVITIES_H + LINE * extra))
    for card, cell, text in zip(found[:3], cells, texts, strict=False):
        _card(t, card, cell, text, extra)
    return y + ACTIVITIES_H + LINE * extra + T.GAP


LINE = 22  # a text line on a card


def _pill_room(t: Table, card: ActivityCard, width: int) -> int:
    """The width the "✓ name" pill of a completed card takes from its first line (with its
    gap), as :func:`done_pill` draws it; 0 for a card not completed."""
    done = card["completed_by"]
    if done is None:
        return 0
    text, bold = fonts.fit_weight("✓ " + t.names[done], T.TEXT_SMALL,
                                  pill_width(t, done, width) - 16, elsewhere=True)
    return int(fonts.length(text, T.TEXT_SMALL, bold)) + 16 + 6


def pill_width(t: Table, seat: int, width: int) -> int:
    """The most a "✓ name" pill takes of a card ``width`` pixels wide: half, when the name
    fits whole there ("✓ Lugar 2"), else two fifths (a long name ends with an ellipsis)."""
    whole = fonts.fits("✓ " + t.names[seat], T.TEXT_SMALL, False, width // 2 - 16)
    return width // 2 if whole else width * 2 // 5


def _texts(t: Table, card: ActivityCard, width: int
           ) -> tuple[tuple[tuple[str, ...], bool], tuple[str, ...]]:
    """((name lines, bold), task lines) of a card ``width`` pixels wide: each whole, on a
    line or two (the name on up to four beside a "✓ name")."""
    lb = t.labels
    room = max(width - 8 - _pill_room(t, card, width) - 10, 20)
    name, _, bold = W.fit_lines(lb(f"activity.{card['activity']}"), T.TEXT_SMALL, room, 4)
    task, _, _ = W.fit_lines(lb(f"task.{card['task']}"), T.TEXT_SMALL, width - 20,
                             bold=False)
    return (name, bold), task


def _card(t: Table, card: ActivityCard, cell: Box,
          text: tuple[tuple[tuple[str, ...], bool], tuple[str, ...]], extra: int) -> None:
    sk = t.sk
    done = card["completed_by"]
    key = f"activity:{card['activity']}"
    sk.region(key, cell)
    sk.rect(cell, T.PANEL_ALT, T.FAINT, 2, radius=8, static=True)
    if done is not None:
        sk.rect(cell, T.SOLD_OUT, T.FAINT, 2, radius=8)
    # first line: the card's name, and who completed it
    top = cell.y + 24
    if done is not None:
        done_pill(t, cell, top, done, f"{key}:done", pill_width(t, done, cell.w))
    (name, bold), task = text
    for k, line in enumerate(name):
        sk.text(cell.x + 10, top + LINE * k, line, size=T.TEXT_SMALL, bold=bold, fill=T.INK)
    # second line: the task
    for k, line in enumerate(task):
        sk.text(cell.x + 10, cell.y + 48 + LINE * (len(name) - 1 + k), line, size=T.TEXT_SMALL,
                fill=T.MUTED)
    cell = Box(cell.x, cell.y + LINE * extra, cell.w, cell.h - LINE * extra)
    # third line: the pieces drawn onto the card, an arrow, the reward
    py = cell.y + 60
    rewards = _rewards(card)
    reward_x = cell.right - 8 - len(rewards) * REWARD_STEP
    px = cell.x + 10
    for tile in card["plantations"]:
        px = _counted(t, px, py, tile["tile"], tile["count"] or 1, True)
    for good in card["goods"]:
        px = _counted(t, px, py, good["good"], good["count"] or 1, False)
    building = card["building"]
    if card["task"] == "build":
        _building(t, px, py, reward_x - 24 - px, building or None)
    sk.text(reward_x - 8, py + 31, "→", size=T.TEXT_KEY, bold=True, fill=T.MUTED, anchor="rs")
    mid = py + 23
    for k, (kind, amount) in enumerate(rewards):
        rx = reward_x + k * REWARD_STEP
        if kind == "colonists":
            figure = W.pawn(sk, rx, mid - 15, 30)
            sk.text(
                figure.right + 3,
                mid + 9,
                str(amount),
                size=T.TEXT_KEY,
                bold=True,
                fill=T.INK,
                key=True,
            )
        elif kind == "doubloons":
            W.coin(sk, rx + 18, mid, 34, amount, size=T.TEXT_LETTER)
        else:
            W.vp_badge(sk, rx + 2, mid, amount)


def _rewards(card: ActivityCard) -> list[tuple[str, int]]:
    reward = card["reward"]
    amounts = (("colonists", reward["colonists"]), ("doubloons", reward["doubloons"]),
               ("vp", reward["vp"]))
    return [(kind, amount) for kind, amount in amounts if amount]


def _counted(t: Table, px: int, py: int, kind: str, count: int, tile: bool) -> int:
    """One slot's piece (a property tile or a crate) and, above one, its count."""
    sk, lb = t.sk, t.labels
    if tile:
        P.tile(sk, Box(px, py, PIECE, 40), kind, lb)
    else:
        P.barrel(sk, Box(px, py + 2, PIECE, 36), kind, lb)
    px += PIECE + 4
    if count > 1:
        num = sk.text(px, py + 31, f"×{count}", size=T.TEXT_KEY, bold=True, fill=T.INK, key=True)
        px = num.right + 6
    return px + 2


def _building(t: Table, px: int, py: int, width: int, name: str | None) -> None:
    """The building slot: its name on a commercial building's colour (``?`` until an
    Expansion I draft names it)."""
    sk, lb = t.sk, t.labels
    width = max(width, 60)
    sk.rect(Box(px, py + 2, width, 42), T.VIOLET_LIGHT, T.BORDER, 2, radius=6)
    sk.rect(Box(px + 3, py + 5, 8, 36), T.VIOLET, radius=4)
    text = lb.building(name) if name else "?"
    if name and fonts.length(text, T.TEXT_SMALL) > width - 22:
        text = lb.building_short(name)
    if fonts.fits(text, T.TEXT_SMALL, False, width - 22) or not name:
        sk.text(px + 16, py + 30, text, size=T.TEXT_SMALL, fill=T.INK, max_width=width - 22)
        return
    two = (width - 22,) * 2  # the whole name on two lines, else the short one
    whole = lb.building(name)
    W.text_block(sk, px + 16, py + 30, whole if fonts.wraps(whole, T.TEXT_SMALL, False, two)
                 else text, size=T.TEXT_SMALL, width=width - 22, fill=T.INK, bold=False,
                 step=19)


__all__ = ["ACTIVITIES_H", "cards", "layout_activities"]
