"""Puerto Rico's rows on the score sheet (the sheet itself is :mod:`render.scoresheet`); with
Puertomas (1897), their own parts of the score and, when the sheet is drawn from the finished
view (not only its outcome), each Puertoma's panel under the sheet: its properties, skills,
VP area and Reserve token at the end (:mod:`.puertoma`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import theme as T
from ..scene import Scene, Sketch
from ..scoresheet import layout_sheet
from . import puertoma
from .context import Table
from .labels import Labels, as_labels, seat_names
from .players import layout_panel

LARGE_BUILDINGS = ("guild_hall", "residence", "fortress", "customs_house", "city_hall")


def score_split(breakdown: Mapping[str, int]) -> list[tuple[str, int]]:
    """A final score as the chart's bar shows it: shipping (the VP chips: the Captain's, the
    Harbor's, the Wharf's), the buildings' printed VP, and every bonus (the large buildings',
    the nobles'...)."""
    chips = int(breakdown.get("chips", 0))
    buildings = int(breakdown.get("buildings", 0))
    bonuses = sum(int(v) for k, v in breakdown.items() if k not in ("chips", "buildings"))
    return [("shipping", chips), ("buildings", buildings), ("bonuses", bonuses)]


def score_parts(scores: Sequence[Mapping[str, Any]], lb: Labels) -> list[tuple[str, str]]:
    """VP chips, building VP, then each large building's bonus that someone scored, then the
    other parts (Exp. 2: ``nobles``, ``royal_garden``), each under its own ``score.<part>``
    word where the labels have one, else as a building's bonus."""
    parts = {k for s in scores for k in s["breakdown"]}
    rows = [("chips", lb("score.chips")), ("buildings", lb("score.buildings"))]
    extra = [k for k in LARGE_BUILDINGS if k in parts]
    extra += sorted(parts - {"chips", "buildings", *LARGE_BUILDINGS, *puertoma.PARTS})
    extra += [k for k in puertoma.PARTS if k in parts]  # 1897's Puertoma, in the book's order
    rows += [(k, _part_word(lb, k)) for k in extra]
    return rows


def _part_word(lb: Labels, part: str) -> str:
    if part in puertoma.PARTS and lb.has(f"ui.puertoma.score.{part}"):
        return lb(f"ui.puertoma.score.{part}")
    if lb.has(f"score.{part}"):
        return lb(f"score.{part}")
    return lb("score.bonus", building=lb.building(part))


def layout_scoresheet(
    outcome: Mapping[str, Any],
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The score sheet of a finished Puerto Rico game (``outcome``: the outcome's JSON, or the
    finished view, which adds the Puertomas' panels)."""
    lb = as_labels(labels)
    sheet = layout_sheet(outcome, parts=score_parts, labels=lb, names=names)
    return _puertomas(sheet, outcome, lb, names)


def _puertomas(sheet: Scene, view: Mapping[str, Any], lb: Labels,
               names: Sequence[str] | Mapping[int, str] | None) -> Scene:
    """The sheet with each Puertoma's panel under it, as the table draws it (a finished view
    only: an outcome alone has no boards)."""
    seats = puertoma.seats(view)
    players = view.get("players")
    if not seats or not isinstance(players, list):
        return sheet
    sk = Sketch(sheet.width, sheet.background)
    t = Table(view=view, labels=lb, names=seat_names(len(players), names, lb), sk=sk,
              marks=frozenset())
    y = sheet.height - T.MARGIN + T.GAP
    for seat in seats:
        y = layout_panel(t, seat, y) + T.GAP
    # drawn whole, as the sheet is (one image per game: no static layer worth caching)
    return replace(sheet, height=y - T.GAP + T.MARGIN,
                   dynamic=(*sheet.dynamic, *sk.static, *sk.dynamic),
                   regions={**sheet.regions, **sk.regions})
