"""Puerto Rico's Exp. 1 on the images (rules spec §10): the draft in progress (the empty
violet spaces in their columns with their printed cost, the buildings drafted so far, the
caption counting what is left), the drafted market of 17 violet kinds readable on a phone,
forests as island tiles of their own (no circle: a forest holds no colonist), the Guest house's
guests, the module in the title band, the panel's focuses of the new prompts, the Spanish
words; clean layouts with long names at 2 and 5 players with the Buccaneer and the Festival
too, real PNGs within the budget."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest

from bot.rendering import image_labels
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from render import layout_panel, layout_table, render_panel, render_table
from render import theme as T
from render.puerto_rico.new_buildings import column_of
from render.puerto_rico.panel import panel_focus
from render.scene import Ellipse, Polygon, Scene
from tests.engine.puerto_rico.scenario import Scenario
from tests.render.helpers import LONG_NAMES, bounds, problems

GAME = get_game("puerto-rico")
ALL = ["new_buildings", "buccaneer", "festival"]
BUDGET = 400_000
BOARD = ["small_market", "black_market", "forest_house", "storehouse", "guest_house", "church",
         "trading_post", "small_wharf", "lighthouse", "library", "specialty_factory",
         "union_hall", "guild_hall", "residence", "cloister", "statue", "city_hall"]


@cache
def positions(players: int) -> list[tuple[Mapping[str, Any], tuple[Event, ...]]]:
    """Public views (and the events that led there) of a seeded random game with every module:
    each draft pick, then every position where a forest or a guest appeared, and the end."""
    state = GAME.setup({"players": players, "modules": ALL}, 40 + players)
    policies = [make_policy("random", "puerto-rico", 3 * players + s) for s in range(players)]
    out: list[tuple[Mapping[str, Any], tuple[Event, ...]]] = [(GAME.view(state, None), ())]
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        public = tuple(e.for_viewer(None) or e for e in events)
        if any(e.type in ("BuildingDrafted", "ForestPlaced", "GuestMoved", "BlackMarketUsed")
               for e in public):
            out.append((GAME.view(state, None), public))
    out.append((GAME.view(state, None), ()))
    return out


def scenes(players: int, labels: dict[str, str] | None = None
           ) -> Iterator[tuple[Mapping[str, Any], Scene]]:
    for view, events in positions(players):
        yield view, layout_table(view, events, names=LONG_NAMES[:players], labels=labels)


def forests_of(view: Mapping[str, Any], seat: int) -> int:
    return sum(t["tile"] == "forest" for t in view["players"][seat]["island"])


@pytest.mark.parametrize("players", [2, 5])
def test_the_draft_forests_and_guests_are_drawn_cleanly(players: int) -> None:
    """Every position: the draft's empty spaces (as many as left, each in the column of its
    cost), the buildings drafted, the forests; long names, no overlap, legible on a phone."""
    drafting = forests = guests = 0
    for view, scene in scenes(players):
        assert problems(scene) == [], (view["round"], view["phase"])
        regions = scene.regions
        assert "modules" in regions
        left = {int(c): n for c, n in view["draft"]["spaces_left"].items()}
        spaces = [k for k in regions if k.startswith("draft:")]
        assert len([k for k in spaces if k != "draft"]) == sum(left.values())
        if left:
            drafting += 1
            assert "draft" in regions  # the caption counting what is left
        for key in spaces:
            if key == "draft":
                continue
            cost = int(key.split(":")[1])
            column = next(c for c in range(4) if regions[key].x == market_x(scene, c))
            assert column + 1 == column_of(cost), key
        for name in view["draft"]["drafted"]:
            assert f"market:{name}" in regions
        for seat in range(players):
            if forests_of(view, seat):
                forests += 1
                assert regions[f"player:{seat}:island"].contains(
                    regions[f"player:{seat}:island:forest"])
            house = next((b for b in view["players"][seat]["city"]
                          if b["building"] == "guest_house"), None)
            guests += bool(house and house["colonists"])
    assert drafting and forests, (drafting, forests)


def market_x(scene: Scene, column: int) -> int:
    col_w = (T.INNER - 3 * T.GAP) // 4
    return T.MARGIN + column * (col_w + T.GAP)


def board(players: int = 5) -> Scenario:
    sc = Scenario(players=players, seed=3, modules=ALL)
    sc.board(BOARD)
    return sc


def test_a_forest_is_a_tile_of_its_own_without_a_circle() -> None:
    sc = board()
    sc.player(0, tiles={"corn": (1, 1)}, forests={"sugar": 2, "coffee": 1})
    view = GAME.view(sc.state, None)
    scene = layout_table(view, names=LONG_NAMES)
    assert problems(scene) == []
    island = [t["tile"] for t in view["players"][0]["island"]]
    assert island == ["corn", "forest", "forest", "forest"]
    for k in (1, 2, 3):
        box = scene.regions[f"player:0:island:{k}"]
        inside = [s for s in scene.dynamic if box.contains(bounds(s))]
        assert any(isinstance(s, Polygon) and s.fill == T.FOREST_LIGHT for s in inside)
        assert not any(isinstance(s, Ellipse) for s in inside)  # no occupancy circle
        assert not [t for t in scene.texts if box.contains(t.box)]  # no letter either
    legend = layout_table(view).regions
    assert "player:0:island:forest" in legend
    words = " ".join(t.text for t in layout_table(
        view, labels=image_labels("puerto-rico", "es")).texts)
    assert "bosque" in words  # the legend names the forest


def test_guests_sit_on_the_guest_house() -> None:
    sc = board()
    sc.player(1, buildings={"guest_house": 2, "library": 0})
    scene = layout_table(GAME.view(sc.state, None), names=LONG_NAMES)
    box = scene.regions["player:1:city:guest_house"]
    taken = [s for s in scene.dynamic if isinstance(s, Ellipse) and box.contains(s.box)
             and s.fill == T.COLONIST]
    assert len(taken) == 2


def test_the_drafted_market_reads_at_550_px_in_both_languages() -> None:
    """17 violet kinds with their long names (Spanish: Fábrica de especialidades, Embarcadero
    pequeño), every building of the board in its tile, nothing cut below 11 px."""
    sc = board()
    view = GAME.view(sc.state, None)
    assert len(view["market"]) == 23 and view["draft"]["drafted"] == BOARD
    for labels in (None, image_labels("puerto-rico", "es")):
        scene = layout_table(view, names=LONG_NAMES, labels=labels)
        assert problems(scene) == []
        for name in BOARD:
            box = scene.regions[f"market:{name}"]
            names = [t.text for t in scene.texts if box.contains(t.box)]
            assert names and "…" not in names[0], (name, names)
    es = layout_table(view, labels=image_labels("puerto-rico", "es"))
    words = " ".join(t.text for t in es.texts)
    for spanish in ("Mercado negro", "Casa forestal", "Posada", "Puesto de comercio",
                    "Salón gremial", "Monasterio", "Estatua"):
        assert spanish in words, spanish
    assert "+ Los Nuevos Edificios, El Bucanero, El Festival" in words


def test_the_draft_in_progress() -> None:
    sc = Scenario(players=2, seed=3, modules=ALL)
    state = sc.act(sc.state, 0, "d.library")
    state = sc.act(state, 1, "d.forest_house")
    view = GAME.view(state, None)
    scene = layout_table(view, [], names=LONG_NAMES[:2])
    assert problems(scene) == []
    caption = next(t.text for t in scene.texts if scene.regions["draft"].contains(t.box))
    assert caption == "Building draft: 15 spaces left, 2 drafted (cost on each space)"
    spaces = sorted(int(k.split(":")[1]) for k in scene.regions if k.count(":") == 2
                    and k.startswith("draft:"))
    assert spaces == [1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10]
    assert "market:library" in scene.regions and "market:forest_house" in scene.regions
    large = next(k for k in scene.regions if k.startswith("draft:10:"))
    texts = [t.text for t in scene.texts if scene.regions[large].contains(t.box)]
    assert "to draft" in texts and "10" in texts
    marked = layout_table(view, [Event("BuildingDrafted", 1, {"building": "forest_house"})],
                          names=LONG_NAMES[:2])  # the same names: a long one takes two lines
    assert len(marked.dynamic) > len(scene.dynamic)  # the pick framed as just changed
    png = render_table(view, names=LONG_NAMES[:2])
    assert png.startswith(b"\x89PNG") and len(png) < BUDGET
    es = layout_table(view, labels=image_labels("puerto-rico", "es"))
    words = " ".join(t.text for t in es.texts)
    assert "Elección de edificios: 15 espacios libres, 2 elegidos" in words
    assert "por elegir" in words


def test_the_panels_of_the_new_prompts() -> None:
    sc = Scenario(players=3, seed=3, modules=["new_buildings"])
    view = GAME.view(sc.state, 0)
    assert panel_focus(view, 0) == "market" and view["prompt"]["kind"] == "draft"
    scene = layout_panel(view, names=LONG_NAMES[:3])
    assert problems(scene) == [] and "draft" in scene.regions
    assert any(k.startswith("draft:1:") for k in scene.regions)
    assert render_panel(view).startswith(b"\x89PNG")
    waiting = GAME.view(sc.state, 1)
    assert panel_focus(waiting, 1) == "market"  # the draft's phase, for whoever waits
    forest = {**view, "prompt": {"seats": [0], "kind": "forest", "forced": False}}
    assert panel_focus(forest, 0) == "plantations"
    interlude = {**view, "prompt": {"seats": [0], "kind": "interlude", "forced": False}}
    assert panel_focus(interlude, 0) == "none"
    played = board(3)
    played.player(0, forests={"corn": 2}, buildings={"guest_house": 1, "forest_house": 1})
    mine = GAME.view(played.state, 0)
    for labels in (None, image_labels("puerto-rico", "es")):
        assert problems(layout_panel(mine, names=LONG_NAMES[:3], labels=labels)) == []


@pytest.mark.parametrize("players", [2, 5])
def test_the_images_stay_within_the_budget(players: int) -> None:
    for view, events in positions(players)[-4:]:
        png = render_table(view, events, names=LONG_NAMES[:players])
        assert png.startswith(b"\x89PNG") and len(png) < BUDGET
