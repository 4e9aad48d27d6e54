"""What the rules conserve and the shape every reachable state has.  Used by ``simulate --check``,
the property tests and ``load`` (a corrupted save fails these).

The 110 cards are all somewhere, kind by kind: hands, draw pile, discard pile, buildings (covered
ones included), goods, Chapel cards, drawn-but-undecided cards and the Gold mine's face-up cards.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final

from .data import (
    COPIES,
    COST,
    END_BUILDINGS,
    GOLD_MINE_CARDS,
    IS_PRODUCTION,
    LIBRARY,
    NKINDS,
    TILES,
)
from .legality import SIMULTANEOUS, current_prompt, legal
from .state import (
    BUILDER,
    CHAPEL,
    COUNCILLOR,
    HAND_LIMIT,
    OVER,
    PHASE_NAMES,
    PROSPECTOR,
    ROLE,
    ROLE_PHASES,
    STEP_CARPENTER,
    STEP_GOLD_MINE,
    STEP_GOLD_TAKE,
    STEP_MAIN,
    STEP_PAY,
    STEP_POOR_HOUSE,
    TRADER,
    VARIANT_KEEP,
    State,
)

_STEPS: Final = {
    BUILDER: (STEP_MAIN, STEP_PAY, STEP_CARPENTER, STEP_POOR_HOUSE),
    PROSPECTOR: (STEP_MAIN, STEP_GOLD_MINE, STEP_GOLD_TAKE),
}
MASK_RNG: Final = (1 << 64) - 1


def card_counts(s: State) -> list[int]:
    """Cards of each kind, wherever they are."""
    out = [0] * NKINDS
    for where in (s.pile, s.discard, s.gm_cards):
        for c in where:
            out[c] += 1
    for p in s.players:
        for k in range(NKINDS):
            out[k] += p.hand[k]
        for stack in p.area:
            for c in stack:
                out[c] += 1
        for c in p.goods:
            if c >= 0:
                out[c] += 1
        for where in (p.chapel, p.drawn):
            for c in where:
                out[c] += 1
    return out


def invariant_failures(s: State) -> list[str]:
    """Every broken invariant: conservation of the cards, nothing negative, structure in range.
    Empty for every reachable state."""
    out: list[str] = []
    n = s.n
    if not 2 <= n <= 4 or len(s.players) != n or len(s.pending) != n:
        return ["players"]
    if any(v < 0 for p in s.players for v in p.hand):
        return ["negative_hand"]
    got = card_counts(s)
    for kind in range(NKINDS):
        if got[kind] != COPIES[kind]:
            out.append(f"conservation:{kind}:{got[kind]}!={COPIES[kind]}")
    phase = s.phase
    if phase not in PHASE_NAMES:
        return [*out, "phase"]
    if s.step not in _STEPS.get(phase, (STEP_MAIN,)):
        out.append("step")
    if not 0 <= s.governor < n or not 0 <= s.turn < n or not -1 <= s.chooser < n:
        out.append("seat_range")
    if not 0 <= s.rng <= MASK_RNG or s.round < 1 or s.reveals < 0:
        out.append("counters")
    if not 0 <= s.acted < 1 << n or not 0 <= s.lib_used < 1 << n or not 0 <= s.waiting < 1 << n:
        out.append("bitmasks")
    out.extend(_councillor(s))
    out.extend(_roles(s))
    out.extend(_tiles(s))
    for seat, p in enumerate(s.players):
        if not p.area or len(p.goods) != len(p.area):
            out.append(f"player:{seat}:area")
            continue
        top_kinds = [stack[-1] for stack in p.area]
        if p.top != top_kinds:
            out.append(f"player:{seat}:top")
        violets = [k for k in top_kinds if not IS_PRODUCTION[k]]
        if len(violets) != len(set(violets)):
            out.append(f"player:{seat}:violet_twice")
        for i, good in enumerate(p.goods):
            if good >= 0 and not IS_PRODUCTION[top_kinds[i]]:
                out.append(f"player:{seat}:good_on_violet")
        for stack in p.area:
            if any(a == b for a, b in pairwise(stack)):
                out.append(f"player:{seat}:same_over_same")
        if not -1 <= p.fresh < len(p.area) or (p.fresh >= 0 and phase != BUILDER):
            out.append(f"player:{seat}:fresh")
        if p.drawn and phase not in (COUNCILLOR, VARIANT_KEEP):
            out.append(f"player:{seat}:drawn")
        if len(p.area) > END_BUILDINGS + 1 or (
            len(p.area) >= END_BUILDINGS and phase not in (BUILDER, OVER)
        ):
            out.append(f"player:{seat}:buildings")
    if phase in SIMULTANEOUS:
        if not any(s.pending):
            out.append("no_pending_seat")
    elif any(s.pending):
        out.append("pending_outside_simultaneous_step")
    if phase == VARIANT_KEEP and (not s.variant or s.round != 1):
        out.append("variant")
    if s.gm_cards and (
        phase != PROSPECTOR
        or s.step != STEP_GOLD_TAKE
        or len(s.gm_cards) != GOLD_MINE_CARDS
        or len({COST[c] for c in s.gm_cards}) != GOLD_MINE_CARDS
    ):
        out.append("gold_mine_cards")
    if phase == PROSPECTOR and s.step == STEP_GOLD_TAKE and not s.gm_cards:
        out.append("gold_mine_cards")
    out.extend(_builder(s))
    if not out and phase != OVER:
        out.extend(_playable(s))
    return out


def _councillor(s: State) -> list[str]:
    """§4.4: drawn cards belong to a seat still to keep; a seat waiting for its draw (dealt in
    the clockwise order, ``councillor_draw: clockwise``) is neither prompted nor holding cards;
    with ``at_once`` every prompted seat holds the cards drawn at the start."""
    if s.phase != COUNCILLOR:
        return ["councillor_waiting"] if s.waiting else []
    at_once = s.options.get("councillor_draw") == "at_once"
    if at_once and s.waiting:
        return ["councillor_waiting"]
    for seat, p in enumerate(s.players):
        waiting = s.waiting >> seat & 1
        if (p.drawn and not s.pending[seat]) or (waiting and (p.drawn or s.pending[seat])):
            return ["councillor_seat"]
        if at_once and s.pending[seat] and not p.drawn:
            return ["councillor_seat"]
    return []


def _roles(s: State) -> list[str]:
    out: list[str] = []
    n = s.n
    phase = s.phase
    if len(s.taken) != 5 or any(not -1 <= t < n for t in s.taken):
        return ["roles"]
    taken = sum(1 for t in s.taken if t >= 0)
    per_round = 3 if n == 2 else n
    if taken != s.picks or not 0 <= s.picks <= per_round:
        out.append("picks")
    if phase in ROLE_PHASES:
        if (
            not 0 <= s.role < 5
            or ROLE_PHASES[s.role] != phase
            or not 0 <= s.chooser < n
            or s.taken[s.role] != s.chooser
        ):
            out.append("phase_role")
        elif s.library and (
            # the chooser may have covered his Library in the builder phase he chose
            not any(LIBRARY in stack for stack in s.players[s.chooser].area)
            or not s.lib_used >> s.chooser & 1
        ):
            out.append("library")
    elif s.role != -1 or s.chooser != -1 or s.library:
        out.append("phase_role")
    if phase in (VARIANT_KEEP, CHAPEL, HAND_LIMIT) and s.picks:
        out.append("picks")
    if phase == ROLE and (s.picks >= per_round or s.turn != (s.governor + s.picks) % n):
        out.append("role_turn")
    if n == 2 and any(s.taken[r] == (s.governor + 1) % 2 for r in range(5)) and s.picks == 1:
        out.append("two_player_order")
    return out


def _tiles(s: State) -> list[str]:
    """The five tiles: face down in a fixed cycle, one face up during a trader phase; the
    revealed ones are the bottom of the stack in the order revealed."""
    cycle = [*s.tiles, s.face_up] if s.face_up else list(s.tiles)
    if sorted(cycle) != list(TILES) or (s.face_up != 0) != (s.phase == TRADER):
        return ["tiles"]
    revealed = s.revealed
    if len(set(revealed)) != len(revealed) or any(t not in TILES for t in revealed):
        return ["tiles_revealed"]
    if s.face_up and s.face_up not in revealed:
        return ["tiles_revealed"]
    k = len(revealed)
    if k < len(TILES):
        if k and cycle[len(cycle) - k :] != revealed:
            return ["tiles_order"]
    else:
        start = cycle.index(revealed[0])
        if cycle[start:] + cycle[:start] != revealed:
            return ["tiles_order"]
    return []


def _builder(s: State) -> list[str]:
    out: list[str] = []
    if s.phase == BUILDER:
        if not 0 <= s.turns < s.n or s.turn != (s.chooser + s.turns) % s.n:
            out.append("builder_turn")
        p = s.players[s.turn]
        if s.step == STEP_MAIN:
            if p.fresh >= 0 or s.b_kind != -1:
                out.append("builder_step")
        elif (
            p.fresh < 0
            or s.b_kind != p.area[p.fresh][-1]
            or not -1 <= s.b_target < len(p.area)
            or (s.b_target >= 0 and s.b_target != p.fresh)
            or (s.b_target < 0 and p.fresh != len(p.area) - 1)
            or (s.b_target >= 0 and len(p.area[p.fresh]) < 2)
            or not 0 <= s.b_cost <= COST[s.b_kind]
        ):
            out.append("builder_context")
        for seat, other in enumerate(s.players):
            if seat != s.turn and other.fresh >= 0 and (seat - s.chooser) % s.n > s.turns:
                out.append("builder_fresh")
    elif s.b_kind != -1 or s.b_target != -1 or s.b_cost != 0:
        out.append("builder_context")
    if s.phase == PROSPECTOR and s.step != STEP_MAIN:
        if not 1 <= s.turns <= s.n or s.turn != (s.chooser + s.turns - 1) % s.n:
            out.append("gold_mine_turn")
    elif s.phase == PROSPECTOR and s.turn != s.chooser:
        out.append("prospector_turn")
    return out


def _playable(s: State) -> list[str]:
    """A state that is not over must prompt at least one seat, each with a legal action."""
    try:
        prompt = current_prompt(s)
        if prompt is None or not prompt.seats:
            return ["no_prompt"]
        if any(not legal(s, seat) for seat in prompt.seats):
            return ["prompted_seat_without_action"]
    except (IndexError, KeyError, ValueError, AssertionError, TypeError):
        return ["unplayable"]
    return []
