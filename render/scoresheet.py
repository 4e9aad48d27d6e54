"""The final score sheet: one column per player, one row per part of the score.

    rows: VP chips, building VP, each large building's bonus (only those someone scored),
          total, tie-break (doubloons + goods), rank
    the winners' columns are gold and marked; a shared victory names every winner.

Input: ``view["outcome"]`` or ``game.outcome(state).to_json()`` (``scores`` with ``breakdown``,
``total``, ``tiebreak``, ``rank``; ``winners``; ``end_reasons``), or a finished view itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import theme as T
from . import widgets as W
from .labels import Labels, as_labels, seat_names
from .scene import Box, Scene, Sketch

LARGE_BUILDINGS = ("guild_hall", "residence", "fortress", "customs_house", "city_hall")
LABEL_W = 320
ROW_H = 46
M = T.MARGIN


def _rows(scores: Sequence[Mapping[str, Any]], lb: Labels) -> list[tuple[str, str]]:
    """(part key, label) for each row of the sheet, in order."""
    parts = {k for s in scores for k in s["breakdown"]}
    rows = [("chips", lb("score.chips")), ("buildings", lb("score.buildings"))]
    extra = [k for k in LARGE_BUILDINGS if k in parts]
    extra += sorted(parts - {"chips", "buildings", *LARGE_BUILDINGS})
    rows += [(k, lb("score.bonus", building=lb.building(k))) for k in extra]
    rows += [
        ("total", lb("score.total")),
        ("tiebreak", lb("score.tiebreak")),
        ("rank", lb("score.rank")),
    ]
    return rows


def _value(score: Mapping[str, Any], part: str) -> str:
    if part in ("total", "tiebreak", "rank"):
        return str(score[part])
    value = score["breakdown"].get(part)
    return "–" if value is None else str(value)


def layout_scoresheet(
    outcome: Mapping[str, Any],
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The score sheet's scene for ``outcome`` (see the module docstring)."""
    if "scores" not in outcome and isinstance(outcome.get("outcome"), Mapping):
        outcome = outcome["outcome"]
    lb = as_labels(labels)
    scores = sorted(outcome["scores"], key=lambda s: int(s["seat"]))
    n = len(scores)
    who = seat_names(max((int(s["seat"]) for s in scores), default=-1) + 1, names, lb)
    winners = [int(w) for w in outcome.get("winners") or []]
    sk = Sketch(T.WIDTH, T.BACKGROUND)
    y = M
    band = sk.region("title", Box(M, y, T.INNER, 52))
    sk.rect(band, T.BAND, radius=10)
    sk.text(M + 18, y + 37, lb("score.title"), size=T.TEXT_TITLE, bold=True, fill=T.BAND_TEXT,
            max_width=T.INNER - 36)
    y += 52 + T.GAP
    reasons = ", ".join(lb(f"end.{r}") for r in outcome.get("end_reasons") or [])
    if reasons:
        box = sk.text(M + 4, y + 28, lb("score.ended", reasons=reasons), size=T.TEXT_BODY,
                      fill=T.MUTED, max_width=T.INNER - 8)
        sk.region("reasons", box)
        y += 40
    key = "score.shared" if len(winners) > 1 else "score.winners"
    line = lb(key, names=", ".join(who[w] for w in winners))
    box = W.pill(sk, M, y + 24, line, T.WINNER, T.INK, size=T.TEXT_HEADING, max_width=T.INNER)
    sk.region("winners", box)
    y += 48 + T.GAP

    rows = _rows(scores, lb)
    col_w = (T.INNER - LABEL_W) // max(n, 1)
    top = y
    height = ROW_H * (len(rows) + 1) + 8
    sk.rect(Box(M, top, T.INNER, height), T.PANEL, T.BORDER, 2, radius=10)
    for i, score in enumerate(scores):
        seat = int(score["seat"])
        x = M + LABEL_W + i * col_w
        column = sk.region(f"score:{seat}", Box(x + 2, top + 4, col_w - 4, height - 8))
        if seat in winners:
            sk.rect(column, T.WINNER, T.GOLD_DARK, 2, radius=8)
        sk.rect(Box(x + 10, top + 8, col_w - 20, 6), T.seat_color(seat), radius=3)
        name = sk.text(x + col_w // 2, top + 40, who[seat], size=T.TEXT_BODY, bold=True,
                       fill=T.INK, anchor="ms", max_width=col_w - 14)
        sk.region(f"score:{seat}:name", name)
    for r, (part, label) in enumerate(rows):
        ry = top + ROW_H * (r + 1) + 4
        if r % 2 == 0:
            sk.rect(Box(M + 6, ry, LABEL_W - 12, ROW_H - 4), T.PANEL_ALT, radius=6)
        strong = part == "total"
        size = T.TEXT_HEADING if strong else T.TEXT_BODY
        sk.text(M + 16, ry + 30, label, size=size, bold=strong, fill=T.INK,
                max_width=LABEL_W - 30)
        for i, score in enumerate(scores):
            cx = M + LABEL_W + i * col_w + col_w // 2
            text = _value(score, part)
            if part == "rank" and int(score["seat"]) in winners:
                text = f"{text} · {lb('score.winner')}"
            box = sk.text(cx, ry + 30, text, size=size, bold=strong or part == "rank",
                          fill=T.INK, anchor="ms", max_width=col_w - 14, key=True)
            sk.region(f"score:{score['seat']}:{part}", box)
        if strong:
            sk.line([(M + 12, ry), (M + T.INNER - 12, ry)], T.BORDER, 2)
    y = top + height + T.GAP
    note = sk.text(M + 4, y + 24, lb("score.tiebreak_note"), size=T.TEXT_SMALL, fill=T.MUTED,
                   max_width=T.INNER - 8)
    sk.region("tiebreak_note", note)
    return sk.scene(y + 36 + T.MARGIN)
