"""The strong AI level: determinized Monte Carlo search over the engine's fast path.

For every game of the registry, with nothing game-specific but the game's heuristic policy: each
playout starts from ``game.determinize(state, seat, k)``, so the search never reads what its
seat cannot see; the candidates race by sequential halving on the same deals; the heuristic's
own choice stays unless another does better by more than ``CONFIDENCE`` standard errors; a
playout is worth the seat's share of the victory plus a capped margin; the budget counts engine
actions, not seconds, so a choice is the same on any machine.  Why each, and the figures behind
``MARGIN_WEIGHT``: docs/engine.md, "The strong AI".

A person's ``/game hint`` is not this ranking (its value and anchor are fit to play a move, not
to be read as figures): :mod:`engine.advice` races the same playouts and ranks by what it shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .core import Game, get_game
from .policies import HEURISTICS, Policy, RandomPolicy, make_policy
from .rng import MASK64, below, next_u64, seed_state

DEFAULT_BUDGET = 14_000  # engine actions per decision (playouts included): p95 under a second
MARGIN_WEIGHT = 0.1
MARGIN_CAP = 10
SAFETY = 0.0  # how much better than the rollout policy's own choice a departure must do...
CONFIDENCE = 1.0  # ...beyond this many standard errors of the paired difference
MAX_PLAYOUT_ACTIONS = 20_000  # the simulator's bound: a playout that reaches it counts as a loss


class Playout(NamedTuple):
    """One playout's result for the searching seat: the engine actions it applied, the seat's
    share of the victory (1 alone, 1/k shared, 0), its final margin over the best other player
    and its final score."""

    actions: int
    share: float
    margin: float
    score: float


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal action as the search saw it: its playouts, the seat's mean share of the
    victory in them, and its mean final margin over the best other player (in points)."""

    action: Any
    playouts: int
    win_rate: float
    margin: float
    score: float

    @property
    def value(self) -> float:
        return self.win_rate + MARGIN_WEIGHT * max(-MARGIN_CAP, min(MARGIN_CAP, self.margin))


@dataclass(frozen=True, slots=True)
class Analysis:
    """The search's view of a decision: every candidate, the best first (the ones eliminated
    early follow, in the order they fell), and the engine actions the playouts applied."""

    candidates: tuple[Candidate, ...]
    actions: int

    @property
    def best(self) -> Any:
        return self.candidates[0].action


class _Tally:
    __slots__ = ("by_deal", "margin", "n", "score", "wins")

    def __init__(self) -> None:
        self.wins = 0.0
        self.margin = 0.0
        self.score = 0.0
        self.n = 0
        self.by_deal: dict[int, float] = {}
        """Each playout's value by its deal (to compare two candidates on the same deals)."""

    def add(self, deal: int, share: float, margin: float, score: float) -> None:
        self.n += 1
        self.wins += share
        self.margin += margin
        self.score += score
        self.by_deal[deal] = share + MARGIN_WEIGHT * max(-MARGIN_CAP, min(MARGIN_CAP, margin))

    def value(self) -> float:
        if not self.n:
            return float("-inf")
        margin = max(-MARGIN_CAP, min(MARGIN_CAP, self.margin / self.n))
        return self.wins / self.n + MARGIN_WEIGHT * margin


def _surely_better(challenger: _Tally, anchor: _Tally) -> bool:
    """Whether ``challenger`` did better than ``anchor`` on the deals both were played on, by
    more than ``CONFIDENCE`` standard errors of the mean difference (paired: the same deals, so
    the luck of the cards cancels out)."""
    common = [d for d in challenger.by_deal if d in anchor.by_deal]
    n = len(common)
    if n < 2:
        return False
    diffs = [challenger.by_deal[d] - anchor.by_deal[d] for d in common]
    mean = sum(diffs) / n
    variance = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean > SAFETY + CONFIDENCE * math.sqrt(variance / n)


