"""The final score sheet: one column per player, one row per part of the score.

    rows: the game's parts of the score (its renderer's ``score_parts``: Puerto Rico's VP
          chips, building VP and large-building bonuses...), then total, tie-break, rank
    the winners' columns are gold and marked; a shared victory names every winner.
    A seat that changed hands is named by the bot with everyone who held it ("bob → AI 2
    (normal)"): each of them starts a line at the head of the column.

Input: ``view["outcome"]`` or ``game.outcome(state).to_json()`` (``scores`` with ``breakdown``,
``total``, ``tiebreak``, ``rank``; ``winners``; ``end_reasons``), or a finished view itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from engine.core import OutcomeJSON, ScoreLineJSON

from . import fonts
from . import theme as T
from . import widgets as W
from .labels import Labels, seat_names
from .scene import Box, Scene, Sketch

LABEL_W = 320
ROW_H = 46
M = T.MARGIN
NAME_LINES = 3
"""A player's name takes at most this many lines at the head of their column."""
NAME_LINE_H = 26
HANDOVER = " → "
"""Between the successive players of one seat ("bob → AI 2 (normal)"): each starts a line."""


def _wrap(text: str, width: float, most: int, size: int, bold: bool, end: str = "",
          elsewhere: bool = False) -> list[str]:
    """``text`` + ``end`` broken between words on at most ``most`` lines of ``width`` pixels;
    when it does not fit, the last line is shortened with an ellipsis before ``end``."""
    words = (text.split() or ["?"])
    words[-1] += end
    lines: list[str] = []
    start = 0
    while start < len(words):
        if len(lines) == most - 1:  # the last line takes the rest
            rest = " ".join(words[start:])
            if fonts.length(rest, size, bold) > width:
                room = width - fonts.length(end, size, bold)
                rest = fonts.fit(rest[: len(rest) - len(end)], size, bold, room,
                                 elsewhere=elsewhere) + end
            return [*lines, rest]
        stop = start + 1
        while stop < len(words) and fonts.length(" ".join(words[start : stop + 1]), size,
                                                 bold) <= width:
            stop += 1
        line = " ".join(words[start:stop])
        if fonts.length(line, size, bold) > width:  # one word wider than the column
            cut = line[: len(line) - len(end)] if stop == len(words) else line
            line = fonts.fit(cut, size, bold, width - fonts.length(end, size, bold),
                             elsewhere=elsewhere) + (end if stop == len(words) else "")
        lines.append(line)
        start = stop
    return lines


def _head(name: str, width: float) -> tuple[list[str], int, bool]:
    """(lines, size, bold) of a column's head: the name in bold on up to three lines, else
    in the small size and regular weight; a name longer still ends with an ellipsis (the
    final post's standings name every player in full)."""
    with fonts.recording_cuts() as cut:  # a try: its cuts are its own
        lines = name_lines(name, width)
    if not cut:
        return lines, T.TEXT_BODY, True
    return (name_lines(name, width, size=T.TEXT_SMALL, bold=False, elsewhere=True),
            T.TEXT_SMALL, False)


def name_lines(name: str, width: float, *, size: int = T.TEXT_BODY, bold: bool = True,
               elsewhere: bool = False) -> list[str]:
    """``name`` on at most :data:`NAME_LINES` lines of ``width`` pixels, broken between words.
    Everyone who held the seat starts a line of their own, and the last of them (who holds it
    at the end) is always shown: a long name before gives up lines first."""
    parts = name.split(HANDOVER)
    if len(parts) > NAME_LINES:
        parts = [*parts[: NAME_LINES - 1], parts[-1]]
    ends = [" →"] * (len(parts) - 1) + [""]
    budget = [NAME_LINES] * len(parts)
    while True:
        wrapped = [_wrap(part, width, most, size, bold, end, elsewhere)
                   for part, most, end in zip(parts, budget, ends, strict=True)]
        if sum(map(len, wrapped)) <= NAME_LINES:
            return [line for lines in wrapped for line in lines]
        longest = max(range(len(wrapped)), key=lambda i: (len(wrapped[i]), -i))
        budget[longest] = len(wrapped[longest]) - 1


PartRows = Callable[[Sequence[ScoreLineJSON], Labels], list[tuple[str, str]]]
"""(scores, labels) -> (breakdown part, label) for the game's own rows, in order."""


def outcome_of(data: Mapping[str, Any]) -> OutcomeJSON:
    """The outcome that ``data`` is or holds: the generic renderer passes an engine's
    ``Outcome.to_json()`` or a finished view carrying one as ``outcome``; both have the type
    of :class:`engine.core.OutcomeJSON`, hence the one cast."""
    if "scores" not in data and isinstance(data.get("outcome"), Mapping):
        data = data["outcome"]
    return cast(OutcomeJSON, data)


def _rows(scores: Sequence[ScoreLineJSON], lb: Labels, parts: PartRows
          ) -> list[tuple[str, str]]:
    """(part key, label) for each row of the sheet, in order: the game's parts, then the
    total, the tie-break and the rank."""
    return [
        *parts(scores, lb),
        ("total", lb("score.total")),
        ("tiebreak", lb("score.tiebreak")),
        ("rank", lb("score.rank")),
    ]


