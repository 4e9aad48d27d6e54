"""The end-of-game chart: every seat's score round by round, then where the points came from.

    title band   "Score by round"
    line chart   x: the rounds (0 = the start, then the end of each round); y: the points each
                 seat would have had if the game had ended then.  One line per seat in its colour
                 with a marker of its own shape at each point (circle, square, triangle...: the
                 seats are told apart without colour too), the winners' lines on top; each line
                 ends with the seat's final score.
    legend       one row per seat, best score first: the line's swatch, the name, the final score;
                 the winners' rows are gold with a "Winner" pill.
    split        (when the game gives one) one stacked bar per seat, in the legend's order: the
                 parts of its final score, each in its part's colour with its number inside when
                 it fits, the total at the end; a key of the parts under the bars.  A negative
                 part (points given back) is a hollow box of its size, its number signed.

Input (plain JSON, it travels to a worker process)::

    {"rounds": [0, 1, ..., R], "totals": [[score by seat], ...one per round],
     "split": None or [[[part, points], ...] by seat], "winners": [seat, ...]}

Regions: ``title``, ``plot``, ``line:<seat>`` (the line and its markers), ``end:<seat>`` (its
final score), ``tick:<round>`` (the labelled rounds), ``legend:<seat>``, and with a split
``split``, ``bar:<seat>``, ``bar:<seat>:<part>``.  The chart names no game: the parts' words come
from ``chart.part.<part>`` (or the game's own ``score.<part>``), else the id made readable.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import fonts
from . import theme as T
from . import widgets as W
from .labels import Labels, as_labels, seat_names
from .raster import render_png
from .scene import Box, Rect, Scene, Sketch
from .scoresheet import name_lines

CHART_LABELS: dict[str, str] = {
    "chart.title": "Score by round",
    "chart.round": "Round",
    "chart.points": "Points",
    "chart.winner": "Winner",
    "chart.split_title": "Where the points came from",
    "chart.part.shipping": "Shipping",
    "chart.part.buildings": "Buildings",
    "chart.part.bonuses": "Bonuses",
}
"""The chart's English words; the bot passes its translations as overrides."""

M = T.MARGIN
BAND_H = 52
AXIS_W = 70
"""Left of the plot: the points' labels."""
END_W = 76
"""Right of the plot: each line's final score."""
PLOT_H = 440
PAD = 14
"""Between the plot's edge and its data (a marker on the edge stays inside)."""
LINE_W = 4
WINNER_LINE_W = 6
MARKER_R = 9
MARKER_GAP = 34
"""Fewer markers (on the labelled rounds and the last point) when points are closer."""
END_GAP = 26
"""Vertical room of one final score at the end of the lines."""
MAX_TICKS = 20
TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)
MAX_GRID = 10
LEGEND_ROW_H = 46
NAME_LINE_H = 26
SWATCH_W = 48
BAR_H = 34
BAR_ROW_H = 46
BAR_NAME_W = 250
TOTAL_W = 64

MARKERS = ("circle", "square", "triangle", "diamond", "triangle_down", "cross")
"""Each seat's marker shape, by seat: seats are told apart by shape as well as colour."""


@dataclass(frozen=True)
class _History:
    rounds: list[float]
    totals: list[list[int]]
    split: list[list[tuple[str, int]]] | None
    winners: frozenset[int]
    seats: int

    @property
    def final(self) -> list[int]:
        return self.totals[-1]


def _read(history: Mapping[str, Any]) -> _History:
    """The history checked and squared: every point has every seat (missing scores are 0)."""
    totals = [[int(v) for v in row] for row in history.get("totals") or []]
    raw_split = history.get("split")
    split = (
        None
        if raw_split is None
        else [[(str(key), int(value)) for key, value in parts] for parts in raw_split]
    )
    seats = max([len(row) for row in totals] + [len(split or [])] + [0])
    if not totals:
        totals = [[0] * seats]
    totals = [row + [0] * (seats - len(row)) for row in totals]
    rounds = [float(r) for r in history.get("rounds") or []]
    if len(rounds) != len(totals):
        rounds = [float(k) for k in range(len(totals))]
    if split is not None:
        split = split + [[] for _ in range(seats - len(split))]
    winners = frozenset(int(w) for w in history.get("winners") or [])
    return _History(rounds, totals, split, winners, seats)


