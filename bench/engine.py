"""Engine throughput: random playouts of every game at each of its player counts.

    python -m bench.engine --json [--game san-juan] [--games 500] [--seed 0] [--repeat 3]
        [--chunk 10]

Prints one JSON object keyed by game, then by player count, with each game's variants
(``ratio_to_base``) and references (``ratio_to_reference``) beside it; ``--build`` picks the
pure or the compiled engine.  The output's keys and how the runs take turns so that the
machine's load weighs on both sides of a ratio alike: docs/benchmarks.md, "bench.engine".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine import game_names, get_game, native
from engine.core import InvalidSetup
from engine.simulate import simulate

BUILDS = ("current", "pure", "native", "both")


def variants(game: str) -> dict[str, dict[str, Any]]:
    """The game's named option variants to measure besides its base rules ({} for none)."""
    named = getattr(get_game(game), "bench_variants", None)
    return {} if named is None else dict(named())


def references(game: str) -> dict[str, str]:
    """What a game's rates are compared with, by variant ("" its base rules): another game's
    (``bench_reference()``, e.g. Puerto Rico 1897's: classic Puerto Rico's), reported as
    ``ratio_to_reference``; {} for none."""
    named = getattr(get_game(game), "bench_reference", None)
    return {} if named is None else dict(named())


def valid(game: str, players: int, options: dict[str, Any]) -> bool:
    """Whether ``options`` may be played at ``players`` (a variant of seats of a kind, such as
    1897's Puertomas, exists at some counts only)."""
    try:
        get_game(game).normalize_options({**options, "players": players})
    except InvalidSetup:
        return False
    return True


def player_counts(game: str) -> list[int]:
    """The player counts of a game's option sets."""
    return sorted({int(options["players"]) for options in get_game(game).option_sets()})


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--game", choices=game_names(), action="append",
                        help="measure this game only (repeat it for several)")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=10,
                        help="games a configuration plays before the next one takes its turn")
    parser.add_argument(
        "--checked",
        action="store_true",
        help="measure the validating apply (with --check invariants) instead",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--build", choices=BUILDS, default="current",
                        help="the engine build to measure (default: the one imported here)")
    args = parser.parse_args(argv)
    if args.build == "both":
        try:
            builds = {build: figures_of(args, build) for build in ("pure", "native")}
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        both = compare(builds["pure"], builds["native"])
        if args.json:
            print(json.dumps(both, sort_keys=True))
        else:
            for game, rows in both["native_over_pure"].items():
                for count, ratio in rows.items():
                    pure = builds["pure"][game][count]["games_per_s"]
                    fast = builds["native"][game][count]["games_per_s"]
                    print(f"{game:>12} {count} players: {pure:8.1f} games/s pure, {fast:8.1f} "
                          f"native ({ratio:.2f}x)")
            print(f"digests match: {both['digests_match']}")
        return 0
    try:
        figures = figures_of(args, args.build)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    emit(figures, args.json, lambda game, count, row: (
        f"{game:>12} {count} players: {row['games_per_s']:8.1f} games/s "
        f"{row['actions_per_s']:10.0f} actions/s ({row['build']})"))
    return 0


def emit(figures: dict[str, dict[str, dict[str, Any]]], as_json: bool,
         line: Callable[[str, str, dict[str, Any]], str]) -> None:
    """Print ``figures`` as one JSON object, or a ``line`` for each game and player count."""
    if as_json:
        print(json.dumps(figures, sort_keys=True))
        return
    for game, rows in figures.items():
        for count, row in rows.items():
            print(line(game, count, row))


