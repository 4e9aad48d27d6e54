"""The expansions on Puerto Rico's images, drawn from the view's ``buccaneer`` and ``festival``
keys (``None`` without the module, and then nothing here draws):

* Exp. 3, the Buccaneer: its role card among the others; the Buccaneer token (☠) on that card
  while nobody holds it, else the holder named on the card and marked on his own panel
  (:func:`token_pill`); the role card captured this round marked "☠ captured: name".
* Exp. 4, the Festival: its board of three goals (the plantation kind ×3, the three barrels,
  the 3-VP building) with each reward, and who achieved each goal (:func:`layout_festival`).
* The title band names the game's modules (:func:`modules_text`).

Regions: ``buccaneer_token`` (the token where it lies), ``role:<card>:captured``, ``festival``,
``festival:<goal>`` and its ``:done``, ``player:<seat>:token``.  Pure.
"""

from __future__ import annotations

from engine.puerto_rico.view import BuccaneerPart, FestivalPart, PuertoRicoView, RoleCard

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from . import pieces as P
from .context import Table

SKULL = "☠"
GOALS = ("plantation", "production", "construction")
REWARDS = {"plantation": 3, "production": 3, "construction": 3}  # §13: 3 colonists/doubloons/VP
MODULE_ORDER = ("new_buildings", "nobles", "buccaneer", "festival", "festival_activities",
                "achievements")


def buccaneer(view: PuertoRicoView) -> BuccaneerPart | None:
    return view["buccaneer"]


def modules_text(t: Table) -> str:
    """ "+ New Buildings, Nobles, Buccaneer, Festival" (empty without a module)."""
    found = t.view["options"].get("modules") or ()
    names = [t.labels(f"module.{m}") for m in MODULE_ORDER if m in found]
    return t.labels("ui.modules", list=", ".join(names)) if names else ""


def token(t: Table, cx: int, cy: int, r: int) -> Box:
    """The Buccaneer token: a dark disc with a skull."""
    box = t.sk.circle(cx, cy, r, T.BAND, T.INK, 2)
    t.sk.text(
        cx,
        cy,
        SKULL,
        size=T.TEXT_KEY if r >= 16 else T.TEXT_SMALL,
        bold=True,
        fill=T.BAND_TEXT,
        anchor="mm",
    )
    return box


def role_area(t: Table, role: RoleCard, area: Box, tag_width: int | None = None) -> None:
    """What lies on a role card below its title (``area``, at least 54 px high): who took it
    this round, else its doubloons; the Buccaneer's token or holder; the captured mark.
    ``tag_width``: the widest a name may be drawn (default: the area's)."""
    sk = t.sk
    widest = tag_width or area.w - 2
    part = buccaneer(t.view)
    card = role["card"]
    taken = role["taken_by"]
    cx, cy = area.x + area.w // 2, area.y + 28
    captured = part is not None and part["captured"] == card
    if taken is not None:
        sk.rect(area, T.PANEL_ALT, radius=8)
    if captured and part is not None:
        # "captured" over the captor's name (or over whoever chose the card since)
        box = sk.text(
            cx,
            area.y + 18,
            t.labels("ui.captured"),
            size=T.TEXT_SMALL,
            bold=True,
            fill=T.HIGHLIGHT,
            anchor="ms",
            max_width=widest,
        )
        captor = part["captured_by"]
        if taken is not None:
            tag = W.pill(
                sk,
                cx,
                area.y + 40,
                t.names[taken],
                T.seat_color(taken),
                T.WHITE,
                max_width=widest,
                align="center",
            )
        else:
            who = t.names[captor] if captor is not None else "?"
            tag = W.pill(
                sk,
                cx,
                area.y + 40,
                f"{SKULL} {who}",
                T.BAND,
                T.BAND_TEXT,
                max_width=widest,
                align="center",
            )
        sk.region(
            f"role:{card}:captured",
            Box(
                min(box.x, tag.x),
                box.y,
                max(box.right, tag.right) - min(box.x, tag.x),
                tag.bottom - box.y,
            ),
        )
        return
    if role["role"] == "buccaneer" and part is not None:
        holder = part["token"]
        if taken is not None:
            box = W.name_tag(
                sk,
                cx,
                cy,
                f"{SKULL} {t.names[taken]}",
                T.seat_color(taken),
                T.WHITE,
                max_width=widest,
            )
        elif holder is not None:
            box = W.name_tag(
                sk, cx, cy, f"{SKULL} {t.names[holder]}", T.BAND, T.BAND_TEXT, max_width=widest
            )
        else:
            box = token(t, cx, cy, 19)
        sk.region("buccaneer_token", box)
        return
    if taken is not None:
        W.name_tag(sk, cx, cy, t.names[taken], T.seat_color(taken), T.WHITE, max_width=widest)
    elif role["doubloons"]:
        W.coin(sk, cx, cy, 38, role["doubloons"], size=T.TEXT_LETTER)


