"""Final scoring (§7.2) and the tie-break."""

from __future__ import annotations

from ..core import Outcome, ScoreLine
from .actions import CATALOG
from .buildings import AUTOMATON
from .state import State


def score_breakdown(s: State, seat: int) -> dict[str, int]:
    """VP chips (paper included), printed building VP, and the bonus of every occupied large
    building under its own name (§7.2, §8.3); with Exp. 2 ``nobles``, 1 VP per noble (A54)."""
    p = s.players[seat]
    parts = {"chips": p.vp, "buildings": sum(CATALOG[b].vp for b in p.city)}
    for b, fn in s.rs.hooks["final_bonus"]:
        if p.bw[b] > 0:
            parts[CATALOG[b].name] = fn(s, seat)
    for _, fn in s.rs.hooks["final_scoring"]:  # a module's own end-game VP (Exp. 2 nobles)
        parts.update(fn(s, seat))
    if seat in s.rs.automata:  # 1897 PTM-SCR: a Puertoma's own final score
        parts.update(AUTOMATON["final_parts"](s, seat))
    return parts


def tiebreak(s: State, seat: int) -> int:
    """Doubloons plus barrels in the player's own windrose (§7.2, ruling A52)."""
    p = s.players[seat]
    return p.doubloons + sum(p.goods)


def outcome(s: State) -> Outcome | None:
    if not s.over:
        return None
    return final_scores(s)


def final_scores(s: State) -> Outcome:
    """Scores as if the game ended now (also used for live projections in tests)."""
    rows = []
    for seat in range(s.n):
        parts = score_breakdown(s, seat)
        rows.append((seat, sum(parts.values()), parts, tiebreak(s, seat)))
    keys = sorted({(total, tb) for _, total, _, tb in rows}, reverse=True)
    rank_of = {key: 1 + sum(1 for _, t, _, b in rows if (t, b) > key) for key in keys}
    scores = tuple(
        ScoreLine(seat, total, parts, tb, rank_of[(total, tb)]) for seat, total, parts, tb in rows
    )
    # Ruling A38: still tied after the tie-break means a shared victory.
    winners = tuple(line.seat for line in scores if line.rank == 1)
    return Outcome(scores, winners, tuple(s.end_reasons))
