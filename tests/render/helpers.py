"""Positions to draw and the geometric checks every scene must pass."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Any

from engine import get_game
from render import fonts
from render import theme as T
from render.sample import Played, play
from render.scene import Box, Ellipse, Line, Polygon, Rect, Scene, Shape, Text
from tests.engine.puerto_rico.scenario import Scenario

GAME = get_game("puerto-rico")
SCALE = T.PHONE_WIDTH / T.WIDTH
MIN_PX = 11.0  # font size on the phone, any text
MIN_CAP_PX = 8.0  # height of a capital letter on the phone, any text
KEY_PX = 12.0  # font size on the phone of the figures a player reads every turn

LONG_NAMES = [
    "Maximilian von Habsburg-Lothringen-Österreich 🎲🎲",
    "Zoë Ñúñez Çãó",
    "🎲🎲",
    "Ana",
    "Bérénice d'Artagnan-Montmorency",
]


@lru_cache(maxsize=64)
def played(players: int, seed: int, actions: int, finish: bool = False) -> Played:
    return play(GAME.name, players, seed, actions, finish=finish)


def positions(players: int) -> list[tuple[str, Played]]:
    """A start, two mid-game positions and the end of one heuristic game."""
    return [
        ("start", played(players, 5, 0)),
        ("early", played(players, 5, 40)),
        ("mid", played(players, 5, 25 * players + 30)),
        ("end", played(players, 5, 0, True)),
    ]


SMALL_BUILDINGS = [
    "small_indigo_plant",
    "small_sugar_mill",
    "indigo_plant",
    "sugar_mill",
    "small_market",
    "hacienda",
    "construction_hut",
    "small_warehouse",
    "hospice",
    "office",
]


def crowded(players: int) -> Any:
    """Every number at its widest: full islands and cities (large buildings included), all
    goods, full ships and trading house, two-digit counts, long names."""
    sc = Scenario(players=players, seed=3)
    sc.player(
        0,
        doubloons=99,
        tiles={"corn": (3, 3), "indigo": (3, 2), "sugar": (2, 1), "tobacco": (2, 2),
               "quarry": (2, 2)},
        buildings={"guild_hall": 1, "residence": 1, "fortress": 1, "customs_house": 0,
                   "small_indigo_plant": 1, "coffee_roaster": 2, "tobacco_storage": 3,
                   "small_warehouse": 1},
        goods={"corn": 3, "indigo": 11, "sugar": 11, "tobacco": 9, "coffee": 9},
        san_juan=12,
        vp=88,
    )
    sc.player(1, doubloons=10, buildings=[*SMALL_BUILDINGS, "city_hall"],
              tiles={"coffee": (12, 11)}, san_juan=3)
    sc.ships([(6, "corn", 6), (7, "coffee", 7), (8, None, 0)][: 2 if players == 2 else 3])
    sc.house(["corn", "indigo", "sugar", "tobacco"])
    state = sc.state
    state.card_doubloons = [9 + k for k in range(len(state.card_doubloons))]
    state.card_taken = [k % players if k % 2 else -1 for k in range(len(state.card_taken))]
    return state


def bounds(shape: Shape) -> Box:
    if isinstance(shape, Text):
        return shape.box
    if isinstance(shape, Rect | Ellipse):
        return shape.box
    points = shape.points if isinstance(shape, Polygon | Line) else ()
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return Box(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


SIBLINGS = [
    r"role:[^:]+",
    r"market:[^:]+",
    r"player:\d+",
    r"ship:\d+",
    r"ship:(\d+):\d+",
    r"trading_house:\d+",
    r"goods_supply:[a-z]+",
    r"player:(\d+):island:\d+",
    r"player:(\d+):city:[a-z_]+",
    r"player:(\d+):goods:[a-z]+",
    r"player:(\d+):(doubloons|san_juan|vp|name|governor|goods|island|city)",
    r"(title|status|last_round|colonist_ship|colonist_supply|vp_chips|face_up|quarries)",
    r"score:\d+",
]
CONTAINERS = [r"title", r"status", r"role:[^:]+", r"market:[^:]+", r"player:\d+", r"score:\d+"]


def problems(scene: Scene) -> list[str]:
    """Every layout rule the scene breaks (an empty list when it is clean)."""
    out: list[str] = []
    canvas = Box(0, 0, scene.width, scene.height)
    for shape in (*scene.static, *scene.dynamic):
        if not canvas.contains(bounds(shape)):
            out.append(f"off the canvas: {shape}")
    texts = scene.texts
    for a, b in itertools.combinations(texts, 2):
        if a.box.overlaps(b.box):
            out.append(f"texts overlap: {a.text!r} {a.box} / {b.text!r} {b.box}")
    for pattern in SIBLINGS:
        group: dict[str, list[tuple[str, Box]]] = {}
        for key, box in scene.regions.items():
            match = re.fullmatch(pattern, key)
            if match:
                group.setdefault(match.group(1) if match.groups() else "", []).append((key, box))
        for members in group.values():
            for (ka, ra), (kb, rb) in itertools.combinations(members, 2):
                if ra.overlaps(rb):
                    out.append(f"regions overlap: {ka} {ra} / {kb} {rb}")
    for key, box in scene.regions.items():
        if any(re.fullmatch(p, key) for p in CONTAINERS):
            for text in texts:
                if text.box.overlaps(box) and not box.contains(text.box):
                    out.append(f"text {text.text!r} {text.box} straddles {key} {box}")
    scale = T.PHONE_WIDTH / scene.width  # every image is shown 550 px wide, whatever its width
    for text in texts:
        cap = fonts.cap_height(text.size, text.bold) * scale
        if text.size * scale < MIN_PX or cap < MIN_CAP_PX:
            out.append(f"too small on a phone: {text.text!r} size {text.size}")
        if text.key and text.size * scale < KEY_PX:
            out.append(f"key figure too small on a phone: {text.text!r} size {text.size}")
    return out


def texts_in(scene: Scene, box: Box) -> list[Text]:
    return [t for t in scene.texts if box.contains(t.box)]
