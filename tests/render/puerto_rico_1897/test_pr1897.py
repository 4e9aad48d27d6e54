"""Puerto Rico 1897's images: the kernel's layouts in 1897's words and colours.

Real games of the 1897 engine, drawn as scenes and PNGs: no classic word on any image, Fruit in
its own green (never the kernel's Indigo blue), the Wharves' private ships shown while they hold
crates, the expansions named by their numbers, and the score sheet in 1897's words."""

from __future__ import annotations

import io
import re
from functools import cache
from typing import Any

import pytest
from PIL import Image

from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico_1897 import names
from engine.puerto_rico_1897.vocabulary import kernel_event, kernel_view
from render import layout_panel, layout_scoresheet, layout_table, render_png
from render import theme as T
from render.puerto_rico import pieces as P
from render.puerto_rico_1897 import ENGLISH, FRUIT, FRUIT_EDGE, RECOLOR
from render.scene import Box, Rect, Scene, Sketch
from tests.render.helpers import problems

GAME = get_game("puerto-rico-1897")
ALL = {"expansions": [1, 2, 3, 4, 5]}
CLASSIC_WORDS = re.compile(
    r"indigo|doubloon|colonist|san juan|settler|mayor|prospector|buccaneer|hospice|"
    r"university|guild hall|construction hut|plantation|vp chips|villa|jeweler|noble",
    re.IGNORECASE,
)
"""Words of the classic game that 1897 says otherwise (§1, §5): none may be drawn."""


@cache
def game_states(
    players: int, seed: int, expansions: tuple[int, ...]
) -> list[tuple[Any, tuple[Event, ...]]]:
    """Every state of one heuristic game, with the events that led to it."""
    state = GAME.setup({"players": players, "expansions": list(expansions)}, seed)
    policies = [make_policy("heuristic", GAME.name, seed * 10 + s) for s in range(players)]
    out: list[tuple[Any, tuple[Event, ...]]] = [(state, ())]
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        out.append((state, tuple(events)))
    return out


def texts(scene: Scene) -> list[str]:
    return [t.text for t in scene.texts]


