"""The table layout: everything public is on the image, where expected, legible at phone width,
without overlaps and inside the canvas, for 2-5 players (the issue's layout assertions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine.puerto_rico.view import CityBuilding
from render import layout_table
from render import theme as T
from render.puerto_rico.players import CITY_COLS, CITY_ROWS, city_grid
from render.scene import Scene
from tests.render.helpers import (
    GAME,
    KEY_PX,
    LONG_NAMES,
    SCALE,
    crowded,
    played,
    positions,
    problems,
    texts_in,
)

PLAYERS = (2, 3, 4, 5)


def _scenes(players: int) -> list[tuple[str, Mapping[str, Any], Scene]]:
    out = []
    for label, game in positions(players):
        view = game.view()
        out.append((label, view, layout_table(view, game.highlights())))
    return out


@pytest.mark.parametrize("players", PLAYERS)
def test_every_public_component_has_its_place(players: int) -> None:
    """Roles, ships, trading house, goods, buildings and every player's parts are all drawn."""
    for label, view, scene in _scenes(players):
        regions = scene.regions
        for key in ("title", "status", "governor", "colonist_ship", "colonist_supply",
                    "vp_chips", "face_up", "quarries", "plantation_stack", "trading_house",
                    "goods_supply"):
            assert key in regions, (label, key)
        for role in view["roles"]:
            assert f"role:{role['card']}" in regions
        for i, _ in enumerate(view["ships"]):
            assert f"ship:{i}" in regions
        for good in view["goods_supply"]:
            assert f"goods_supply:{good}" in regions
        for k in range(view["trading_house_capacity"]):
            assert f"trading_house:{k}" in regions
        for entry in view["market"]:
            assert f"market:{entry['building']}" in regions
        for p in view["players"]:
            seat = p["seat"]
            for part in ("doubloons", "san_juan", "goods", "island", "city", "name"):
                assert f"player:{seat}:{part}" in regions, (label, seat, part)
            for k, _ in enumerate(p["island"]):
                assert regions[f"player:{seat}:island"].contains(
                    regions[f"player:{seat}:island:{k}"]
                )
            for b in p["city"]:
                assert regions[f"player:{seat}:city"].contains(
                    regions[f"player:{seat}:city:{b['building']}"]
                )
            for good, count in p["goods"].items():
                assert (f"player:{seat}:goods:{good}" in regions) == (count > 0)
            assert regions[f"player:{seat}"].contains(regions[f"player:{seat}:doubloons"])
            assert "vp" not in {k.split(":")[-1] for k in regions if k.startswith("player:")}


@pytest.mark.parametrize("players", PLAYERS)
def test_nothing_overlaps_or_leaves_the_canvas(players: int) -> None:
    """No two texts touch, sibling regions are disjoint, text never straddles a panel, every
    shape is on the canvas, and all text stays legible when the image is 550 px wide."""
    for label, _, scene in _scenes(players):
        assert problems(scene) == [], label
        assert scene.width == T.WIDTH


@pytest.mark.parametrize("players", PLAYERS)
def test_a_crowded_table_still_fits(players: int) -> None:
    """Full island and city (four large buildings), every good, 99 doubloons, 12 colonists in
    San Juan, full ships and trading house, long names with emoji: still clean."""
    state = crowded(players)
    for viewer in (None, 0):
        scene = layout_table(GAME.view(state, viewer), names=LONG_NAMES[:players])
        assert problems(scene) == [], viewer
        assert len([k for k in scene.regions if k.startswith("player:0:island:")]) >= 12


def test_buildings_sit_in_their_board_columns() -> None:
    """The market keeps the board's four columns (left to right), cheapest first in each."""
    _, view, scene = _scenes(4)[0]
    columns: dict[int, list[tuple[int, int, int]]] = {}
    for entry in view["market"]:
        box = scene.regions[f"market:{entry['building']}"]
        columns.setdefault(entry["column"], []).append((box.x, box.y, entry["cost"]))
    lefts = []
    for column in sorted(columns):
        tiles = columns[column]
        assert len({x for x, _, _ in tiles}) == 1, column
        lefts.append(tiles[0][0])
        costs = [cost for _, _, cost in sorted(tiles, key=lambda t: t[1])]
        assert costs == sorted(costs), column
    assert lefts == sorted(lefts) and len(lefts) == 4


def test_large_buildings_cover_two_city_spaces() -> None:
    """A large building is drawn on two spaces, as on the player board."""
    state = crowded(4)
    scene = layout_table(GAME.view(state, None))
    small = scene.regions["player:0:city:small_indigo_plant"]
    for name in ("guild_hall", "residence", "fortress", "customs_house"):
        large = scene.regions[f"player:0:city:{name}"]
        assert large.h == small.h and large.w > 2 * small.w
    assert scene.regions["player:1:city:city_hall"].w > 2 * small.w


