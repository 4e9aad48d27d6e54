"""Puerto Rico's expansions on the images (rules spec §12, §13): the Buccaneer card among the
roles with its token (on the card, or its holder named there and marked on his panel), the
role card captured this round marked, the Festival board (the plantation kind, the three
barrels, the building, each reward, who achieved each goal), the modules in the title band;
clean layouts with long names at every player count, real PNGs within the budget, the
panel's Buccaneer focus, the Spanish words."""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageStat

from bot.rendering import image_labels
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from render import layout_panel, layout_table, render_panel, render_png, render_table
from render.puerto_rico.panel import panel_focus
from render.scene import Box, Scene
from tests.render.helpers import LONG_NAMES, crowded, problems

GAME = get_game("puerto-rico")
MODULES = ["buccaneer", "festival"]
BUDGET = 400_000


@cache
def positions(players: int) -> list[tuple[Mapping[str, Any], tuple[Event, ...]]]:
    """Public views (and the events that led there) of a seeded random game with both modules:
    the start, every state where the token, a captured card or a Festival goal changed."""
    seed = {2: 44, 3: 43, 4: 44, 5: 45}[players]  # games that capture and reach a goal
    state = GAME.setup({"players": players, "modules": MODULES}, seed)
    policies = [make_policy("random", "puerto-rico", 7 * players + s) for s in range(players)]
    out: list[tuple[Mapping[str, Any], tuple[Event, ...]]] = [(GAME.view(state, None), ())]
    before: tuple[Any, ...] = ()
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        view = GAME.view(state, None)
        now = (
            view["buccaneer"]["token"],
            view["buccaneer"]["captured"],
            tuple(g["achieved_by"] for g in view["festival"].values()),
        )
        if now != before:
            out.append((view, tuple(e.for_viewer(None) or e for e in events)))
            before = now
    out.append((GAME.view(state, None), ()))
    return out


def scenes(players: int) -> Iterator[tuple[Mapping[str, Any], Scene]]:
    for view, events in positions(players):
        yield view, layout_table(view, events, names=LONG_NAMES[:players])


def mean(png: bytes, box: Box) -> float:
    image = Image.open(io.BytesIO(png)).convert("L")
    return float(ImageStat.Stat(image.crop((box.x, box.y, box.right, box.bottom))).mean[0])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_new_elements_are_drawn_cleanly(players: int) -> None:
    """Every position: the Buccaneer card and its token (or holder), the captured card while
    there is one, the three goals; long names, no overlap, legible on a phone."""
    captured = token_held = achieved = 0
    for view, scene in scenes(players):
        regions = scene.regions
        assert problems(scene) == [], view["round"]
        assert "role:buccaneer" in regions and "modules" in regions
        part = view["buccaneer"]
        if part["token"] is None:
            assert regions["role:buccaneer"].contains(regions["buccaneer_token"])
        else:
            token_held += 1
            assert f"player:{part['token']}:token" in regions
            assert regions[f"player:{part['token']}"].contains(
                regions[f"player:{part['token']}:token"]
            )
        if part["captured"]:
            captured += 1
            assert regions[f"role:{part['captured']}"].contains(
                regions[f"role:{part['captured']}:captured"]
            )
        for goal in ("plantation", "production", "construction"):
            assert regions["festival"].contains(regions[f"festival:{goal}"])
            done = view["festival"][goal]["achieved_by"]
            assert (f"festival:{goal}:done" in regions) == (done is not None)
            achieved += done is not None
    assert token_held and captured and achieved  # the game showed each at least once


def test_nine_role_cards_go_on_two_rows() -> None:
    """5 players with the Buccaneer: nine cards, too many for one readable row."""
    view = positions(5)[0][0]
    regions = layout_table(view).regions
    tops = sorted({regions[f"role:{r['card']}"].y for r in view["roles"]})
    assert len(view["roles"]) == 9 and len(tops) == 2
    assert regions["role:buccaneer"].w >= 180  # the title fits whole on a phone
    classic = GAME.view(GAME.setup({"players": 5}, 1), None)
    classic_regions = layout_table(classic).regions
    assert len({classic_regions[f"role:{r['card']}"].y for r in classic["roles"]}) == 1


