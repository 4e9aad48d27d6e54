"""San Juan's rows on the score sheet (the sheet itself is :mod:`render.scoresheet`): the
printed VP of the buildings, the Chapel's cards, then each cost-6 building's bonus that someone
scored (the Palace last, as it is scored); the tie-break is cards in hand + goods."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import ScoreLineJSON

from ..scene import Scene
from ..scoresheet import layout_sheet
from .labels import Labels, as_labels

COST6 = ("guild_hall", "city_hall", "triumphal_arch", "palace")
FIRST = ("buildings", "chapel")


def score_parts(scores: Sequence[ScoreLineJSON], lb: Labels) -> list[tuple[str, str]]:
    """Building VP and Chapel cards, then each cost-6 bonus someone scored, then any part a
    newer engine adds (by its id)."""
    parts = {k for s in scores for k in s["breakdown"]}
    rows = [("buildings", lb("score.buildings")), ("chapel", lb("score.chapel"))]
    rows += [(k, lb("score.bonus", building=lb(f"card.{k}"))) for k in COST6 if k in parts]
    rows += [(k, lb(f"score.{k}")) for k in sorted(parts - {*FIRST, *COST6})]
    return rows


def layout_scoresheet(
    outcome: Mapping[str, Any],
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The score sheet of a finished San Juan game."""
    return layout_sheet(outcome, parts=score_parts, labels=as_labels(labels), names=names)
