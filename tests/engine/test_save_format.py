"""The save format of every game (issue #34): things are saved by name, a table that grows breaks
no save, and the saves of format 1 (table indices) still load as the states they were.

``tests/engine/saves/format1-<game>.json`` holds format-1 dumps written by the engine before
format 2 (its ``written_by``), each with the action log that reaches it: a save loads exactly
when it is the state its log replays to.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine import game_names, get_game, replay
from engine.core import CorruptState
from engine.puerto_rico import save as pr_save
from engine.puerto_rico import save_v1 as pr_v1
from engine.puerto_rico_1897 import save_v1 as pr1897_v1
from engine.puerto_rico_1897.achievements import CARDS as ACHIEVEMENTS
from engine.puerto_rico_1897.festival_activities import ACTIVITIES
from engine.puerto_rico_1897.puertoma import SKILLS
from engine.san_juan import save as sj_save
from engine.san_juan import save_v1 as sj_v1

SAVES = Path(__file__).resolve().parent / "saves"
ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(path.stem.removeprefix("format1-") for path in SAVES.glob("format1-*.json"))


@cache
def format1(game: str) -> dict[str, Any]:
    data = json.loads((SAVES / f"format1-{game}.json").read_text())
    games: dict[str, Any] = data["games"]
    return games


CHECKPOINTS = [
    (game, key, int(at))
    for game in GAMES
    for key, entry in sorted(format1(game).items())
    for at in entry["checkpoints"]
]


@cache
def reached(game: str, key: str, at: int) -> Any:
    """The state the log of ``key`` reaches after ``at`` actions (never mutated: ``apply``
    works on a copy)."""
    entry = format1(game)[key]
    state, _ = replay(game, entry["options"], entry["seed"], entry["actions"][:at])
    return state


def test_every_game_has_format_1_saves_active_and_finished() -> None:
    """The fixtures cover every registered game, each with a game being played and a finished
    one."""
    assert sorted(game_names()) == GAMES
    for game in GAMES:
        finished = [get_game(game).prompt(reached(game, key, at)) is None
                    for g, key, at in CHECKPOINTS if g == game]
        assert True in finished and False in finished, game


@pytest.mark.parametrize(("game", "key", "at"), CHECKPOINTS, ids=str)
def test_a_format_1_save_loads_as_the_state_its_log_reaches(game: str, key: str, at: int) -> None:
    """A save of format 1 loads into the very state its log replays to, dumps as format 2, and
    that dump loads back into the same state."""
    engine_game = get_game(game)
    old = format1(game)[key]["checkpoints"][str(at)]
    assert old["format"] == 1
    loaded = engine_game.load(old)
    expected = engine_game.dump(reached(game, key, at))
    new = engine_game.dump(loaded)
    assert new == expected and new["format"] == 2
    assert engine_game.dump(engine_game.load(json.loads(json.dumps(new)))) == new


def test_format_2_saves_name_things() -> None:
    """Buildings, role cards, goods, tiles, 1897's cards and skills, San Juan's card kinds and
    roles are saved by name."""
    pr = get_game("puerto-rico")
    saved = pr.dump(reached("puerto-rico", "pr-5p-modules", 373))
    assert saved["cards"][:3] == ["settler", "mayor", "builder"]
    assert all(isinstance(name, str) for name in saved["market"])
    assert all(isinstance(b, str) for p in saved["players"] for b, _ in p["city"])
    assert set(saved["goods"]) <= {"corn", "indigo", "sugar", "tobacco", "coffee"}
    ptm = get_game("puerto-rico-1897").dump(reached("puerto-rico-1897",
                                                    "pr1897-4p-puertoma-all", 82))
    board = ptm["puertoma"]["boards"][0]
    assert board["reserve"] == "guild_hall" and board["spaces"][0] == "chapel"
    assert board["skills"][0] == ["trader_coin", "active"]
    assert ptm["festival_activities"]["cards"][1]["card"] == "twin_farmers_game"
    assert set(ptm["achievements"]["cards"]) <= {c.name for c in ACHIEVEMENTS}
    sj = get_game("san-juan").dump(reached("san-juan", "sj-4p-variant", 160))
    assert all(isinstance(card, str) for card in sj["pile"])
    assert all(isinstance(card, str) for p in sj["players"] for stack in p["area"]
               for card in stack)


@pytest.mark.parametrize(
    ("game", "path", "value"),
    [
        ("puerto-rico", ("market",), {"no_such_building": 1}),
        ("puerto-rico", ("players", 0, "city"), [["no_such_building", 0]]),
        ("puerto-rico", ("cards",), ["settler", "no_such_role"]),
        ("puerto-rico", ("goods",), {"silver": 1}),
        ("puerto-rico-1897", ("achievements", "cards"), {"no_such_card": [0, "held"]}),
        ("san-juan", ("pile",), ["no_such_card"]),
        ("san-juan", ("players", 0, "hand"), {"no_such_card": 1}),
    ],
    ids=str,
)
def test_an_unknown_name_is_a_corrupt_save(game: str, path: tuple[Any, ...], value: Any) -> None:
    """A save naming something the catalog does not know (a building removed, a save of a newer
    engine) raises CorruptState ``unknown_name`` naming it, never a crash."""
    key = {"puerto-rico": "pr-5p-modules", "puerto-rico-1897": "pr1897-5p-all-draft",
           "san-juan": "sj-4p-variant"}[game]
    engine_game = get_game(game)
    entry = format1(game)[key]
    at = max(int(n) for n in entry["checkpoints"])
    saved = json.loads(json.dumps(engine_game.dump(reached(game, key, at))))
    target = saved
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(CorruptState) as info:
        engine_game.load(saved)
    assert info.value.code == "unknown_name"
    assert "no_such" in info.value.details["name"] or "silver" in info.value.details["name"]


def test_the_format_1_tables_are_frozen_and_still_name_what_the_engine_knows() -> None:
    """Format 1 is read through copies of the tables of its time; every name in them must stay
    known to the engine (a building renamed needs its old name mapped there)."""
    assert pr_save.DUMP_VERSION == sj_save.DUMP_VERSION == 2
    assert set(pr_v1.BUILDINGS) <= set(pr_save.BUILDINGS.names)
    assert len(pr_v1.BUILDINGS) == 45 and pr_v1.BASE_BUILDINGS == 23
    assert set(pr_v1.ROLES) <= set(pr_save.ROLES.names)
    assert (pr_save.GOOD_NAMES.names, pr_save.TILE_NAMES.names) == (pr_v1.GOODS, pr_v1.TILES)
    assert set(pr1897_v1.ACHIEVEMENTS) <= {c.name for c in ACHIEVEMENTS}
    assert set(pr1897_v1.ACTIVITIES) <= {a.name for a in ACTIVITIES}
    assert all(set(old) <= set(new) for old, new in zip(pr1897_v1.SKILLS, SKILLS, strict=True))
    assert set(sj_v1.CARDS) <= set(sj_save.CARD_NAMES.names)
    assert set(sj_v1.ROLES) <= set(sj_save.ROLE_NAMES.names)


# --- a building added to a table ------------------------------------------------------------------

# Puerto Rico: a building at the head of the catalog (every index moves by one); San Juan: a card
# kind (no copy in the deck) at the head of its table.  Each edit names the line it changes, so
# that a reshaped table makes this test say so.
PATCHES = {
    "puerto_rico/actions.py": (
        "CATALOG: Final = (*BASE_BUILDINGS, *NEW_BUILDINGS, *NOBLES_BUILDINGS)",
        "CATALOG: Final = (_PAVILION, *BASE_BUILDINGS, *NEW_BUILDINGS, *NOBLES_BUILDINGS)",
    ),
    "puerto_rico/data.py": (
        "# The modules that add buildings",
        "PAVILION: Final = _b('test_pavilion', 3, 1, 1, 1, 2, 1, SMALL_VIOLET)  # in no game\n"
        "# The modules that add buildings",
    ),
    "san_juan/data.py": (
        "CARDS: Final[tuple[Card, ...]] = (\n",
        "CARDS: Final[tuple[Card, ...]] = (\n"
        "    Card('test_fountain', 'fuente', VIOLET, 2, 1, 0, PHASE_NONE),  # no copy\n",
    ),
}
IMPORT = ("from .data import (\n    BASE_BUILDINGS,",
          "from .data import PAVILION as _PAVILION\nfrom .data import (\n    BASE_BUILDINGS,")

CHILD = """
import json, sys
from engine import get_game
from engine.puerto_rico.actions import BUILDING_INDEX
from engine.san_juan.data import KIND_INDEX
assert BUILDING_INDEX["test_pavilion"] == 0 and BUILDING_INDEX["small_indigo_plant"] == 1
assert KIND_INDEX["test_fountain"] == 0 and KIND_INDEX["indigo_plant"] == 1
cases = json.load(open(sys.argv[1]))
for case in cases:
    game = get_game(case["game"])
    for saved in (case["format1"], case["format2"]):
        state = game.load(saved)
        assert game.dump(state) == case["format2"], (case["name"], saved["format"])
        for (seat, code), after in zip(case["next"], case["after"], strict=True):
            state, _ = game.apply(state, seat, game.decode_action(code))
            assert game.dump(state) == after, (case["name"], code)