def colors(scene: Scene) -> set[Any]:
    return {
        getattr(s, f, None) for s in (*scene.static, *scene.dynamic) for f in ("fill", "outline")
    } - {None}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_classic_word_and_no_indigo_blue_on_any_image(players: int) -> None:
    """D-2, §1, §5: every table, panel and score sheet of a game with Expansions I-IV speaks
    1897's words and draws Fruit green: the kernel's Indigo colours never reach the image."""
    steps = game_states(players, players, (1, 2, 3, 4, 5))
    indigo = set(RECOLOR)
    for index in range(0, len(steps), max(1, len(steps) // 6)):
        state, events = steps[index]
        view = GAME.view(state, None)
        scenes = [layout_table(view, events)]
        for seat in range(players):
            scenes.append(layout_panel(GAME.view(state, seat), seat, None, events))
        for scene in scenes:
            drawn = " | ".join(texts(scene))
            assert CLASSIC_WORDS.search(drawn) is None, (index, CLASSIC_WORDS.search(drawn))
            assert not colors(scene) & indigo
            assert problems(scene) == []
    final = GAME.outcome(steps[-1][0])
    assert final is not None
    sheet = layout_scoresheet(final.to_json(), game=GAME.name)
    drawn = " | ".join(texts(sheet))
    assert CLASSIC_WORDS.search(drawn) is None
    assert "VP tokens" in drawn and "coins + crates" in drawn


def test_fruit_is_drawn_green_where_the_kernel_draws_indigo() -> None:
    """D-2: the goods left in the supply show a green Fruit barrel lettered F."""
    state, _ = game_states(3, 1, ())[0]
    scene = layout_table(GAME.view(state, None))
    assert FRUIT in colors(scene) and FRUIT_EDGE in colors(scene)
    drawn = texts(scene)
    assert "F" in drawn and "I" not in drawn
    assert "Puerto Rico 1897" in drawn


def test_the_wharves_private_ships_show_while_they_hold_crates() -> None:
    """B-18, D-12: the Wharf's crates stay on its private ship until the Captain phase ends,
    and the table shows them there (and no row when the private ships are empty)."""
    steps = game_states(4, 1, (1,))
    held = [(s, e) for s, e in steps if any(GAME.view(s, None)["private_ships"].values())]
    assert held, "the heuristic game loads a Wharf"
    state, events = held[0]
    view = GAME.view(state, None)
    scene = layout_table(view, events)
    assert "Private ships" in texts(scene)
    region = scene.regions["private_ships"]
    letters = [t.text for t in scene.texts if region.contains(t.box)]
    counts = [str(n) for n in view["private_ships"].values() if n]
    assert counts and all(n in letters for n in counts)
    empty = layout_table(GAME.view(steps[0][0], None))
    assert "Private ships" not in texts(empty)


def test_the_expansions_are_named_by_their_numbers() -> None:
    state, _ = game_states(4, 2, (1, 2, 3, 4))[0]
    drawn = texts(layout_table(GAME.view(state, None)))
    assert "+ Expansions I, II, III, IV" in drawn


def test_kernel_view_reads_the_view_back_in_the_kernel_words() -> None:
    """The renderer's reading is the engine's own word table reversed: the kernel's names of
    the 1897 view (coins are doubloons, the portrait San Juan, Fruit Indigo), the expansions
    as the kernel's modules."""
    state, _ = game_states(4, 2, (1, 2, 3, 4))[0]
    view = GAME.view(state, 0)
    kernel = kernel_view(view)
    assert kernel["options"]["modules"] == ["new_buildings", "nobles", "buccaneer", "festival"]
    me, mine = view["players"][0], kernel["players"][0]
    assert mine["doubloons"] == me["coins"] and mine["san_juan"] == me["portrait"]
    assert kernel["colonists"] == {
        "ship": view["workers"]["agency"],
        "supply": view["workers"]["supply"],
    }
    assert kernel["goods_supply"]["indigo"] == view["goods_supply"]["fruit"]
    assert names.data(kernel, reverse=False)["players"] == view["players"]


def test_kernel_event_reads_events_and_their_json() -> None:
    event = Event("WorkerPlaced", 2, {"building": "large_fruit_depot", "source": "agency"})
    for given in (event, event.to_json()):
        back = kernel_event(given)
        assert back.type == "ColonistPlaced" and back.seat == 2
        assert back.data == {"building": "indigo_plant", "source": "ship"}


def test_recolored_changes_only_the_mapped_colours() -> None:
    sk = Sketch(600, T.BACKGROUND)
    box = sk.region("a", Box(10, 10, 40, 40))
    sk.rect(box, P.GOOD_COLORS["indigo"], P.GOOD_EDGE["indigo"], 2)
    sk.rect(Box(60, 10, 40, 40), P.GOOD_COLORS["corn"], P.GOOD_EDGE["corn"], 2, static=True)
    scene = sk.scene(200)
    out = scene.recolored(RECOLOR)
    shapes = [s for s in (*out.static, *out.dynamic) if isinstance(s, Rect)]
    assert {(s.fill, s.outline) for s in shapes} == {
        (FRUIT, FRUIT_EDGE),
        (P.GOOD_COLORS["corn"], P.GOOD_EDGE["corn"]),
    }
    assert out.regions == scene.regions and out.regions["a"] == box
    assert scene.recolored({}) is scene


def test_the_fruit_colours_are_exact_in_the_png() -> None:
    """The PNG's fixed palette holds 1897's Fruit colours exactly (no nearest shade)."""
    state, _ = game_states(3, 1, ())[0]
    png = render_png(layout_table(GAME.view(state, None)))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    found = {color for _, color in image.getcolors(1 << 20) or ()}
    assert FRUIT in found and FRUIT_EDGE in found
    assert P.GOOD_COLORS["indigo"] not in found


def test_the_festival_activity_cards_under_the_festival_board() -> None:
    """§7.5: the three cards with their names, tasks, drawn pieces and rewards; a completed
    one names who completed it (and is framed when it just happened)."""
    steps = game_states(5, 4, (4, 5))
    done = next((s, e) for s, e in steps if any(x.type == "FestivalActivityCompleted" for x in e))
    state, events = done
    view = GAME.view(state, None)
    scene = layout_table(view, events)
    drawn = texts(scene)
    assert "Festival activities: the first to complete one wins its reward" in drawn
    completed = next(c for c in view["festival_activities"] if c["completed_by"] is not None)
    key = f"activity:{completed['activity']}"
    assert key in scene.regions and f"{key}:done" in scene.regions
    region = scene.regions[f"{key}:done"]
    assert any(region.contains(t.box) and t.text.startswith("✓") for t in scene.texts)
    for card in view["festival_activities"]:
        assert any(t.startswith(ENGLISH[f"activity.{card['activity']}"][:12]) for t in drawn)
        assert ENGLISH[f"task.{card['task']}"] in drawn
        inside = [
            t.text
            for t in scene.texts
            if scene.regions[f"activity:{card['activity']}"].contains(t.box)
        ]
        for entry in card["properties"] + card["goods"]:
            kind = entry.get("tile") or entry.get("good")
            assert ENGLISH[f"letter.{names.word(kind, names.REVERSE)}"] in inside
            if entry["count"] > 1:
                assert f"×{entry['count']}" in inside
    assert problems(scene) == []
