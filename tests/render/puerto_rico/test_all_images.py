"""Every image the bot posts, in both languages (issue #9): every text at least 11 px when the
image is shown 550 px wide (11 x width / 550 on the canvas, whatever the canvas width), the
goods' letters in the game's language, and whole names where people read them (AI names on the
role cards, building names in cities and in the market)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rendering import image_labels
from render import layout_panel, layout_scoresheet, layout_table
from render import theme as T
from render.puerto_rico.labels import ENGLISH
from render.scene import Scene, Text
from tests.render.helpers import GAME, crowded, positions, problems, texts_in

SPANISH = image_labels("puerto-rico", "es")
PLAYERS = (2, 3, 4, 5)
GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")


def too_small(scene: Scene) -> list[str]:
    """Texts under 11 px at 550 px wide: ``size`` is the font's pixel size on the canvas."""
    floor = 11 * scene.width / T.PHONE_WIDTH
    return [f"{t.text!r} {t.size}" for t in scene.texts if t.size < floor]


def scenes(players: int, labels: dict[str, str] | None) -> list[tuple[str, Scene]]:
    """The table (public and each seat's), each seat's panel and the score sheet, mid-game
    and at the end."""
    out = []
    for label, game in positions(players):
        out.append((f"{label} table", layout_table(game.view(), game.highlights(),
                                                   labels=labels)))
        for seat in range(players):
            view = game.view(seat)
            out.append((f"{label} seat {seat}", layout_table(view, labels=labels)))
            out.append((f"{label} panel {seat}", layout_panel(view, seat, labels=labels)))
        outcome = game.game.outcome(game.state)
        if outcome is not None:
            out.append((f"{label} scores",
                        layout_scoresheet(outcome.to_json(), game=GAME.name, labels=labels)))
    return out


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_text_of_every_image_is_legible_on_a_phone(players: int, language: str) -> None:
    labels = SPANISH if language == "es" else None
    found = scenes(players, labels)
    assert any("scores" in name for name, _ in found)
    for name, scene in found:
        assert too_small(scene) == [], name
        assert problems(scene) == [], name


def test_the_legibility_check_sees_every_text_drawn() -> None:
    """The check measures every text item, cached background (static) and per-image (dynamic)
    alike, widgets' included, against the image's own width: a 13 px text on the 1000 px table
    (7 px on the phone) is caught, and so is 20 px on a canvas twice as wide."""
    scene = layout_table(positions(4)[2][1].view())
    assert {t.text for t in scene.texts} >= {"×1", ENGLISH["ui.stack"]}
    assert any(t in scene.static for t in scene.texts)
    assert any(t in scene.dynamic for t in scene.texts)
    small = Text(0, 0, "1 VP", 13, False, T.INK, "ls", scene.texts[0].box)
    shrunk = Scene(scene.width, scene.height, scene.background, (*scene.static, small),
                   scene.dynamic, scene.regions)
    assert too_small(shrunk) == ["'1 VP' 13"] and problems(shrunk)
    wide = Scene(2 * scene.width, scene.height, scene.background, scene.static, scene.dynamic,
                 scene.regions)
    assert too_small(wide) and problems(wide)


def _letter(scene: Scene, key: str) -> str:
    inside = texts_in(scene, scene.regions[key])
    return "".join(t.text for t in inside if len(t.text) == 1 and t.text.isalpha())


@pytest.mark.parametrize(("labels", "letters"), [
    (None, "CISTK"),
    (SPANISH, "MAZTC"),
])
def test_the_goods_letters_come_from_the_game_language(
    labels: dict[str, str] | None, letters: str
) -> None:
    """Spanish images mark maíz M, añil A, azúcar Z, tabaco T, café C; five distinct letters, on
    the table, the panel and in its legend."""
    game = positions(4)[2][1]
    table = layout_table(game.view(), labels=labels)
    drawn = "".join(_letter(table, f"goods_supply:{good}") for good in GOODS)
    assert drawn == letters
    assert len(set(drawn)) == 5
    panel = layout_panel(game.view(0), 0, "goods", labels=labels)
    assert "".join(_letter(panel, f"goods_supply:{good}") for good in GOODS) == letters
    words = {t.text for t in panel.texts}
    lb = labels or ENGLISH
    assert {lb[f"legend.{good}"] for good in GOODS} <= words


def _words(scene: Scene, key: str) -> str:
    box = scene.regions[key]
    inside = [t for t in scene.texts if box.contains(t.box)]
    return " ".join(t.text for t in sorted(inside, key=lambda t: (t.box.y, t.box.x)))


AI_NAMES = ["AI 2 (normal)", "IA 3 (normal)", "AI 4 (easy)", "IA 5 (fácil)",
            "Bérénice d'Artagnan-Montmorency"]


@pytest.mark.parametrize("players", PLAYERS)
def test_ai_names_show_whole_on_the_role_cards(players: int) -> None:
    """"AI 2 (nor…" was cut: a name that does not fit on a card goes on two lines (and so does
    a role's, "Buscador de oro" on eight cards); a long display name (32 characters) may end
    with an ellipsis."""
    state = crowded(players)
    names = AI_NAMES[:players]
    for labels in (None, SPANISH):
        view = GAME.view(state, None)
        for scene in (layout_table(view, names=names, labels=labels),
                      layout_panel(GAME.view(state, 0), 0, "roles", names=names, labels=labels)):
            lb = labels or ENGLISH
            for role in view["roles"]:
                taken = role["taken_by"]
                if taken is None:
                    continue
                title = lb[f"role.{role['role']}"]
                text = _words(scene, f"role:{role['card']}")
                assert text.startswith(f"{title} "), (title, text)  # the role's name, whole
                text = text[len(title) + 1:]
                if names[taken].startswith(("AI", "IA")):
                    assert text == names[taken], (role, text)
                else:
                    assert text.endswith("…") and text.startswith("Bérénice")


def _city_state() -> Any:
    """Player 1's city holds every small building, player 0's the long-named ones."""
    return crowded(4)


@pytest.mark.parametrize("language", ["en", "es"])
def test_building_names_show_whole_in_cities_and_the_market(language: str) -> None:
    """"Tobacco stor." was cut: a city cell puts a long name on two lines; the market writes
    every name whole (the panel's narrower tiles on two lines)."""
    labels = SPANISH if language == "es" else None
    lb = labels or ENGLISH
    state = _city_state()
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        scenes_ = [layout_table(view, labels=labels)]
        if viewer is not None:
            scenes_.append(layout_panel(view, viewer, "market", labels=labels))
        for scene in scenes_:
            seats = range(len(view["players"])) if viewer is None else [viewer]
            for seat in seats:
                for building in view["players"][seat]["city"]:
                    key = f"player:{seat}:city:{building['building']}"
                    if key in scene.regions:
                        assert _words(scene, key) == lb[f"building.{building['building']}"]
            for entry in view["market"]:
                name = lb[f"building.{entry['building']}"]
                assert _words(scene, f"market:{entry['building']}").startswith(name), name
