"""Puerto Rico's rows on the score sheet (the sheet itself is :mod:`render.scoresheet`); with
Puertomas (1897), their own parts of the score and, when the sheet is drawn from the finished
view (not only its outcome), each Puertoma's panel under the sheet: its properties, skills,
VP area and Reserve token at the end (:mod:`.puertoma`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import ScoreLineJSON

from .. import theme as T
from ..scene import Scene, Sketch
from ..scoresheet import layout_sheet
from . import puertoma
from .context import Table, puerto_rico_view
from .labels import Labels, as_labels, seat_names
from .players import layout_panel

LARGE_BUILDINGS = ("guild_hall", "residence", "fortress", "customs_house", "city_hall")


CHIP_BUILDINGS = ("harbor", "church", "chapel", "hunting_lodge", "royal_supplier", "union_hall")
"""The buildings that give VP chips during play (a source of the chart's split each, under the
building's name), in the order the split shows them."""
CHIP_SOURCES = ("plunder", "festival", "festival_activity", "puertoma_skill")
"""The other sources of VP chips (the chart's ``vp_<source>`` parts: ``score.vp_<source>``)."""
SPENT = "black_market"
"""The VP chip given back at the Black Market (a negative part, last)."""


def score_split(breakdown: Mapping[str, int], gains: Mapping[str, int] | None = None
                ) -> list[tuple[str, int]]:
    """A final score as the chart's bar shows it: the VP chips by why they were taken
    (``gains``: ``engine.story``'s sources; shipping first, a load on the Wharf or the Captain's
    privilege included, then each building that gives chips by its name, then the plunder,
    the Festival...; a chip given back at the Black Market last, negative), the buildings'
    printed VP, and every bonus (the large buildings', the nobles'...).  Chips that ``gains``
    does not explain (all of them when it is not given) are one part, the VP chips."""
    chips = int(breakdown.get("chips", 0))
    buildings = int(breakdown.get("buildings", 0))
    bonuses = sum(int(v) for k, v in breakdown.items() if k not in ("chips", "buildings"))
    sources = {k: int(v) for k, v in (gains or {}).items() if int(v)}
    parts = [] if gains is None else [("shipping", sources.pop("shipping", 0))]
    parts += [(f"building.{b}", sources.pop(b)) for b in CHIP_BUILDINGS if b in sources]
    parts += [(f"vp_{s}", sources.pop(s)) for s in CHIP_SOURCES if s in sources]
    spent = sources.pop(SPENT, 0)
    parts += sorted(sources.items())  # a source no list here names yet: its own id
    unexplained = chips - sum(v for _, v in parts) - spent
    if unexplained:
        parts.append(("chips", unexplained))
    parts += [("buildings", buildings), ("bonuses", bonuses)]
    if spent:
        parts.append((f"building.{SPENT}", spent))
    return parts


def score_parts(scores: Sequence[ScoreLineJSON], lb: Labels) -> list[tuple[str, str]]:
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
    notes = []
    if (outcome.get("puertoma") is not None and outcome.get("achievements") is not None
            and lb.has("score.achievements_vs_puertomas")):  # 1897 §8.13 with Exp. VI
        notes.append(lb("score.achievements_vs_puertomas"))
    sheet = layout_sheet(outcome, parts=score_parts, labels=lb, names=names, notes=notes)
    return _puertomas(sheet, outcome, lb, names)


def _puertomas(sheet: Scene, view: Mapping[str, Any], lb: Labels,
               names: Sequence[str] | Mapping[int, str] | None) -> Scene:
    """The sheet with each Puertoma's panel under it, as the table draws it (a finished view
    only: an outcome alone has no boards)."""
    seats = puertoma.seats(puerto_rico_view(view))  # an outcome alone has none
    players = view.get("players")
    if not seats or not isinstance(players, list):
        return sheet
    sk = Sketch(sheet.width, sheet.background)
    t = Table(view=puerto_rico_view(view), labels=lb, names=seat_names(len(players), names, lb),
              sk=sk, marks=frozenset())
    y = sheet.height - T.MARGIN + T.GAP
    for seat in seats:
        y = layout_panel(t, seat, y) + T.GAP
    # drawn whole, as the sheet is (one image per game: no static layer worth caching)
    return replace(sheet, height=y - T.GAP + T.MARGIN,
                   dynamic=(*sheet.dynamic, *sk.static, *sk.dynamic),
                   regions={**sheet.regions, **sk.regions})
