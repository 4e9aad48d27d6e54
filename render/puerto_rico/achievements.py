"""The Achievement cards (the kernel's ``achievements`` module: 1897's Expansion VI, rules spec
§7.6): a box with one row per player — how many cards lie face down before them and the titles
of those they announced (their VP stay hidden until the end, X6-3) — and, on a seat's own
image, that player's cards with their VP and whether each objective is met.

The view's entry (``achievements``) holds ``players`` ({face_down, to_pick, announced,
scored at the end}) for everyone, and ``hand`` / ``to_pick`` (each card's ``achievement``,
``vp``, ``met``, ``announced``) only in its holder's view: the public image never has them.
"""

from __future__ import annotations

from engine.puerto_rico_1897.achievements import (
    AchievementCard,
    AchievementHolder,
    AchievementsPart,
    ScoredAchievement,
)
from engine.puerto_rico_1897.view import KernelView

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from .context import Table

ROW = 34
HEAD = 44


def part(view: KernelView) -> AchievementsPart | None:
    return view.get("achievements")


def layout_achievements(t: Table, x: int, y: int, w: int) -> int:
    """The box (``w`` wide from ``x``); the ``y`` below it (``y`` itself without the module)."""
    found = part(t.view)
    if found is None:
        return y
    sk, lb = t.sk, t.labels
    players = found["players"]
    hand = (found["hand"] or []) + (found["to_pick"] or [])
    rows = [_row_lines(t, entry, w - 32) for entry in players]
    height = (HEAD + ROW * len(players) + LINE * sum(len(r) - 1 for r in rows if r)
              + (HEAD - 8 + ROW * len(hand) if hand else 0) + 8)
    box = sk.region("achievements", Box(x, y, w, height))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=10)
    sk.text(x + 16, y + 30, lb("ui.achievements", n=found["deck"]),
            size=T.TEXT_BODY, bold=True, fill=T.INK, max_width=w - 32)
    ry = y + HEAD
    for seat, (entry, lines) in enumerate(zip(players, rows, strict=True)):
        _player_row(t, seat, entry, x + 16, ry, w - 32, lines)
        ry += ROW + LINE * max(len(lines) - 1, 0)
    if hand:
        sk.text(x + 16, ry + 26, lb("ui.your_achievements"), size=T.TEXT_BODY, bold=True,
                fill=T.INK, max_width=w - 32)
        ry += HEAD - 8
        for card in hand:
            _card_row(t, card, x + 16, ry, w - 32)
            ry += ROW
    return y + height + T.GAP


LINE = 22
"""A further line of a player's cards: a row holding more than one line grows by as many."""


def _row_lines(t: Table, entry: AchievementHolder, w: int) -> tuple[str, ...]:
    """The lines of a player's row's cards ("✓ Dock Tycoon, …"), whole: broken between the
    cards (between words where one card is wider than the line); none without cards."""
    lb = t.labels
    titles = [lb(f"achievement.{a}") for a in entry["announced"]]
    scored = entry.get("scored")
    if scored is not None:  # the end: every scored card with its VP
        titles = [_scored(t, c) for c in scored]
    if not titles:
        return ()
    down = entry["face_down"] + entry["to_pick"]
    count = fonts.bbox(lb("ui.face_down", n=down), T.TEXT_SMALL)[2]
    width = w - (w // 4 + 12 + count + 14)
    text = "✓ " + ", ".join(titles)
    if fonts.fits(text, T.TEXT_SMALL, False, width):
        return (text,)
    lines: list[str] = []
    for k, title in enumerate(titles):
        item = ("✓ " if k == 0 else "") + title + ("," if k < len(titles) - 1 else "")
        if lines and fonts.fits(f"{lines[-1]} {item}", T.TEXT_SMALL, False, width):
            lines[-1] = f"{lines[-1]} {item}"
        else:
            lines.extend(fonts.wrap(item, T.TEXT_SMALL, False, (width,) * 3))
    return tuple(lines)


def _player_row(t: Table, seat: int, entry: AchievementHolder, x: int, y: int, w: int,
                lines: tuple[str, ...]) -> None:
    sk, lb = t.sk, t.labels
    key = f"player:{seat}:achievements"
    sk.text(x, y + 24, t.names[seat], size=T.TEXT_SMALL, bold=True, fill=T.seat_color(seat),
            max_width=w // 4, elsewhere=True)
    down = entry["face_down"] + entry["to_pick"]
    cx = x + w // 4 + 12
    count = sk.text(cx, y + 24, lb("ui.face_down", n=down), size=T.TEXT_SMALL, fill=T.INK)
    for k, line in enumerate(lines):
        sk.text(count.right + 14, y + 24 + LINE * k, line, size=T.TEXT_SMALL, fill=T.ACT,
                max_width=x + w - count.right - 14)
    sk.region(key, Box(x, y + 4, w, ROW - 6 + LINE * max(len(lines) - 1, 0)))


def _scored(t: Table, card: ScoredAchievement) -> str:
    name = card["achievement"]
    return f"{t.labels(f'achievement.{name}')} ({card['vp']})"


def _card_row(t: Table, card: AchievementCard, x: int, y: int, w: int) -> None:
    sk, lb = t.sk, t.labels
    title = lb(f"achievement.{card['achievement']}")
    badge = W.vp_badge(sk, x, y + 17, card["vp"])
    if card["announced"]:
        state, color = lb("ui.announced"), T.ACT
    elif card["met"]:
        state, color = lb("ui.met"), T.HIGHLIGHT
    else:
        state, color = "", T.MUTED
    right = x + w
    if state:
        mark = sk.text(right, y + 24, state, size=T.TEXT_SMALL, bold=True, fill=color,
                       anchor="rs")
        right = mark.x - 10
    sk.text(badge.right + 10, y + 24, title, size=T.TEXT_SMALL, bold=True, fill=T.INK,
            max_width=right - badge.right - 10)


__all__ = ["layout_achievements", "part"]
