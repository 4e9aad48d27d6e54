"""The end-of-game chart: every seat's score round by round (one line per seat, told apart by
colour and marker shape, the final score at its end), a legend with the winners in gold, and the
split of the final scores into stacked bars; readable on a phone, for 2 to 6 seats."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image

import render
from engine import get_game
from engine.policies import make_policy
from engine.simulate import play_game, policy_seed
from engine.story import score_history
from render import theme as T
from render.chart import CHART_LABELS, MARKERS, layout_chart, render_chart, x_ticks, y_scale
from render.games import renderer_for
from render.labels import Labels
from render.scene import Box, Ellipse, Polygon, Rect, Scene, Text
from tests.render.helpers import LONG_NAMES, bounds, problems

PARTS = ("shipping", "buildings", "bonuses")


def history(
    seats: int, rounds: int, *, split: bool = True, top: int = 45, seed: int = 1
) -> dict[str, Any]:
    """A played-looking history: scores rising by a few points a round up to about ``top``,
    the best final score winning, the final scores split in three parts."""
    rng = random.Random(seed)
    totals = [[0] * seats]
    for _ in range(rounds):
        totals.append([v + rng.randint(0, 2 * top // max(rounds, 1)) for v in totals[-1]])
    final = totals[-1]
    parts = []
    for v in final:
        a, b = v * 4 // 10, v * 4 // 10
        parts.append([["shipping", a], ["buildings", b], ["bonuses", v - a - b]])
    best = max(final)
    return {
        "rounds": list(range(rounds + 1)),
        "totals": totals,
        "split": parts if split else None,
        "winners": [s for s in range(seats) if final[s] == best],
    }


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _texts_in(scene: Scene, box: Box) -> list[Text]:
    return [t for t in scene.texts if box.contains(t.box)]


def _check(scene: Scene, seats: int, split: bool) -> None:
    """The layout rules every chart keeps."""
    assert problems(scene) == []
    canvas = Box(0, 0, scene.width, scene.height)
    for key, box in scene.regions.items():
        assert canvas.contains(box), key
    plot = scene.regions["plot"]
    for seat in range(seats):
        assert plot.contains(scene.regions[f"line:{seat}"]), seat
        assert scene.regions[f"legend:{seat}"].y > plot.bottom
    legend = [scene.regions[f"legend:{seat}"] for seat in range(seats)]
    for a, b in itertools.combinations(legend, 2):
        assert not a.overlaps(b)
    assert ("split" in scene.regions) is split
    if split:
        assert scene.regions["split"].y > max(box.bottom for box in legend)
        bars = [scene.regions[f"bar:{seat}"] for seat in range(seats)]
        for a, b in itertools.combinations(bars, 2):
            assert not a.overlaps(b)


@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_the_layout_is_clean_for_two_to_six_seats(seats: int, split: bool) -> None:
    """Every region on the canvas, every line inside the plot, legend rows and bars apart, no
    text overlapping another or too small for a phone."""
    scene = layout_chart(history(seats, 12, split=split, seed=seats))
    _check(scene, seats, split)
    for key in ("title", "plot"):
        assert key in scene.regions
    if split:
        for seat in range(seats):
            for part in PARTS:
                assert f"bar:{seat}:{part}" in scene.regions


def test_a_puerto_rico_like_game_and_a_san_juan_like_game_render_to_sized_pngs() -> None:
    """1000 px wide; under 1600 px high without a split, under 2200 px with one, even with six
    seats of long, wrapped names."""
    names = ["Ana", "Bérénice", "Çağrı", "Dmitri"]
    pr = _image(render_chart(history(4, 15, top=45), names=names))
    sj = _image(render_chart(history(2, 11, split=False, top=35), names=names[:2]))
    assert pr.width == sj.width == T.WIDTH
    assert pr.height < 2200 and sj.height < 1600
    long_names = [*LONG_NAMES, "bob → AI 2 (normal) → Zoë Ñúñez Çãó, la grande de la mar"]
    for split, most in ((False, 1600), (True, 2200)):
        image = _image(render_chart(history(6, 30, split=split), names=long_names))
        assert image.width == T.WIDTH and image.height < most


def test_the_bar_segments_are_proportional_to_the_parts() -> None:
    """One scale for every bar: each segment's width is its points times that scale, the
    segments follow each other, the number is written inside the segment when it fits (not in
    a 1-point sliver) and the total at the bar's end."""
    split: list[list[tuple[str, int]]] = [
        [("shipping", 12), ("buildings", 20), ("bonuses", 4)],
        [("shipping", 30), ("buildings", 6), ("bonuses", 1)],
        [("shipping", 9), ("buildings", 9)],
    ]
    finals = [36, 37, 18]
    data = {"rounds": [0, 1], "totals": [[0, 0, 0], finals], "split": split, "winners": [1]}
    scene = layout_chart(data)
    _check(scene, 3, True)
    scale = scene.regions["bar:1"].w / 37
    for seat, parts in enumerate(split):
        bar = scene.regions[f"bar:{seat}"]
        assert abs(bar.w - finals[seat] * scale) <= 1
        x = bar.x
        for part, value in parts:
            box = scene.regions[f"bar:{seat}:{part}"]
            assert box.x == x and abs(box.w - value * scale) <= 1.5, (seat, part)
            x = box.right
            written = [t.text for t in _texts_in(scene, box)]
            assert written == ([] if value == 1 else [str(value)]), (seat, part)
        total = [
            t
            for t in scene.texts
            if t.text == str(finals[seat]) and t.box.y < bar.bottom and t.box.bottom > bar.y
        ]
        assert len(total) == 1 and 0 < total[0].box.x - bar.right < 20, seat
    words = {t.text for t in scene.texts}
    assert {"Where the points came from", "Shipping", "Buildings", "Bonuses"} <= words


