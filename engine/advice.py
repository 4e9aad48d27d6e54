"""Advice on one decision (``/game hint``): the best few choices, ranked by the figure shown.

The strong AI's move (:meth:`engine.search.Search.analyse`) ranks by a value that mixes the win
rate with the final margin, keeps the heuristic's choice first unless another one is surely
better, and leaves the candidates eliminated early with a few playouts each: fit to play a move,
but its win rates read in its order look backwards ("59%" first, "66%" second).  A person asking
for advice reads figures, so the advice is its own race:

* **Ranked by what is shown.**  Each choice's figure is the percentage of the playouts the seat
  wins (a shared victory counts its share); the choices are ranked by that percentage as shown
  (rounded), then by the average final margin over the best other player (shown too), then by
  their order among the legal actions.  The figures read down in order, always.
* **Compared on the same deals.**  Sequential halving with common random numbers, as the move's
  search, but by whole deals: every choice still in the race plays every deal of a round, so
  the choices left at the end (``keep`` of them) were played out on exactly the same deals and
  their figures compare like for like.  The rollout policy's own choice is always an entrant;
  among very many legal actions (San Juan's discards) the others are a sample drawn by the seed.
* **How sure.**  Each figure carries its 95% margin of error, and each choice a
  :class:`Confidence`: the first against the second, every other one against the first, from
  the paired difference on their common deals of the statistic that ordered them (the win share;
  the margin where the percentages are equal): ``CLEAR`` beyond 1.96 standard errors, ``LIKELY``
  beyond one, else ``EVEN`` (always ``EVEN`` below ``MIN_PLAYOUTS``).
* **Enough work or nothing.**  A figure from a handful of playouts means nothing: below
  ``MIN_PLAYOUTS`` on the same deals (a low budget, or a ``stop`` that came early), the advice
  says so (:attr:`Advice.enough`) and the bot shows no percentage.
* **Fair.**  Every playout starts from ``determinize`` (:meth:`engine.search.Search.playout`):
  the advice reads nothing the seat cannot see, like the move's search.
* **Budget.**  Counted in engine actions, so advice is a function of (position as the seat sees
  it, seed, budget); ``stop`` (the bot's time bound) is asked between deals, never inside one,
  so a stopped race still compares its choices on the same deals.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .search import Search, mix

MIN_PLAYOUTS = 20
"""The fewest playouts (on the same deals) behind a figure the advice lets be shown: a win rate
from 20 playouts is known to about ±20 points, from fewer it is mostly luck."""
Z_CLEAR = 1.96  # standard errors of a paired difference: "clearly" (95%, two-sided)...
Z_LIKELY = 1.0  # ..."probably"; below this, "about even"
ENTRANT_PLAYOUTS = 16
"""The race takes at most as many entrants as the budget can play about this many times each
(the length of a playout measured on the first one)."""


class Confidence(enum.StrEnum):
    """How sure the advice is of a choice's place: for the first choice, that it beats the
    second; for every other one, that the first beats it."""

    CLEAR = "clear"
    LIKELY = "likely"
    EVEN = "even"


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice as the advice shows it: its playouts, the seat's mean share of the victory in
    them, the mean final margin over the best other player, and how sure its place is."""

    action: Any
    playouts: int
    win_rate: float
    margin: float
    error: float
    """The 95% margin of error of ``win_rate`` (a fraction, like it)."""
    confidence: Confidence

    @property
    def percent(self) -> int:
        """The win rate as shown (a whole percentage); the ranking uses exactly this."""
        return percent(self.win_rate)


@dataclass(frozen=True, slots=True)
class Advice:
    """The best choices of a decision, the best first (at most ``keep``), every one played out
    on the same deals; ``actions`` is what the playouts applied, ``entrants`` how many legal
    actions the race took (of ``legal``), ``stopped`` whether ``stop`` ended it early."""

    choices: tuple[Choice, ...]
    actions: int
    entrants: int
    legal: int
    stopped: bool

    @property
    def playouts(self) -> int:
        """The playouts behind each shown figure (the same for every choice)."""
        return self.choices[0].playouts if self.choices else 0

    @property
    def enough(self) -> bool:
        """Whether the figures rest on enough playouts to be shown (``MIN_PLAYOUTS``)."""
        return self.playouts >= MIN_PLAYOUTS


def percent(rate: float) -> int:
    """A rate in [0, 1] as the whole percentage shown (half up)."""
    return math.floor(100 * rate + 0.5)


def error_of(rate: float, n: int) -> float:
    """The 95% margin of error of a mean share ``rate`` over ``n`` playouts, on the rate plus
    one win and one loss (never zero: 0 wins in 30 playouts is not a certainty of losing; a
    share varies no more than a win or a loss of the same mean, so this is conservative)."""
    if n <= 0:
        return 1.0
    smoothed = (rate * n + 1) / (n + 2)
    return Z_CLEAR * math.sqrt(smoothed * (1 - smoothed) / n)


