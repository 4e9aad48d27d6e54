"""San Juan's table image (layout): every part of the table drawn, readable at phone width,
nothing overlapping or leaving the canvas, at 2, 3 and 4 players, in English and Spanish."""

from __future__ import annotations

import pytest

from engine.core import Event
from engine.san_juan.view import SanJuanView
from render import layout_panel, layout_table
from render import theme as T
from render.san_juan.cards import card
from render.san_juan.labels import ENGLISH
from render.san_juan.pieces import GOOD_COLORS, vp_text
from render.scene import Rect, Scene
from tests.render.san_juan import fixtures as F
from tests.render.san_juan.checks import (
    LANGUAGES,
    SPANISH,
    all_words,
    card_parts,
    problems,
    texts_in,
    words,
)

PLAYERS = (2, 3, 4)
ROLES = ("builder", "producer", "trader", "councillor", "prospector")


def _views(players: int) -> list[tuple[str, SanJuanView]]:
    out = [("start", F.start(players)), ("crowded", F.crowded(players))]
    out += [(f"seat {s}", F.crowded(players, s)) for s in range(players)]
    out += [(f"councillor {s}", F.councillor(players, s)) for s in range(players)]
    return out


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_table_is_clean_and_legible(players: int, language: str) -> None:
    """Public and seat tables, a quiet start and a crowded late round, long names with emoji:
    no text under 11 px at 550 px wide, no overlap, nothing off the canvas or across a card's
    edge."""
    for label, view in _views(players):
        for names in (None, F.LONG_NAMES[:players]):
            scene = layout_table(view, names=names, labels=LANGUAGES[language])
            assert problems(scene) == [], (label, names)
            assert scene.width == T.WIDTH


@pytest.mark.parametrize("players", PLAYERS)
def test_the_table_has_every_public_part(players: int) -> None:
    """The title band and status, the five roles, the trading house and its five prices, the
    piles, the Gold mine's cards, and for every player a panel with hand size, building count
    and VP, and each building."""
    view = F.crowded(players)
    scene = layout_table(view)
    keys = scene.regions
    for key in ("title", "status", "governor", "prompt", "trading_house", "trading_house:tile",
                "draw_pile", "discard_pile", "gold_mine"):
        assert key in keys, key
    for role in ROLES:
        assert f"role:{role}" in keys
    for good in ("indigo", "sugar", "tobacco", "coffee", "silver"):
        assert f"trading_house:{good}" in keys
    for seat in view["seats"]:
        s = seat["seat"]
        for part in ("name", "hand", "buildings", "vp"):
            assert f"player:{s}:{part}" in keys
        for i, _ in enumerate(seat["buildings"]):
            assert f"player:{s}:building:{i}" in keys
        assert words(scene, f"player:{s}:hand") == str(seat["hand"])
        assert words(scene, f"player:{s}:vp") == f"VP {seat['vp']}"
        assert words(scene, f"player:{s}:buildings") == f"Buildings {seat['building_count']}/12"
    assert words(scene, "draw_pile") == "38" and words(scene, "discard_pile") == "27"
    # the players come below the common table, in seat order
    tops = [keys[f"player:{s}"].y for s in range(players)]
    assert tops == sorted(tops) and tops[0] > keys["gold_mine"].bottom


def test_the_title_band_says_round_phase_chooser_library_and_who_must_act() -> None:
    """"Prospector phase (Library) · Ana", the Governor's name, and "▶ Waiting for Bea: take a
    Gold mine card"; the caller's status line replaces the phase and the waiting line."""
    names = ["Ana", "Bea", "Cy", "Dee"]
    view = F.crowded(4)
    view["role"] = {"name": "prospector", "chooser": 0, "library": True}
    scene = layout_table(view, names=names)
    status = words(scene, "status")
    assert "Round 12" in words(scene, "title")
    assert "Prospector phase (Library) · Ana" in status
    assert words(scene, "governor") == "Governor: Bea"
    assert words(scene, "prompt") == "▶ Waiting for Bea: take a Gold mine card"
    kept = layout_table(F.crowded(4), names=names, status="Round 12 · the Prospector ended")
    assert "Round 12 · the Prospector ended" in words(kept, "status")
    assert "prompt" not in kept.regions and "Prospector phase" not in all_words(kept)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_roles_say_who_took_which_and_frame_the_one_played(players: int) -> None:
    """§3.1: each role is taken by one player per round; the role being played is framed in
    teal; each role card names its privilege."""
    names = ["Ana", "Bea", "Cy", "Dee"][:players]
    view = F.crowded(players)
    scene = layout_table(view, names=names)
    for role in view["roles"]:
        text = words(scene, f"role:{role['name']}")
        assert text.startswith(ENGLISH[f"role.{role['name']}"])
        assert ENGLISH[f"privilege.{role['name']}"] in text
        taken = role["taken_by"]
        assert (taken is not None) == text.endswith(names[taken] if taken is not None else "~")
    box = scene.regions["role:prospector"]
    frames = [s for s in scene.dynamic if isinstance(s, Rect) and s.box == box
              and s.outline == T.ACT]
    assert frames, "the role being played is framed"


