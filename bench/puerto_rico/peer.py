"""Classic Puerto Rico's engine beside a peer's, in random playouts (docs/benchmarks.md).

    python -m bench.puerto_rico.peer --peer DIR [--players 2 4] [--games 200] [--repeat 3]
        [--chunk 10] [--json]

The peer is somnambWl/puerto-rico, a public pure-Python engine, read from a checkout at ``DIR``
(or ``$GOVERNOR_PEER``); it is never part of this project.  Without a usable copy the bench
says so and measures ours alone.  Both engines play the same loop: a seeded ``random.Random``
picks a legal action uniformly, applied without validation (ours: ``legal_fast`` and
``apply_fast``; the peer's: ``legal_actions`` and ``apply(validate=False)``), in CPU time
(``time.process_time``), the two taking turns ``--chunk`` games at a time so that a change in the
machine's load weighs on both alike.  Each figure is the median of ``--repeat`` runs; the ratio
is the median of the runs' own ratios (games/s of ours over the peer's).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine import get_game, native

Playout = Callable[[int, int], int]
"""(players, seed) -> actions of one game played to its end."""


def ours() -> Playout:
    """Our classic game, modules off, on the simulator's unchecked fast path."""
    game: Any = get_game("puerto-rico")
    legal, apply, actor = game.legal_fast, game.apply_fast, game.actor

    def play(players: int, seed: int) -> int:
        state = game.setup(game.normalize_options({"players": players}), seed)
        rng = random.Random(seed)
        actions = 0
        while (seat := actor(state)) >= 0:
            choices = legal(state, seat)
            apply(state, seat, choices[rng.randrange(len(choices))])
            actions += 1
        return actions

    return play


def peer(folder: str | None) -> tuple[Playout | None, str]:
    """The peer's engine from the checkout at ``folder``: (playout, "") or (None, why not)."""
    if not folder:
        return None, "no peer checkout given (--peer DIR or $GOVERNOR_PEER)"
    root = Path(folder)
    if not (root / "puerto_rico" / "engine" / "game.py").is_file():
        return None, f"{root} holds no puerto_rico/engine/game.py"
    sys.path.insert(0, str(root))
    try:
        game_module = importlib.import_module("puerto_rico.engine.game")
        state_module = importlib.import_module("puerto_rico.engine.state")
    except Exception as exc:  # a peer that does not import is reported, not fatal
        return None, f"the peer does not import: {exc!r}"
    finally:
        sys.path.remove(str(root))
    game_class, config = game_module.Game, state_module.GameConfig

    def play(players: int, seed: int) -> int:
        game = game_class(config(num_players=players, seed=seed))
        rng = random.Random(seed)
        actions = 0
        while not game.is_terminal:
            choices = game.legal_actions()
            game.apply(choices[rng.randrange(len(choices))], validate=False)
            actions += 1
        return actions

    return play, ""


def measure(playouts: dict[str, Playout], players: int, games: int, chunk: int, seed: int
            ) -> dict[str, dict[str, float]]:
    """One run: each engine plays the same seeds, taking turns ``chunk`` games at a time."""
    spent = dict.fromkeys(playouts, 0.0)
    actions = dict.fromkeys(playouts, 0)
    for start in range(0, games, chunk):
        seeds = range(seed + start, seed + min(games, start + chunk))
        for name, play in playouts.items():
            began = time.process_time()
            for s in seeds:
                actions[name] += play(players, s)
            spent[name] += time.process_time() - began
    return {name: {"games_per_s": games / spent[name], "actions_per_s": actions[name] / spent[name],
                   "actions_per_game": actions[name] / games} for name in playouts}


def run(args: argparse.Namespace) -> dict[str, Any]:
    mine: dict[str, Playout] = {"ours": ours()}
    theirs, why = peer(args.peer)
    if theirs is not None:
        mine["peer"] = theirs
    out: dict[str, Any] = {"build": native.build_name(),
                           "peer": None if theirs is None else str(args.peer), "why": why or None,
                           "players": {}}
    for players in args.players:
        runs = [measure(mine, players, args.games, args.chunk, args.seed)
                for _ in range(args.repeat)]
        figure: dict[str, Any] = {}
        for name in mine:
            figure[name] = {key: round(statistics.median(r[name][key] for r in runs), 2)
                            for key in runs[0][name]}
        if theirs is not None:
            figure["ratio"] = round(statistics.median(
                r["ours"]["games_per_s"] / r["peer"]["games_per_s"] for r in runs), 2)
            figure["ratios"] = [round(r["ours"]["games_per_s"] / r["peer"]["games_per_s"], 2)
                                for r in runs]
        out["players"][str(players)] = figure
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--peer", default=os.environ.get("GOVERNOR_PEER"),
                        help="a checkout of somnambWl/puerto-rico")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    if figures["peer"] is None:
        print(f"peer: none ({figures['why']}); ours alone")
    for players, figure in figures["players"].items():
        line = f"{players} players: ours {figure['ours']['games_per_s']} games/s"
        if "peer" in figure:
            line += (f", peer {figure['peer']['games_per_s']} games/s, "
                     f"ours/peer {figure['ratio']} (runs {figure['ratios']})")
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