def part_label(labels: Labels, part: str) -> str:
    """The words for a part of the split: ``chart.part.<part>``, the id itself when it is a
    label id, the game's ``score.<part>``, else the id made readable ("royal_garden" ->
    "Royal garden")."""
    for key in (f"chart.part.{part}", part, f"score.{part}"):
        if labels.has(key) and "{" not in (text := labels(key)):
            return text
    text = labels(part.rsplit(".", 1)[-1])
    return text[:1].upper() + text[1:]


# --- scales -----------------------------------------------------------------------------------


def y_scale(low: int, high: int) -> tuple[int, int, int]:
    """(bottom, top, step) of the points axis: from 0 (or below the lowest score) to a round
    number above the highest score, with at most :data:`MAX_GRID` steps of 5, 10, 20..."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        bottom = min(0, math.floor(low / step) * step)
        top = (max(high, 0) // step + 1) * step
        if (top - bottom) // step <= MAX_GRID:
            return bottom, top, step
    step = 10 ** len(str(max(high - low, 1)))
    return min(0, math.floor(low / step) * step), (max(high, 0) // step + 1) * step, step


def x_ticks(low: float, high: float) -> list[int]:
    """The rounds labelled under the chart: every round, or every 2nd, 5th... so that there are
    at most :data:`MAX_TICKS` labels."""
    first, last = math.ceil(low), math.floor(high)
    for step in TICK_STEPS:
        ticks = [r for r in range(first, last + 1) if r % step == 0]
        if len(ticks) <= MAX_TICKS:
            return ticks
    step = TICK_STEPS[-1] * 10
    return [r for r in range(first, last + 1) if r % step == 0]


def spread(ys: Sequence[float], gap: int, top: int, bottom: int) -> list[int]:
    """``ys`` moved apart by at least ``gap`` (in their order, which must be ascending), kept
    between ``top`` and ``bottom`` when there is room; each moves as little as it can."""
    out = [round(y) for y in ys]
    for k in range(1, len(out)):
        out[k] = max(out[k], out[k - 1] + gap)
    if out and out[-1] > bottom:
        out[-1] = bottom
        for k in range(len(out) - 2, -1, -1):
            out[k] = min(out[k], out[k + 1] - gap)
    if out and out[0] < top:
        out[0] = top
        for k in range(1, len(out)):
            out[k] = max(out[k], out[k - 1] + gap)
    return out


# --- pieces -----------------------------------------------------------------------------------


def marker(
    sk: Sketch, seat: int, cx: int, cy: int, r: int, fill: T.Color, outline: T.Color = T.PANEL
) -> Box:
    """The seat's marker (its shape from :data:`MARKERS`) centred on ``(cx, cy)``."""
    kind = MARKERS[seat % len(MARKERS)]
    if kind == "circle":
        return sk.circle(cx, cy, r, fill, outline, 2)
    if kind == "square":
        s = r * 7 // 8
        return sk.rect(Box(cx - s, cy - s, 2 * s, 2 * s), fill, outline, 2, radius=2)
    if kind == "cross":
        a, b = r, r * 2 // 5
        points = [
            (cx - b, cy - a),
            (cx + b, cy - a),
            (cx + b, cy - b),
            (cx + a, cy - b),
            (cx + a, cy + b),
            (cx + b, cy + b),
            (cx + b, cy + a),
            (cx - b, cy + a),
            (cx - b, cy + b),
            (cx - a, cy + b),
            (cx - a, cy - b),
            (cx - b, cy - b),
        ]
    elif kind == "diamond":
        d = r * 6 // 5
        points = [(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]
    else:
        up = -1 if kind == "triangle" else 1
        tip, base, half = r * 6 // 5, r * 4 // 5, r * 6 // 5
        points = [(cx, cy + up * tip), (cx + half, cy - up * base), (cx - half, cy - up * base)]
    sk.polygon(points, fill, outline, 2)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _segment(
    sk: Sketch, a: tuple[int, int], b: tuple[int, int], width: int, color: T.Color
) -> None:
    """A thick line from ``a`` to ``b`` as a polygon (drawn smooth, unlike a plain line)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    size = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / size * width / 2, dx / size * width / 2
    points = [
        (round(a[0] + nx), round(a[1] + ny)),
        (round(b[0] + nx), round(b[1] + ny)),
        (round(b[0] - nx), round(b[1] - ny)),
        (round(a[0] - nx), round(a[1] - ny)),
    ]
    sk.polygon(points, color)


def _swatch(sk: Sketch, seat: int, x: int, cy: int, width: int = LINE_W) -> Box:
    """A short piece of the seat's line with its marker: the legend's key to the chart."""
    color = T.seat_color(seat)
    _segment(sk, (x + 2, cy), (x + SWATCH_W - 2, cy), width, color)
    marker(sk, seat, x + SWATCH_W // 2, cy, MARKER_R, color)
    return Box(x, cy - MARKER_R - 2, SWATCH_W, 2 * MARKER_R + 4)


def _order(data: _History) -> list[int]:
    """The seats in the legend's order: the winners, then by final score, then by seat."""
    return sorted(range(data.seats), key=lambda s: (s not in data.winners, -data.final[s], s))


def _one_or_more_lines(name: str, width: float) -> list[str]:
    """``name`` on one line when it fits, else broken as on the score sheet."""
    if fonts.length(name, T.TEXT_BODY, True) <= width:
        return [name]
    return name_lines(name, width)


# --- panels -----------------------------------------------------------------------------------


def _chart(sk: Sketch, y: int, data: _History, lb: Labels) -> int:
    """The line chart from ``y`` (the panel's top); returns the bottom of the plot's words."""
    plot = sk.region("plot", Box(M + AXIS_W, y + 44, T.INNER - AXIS_W - END_W, PLOT_H))
    inner = plot.grow(-PAD)
    lo_x, hi_x = min(data.rounds), max(data.rounds)
    scores = [v for row in data.totals for v in row]
    bottom, top, step = y_scale(min(scores, default=0), max(scores, default=0))

    def px(r: float) -> int:
        if hi_x <= lo_x:  # a single point: in the middle
            return inner.x + inner.w // 2
        return round(inner.x + (r - lo_x) / (hi_x - lo_x) * inner.w)

    def py(v: float) -> int:
        return round(inner.bottom - (v - bottom) / (top - bottom) * inner.h)

    sk.text(
        M + 14, y + 30, lb("chart.points"), size=T.TEXT_SMALL, fill=T.MUTED, max_width=AXIS_W + 200
    )
    for value in range(bottom, top + 1, step):
        gy = py(value)
        sk.line(
            [(plot.x, gy), (plot.right, gy)],
            T.BORDER if value == 0 else T.FAINT,
            2 if value == 0 else 1,
        )
        sk.text(plot.x - 10, gy, str(value), size=T.TEXT_SMALL, fill=T.MUTED, anchor="rm")
    ticks = x_ticks(lo_x, hi_x)
    for r in ticks:
        gx = px(r)
        sk.line([(gx, plot.y), (gx, plot.bottom)], T.FAINT, 1)
        sk.line([(gx, plot.bottom), (gx, plot.bottom + 6)], T.BORDER, 2)
        box = sk.text(gx, plot.bottom + 30, str(r), size=T.TEXT_SMALL, fill=T.MUTED, anchor="ms")
        sk.region(f"tick:{r}", box)
    sk.text(
        plot.x + plot.w // 2,
        plot.bottom + 62,
        lb("chart.round"),
        size=T.TEXT_SMALL,
        fill=T.MUTED,
        anchor="ms",
        max_width=plot.w,
    )

    xs = [px(r) for r in data.rounds]
    spacing = min((b - a for a, b in itertools.pairwise(xs)), default=inner.w)
    every = spacing >= MARKER_GAP
    marked = {k for k, r in enumerate(data.rounds) if every or r in ticks}
    marked.add(len(xs) - 1)
    # the winners last: on top
    for seat in sorted(range(data.seats), key=lambda s: (s in data.winners, -s)):
        won = seat in data.winners
        color = T.seat_color(seat)
        width = WINNER_LINE_W if won else LINE_W
        r = MARKER_R + 1 if won else MARKER_R
        points = [(x, py(row[seat])) for x, row in zip(xs, data.totals, strict=True)]
        for a, b in itertools.pairwise(points):
            _segment(sk, a, b, width, color)
        boxes = []
        for k, (x, gy) in enumerate(points):
            if k in marked:
                boxes.append(marker(sk, seat, x, gy, r, color))
            elif k > 0:
                sk.circle(x, gy, width // 2, color)
        left, right = min(b.x for b in boxes), max(b.right for b in boxes)
        up = min(*(b.y for b in boxes), *(p[1] - width for p in points))
        down = max(*(b.bottom for b in boxes), *(p[1] + width for p in points))
        sk.region(f"line:{seat}", Box(left, up, right - left, down - up))

    # the final scores at the lines' ends, moved apart where they would touch
    ends = sorted(range(data.seats), key=lambda s: (-data.final[s], s))
    wanted = [py(data.final[s]) for s in ends]
    placed = spread(wanted, END_GAP, plot.y + END_GAP // 2, plot.bottom - END_GAP // 2)
    ex = xs[-1] + MARKER_R + 8
    for seat, want, at in zip(ends, wanted, placed, strict=True):
        color = T.seat_color(seat)
        if abs(at - want) > 4:
            sk.line([(xs[-1] + MARKER_R + 1, want), (ex - 1, at)], color, 2)
        box = sk.text(
            ex + 2,
            at,
            str(data.final[seat]),
            size=T.TEXT_KEY,
            bold=True,
            fill=color,
            anchor="lm",
            key=True,
        )
        sk.region(f"end:{seat}", box)
    return plot.bottom + 76


def _legend(sk: Sketch, y: int, data: _History, who: list[str], lb: Labels) -> int:
    """One row per seat from ``y``: swatch, name, final score, the winners' rows gold.
    Returns the bottom of the last row."""
    x, w = M + 8, T.INNER - 16
    word = fonts.fit_weight(lb("chart.winner"), T.TEXT_SMALL, 220 - 16)[0]
    pill_w = int(fonts.length(word, T.TEXT_SMALL, True)) + 16 if data.winners else 0
    score_w = max((int(fonts.length(str(v), T.TEXT_HEADING, True)) for v in data.final), default=0)
    name_x = x + 14 + SWATCH_W + 16
    name_w = (x + w - 16 - score_w - 16 - pill_w - 16) - name_x
    for seat in _order(data):
        lines = _one_or_more_lines(who[seat], name_w)
        h = max(LEGEND_ROW_H, 18 + NAME_LINE_H * len(lines))
        row = sk.region(f"legend:{seat}", Box(x, y, w, h))
        cy = y + h // 2
        won = seat in data.winners
        if won:
            sk.rect(row, T.WINNER, T.GOLD_DARK, 2, radius=8)
        _swatch(sk, seat, x + 14, cy, WINNER_LINE_W if won else LINE_W)
        first = cy - NAME_LINE_H * (len(lines) - 1) // 2
        for k, line in enumerate(lines):
            sk.text(
                name_x,
                first + NAME_LINE_H * k,
                line,
                size=T.TEXT_BODY,
                bold=True,
                fill=T.INK,
                anchor="lm",
                max_width=name_w,
            )
        score = sk.text(
            row.right - 16,
            cy,
            str(data.final[seat]),
            size=T.TEXT_HEADING,
            bold=True,
            fill=T.INK,
            anchor="rm",
            key=True,
        )
        if won:
            W.pill(
                sk,
                score.x - 16 - (score_w - score.w),
                cy,
                word,
                T.GOLD,
                T.INK,
                max_width=pill_w,
                align="right",
            )
        y += h + 4
    return y - 4


def _split(
    sk: Sketch,
    y: int,
    data: _History,
    split: list[list[tuple[str, int]]],
    who: list[str],
    lb: Labels,
) -> int:
    """The split panel from ``y``; returns its bottom."""
    parts: list[str] = []
    for seat_parts in split:
        parts.extend(key for key, _ in seat_parts if key not in parts)
    colors = {key: T.PART_COLORS[k % len(T.PART_COLORS)] for k, key in enumerate(parts)}
    negative = {key for seat_parts in split for key, v in seat_parts if v < 0}
    totals = [sum(v for _, v in seat_parts) for seat_parts in split]
    widest = max([sum(abs(v) for _, v in seat_parts) for seat_parts in split] + [1])
    bar_x = M + 16 + BAR_NAME_W + 16
    bar_w = M + T.INNER - 16 - TOTAL_W - bar_x
    scale = bar_w / widest

    sk.text(
        M + 16,
        y + 36,
        lb("chart.split_title"),
        size=T.TEXT_HEADING,
        bold=True,
        fill=T.INK,
        max_width=T.INNER - 32,
    )
    y += 52
    for seat in _order(data):
        # the whole name, on more lines when it needs them (the row grows)
        lines = _one_or_more_lines(who[seat], BAR_NAME_W - SWATCH_W - 12)
        row_h = max(BAR_ROW_H, 18 + NAME_LINE_H * len(lines))
        cy = y + row_h // 2
        _swatch(sk, seat, M + 14, cy, WINNER_LINE_W if seat in data.winners else LINE_W)
        first = cy - NAME_LINE_H * (len(lines) - 1) // 2
        for k, line in enumerate(lines):
            sk.text(
                M + 14 + SWATCH_W + 12,
                first + NAME_LINE_H * k,
                line,
                size=T.TEXT_BODY,
                bold=True,
                fill=T.INK,
                anchor="lm",
                max_width=BAR_NAME_W - SWATCH_W - 12,
            )
        by = cy - BAR_H // 2
        done = 0
        x = bar_x
        for key, value in split[seat]:
            done += abs(value)
            end = bar_x + round(done * scale)
            if end > x:
                fill, ink = colors[key]
                seg = sk.region(f"bar:{seat}:{key}", Box(x, by, end - x, BAR_H))
                last = done == sum(abs(v) for _, v in split[seat])
                if value < 0:  # points given back: a hollow box, its number signed
                    sk.rect(Box(seg.x, seg.y + 3, seg.w - (0 if last else 2), seg.h - 6),
                            T.PANEL, fill, 3)
                    ink = T.INK
                else:
                    sk.rect(Box(seg.x, seg.y, seg.w - (0 if last else 2), seg.h), fill)
                text = str(value) if value >= 0 else f"\u2212{-value}"
                if fonts.length(text, T.TEXT_SMALL, True) + 10 <= seg.w - 2:
                    sk.text(
                        seg.x + (seg.w - 2) // 2,
                        cy,
                        text,
                        size=T.TEXT_SMALL,
                        bold=True,
                        fill=ink,
                        anchor="mm",
                    )
            x = end
        sk.region(f"bar:{seat}", Box(bar_x, by, x - bar_x, BAR_H))
        sk.text(
            x + 10,
            cy,
            str(totals[seat]),
            size=T.TEXT_KEY,
            bold=True,
            fill=T.INK,
            anchor="lm",
            key=True,
        )
        y += row_h
    # the key: a swatch and the part's name, flowing from left to right
    y += 8
    kx, line_h = M + 16, 34
    for key in parts:
        text = fonts.fit(part_label(lb, key), T.TEXT_SMALL, False, T.INNER - 80)
        width = 22 + 8 + int(fonts.length(text, T.TEXT_SMALL)) + 24
        if kx + width > M + T.INNER - 16 and kx > M + 16:
            kx, y = M + 16, y + line_h
        fill, _ = colors[key]
        if key in negative:  # hollow, as on the bars
            sk.rect(Box(kx, y + 5, 22, 22), T.PANEL, fill, 3, radius=4)
        else:
            sk.rect(Box(kx, y + 5, 22, 22), fill, T.INK, 1, radius=4)
        sk.text(kx + 30, y + 16, text, size=T.TEXT_SMALL, fill=T.INK, anchor="lm")
        kx += width
    y += line_h + 8
    return y


def _under(sk: Sketch, start: int, box: Box) -> None:
    """A panel behind the shapes drawn since ``start`` (its height known only now)."""
    sk.dynamic.insert(start, Rect(box, T.PANEL, T.BORDER, 2, 10))


def layout_chart(
    history: Mapping[str, Any],
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The chart's scene for ``history`` (see the module docstring); ``names``: display names
    by seat (default "Seat 1"...); ``labels``: overrides of :data:`CHART_LABELS` (or a ready
    :class:`Labels`)."""
    data = _read(history)
    lb = as_labels(labels, CHART_LABELS)
    who = seat_names(data.seats, names, lb)
    sk = Sketch(T.WIDTH, T.BACKGROUND)
    y = M
    band = sk.region("title", Box(M, y, T.INNER, BAND_H))
    sk.rect(band, T.BAND, radius=10)
    sk.text(
        M + 18,
        y + 37,
        lb("chart.title"),
        size=T.TEXT_TITLE,
        bold=True,
        fill=T.BAND_TEXT,
        max_width=T.INNER - 36,
    )
    top = y + BAND_H + T.GAP
    start = len(sk.dynamic)
    y = _legend(sk, _chart(sk, top, data, lb), data, who, lb) + 14
    _under(sk, start, Box(M, top, T.INNER, y - top))
    y += T.GAP
    if data.split is not None:
        start = len(sk.dynamic)
        bottom = _split(sk, y, data, data.split, who, lb)
        _under(sk, start, sk.region("split", Box(M, y, T.INNER, bottom - y)))
        y = bottom + T.GAP
    return sk.scene(y + M - T.GAP)


def render_chart(
    history: Mapping[str, Any],
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> bytes:
    """PNG of the end-of-game chart (see :func:`layout_chart`)."""
    return render_png(layout_chart(history, names=names, labels=labels))