def test_the_trading_house_shows_the_face_up_tile_prices_and_the_stack() -> None:
    """§2.4: tile T4 prices (1, 2, 2, 2, 3); four tiles face down; the tiles turned so far
    (public history, §3.4).  Without a face-up tile the prices are dashes."""
    scene = layout_table(F.crowded(3))
    prices = {g: words(scene, f"trading_house:{g}") for g in F.GOODS}
    assert prices == {"indigo": "1 indigo", "sugar": "2 sugar", "tobacco": "2 tobacco",
                      "coffee": "2 coffee", "silver": "3 silver"}
    assert words(scene, "trading_house:tile") == "Tile 4 · 4 face down"
    assert words(scene, "trading_house:seen") == "Turned so far: 2, 5, 1, 4"
    quiet = layout_table(F.start(3))
    assert {t.text for t in texts_in(quiet, "trading_house:indigo")} == {"–", "indigo"}
    assert words(quiet, "trading_house:tile") == "5 face down"


def test_buildings_show_name_cost_vp_goods_piles_and_new_ones_dimmed() -> None:
    """Each building: its name, printed cost on a coin and VP on a chip (§8; ★ for a cost-6
    building, which scores by its formula); a production building's good; a covered pile names
    the card under it (§5.9); a building built this builder phase is dimmed (§5.0)."""
    view = F.crowded(4)
    scene = layout_table(view)
    assert card_parts(scene, "player:0:building:0") == ("Indigo plant", "1", "1", "")
    assert card_parts(scene, "player:0:building:7") == ("City hall", "6", "★", "")
    assert card_parts(scene, "player:0:building:6") == ("Statue", "3", "3",
                                                        "over: Coffee roaster")
    # a name too long for one line above what the pile covers: its short form
    assert card_parts(scene, "player:1:building:1") == ("Vict. column", "4", "4",
                                                        "over: Smithy +1 ?")
    # goods: a coloured barrel where a good lies, an empty outline elsewhere
    full = scene.regions["player:0:building:1:good"]
    empty = scene.regions["player:0:building:2:good"]
    fills = {s.box: s.fill for s in scene.dynamic if isinstance(s, Rect)}
    assert fills[full] == GOOD_COLORS["sugar"][0]
    assert fills[empty] is None
    # the new Hero is dimmed, the Quarry beside it is not
    hero, quarry = scene.regions["player:0:building:10"], scene.regions["player:0:building:11"]
    assert fills[hero] == T.SOLD_OUT and fills[quarry] == T.VIOLET_LIGHT


def test_chapels_show_a_question_mark_to_others_and_the_count_to_the_owner() -> None:
    """§3.4 / A-10: the cards under a Chapel are hidden from the other players (not even the
    count); the owner sees their number; a covered Chapel's cards still show on its pile."""
    public = layout_table(F.crowded(4))
    assert words(public, "player:0:chapel") == "?"
    assert words(public, "player:3:chapel") == "?"
    assert words(public, "player:1:chapel") == "?"  # under the Victory column
    assert public.regions["player:1:building:1"].contains(public.regions["player:1:chapel"])
    own = layout_table(F.crowded(4, 0))
    assert words(own, "player:0:chapel") == "3"
    assert words(own, "player:3:chapel") == "?"
    assert "player:0:chapel" not in layout_table(F.start(4, 0)).regions  # no Chapel, no mark


def test_marks_for_the_governor_who_must_act_and_who_is_done() -> None:
    names = ["Ana", "Bea", "Cy"]
    scene = layout_table(F.crowded(3, 0), names=names)
    assert words(scene, "player:1:governor") == "Governor"
    assert words(scene, "player:1:to_act") == "▶ to act"
    assert words(scene, "player:0:done") == "✓ done"
    assert words(scene, "player:0:you") == "you"
    assert "player:2:to_act" not in scene.regions


def test_the_gold_mine_cards_are_drawn_with_their_costs() -> None:
    """§5.2: the four face-up cards, each with its printed cost (what the rule compares)."""
    scene = layout_table(F.crowded(2))
    cards = [card_parts(scene, f"gold_mine:{i}")[:3] for i in range(4)]
    assert cards == [("Quarry", "4", "2"), ("Smithy", "1", "1"), ("Tobacco storage", "3", "2"),
                     ("Silver smelter", "5", "3")]
    assert "gold_mine" not in layout_table(F.start(2)).regions


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_seat_table_adds_the_hand_as_readable_cards(language: str) -> None:
    """A seat's view: its 19 cards (16 kinds, copies as ×n), each with name, cost, VP and
    effect in the game's language; the Councillor's drawn cards apart and marked."""
    labels = LANGUAGES[language]
    lb = labels or ENGLISH
    view = F.crowded(4, 0)
    scene = layout_table(view, labels=labels)
    assert problems(scene) == []
    kinds = sorted(set(view["hand"]))
    assert len(view["hand"]) == 19 and len(kinds) == 16
    for kind in kinds:
        name, cost, vp, rest = card_parts(scene, f"hand:{kind}")
        assert name == lb[f"card.{kind}"], (kind, name)
        assert cost == str(card(kind).cost) and vp == vp_text(card(kind))
        copies = view["hand"].count(kind)
        assert rest == lb[f"effect.{kind}"] + (f" ×{copies}" if copies > 1 else ""), rest
    assert card_parts(layout_table(view), "hand:palace") == ("Palace", "6", "★",
                                                            "End: +1 VP per 4 VP ×2")
    drawn = layout_table(F.councillor(4, 0))
    assert [card_parts(drawn, f"drawn:{i}")[0] for i in range(5)] == [
        "Palace", "Well", "Indigo plant", "Hero", "Coffee roaster"]
    assert drawn.regions["drawn"].y > drawn.regions["hand"].bottom


