"""The words of Puerto Rico's Exp. 3 (El Bucanero) and Exp. 4 (El Festival), in English and
in Spanish with the 2020 rulebook's names: every new action code (``r.buccaneer``, ``bu.*``,
``raid.*``) as a label, an autocomplete choice and a description; the prompt kinds
``buccaneer`` and ``raid_place``; every new event and reason in the log; the refusals
(``role_not_allowed``, an option not open now); the table's text (token, captured card,
Festival goals).  No code, id or placeholder leaks into the words (rules spec §12, §13)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest

from bot.errors import describe, message_for
from bot.games import presenter_for
from bot.games.contract import Situation
from bot.games.puerto_rico.gamelog import PrLogWriter, view_at_phase_end
from bot.games.puerto_rico.words import puerto_rico_view
from bot.i18n import LANGUAGES
from bot.refusals import situate
from engine import get_game
from engine.core import Event, IllegalAction
from engine.policies import make_policy
from storage import ActionRecord

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
MODULES = ["buccaneer", "festival"]
AT = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave", 4: "erin"}
NEW_EVENTS = {
    "BuccaneerTokenTaken",
    "ShipPirated",
    "TradingHousePlundered",
    "ColonistShipRaided",
    "RoleCaptured",
    "CapturedRolePlayed",
    "FestivalGoalAchieved",
}
LEAK = re.compile(r"\b(?:bu|raid|r)\.[a-z]|[a-z]+_[a-z]+|[{}]|\bNone\b")
ENGLISH_IN_SPANISH = re.compile(
    r"\b(?:Piracy|Plunder|Raid|Capture|Buccaneer|Festival goal|"
    r"token|captured|keep)\b"
)


@cache
def played() -> tuple[list[tuple[Mapping[str, Any], str, tuple[str, ...]]], list[Event]]:
    """(seat view, prompt kind, legal codes) of every Buccaneer decision and role choice, and
    every event, in seeded random games with both modules at 2 to 5 players."""
    decisions: list[tuple[Mapping[str, Any], str, tuple[str, ...]]] = []
    events: list[Event] = []
    for seed in range(8):
        players = 2 + seed % 4
        state = GAME.setup({"players": players, "modules": MODULES}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            codes = tuple(GAME.encode_action(a) for a in legal)
            if prompt.kind in ("buccaneer", "raid_place", "role"):
                decisions.append((GAME.view(state, seat), prompt.kind, codes))
            state, new = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
            events.extend(e for e in (x.for_viewer(None) for x in new) if e is not None)
    return decisions, events


def test_the_games_reach_every_new_code_and_event() -> None:
    decisions, events = played()
    codes = {c for _, _, cs in decisions for c in cs}
    for prefix in ("r.buccaneer", "bu.piracy.", "bu.plunder", "bu.raid", "bu.capture.", "raid."):
        assert any(c.startswith(prefix) for c in codes), prefix
    assert {e.type for e in events} >= NEW_EVENTS
    reasons = {(e.type, e.data.get("by") or e.data.get("reason")) for e in events}
    assert {
        ("ColonistGained", "raid"),
        ("ColonistGained", "festival"),
        ("DoubloonsEarned", "capture"),
        ("VpEarned", "plunder"),
        ("VpEarned", "festival"),
    } <= reasons


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_choice_is_worded(lang: str) -> None:
    decisions, _ = played()
    for view, kind, codes in decisions:
        words = PR.words(view, lang, kind=kind)
        prompt = PR.prompt_text(kind, lang)
        assert prompt and not LEAK.search(prompt), (lang, kind, prompt)
        for code in codes:
            if not (code.startswith(("bu.", "raid.")) or code in ("r.buccaneer", "pass")):
                continue
            for text in (
                words.label(code),
                words.choice_name(code),
                words.description(code) or "x",
            ):
                assert text and not LEAK.search(text), (lang, code, text)
                assert lang != "es" or not ENGLISH_IN_SPANISH.search(text), (code, text)
            assert len(words.label(code)) <= 80 and len(words.choice_name(code)) <= 100


def first(kind: str, code: str) -> tuple[Mapping[str, Any], tuple[str, ...]]:
    decisions, _ = played()
    return next((v, c) for v, k, c in decisions if k == kind and code in c)


def test_the_labels_say_what_each_option_brings() -> None:
    view, _ = first("buccaneer", "bu.raid")
    ship = (
        next(s for s in view["ships"] if s["count"] > 0)
        if any(s["count"] for s in view["ships"])
        else None
    )
    en = PR.words(view, "en", kind="buccaneer")
    es = PR.words(view, "es", kind="buccaneer")
    assert en.label("bu.raid").startswith("Raid: ")
    assert es.label("bu.raid").startswith("Asalto: ")
    capture = next(c for c in first("buccaneer", "bu.raid")[1] if c.startswith("bu.capture."))
    role = capture.removeprefix("bu.capture.").rstrip("2")
    assert en.label(capture).startswith(f"Capture the {PR.catalog.t('en', f'role.{role}')}")
    assert es.label(capture).startswith(f"Capturar el {PR.catalog.t('es', f'role.{role}')}")
    view, codes = first("buccaneer", "bu.plunder")
    n = len(view["trading_house"])
    assert PR.words(view, "en").label("bu.plunder") == (f"Plunder the trading house — +{n} VP")
    assert PR.words(view, "es").label("bu.plunder").startswith("Saqueo de la casa de comercio")
    piracy = next(c for c in codes if c.startswith("bu.piracy.") and c.endswith(".1"))
    index = int(piracy.split(".")[2])
    ship = view["ships"][index]
    assert PR.words(view, "en").label(piracy) == (
        f"Piracy: ship {index + 1} ({ship['count']} {ship['good']}), keep 1"
    )
    assert PR.words(view, "es").label(piracy).startswith(f"Piratería: barco {index + 1} (")


def test_the_captured_card_is_marked_on_the_role_buttons() -> None:
    view = next(
        v for v, k, _ in played()[0] if k == "role" and (v["buccaneer"] or {}).get("captured")
    )
    card = view["buccaneer"]["captured"]
    role = next(r["role"] for r in view["roles"] if r["card"] == card)
    assert PR.words(view, "en").label(f"r.{card}") == (
        f"{PR.catalog.t('en', f'role.{role}')} · captured"
    )
    assert PR.words(view, "es").label(f"r.{card}").endswith(" · capturado")
    assert "3 doubloons" in (PR.words(view, "en").description(f"r.{card}") or "")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_event_makes_a_line(lang: str) -> None:
    _, events = played()
    writer = PrLogWriter(NAMES, lang)
    seen = set()
    for event in events:
        reason = event.data.get("by") or event.data.get("reason")
        if event.type in NEW_EVENTS or reason in ("raid", "festival", "capture", "plunder"):
            line = writer.event_line(event)
            assert line and not LEAK.search(line), (lang, event, line)
            assert lang != "es" or not ENGLISH_IN_SPANISH.search(line), line
            seen.add(event.type)
    assert seen >= NEW_EVENTS


def test_log_lines_in_both_languages() -> None:
    en, es = PrLogWriter(NAMES, "en"), PrLogWriter(NAMES, "es")
    pirated = Event("ShipPirated", 1, {"ship": 0, "good": "corn", "count": 4, "kept": 3})
    assert en.event_line(pirated) == "bob pirated ship 1: 4 corn taken, 3 kept."
    assert es.event_line(pirated) == (
        "bob hizo Piratería en el barco 1: tomó 4 de maíz y se queda 3."
    )
    captured = Event("RoleCaptured", 0, {"role": "mayor", "card": "mayor", "doubloons": 2})
    assert en.event_line(captured) == "alice captured the Mayor card and took 2 doubloons from it."
    assert (
        es.event_line(captured) == "alice capturó el personaje Alcalde y se llevó 2 doblones de él."
    )
    token = Event("BuccaneerTokenTaken", 2, {"from": 0})
    assert en.event_line(token) == "carol takes the Buccaneer token from alice."
    assert es.event_line(token) == "carol le quita la ficha del Bucanero a alice."
    goal = Event(
        "FestivalGoalAchieved", 3, {"goal": "production", "goods": ["indigo", "indigo", "coffee"]}
    )
    assert en.event_line(goal) == (
        "Festival: dave reached the goal “produce indigo, indigo, coffee”."
    )
    assert es.event_line(goal) == "Festival: dave cumplió el objetivo «producir añil, añil, café»."
    raided = Event("ColonistShipRaided", 0, {"removed": 4, "kept": 2})
    assert en.event_line(raided) == (
        "alice raided the colonist ship: 4 colonists taken off, 2 to place at once."
    )
    placed = Event("ColonistGained", 0, {"target": "harbor", "source": "ship", "by": "raid"})
    assert es.event_line(placed) == "alice colocó un colono del asalto en Puerto."
    played_role = Event("CapturedRolePlayed", 0, {"role": "builder", "card": "builder"})
    assert en.event_line(played_role) == "Nobody chose the captured Builder: alice plays it."


def situated(view: Mapping[str, Any], action: str, code: str) -> BaseException:
    return situate(IllegalAction(code, action=action), Situation(7, 0, view, NAMES, (), action))


def test_refusals_say_why() -> None:
    view, _ = first("role", "r.buccaneer")
    refused = situated(view, "r.buccaneer", "role_not_allowed")
    assert describe(refused, PR.catalog, "en")[0] == "why.role_not_allowed"
    assert message_for(refused, "en") == (
        "You hold the Buccaneer token, so you may not choose the Buccaneer now: wait until "
        "another player chooses it and takes the token from you."
    )
    assert "ficha del Bucanero" in message_for(refused, "es")
    asked = {
        **view,
        "prompt": {"seats": [0], "kind": "buccaneer", "forced": False},
        "trading_house": [],
    }
    assert message_for(situated(asked, "bu.plunder", "illegal_now"), "en") == (
        "The trading house is empty: there is nothing to plunder."
    )
    empty = {**asked, "ships": [{"capacity": 4, "good": None, "count": 0}]}
    assert message_for(situated(empty, "bu.piracy.0.0", "illegal_now"), "es") == (
        "El barco 1 está vacío: no hay nada que tomar."
    )
    roles = [{**r, "taken_by": 1} if r["card"] == "mayor" else r for r in view["roles"]]
    taken = {**asked, "roles": roles}
    assert message_for(situated(taken, "bu.capture.mayor", "illegal_now"), "en") == (
        "The Mayor was already chosen this round, by bob: only an unused role card can be captured."
    )
    assert message_for(situated(asked, "bu.capture.buccaneer", "illegal_now"), "en") == (
        "The Buccaneer cannot capture its own card."
    )
    # a kind of decision asked at another moment: when it is taken, and what is asked now
    role_time = {**view, "prompt": {"seats": [0], "kind": "role", "forced": False}}
    text = message_for(situated(role_time, "bu.raid", "wrong_decision"), "en")
    assert "only by the player who just chose the Buccaneer" in text


def test_the_table_text_names_the_modules_the_token_and_the_goals() -> None:
    view, _ = first("role", "r.buccaneer")
    fields = dict(PR.summary(view, NAMES, "en"))
    assert fields["Buccaneer"] in (
        "the token lies on the Buccaneer card",
        *(f"{n} holds the token" for n in NAMES.values()),
    )
    festival = fields["Festival goals"]
    assert festival.count("(open)") + festival.count("(won by ") == 3
    es = dict(PR.summary(view, NAMES, "es"))
    assert "Objetivos del Festival" in es and "Bucanero" in es
    assert PR.header_lines(view, NAMES, "en")[-1] == "Expansions: Buccaneer and Festival"
    classic = GAME.view(GAME.setup({"players": 3}, 1), None)
    assert not any("Expansions" in line for line in PR.header_lines(classic, NAMES, "en"))
    assert "Buccaneer" not in dict(PR.summary(classic, NAMES, "en"))


def actions_of(game_events: list[list[Event]]) -> Iterator[ActionRecord]:
    for seq, events in enumerate(game_events, start=1):
        yield ActionRecord(7, seq, 0, "x", None, AT, tuple(e.to_json() for e in events))


def test_the_story_board_of_a_round_ended_by_the_captured_role() -> None:
    """The captured role the Buccaneer plays after the round's last pick (A33): the board as
    that phase ended shows the card taken by him and still marked captured."""
    view = puerto_rico_view(GAME.view(GAME.setup({"players": 3, "modules": MODULES}, 2), None))
    log = [
        [
            Event("RoleChosen", 1, {"role": "buccaneer", "card": "buccaneer", "doubloons": 0}),
            Event("RoleCaptured", 1, {"role": "mayor", "card": "mayor", "doubloons": 1}),
        ],
        [
            Event("PhaseEnded", 2, {"role": "captain"}),
            Event("CapturedRolePlayed", 1, {"role": "mayor", "card": "mayor"}),
        ],
        [
            Event("PhaseEnded", 1, {"role": "mayor"}),
            Event("RoundEnded", 0, {"round": 1, "doubloons_on": []}),
            Event("GovernorPassed", 1, {"round": 2}),
        ],
    ]
    actions = list(actions_of(log))
    at_end = view_at_phase_end(view, actions, 2)
    assert next(r for r in at_end["roles"] if r["card"] == "mayor")["taken_by"] == 1
    part = at_end["buccaneer"]
    assert part is not None and part["captured"] == "mayor" and part["captured_by"] == 1
    taken = view.copy()
    taken["roles"] = [{**r, "taken_by": 1 if r["card"] == "mayor" else r["taken_by"]}
                      for r in view["roles"]]
    before = view_at_phase_end(taken, actions, 1)
    assert next(r for r in before["roles"] if r["card"] == "mayor")["taken_by"] is None
    assert before["phase"] == "captain" and before["chooser"] == 2
