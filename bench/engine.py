"""Engine throughput: random playouts at 2, 3, 4 and 5 players.

    python -m bench.engine --json [--games 500] [--seed 0]

Prints one JSON object keyed by player count:
``{"2": {"games_per_s": .., "actions_per_s": .., "best_games_per_s": .., "games": .., ...}}``.
Each player count is measured ``--repeat`` times (default 3) over the same seeds; the figures
are the median run (``best_games_per_s`` is the fastest), so a busy neighbour on the machine
skews them less.
Every seat plays the random policy; the simulator's unchecked fast path applies the actions (the
validating ``apply`` is what the bot uses; ``--checked`` measures that one instead).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.simulate import simulate


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--checked",
        action="store_true",
        help="measure the validating apply (with --check invariants) instead",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, float]] = {}
    for players in (2, 3, 4, 5):
        runs = sorted(
            (
                simulate("puerto-rico", players, args.games, args.seed, ["random"], args.checked)
                for _ in range(max(1, args.repeat))
            ),
            key=lambda r: r["games_per_s"],
        )
        median = runs[len(runs) // 2]
        figures[str(players)] = {
            "games_per_s": median["games_per_s"],
            "actions_per_s": median["actions_per_s"],
            "best_games_per_s": runs[-1]["games_per_s"],
            "games": median["games"],
            "actions": median["actions"],
            "runs": len(runs),
        }
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for count, row in figures.items():
            print(
                f"{count} players: {row['games_per_s']:8.1f} games/s "
                f"{row['actions_per_s']:10.0f} actions/s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
