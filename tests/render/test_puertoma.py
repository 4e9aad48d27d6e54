"""1897's Puertoma on the images (rules spec §8.2): real games of one person against two
Puertomas drawn as scenes and PNGs, in English, Spanish and Brazilian Portuguese.

A Puertoma's panel shows its ten property spaces (the workers on their spaces, an active one
starred on gold), its VP area, its four skill tiles (face down, active with the skill's words,
discarded) and its Reserve token's building, and its buildings on their levels; the table shows
the action board (the difficulty, the role under the marker, the tie-breaker cards left) and the
Reserve tokens on the market; the score sheet has the Puertoma's own parts and, drawn from the
finished view, its panel.  A face-down skill is never named on any image."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.rendering import image_labels
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico.game import PuertoRico
from engine.puerto_rico_1897 import puertoma as engine_puertoma
from engine.puerto_rico_1897.vocabulary import kernel_event, kernel_view
from render import (
    fonts,
    layout_panel,
    layout_scoresheet,
    layout_table,
    render_png,
    render_scoresheet,
    render_table,
)
from render import theme as T
from render.labels import Labels
from render.puerto_rico import players, puertoma
from render.puerto_rico.context import Table, puerto_rico_view
from render.puerto_rico.highlights import event_keys
from render.puerto_rico_1897 import ENGLISH, RECOLOR
from render.puerto_rico_1897.labels import PUERTOMA
from render.scene import Box, Ellipse, Polygon, Rect, Scene, Sketch
from tests.render.helpers import problems
from tests.render.puerto_rico_1897.test_pr1897 import CLASSIC_WORDS

GAME = get_game("puerto-rico-1897")
assert isinstance(GAME, PuertoRico)
KERNEL: PuertoRico = GAME  # the kernel's own view of the same state
LANGUAGES = ("en", "es", "pt")
I18N = Path(__file__).resolve().parents[2] / "bot" / "games" / "puerto_rico" / "i18n"
MAX_PNG = 400_000
Step = tuple[Any, tuple[Event, ...]]


@cache
def game_states(difficulty: str, seed: int, players: int = 3, puertomas: int = 2,
                expansions: tuple[int, ...] = ()) -> list[Step]:
    """Every state of one game (the people played by the heuristic policy), with the events
    that led to it."""
    options = {"players": players, "puertomas": puertomas, "puertoma_difficulty": difficulty,
               "expansions": list(expansions)}
    state = GAME.setup(options, seed)
    policies = [make_policy("heuristic", GAME.name, seed * 10 + s) for s in range(players)]
    out: list[Step] = [(state, ())]
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        out.append((state, tuple(events)))
    return out


def start_middle_end(steps: list[Step]) -> list[tuple[str, Step]]:
    return [("start", steps[0]), ("middle", steps[len(steps) // 2]), ("end", steps[-1])]


@cache
def labels(lang: str) -> Labels:
    """The bot's image words in ``lang`` over 1897's English table (what the bot draws with)."""
    return Labels(image_labels(GAME.name, lang), ENGLISH)


def texts_in(scene: Scene, box: Box) -> list[str]:
    return [t.text for t in scene.texts if box.contains(t.box)]


def shapes_in(scene: Scene, box: Box) -> list[Any]:
    return [s for s in (*scene.static, *scene.dynamic)
            if (isinstance(s, Rect | Ellipse) and box.contains(s.box))
            or (isinstance(s, Polygon) and all(box.contains(Box(x, y, 0, 0)) for x, y in s.points))]


def drawn(scene: Scene) -> str:
    return " ".join(t.text for t in scene.texts)


def hidden_skills(state: Any) -> dict[int, list[str]]:
    """The skills face down on each Puertoma's board now (the state's, which no view shows)."""
    out: dict[int, list[str]] = {}
    for seat in state.rs.automata:
        at = engine_puertoma.board_at(state, seat)
        out[seat] = [
            engine_puertoma.SKILLS[level][state.puertoma[at + engine_puertoma.SKILL_AT + level]]
            for level in range(engine_puertoma.LEVELS)
            if state.puertoma[at + engine_puertoma.SKILL_STATE + level]
            == engine_puertoma.FACE_DOWN
        ]
    return out


def effect(lb: Labels, skill: str) -> str:
    return lb(f"ui.puertoma.skill.{skill}")


# --- what must be drawn ---------------------------------------------------------------------------


def check_puertomas(scene: Scene, view: Mapping[str, Any], lb: Labels, *, table: bool = True
                    ) -> None:
    """Every Puertoma's board as its panel must show it (``view``: the 1897 view drawn), and the
    action board on a table."""
    kernel = kernel_view(view)
    part = kernel["puertoma"]
    regions = scene.regions
    if table:
        marker = regions["puertoma:marker"]
        assert lb.role(part["marker"]) in texts_in(scene, marker)
        assert str(part["tie_breakers_left"]) in texts_in(scene, regions["puertoma:tie_breakers"])
        assert lb(f"ui.puertoma.{part['difficulty']}") in drawn(scene)
    for seat in part["seats"]:
        b = part["boards"][str(seat)]
        key = f"player:{seat}"
        assert lb("ui.puertoma.name") in texts_in(scene, regions[key])
        assert regions[key].contains(regions[f"{key}:properties"])
        for index, entry in enumerate(b["properties"]):
            box = regions[f"{key}:property:{index}"]
            good = puertoma.GOODS[index // 2]
            inside = shapes_in(scene, box)
            workers = [s for s in inside if isinstance(s, Ellipse) and s.fill == T.COLONIST]
            empty = [s for s in inside if isinstance(s, Ellipse) and s.fill == T.WHITE]
            stars = [s for s in inside if isinstance(s, Polygon) and s.fill == T.GOLD]
            if entry is None:
                assert lb.letter(good) not in texts_in(scene, box) and not workers and not empty
                continue
            assert entry["good"] == good
            assert texts_in(scene, box) == [lb.letter(good)]
            assert len(workers) == entry["workers"]
            assert len(empty) == entry["spaces"] - entry["workers"]
            assert len(stars) == int(entry["workers"] == entry["spaces"])  # active
        area = texts_in(scene, regions[f"{key}:vp_area"])
        assert f"×{b['vp_area']['quarries']}" in area and str(b["vp_area"]["workers"]) in area
        assert lb("ui.puertoma.vp_area") in area
        for skill in b["skills"]:
            inside = texts_in(scene, regions[f"{key}:skill:{skill['level']}"])
            assert inside[0] == str(skill["level"])
            if skill["state"] == "active":
                assert skill["skill"] is not None
                assert inside[1] == lb.role(puertoma.skill_role(skill["skill"]))
                assert " ".join(inside[2:]) == effect(lb, skill["skill"])
            else:
                assert inside[1:] == [lb("ui.puertoma.skill"), lb(f"ui.puertoma.{skill['state']}")]
        reserve = " ".join(texts_in(scene, regions[f"{key}:reserve"]))
        assert lb("ui.puertoma.reserve") in reserve
        if b["reserve"] is None:
            assert lb("ui.puertoma.no_reserve") in reserve
        else:
            name = b["reserve"]
            assert lb.building(name) in reserve or lb.building_short(name) in reserve
            if table:
                token = regions[f"market:{b['reserve']}:reserve"]
                assert regions[f"market:{b['reserve']}"].contains(token)
        city = regions[f"{key}:city"]
        for building in kernel["players"][seat]["city"]:
            name = building["building"]
            box = regions[f"{key}:city:{name}"]
            assert city.contains(box)  # its whole name (or its short one), no word cut
            assert " ".join(texts_in(scene, box)) in (lb.building(name), lb.building_short(name))
        assert not kernel["players"][seat]["island"]
    for seat in range(len(view["players"])):
        if seat not in part["seats"]:
            assert f"player:{seat}:property:0" not in regions
            assert f"player:{seat}:island" in regions or not table


def png_ok(png: bytes, scene: Scene) -> None:
    assert len(png) <= MAX_PNG
    image = Image.open(io.BytesIO(png))
    assert image.size == (T.WIDTH, scene.height)
    image.load()


# --- the words ------------------------------------------------------------------------------------


def test_the_catalogs_hold_the_puertoma_words_in_three_languages() -> None:
    """``*.puertoma_images.json``: exactly the renderer's Puertoma keys (``ui.puertoma.`` and
    ``legend.puertoma.``, apart from the log's ``*.puertoma.json``), English as the renderer's,
    the same placeholders, and the bot's image labels carry them to 1897's images."""
    assert all(k.startswith(("ui.puertoma.", "legend.puertoma.")) for k in PUERTOMA)
    skills = {f"ui.puertoma.skill.{s}" for level in puertoma.SKILLS for s in level}
    assert len(skills) == 12 and skills <= set(PUERTOMA)
    assert {s for level in engine_puertoma.SKILLS for s in level} == {
        s for level in puertoma.SKILLS for s in level}
    log = set(json.loads((I18N / "en.puertoma.json").read_text(encoding="utf-8")))
    assert not log & set(PUERTOMA)
    for lang in LANGUAGES:
        table = json.loads((I18N / f"{lang}.puertoma_images.json").read_text(encoding="utf-8"))
        assert set(table) == set(PUERTOMA), lang
        for key, text in table.items():
            assert fonts.clean(text) == text, (lang, key)
            assert ("{" in text) == ("{" in PUERTOMA[key]), (lang, key)
        words = image_labels(GAME.name, lang)
        assert {k: words[k] for k in PUERTOMA} == table
    assert json.loads((I18N / "en.puertoma_images.json").read_text(encoding="utf-8")) == PUERTOMA
    assert {k: ENGLISH[k] for k in PUERTOMA} == PUERTOMA
    assert labels("pt")("ui.puertoma.skill") == "Habilidade"
    assert labels("es")("ui.puertoma.reserve") == "Ficha de reserva"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_skill_s_words_fit_its_tile(lang: str) -> None:
    """A skill tile holds its role and its words on two lines, never cut."""
    lb = labels(lang)
    width = (players.RIGHT - players.LEFT - 3 * 8) // 4 - 20
    for level in puertoma.SKILLS:
        for skill in level:
            lines = fonts.wrap(effect(lb, skill), T.TEXT_SMALL, False, (width, width))
            assert len(lines) <= 2 and " ".join(lines) == effect(lb, skill), (lang, skill)
            title = lb.role(puertoma.skill_role(skill))
            assert fonts.length(title, T.TEXT_SMALL, True) <= width - 40, (lang, skill)


# --- the view read back -------------------------------------------------------------------------


@pytest.mark.parametrize(("difficulty", "expansions"), [("hard", ()), ("easy", (4, 5))])
def test_kernel_view_gives_the_kernel_s_puertoma_part(
        difficulty: str, expansions: tuple[int, ...]) -> None:
    """The renderer reads the Puertoma part exactly as the kernel wrote it (its fields are no
    classic words: only the values, Fruit, the Recruiter, a building, are read back)."""
    steps = game_states(difficulty, 2, expansions=expansions)
    for state, _ in [*steps[:: max(1, len(steps) // 8)], steps[-1]]:
        for viewer in (None, 0):
            kernel = PuertoRico.view(KERNEL, state, viewer)
            assert kernel_view(GAME.view(state, viewer))["puertoma"] == kernel.get("puertoma")
    event = Event("PuertomaWorkersPlaced", 1, {"placed": {"fruit": 2, "vp_area": 1}})
    assert event_keys(kernel_event(event)) == [
        "player:1:properties:indigo", "player:1:vp_area:workers"]


# --- the images ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tables_and_the_score_sheet_of_a_solo_game(lang: str) -> None:
    """One person against two hard Puertomas (their level-1 skills active from the start): the
    start, the middle and the end as real PNGs, and the score sheet from the finished view."""
    lb = labels(lang)
    words = image_labels(GAME.name, lang)
    steps = game_states("hard", 1)
    for when, (state, events) in start_middle_end(steps):
        view = GAME.view(state, None)
        scene = layout_table(view, events, labels=words)
        assert problems(scene) == [], when
        check_puertomas(scene, view, lb)
        assert CLASSIC_WORDS.search(drawn(scene)) is None or lang != "en"
        assert not {getattr(s, "fill", None) for s in scene.dynamic} & set(RECOLOR)
        png_ok(render_table(view, events, labels=words), scene)
    final = GAME.view(steps[-1][0], None)
    sheet = layout_scoresheet(final, game=GAME.name, labels=words)
    assert problems(sheet) == []
    check_puertomas(sheet, final, lb, table=False)
    scored = set(final["outcome"]["scores"][1]["breakdown"])
    for part in puertoma.PARTS:  # the third properties are a part only with the Festival
        if part in scored:
            assert lb(f"ui.puertoma.score.{part}") in texts_in(
                sheet, Box(0, 0, T.WIDTH, sheet.height))
    png_ok(render_scoresheet(final, game=GAME.name, labels=words), sheet)


def test_the_score_sheet_s_rows_and_its_panels() -> None:
    """The Puertoma's parts of its score get their own words, in the book's order after the
    others (a person's column shows "–"); the outcome alone draws no board, the finished view
    draws each Puertoma's panel under the sheet, Fruit green."""
    state = game_states("standard", 3)[-1][0]
    outcome = GAME.outcome(state)
    assert outcome is not None
    alone = layout_scoresheet(outcome.to_json(), game=GAME.name)
    rows = [t.text for t in alone.texts if t.x == T.MARGIN + 16]
    words = [PUERTOMA[f"ui.puertoma.score.{p}"] for p in puertoma.PARTS
             if p != "vp_area_properties"]  # a part only with the Festival
    assert rows[-len(words) - 3:-3] == words
    assert alone.regions["score:0:vp_area_quarries"] and "player:1" not in alone.regions
    assert texts_in(alone, alone.regions["score:0:vp_area_quarries"]) == ["–"]
    view = GAME.view(state, None)
    sheet = layout_scoresheet(view, game=GAME.name)
    assert [t.text for t in sheet.texts[: len(alone.texts)]] == [t.text for t in alone.texts]
    assert sheet.height > alone.height + 2 * puertoma.PANEL_H
    for seat in view["puertoma"]["seats"]:
        assert sheet.regions[f"player:{seat}"].y >= alone.height - T.MARGIN
    assert "player:0" not in sheet.regions
    colours = {getattr(s, f, None) for s in sheet.dynamic for f in ("fill", "outline")}
    assert not colours & set(RECOLOR)


def test_a_face_down_skill_is_never_named_on_any_image() -> None:
    """The skill under a face-down tile (the state knows it, no view does) appears on no table,
    no seat's table, no panel and no score sheet, in any language: its tile shows its level,
    "Skill" and "face down" only."""
    checked = 0
    for difficulty, seed in (("hard", 1), ("easy", 2), ("standard", 3)):
        steps = game_states(difficulty, seed)
        last = len(steps) - 1
        for index in sorted({*range(0, len(steps), 6), last}):
            state, events = steps[index]
            hidden = hidden_skills(state)
            for viewer in (None, 0):
                view = GAME.view(state, viewer)
                for board in view["puertoma"]["boards"].values():
                    assert all(s["skill"] is None for s in board["skills"]
                               if s["state"] != "active")
                for lang in LANGUAGES:
                    words = image_labels(GAME.name, lang)
                    scenes = [layout_table(view, events, labels=words)]
                    if viewer is not None and GAME.prompt(state) is not None:
                        scenes.append(layout_panel(view, viewer, "roles", labels=words))
                    if index == last and viewer is None:
                        scenes.append(layout_scoresheet(view, game=GAME.name, labels=words))
                    shown = {s["skill"] for b in view["puertoma"]["boards"].values()
                             for s in b["skills"] if s["state"] == "active"}
                    for scene in scenes:
                        text = drawn(scene)
                        for seat, skills in hidden.items():
                            for skill in skills:
                                if skill not in shown:
                                    assert effect(labels(lang), skill) not in text, skill
                                level = puertoma.SKILL_LEVEL[skill]
                                region = scene.regions.get(f"player:{seat}:skill:{level}")
                                if region is not None:
                                    assert texts_in(scene, region) == [
                                        str(level), labels(lang)("ui.puertoma.skill"),
                                        labels(lang)("ui.puertoma.face_down")]
                                    checked += 1
    assert checked > 100


def test_easy_puertomas_discard_their_last_skills() -> None:
    """Easy: after its second skill a Puertoma discards the others, drawn greyed as such."""
    state, events = game_states("easy", 2)[-1]
    view = GAME.view(state, None)
    states = [s["state"] for b in view["puertoma"]["boards"].values() for s in b["skills"]]
    assert "discarded" in states and "active" in states
    scene = layout_table(view, events)
    assert problems(scene) == []
    check_puertomas(scene, view, labels("en"))
    assert "discarded" in drawn(scene)


@pytest.mark.parametrize(("players", "puertomas", "expansions"),
                         [(2, 1, ()), (4, 1, (1, 2)), (5, 1, (3, 4, 5))])
def test_one_puertoma_among_people(players: int, puertomas: int,
                                   expansions: tuple[int, ...]) -> None:
    """Two players with one Puertoma, four or five with one (with expansions): every image
    clean, the Puertoma's board where it belongs, small PNGs."""
    steps = game_states("standard", 4, players, puertomas, expansions)
    for _, (state, events) in start_middle_end(steps):
        view = GAME.view(state, None)
        scene = layout_table(view, events)
        assert problems(scene) == []
        check_puertomas(scene, view, labels("en"))
        assert len(render_png(scene)) <= MAX_PNG
    state = steps[-1][0]
    assert problems(layout_scoresheet(GAME.view(state, None), game=GAME.name)) == []


def test_the_events_of_the_puertomas_are_framed() -> None:
    """The marker moved, a tie-breaker card drawn, workers placed, a skill unlocked: each
    framed where the image shows it."""
    wanted = {"MarkerMoved", "TieBreakerDrawn", "PuertomaWorkersPlaced",
              "PuertomaSkillUnlocked", "PropertyTaken", "ReserveTokenPlaced"}
    seen: set[str] = set()
    for state, events in game_states("standard", 3):
        types = {e.type for e in events} & wanted
        if not types - seen:
            continue
        scene = layout_table(GAME.view(state, None), events)
        frames = {s.box for s in scene.dynamic if isinstance(s, Rect) and s.outline == T.HIGHLIGHT}
        for event in events:
            if event.type not in wanted:
                continue
            keys = event_keys(kernel_event(event))
            assert keys, event
            for key in keys:
                assert scene.regions[key].grow(3) in frames, (event, key)
            seen.add(event.type)
    assert seen == wanted


def test_the_panel_shows_the_action_board_with_the_role_cards() -> None:
    state = next(s for s, _ in game_states("hard", 1)[5:]
                 if (p := GAME.prompt(s)) is not None and p.kind == "role")
    view = GAME.view(state, 0)
    scene = layout_panel(view, 0, "roles")
    assert problems(scene) == []
    marker = texts_in(scene, scene.regions["puertoma:marker"])
    assert ENGLISH[f"role.{kernel_view(view)['puertoma']['marker']}"] in marker
    assert "player:1:property:0" not in scene.regions  # the panel is the person's own board


def test_the_buildings_stand_on_their_levels() -> None:
    """The board's spaces place each building (a Festival building above its level); without
    them, the counts of each level do."""
    view: dict[str, Any] = {"market": [
        {"building": "small_market", "column": 1}, {"building": "hospice", "column": 2},
        {"building": "fortress", "column": 4}]}
    t = Table(view=puerto_rico_view(view), labels=Labels(None, ENGLISH), names=["a"],
              sk=Sketch(100, T.PANEL), marks=frozenset())
    # only what level_places reads of a city and of a board (Any: the test's partial values)
    city: Any = [{"building": "fortress"}, {"building": "small_market"}, {"building": "hospice"}]
    spaces = ["hospice", None, "small_market", None, None, None, "fortress", None]
    board: Any = {"spaces": spaces}
    assert puertoma.level_places(t, board, city) == [(3, 0), (1, 0), (0, 0)]
    counts: Any = {"levels": [1, 1, 0, 1]}
    assert puertoma.level_places(t, counts, city) == [(3, 0), (0, 0), (1, 0)]
    counts = {"levels": [0, 2, 0, 1]}  # the Small market on a level-2 space
    assert puertoma.level_places(t, counts, city) == [(3, 0), (1, 0), (1, 1)]


def test_without_puertomas_nothing_of_theirs_is_drawn() -> None:
    state = GAME.setup({"players": 3}, 1)
    scene = layout_table(GAME.view(state, None))
    assert not [k for k in scene.regions if "puertoma" in k or ":property:" in k]
    assert PUERTOMA["ui.puertoma.name"] not in drawn(scene)

