"""Command line: ``python -m engine simulate ...`` and ``python -m engine replay FILE.json``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import game_names, get_game
from .core import EngineError, ReplayError, replay
from .policies import POLICY_NAMES
from .simulate import simulate


def _simulate(args: argparse.Namespace) -> int:
    policies = args.policies.split(",") if args.policies else [args.policy]
    for name in policies:
        if name not in POLICY_NAMES:
            print(
                f"unknown policy {name!r}; choose from {', '.join(POLICY_NAMES)}", file=sys.stderr
            )
            return 2
    try:
        options = json.loads(args.options) if args.options else {}
    except ValueError as exc:
        print(f"--options is not JSON: {exc}", file=sys.stderr)
        return 2
    if not isinstance(options, dict):
        print("--options must be a JSON object", file=sys.stderr)
        return 2
    try:
        result = simulate(
            args.game, args.players, args.games, args.seed, policies, args.check, options,
            args.budget,
        )
    except (EngineError, ValueError) as exc:
        print(f"cannot simulate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for key in (
            "games",
            "actions",
            "seconds",
            "games_per_s",
            "actions_per_s",
            "mean_rounds",
            "end_reasons",
            "wins_by_seat",
            "mean_winning_score",
            "digest",
            "invariant_failures",
        ):
            print(f"{key:>20}: {result[key]}")
        for failure in result["failures"]:
            print(f"FAIL {failure}")
    return 1 if result["invariant_failures"] else 0


def _replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(data, dict) or not {"game", "options", "seed", "actions"} <= set(data):
        print("a replay file needs game, options, seed and actions", file=sys.stderr)
        return 2
    if type(data["seed"]) is not int:
        print("the file has no seed (a game exported while it was played): it cannot be replayed",
              file=sys.stderr)
        return 2
    actions = data["actions"]
    if not isinstance(actions, list) or any(
        not isinstance(a, list) or len(a) != 2 or type(a[0]) is not int or not isinstance(a[1], str)
        for a in actions
    ):
        print('actions must be a list of [seat, "code"] pairs', file=sys.stderr)
        return 2
    try:
        game = get_game(data["game"])
        state, _ = replay(data["game"], data["options"], data["seed"], actions)
    except ReplayError as exc:
        print(
            f"action {exc.index} ([{exc.details['seat']}, {exc.details['action']!r}]) failed: "
            f"{exc.cause.code} {exc.cause.details}",
            file=sys.stderr,
        )
        return 1
    except EngineError as exc:
        print(f"cannot replay: {exc}", file=sys.stderr)
        return 1
    prompt = game.prompt(state)
    out: dict[str, Any] = {
        "version": len(actions),
        "prompt": None,
        "view": game.view(state, None),
        "outcome": None,
    }
    if prompt is not None:
        out["prompt"] = {
            "seats": list(prompt.seats),
            "kind": prompt.kind,
            "forced": prompt.forced,
            "legal": {
                str(seat): [game.encode_action(a) for a in game.legal_actions(state, seat)]
                for seat in prompt.seats
            },
        }
    outcome = game.outcome(state)
    if outcome is not None:
        out["outcome"] = outcome.to_json()
    print(json.dumps(out, sort_keys=True, ensure_ascii=False))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play games with policies and report figures")
    sim.add_argument(
        "--game", default=game_names()[0], help="a game of the catalog (default: the first)"
    )
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--policy", default="random", choices=POLICY_NAMES)
    sim.add_argument("--policies", help="one policy per seat, e.g. heuristic,random,random,random")
    sim.add_argument("--budget", type=int, default=None,
                     help="the strong seats' engine actions per decision (default: about a "
                          "second's worth)")
    sim.add_argument(
        "--options", help="game options as a JSON object, e.g. '{\"variant_start\": true}'"
    )
    sim.add_argument("--check", action="store_true", help="verify invariants after every action")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=_simulate)
    rep = sub.add_parser("replay", help="replay a game file and print its state as JSON")
    rep.add_argument("file")
    rep.set_defaults(func=_replay)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