def figures_of(args: argparse.Namespace, build: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The figures of ``build`` (``current``, ``pure`` or ``native``): measured here when it is
    the build this process runs, else by a child process that imports that build (a
    ``RuntimeError`` says why when it cannot)."""
    if build in ("current", native.build_name()):
        return measure(args)
    command = [sys.executable, "-m", "bench.engine", "--json", "--games", str(args.games),
               "--seed", str(args.seed), "--repeat", str(args.repeat),
               "--chunk", str(args.chunk)]
    command += [f"--game={game}" for game in args.game or ()]
    command += ["--checked"] if args.checked else []
    env = {**os.environ, native.ENV: "1" if build == "native" else "0"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise RuntimeError(f"cannot measure the {build} build: {lines[-1]}")
    figures: dict[str, dict[str, dict[str, Any]]] = json.loads(done.stdout)
    return figures


def compare(
    pure: dict[str, dict[str, dict[str, Any]]], fast: dict[str, dict[str, dict[str, Any]]]
) -> dict[str, Any]:
    """Both builds' figures, the native build's games/s over the pure one's, and whether
    every game's digest is the same in both."""
    ratios = {
        game: {
            count: round(row["games_per_s"] / pure[game][count]["games_per_s"], 3)
            for count, row in rows.items()
            if count in pure.get(game, {})
        }
        for game, rows in fast.items()
    }
    same = all(
        row["digest"] == pure.get(game, {}).get(count, {}).get("digest")
        for game, rows in fast.items()
        for count, row in rows.items()
    )
    return {"pure": pure, "native": fast, "native_over_pure": ratios, "digests_match": same}


def measure(args: argparse.Namespace) -> dict[str, dict[str, dict[str, Any]]]:
    """The figures of the build this process runs."""
    games = list(dict.fromkeys(args.game)) if args.game else game_names()
    runs: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for _ in range(max(1, args.repeat)):
        for players in range(2, 6):
            configs: list[tuple[str, str, dict[str, Any]]] = []
            for game in games:
                if players not in player_counts(game):
                    continue
                named: dict[str, dict[str, Any]] = {game: {}}
                named.update({f"{game}:{v}": o for v, o in variants(game).items()})
                configs += [(key, game, options) for key, options in named.items()
                            if valid(game, players, options)]
            for key, result in _interleaved(args, players, configs).items():
                runs.setdefault((key, players), []).append(result)
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    for (game, players), results in sorted(runs.items()):
        ordered = sorted(results, key=lambda r: r["games_per_s"])
        median = ordered[len(ordered) // 2]
        figures.setdefault(game, {})[str(players)] = {
            "games_per_s": median["games_per_s"],
            "actions_per_s": median["actions_per_s"],
            "best_games_per_s": ordered[-1]["games_per_s"],
            "games": median["games"],
            "actions": median["actions"],
            "runs": len(ordered),
            "build": native.build_name(),
            "digest": median["digest"],
        }
    for key, rows in figures.items():
        game, _, variant = key.partition(":")
        if variant:
            for count, row in rows.items():
                paired = _paired(runs, (key, int(count)), (game, int(count)))
                if paired is not None:
                    row["ratio_to_base"] = paired
        reference = references(game).get(variant, "")
        for count, row in rows.items():
            paired = _paired(runs, (key, int(count)), (reference, int(count)))
            if paired is not None:
                row["ratio_to_reference"] = paired
    return figures


def _interleaved(args: argparse.Namespace, players: int,
                 configs: list[tuple[str, str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """One run of every configuration at ``players``: its ``--games`` games played in chunks
    of ``--chunk``, the configurations taking turns chunk by chunk, so that a change in the
    machine's load weighs on all of them alike; each its games/s over the time of its own
    chunks, and the digest of its games (the same as one ``simulate`` call's)."""
    seconds = dict.fromkeys((key for key, _, _ in configs), 0.0)
    actions = dict.fromkeys(seconds, 0)
    hashers = {key: hashlib.sha256() for key in seconds}
    chunk = max(1, args.chunk)
    for start in range(0, args.games, chunk):
        count = min(chunk, args.games - start)
        for key, game, options in configs:
            began = time.perf_counter()
            result = simulate(game, players, count, args.seed + start, ["random"], args.checked,
                              options, hasher=hashers[key])
            seconds[key] += time.perf_counter() - began
            actions[key] += result["actions"]
    return {
        key: {
            "games_per_s": round(args.games / spent, 2),
            "actions_per_s": round(actions[key] / spent, 1),
            "games": args.games,
            "actions": actions[key],
            "digest": hashers[key].hexdigest(),
        }
        for key, spent in seconds.items()
    }


def _paired(
    runs: dict[tuple[str, int], list[dict[str, Any]]],
    key: tuple[str, int],
    other: tuple[str, int],
) -> float | None:
    """The median over the runs of ``key``'s games/s over ``other``'s in the same run (the two
    measured seconds apart, so that the machine's drift between runs weighs on both alike);
    None when ``other`` was not measured."""
    if other not in runs:
        return None
    ratios: list[float] = sorted(a["games_per_s"] / b["games_per_s"]
                    for a, b in zip(runs[key], runs[other], strict=True))
    return round(ratios[len(ratios) // 2], 3)


if __name__ == "__main__":
    sys.exit(main())
