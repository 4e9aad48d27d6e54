"""Puerto Rico's Exp. 2 on the images (rules spec §11): a noble is drawn as a piece of its own
wherever a colonist is drawn (on an island tile, on a building's circles, waiting in San Juan,
on the colonist ship and in the supply), told from a colonist by shape (a crown, a light ring)
and by colour (violet and gold against brown), in both legends and in the title band; clean
layouts with long names at 2 and 5 players, real PNGs within the budget, the panels of the new
prompts, the frames of the new events; and every image without Exp. 2 drawn as before."""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.rendering import image_labels
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from render import layout_panel, layout_scoresheet, layout_table, render_panel, render_table
from render import theme as T
from render import widgets as W
from render.puerto_rico.panel import panel_focus
from render.scene import Box, Ellipse, Polygon, Scene, Shape
from tests.render.helpers import LONG_NAMES, bounds, crowded, problems

GAME = get_game("puerto-rico")
ALL = ["new_buildings", "nobles", "buccaneer", "festival"]
OTHERS = ["new_buildings", "buccaneer", "festival"]
BUDGET = 400_000


def signature(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """Where the nobles are: the ship, the supply, each player's San Juan, tiles, buildings."""
    return (
        view["nobles"]["ship"],
        view["nobles"]["supply"],
        tuple(
            (
                p["nobles"]["san_juan"],
                tuple(t.get("noble") for t in p["island"]),
                tuple((b["building"], b["nobles"], b["colonists"]) for b in p["city"]),
            )
            for p in view["players"]
        ),
    )


Position = tuple[Mapping[str, Any], tuple[Event, ...]]
SHOWN = 24  # positions drawn of a game (a layout's checks take a tenth of a second)


@cache
def positions(players: int) -> list[Position]:
    """Public views (and the events that led there) of a seeded random game with every module:
    the start, positions where a noble moved (evenly spread over the game, and the first few
    with nobles waiting in San Juan or on an island tile), and the end."""
    state = GAME.setup({"players": players, "modules": ALL}, 70 + players)
    policies = [make_policy("random", "puerto-rico", 5 * players + s) for s in range(players)]
    moved: list[Position] = []
    before = signature(GAME.view(state, None))
    start = GAME.view(state, None)
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        view = GAME.view(state, None)
        now = signature(view)
        if now != before:
            moved.append((view, tuple(e.for_viewer(None) or e for e in events)))
            before = now
    waiting = [m for m in moved if any(p["nobles"]["san_juan"] for p in m[0]["players"])]
    on_tiles = [
        m for m in moved if any(t.get("noble") for p in m[0]["players"] for t in p["island"])
    ]
    spread = moved[:: max(len(moved) // SHOWN, 1)]
    return [(start, ()), *waiting[:3], *on_tiles[:2], *spread, (GAME.view(state, None), ())]


def scenes(players: int) -> Iterator[tuple[Mapping[str, Any], Scene]]:
    for view, events in positions(players):
        yield view, layout_table(view, events, names=LONG_NAMES[:players])


def inside(scene: Scene, box: Box) -> list[Shape]:
    return [s for s in (*scene.static, *scene.dynamic) if box.contains(bounds(s))]


def noble_discs(shapes: list[Shape]) -> list[Ellipse]:
    """The violet centres of the nobles on circles."""
    return [s for s in shapes if isinstance(s, Ellipse) and s.fill == T.VIOLET]


def colonist_discs(shapes: list[Shape]) -> list[Ellipse]:
    return [s for s in shapes if isinstance(s, Ellipse) and s.fill == T.COLONIST]


def crowns(shapes: list[Shape]) -> list[Polygon]:
    return [s for s in shapes if isinstance(s, Polygon) and s.fill == T.GOLD]


def figures(shapes: list[Shape]) -> list[Polygon]:
    """The violet bodies of the nobles' figures."""
    return [s for s in shapes if isinstance(s, Polygon) and s.fill == T.VIOLET]


def rgb(image: Image.Image, x: int, y: int) -> tuple[int, ...]:
    """A pixel's channels (one for a grey image)."""
    pixel = image.getpixel((x, y))
    return tuple(pixel) if isinstance(pixel, tuple) else (int(pixel or 0),)


def texts(scene: Scene, box: Box) -> list[str]:
    return [t.text for t in scene.texts if box.contains(t.box)]


@pytest.mark.parametrize("players", [2, 5])
def test_every_noble_is_drawn_where_it_is(players: int) -> None:
    """Every position of a game: each island tile and building holds exactly its nobles as
    noble pieces (crowned) and its other pieces as brown discs; San Juan, the ship and the
    supply count nobles beside colonists; no crown leaves its place or touches a text; long
    names, no overlap, legible on a phone."""
    seen = {"tile": 0, "building": 0, "san_juan": 0, "ship": 0}
    for view, scene in scenes(players):
        assert problems(scene) == [], (view["round"], view["phase"])
        regions = scene.regions
        for seat, p in enumerate(view["players"]):
            for k, tile in enumerate(p["island"]):
                shapes = inside(scene, regions[f"player:{seat}:island:{k}"])
                assert len(noble_discs(shapes)) == len(crowns(shapes)) == int(tile["noble"])
                assert len(colonist_discs(shapes)) == int(tile["occupied"] and not tile["noble"])
                seen["tile"] += tile["noble"]
            for entry in p["city"]:
                shapes = inside(scene, regions[f"player:{seat}:city:{entry['building']}"])
                assert len(noble_discs(shapes)) == len(crowns(shapes)) == entry["nobles"]
                assert len(colonist_discs(shapes)) == entry["colonists"] - entry["nobles"]
                seen["building"] += entry["nobles"]
            colonists = p["san_juan"] - p["nobles"]["san_juan"]
            waiting = regions.get(f"player:{seat}:san_juan:nobles")
            assert (waiting is not None) == (p["nobles"]["san_juan"] > 0)
            if waiting is not None:
                seen["san_juan"] += 1
                assert regions[f"player:{seat}:san_juan"].contains(waiting)
                assert texts(scene, waiting) == [str(p["nobles"]["san_juan"])]
                assert len(figures(inside(scene, waiting))) == 1
            assert str(colonists) in texts(scene, regions[f"player:{seat}:san_juan"])
        for key, count in (
            ("noble_ship", view["nobles"]["ship"]),
            ("noble_supply", view["nobles"]["supply"]),
        ):
            assert texts(scene, regions[key]) == [str(count)]
            assert len(figures(inside(scene, regions[key]))) == 1
        assert texts(scene, regions["colonist_supply"]) == [str(view["colonists"]["supply"])]
        seen["ship"] += view["nobles"]["ship"]
        for crown in crowns(list(scene.dynamic)):
            box = bounds(crown)
            assert not any(t.box.overlaps(box) for t in scene.texts), (view["round"], box)
    assert all(seen.values()), seen  # the game showed each place at least once


def occupants(view: Mapping[str, Any]) -> tuple[dict[str, Any], int, str]:
    """A view's (player, seat, building) with a noble and a colonist on one building."""
    for seat, p in enumerate(view["players"]):
        for entry in p["city"]:
            if 0 < entry["nobles"] < entry["colonists"]:
                return p, seat, entry["building"]
    raise LookupError("no building holds both kinds")


def test_a_noble_and_a_colonist_differ_in_colour_and_in_shape_on_the_png() -> None:
    """On the real PNG, a building holding both: the noble's circle has violet and gold pixels
    and a crown above it, the colonist's only brown ones; in grey (without hue) the noble's
    gold ring stands out from its centre, where the colonist is one flat disc."""
    view = next(
        v
        for v, _ in positions(5)
        if any(0 < b["nobles"] < b["colonists"] for p in v["players"] for b in p["city"])
    )
    _, seat, building = occupants(view)
    scene = layout_table(view)
    image = Image.open(io.BytesIO(render_table(view))).convert("RGB")
    grey = image.convert("L")
    cell = inside(scene, scene.regions[f"player:{seat}:city:{building}"])
    noble, colonist = noble_discs(cell)[0].box.center, colonist_discs(cell)[0].box.center
    r = W.CIRCLE_R

    def pixels(cx: int, cy: int, top: int) -> list[tuple[int, ...]]:
        """The pixels of the box from ``top`` above the circle's centre to its bottom, by row."""
        return [rgb(image, x, y) for y in range(cy - top, cy + r) for x in range(cx - r, cx + r)]

    near = pixels(*noble, top=r + 6)  # the disc and the crown above it
    assert near.count(T.VIOLET) >= 40 and near.count(T.GOLD) >= 60
    plain = pixels(*colonist, top=r + 6)
    assert T.VIOLET not in plain and T.GOLD not in plain and plain.count(T.COLONIST) >= 100
    cell_fill = rgb(image, colonist[0], colonist[1] - r - 4)
    for centre, rising in ((noble, 30), (colonist, 0)):  # the crown's points above the circle
        above = pixels(*centre, top=r + 6)[: 2 * r * 5]
        assert sum(p != cell_fill for p in above) >= rising and (
            rising or set(above) == {cell_fill}
        ), centre

    def spread(cx: int, cy: int, radius: int) -> int:
        """The range of grey levels within ``radius`` of a circle's centre."""
        levels = [
            rgb(grey, cx + dx, cy + dy)[0]
            for dx in range(-radius, radius + 1)
            for dy in range(-radius, radius + 1)
            if dx * dx + dy * dy <= radius * radius
        ]
        return max(levels) - min(levels)

    assert spread(*noble, r - 2) >= 50  # the gold ring around the violet centre
    assert spread(*colonist, r - 2) <= 20  # one flat brown disc


def test_a_crowded_board_of_nobles_still_fits() -> None:
    """Every number at its widest, every piece a noble, two-digit nobles in San Juan beside the
    Buccaneer's token and the Governor, long names, English and Spanish: still clean."""
    for players in (2, 5):
        view = dict(GAME.view(crowded(players), None))
        view["options"] = {**view["options"], "modules": ALL}
        view["nobles"] = {"supply": 20, "ship": 1, "raid_to_place": 0}
        view["buccaneer"] = {"token": 0, "captured": None, "captured_by": None, "raid_to_place": 0}
        for p in view["players"]:
            p["nobles"] = {"total": 0, "san_juan": p["san_juan"] // 2}
            for tile in p["island"]:
                tile["noble"] = tile["occupied"]
            for entry in p["city"]:
                entry["nobles"] = entry["colonists"]
        assert view["players"][0]["nobles"]["san_juan"] == 6
        view["players"][0]["nobles"]["san_juan"] = 12
        view["players"][0]["san_juan"] = 24
        for labels in (None, image_labels("puerto-rico", "es")):
            scene = layout_table(view, names=LONG_NAMES[:players], labels=labels)
            assert problems(scene) == [], (players, labels is None)
            assert texts(scene, scene.regions["player:0:san_juan:nobles"]) == ["12"]
            for crown in crowns(list(scene.dynamic)):
                box = bounds(crown)
                assert not any(t.box.overlaps(box) for t in scene.texts), box
            for seat in range(players):
                panel = layout_panel(
                    {**view, "viewer": seat},
                    seat,
                    "colonists",
                    names=LONG_NAMES[:players],
                    labels=labels,
                )
                assert problems(panel) == [], (players, seat)
        assert len(render_table(view, names=LONG_NAMES[:players])) < BUDGET


def city_of(names: list[str]) -> list[dict[str, Any]]:
    """City entries of ``names``, every circle holding a noble but the last one a colonist."""
    out = []
    for name in names:
        b = CATALOG[BUILDING_INDEX[name]]
        out.append(
            {
                "building": name,
                "colonists": b.circles,
                "nobles": max(b.circles - 1, 1) if b.circles else 0,
                "circles": b.circles,
                "size": b.size,
                "kind": b.kind,
                "vp": b.vp,
            }
        )
    return out


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_building_s_name_keeps_clear_of_its_nobles_crowns(language: str) -> None:
    """Each building of every module, its circles holding nobles, on the table and on the
    panel: its whole name (or its short name) in whole words, no text touching a crown."""
    labels = image_labels("puerto-rico", language)
    small = [b.name for b in CATALOG if b.size == 1 and b.circles]
    large = [b.name for b in CATALOG if b.size == 2 and b.circles]
    cities = [small[k : k + 12] for k in range(0, len(small), 12)]
    cities += [[*large[k : k + 4], *small[:4]] for k in range(0, len(large), 4)]
    view = GAME.view(GAME.setup({"players": 2, "modules": ALL}, 1), 0)
    for city in cities:
        view["players"][0]["city"] = city_of(city)
        for scene in (
            layout_table(view, labels=labels),
            layout_panel(view, 0, "none", labels=labels),
        ):
            assert problems(scene) == [], city
            for crown in crowns(list(scene.dynamic)):
                box = bounds(crown)
                assert not [t.text for t in scene.texts if t.box.overlaps(box)], box
            for name in city:
                words = " ".join(texts(scene, scene.regions[f"player:0:city:{name}"]))
                whole = {labels[f"building.{name}"], labels.get(f"short.{name}")}
                assert words in whole or words.endswith("…"), (name, words)


def test_the_legends_the_title_and_the_spanish_words() -> None:
    view = positions(2)[0][0]
    scene = layout_table(view)
    words = [t.text for t in scene.texts]
    assert "+ New Buildings, Nobles, Buccaneer, Festival" in words
    assert "noble" in words and "noble in San Juan" in words
    legend = [s for s in scene.static if bounds(s).y > scene.regions["player:1"].bottom]
    assert noble_discs(legend) and crowns(legend) and figures(legend)
    es = [t.text for t in layout_table(view, labels=image_labels("puerto-rico", "es")).texts]
    assert "+ Los Nuevos Edificios, Los Nobles, El Bucanero, El Festival" in es
    assert "noble en San Juan" in es
    panel = layout_panel(GAME.view(GAME.setup({"players": 2, "modules": ALL}, 1), 0))
    assert "noble" in [t.text for t in panel.texts] and noble_discs(list(panel.dynamic))


def test_the_panels_of_the_nobles_prompts() -> None:
    """The noble-or-colonist choice shows the colonist ship with its noble; the Hunting
    lodge's discard needs only the own island; the Royal supplier's trade the cargo ships."""
    state = GAME.setup({"players": 3, "modules": ALL}, 5)
    view = GAME.view(state, 0)
    for kind, focus in (
        ("noble_or_colonist", "colonists"),
        ("hunting_lodge", "none"),
        ("royal_supplier", "ships"),
    ):
        asked = {**view, "prompt": {"seats": [0], "kind": kind, "forced": False}}
        assert panel_focus(asked, 0) == focus, kind
    asked = {**view, "prompt": {"seats": [0], "kind": "noble_or_colonist", "forced": False}}
    for labels in (None, image_labels("puerto-rico", "es")):
        scene = layout_panel(asked, names=LONG_NAMES[:3], labels=labels)
        assert problems(scene) == []
        assert texts(scene, scene.regions["noble_ship"]) == [str(view["nobles"]["ship"])]
        assert texts(scene, scene.regions["noble_supply"]) == [str(view["nobles"]["supply"])]
    assert render_panel(asked).startswith(b"\x89PNG")


def test_the_events_of_the_nobles_are_framed() -> None:
    view = next(v for v, _ in positions(5) if any(p["nobles"]["san_juan"] for p in v["players"]))
    seat = next(s for s, p in enumerate(view["players"]) if p["nobles"]["san_juan"])
    frames = [
        (
            Event("NobleGained", seat, {"target": "san_juan", "source": "ship", "by": "mayor"}),
            f"player:{seat}:san_juan",
        ),
        (Event("ColonistShipRefilled", None, {"count": 4, "needed": 5, "nobles": 1}), "noble_ship"),
        (
            Event("GoodsTraded", seat, {"goods": ["corn"], "by": "royal_supplier"}),
            f"player:{seat}:goods",
        ),
        (
            Event(
                "PlantationDiscarded",
                seat,
                {"tile": "corn", "by": "hunting_lodge", "displaced": None},
            ),
            f"player:{seat}:island",
        ),
    ]
    plain = layout_table(view)
    for event, key in frames:
        framed = layout_table(view, [event])
        box = plain.regions[key]
        extra = [s for s in framed.dynamic[len(plain.dynamic) :] if bounds(s).contains(box)]
        assert extra, event.type  # a frame around what changed


def test_the_score_sheet_takes_a_part_s_own_word() -> None:
    """Exp. 2's parts (``nobles``, ``royal_garden``) under their ``score.<part>`` word when the
    bot's catalog has one, else as a building's bonus."""
    outcome = {
        "scores": [
            {
                "seat": s,
                "total": 30,
                "tiebreak": 1,
                "rank": s + 1,
                "breakdown": {"chips": 20, "buildings": 6, "nobles": 3, "royal_garden": 1},
            }
            for s in range(2)
        ],
        "winners": [0],
        "end_reasons": ["vp_chips"],
    }
    words = [
        t.text
        for t in layout_scoresheet(
            outcome, game="puerto-rico", labels={"score.nobles": "Nobles (1 VP each)"}
        ).texts
    ]
    assert "Nobles (1 VP each)" in words and "Royal garden bonus" in words
    for labels in (None, image_labels("puerto-rico", "es")):
        sheet = layout_scoresheet(outcome, game="puerto-rico", labels=labels)
        assert "Nobles" in [t.text for t in sheet.texts]  # its word in both catalogs


@pytest.mark.parametrize("modules", [[], OTHERS])
def test_images_without_the_nobles_draw_none_of_them(modules: list[str]) -> None:
    """A game without Exp. 2 (the base game, the other three modules): no noble piece, figure,
    word or region on the table, on a seat's panel at each focus of the colonists, or in the
    legend; the colonists' rows and the legend keep their base layout."""
    for players in (2, 5):
        state = GAME.setup({"players": players, "modules": modules}, 9)
        policies = [make_policy("heuristic", "puerto-rico", s) for s in range(players)]
        for _ in range(40 * players):
            prompt = GAME.prompt(state)
            assert prompt is not None
            seat = prompt.seats[0]
            action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
        view = GAME.view(state, None)
        assert view["nobles"] is None
        for scene in (layout_table(view), layout_panel(GAME.view(state, 0), 0, "colonists")):
            shapes = [*scene.static, *scene.dynamic]
            assert not noble_discs(shapes) and not figures(shapes)
            assert not [k for k in scene.regions if "noble" in k]
            assert not [t.text for t in scene.texts if "oble" in t.text]
        table = layout_table(view).regions
        ship = table["colonist_ship"]
        assert ship.y <= table["colonist_supply"].y < ship.bottom  # one row, as before
