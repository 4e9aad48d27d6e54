"""Applying a legal action: the dispatch to the round (:mod:`.flow`) and the roles
(:mod:`.roles`), each of which moves the state on to the next decision.  A phase ends when every
seat has acted or been skipped, a round when every seat has chosen a role.
"""

from __future__ import annotations

from .actions import Action
from .data import CARDS, NKINDS
from .flow import chapel_decision, hand_limit_decision, may_draw, variant_keep_decision
from .ops import Events
from .roles import (
    build,
    builder_seat_done,
    choose_role,
    councillor_decision,
    gold_mine,
    gold_next,
    gold_take,
    pay,
    poor_house,
    produce,
    sell,
)
from .rules import privilege
from .state import (
    BUILDER,
    CHAPEL,
    COUNCILLOR,
    HAND_LIMIT,
    OVER,
    PHASE_NAMES,
    PRODUCER,
    PROSPECTOR,
    ROLE,
    STEP_CARPENTER,
    STEP_GOLD_MINE,
    STEP_MAIN,
    STEP_PAY,
    TRADER,
    State,
)

# --- applying an action ----------------------------------------------------------------------


def apply_unchecked(s: State, seat: int, action: Action, ev: Events = None) -> None:
    """Apply a legal action in place and move on to the next decision."""
    phase = s.phase
    if phase == ROLE:
        choose_role(s, seat, action, ev)
    elif phase == BUILDER:
        step = s.step
        if step == STEP_MAIN:
            build(s, seat, action, ev)
        elif step == STEP_PAY:
            pay(s, seat, action, ev)
        elif step == STEP_CARPENTER:
            may_draw(s, seat, action, "carpenter", 1, ev)
            poor_house(s, seat, ev)
        else:
            may_draw(s, seat, action, "poor_house", 1, ev)
            builder_seat_done(s, ev)
    elif phase == PRODUCER:
        produce(s, seat, action, ev)
    elif phase == TRADER:
        sell(s, seat, action, ev)
    elif phase == COUNCILLOR:
        councillor_decision(s, seat, action, ev)
    elif phase == PROSPECTOR:
        step = s.step
        if step == STEP_MAIN:
            may_draw(s, seat, action, "prospector", privilege(s, seat), ev)
            gold_next(s, ev)
        elif step == STEP_GOLD_MINE:
            gold_mine(s, seat, action, ev)
        else:
            gold_take(s, seat, action, ev)
    elif phase == CHAPEL:
        chapel_decision(s, seat, action, ev)
    elif phase == HAND_LIMIT:
        hand_limit_decision(s, seat, action, ev)
    else:
        variant_keep_decision(s, seat, action, ev)


assert len(CARDS) == NKINDS and PHASE_NAMES[OVER] == "over"