@pytest.mark.parametrize(
    "sizes",
    [
        [1] * 12,
        [2] * 6,
        [1, 2, 1, 2, 1, 2, 1, 2],
        [1] * 5 + [2] * 3 + [1],
        [2, 2, 2, 2, 1, 1, 1, 1],
    ],
)
def test_city_grid_places_every_building_once(sizes: list[int]) -> None:
    """Twelve spaces: every legal city fits, no space used twice."""
    city: list[CityBuilding] = [
        {"building": f"b{i}", "colonists": 0, "circles": 1, "size": s, "kind": "x", "vp": 1}
        for i, s in enumerate(sizes)]
    used: set[tuple[int, int]] = set()
    spots = city_grid(city)
    assert len(spots) == len(city)
    for (r, c, span), size in zip(spots, sizes, strict=True):
        cells = {(r, c)} | ({(r, c + 1)} if span == 2 else {(r + 1, c)} if span == -2 else set())
        assert len(cells) == size and not cells & used
        assert all(0 <= rr < CITY_ROWS and 0 <= cc < CITY_COLS for rr, cc in cells)
        used |= cells


def test_key_figures_are_legible_at_phone_width() -> None:
    """Each player's doubloons, goods and San Juan colonists, and the ships' and trading house's
    contents, are written at >= 12 px when the image is scaled to 550 px wide."""
    state = crowded(5)
    scene = layout_table(GAME.view(state, None))
    keys = [f"player:{s}:{part}" for s in range(5) for part in ("doubloons", "san_juan")]
    keys += ["player:0:goods", "ship:0", "ship:1", "trading_house", "goods_supply"]
    for key in keys:
        found = [t for t in texts_in(scene, scene.regions[key]) if t.key]
        assert found, key
        for text in found:
            assert text.size * SCALE >= KEY_PX, (key, text.text)
    ship_texts = {t.text for t in texts_in(scene, scene.regions["ship:0"])}
    assert {"C", "6/6"} <= ship_texts


def test_the_viewer_sees_his_own_vp_chips_only() -> None:
    """A seat image shows that seat's VP chips; the public image shows nobody's."""
    state = crowded(3)
    public = layout_table(GAME.view(state, None))
    seat = layout_table(GAME.view(state, 0))
    assert "player:0:vp" in seat.regions and "player:1:vp" not in seat.regions
    assert not any(k.endswith(":vp") for k in public.regions)
    assert "VP 88" in {t.text for t in seat.texts}
    assert "VP 88" not in {t.text for t in public.texts}


def test_status_names_the_phase_the_governor_and_who_must_act() -> None:
    game = positions(4)[2][1]
    view = game.view()
    names = ["Ana", "Bea", "Cy", "Dan"]
    scene = layout_table(view, names=names)
    words = " ".join(t.text for t in scene.texts)
    assert f"Governor: {names[view['governor']]}" in words
    assert f"Round {view['round']}" in words
    for seat in view["prompt"]["seats"]:
        assert names[seat] in words
    assert "Waiting for" in words


def test_game_over_names_the_winner() -> None:
    game = positions(3)[3][1]
    view = game.view()
    scene = layout_table(view, names=["Ana", "Bea", "Cy"])
    assert "winners" in scene.regions
    winners = [["Ana", "Bea", "Cy"][w] for w in view["outcome"]["winners"]]
    text = " ".join(t.text for t in scene.texts)
    assert all(w in text for w in winners) and "Game over" in text


def test_the_last_round_is_announced() -> None:
    """Once an end condition is met (§7.1), the status says it is the last round, and why."""
    length = played(4, 5, 0, True).actions
    game = next(
        g
        for g in (played(4, 5, k) for k in range(length - 60, length))
        if g.view()["end_triggered"] and not g.view()["game_over"]
    )
    view = game.view()
    scene = layout_table(view, game.highlights())
    assert "last_round" in scene.regions and problems(scene) == []
    reason = {"vp_chips": "VP chips ran out", "colonists": "colonists ran out",
              "city_full": "a city is full"}[view["end_triggered"][0]]
    assert any(t.text.startswith(f"Last round: {reason}") for t in scene.texts)


def test_the_seat_image_marks_its_own_panel() -> None:
    state = crowded(4)
    scene = layout_table(GAME.view(state, 2))
    panel = scene.regions["player:2"]
    assert "you" in {t.text for t in texts_in(scene, panel)}
    public = layout_table(GAME.view(state, None))
    assert "you" not in {t.text for t in public.texts}
