"""Small facts about a position that the rules use everywhere: which buildings work (§5.0),
privileges and capacities (§4), the hand limit (§3.3), build costs and what may pay (§4.1, A-3,
A-5, A-16) and the legal builds.  Section numbers (§) and rulings (A-n) refer to
``docs/rules/san-juan.md``.
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from . import actions as A
from .actions import Action
from .data import (
    AQUEDUCT,
    ARCHIVE,
    BLACK_MARKET,
    BLACK_MARKET_GOODS,
    COST,
    CRANE,
    END_BUILDINGS,
    GOOD_OF,
    HAND_LIMIT,
    IS_PRODUCTION,
    NGOODS,
    NKINDS,
    PREFECTURE,
    QUARRY,
    SMITHY,
    TILE_PRICES,
    TOWER,
    TOWER_HAND_LIMIT,
    TRADING_POST,
)
from .state import (
    Player,
    State,
)

# --- small facts about a player -------------------------------------------------------------


def active_index(p: Player, kind: int) -> int:
    """The area index of the violet ``kind`` when it is a top-level building whose function
    works (built before the builder phase now running, §5.0), else -1."""
    top = p.top
    if kind in top:
        i = top.index(kind)
        return -1 if i == p.fresh else i
    return -1


def has_active(p: Player, kind: int) -> bool:
    """``active_index(p, kind) >= 0``, in one call (the hottest test of the rules)."""
    top = p.top
    return kind in top and top.index(kind) != p.fresh


def tops(p: Player) -> list[int]:
    return p.top


def goods_count(p: Player) -> int:
    goods = p.goods
    return len(goods) - goods.count(-1)  # a good is a card kind (>= 0) or -1


def goods_by_good(p: Player) -> list[int]:
    """How many goods ``p`` has of each good (indigo..silver)."""
    out = [0] * NGOODS
    for top, good in zip(p.top, p.goods, strict=True):
        if good >= 0:
            out[GOOD_OF[top]] += 1
    return out


def empty_by_good(p: Player) -> list[int]:
    """How many empty production buildings ``p`` has of each good.  A-22: one built this round
    counts (production buildings have no function to activate)."""
    out = [0] * NGOODS
    for top, good in zip(p.top, p.goods, strict=True):
        if good < 0:
            made = GOOD_OF[top]
            if made >= 0:
                out[made] += 1
    return out


def has_empty(p: Player) -> bool:
    """``any(empty_by_good(p))``: an empty production building."""
    goods = p.goods
    if -1 not in goods:
        return False
    return any(good < 0 and IS_PRODUCTION[top] for top, good in zip(p.top, goods, strict=True))


def can_draw(s: State, count: int = 1) -> bool:
    return len(s.pile) + len(s.discard) >= count


def privilege(s: State, seat: int) -> int:
    """The chooser's privilege: 1, or 2 with the Library (§4, §5.17); 0 for the others."""
    if seat != s.chooser:
        return 0
    return 2 if s.library else 1


def hand_limit(p: Player) -> int:
    """§3.3 / §5.11: 7, or 12 with an active Tower."""
    top = p.top
    return TOWER_HAND_LIMIT if TOWER in top and top.index(TOWER) != p.fresh else HAND_LIMIT


def produce_capacity(s: State, seat: int) -> int:
    """§4.2: 1, +1 (+2 with the Library) for the producer, +1 with an active Aqueduct."""
    return 1 + privilege(s, seat) + (1 if has_active(s.players[seat], AQUEDUCT) else 0)


def sell_capacity(s: State, seat: int) -> int:
    """§4.3: 1, +1 (+2 with the Library) for the trader, +1 with an active Trading post."""
    return 1 + privilege(s, seat) + (1 if has_active(s.players[seat], TRADING_POST) else 0)


def councillor_draws(s: State, seat: int) -> int:
    """§4.4: 2, 5 for the councillor, 8 with the Library."""
    return 2 + 3 * privilege(s, seat)


def councillor_keeps(s: State, seat: int) -> int:
    """§4.4, §5.14: 1 of the drawn cards is kept; 2 with an active Prefecture."""
    top, fresh = s.players[seat].top, s.players[seat].fresh
    return 2 if PREFECTURE in top and top.index(PREFECTURE) != fresh else 1


def councillor_rule(s: State, seat: int) -> tuple[bool, int]:
    """(Archive mode, count): without an active Archive the seat keeps ``count`` of its drawn
    cards; with one it discards ``count`` cards from its hand and drawn cards together
    (§4.4, §5.3, §5.14).  With no more drawn cards than it may keep, both come to keeping them
    all, which is the keep form."""
    p = s.players[seat]
    top, fresh = p.top, p.fresh
    keep = councillor_keeps(s, seat)
    drawn = len(p.drawn)
    if drawn > keep and ARCHIVE in top and top.index(ARCHIVE) != fresh:
        return True, drawn - keep
    return False, min(keep, drawn)


def prices(s: State) -> tuple[int, ...]:
    return TILE_PRICES[s.face_up]


def clockwise(s: State, first: int) -> list[int]:
    n = s.n
    return [(first + i) % n for i in range(n)]


def simultaneous_start(s: State) -> int:
    """Simultaneous steps list their seats clockwise from the chooser (role phases) or the
    Governor (round start, variant): the order A-12 would use, and the simulator's."""
    return s.chooser if s.chooser >= 0 else s.governor


# --- build costs (§4.1) ------------------------------------------------------------------------


