"""The strong AI level: its speed and its strength, for every game at 2 and 4 players.

    python -m bench.ai --json [--game puerto-rico] [--players 4] [--games 200] [--budget N]
                              [--jobs 2] [--seed 0] [--options '{"modules": [...]}']

Each game seats one strong seat (seat ``game % players``, so every seat takes its turn) against
the heuristic in every other seat, as ``python -m engine simulate --policies
strong,heuristic,...`` does.  Prints one JSON object keyed by game, then by player count::

    {"puerto-rico": {"4": {"games": 200, "win_rate": 0.9, "win_ci95": [0.85, 0.93],
                           "baseline": 0.25, "decisions": 12000, "forced": 3000,
                           "median_s": 0.12, "p95_s": 0.3, "decisions_per_s": 7.1,
                           "playout_actions_per_s": 21000.0, "budget": 3000,
                           "build": "pure"}}}

``win_rate`` counts a shared victory as a share; ``win_ci95`` is the Wilson score interval of
the win rate over the games; ``baseline`` is an equal seat's share (1 / players).  The seconds are
the CPU seconds of each decision with a real choice (a forced one, one legal action, costs
nothing and is counted apart in ``forced``), measured in the process that thinks;
``decisions_per_s`` is their reciprocal mean.  ``--jobs`` plays games in parallel processes
(default: one per core); the figures do not depend on it (every game is seeded).

``build`` says which engine played (``engine.native``: ``"pure"`` or ``"native"``, the mypyc
build).  Both make the same choices for a seed and budget, so the win rates hold for either;
only the seconds differ (``GOVERNOR_NATIVE=0`` measures the pure build where a compiled one is
present).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine import game_names, get_game, native
from engine.policies import make_policy
from engine.search import DEFAULT_BUDGET, StrongPolicy
from engine.simulate import play_game, policy_seed


class TimedStrong(StrongPolicy):
    """The strong policy, timing each of its decisions in CPU seconds."""

    def __init__(self, game_name: str, seed: int, budget: int) -> None:
        super().__init__(game_name, seed, budget)
        self.seconds: list[float] = []
        self.forced = 0
        self.playout_actions = 0

    def choose(self, game: Any, state: Any, seat: int, legal: list[Any]) -> Any:
        if len(legal) == 1:
            self.forced += 1
            return legal[0]
        started = time.process_time()
        analysis = self.analyse(state, seat, legal)
        self.seconds.append(time.process_time() - started)
        self.playout_actions += analysis.actions
        return analysis.best


def play_one(game_name: str, players: int, options: dict[str, Any], seed: int,
             budget: int) -> dict[str, Any]:
    """One game: the strong seat's share of the victory and its decisions' figures."""
    game = get_game(game_name)
    opts = game.normalize_options({**options, "players": players})
    strong_seat = seed % players
    policies: list[Any] = [make_policy("heuristic", game_name, policy_seed(seed, s))
                           for s in range(players)]
    strong = TimedStrong(game_name, policy_seed(seed, strong_seat), budget)
    policies[strong_seat] = strong
    result = play_game(game, opts, seed, policies)
    outcome = game.outcome(result.final)
    share = 0.0
    if outcome is not None and strong_seat in outcome.winners:
        share = 1 / len(outcome.winners)
    return {"share": share, "seconds": strong.seconds, "forced": strong.forced,
            "playout_actions": strong.playout_actions}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default ``z``)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def measure(game_name: str, players: int, games: int, seed: int, budget: int, jobs: int,
            options: dict[str, Any]) -> dict[str, Any]:
    seeds = range(seed, seed + games)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rows = list(pool.map(play_one, [game_name] * games, [players] * games,
                                 [options] * games, seeds, [budget] * games))
    else:
        rows = [play_one(game_name, players, options, s, budget) for s in seeds]
    wins = sum(r["share"] for r in rows)
    seconds = [s for r in rows for s in r["seconds"]]
    low, high = wilson(wins, games)
    total = sum(seconds)
    return {
        "games": games,
        "budget": budget,
        "build": native.build_name(),
        "win_rate": round(wins / games, 4) if games else None,
        "win_ci95": [round(low, 4), round(high, 4)],
        "baseline": round(1 / players, 4),
        "decisions": len(seconds),
        "forced": sum(r["forced"] for r in rows),
        "median_s": round(percentile(seconds, 0.5), 4),
        "p95_s": round(percentile(seconds, 0.95), 4),
        "max_s": round(max(seconds, default=0.0), 4),
        "decisions_per_s": round(len(seconds) / total, 2) if total else None,
        "playout_actions_per_s": round(sum(r["playout_actions"] for r in rows) / total, 1)
        if total else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=game_names(), action="append",
                        help="measure this game only (repeat it for several)")
    parser.add_argument("--players", type=int, action="append",
                        help="measure this player count only (repeat it; default 2 and 4)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help="the strong seat's engine actions per decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--options", default="{}", help="game options as a JSON object")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    figures: dict[str, dict[str, Any]] = {}
    for game_name in dict.fromkeys(args.game or game_names()):
        for players in args.players or [2, 4]:
            row = measure(game_name, players, args.games, args.seed, args.budget, args.jobs,
                          options)
            figures.setdefault(game_name, {})[str(players)] = row
            if not args.json:
                print(f"{game_name:>18} {players}p: win {row['win_rate']:.3f} "
                      f"{row['win_ci95']} (baseline {row['baseline']}), median "
                      f"{row['median_s']:.3f} s, p95 {row['p95_s']:.3f} s per decision",
                      flush=True)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
