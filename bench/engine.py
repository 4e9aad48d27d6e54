"""Engine throughput: random playouts at 2, 3, 4 and 5 players.

    python -m bench.engine --json [--games 500] [--seed 0]

Prints one JSON object keyed by player count:
``{"2": {"games_per_s": .., "actions_per_s": .., "games": .., "actions": ..}, ...}``.
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
    parser.add_argument(
        "--checked",
        action="store_true",
        help="measure the validating apply (with --check invariants) instead",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, float]] = {}
    for players in (2, 3, 4, 5):
        result = simulate("puerto-rico", players, args.games, args.seed, ["random"], args.checked)
        figures[str(players)] = {
            "games_per_s": result["games_per_s"],
            "actions_per_s": result["actions_per_s"],
            "games": result["games"],
            "actions": result["actions"],
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
