"""Sample images from seeded games played by the heuristic policy.

    python -m render.sample --game puerto-rico --players 4 --seed 7 --actions 120 --out t.png
    python -m render.sample --players 4 --seed 7 --actions 120 --seat 2 --out seat.png
    python -m render.sample --players 4 --seed 7 --final --out scores.png
    python -m render.sample --players 4 --seed 7 --actions 120 --panel 2 --out panel.png
    python -m render.sample --players 4 --seed 7 --actions 120 --panel 2 --focus market \
        --labels es.json --out panel.png

``--actions K`` plays K actions (fewer if the game ends first) and draws the table with the
events of the last phase framed; ``--seat P`` draws seat P's view instead of the public one;
``--final`` plays the game to its end and draws the score sheet; ``--panel P`` draws seat P's
private panel image (its board, then the part of the table its decision needs, or ``--focus``).
``--labels FILE`` takes the words from a JSON object of image labels (the bot's catalog section,
e.g. Spanish: ``python -m bot.rendering es > es.json``).  ``--names`` gives display
names separated by commas.  :func:`play` is reused by the tests and the benchmark.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import game_names, get_game
from engine.core import Event, Game
from engine.policies import make_policy
from engine.simulate import policy_seed

from . import render_panel, render_scoresheet, render_table
from .games import renderer_for, renderer_names

MAX_ACTIONS = 5000


@dataclass
class Played:
    """A game after some actions: its state and the events of its last phase."""

    game: Game[Any]
    state: Any
    actions: int
    phase_events: list[Event]

    def view(self, viewer: int | None = None) -> Mapping[str, Any]:
        return self.game.view(self.state, viewer)

    def highlights(self, viewer: int | None = None) -> list[Event]:
        """The last phase's events as ``viewer`` may see them."""
        seen = (e.for_viewer(viewer) for e in self.phase_events)
        return [e for e in seen if e is not None]


def play(
    game_name: str,
    players: int,
    seed: int,
    actions: int,
    *,
    finish: bool = False,
    options: Mapping[str, Any] | None = None,
) -> Played:
    """Play ``actions`` heuristic actions (or the whole game with ``finish``) from ``seed``.

    ``phase_events`` are the events since the last role was chosen: the phase being played, or
    the one just finished with its end-of-round events (what the bot highlights on the board it
    posts after a phase)."""
    game = get_game(game_name)
    state = game.setup({**(options or {}), "players": players}, seed)
    policies = [make_policy("heuristic", game_name, policy_seed(seed, s)) for s in range(players)]
    current: list[Event] = []
    done = 0
    limit = MAX_ACTIONS if finish else actions
    while done < limit:
        prompt = game.prompt(state)
        if prompt is None:
            break
        seat = prompt.seats[0]  # of several seats asked at once, the first acts first
        legal = game.legal_actions(state, seat)
        state, events = game.apply(state, seat, policies[seat].choose(game, state, seat, legal))
        done += 1
        for event in events:
            if event.type == "RoleChosen":
                current = []
            current.append(event)
    return Played(game, state, done, current)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.sample", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=renderer_names(), default=game_names()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--seat", type=int, default=None, help="draw this seat's view")
    parser.add_argument("--final", action="store_true", help="finish the game: score sheet")
    parser.add_argument("--panel", type=int, default=None, help="draw this seat's panel image")
    parser.add_argument("--focus", default=None,
                        help="the panel's part of the table (default: its decision's); one of "
                             "the game renderer's focuses")
    parser.add_argument("--options", default="{}", help="the game's options as JSON")
    parser.add_argument("--labels", type=Path, default=None,
                        help="a JSON object of image labels (default: English)")
    parser.add_argument("--names", default="", help="display names, comma-separated")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    focuses = renderer_for(args.game).focuses
    if args.focus is not None and args.focus not in focuses:
        parser.error(f"--focus must be one of {', '.join(focuses)}")
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    labels = json.loads(args.labels.read_text(encoding="utf-8")) if args.labels else None
    played = play(args.game, args.players, args.seed, args.actions, finish=args.final,
                  options=json.loads(args.options))
    if args.final:
        outcome = played.game.outcome(played.state)
        if outcome is None:
            parser.error("the game did not end")
        png = render_scoresheet(outcome.to_json(), game=args.game, names=names,
                                labels=labels)
    elif args.panel is not None:
        view = played.view(args.panel)
        png = render_panel(view, args.panel, args.focus, played.highlights(args.panel),
                           names=names, labels=labels)
    else:
        view = played.view(args.seat)
        png = render_table(view, played.highlights(args.seat), names=names, labels=labels)
    args.out.write_bytes(png)
    print(f"{args.out}: {len(png)} bytes after {played.actions} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