class Figures:
    """One choice's playouts, deal by deal (the shares and margins, to pair them)."""

    __slots__ = ("margins", "shares")

    def __init__(self) -> None:
        self.shares: list[float] = []
        self.margins: list[float] = []

    def add(self, share: float, margin: float) -> None:
        self.shares.append(share)
        self.margins.append(margin)

    @property
    def n(self) -> int:
        return len(self.shares)

    def win_rate(self) -> float:
        return sum(self.shares) / self.n if self.n else 0.0

    def margin(self) -> float:
        return sum(self.margins) / self.n if self.n else 0.0

    def key(self) -> tuple[int, float]:
        """The ranking: the percentage as shown, then the mean margin (higher first)."""
        return percent(self.win_rate()), self.margin()


def paired_z(better: Sequence[float], worse: Sequence[float]) -> float:
    """How many standard errors the mean of ``better - worse`` (the same deals) is above zero;
    infinite when they differ by the same amount on every deal and ``better`` is ahead."""
    n = len(better)
    if n == 0:
        return 0.0
    diffs = [b - w for b, w in zip(better, worse, strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    if variance <= 0.0:
        return math.inf if mean > 0 and n > 1 else 0.0
    return mean / math.sqrt(variance / n)


def confidence(better: Figures, worse: Figures) -> Confidence:
    """How sure it is that ``better`` (ranked above ``worse``) is the better one, on the
    statistic that ordered them: the win shares, or the margins when the shown percentages
    are equal."""
    if percent(better.win_rate()) > percent(worse.win_rate()):
        z = paired_z(better.shares, worse.shares)
    else:
        z = paired_z(better.margins, worse.margins)
    if z >= Z_CLEAR:
        return Confidence.CLEAR
    if z >= Z_LIKELY:
        return Confidence.LIKELY
    return Confidence.EVEN


def advise(search: Search, state: Any, seat: int, legal: Sequence[Any], seed: int, *,
           keep: int = 3, stop: Callable[[], bool] | None = None) -> Advice:
    """The best ``keep`` choices of ``legal`` (the seat's legal actions in ``state``) with the
    figures shown, the best first, within ``search.budget`` engine actions; ``stop`` is asked
    between deals (``True``: end the race now).  Reads ``state`` only through ``determinize``."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if keep < 1:
        raise ValueError("advice keeps one choice at least")
    figures = [Figures() for _ in legal]
    budget = search.budget
    anchor = search.anchor(state, seat, legal, seed)
    # the rollout policy's choice on deal 0 measures a playout's length from here
    first = search.playout(state, seat, legal[anchor], mix(seed, 0))
    figures[anchor].add(first.share, first.margin)
    spent = first.actions
    played = 1
    limit = max(keep, budget // (ENTRANT_PLAYOUTS * max(1, first.actions)))
    alive = search.entrants(len(legal), anchor, limit, seed)
    entrants = len(alive)
    rounds = 1
    while _halved(entrants, keep, rounds - 1) > keep:
        rounds += 1
    deal = 0  # the next deal; deal 0 opens the first round (the anchor has played it)
    stopped = False
    for r in range(rounds):
        # whole deals for every choice still in: the round's share of what is left, at the
        # length the playouts have had so far
        length = spent / played
        deals = max(1, int((budget - spent) // ((rounds - r) * len(alive) * length)))
        for d in range(deal, deal + deals):
            for c in alive:
                if d == 0 and c == anchor:
                    continue
                result = search.playout(state, seat, legal[c], mix(seed, d))
                figures[c].add(result.share, result.margin)
                spent += result.actions
                played += 1
            if stop is not None and stop():
                stopped = True
                break
        deal += deals
        alive = _ranked(alive, figures)
        if stopped:
            break
        if r < rounds - 1:
            alive = alive[: max(keep, (len(alive) + 1) // 2)]
    best = alive[:keep]
    choices = []
    for rank, c in enumerate(best):
        # the first against the second; every other one against the first; from a handful of
        # deals nothing is sure (two wins where the other lost would read as certainty)
        if figures[c].n < MIN_PLAYOUTS:
            sure = Confidence.EVEN
        elif rank == 0:
            sure = confidence(figures[c], figures[best[1]]) if len(best) > 1 else Confidence.CLEAR
        else:
            sure = confidence(figures[best[0]], figures[c])
        f = figures[c]
        choices.append(Choice(legal[c], f.n, f.win_rate(), f.margin(),
                              error_of(f.win_rate(), f.n), sure))
    return Advice(tuple(choices), spent, entrants, len(legal), stopped)


def _halved(count: int, keep: int, times: int) -> int:
    """How many of ``count`` entrants are left after ``times`` halvings that keep ``keep``."""
    for _ in range(times):
        count = max(keep, (count + 1) // 2) if count > keep else count
    return count


def _ranked(alive: list[int], figures: list[Figures]) -> list[int]:
    """``alive`` by the advice's ranking: the shown percentage, the margin, the legal order."""
    def order(c: int) -> tuple[int, float, int]:
        shown, margin = figures[c].key()
        return -shown, -margin, c

    return sorted(alive, key=order)