def _value(score: ScoreLineJSON, part: str) -> str:
    fixed = {"total": score["total"], "tiebreak": score["tiebreak"], "rank": score["rank"]}
    if part in fixed:
        return str(fixed[part])
    value = score["breakdown"].get(part)
    return "–" if value is None else str(value)


def layout_sheet(
    outcome: Mapping[str, Any],
    *,
    parts: PartRows,
    labels: Labels,
    names: Sequence[str] | Mapping[int, str] | None = None,
    notes: Sequence[str] = (),
) -> Scene:
    """The score sheet's scene for ``outcome`` (see the module docstring), with the rows
    ``parts`` gives for the game's score breakdown, worded by ``labels``, and the game's
    ``notes`` under the tie-break's (what a part some players do not score means)."""
    result = outcome_of(outcome)
    lb = labels
    scores = sorted(result["scores"], key=lambda s: s["seat"])
    n = len(scores)
    who = seat_names(max((s["seat"] for s in scores), default=-1) + 1, names, lb)
    winners = result["winners"]
    sk = Sketch(T.WIDTH, T.BACKGROUND)
    y = M
    band = sk.region("title", Box(M, y, T.INNER, 52))
    sk.rect(band, T.BAND, radius=10)
    sk.text(M + 18, y + 37, lb("score.title"), size=T.TEXT_TITLE, bold=True, fill=T.BAND_TEXT,
            max_width=T.INNER - 36)
    y += 52 + T.GAP
    reasons = ", ".join(lb(f"end.{r}") for r in result["end_reasons"])
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

    rows = _rows(scores, lb, parts)
    col_w = (T.INNER - LABEL_W) // max(n, 1)
    heads = {s["seat"]: _head(who[s["seat"]], col_w - 14) for s in scores}
    head = ROW_H + NAME_LINE_H * (max((len(h[0]) for h in heads.values()), default=1) - 1)
    top = y
    height = head + ROW_H * len(rows) + 8
    sk.rect(Box(M, top, T.INNER, height), T.PANEL, T.BORDER, 2, radius=10)
    for i, score in enumerate(scores):
        seat = score["seat"]
        x = M + LABEL_W + i * col_w
        column = sk.region(f"score:{seat}", Box(x + 2, top + 4, col_w - 4, height - 8))
        if seat in winners:
            sk.rect(column, T.WINNER, T.GOLD_DARK, 2, radius=8)
        sk.rect(Box(x + 10, top + 8, col_w - 20, 6), T.seat_color(seat), radius=3)
        names_at, name_size, name_bold = heads[seat]
        boxes = [sk.text(x + col_w // 2, top + 40 + NAME_LINE_H * k, line, size=name_size,
                         bold=name_bold, fill=T.INK, anchor="ms", max_width=col_w - 14,
                         elsewhere=not name_bold)  # as _head says
                 for k, line in enumerate(names_at)]
        left, up = min(b.x for b in boxes), min(b.y for b in boxes)
        sk.region(f"score:{seat}:name", Box(left, up, max(b.right for b in boxes) - left,
                                            max(b.bottom for b in boxes) - up))
    for r, (part, label) in enumerate(rows):
        ry = top + head + ROW_H * r + 4
        if r % 2 == 0:
            sk.rect(Box(M + 6, ry, LABEL_W - 12, ROW_H - 4), T.PANEL_ALT, radius=6)
        strong = part == "total"
        size = T.TEXT_HEADING if strong else T.TEXT_BODY
        W.text_block(sk, M + 16, ry + 30, label, size=size, width=LABEL_W - 30, bold=strong,
                     fill=T.INK, smaller=T.TEXT_SMALL, step=21)  # smaller, or two lines
        for i, score in enumerate(scores):
            cx = M + LABEL_W + i * col_w + col_w // 2
            text = _value(score, part)
            if part == "rank" and score["seat"] in winners:
                text = f"{text} · {lb('score.winner')}"
            box = W.text_block(sk, cx, ry + 30, text, size=size, width=col_w - 14,
                               bold=strong or part == "rank", fill=T.INK, anchor="ms",
                               key=True, step=22)  # "1 · Winner": regular, or two lines
            sk.region(f"score:{score['seat']}:{part}", box)
        if strong:
            sk.line([(M + 12, ry), (M + T.INNER - 12, ry)], T.BORDER, 2)
    y = top + height + T.GAP
    note = sk.text(M + 4, y + 24, lb("score.tiebreak_note"), size=T.TEXT_SMALL, fill=T.MUTED,
                   max_width=T.INNER - 8)
    sk.region("tiebreak_note", note)
    end = y + 36
    for i, text in enumerate(notes):  # whole, on as many lines as it takes (at most 4)
        lines, size, bold = W.fit_lines(text, T.TEXT_SMALL, T.INNER - 8, 4, bold=False)
        boxes = [sk.text(M + 4, end + (size + 8) * (k + 1), line, size=size, bold=bold,
                         fill=T.MUTED) for k, line in enumerate(lines)]
        sk.region(f"note:{i}", Box(boxes[0].x, boxes[0].y, max(b.right for b in boxes)
                                   - boxes[0].x, boxes[-1].bottom - boxes[0].y))
        end = boxes[-1].bottom + 4
    return sk.scene(end + T.MARGIN)
