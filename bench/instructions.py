"""Engine work in instructions: ``bench.engine``'s random playouts counted by valgrind.

    python -m bench.instructions --json --game puerto-rico-1897 [--variant all-expansions]
        [--players 2 5] [--games 40] [--seed 0] [--jobs 2]

The clock of a shared machine moves by ±10% from one minute to the next; the instructions a
playout executes do not.  Each figure is counted by ``valgrind --tool=callgrind`` in two child
processes, both with ``PYTHONHASHSEED=0`` and the pure-Python engine (``GOVERNOR_NATIVE=0``):
one plays a warm-up of two games of the same options (seeds far from the measured ones), the
other the same warm-up and then ``--games`` games from ``--seed``.  The difference, over the
games, is ``minstr_per_game`` (million instructions a game): start-up, imports (which compile
every engine module when bytecode is not cached) and a module's first use are counted in both
and cancel out.  A count taken without the warm-up would add them to the games, and over 40
games that is enough to move a ratio by a tenth.

Prints one JSON object keyed like ``bench.engine``'s: game (or ``game:variant``), then player
count, each ``{"minstr_per_game": .., "games": .., "actions": ..}``; a variant has
``ratio_to_base`` (the base game's instructions a game over the variant's: the games/s ratio
they predict) and a game with a reference (``bench_reference()``) ``ratio_to_reference`` when
that reference was measured too.  ``--game`` is required (each count takes a minute or two of
valgrind); ``--variant`` limits the variants (``""``: the base rules).  Needs valgrind on the
PATH (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.engine import emit, player_counts, references, valid, variants
from engine import game_names
from engine.simulate import simulate

WARM_UP_GAMES = 2
WARM_UP_SEED = 1_000_000  # far from any measured seed
_COLLECTED = re.compile(r"Collected : (\d+)")


def collected(text: str) -> int:
    """The instructions callgrind reports it collected (its summary on stderr)."""
    match = _COLLECTED.search(text)
    if match is None:
        raise RuntimeError(f"no callgrind summary in: {text[-300:]!r}")
    return int(match[1])


def play(game: str, players: int, games: int, seed: int, options: dict[str, Any]) -> int:
    """The child's work: the warm-up, then ``games`` games (none: the warm-up only); the
    actions of the measured games."""
    simulate(game, players, WARM_UP_GAMES, WARM_UP_SEED, ["random"], options=options)
    if not games:
        return 0
    return int(simulate(game, players, games, seed, ["random"], options=options)["actions"])


def count_with_valgrind(game: str, players: int, games: int, seed: int,
                        options: dict[str, Any]) -> tuple[int, int]:
    """(instructions, actions) of one child under callgrind."""
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as tmp:
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/callgrind.out",
            sys.executable, "-m", "bench.instructions", "--child", game, str(players),
            str(games), str(seed), json.dumps(options),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0", "GOVERNOR_NATIVE": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"valgrind failed ({done.returncode}): {done.stderr[-500:]}")
    return collected(done.stderr), int(done.stdout.strip() or 0)


Counter = Callable[[str, int, int, int, dict[str, Any]], tuple[int, int]]


def measure(games_wanted: Sequence[str], variant_filter: Sequence[str] | None,
            counts: Sequence[int] | None, games: int, seed: int, jobs: int,
            counter: Counter = count_with_valgrind) -> dict[str, dict[str, dict[str, Any]]]:
    """Every figure asked for (see the module), counted by ``counter``."""
    wanted: list[tuple[str, str, int, dict[str, Any]]] = []
    for game in dict.fromkeys(games_wanted):
        named = {"": {}, **variants(game)}
        for variant, options in named.items():
            if variant_filter is not None and variant not in variant_filter:
                continue
            key = f"{game}:{variant}" if variant else game
            for players in player_counts(game):
                if (counts is None or players in counts) and valid(game, players, options):
                    wanted.append((key, game, players, options))

    def one(item: tuple[str, str, int, dict[str, Any]]) -> tuple[str, int, dict[str, Any]]:
        key, game, players, options = item
        base, _ = counter(game, players, 0, seed, options)
        total, actions = counter(game, players, games, seed, options)
        per_game = (total - base) / games / 1e6
        return key, players, {"minstr_per_game": round(per_game, 2), "games": games,
                              "actions": actions}

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, wanted))
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    for key, players, row in results:
        figures.setdefault(key, {})[str(players)] = row
    for key, rows in figures.items():
        game, _, variant = key.partition(":")
        reference = references(game).get(variant)
        for count, row in rows.items():
            if variant and count in figures.get(game, {}):
                row["ratio_to_base"] = _ratio(figures[game][count], row)
            if reference and count in figures.get(reference, {}):
                row["ratio_to_reference"] = _ratio(figures[reference][count], row)
    return figures


def _line(key: str, count: str, row: dict[str, Any]) -> str:
    ratios = " ".join(f"{name} {row[name]:.3f}" for name in ("ratio_to_base", "ratio_to_reference")
                      if name in row)
    return f"{key:>32} {count} players: {row['minstr_per_game']:8.2f} M a game {ratios}"


def _ratio(other: dict[str, Any], row: dict[str, Any]) -> float:
    return round(float(other["minstr_per_game"]) / float(row["minstr_per_game"]), 3)


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    if raw[:1] == ["--child"]:
        game, players, games, seed, options = raw[1:6]
        print(play(game, int(players), int(games), int(seed), json.loads(options)))
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=game_names(), action="append", required=True,
                        help="measure this game (repeat it for several)")
    parser.add_argument("--variant", action="append",
                        help='only these variants ("" for the base rules; default: all)')
    parser.add_argument("--players", type=int, nargs="+", help="only these player counts")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(raw)
    if shutil.which("valgrind") is None:
        print("valgrind is not on the PATH (apt-get install valgrind)", file=sys.stderr)
        return 1
    try:
        figures = measure(args.game, args.variant, args.players, args.games, args.seed,
                          args.jobs)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    emit(figures, args.json, _line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
