"""Issue #33, what a new player met alone against the Puertomas with the Achievements: the panel
showed each card's VP beside Announce, the rules page said a completed card scores its VP, and
the score sheet gave the person "–" and each Puertoma 12.  The engine is right (§8.13: people do
not score their cards; each Puertoma scores the ones left incomplete): the words say so where
the player decides (the Announce button), on the rules page and on the score sheet."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import presenter_for
from bot.rendering import image_labels
from engine import get_game
from engine.policies import make_policy
from render import layout_scoresheet

GAME = "puerto-rico-1897"
WORDS = {"en": "denies the Puertomas", "es": "niega", "pt": "nega"}
NOTE = {"en": "Against the Puertomas", "es": "Contra los Puertomas", "pt": "Contra os Puertomas"}


def play(options: dict[str, Any], seed: int) -> tuple[list[tuple[Any, str]], Any]:
    """A game played by the heuristic to its end: (the seat-0 positions where an Achievement
    could be announced, with the code), and the final state."""
    game = get_game(GAME)
    state = game.setup(game.normalize_options(options), seed)
    policies = [make_policy("heuristic", GAME, seed + seat) for seat in range(options["players"])]
    announce: list[tuple[Any, str]] = []
    while (prompt := game.prompt(state)) is not None:
        codes = [game.encode_action(a) for a in game.legal_actions(state, 0)]
        announce += [(state, c) for c in codes if c.startswith("ach.")][:1]
        seat = prompt.seats[0]
        action = policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    return announce, state


@pytest.fixture(scope="module")
def solo() -> tuple[list[tuple[Any, str]], Any]:
    return play({"players": 3, "puertomas": 2, "expansions": [6]}, 4)


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_announce_button_says_what_a_card_is_worth_against_puertomas(
        solo: tuple[list[tuple[Any, str]], Any], lang: str) -> None:
    announce, _ = solo
    assert announce, "no Achievement was met in the game"
    state, code = announce[0]
    presenter = presenter_for(GAME)
    label = presenter.words(get_game(GAME).view(state, 0), lang).label(code)
    assert WORDS[lang] in label, label
    assert len(label) <= 80


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_score_sheet_and_the_rules_page_explain_the_people_s_dash(
        solo: tuple[list[tuple[Any, str]], Any], lang: str) -> None:
    _, final = solo
    game = get_game(GAME)
    view = game.view(final, None)
    scores = {s["seat"]: s["breakdown"] for s in view["outcome"]["scores"]}
    assert "achievements" not in scores[0] and "achievements" in scores[1]
    presenter = presenter_for(GAME)
    notes = presenter.score_notes(view, lang)
    assert len(notes) == 1 and NOTE[lang] in notes[0] and "§8.13" in notes[0]
    scene = layout_scoresheet(view, game=GAME, labels=image_labels(GAME, lang))
    assert "note:0" in scene.regions
    assert any(NOTE[lang] in t.text for t in scene.texts)
    topic = next(t for t in presenter.help_topics() if t.id == "achievements")
    assert "§8.13" in presenter.help_text(topic, lang, {"cmd_achievement": "/x",
                                                       "cmd_announce": "/y"})


def test_with_people_only_a_card_says_its_own_vp_and_the_sheet_no_note() -> None:
    """Without Puertomas a met card scores for its holder: the button says its VP."""
    announce, final = play({"players": 3, "expansions": [6]}, 5)
    assert announce
    state, code = announce[0]
    presenter = presenter_for(GAME)
    label = presenter.words(get_game(GAME).view(state, 0), "en").label(code)
    assert "Puertoma" not in label and "VP" in label
    view = get_game(GAME).view(final, None)
    assert presenter.score_notes(view, "en") == []
    scene = layout_scoresheet(view, game=GAME, labels=image_labels(GAME, "en"))
    assert "note:0" not in scene.regions