def token_pill(t: Table, seat: int) -> tuple[str, T.Color, T.Color] | None:
    """The pill on the panel of the seat holding the Buccaneer token (``None`` otherwise)."""
    part = buccaneer(t.view)
    if part is None or part["token"] != seat:
        return None
    return f"{SKULL} {t.labels('ui.token')}", T.BAND, T.BAND_TEXT


# --- the Festival board -----------------------------------------------------------------------

FESTIVAL_H = 150
CELL_TOP = 42


def layout_festival(t: Table, x: int, y: int, w: int) -> int:
    """The Festival board (``w`` wide from ``x``): its caption, then the three goals side by
    side, each with its reward and who achieved it.  Returns the ``y`` below it."""
    part = t.view["festival"]
    if part is None:
        return y
    # the board, its caption and its three spaces are the same in every game with the Festival
    # (the static layer); the goals drawn on it are this game's
    cells = board_of_three(t, "festival", t.labels("ui.festival"), Box(x, y, w, FESTIVAL_H))
    for goal, cell in zip(GOALS, cells, strict=True):
        _goal(t, goal, part, cell)
    return y + FESTIVAL_H + T.GAP


def done_pill(t: Table, cell: Box, top: int, seat: int, key: str, width: int) -> int:
    """"✓ <name>" in the seat's colour at the right of a cell's first line (a Festival goal
    or an Activity card completed); the ``x`` left of it.  A long name ends with an ellipsis:
    the pill points at a player in their colour, whose area names them whole."""
    state = W.pill(t.sk, cell.right - 8, top - 7, "✓ " + t.names[seat], T.seat_color(seat),
                   T.WHITE, max_width=width, align="right", elsewhere=True)
    t.sk.region(key, state)
    return state.x - 6


def board_of_three(t: Table, key: str, caption: str, box: Box) -> list[Box]:
    """A board (region ``key``) with its caption and three cells side by side under it (the
    Festival's goals, its Activity cards): the cells' boxes, left to right."""
    sk = t.sk
    sk.region(key, box)
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=10, static=True)
    W.text_block(sk, box.x + 16, box.y + 30, caption, size=T.TEXT_BODY, width=box.w - 32,
                 most=1, fill=T.INK, smaller=T.TEXT_SMALL, static=True)  # regular, smaller
    gap = 8
    cell_w = (box.w - 16 - 2 * gap) // 3
    return [Box(box.x + 8 + k * (cell_w + gap), box.y + CELL_TOP, cell_w,
                box.h - CELL_TOP - 8) for k in range(3)]