def test_a_crowded_table_with_the_modules_still_fits() -> None:
    """Every number at its widest, long names holding the token, the captured card and every
    Festival goal: still clean."""
    for players in (2, 5):
        view = dict(GAME.view(crowded(players), None))
        view["roles"] = [
            *view["roles"],
            {"card": "buccaneer", "role": "buccaneer", "doubloons": 0, "taken_by": None},
        ]
        view["options"] = {**view["options"], "modules": MODULES}
        view["buccaneer"] = {"token": 0, "captured": "mayor", "captured_by": 0, "raid_to_place": 0}
        view["festival"] = {
            "plantation": {"tile": "coffee", "achieved_by": 0},
            "production": {"goods": ["indigo", "sugar", "sugar"], "achieved_by": 1},
            "construction": {"building": "coffee_roaster", "achieved_by": 0},
        }
        for labels in (None, image_labels("puerto-rico", "es")):
            scene = layout_table(view, names=LONG_NAMES[:players], labels=labels)
            assert problems(scene) == [], (players, labels is None)


def test_the_token_and_the_festival_make_a_different_image_within_the_budget() -> None:
    view = positions(5)[0][0]
    png = render_table(view)
    assert png.startswith(b"\x89PNG") and len(png) < BUDGET
    image = Image.open(io.BytesIO(png))
    image.verify()
    regions = layout_table(view).regions
    assert mean(png, regions["buccaneer_token"]) < 140  # the dark token on the light card
    plain = {
        **view,
        "buccaneer": None,
        "festival": None,
        "roles": [r for r in view["roles"] if r["card"] != "buccaneer"],
        "options": {**view["options"], "modules": []},
    }
    assert render_table(plain) != png
    plain_regions = layout_table(plain).regions
    assert "festival" not in plain_regions and "buccaneer_token" not in plain_regions
    assert layout_table(view).height == layout_table(plain).height + (regions["festival"].h + 8) + (
        regions["role:buccaneer"].h + 8
    )
    for players in (2, 3, 4, 5):
        for later, events in positions(players)[-3:]:
            assert len(render_table(later, events, names=LONG_NAMES[:players])) < BUDGET


def test_the_festival_board_says_who_won_and_what_is_open() -> None:
    view = next(
        v
        for v, _ in positions(4)
        if any(g["achieved_by"] is not None for g in v["festival"].values())
    )
    scene = layout_table(view, names=["Ana", "Bo", "Cy", "Di"])
    texts = [t.text for t in scene.texts if scene.regions["festival"].contains(t.box)]
    for goal, entry in view["festival"].items():
        if entry["achieved_by"] is not None:
            assert f"✓ {['Ana', 'Bo', 'Cy', 'Di'][entry['achieved_by']]}" in texts, goal
    assert texts.count("open") == sum(g["achieved_by"] is None for g in view["festival"].values())
    es = layout_table(view, labels=image_labels("puerto-rico", "es"))
    words = " ".join(t.text for t in es.texts)
    assert "Objetivos del Festival" in words and "El Bucanero, El Festival" in words


def test_the_buccaneer_panel_shows_what_its_options_act_on() -> None:
    """The chooser's panel: role cards (Capture), ships (Piracy), the trading house (Plunder),
    the colonist ship (Raid); the raided colonists' panel: the colonist ship."""
    state = GAME.setup({"players": 3, "modules": MODULES}, 5)
    state, _ = GAME.apply(state, 0, GAME.decode_action("r.buccaneer"))
    view = GAME.view(state, 0)
    assert panel_focus(view, 0) == "buccaneer"
    scene = layout_panel(view, names=LONG_NAMES[:3])
    assert problems(scene) == []
    for key in ("role:buccaneer", "ship:0", "trading_house", "colonist_ship"):
        assert key in scene.regions, key
    assert render_panel(view).startswith(b"\x89PNG")
    raid = {**view, "prompt": {"seats": [0], "kind": "raid_place", "forced": False}}
    assert panel_focus(raid, 0) == "colonists"
    roles = {**view, "prompt": {"seats": [0], "kind": "role", "forced": False}}
    role_scene = layout_panel(roles)
    assert "festival" in role_scene.regions and problems(role_scene) == []
    assert "festival" not in scene.regions


def test_the_image_words_have_spanish_names() -> None:
    labels = image_labels("puerto-rico", "es")
    assert labels["role.buccaneer"] == "Bucanero"
    assert labels["module.buccaneer"] == "El Bucanero"
    assert labels["ui.token"] == "ficha" and labels["ui.captured"] == "capturado"
    png = render_png(layout_table(positions(2)[0][0], labels=labels))
    assert png.startswith(b"\x89PNG")