def _rollout_factory(game_name: str) -> Callable[[int], Policy]:
    if game_name not in HEURISTICS:
        try:
            make_policy("heuristic", game_name, 0)  # imports the game, which registers it
        except ValueError:
            return RandomPolicy
    factory = HEURISTICS.get(game_name)
    return RandomPolicy if factory is None else factory


def mix(seed: int, *parts: int) -> int:
    """A 63-bit seed derived from ``seed`` and ``parts`` (SplitMix64 steps)."""
    state = seed_state(seed)
    for part in parts:
        state = (state ^ (part & MASK64)) & MASK64
        state, _ = next_u64(state)
    return state >> 1


class Search:
    """The search for one game: ``analyse`` a decision, ``choose`` its best action."""

    def __init__(self, game: Game[Any], budget: int = DEFAULT_BUDGET) -> None:
        if budget < 1:
            raise ValueError("the budget is at least one engine action")
        self.game = game
        self.budget = budget
        self.rollout = _rollout_factory(game.name)
        self._apply = getattr(game, "apply_fast", None)
        self._actor = getattr(game, "actor", None)
        self._legal = getattr(game, "legal_fast", game.legal_actions)

    def analyse(self, state: Any, seat: int, legal: Sequence[Any], seed: int) -> Analysis:
        """Every candidate of ``legal`` (the seat's legal actions in ``state``) with its
        playouts' figures, the best first.  Reads ``state`` only through ``determinize``."""
        if not legal:
            raise ValueError("no legal action to choose from")
        tallies = [_Tally() for _ in legal]
        if len(legal) == 1:
            return Analysis((self._candidate(legal[0], tallies[0]),), 0)
        # the rollout policy's own choice (on a deal of the hidden part: it must not see it
        # either) stays in the race to the end: the search departs from it only for a
        # candidate that did better on the same deals
        anchor = self.anchor(state, seat, legal, seed)
        # the anchor's first playout measures how long a playout is from here; the race then
        # takes as many candidates as the budget can play at least once a round (about two
        # playouts each over the rounds of halving): the anchor and a sample, by the seed, of
        # the others.  A decision among very many actions (San Juan's discards) otherwise
        # spends many budgets on one playout each.
        first = self._playout(state, seat, legal[anchor], mix(seed, 0), tallies[anchor])
        spent = first
        alive = self.entrants(len(legal), anchor, max(2, self.budget // (2 * first)), seed)
        unplayed = [c for c in range(len(legal)) if c not in alive]
        fallen: list[int] = []
        rounds = max(1, math.ceil(math.log2(len(alive))))
        deal = 0
        for r in range(rounds):
            share = max(1, (self.budget - spent) // ((rounds - r) * len(alive)))
            # the same deals for every candidate of the round: a fair comparison
            used = dict.fromkeys(alive, 0)
            if r == 0:
                used[anchor] = first  # its playout on deal 0
            while True:
                for c in alive:
                    if used[c] < share and not (deal == 0 and c == anchor):
                        n = self._playout(state, seat, legal[c], mix(seed, deal), tallies[c])
                        used[c] += n
                        spent += n
                deal += 1
                if all(used[c] >= share for c in alive):
                    break
            if r == rounds - 1:
                break
            ranked = sorted(alive, key=lambda c: (-tallies[c].value(), c))
            keep = ranked[: (len(ranked) + 1) // 2]
            if anchor not in keep:
                keep.append(anchor)
            fallen[:0] = [c for c in ranked if c not in keep]
            alive = keep
        order = sorted(alive, key=lambda c: (-tallies[c].value(), c))
        if order[0] != anchor and not _surely_better(tallies[order[0]], tallies[anchor]):
            order.remove(anchor)
            order.insert(0, anchor)
        return Analysis(
            tuple(self._candidate(legal[c], tallies[c]) for c in order + fallen + unplayed),
            spent,
        )

    @staticmethod
    def entrants(count: int, anchor: int, limit: int, seed: int) -> list[int]:
        """The candidates of the race (indices, in order): every one of ``count`` when there
        are at most ``limit``, else the anchor and ``limit - 1`` others drawn by ``seed``."""
        if count <= limit:
            return list(range(count))
        others = [c for c in range(count) if c != anchor]
        rng = seed_state(mix(seed, -3))
        for i in range(limit - 1):  # a partial Fisher-Yates shuffle
            rng, k = below(rng, len(others) - i)
            others[i], others[i + k] = others[i + k], others[i]
        return sorted([anchor, *others[: limit - 1]])

    def anchor(self, state: Any, seat: int, legal: Sequence[Any], seed: int) -> int:
        """The index in ``legal`` of the rollout policy's choice, on a deal for ``seat``."""
        s = self.game.determinize(state, seat, mix(seed, -1))
        choice = self.rollout(mix(seed, -2)).choose(self.game, s, seat, list(legal))
        code = self.game.encode_action(choice)
        codes = [self.game.encode_action(a) for a in legal]
        return codes.index(code) if code in codes else 0

    def choose(self, state: Any, seat: int, legal: Sequence[Any], seed: int) -> Any:
        if len(legal) == 1:
            return legal[0]
        return self.analyse(state, seat, legal, seed).best

    @staticmethod
    def _candidate(action: Any, t: _Tally) -> Candidate:
        n = t.n or 1
        return Candidate(action, t.n, t.wins / n, t.margin / n, t.score / n)

    def _playout(self, state: Any, seat: int, action: Any, deal: int, tally: _Tally) -> int:
        """One playout (:meth:`playout`) added to ``tally``; returns the actions applied."""
        result = self.playout(state, seat, action, deal)
        tally.add(deal, result.share, result.margin, result.score)
        return result.actions

    def playout(self, state: Any, seat: int, action: Any, deal: int) -> Playout:
        """One game played out from ``state`` after ``action``: the hidden part dealt again by
        ``deal``, every seat then playing the rollout policy.  Reads ``state`` only through
        ``determinize``."""
        game = self.game
        s = game.determinize(state, seat, deal)
        s = self._step(s, seat, action)
        n = 1
        players = game.players(s)
        policies = [self.rollout(mix(deal, 1 + p)) for p in range(players)]
        legal_of = self._legal
        while n < MAX_PLAYOUT_ACTIONS:
            actor = self._current(s)
            if actor < 0:
                break
            legal = legal_of(s, actor)
            s = self._step(s, actor, policies[actor].choose(game, s, actor, legal))
            n += 1
        outcome = game.outcome(s)
        if outcome is None:  # the action bound: no result, the worst value
            return Playout(n, 0.0, -MARGIN_CAP, 0.0)
        scores = outcome.scores
        share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
        mine = scores[seat].total
        best_other = max((x.total for x in scores if x.seat != seat), default=mine)
        return Playout(n, share, mine - best_other, mine)

    def _step(self, s: Any, seat: int, action: Any) -> Any:
        if self._apply is not None:
            self._apply(s, seat, action)
            return s
        return self.game.apply(s, seat, action)[0]

    def _current(self, s: Any) -> int:
        if self._actor is not None:
            return int(self._actor(s))
        prompt = self.game.prompt(s)
        return -1 if prompt is None else prompt.seats[0]


class StrongPolicy:
    """The ``strong`` AI level as a policy: ``Search`` seeded from the policy's seed and the
    number of decisions it has taken."""

    name = "strong"

    def __init__(self, game_name: str, seed: int, budget: int = DEFAULT_BUDGET) -> None:
        self.search = Search(get_game(game_name), budget)
        self.seed = seed
        self.decisions = 0

    def choose(self, game: Game[Any], state: Any, seat: int, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        return self.analyse(state, seat, legal).best

    def analyse(self, state: Any, seat: int, legal: Sequence[Any]) -> Analysis:
        """The next decision's search (a real choice: the policy counts it)."""
        self.decisions += 1
        return self.search.analyse(state, seat, legal, mix(self.seed, self.decisions))