print("ok", len(cases))
"""


def test_a_building_added_to_a_table_changes_no_save(tmp_path: Path) -> None:
    """An engine whose catalogs got a new entry at their head (every later index moves) loads
    the saves of today's engine, of both formats, into the same states: it dumps them alike,
    and the games go on alike for their next actions."""
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine", copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, (old, new) in {**PATCHES, "puerto_rico/actions.py#import": IMPORT}.items():
        path = copy / name.split("#")[0]
        text = path.read_text()
        assert text.count(old) == 1, f"{name}: {old!r} is not there once"
        path.write_text(text.replace(old, new))
    cases = []
    for game, key, at in CHECKPOINTS:
        engine_game = get_game(game)
        entry = format1(game)[key]
        state = reached(game, key, at)
        moves = entry["actions"][at:at + 6]
        after = []
        for seat, code in moves:
            state, _ = engine_game.apply(state, seat, engine_game.decode_action(code))
            after.append(engine_game.dump(state))
        cases.append({
            "name": f"{key}@{at}", "game": game, "format1": entry["checkpoints"][str(at)],
            "format2": engine_game.dump(reached(game, key, at)), "next": moves, "after": after,
        })
    assert sum(1 for c in cases if c["next"]) > len(cases) // 2
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    env = {**os.environ, "GOVERNOR_NATIVE": "0", "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "cases.json")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["ok", str(len(cases))]
