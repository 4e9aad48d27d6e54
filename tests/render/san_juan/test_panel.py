"""San Juan's private panel image: the player's own area and hand first, then only the part of
the table the decision needs, narrower than the table, every text legible at phone width."""

from __future__ import annotations

import pytest

from render import layout_panel, panel_focus, renderer_for
from render import theme as T
from render.san_juan import FOCUSES
from render.san_juan.panel import FOCUS_OF_PHASE, FOCUS_OF_PROMPT, PANEL_WIDTH
from render.scene import Rect, Scene
from tests.render.san_juan import fixtures as F
from tests.render.san_juan.checks import (
    LANGUAGES,
    all_words,
    card_parts,
    problems,
    texts_in,
    words,
)

PLAYERS = (2, 3, 4)
# Regions that belong to each focus's part of the table.
PARTS = {
    "roles": ("role:",),
    "trading_house": ("trading_house",),
    "gold_mine": ("gold_mine",),
}


def _parts(scene: Scene) -> set[str]:
    return {part for part, prefixes in PARTS.items()
            if any(k.startswith(prefixes) for k in scene.regions)}


def test_the_renderer_declares_its_focuses() -> None:
    assert renderer_for("san-juan").focuses == FOCUSES
    assert set(FOCUS_OF_PROMPT.values()) <= set(FOCUSES)
    assert set(FOCUS_OF_PHASE.values()) <= set(FOCUSES)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_focus_is_clean_and_legible(players: int, language: str) -> None:
    """Every seat, every focus, a crowded round and a Councillor's keep, long names: nothing
    overlaps or leaves the canvas and every text is at least 11 px at 550 px wide."""
    labels = LANGUAGES[language]
    for seat in range(players):
        for view in (F.start(players, seat), F.crowded(players, seat),
                     F.councillor(players, seat)):
            for focus in FOCUSES:
                scene = layout_panel(view, seat, focus, names=F.LONG_NAMES[:players],
                                     labels=labels)
                assert problems(scene) == [], (seat, focus)
                assert scene.width == PANEL_WIDTH


def test_the_own_area_and_hand_come_first_then_only_the_focus() -> None:
    """The player's area is at the top, then the hand; the focus's part is below them and no
    other part of the table (and no other player's area) is drawn."""
    view = F.crowded(4, 0)
    for focus in FOCUSES:
        scene = layout_panel(view, 0, focus)
        keys = scene.regions
        assert keys["player:0"].bottom <= keys["hand"].y
        assert not any(k.startswith(("player:1", "player:2", "player:3")) for k in keys)
        assert _parts(scene) == ({focus} & set(PARTS)), focus
        for part in _parts(scene):
            top = min(b.y for k, b in keys.items() if k.startswith(PARTS[part]))
            assert top >= keys["hand"].bottom, part


@pytest.mark.parametrize(("kind", "phase", "focus"), [
    ("role", "role", "roles"),
    ("build", "builder", "hand"),
    ("pay", "builder", "hand"),
    ("sell", "trader", "trading_house"),
    ("councillor", "councillor", "drawn"),
    ("prospector", "prospector", "none"),
    ("gold_mine_take", "prospector", "gold_mine"),
    ("chapel", "chapel", "hand"),
    ("hand_limit", "hand_limit", "hand"),
    ("variant_keep", "variant_keep", "drawn"),
    ("produce", "producer", "none"),
    ("a_new_kind", "trader", "trading_house"),
])
def test_the_default_focus_is_what_the_decision_needs(kind: str, phase: str,
                                                      focus: str) -> None:
    """The prompted seat sees its decision's part (an unknown prompt kind: its phase's); a seat
    that waits sees the phase's part."""
    view = F.crowded(3, 0)
    view.update({"phase": phase, "prompt": {"seats": [0], "kind": kind}})
    assert panel_focus(view, 0) == focus
    waiting = dict(view, prompt={"seats": [1], "kind": kind})
    assert panel_focus(waiting, 0) == FOCUS_OF_PHASE[phase]
    over = dict(view, phase="over", prompt=None)
    assert panel_focus(over, 0) == "none"


def test_the_decision_line_speaks_to_the_player() -> None:
    names = ["Ana", "Bea", "Cy"]
    mine = layout_panel(F.councillor(3, 1), 1, names=names)
    assert words(mine, "prompt") == "▶ Your turn: draw cards and choose which to keep"
    waiting = layout_panel(F.crowded(3, 0), 0, names=names)
    assert words(waiting, "prompt") == "Waiting for Bea: take a Gold mine card"
    assert words(waiting, "player:0:name") == "Ana"


