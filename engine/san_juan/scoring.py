"""Final scoring (§6.2) and the tie-break (§6.3).

A score's breakdown names its parts: ``buildings`` (printed VP of the top-level buildings),
``chapel`` (cards under the Chapel, covered Chapels included: A-10), then, for the cost-6
buildings the player owns, ``guild_hall``, ``city_hall``, ``triumphal_arch`` and, last,
``palace`` (a quarter of all the other points, rounded down).
"""

from __future__ import annotations

from typing import Final

from ..core import Outcome, ScoreLine
from .data import (
    CITY_HALL,
    GUILD_HALL,
    IS_PRODUCTION,
    MONUMENTS,
    PALACE,
    TRIUMPHAL_ARCH,
    TRIUMPHAL_ARCH_VP,
    VP,
)
from .state import Player, State

PARTS: Final = ("buildings", "chapel", "guild_hall", "city_hall", "triumphal_arch", "palace")


def score_parts(p: Player, chapel: bool = True) -> dict[str, int]:
    """The points of ``p`` as if the game ended now; ``chapel=False`` leaves the Chapel cards
    out (what the other players can see: A-10)."""
    top_kinds = [stack[-1] for stack in p.area]
    parts = {
        "buildings": sum(VP[k] for k in top_kinds),
        "chapel": len(p.chapel) if chapel else 0,
    }
    if GUILD_HALL in top_kinds:  # 2 VP per production building (seed; A-20)
        parts["guild_hall"] = 2 * sum(1 for k in top_kinds if IS_PRODUCTION[k])
    if CITY_HALL in top_kinds:  # 1 VP per violet building, itself included
        parts["city_hall"] = sum(1 for k in top_kinds if not IS_PRODUCTION[k])
    if TRIUMPHAL_ARCH in top_kinds:
        monuments = sum(1 for k in top_kinds if k in MONUMENTS)
        parts["triumphal_arch"] = TRIUMPHAL_ARCH_VP[min(monuments, 3)]
    if PALACE in top_kinds:  # scored last of all (§6.2 step 4)
        parts["palace"] = sum(parts.values()) // 4
    return parts


def tiebreak(p: Player) -> int:
    """§6.3: cards in hand plus goods on production buildings."""
    return sum(p.hand) + len(p.drawn) + sum(1 for g in p.goods if g >= 0)


def final_scores(s: State) -> Outcome:
    """Scores as if the game ended now."""
    rows = []
    for seat, p in enumerate(s.players):
        parts = score_parts(p)
        rows.append((seat, sum(parts.values()), parts, tiebreak(p)))
    keys = sorted({(total, tb) for _, total, _, tb in rows}, reverse=True)
    rank_of = {key: 1 + sum(1 for _, t, _, b in rows if (t, b) > key) for key in keys}
    scores = tuple(
        ScoreLine(seat, total, parts, tb, rank_of[(total, tb)]) for seat, total, parts, tb in rows
    )
    # still tied after the tie-break means a shared victory.
    winners = tuple(line.seat for line in scores if line.rank == 1)
    return Outcome(scores, winners, tuple(s.end_reasons))


def outcome(s: State) -> Outcome | None:
    if not s.over:
        return None
    return final_scores(s)