def build_cost(s: State, seat: int, kind: int, target: int) -> int:
    """c = max(0, cost - privilege - Smithy - Quarry - Crane) for ``kind`` built by ``seat``,
    over the stack ``target`` (-1: a new place).  A-5: a building being covered contributes
    nothing to its own replacement; A-16: the Crane reduces by the printed cost of the top card
    covered."""
    p = s.players[seat]
    value = COST[kind] - privilege(s, seat)
    if IS_PRODUCTION[kind]:
        i = active_index(p, SMITHY)
        if i >= 0 and i != target:
            value -= 1
    else:
        i = active_index(p, QUARRY)
        if i >= 0 and i != target:
            value -= 1
    if target >= 0:
        value -= COST[p.top[target]]
    return value if value > 0 else 0


def payable_goods(p: Player, target: int) -> int:
    """How many goods may pay for a build over ``target`` (A-3): up to 2 with an active Black
    market that is not being covered, never the good on the building being covered."""
    top = p.top
    if BLACK_MARKET not in top:
        return 0
    i = top.index(BLACK_MARKET)
    if i in (p.fresh, target):
        return 0
    goods = p.goods
    count = len(goods) - goods.count(-1)
    if 0 <= target < len(goods) and goods[target] >= 0:
        count -= 1
    return min(BLACK_MARKET_GOODS, count)


def build_options(s: State, seat: int) -> list[Action]:
    """Every legal build (L1–L4 of §4.1) and ``pass``.  Ruling A-14: never over a building of
    the same name; D-07: one top-level copy of each violet kind.  The same arithmetic as
    :func:`build_cost` and :func:`payable_goods`, hoisted out of the loops (a hot path; the
    tests compare the two)."""
    p = s.players[seat]
    hand = p.hand
    top_kinds = p.top
    fresh = p.fresh
    crane = top_kinds.index(CRANE) if CRANE in top_kinds else -1
    smithy = top_kinds.index(SMITHY) if SMITHY in top_kinds else -1
    quarry = top_kinds.index(QUARRY) if QUARRY in top_kinds else -1
    market = top_kinds.index(BLACK_MARKET) if BLACK_MARKET in top_kinds else -1
    if fresh >= 0:  # the building placed in this builder phase does not work yet (§5.0)
        crane = -1 if crane == fresh else crane
        smithy = -1 if smithy == fresh else smithy
        quarry = -1 if quarry == fresh else quarry
        market = -1 if market == fresh else market
    goods = p.goods
    held = len(goods) - goods.count(-1)
    budget = sum(hand) - 1  # the cards left once the one built is placed
    chosen = 0 if seat != s.chooser else 2 if s.library else 1  # privilege(s, seat)
    costs = NEW_PLACE_COST[chosen][smithy >= 0][quarry >= 0]
    limit = budget + (min(BLACK_MARKET_GOODS, held) if market >= 0 else 0)
    if crane < 0:  # new places only (the usual case): one comprehension, same order
        out = [
            BUILD_ACTIONS[kind]
            for kind in compress(KINDS, hand)
            if costs[kind] <= limit and (IS_PRODUCTION[kind] or kind not in top_kinds)  # L2
        ]
        out.append(A.PASS_ACTION)
        return out
    # with the Crane: what each stack that may be covered offers, the card kind aside
    targets = []
    for target, top in enumerate(top_kinds):
        if top == CRANE:  # L3
            continue
        if market < 0 or market == target:
            extra = 0
        else:
            extra = min(BLACK_MARKET_GOODS, held - (1 if goods[target] >= 0 else 0))
        targets.append((target, top, COST[top], budget + extra))
    base = COST_AFTER_PRIVILEGE[chosen]
    out = []
    for kind in compress(KINDS, hand):
        if IS_PRODUCTION[kind]:
            reducer = smithy
        elif kind in top_kinds:
            continue  # L2
        else:
            reducer = quarry
        if costs[kind] <= limit:
            out.append(BUILD_ACTIONS[kind])
        printed = base[kind]
        over = BUILD_OVER[kind]
        for target, top, covered, room in targets:
            if top == kind:  # L3, A-14
                continue
            if printed - covered - (1 if 0 <= reducer != target else 0) <= room:
                out.append(over[target] if target < _OVER else A.build_over(kind, target))
    out.append(A.PASS_ACTION)
    return out


# printed cost minus the Builder privilege (0, 1 or 2), by card kind (may go below 0: compared
# with a budget, never paid)
COST_AFTER_PRIVILEGE: Final = tuple(tuple(c - privilege for c in COST) for privilege in range(3))
# NEW_PLACE_COST[privilege][smithy][quarry][kind]: the same, less 1 for an active Smithy
# (production kinds) or Quarry (violet kinds), for a build in a new place
NEW_PLACE_COST: Final = tuple(
    tuple(
        tuple(
            tuple(
                c - (1 if (smithy if IS_PRODUCTION[k] else quarry) else 0)
                for k, c in enumerate(base)
            )
            for quarry in (False, True)
        )
        for smithy in (False, True)
    )
    for base in COST_AFTER_PRIVILEGE
)
KINDS: Final = range(NKINDS)
BUILD_ACTIONS: Final = A.BUILD_ACTIONS
# BUILD_OVER[kind][target]: ``A.build_over(kind, target)`` for every area index a game reaches
_OVER: Final = END_BUILDINGS + 2
BUILD_OVER: Final = tuple(tuple(A.build_over(k, t) for t in range(_OVER)) for k in range(NKINDS))