def test_the_hand_or_the_drawn_cards_are_framed_when_the_decision_is_about_them() -> None:
    view = F.councillor(3, 0)

    def framed(scene: Scene, key: str) -> bool:
        box = scene.regions[key]
        return any(isinstance(s, Rect) and s.box == box and s.width == 4 for s in scene.dynamic)

    drawn = layout_panel(view, 0, "drawn")
    assert framed(drawn, "drawn") and not framed(drawn, "hand")
    hand = layout_panel(view, 0, "hand")
    assert framed(hand, "hand") and not framed(hand, "drawn")
    assert [card_parts(drawn, f"drawn:{i}")[0] for i in range(5)] == [
        "Palace", "Well", "Indigo plant", "Hero", "Coffee roaster"]


def test_the_trading_house_focus_says_what_the_goods_fetch() -> None:
    """With tile T4 face up, the seat's goods (indigo, sugar, coffee, silver on its production
    buildings) are priced 1, 2, 2, 3."""
    scene = layout_panel(F.crowded(3, 0), 0, "trading_house")
    text = all_words(scene)
    assert "Your goods sell for" in text
    assert words(scene, "trading_house:tile") == "Tile 4 · 4 face down"
    fetched = [t.text for t in scene.texts if t.key and t.anchor == "mm"
               and t.box.y > scene.regions["trading_house"].bottom]
    assert fetched == ["1", "2", "2", "3"]


def test_the_panel_of_a_big_hand_and_the_gold_mine() -> None:
    """19 cards (16 kinds) and the Gold mine's four cards, all readable."""
    scene = layout_panel(F.crowded(4, 0), 0, "gold_mine")
    assert problems(scene) == []
    assert sum(1 for k in scene.regions if k.startswith("hand:")) == 16
    assert [card_parts(scene, f"gold_mine:{i}")[1] for i in range(4)] == ["4", "1", "3", "5"]
    assert words(scene, "player:0:hand") == "19"


def test_a_panel_needs_a_seat_and_a_known_focus() -> None:
    with pytest.raises(ValueError, match="seat"):
        layout_panel(F.crowded(3))
    with pytest.raises(ValueError, match="focus"):
        layout_panel(F.crowded(3, 0), 0, "ships")
    assert layout_panel(F.crowded(3, 0)).width == PANEL_WIDTH  # the viewer's own panel


def test_the_panel_never_shows_another_seat_s_hand() -> None:
    """Drawn for seat 0 from seat 0's view: seat 0's cards only (seat 1's view, drawn as seat
    0's panel, has no hand of seat 0 to show: the hand section is left out)."""
    scene = layout_panel(F.crowded(4, 1), 0, "hand")
    assert "hand" not in scene.regions
    assert "Palace" not in all_words(scene)
    assert T.WIDTH > PANEL_WIDTH


def test_the_pending_decision_is_spelled_out_over_the_hand() -> None:
    """The seat's own pending context: the building being paid for and its cost (§4.1), the
    hand limit and how many to discard (§3.3), how many drawn cards to keep (§4.4) or, with an
    Archive, how many to discard from the whole hand (§5.3)."""
    view = F.crowded(3, 0)
    view.update({"phase": "builder", "prompt": {"seats": [0], "kind": "pay"},
                 "pending": {"decision": "pay", "building": "statue", "index": 6, "over": None,
                             "cost": 3, "goods_allowed": 0}})
    assert words(layout_panel(view, 0), "pending") == "Building Statue: pay 3"
    view.update({"phase": "hand_limit", "prompt": {"seats": [0], "kind": "hand_limit"},
                 "pending": {"decision": "hand_limit", "limit": 7, "discard": 12}})
    assert words(layout_panel(view, 0), "pending") == "Hand limit 7: discard 12"
    keep = layout_panel(F.councillor(3, 0), 0)
    assert texts_in(keep, "drawn")[0].text == "Drawn: 5 · keep 1"
    archive = F.councillor(3, 0)
    archive["pending"] = {"decision": "councillor", "archive": True, "discard": 3, "drawn": 5}
    scene = layout_panel(archive, 0, labels=LANGUAGES["es"])
    assert problems(scene) == []
    assert texts_in(scene, "drawn")[0].text.startswith("Robadas: 5 · luego descartas 3")
