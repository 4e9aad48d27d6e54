"""Board image speed and size: table images of each game at each player count, mid-game.

    python -m bench.render --json [--game san-juan] [--positions 6] [--repeat 20] [--seed 0]
    python -m bench.render --json --game puerto-rico --options '{"modules": ["buccaneer"]}'
    python -m bench.render --game puerto-rico-1897 --players 3 --options '{"puertomas": 2}'

Prints one JSON object keyed by game, then by player count::

    {"puerto-rico": {"2": {...}, "3": {...}, "4": {...}, "5": {...}},
     "san-juan": {"2": {...}, "3": {...}, "4": {...}}}

each figure being ``{"p50_ms": .., "p95_ms": .., "png_bytes": .., "cold_ms": .., "layout_ms": ..,
"images": ..}``.  (Before San Juan the object had Puerto Rico's player counts at the top
level: they are now under ``"puerto-rico"``.)  ``--game`` measures one game only; a game
whose engine is not registered is left out (said on stderr).

For each player count, ``--positions`` mid-game positions (heuristic games, stopped between a
third and two thirds of the way through) are each rendered ``--repeat`` times, public view with
the last phase's events highlighted, the whole call (layout, raster, PNG) timed with
``time.perf_counter``.  ``png_bytes`` is the largest image; ``cold_ms`` is the first image of a
player count with every cache empty (what the first board of a new game costs); ``layout_ms``
is the median of the layout step alone.  The budget (docs/render.md): p95 at most 60 ms and
400 KB at 4 players.  ``--options`` (a JSON object) adds engine options to every game measured,
e.g. Puerto Rico's expansions (``modules``); ``--players`` measures those player counts only
(1897's Puertomas: one person and two Puertomas are 3 players, ``{"puertomas": 2}``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bench.engine import player_counts
from engine import game_names
from render import layout_table, render_table, renderer_names
from render.raster import clear_caches
from render.sample import Played, play


def games() -> dict[str, list[int]]:
    """The games measured: each game the renderer registry draws whose engine is registered,
    with the player counts its engine plays."""
    engines = set(game_names())
    return {name: player_counts(name) for name in renderer_names() if name in engines}


def positions(
    game: str, players: int, count: int, seed: int, options: Mapping[str, Any] | None = None
) -> list[Played]:
    out = []
    for k in range(count):
        length = play(game, players, seed + k, 0, finish=True, options=options).actions
        stop = length // 3 + (length // 3) * k // max(count - 1, 1)
        out.append(play(game, players, seed + k, stop, options=options))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(
    game: str,
    players: int,
    count: int,
    repeat: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    games = positions(game, players, count, seed, options)
    clear_caches()
    start = time.perf_counter()
    render_table(games[0].view(), games[0].highlights())
    cold = time.perf_counter() - start
    times: list[float] = []
    layouts: list[float] = []
    sizes: list[int] = []
    for _ in range(repeat):
        for played in games:
            view, events = played.view(), played.highlights()
            start = time.perf_counter()
            png = render_table(view, events)
            times.append(time.perf_counter() - start)
            sizes.append(len(png))
            start = time.perf_counter()
            layout_table(view, events)
            layouts.append(time.perf_counter() - start)
    return {
        "p50_ms": round(percentile(times, 0.50) * 1000, 2),
        "p95_ms": round(percentile(times, 0.95) * 1000, 2),
        "png_bytes": max(sizes),
        "cold_ms": round(cold * 1000, 1),
        "layout_ms": round(statistics.median(layouts) * 1000, 2),
        "images": len(times),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.render",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--game",
        choices=renderer_names(),
        action="append",
        default=None,
        help="measure this game only (repeatable; default: every game)",
    )
    parser.add_argument(
        "--players",
        type=int,
        action="append",
        default=None,
        help="measure this player count only (repeatable; default: each the game allows)",
    )
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--options",
        type=json.loads,
        default=None,
        help="engine options added to every game, as JSON",
    )
    args = parser.parse_args(argv)
    counts = games()
    wanted = list(args.game or renderer_names())
    missing = [game for game in wanted if game not in counts]
    if missing:  # a renderer whose engine is not there yet has no games to draw
        print(f"not measured (no engine registered): {', '.join(missing)}", file=sys.stderr)
    figures = {
        game: {
            str(players): measure(
                game, players, args.positions, args.repeat, args.seed, args.options
            )
            for players in counts[game]
            if args.players is None or players in args.players
        }
        for game in wanted
        if game not in missing
    }
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for game, rows in figures.items():
            for count, row in rows.items():
                print(
                    f"{game} {count} players: p50 {row['p50_ms']:6.1f} ms  "
                    f"p95 {row['p95_ms']:6.1f} ms  {row['png_bytes'] / 1024:6.0f} KB  "
                    f"(cold {row['cold_ms']:.0f} ms)"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
