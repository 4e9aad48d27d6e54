"""The private panel's image (issue #9): the player's own board first, then only the part of the
table the decision needs, compact, in the game's language, every text legible at phone width."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from render import layout_panel, panel_focus, render_panel
from render.puerto_rico import FOCUSES
from render.puerto_rico.panel import PANEL_WIDTH
from render.sample import main
from render.scene import Scene
from tests.render.helpers import GAME, LONG_NAMES, crowded, positions, problems, texts_in
from tests.render.puerto_rico.test_all_images import SPANISH

PLAYERS = (2, 3, 4, 5)
# Regions that belong to each part of the table; a panel shows only its focus's.
PARTS = {
    "roles": ("role:",),
    "plantations": ("face_up", "quarries", "plantation_stack"),
    "colonists": ("colonist_ship", "colonist_supply"),
    "market": ("market:",),
    "goods": ("goods_supply",),
    "trading_house": ("trading_house",),
    "ships": ("ship:",),
}


def _parts(scene: Scene) -> set[str]:
    return {part for part, prefixes in PARTS.items()
            if any(k.startswith(prefixes) for k in scene.regions)}


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_focus_is_clean_and_legible(players: int, language: str) -> None:
    """For every position (start, mid-game, final), seat and focus, in both languages: nothing
    overlaps or leaves the canvas and every text is at least 11 px at 550 px wide."""
    labels = SPANISH if language == "es" else None
    for label, game in positions(players):
        for seat in range(players):
            view = game.view(seat)
            for focus in FOCUSES:
                scene = layout_panel(view, seat, focus, game.highlights(seat), labels=labels)
                assert problems(scene) == [], (label, seat, focus)
                assert scene.width == PANEL_WIDTH


@pytest.mark.parametrize("players", PLAYERS)
def test_a_crowded_panel_still_fits(players: int) -> None:
    """Full island and city, every good, long names with emoji, both languages."""
    state = crowded(players)
    for seat in (0, 1):
        for focus in FOCUSES:
            for labels in (None, SPANISH):
                scene = layout_panel(GAME.view(state, seat), seat, focus,
                                     names=LONG_NAMES[:players], labels=labels)
                assert problems(scene) == [], (seat, focus)


def test_the_own_board_comes_first_then_only_what_the_decision_needs() -> None:
    """Building: the market and no ships; shipping: the ships and no market...  The player's
    board is above the focus part, and no other player's board is drawn."""
    seen: dict[str, int] = {}
    for players in (3, 4):
        for _, game in positions(players)[:3]:
            view_any = game.view()
            prompt = view_any["prompt"]
            if prompt is None:
                continue
            seat = prompt["seats"][0]
            view = game.view(seat)
            focus = panel_focus(view, seat)
            scene = layout_panel(view, seat)
            seen[prompt["kind"]] = seen.get(prompt["kind"], 0) + 1
            assert _parts(scene) == {focus}, (prompt["kind"], _parts(scene))
            board = scene.regions[f"player:{seat}"]
            assert all(scene.regions[k].y > board.bottom for k in scene.regions
                       if k.startswith(PARTS[focus]))
            assert not [k for k in scene.regions
                        if k.startswith("player:") and not k.startswith(f"player:{seat}")]
    assert seen


@pytest.mark.parametrize(
    ("kind", "focus"),
    [("role", "roles"), ("settle", "plantations"), ("hospice", "plantations"),
     ("arrange", "colonists"), ("mayor_privilege", "colonists"), ("build", "market"),
     ("university", "market"), ("craft_privilege", "goods"), ("sell", "trading_house"),
     ("ship", "ships"), ("keep", "ships")],
)
def test_each_decision_has_its_part_of_the_table(kind: str, focus: str) -> None:
    view: dict[str, Any] = dict(positions(4)[1][1].view(2))
    view["prompt"] = {"seats": [2], "kind": kind, "forced": False}
    assert panel_focus(view, 2) == focus
    assert _parts(layout_panel(view, 2)) == {focus}
    view["prompt"] = {"seats": [1], "kind": kind, "forced": False}
    assert panel_focus(view, 2) == panel_focus(view, 3)  # waiting: the phase's part


def test_the_panel_is_compact() -> None:
    """Much shorter than the table (the table stacks every player); the building market, the
    tallest part, stays under a phone screen's 2:1."""
    for players in PLAYERS:
        game = positions(players)[2][1]
        for focus in FOCUSES:
            scene = layout_panel(game.view(0), 0, focus)
            assert scene.height <= 2 * scene.width, (players, focus, scene.height)


def test_the_decision_line_says_it_is_your_turn_in_the_language() -> None:
    view: dict[str, Any] = dict(positions(3)[1][1].view(1))
    view["prompt"] = {"seats": [1], "kind": "build", "forced": False}
    en = layout_panel(view, 1)
    es = layout_panel(view, 1, labels=SPANISH)
    assert [t.text for t in texts_in(en, en.regions["prompt"])] == ["▶ Your turn: build"]
    assert next(t.text for t in texts_in(es, es.regions["prompt"])).startswith("▶ Te toca:")


def test_panel_png_is_valid_small_and_deterministic() -> None:
    game = positions(5)[2][1]
    for focus in FOCUSES:
        scene = layout_panel(game.view(1), 1, focus)
        png = render_panel(game.view(1), 1, focus)
        image = Image.open(io.BytesIO(png))
        assert image.mode == "P" and image.size == (scene.width, scene.height)
        assert len(png) < 150_000
        assert png == render_panel(game.view(1), 1, focus)


def test_a_panel_needs_a_seat() -> None:
    with pytest.raises(ValueError, match="seat"):
        layout_panel(positions(2)[1][1].view())
    with pytest.raises(ValueError, match="focus"):
        layout_panel(positions(2)[1][1].view(0), 0, "everything")


def test_sample_command_draws_a_panel_in_another_language(tmp_path: Path) -> None:
    """``python -m render.sample --panel P [--focus F] [--labels FILE]``."""
    labels = tmp_path / "es.json"
    labels.write_text(json.dumps(SPANISH), encoding="utf-8")
    out = tmp_path / "panel.png"
    args = ["--players", "3", "--seed", "2", "--actions", "30", "--panel", "1", "--focus",
            "market", "--labels", str(labels), "--out", str(out)]
    assert main(args) == 0
    with Image.open(out) as image:
        assert image.width == PANEL_WIDTH
