"""A sensible San Juan player for AI seats: greedy, one decision at a time, explainable.

Every card has a *worth* for its holder: what building it would be (printed VP, what its
function still brings in the rounds left, a cost-6 building's formula as it stands) less what it
costs; a card that cannot be built any more is only money.  With that:

- a build takes the best worth for the money, and pays with the least worthy cards (goods
  count as money through the Black market);
- the Councillor keeps, the hand limit and the Archive discard, the Gold mine takes, by worth;
- the Chapel takes the least worthy card when it is worth less than its VP;
- production and sales take the most, the dearest first;
- a role is chosen by what it gives the chooser now (the builder's best build with the
  privilege, the goods it can produce or the cards it can sell for, a few cards drawn), the
  Library whenever it adds something.

It only ever plays legal actions: the multiset decisions (payment, keep, discard) are built
directly and checked with ``legality.is_legal`` (the same test as membership in the legal
actions, without listing thousands of them); ties are broken with its own seeded generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import Game
from ..policies import HEURISTICS, Policy
from ..rng import below, seed_state
from . import actions as A
from .data import (
    AQUEDUCT,
    ARCHIVE,
    BLACK_MARKET,
    CARPENTER,
    CHAPEL,
    CITY_HALL,
    COST,
    CRANE,
    GOLD_MINE,
    GOOD_OF,
    GUILD_HALL,
    IS_PRODUCTION,
    LIBRARY,
    MARKET_HALL,
    MARKET_STAND,
    MONUMENTS,
    NGOODS,
    NKINDS,
    PALACE,
    POOR_HOUSE,
    PREFECTURE,
    QUARRY,
    SMITHY,
    TILE_PRICES,
    TOWER,
    TRADING_POST,
    TRIUMPHAL_ARCH,
    TRIUMPHAL_ARCH_VP,
    VP,
    WELL,
)
from .legality import is_legal, prompt_kind
from .rules import (
    build_cost,
    councillor_rule,
    empty_by_good,
    goods_by_good,
    hand_limit,
    has_active,
    payable_goods,
)
from .state import State

# a sale's expected price per good over the five tiles (§2.4)
MEAN_PRICE = tuple(sum(TILE_PRICES[t][g] for t in TILE_PRICES) / 5 for g in range(NGOODS))
# what a function is worth over a whole game, roughly (§5)
FUNCTION = {
    SMITHY: 1.5,
    GOLD_MINE: 1.0,
    ARCHIVE: 1.0,
    POOR_HOUSE: 1.5,
    BLACK_MARKET: 1.5,
    TRADING_POST: 2.0,
    WELL: 2.0,
    MARKET_STAND: 2.0,
    CRANE: 0.5,
    CHAPEL: 3.0,
    TOWER: 1.0,
    AQUEDUCT: 2.5,
    CARPENTER: 3.0,
    PREFECTURE: 3.0,
    MARKET_HALL: 3.0,
    QUARRY: 3.0,
    LIBRARY: 4.0,
}
MONEY = 0.6  # a card's worth as money only


class SanJuanHeuristic:
    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = seed_state(seed)
        # while ``choose`` runs, the state does not change: what a building and a card are
        # worth to the seat deciding, and how far the game is, are worked out once per decision
        # (the playouts of the strong level spend most of their time here).  Outside a
        # decision (None) nothing is remembered.
        self._building: dict[int, float] | None = None
        self._card: dict[int, float] | None = None
        self._progress: float | None = None

    # --- the decision -------------------------------------------------------------------------

    def choose(self, game: Game[Any], state: Any, seat: int, legal: Sequence[Any]) -> Any:
        self._building, self._card, self._progress = {}, {}, None
        try:
            return self._choose(state, seat, legal)
        finally:
            self._building = self._card = self._progress = None

    def _choose(self, state: Any, seat: int, legal: Sequence[Any]) -> Any:
        s: State = state
        kind = prompt_kind(s)
        direct = self.direct(s, seat, kind)
        if direct is not None and is_legal(s, seat, direct):
            return direct
        best: list[A.Action] = []
        best_score = float("-inf")
        for action in legal:
            score = self.score(s, seat, action)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        self.rng, k = below(self.rng, len(best))
        return best[k]

    def direct(self, s: State, seat: int, kind: str) -> A.Action | None:
        """The multiset decisions, built directly (None: score the legal actions instead)."""
        p = s.players[seat]
        if kind == "pay":
            return self.payment(s, seat)
        if kind == "hand_limit":
            surplus = sum(p.hand) - hand_limit(p)
            return A.multi(A.DISCARD, self.least(s, seat, p.hand_cards(), surplus))
        if kind == "variant_keep":
            keep = self.most(s, seat, p.drawn, 4)
            return A.multi(A.KEEP, keep)
        if kind == "councillor":
            if not p.drawn and s.options.get("councillor_draw") != "at_once":
                return A.DRAW_ACTION  # a card kept never hurts (A-15 allows passing)
            archive, count = councillor_rule(s, seat)
            if archive:
                pool = p.hand_cards() + list(p.drawn)
                return A.multi(A.DISCARD, self.least(s, seat, pool, count))
            return A.multi(A.KEEP, self.most(s, seat, p.drawn, count))
        return None

    # --- what a card is worth ------------------------------------------------------------------

    def progress(self, s: State) -> float:
        """How far the game is: the most buildings anyone has, over 12."""
        if self._progress is not None:
            return self._progress
        value = min(1.0, max(len(p.area) for p in s.players) / 12)
        if self._building is not None:
            self._progress = value
        return value

    def building_worth(self, s: State, seat: int, k: int) -> float:
        """What building ``k`` brings its builder from now to the end (not counting its cost)."""
        memo = self._building
        if memo is None:
            return self._building_worth(s, seat, k)
        key = seat * NKINDS + k
        value = memo.get(key)
        if value is None:
            value = memo[key] = self._building_worth(s, seat, k)
        return value

    def _building_worth(self, s: State, seat: int, k: int) -> float:
        p = s.players[seat]
        rest = 1.0 - self.progress(s)
        top = p.top
        value = float(VP[k])
        if IS_PRODUCTION[k]:
            good = GOOD_OF[k]
            value += (0.6 + MEAN_PRICE[good]) * 3.0 * rest
            if has_active(p, SMITHY):
                value += 0.3
        elif k in FUNCTION:
            value += FUNCTION[k] * (rest + 0.2) * 1.5
        elif k == GUILD_HALL:
            value += 2 * (sum(1 for t in top if IS_PRODUCTION[t]) + 2 * rest)
        elif k == CITY_HALL:
            value += sum(1 for t in top if not IS_PRODUCTION[t]) + 1 + 3 * rest
        elif k == TRIUMPHAL_ARCH:
            value += TRIUMPHAL_ARCH_VP[min(3, sum(1 for t in top if t in MONUMENTS) + 1)]
        elif k == PALACE:
            value += (sum(VP[t] for t in top) + len(p.chapel)) / 4 + 2
        if k in MONUMENTS and TRIUMPHAL_ARCH in top:
            value += 2
        if not IS_PRODUCTION[k] and CITY_HALL in top:
            value += 1
        if IS_PRODUCTION[k] and GUILD_HALL in top:
            value += 2
        return value

    def card_worth(self, s: State, seat: int, k: int) -> float:
        """A card in the hand: the building it could become, or money."""
        memo = self._card
        if memo is None:
            return self._card_worth(s, seat, k)
        key = seat * NKINDS + k
        value = memo.get(key)
        if value is None:
            value = memo[key] = self._card_worth(s, seat, k)
        return value

    def _card_worth(self, s: State, seat: int, k: int) -> float:
        p = s.players[seat]
        if not IS_PRODUCTION[k] and k in p.top:
            return MONEY
        return max(MONEY, MONEY + 0.5 * (self.building_worth(s, seat, k) - 0.8 * COST[k]))

    def least(self, s: State, seat: int, cards: list[int], count: int) -> tuple[int, ...]:
        """The ``count`` least worthy of ``cards`` (a second copy of a kind is worth less)."""
        return tuple(sorted(self._ranked(s, seat, cards)[:count]))

    def most(self, s: State, seat: int, cards: list[int], count: int) -> tuple[int, ...]:
        ranked = self._ranked(s, seat, cards)
        return tuple(sorted(ranked[len(ranked) - count :])) if count else ()

    def _ranked(self, s: State, seat: int, cards: list[int]) -> list[int]:
        seen = [0] * NKINDS
        scored = []
        for k in sorted(cards):
            worth = self.card_worth(s, seat, k) if not seen[k] else MONEY
            seen[k] += 1
            scored.append((worth, k))
        scored.sort()
        return [k for _, k in scored]

    # --- payment -------------------------------------------------------------------------------

    def payment(self, s: State, seat: int) -> A.Action:
        """The cheapest ``b_cost`` items: hand cards by worth, goods (with the Black market,
        at most as many as allowed) by what they would sell for."""
        p = s.players[seat]
        items: list[tuple[float, int, int]] = []  # (worth, 0 card / 1 good, kind)
        seen = [0] * NKINDS
        for k in p.hand_cards():
            worth = self.card_worth(s, seat, k) if not seen[k] else MONEY
            seen[k] += 1
            items.append((worth, 0, k))
        allowed = payable_goods(p, -1)
        if allowed:
            held = goods_by_good(p)
            by_price = sorted((MEAN_PRICE[g], g) for g in range(NGOODS) for _ in range(held[g]))
            for price, g in by_price[:allowed]:
                items.append((price, 1, g))
        items.sort()
        chosen = items[: s.b_cost]
        cards = tuple(sorted(k for _, what, k in chosen if what == 0))
        paid_goods = tuple(sorted(k for _, what, k in chosen if what == 1))
        return A.multi(A.PAY, cards, paid_goods)

    # --- scoring the other decisions -----------------------------------------------------------

    def score(self, s: State, seat: int, a: A.Action) -> float:
        kind = a.kind
        if kind == A.ROLE:
            return self.role_value(s, seat, a.a, a.b == 1)
        if kind in (A.DRAW, A.REVEAL):
            return 1.0
        if kind == A.PASS:
            return 0.0
        if kind == A.BUILD:
            return self.build_value(s, seat, a.a, a.b)
        if kind == A.PRODUCE:
            return sum(0.5 + MEAN_PRICE[g] for g in a.goods)
        if kind == A.SELL:
            prices = TILE_PRICES[s.face_up]
            return sum(prices[g] + 0.1 for g in a.goods)
        if kind == A.TAKE:
            return self.card_worth(s, seat, a.a)
        if kind == A.CHAPEL:
            p = s.players[seat]
            worth = self.card_worth(s, seat, a.a)
            if p.hand[a.a] > 1 and not IS_PRODUCTION[a.a]:
                worth = min(worth, MONEY)
            return 1.0 - worth + (0.5 if sum(p.hand) > 4 else 0.0)
        return 0.0  # pragma: no cover - the multiset kinds are decided directly

    def build_value(self, s: State, seat: int, k: int, target: int) -> float:
        return self._build_value(s, seat, k, target, build_cost(s, seat, k, target))

    def _build_value(self, s: State, seat: int, k: int, target: int, cost: int) -> float:
        p = s.players[seat]
        value = self.building_worth(s, seat, k) - 0.8 * cost - self.card_worth(s, seat, k) * 0.3
        if target >= 0:
            old = p.top[target]
            value -= VP[old] + (FUNCTION.get(old, 0.0) + (1.0 if IS_PRODUCTION[old] else 0.0)) * (
                1.0 - self.progress(s)
            )
            if p.goods[target] >= 0:
                value -= 1.0
        if not s.pile and not s.discard:
            value += 5.0  # nothing left to draw: only building can still end the game
        return value + 1.0  # building brings the end nearer, and the builder is ahead

    def best_build(self, s: State, seat: int, privilege: int) -> float:
        """The best build value with ``privilege`` (0, 1 or 2) off the cost, or 0."""
        p = s.players[seat]
        limit = sum(p.hand) - 1 + payable_goods(p, -1)  # cards and goods beside the one built
        best = 0.0
        saved = s.chooser, s.library
        s.chooser, s.library = (seat, privilege == 2) if privilege else (-1, False)
        try:
            for k in range(NKINDS):
                if not p.hand[k] or (not IS_PRODUCTION[k] and k in p.top):
                    continue
                cost = build_cost(s, seat, k, -1)
                if cost <= limit:
                    best = max(best, self._build_value(s, seat, k, -1, cost))
        finally:
            s.chooser, s.library = saved
        return best

    def role_value(self, s: State, seat: int, role: int, library: bool) -> float:
        p = s.players[seat]
        extra = 2 if library else 1
        if role == 0:  # builder
            return self.best_build(s, seat, extra) + 0.8 * extra
        if role == 1:  # producer
            slots = empty_by_good(p)
            empty = sorted(
                (MEAN_PRICE[g] for g in range(NGOODS) for _ in range(slots[g])), reverse=True
            )
            cap = 1 + extra + (1 if has_active(p, AQUEDUCT) else 0)
            made = empty[:cap]
            value = sum(0.5 + v for v in made)
            if len(made) >= 2 and has_active(p, WELL):
                value += 1.0
            return value
        if role == 2:  # trader
            stock = goods_by_good(p)
            held = sorted(
                (MEAN_PRICE[g] for g in range(NGOODS) for _ in range(stock[g])), reverse=True
            )
            cap = 1 + extra + (1 if has_active(p, TRADING_POST) else 0)
            sold = held[:cap]
            value = sum(sold)
            if len(sold) >= 2 and has_active(p, MARKET_STAND):
                value += 1.0
            if sold and has_active(p, MARKET_HALL):
                value += 1.0
            return value + (0.3 if sold else -0.5)
        if role == 3:  # councillor
            value = 1.2 + 0.4 * extra
            if has_active(p, PREFECTURE):
                value += 0.8
            return value
        # prospector
        return 0.9 * extra


def _make(seed: int) -> Policy:
    return SanJuanHeuristic(seed)


HEURISTICS["san-juan"] = _make