def test_the_winner_is_gold_and_drawn_on_top() -> None:
    """The winner's legend row is gold with a "Winner" pill (the others are not), and where
    lines meet, the winner's is the one seen."""
    data = {
        "rounds": [0, 1, 2, 3],
        "totals": [[0, 0, 0], [5, 5, 2], [10, 10, 8], [20, 25, 18]],
        "split": None,
        "winners": [1],
    }
    scene = layout_chart(data, names=["Ana", "Bea", "Cy"])
    _check(scene, 3, False)
    image = _image(render_chart(data, names=["Ana", "Bea", "Cy"]))
    for seat in range(3):
        row = scene.regions[f"legend:{seat}"]
        pixel = image.getpixel((row.x + row.w // 2, row.bottom - 6))
        assert (pixel == T.WINNER) is (seat == 1), seat
        assert ("Winner" in {t.text for t in _texts_in(scene, row)}) is (seat == 1)
    order = sorted(range(3), key=lambda s: scene.regions[f"legend:{s}"].y)
    assert order == [1, 0, 2]
    # round 2: seats 0 and 1 both have 10 points; seat 1's square covers seat 0's circle
    squares = sorted(
        (
            s.box
            for s in scene.dynamic
            if isinstance(s, Rect)
            and s.fill == T.seat_color(1)
            and s.outline == T.PANEL
            and scene.regions["plot"].contains(s.box)
        ),
        key=lambda b: b.x,
    )
    assert len(squares) == 4
    assert image.getpixel(squares[2].center) == T.seat_color(1)
    circles = [
        s.box
        for s in scene.dynamic
        if isinstance(s, Ellipse)
        and s.fill == T.seat_color(0)
        and s.box.center == squares[2].center
    ]
    assert len(circles) == 1


def test_each_line_ends_with_its_final_score() -> None:
    scene = layout_chart(history(4, 10))
    data = history(4, 10)
    plot = scene.regions["plot"]
    for seat in range(4):
        end = scene.regions[f"end:{seat}"]
        line = scene.regions[f"line:{seat}"]
        assert [t.text for t in _texts_in(scene, end)] == [str(data["totals"][-1][seat])]
        assert 0 < end.x - line.right < 20 and plot.y <= end.center[1] <= plot.bottom


def test_a_long_name_is_shortened_to_fit() -> None:
    """A name too long for three lines ends with an ellipsis in the legend and beside its bar
    (on three lines there too: issue #33, "finn → AI 3 (str…" was cut on one); every piece
    stays inside its row."""
    name = "Maximilian " * 40 + "von Habsburg"
    names = [name, "Ana", "x" * 200]
    scene = layout_chart(history(3, 8), names=names)
    _check(scene, 3, True)
    for seat in (0, 2):
        row = scene.regions[f"legend:{seat}"]
        lines = [t for t in _texts_in(scene, row) if t.bold and t.size == T.TEXT_BODY]
        assert 1 <= len(lines) <= 3 and lines[-1].text.endswith("…"), seat
        bar = scene.regions[f"bar:{seat}"]
        beside = sorted(
            (t for t in scene.texts
             if t.box.right < bar.x and t.bold
             and abs(t.box.center[1] - bar.center[1]) < 35),  # this row's lines, not the next
            key=lambda t: t.box.y,
        )
        assert 1 <= len(beside) <= 3 and beside[-1].text.endswith("…"), seat


def test_no_text_is_smaller_than_the_minimum() -> None:
    """At 1000 px no text is under ``T.TEXT_MIN`` (11 px once scaled to a phone's 550 px)."""
    for data in (history(2, 3), history(5, 40, top=120), history(6, 1, split=False)):
        scene = layout_chart(data, names=LONG_NAMES)
        assert scene.texts
        assert min(t.size for t in scene.texts) >= T.TEXT_MIN
        assert problems(scene) == []


@pytest.mark.parametrize(
    ("rounds", "step"), [(11, 1), (15, 1), (19, 1), (25, 2), (30, 2), (45, 5), (120, 10)]
)
def test_many_rounds_thin_the_tick_labels(rounds: int, step: int) -> None:
    """Every round labelled up to 19 rounds, then every 2nd, 5th, 10th: at most 20 labels,
    none overlapping."""
    scene = layout_chart(history(3, rounds, split=False))
    _check(scene, 3, False)
    ticks = sorted(int(k.split(":")[1]) for k in scene.regions if k.startswith("tick:"))
    assert ticks == list(range(0, rounds + 1, step))
    assert len(ticks) <= 20
    assert x_ticks(0, rounds) == ticks


def test_the_points_axis_ends_on_a_round_number_above_the_best_score() -> None:
    assert y_scale(0, 45) == (0, 50, 5)
    assert y_scale(0, 50) == (0, 60, 10)
    assert y_scale(0, 63) == (0, 70, 10)
    assert y_scale(0, 0) == (0, 5, 5)
    assert y_scale(-7, 5) == (-10, 10, 5)
    bottom, top, step = y_scale(0, 2345)
    assert bottom == 0 and top > 2345 and (top - bottom) // step <= 10


@pytest.mark.parametrize(
    "data",
    [
        {"rounds": [1], "totals": [[3, 5, 0]], "split": None, "winners": [1]},
        {
            "rounds": [0, 1, 2],
            "totals": [[0, 0], [0, 0], [0, 0]],
            "split": [[["shipping", 0]], [["shipping", 0]]],
            "winners": [0, 1],
        },
        {
            "rounds": [0, 1, 2],
            "totals": [[0, 0], [-3, 2], [-7, 5]],
            "split": [[["shipping", 3], ["penalty", -10]], [["shipping", 5]]],
            "winners": [1],
        },
        {"rounds": [0, 1], "totals": [[0, 0], [4, 9]], "split": None, "winners": []},
    ],
    ids=["single-point", "all-zero", "negative", "no-winner"],
)
def test_edge_cases_draw_cleanly(data: dict[str, Any]) -> None:
    """A game over after one round, all scores 0, negative scores, no winner given."""
    seats = len(data["totals"][0])
    scene = layout_chart(data)
    _check(scene, seats, data["split"] is not None)
    assert _image(render_chart(data)).width == T.WIDTH


def test_seats_of_the_same_colour_differ_by_their_marker() -> None:
    """Seat 6 shares seat 1's colour; every seat's marker has its own shape, on the line and
    in the legend."""
    assert len(set(MARKERS)) == len(MARKERS) >= 6
    assert T.seat_color(5) == T.seat_color(0)
    scene = layout_chart(history(6, 4, split=False))

    def kind(s: Ellipse | Rect | Polygon) -> tuple[str, int, bool]:
        """The shape's kind, its corners and whether it points up (a triangle or upside down)"""
        if isinstance(s, Polygon):
            return "Polygon", len(s.points), s.points[0][1] < bounds(s).center[1]
        return type(s).__name__, 0, False

    def shapes(box: Box) -> set[tuple[str, int, bool]]:
        return {
            kind(s)
            for s in scene.dynamic
            if isinstance(s, Ellipse | Rect | Polygon)
            and box.contains(bounds(s))
            and getattr(s, "outline", None) == T.PANEL
        }

    seen = []
    for seat in range(6):
        row = scene.regions[f"legend:{seat}"]
        swatch = shapes(Box(row.x, row.y, 80, row.h))
        assert len(swatch) == 1, seat
        assert shapes(scene.regions[f"line:{seat}"]) >= swatch, seat
        seen.append(swatch.pop())
    assert len(set(seen)) == 6


def test_words_come_from_the_labels() -> None:
    """The bot's translations override the English words; a game's own ``score.<part>`` names
    a part; an unknown part is its id made readable; names may be given by seat."""
    spanish = {
        "chart.title": "Puntos por ronda",
        "chart.round": "Ronda",
        "chart.part.shipping": "Envíos",
        "chart.winner": "Ganador",
    }
    data = history(3, 5)
    data["split"][0].append(["royal_garden", 2])
    scene = layout_chart(data, labels=spanish, names={1: "Bea"})
    words = {t.text for t in scene.texts}
    assert {
        "Puntos por ronda",
        "Ronda",
        "Envíos",
        "Ganador",
        "Royal garden",
        "Bea",
        "Seat 1",
        "Points",
        "Buildings",
    } <= words
    game = Labels({"score.bonuses": "Bonus VP"}, CHART_LABELS)
    assert "Bonus VP" not in {t.text for t in layout_chart(data, labels=game).texts}
    game = Labels({"score.guild_hall": "Guild hall bonus"}, CHART_LABELS)
    data["split"][1].append(["guild_hall", 3])
    assert "Guild hall bonus" in {t.text for t in layout_chart(data, labels=game).texts}


@pytest.mark.parametrize(
    ("game", "players", "split"),
    [("puerto-rico", 3, True), ("puerto-rico-1897", 2, True), ("san-juan", 2, False)],
)
def test_a_played_game_is_charted_with_its_games_split(
    game: str, players: int, split: bool
) -> None:
    """``render.render_chart`` on a played game's ``engine.story`` history: Puerto Rico's
    (and 1897's) final scores split into their VP chips by source (shipping first), buildings
    and bonuses that add up to each total; San Juan's without a bar.  Without the sources
    (``gains``) the chips are one part, the VP chips, never called shipping."""
    engine_game = get_game(game)
    options = engine_game.normalize_options({"players": players})
    policies = [make_policy("heuristic", game, policy_seed(3, s)) for s in range(players)]
    result = play_game(engine_game, options, 3, policies)
    story = score_history(engine_game, options, 3, result.actions).to_json()
    cut = renderer_for(game).score_split
    assert (cut is not None) == split
    if cut is not None:
        for breakdown, gains, total in zip(story["breakdowns"], story["gains"],
                                           story["totals"][-1], strict=True):
            parts = cut(breakdown, gains)
            assert parts[0] == ("shipping", gains["shipping"])
            assert [p for p, _ in parts][-2:] == ["buildings", "bonuses"]
            assert sum(v for _, v in parts) == total
            unsourced = cut(breakdown, None)
            assert [p for p, _ in unsourced] == ["chips", "buildings", "bonuses"]
            assert unsourced[0][1] == breakdown["chips" if game == "puerto-rico" else "tokens"]
            assert sum(v for _, v in unsourced) == total
        scene = layout_chart({**story, "split": [
            cut(b, g) for b, g in zip(story["breakdowns"], story["gains"], strict=True)]})
        assert {f"bar:{s}" for s in range(players)} <= set(scene.regions)
    png = Image.open(io.BytesIO(render.render_chart(story, game=game)))
    bare = {k: v for k, v in story.items() if k != "breakdowns"}
    plain = Image.open(io.BytesIO(render.render_chart(bare, game=game)))
    assert png.width == plain.width == T.WIDTH and (png.height > plain.height) == split
