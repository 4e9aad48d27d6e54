"""Puerto Rico's rows on the score sheet (the sheet itself is :mod:`render.scoresheet`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..scene import Scene
from ..scoresheet import layout_sheet
from .labels import Labels, as_labels

LARGE_BUILDINGS = ("guild_hall", "residence", "fortress", "customs_house", "city_hall")


def score_parts(scores: Sequence[Mapping[str, Any]], lb: Labels) -> list[tuple[str, str]]:
    """VP chips, building VP, then each large building's bonus that someone scored, then the
    other parts (Exp. 2: ``nobles``, ``royal_garden``), each under its own ``score.<part>``
    word where the labels have one, else as a building's bonus."""
    parts = {k for s in scores for k in s["breakdown"]}
    rows = [("chips", lb("score.chips")), ("buildings", lb("score.buildings"))]
    extra = [k for k in LARGE_BUILDINGS if k in parts]
    extra += sorted(parts - {"chips", "buildings", *LARGE_BUILDINGS})
    rows += [(k, _part_word(lb, k)) for k in extra]
    return rows


def _part_word(lb: Labels, part: str) -> str:
    if lb.has(f"score.{part}"):
        return lb(f"score.{part}")
    return lb("score.bonus", building=lb.building(part))


def layout_scoresheet(
    outcome: Mapping[str, Any],
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The score sheet of a finished Puerto Rico game."""
    return layout_sheet(outcome, parts=score_parts, labels=as_labels(labels), names=names)