def _goal(t: Table, goal: str, part: FestivalPart, cell: Box) -> None:
    sk, lb = t.sk, t.labels
    plantation, production, construction = (part["plantation"], part["production"],
                                            part["construction"])
    done = {"plantation": plantation["achieved_by"], "production": production["achieved_by"],
            "construction": construction["achieved_by"]}[goal]
    sk.region(f"festival:{goal}", cell)
    sk.rect(cell, T.PANEL_ALT, T.FAINT, 2, radius=8, static=True)
    if done is not None:
        sk.rect(cell, T.SOLD_OUT, T.FAINT, 2, radius=8)
    # first line: what the goal asks, and its state (open, or who achieved it)
    top = cell.y + 26
    words = {
        "plantation": lb("tile.quarry")
        if plantation["tile"] == "quarry"
        else lb(f"good.{plantation['tile']}"),
        "production": lb("ui.goal_production"),
        "construction": lb("ui.goal_construction"),
    }[goal]
    if goal == "plantation":
        words = f"3 × {words}"
    if done is not None:  # the goal's words whole, the name in the room left
        need = int(fonts.length(words, T.TEXT_SMALL, True)) + 18
        room = max(cell.w * 3 // 5, 0) if need <= cell.w * 2 // 5 else cell.w - need - 8
        right = done_pill(t, cell, top, done, f"festival:{goal}:done", max(room, 56))
    else:
        state = sk.text(
            cell.right - 10, top, lb("ui.open"), size=T.TEXT_SMALL, fill=T.MUTED, anchor="rs"
        )
        right = state.x - 8
    sk.text(
        cell.x + 10,
        top,
        words,
        size=T.TEXT_SMALL,
        bold=True,
        fill=T.INK,
        max_width=max(right - cell.x - 10, 20),
    )
    # second line: the pieces, an arrow, the reward
    py = cell.y + 40
    reward_x = cell.right - 56
    px = cell.x + 10
    if goal == "plantation":
        kind = plantation["tile"]
        for _ in range(3):
            P.tile(sk, Box(px, py, 40, 46), kind, lb)
            px += 46
    elif goal == "production":
        for good in production["goods"]:
            P.barrel(sk, Box(px, py + 4, 32, 38), good, lb)
            px += 40
    else:
        name = str(construction["building"])
        label_w = reward_x - 30 - px
        found = t.market_entry(name)
        stripe = found["good"] if found else None
        fill = P.GOOD_COLORS[stripe] if stripe else T.VIOLET
        sk.rect(
            Box(px, py + 2, label_w, 42),
            T.VIOLET_LIGHT if not stripe else T.PANEL,
            T.BORDER,
            2,
            radius=6,
        )
        sk.rect(Box(px + 3, py + 5, 8, 36), fill, radius=4)
        short = lb.building(name) if construction["building"] else "?"  # None before a draft
        if fonts.length(short, T.TEXT_SMALL) > label_w - 22:
            short = lb.building_short(name)
        if fonts.fits(short, T.TEXT_SMALL, False, label_w - 22):
            sk.text(px + 16, py + 30, short, size=T.TEXT_SMALL, fill=T.INK)
        else:  # the whole name on two lines, else the short one
            two = (label_w - 22,) * 2
            whole = lb.building(name)
            text = whole if fonts.wraps(whole, T.TEXT_SMALL, False, two) else short
            W.text_block(sk, px + 16, py + 30, text, size=T.TEXT_SMALL, width=label_w - 22,
                         fill=T.INK, bold=False, step=19)
        px += label_w
    sk.text(reward_x - 8, py + 31, "→", size=T.TEXT_KEY, bold=True, fill=T.MUTED, anchor="rs")
    amount = REWARDS[goal]
    mid = py + 23
    if goal == "plantation":
        figure = W.pawn(sk, reward_x, mid - 15, 30)
        sk.text(
            figure.right + 4, mid + 9, str(amount), size=T.TEXT_KEY, bold=True, fill=T.INK, key=True
        )
    elif goal == "production":
        W.coin(sk, reward_x + 22, mid, 40, amount, size=T.TEXT_LETTER)
    else:
        W.vp_badge(sk, reward_x + 6, mid, amount)


__all__ = ["FESTIVAL_H", "board_of_three", "done_pill", "layout_festival", "modules_text",
           "role_area", "token", "token_pill"]
