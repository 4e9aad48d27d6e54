"""Golden transcripts: complete recorded games whose results must not change silently.

Each file in ``tests/golden/`` is a replay file (``{"game", "options", "seed", "actions"}``, the
format of ``python -m engine replay``) plus ``expected``: the outcome and a hash of the final
state.  Regenerate only after a deliberate rules change, and say why in the commit (name the
games, or the cases, to rewrite only theirs):

    python -m tests.engine.golden [GAME | CASE ...]

A change of the save format changes every final state's hash and nothing else: ``--rehash``
replays each file's recorded actions, checks that the outcome is the recorded one, and rewrites
the hash only (actions and outcome stay as they are, byte for byte):

    python -m tests.engine.golden --rehash
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engine import get_game, replay
from engine.policies import make_policy
from engine.simulate import canonical_json, play_game, policy_seed

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"

CASES: list[dict[str, Any]] = [
    {
        "name": "pr-2p-heuristic",
        "options": {"players": 2},
        "seed": 11,
        "policies": ["heuristic", "heuristic"],
    },
    {
        "name": "pr-3p-mixed",
        "options": {"players": 3},
        "seed": 22,
        "policies": ["heuristic", "random", "heuristic"],
    },
    {
        "name": "pr-4p-heuristic",
        "options": {"players": 4},
        "seed": 33,
        "policies": ["heuristic"] * 4,
    },
    {"name": "pr-5p-random", "options": {"players": 5}, "seed": 44, "policies": ["random"] * 5},
    {
        "name": "pr-4p-sequential-mayor-2020",
        "options": {"players": 4, "edition": "2020", "mayor_placement": "sequential"},
        "seed": 55,
        "policies": ["heuristic", "random", "heuristic", "random"],
    },
    {
        # issue #11: the modules built so far (Exp. 1 drafted, Exp. 3, Exp. 4)
        "name": "pr-3p-modules-draft",
        "options": {"players": 3, "modules": ["new_buildings", "buccaneer", "festival"]},
        "seed": 66,
        "policies": ["heuristic", "random", "heuristic"],
    },
    {
        "name": "pr-2p-new-buildings-random",
        "options": {
            "players": 2,
            "modules": ["new_buildings", "festival"],
            "building_selection": "random",
        },
        "seed": 77,
        "policies": ["heuristic", "heuristic"],
    },
    {
        # issue #11: Exp. 2 the Nobles, with the Buccaneer's Raid and the Festival
        "name": "pr-4p-nobles",
        "options": {"players": 4, "modules": ["nobles", "buccaneer", "festival"]},
        "seed": 88,
        "policies": ["heuristic", "random", "heuristic", "random"],
    },
    {
        # issue #12: Puerto Rico 1897, the recommended readings, then alternatives
        "name": "pr1897-2p-heuristic",
        "game": "puerto-rico-1897",
        "options": {"players": 2},
        "seed": 12,
        "policies": ["heuristic", "heuristic"],
    },
    {
        "name": "pr1897-3p-mixed",
        "game": "puerto-rico-1897",
        "options": {"players": 3},
        "seed": 23,
        "policies": ["heuristic", "random", "heuristic"],
    },
    {
        "name": "pr1897-4p-heuristic-alternatives",
        "game": "puerto-rico-1897",
        "options": {"players": 4, "cost_swap": True, "alternative_start": True,
                    "end_timing": "round"},
        "seed": 34,
        "policies": ["heuristic"] * 4,
    },
    {
        "name": "pr1897-4p-expansions",
        "game": "puerto-rico-1897",
        "options": {"players": 4, "expansions": [1, 2, 3, 4]},
        "seed": 56,
        "policies": ["heuristic", "random", "heuristic", "random"],
    },
    {
        "name": "pr1897-5p-random",
        "game": "puerto-rico-1897",
        "options": {"players": 5},
        "seed": 45,
        "policies": ["random"] * 5,
    },
    {
        # issue #33: the Puertoma (§8): the solo game against 2 at the Hard and Easy
        # difficulties (a Puertoma seat's policy is never asked), 1 + 1, a table of 3 + 1
        "name": "pr1897-3p-solo-hard",
        "game": "puerto-rico-1897",
        "options": {"players": 3, "puertomas": 2, "puertoma_difficulty": "hard"},
        "seed": 67,
        "policies": ["heuristic"] * 3,
    },
    {
        "name": "pr1897-3p-solo-easy-festival-achievements",
        "game": "puerto-rico-1897",
        "options": {"players": 3, "puertomas": 2, "puertoma_difficulty": "easy",
                    "expansions": [4, 5, 6]},
        "seed": 68,
        "policies": ["heuristic"] * 3,
    },
    {
        "name": "pr1897-2p-one-puertoma",
        "game": "puerto-rico-1897",
        "options": {"players": 2, "puertomas": 1},
        "seed": 69,
        "policies": ["random"] * 2,
    },
    {
        "name": "pr1897-4p-one-puertoma-expansions",
        "game": "puerto-rico-1897",
        "options": {"players": 4, "puertomas": 1, "expansions": [1, 2, 3, 4, 5, 6]},
        "seed": 78,
        "policies": ["heuristic", "random", "heuristic", "heuristic"],
    },
    {
        # issue #33: Expansions V (the Festival Activities) and VI (the Achievements), dealt,
        # and drafted after Expansion I's draft with every expansion
        "name": "pr1897-4p-activities-achievements",
        "game": "puerto-rico-1897",
        "options": {"players": 4, "expansions": [4, 5, 6]},
        "seed": 89,
        "policies": ["heuristic", "random", "heuristic", "random"],
    },
    {
        "name": "pr1897-5p-all-expansions-achievement-draft",
        "game": "puerto-rico-1897",
        "options": {"players": 5, "expansions": [1, 2, 3, 4, 5, 6], "achievement_deal": "draft"},
        "seed": 90,
        "policies": ["heuristic", "random", "heuristic", "random", "heuristic"],
    },
    {
        # the SJ games recorded before issue #33 keep the Councillor's draws of their time
        "name": "sj-2p-heuristic",
        "game": "san-juan",
        "options": {"players": 2, "councillor_draw": "at_once"},
        "seed": 11,
        "policies": ["heuristic", "heuristic"],
    },
    {
        "name": "sj-3p-mixed-variant",
        "game": "san-juan",
        "options": {"players": 3, "variant_start": True, "councillor_draw": "at_once"},
        "seed": 22,
        "policies": ["heuristic", "random", "heuristic"],
    },
    {
        "name": "sj-4p-heuristic",
        "game": "san-juan",
        "options": {"players": 4, "councillor_draw": "at_once"},
        "seed": 33,
        "policies": ["heuristic"] * 4,
    },
    {
        "name": "sj-4p-random",
        "game": "san-juan",
        "options": {"players": 4, "councillor_draw": "at_once"},
        "seed": 44,
        "policies": ["random"] * 4,
    },
    {
        # issue #33: the Councillor's draws dealt clockwise, each seat drawing or passing first
        "name": "sj-3p-heuristic-clockwise",
        "game": "san-juan",
        "options": {"players": 3},
        "seed": 23,
        "policies": ["heuristic"] * 3,
    },
    {
        "name": "sj-4p-mixed-clockwise-variant",
        "game": "san-juan",
        "options": {"players": 4, "variant_start": True},
        "seed": 34,
        "policies": ["heuristic", "random", "heuristic", "random"],
    },
]


def state_hash(state: Any, game_name: str = "puerto-rico") -> str:
    game = get_game(game_name)
    return hashlib.sha256(canonical_json(game.dump(state)).encode()).hexdigest()


def record(case: dict[str, Any]) -> dict[str, Any]:
    game_name = case.get("game", "puerto-rico")
    game = get_game(game_name)
    options = game.normalize_options(case["options"])
    policies = [
        make_policy(name, game_name, policy_seed(case["seed"], seat))
        for seat, name in enumerate(case["policies"])
    ]
    result = play_game(game, options, case["seed"], policies)
    outcome = game.outcome(result.final)
    assert outcome is not None
    return {
        "game": game_name,
        "options": options,
        "seed": case["seed"],
        "actions": [[seat, code] for seat, code in result.actions],
        "expected": {
            "outcome": outcome.to_json(),
            "final_state_sha256": state_hash(result.final, game_name),
        },
    }


def rehash(path: Path) -> bool:
    """Replay the file's actions and write the final state's hash of today's save format;
    ``AssertionError`` when the outcome is not the recorded one.  Whether the hash changed."""
    data = json.loads(path.read_text())
    state, _ = replay(data["game"], data["options"], data["seed"], data["actions"])
    outcome = get_game(data["game"]).outcome(state)
    assert outcome is not None and outcome.to_json() == data["expected"]["outcome"], path.name
    digest = state_hash(state, data["game"])
    if digest == data["expected"]["final_state_sha256"]:
        return False
    data["expected"]["final_state_sha256"] = digest
    path.write_text(json.dumps(data, sort_keys=True, indent=None) + "\n")
    return True


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--rehash"]:
        for path in sorted(GOLDEN_DIR.glob("*.json")):
            print(f"{'rehashed' if rehash(path) else 'unchanged'} {path}")
        return
    games = set(args)
    GOLDEN_DIR.mkdir(exist_ok=True)
    for case in CASES:
        if games and not games & {case.get("game", "puerto-rico"), case["name"]}:
            continue
        path = GOLDEN_DIR / f"{case['name']}.json"
        path.write_text(json.dumps(record(case), sort_keys=True, indent=None) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
