"""1897's own rules live in 1897's package (issue #34): the kernel holds the hook points, and
importing ``engine.puerto_rico_1897`` fills them before any 1897 game is set up or loaded.

Each test runs in a fresh interpreter, so that what this process imported before cannot help."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(code: str) -> str:
    """``code`` run by a fresh Python in the project's folder: its standard output."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_classic_game_loads_none_of_1897s_rules() -> None:
    """The kernel and the classic game import no module of 1897's package, and their
    registries hold none of 1897's rules: no automated seat's procedure, view part, invariant,
    option rules or saved field, and no ``ach.`` / ``fw.`` action code."""
    out = run("""
        import json
        import sys
        from engine import get_game
        from engine.core import InvalidAction
        from engine.puerto_rico import actions, buildings, extensions, save, save_v1

        game = get_game("puerto-rico")
        game.setup({"players": 3, "modules": ["festival"]}, 1)
        loaded = sorted(m for m in sys.modules if m.startswith("engine.puerto_rico_1897"))
        registries = [buildings.AUTOMATON, extensions.VIEW_PARTS, extensions.RESAMPLERS,
                      extensions.REVEALERS, extensions.FAILURES, extensions.HELD,
                      extensions.ACTION_VALUES, extensions.BUILDING_VALUES,
                      extensions.OPTION_RULES, buildings.MODULE_NEEDS, save.FIELDS,
                      save_v1.UPGRADES]
        codes = []
        for code in ("ach.deal_closer", "ad.deal_closer", "fw.corn"):
            try:
                actions.decode(code)
                codes.append(code)
            except InvalidAction:
                pass
        print(json.dumps([loaded, [len(r) for r in registries], codes]))
    """)
    assert json.loads(out) == [[], [0] * 12, []]


def test_importing_1897_registers_everything_before_a_game() -> None:
    """``get_game("puerto-rico-1897")`` alone is enough to set up, play, dump and load a game
    with Puertomas and every expansion (the Puertoma's procedures, the Activities' and the
    Achievements' rules, their views and saves); a format-1 save of one loads too."""
    out = run("""
        import json
        from pathlib import Path
        from engine import get_game
        from engine.puerto_rico import buildings, extensions

        game = get_game("puerto-rico-1897")
        options = {"players": 4, "puertomas": 1, "expansions": [1, 2, 3, 4, 5, 6]}
        state = game.setup(options, 7)
        for _ in range(60):
            prompt = game.prompt(state)
            seat = prompt.seats[0]
            state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
        again = game.load(json.loads(json.dumps(game.dump(state))))
        assert game.dump(again) == game.dump(state) and not game.invariants(again)
        view = game.view(state, 0)
        saves = json.loads(Path("tests/engine/saves/format1-puerto-rico-1897.json").read_text())
        for saved in saves["games"].values():
            for dump in saved["checkpoints"].values():
                game.load(dump)
        parts = list(extensions.VIEW_PARTS)
        print(json.dumps([sorted(buildings.AUTOMATON) == sorted(buildings.AUTOMATON_POINTS),
                          parts, [k for k in view if k in parts]]))
    """)
    parts = ["festival_activities", "achievements", "puertoma"]  # the view's order: unchanged
    assert json.loads(out) == [True, parts, parts]