def test_every_card_kind_reads_whole_in_a_hand() -> None:
    """The widest hand (one card of each of the 29 kinds): every name and effect whole, in
    English and Spanish."""
    view = F.every_kind()
    for labels in (None, SPANISH):
        scene = layout_table(view, labels=labels)
        assert problems(scene) == []
        for kind in view["hand"]:
            assert "…" not in words(scene, f"hand:{kind}"), kind


@pytest.mark.parametrize("language", ["en", "es"])
def test_copies_never_crowd_an_effect(language: str) -> None:
    """Two of every kind: each card's ×2 sits below or beside its effect's last line, never
    on it, on the table (four a row) and the panel (three a row)."""
    view = F.doubles()
    for scene in (layout_table(view, labels=LANGUAGES[language]),
                  layout_panel(view, 0, "hand", labels=LANGUAGES[language])):
        assert problems(scene) == []
        for kind in set(view["hand"]):
            assert card_parts(scene, f"hand:{kind}")[3].endswith("×2"), kind


def test_a_production_building_over_a_chapel_tells_its_cards_after_what_it_covers() -> None:
    """§5.10: cards under a covered Chapel still count; beside a good there is no room for the
    card back, so the count follows "over: Chapel"."""
    public = layout_table(F.crowded(3))
    assert card_parts(public, "player:2:building:4")[3] == "over: Chapel (?)"
    assert words(public, "player:2:chapel") == "over: Chapel (?)"
    own = layout_table(F.crowded(3, 2))
    assert words(own, "player:2:chapel") == "over: Chapel (3)"


def test_the_last_change_is_framed() -> None:
    """Events of the last phase frame what they changed: the role chosen, the building built
    (by its index in the area, else its kind), the goods produced, the tile turned, the new
    Governor; a private draw frames in public only the hand count its public form names."""
    events = [
        Event("RoleChosen", 0, {"role": "prospector", "library": False}),
        Event("BuildingBuilt", 0, {"card": "hero", "index": 10, "over": None, "cost": 5}),
        Event("BuildingBuilt", 1, {"card": "silver_smelter"}),
        Event("GoodsProduced", 2, {"goods": ["indigo", "tobacco"], "buildings": [0, 2]}),
        Event("TileRevealed", None, {"tile": 4, "prices": F.prices(4)}),
        Event("RoundStarted", None, {"round": 12, "governor": 1}),
        Event("CardsDrawn", 2, {"count": 1, "reason": "trade", "cards": ["palace"]},
              private_to=2, public_data={"count": 1, "reason": "trade"}),
        Event("ChapelCardPlaced", 0, {"card": "palace"}, private_to=0, public_data=None),
    ]
    scene = layout_table(F.crowded(3), events)
    frames = {s.box for s in scene.dynamic if isinstance(s, Rect) and s.outline == T.HIGHLIGHT}
    for key in ("role:prospector", "player:0:building:10", "player:1:card:silver_smelter",
                "player:2:building:0", "player:2:building:2", "trading_house", "governor",
                "player:1:governor", "player:2:hand"):
        assert scene.regions[key].grow(3) in frames, key
    assert scene.regions["player:0:chapel"].grow(3) not in frames  # private, no public form
    assert "palace" not in str(scene.texts).lower()
    own = layout_table(F.crowded(3, 0), [e.to_json() for e in events])  # as stored
    own_frames = {s.box for s in own.dynamic if isinstance(s, Rect) and s.outline == T.HIGHLIGHT}
    assert own.regions["player:0:chapel"].grow(3) in own_frames


def _static(scene: Scene) -> tuple[object, ...]:
    return scene.static


@pytest.mark.parametrize("players", PLAYERS)
def test_the_static_layer_depends_only_on_the_player_count(players: int) -> None:
    """Names, buildings, piles and prices are dynamic: every public table of a player count
    without the Gold mine's cards shares one cached background."""
    quiet = F.start(players)
    busy = F.crowded(players)
    busy["gold_mine"] = None
    a = layout_table(quiet, names=["A"] * players)
    b = layout_table(busy, names=F.LONG_NAMES[:players])
    assert _static(a) == _static(b)
    assert a.height == b.height
