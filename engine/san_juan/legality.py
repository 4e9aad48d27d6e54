"""Who must decide what, and the legal actions: the one source of legality.

``apply`` refuses anything not in ``legal``; the bot builds its choices from it and the policies
choose from it.  ``check`` raises the specific error for an action that is not legal.  Section
numbers (§), rulings (A-n) and tests (S-n, D-n) refer to ``docs/rules/san-juan.md``.

Ruling (hidden information): whether a seat is prompted or skipped depends only on what every
player can see (hand sizes, buildings, goods, the piles), never on the kinds of cards in a hand:
a seat holding cards is asked to build even when none of them can be built (it may only pass),
and a payment is asked whenever more than one way of paying could exist.  Skipping a seat
because of its hand would tell the others what it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..core import GameOver, IllegalAction, NotYourTurn, Prompt
from . import actions as A
from .actions import Action
from .choices import Choices, MultisetActions, Multisets, counts_of, multiset_seq, multisets
from .data import (
    AQUEDUCT,
    CRANE,
    GOLD_MINE,
    GOLD_MINE_CARDS,
    IS_PRODUCTION,
    LIBRARY,
    NKINDS,
    ROLES,
    TRADING_POST,
    VARIANT_KEEP,
)
from .rules import (
    build_options,
    clockwise,
    councillor_rule,
    empty_by_good,
    goods_by_good,
    hand_limit,
    has_active,
    payable_goods,
    produce_capacity,
    sell_capacity,
    simultaneous_start,
    tops,
)
from .state import (
    BUILDER,
    CHAPEL,
    COUNCILLOR,
    OVER,
    PRODUCER,
    PROSPECTOR,
    ROLE,
    STEP_CARPENTER,
    STEP_GOLD_MINE,
    STEP_GOLD_TAKE,
    STEP_MAIN,
    STEP_PAY,
    STEP_POOR_HOUSE,
    TRADER,
    State,
)
from .state import (
    HAND_LIMIT as HAND_LIMIT_PHASE,
)
from .state import (
    VARIANT_KEEP as VARIANT_KEEP_PHASE,
)

# prompt kinds
P_VARIANT_KEEP: Final = "variant_keep"
P_CHAPEL: Final = "chapel"
P_HAND_LIMIT: Final = "hand_limit"
P_ROLE: Final = "role"
P_BUILD: Final = "build"
P_PAY: Final = "pay"
P_CARPENTER: Final = "carpenter"
P_POOR_HOUSE: Final = "poor_house"
P_PRODUCE: Final = "produce"
P_SELL: Final = "sell"
P_COUNCILLOR: Final = "councillor"
P_PROSPECTOR: Final = "prospector"
P_GOLD_MINE: Final = "gold_mine"
P_GOLD_TAKE: Final = "gold_mine_take"
PROMPT_KINDS: Final = (
    P_VARIANT_KEEP,
    P_CHAPEL,
    P_HAND_LIMIT,
    P_ROLE,
    P_BUILD,
    P_PAY,
    P_CARPENTER,
    P_POOR_HOUSE,
    P_PRODUCE,
    P_SELL,
    P_COUNCILLOR,
    P_PROSPECTOR,
    P_GOLD_MINE,
    P_GOLD_TAKE,
)

SIMULTANEOUS: Final = frozenset(
    {VARIANT_KEEP_PHASE, CHAPEL, HAND_LIMIT_PHASE, PRODUCER, TRADER, COUNCILLOR}
)
_SIMULTANEOUS_KIND: Final = {
    VARIANT_KEEP_PHASE: P_VARIANT_KEEP,
    CHAPEL: P_CHAPEL,
    HAND_LIMIT_PHASE: P_HAND_LIMIT,
    PRODUCER: P_PRODUCE,
    TRADER: P_SELL,
    COUNCILLOR: P_COUNCILLOR,
}
_BUILDER_KIND: Final = {
    STEP_MAIN: P_BUILD,
    STEP_PAY: P_PAY,
    STEP_CARPENTER: P_CARPENTER,
    STEP_POOR_HOUSE: P_POOR_HOUSE,
}
_PROSPECTOR_KIND: Final = {
    STEP_MAIN: P_PROSPECTOR,
    STEP_GOLD_MINE: P_GOLD_MINE,
    STEP_GOLD_TAKE: P_GOLD_TAKE,
}


def _pay_of(cards: Multisets, goods: list[tuple[int, ...]]) -> Callable[[int], Action]:
    width = len(cards)
    return lambda k: A.multi(A.PAY, cards[k % width], goods[k // width])


def pay_options(s: State, seat: int) -> Sequence[Action]:
    """The distinct ways to pay ``b_cost`` (E2 of §4.1): that many hand cards, up to 2 of them
    replaced by goods with an active Black market (A-3)."""
    p = s.players[seat]
    cost = s.b_cost
    hand = p.hand
    max_goods = min(payable_goods(p, -1), cost)
    if not max_goods:  # hand cards only (the block ``g = 0`` below, alone)
        return MultisetActions(A.PAY, Multisets(hand, cost))
    size = sum(hand)
    by_good = goods_by_good(p)
    out = Choices()
    for g in range(max(0, cost - size), max_goods + 1):
        cards = multiset_seq(hand, cost - g)
        goods: list[tuple[int, ...]] = multisets(by_good, g) if g else [()]
        out.add(len(cards) * len(goods), _pay_of(cards, goods))
    return out


def pay_needs_prompt(s: State, seat: int) -> bool:
    """A payment is asked unless, on what everybody sees, there is one way only: nothing to pay,
    or the whole hand with no good allowed."""
    cost = s.b_cost
    if cost == 0:
        return False
    p = s.players[seat]
    return cost != sum(p.hand) or payable_goods(p, -1) > 0


def goods_options(kind: int, counts: list[int], capacity: int) -> list[Action]:
    """Producing (``kind`` PRODUCE, ``counts`` the empty buildings by good) or selling (SELL,
    the goods held by good): every multiset of 1 to ``capacity`` goods, then ``pass``.  The
    lists are shared (cached by their arguments): never mutate one."""
    key = (kind, tuple(counts), capacity)
    out = _GOODS_CACHE.get(key)
    if out is None:
        out = []
        for size in range(1, min(capacity, sum(counts)) + 1):
            out.extend(A.multi(kind, goods=goods) for goods in multisets(counts, size))
        out.append(A.PASS_ACTION)
        if len(_GOODS_CACHE) > 20_000:
            _GOODS_CACHE.clear()
        _GOODS_CACHE[key] = out
    return out


_GOODS_CACHE: Final[dict[tuple[int, tuple[int, ...], int], list[Action]]] = {}


def produce_options(s: State, seat: int) -> list[Action]:
    """Every production the seat may make (§4.2; the list is shared: never mutate it)."""
    p = s.players[seat]
    top = p.top
    capacity = 1 + (0 if seat != s.chooser else 2 if s.library else 1)  # produce_capacity
    if AQUEDUCT in top and top.index(AQUEDUCT) != p.fresh:
        capacity += 1
    return goods_options(A.PRODUCE, empty_by_good(p), capacity)


def sell_options(s: State, seat: int) -> list[Action]:
    """Every sale the seat may make (§4.3; the list is shared: never mutate it)."""
    p = s.players[seat]
    top = p.top
    capacity = 1 + (0 if seat != s.chooser else 2 if s.library else 1)  # sell_capacity
    if TRADING_POST in top and top.index(TRADING_POST) != p.fresh:
        capacity += 1
    return goods_options(A.SELL, goods_by_good(p), capacity)


KEEP_ONE: Final = tuple(A.multi(A.KEEP, (k,)) for k in range(NKINDS))
# keep one of the drawn cards, by the sorted distinct kinds drawn (shared: never mutate one)
_KEEP_ONE_LISTS: Final[dict[tuple[int, ...], list[Action]]] = {}


DRAW_OR_PASS: Final = (A.DRAW_ACTION, A.PASS_ACTION)


def councillor_options(s: State, seat: int) -> Sequence[Action]:
    """A-7 / A-15: the Councillor's action may be declined, before any card is seen: ``draw``
    or ``pass``; having drawn, the seat keeps its number (``at_once``: every seat's cards were
    drawn when the phase started, so declining was keeping none of them)."""
    p = s.players[seat]
    at_once = s.options.get("councillor_draw") == "at_once"
    if not p.drawn and not at_once:
        return DRAW_OR_PASS
    last = A.PASS_ACTION if at_once else None
    archive, count = councillor_rule(s, seat)
    if archive:
        pool = p.hand[:]
        for card in p.drawn:
            pool[card] += 1
        seq = Multisets(pool, count)
        kind = A.DISCARD
    elif count == 1:  # the usual case: keep one of the drawn cards
        kinds = (*sorted(set(p.drawn)), at_once)
        found = _KEEP_ONE_LISTS.get(kinds)
        if found is None:
            if len(_KEEP_ONE_LISTS) > 20_000:
                _KEEP_ONE_LISTS.clear()
            keep = [KEEP_ONE[k] for k in kinds[:-1]]
            found = _KEEP_ONE_LISTS[kinds] = [*keep, A.PASS_ACTION] if at_once else keep
        return found
    else:
        seq = Multisets(counts_of(p.drawn, NKINDS), count)
        kind = A.KEEP
    return MultisetActions(kind, seq, last)


def role_options(s: State, seat: int) -> list[Action]:
    """The roles nobody chose this round (§3.1); the ``.lib`` form with an active Library not
    used this round (§5.17: in 2 players at most once per round; in 3 and 4 players every seat
    chooses once per round, so the same test is exact).  A-8: the Library is declared with the
    choice."""
    top = s.players[seat].top
    library = (
        LIBRARY in top
        and top.index(LIBRARY) != s.players[seat].fresh
        and not s.lib_used >> seat & 1
    )
    taken = tuple(s.taken)
    lists = _ROLES_BY_TAKEN.get(taken)
    if lists is None:
        free = tuple(role for role in range(len(ROLES)) if taken[role] < 0)
        lists = _ROLES_BY_TAKEN[taken] = (_ROLE_LISTS[False][free], _ROLE_LISTS[True][free])
    return lists[library]


def _role_list(free: tuple[int, ...], library: bool) -> list[Action]:
    out: list[Action] = []
    for role in free:
        plain, doubled = A.ROLE_ACTIONS[role]
        out.append(plain)
        if library:
            out.append(doubled)
    return out


# the role lists by Library and free roles (shared: never mutate one)
_ROLE_LISTS: Final = tuple(
    {
        free: _role_list(free, library)
        for free in (
            tuple(r for r in range(len(ROLES)) if mask >> r & 1) for mask in range(1 << len(ROLES))
        )
    }
    for library in (False, True)
)
# the same, by ``State.taken`` (who took each role: a seat or -1), filled as positions come
_ROLES_BY_TAKEN: Final[dict[tuple[int, ...], tuple[list[Action], list[Action]]]] = {}


def legal(s: State, seat: int) -> Sequence[Action]:
    """The legal actions of ``seat`` now (empty when it has nothing to decide)."""
    return _LEGAL[s.phase](s, seat)


# one function per phase (``_LEGAL[phase]``): the simulator calls ``legal`` once per action


def _pending(s: State, seat: int) -> bool:
    return 0 <= seat < s.n and s.pending[seat]


def _legal_over(s: State, seat: int) -> Sequence[Action]:
    return []


def _legal_role(s: State, seat: int) -> Sequence[Action]:
    return role_options(s, seat) if seat == s.turn else []


def _legal_builder(s: State, seat: int) -> Sequence[Action]:
    if seat != s.turn:
        return []
    step = s.step
    if step == STEP_MAIN:
        return build_options(s, seat)
    if step == STEP_PAY:
        return pay_options(s, seat)
    return [A.DRAW_ACTION, A.PASS_ACTION]  # Carpenter, Poor house


def _legal_prospector(s: State, seat: int) -> Sequence[Action]:
    if seat != s.turn:
        return []
    step = s.step
    if step == STEP_GOLD_MINE:
        return [A.REVEAL_ACTION, A.PASS_ACTION]
    if step == STEP_GOLD_TAKE:
        return [A.TAKE_ACTIONS[k] for k in sorted(set(s.gm_cards))]
    return [A.DRAW_ACTION, A.PASS_ACTION]


def _legal_producer(s: State, seat: int) -> Sequence[Action]:
    return produce_options(s, seat) if 0 <= seat < s.n and s.pending[seat] else []


def _legal_trader(s: State, seat: int) -> Sequence[Action]:
    return sell_options(s, seat) if 0 <= seat < s.n and s.pending[seat] else []


def _legal_councillor(s: State, seat: int) -> Sequence[Action]:
    return councillor_options(s, seat) if 0 <= seat < s.n and s.pending[seat] else []


def _legal_chapel(s: State, seat: int) -> Sequence[Action]:
    if not _pending(s, seat):
        return []
    hand = s.players[seat].hand
    out = [A.CHAPEL_ACTIONS[k] for k in range(NKINDS) if hand[k]]
    out.append(A.PASS_ACTION)
    return out


def _legal_hand_limit(s: State, seat: int) -> Sequence[Action]:
    if not _pending(s, seat):
        return []
    p = s.players[seat]
    return MultisetActions(A.DISCARD, Multisets(p.hand, sum(p.hand) - hand_limit(p)))


def _legal_variant_keep(s: State, seat: int) -> Sequence[Action]:
    """The variant start (§2.7): keep 4 of the cards drawn."""
    if not _pending(s, seat):
        return []
    drawn = counts_of(s.players[seat].drawn, NKINDS)
    return MultisetActions(A.KEEP, Multisets(drawn, VARIANT_KEEP))


_LEGAL_BY_PHASE: Final[dict[int, Callable[[State, int], Sequence[Action]]]] = {
    VARIANT_KEEP_PHASE: _legal_variant_keep,
    CHAPEL: _legal_chapel,
    HAND_LIMIT_PHASE: _legal_hand_limit,
    ROLE: _legal_role,
    BUILDER: _legal_builder,
    PRODUCER: _legal_producer,
    TRADER: _legal_trader,
    COUNCILLOR: _legal_councillor,
    PROSPECTOR: _legal_prospector,
    OVER: _legal_over,
}
_LEGAL: Final = tuple(_LEGAL_BY_PHASE[phase] for phase in range(len(_LEGAL_BY_PHASE)))


def prompt_kind(s: State) -> str:
    phase = s.phase
    if phase in SIMULTANEOUS:
        return _SIMULTANEOUS_KIND[phase]
    if phase == ROLE:
        return P_ROLE
    if phase == BUILDER:
        return _BUILDER_KIND[s.step]
    return _PROSPECTOR_KIND[s.step]


def prompt_seats(s: State) -> tuple[int, ...]:
    if s.phase in SIMULTANEOUS:
        pending = s.pending
        return tuple(i for i in clockwise(s, simultaneous_start(s)) if pending[i])
    return (s.turn,)


def actor(s: State) -> int:
    """The first seat the prompt names (-1 when the game is over): the simulation fast path."""
    phase = s.phase
    if phase == OVER:
        return -1
    if phase in SIMULTANEOUS:
        n = s.n
        first = simultaneous_start(s)
        pending = s.pending
        for i in range(n):
            seat = (first + i) % n
            if pending[seat]:
                return seat
        return -1  # pragma: no cover - a simultaneous step always has a pending seat
    return s.turn


# Ruling (hidden information): a prompt is public (the bot shows it and may play a forced
# decision by itself, in front of everyone), so ``forced`` is only ever set for decisions whose
# legal actions follow from what everybody sees.  A build, a payment, a keep or a discard that
# happens to have one legal action is not flagged: that would tell the table what the hand holds.
PUBLIC_KINDS: Final = frozenset(
    {P_ROLE, P_CARPENTER, P_POOR_HOUSE, P_PRODUCE, P_SELL, P_PROSPECTOR, P_GOLD_MINE, P_GOLD_TAKE}
)


def current_prompt(s: State) -> Prompt | None:
    if s.phase == OVER:
        return None
    seats = prompt_seats(s)
    kind = prompt_kind(s)
    forced = len(seats) == 1 and kind in PUBLIC_KINDS and len(legal(s, seats[0])) == 1
    return Prompt(seats, kind, forced)


# --- errors -------------------------------------------------------------------------------------

_PROMPT_ACTION_KINDS: Final[dict[str, frozenset[int]]] = {
    P_VARIANT_KEEP: frozenset({A.KEEP}),
    P_CHAPEL: frozenset({A.CHAPEL, A.PASS}),
    P_HAND_LIMIT: frozenset({A.DISCARD}),
    P_ROLE: frozenset({A.ROLE}),
    P_BUILD: frozenset({A.BUILD, A.PASS}),
    P_PAY: frozenset({A.PAY}),
    P_CARPENTER: frozenset({A.DRAW, A.PASS}),
    P_POOR_HOUSE: frozenset({A.DRAW, A.PASS}),
    P_PRODUCE: frozenset({A.PRODUCE, A.PASS}),
    P_SELL: frozenset({A.SELL, A.PASS}),
    P_COUNCILLOR: frozenset({A.DRAW, A.KEEP, A.DISCARD, A.PASS}),
    P_PROSPECTOR: frozenset({A.DRAW, A.PASS}),
    P_GOLD_MINE: frozenset({A.REVEAL, A.PASS}),
    P_GOLD_TAKE: frozenset({A.TAKE}),
}


def check(s: State, seat: int, action: Action) -> None:
    """Raise the specific error when ``action`` is not legal for ``seat`` now."""
    if s.phase == OVER:
        raise GameOver()
    seats = prompt_seats(s)
    if not isinstance(seat, int) or seat not in seats:
        raise NotYourTurn(seat=seat, expected=list(seats))
    if is_legal(s, seat, action):
        return
    kind = prompt_kind(s)
    if action.kind not in _PROMPT_ACTION_KINDS[kind]:
        raise IllegalAction("wrong_decision", action=action.code, expected=kind)
    raise IllegalAction(explain(s, seat, action), action=action.code)


def _within(items: tuple[int, ...], counts: Sequence[int]) -> bool:
    """Whether the sorted multiset ``items`` fits in ``counts`` (a count per item)."""
    i = 0
    size = len(items)
    while i < size:
        item = items[i]
        j = i + 1
        while j < size and items[j] == item:
            j += 1
        if not 0 <= item < len(counts) or counts[item] < j - i:
            return False
        i = j
    return True


def is_legal(s: State, seat: int, action: Action) -> bool:
    """``action in legal(s, seat)`` for a seat the prompt names, without listing every multiset
    (a payment, a keep or a discard can have thousands): the same conditions, checked
    directly.  The property tests compare the two on random positions."""
    kind = action.kind
    phase = s.phase
    p = s.players[seat]
    if kind == A.PAY:
        if phase != BUILDER or s.step != STEP_PAY:
            return False
        goods = action.goods
        return (
            len(action.cards) + len(goods) == s.b_cost
            and _within(action.cards, p.hand)
            and len(goods) <= payable_goods(p, -1)
            and _within(goods, goods_by_good(p))
        )
    if kind == A.PRODUCE:
        goods = action.goods
        return (
            phase == PRODUCER
            and 0 < len(goods) <= produce_capacity(s, seat)
            and _within(goods, empty_by_good(p))
        )
    if kind == A.SELL:
        goods = action.goods
        return (
            phase == TRADER
            and 0 < len(goods) <= sell_capacity(s, seat)
            and _within(goods, goods_by_good(p))
        )
    if kind == A.KEEP:
        cards = action.cards
        drawn = counts_of(p.drawn, NKINDS)
        if phase == VARIANT_KEEP_PHASE:
            return len(cards) == VARIANT_KEEP and _within(cards, drawn)
        if phase != COUNCILLOR or not p.drawn:  # nothing drawn: the draw or pass first
            return False
        archive, count = councillor_rule(s, seat)
        return not archive and len(cards) == count and _within(cards, drawn)
    if kind == A.DISCARD:
        cards = action.cards
        if phase == HAND_LIMIT_PHASE:
            return len(cards) == sum(p.hand) - hand_limit(p) and _within(cards, p.hand)
        if phase != COUNCILLOR or not p.drawn:
            return False
        archive, count = councillor_rule(s, seat)
        pool = [h + d for h, d in zip(p.hand, counts_of(p.drawn, NKINDS), strict=True)]
        return archive and len(cards) == count and _within(cards, pool)
    return action in legal(s, seat)


def _not_in(cards: Sequence[int], counts: Sequence[int]) -> bool:
    need = counts_of(cards, len(counts))
    return any(n > c for n, c in zip(need, counts, strict=True))


def explain(s: State, seat: int, action: Action) -> str:
    """A machine-readable reason why a well-typed action is illegal."""
    p = s.players[seat]
    kind = action.kind
    if kind == A.ROLE:
        if s.taken[action.a] >= 0:
            return "role_taken"
        if not has_active(p, LIBRARY):
            return "no_library"
        return "library_used_this_round"
    if kind == A.BUILD:
        card, target = action.a, action.b
        if not p.hand[card]:
            return "card_not_in_hand"
        if not IS_PRODUCTION[card] and card in tops(p):
            return "already_built"
        if target >= 0:
            if not has_active(p, CRANE):
                return "no_crane"
            if target >= len(p.area):
                return "no_such_building"
            top = p.area[target][-1]
            if top == CRANE:
                return "cannot_cover_crane"
            if top == card:
                return "same_building"
        return "cannot_pay"
    if kind == A.PAY:
        if len(action.cards) + len(action.goods) != s.b_cost:
            return "wrong_amount"
        if _not_in(action.cards, p.hand):
            return "card_not_in_hand"
        if action.goods and payable_goods(p, -1) < len(action.goods):
            return "goods_not_allowed"
        return "no_such_good"
    if kind == A.PRODUCE:
        if len(action.goods) > produce_capacity(s, seat):
            return "over_capacity"
        return "no_empty_building"
    if kind == A.SELL:
        if len(action.goods) > sell_capacity(s, seat):
            return "over_capacity"
        return "no_such_good"
    if s.phase == COUNCILLOR and kind in (A.KEEP, A.DISCARD, A.DRAW, A.PASS):
        if not p.drawn:
            return "draw_first"  # a keep or discard before the draw or pass
        if kind in (A.DRAW, A.PASS):
            return "already_drawn"  # the cards are seen: the seat keeps its number
    if kind == A.KEEP:
        if s.phase == COUNCILLOR and councillor_rule(s, seat)[0]:
            return "must_discard"
        return "keep_not_allowed"
    if kind == A.DISCARD:
        if s.phase == COUNCILLOR and not councillor_rule(s, seat)[0]:
            return "must_keep"
        return "discard_not_allowed"
    if kind == A.CHAPEL:
        return "card_not_in_hand"
    if kind == A.TAKE:
        return "card_not_revealed"
    if kind == A.PASS:
        return "cannot_pass"
    return "illegal_now"


assert GOLD_MINE >= 0 and GOLD_MINE_CARDS == 4 and PROSPECTOR == 8
