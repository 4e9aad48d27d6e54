"""The game log in words (bot/gamelog.py): every public event has a line in every language, VP
only as a shipment's amount; the phase of the highlights and the phase ends."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.gamelog import phase_ends, phase_events, views_after
from bot.games.puerto_rico.gamelog import PrLogWriter as LogWriter
from bot.i18n import LANGUAGES
from engine import get_game
from engine.policies import make_policy
from storage import ActionRecord

GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)


def whole_game(players: int = 4, seed: int = 3) -> list[ActionRecord]:
    state = GAME.setup({"players": players}, seed)
    policy = make_policy("heuristic", "puerto-rico", seed)
    out: list[ActionRecord] = []
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        out.append(ActionRecord(1, len(out) + 1, seat, GAME.encode_action(action),
                                100 + seat if seat < 2 else None, AT,
                                tuple(e.to_json() for e in events)))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_public_event_is_a_line_and_vp_chips_never(lang: str) -> None:
    log = whole_game()
    writer = LogWriter({0: "Ana", 1: "Bo", 2: "Cy", 3: "Di"}, lang, humans=(0, 1))
    lines = writer.lines(log)
    assert len(lines) > len(log) // 2
    assert not [line for line in lines if "{" in line or "}" in line]
    seen = {e["type"] for a in log for e in a.events}
    assert "VpEarned" in seen
    for action in log:
        for event in action.events:
            if event["type"] in ("VpEarned", "PhaseEnded", "ColonistsDistributed"):
                continue
            assert writer.lines([ActionRecord(1, 1, action.seat, action.code, 5, AT,
                                              (event,))]), event["type"]
    # VP appear only as a shipment's public amount, "(+4 VP)"
    # (tests/bot/puerto_rico/test_log_ship_vp.py)
    counted_vp = re.compile(r"\d\s*(VP|PV)\b|\b(VP|PV)\s*\d")
    load_vp = re.compile(r" \(\+\d+ (VP|PV)\)\.$")
    assert not [line for line in lines if counted_vp.search(load_vp.sub("", line))]


def test_forced_moves_of_people_are_marked_automatic() -> None:
    writer = LogWriter({0: "Ana", 1: "Bo"}, "en", humans=(0, 1))
    passed = ({"type": "Passed", "seat": 1, "data": {"phase": "builder"}},)
    assert writer.lines([ActionRecord(1, 1, 1, "pass", None, AT, passed)]) == [
        "Bo passed. (automatic)"]
    assert writer.lines([ActionRecord(1, 1, 1, "pass", 7, AT, passed)]) == ["Bo passed."]


def test_the_phase_of_the_highlights_and_the_phase_ends() -> None:
    log = whole_game(3, 4)
    ends = phase_ends(log)
    assert len(ends) == sum(e["type"] == "PhaseEnded" for a in log for e in a.events)
    first = ends[0]
    events = phase_events(log, first)
    assert events[0].type == "RoleChosen" and events[-1].type == "PhaseEnded"
    # a VpEarned reaches the public as its amount and reason only, never a total (ruling in
    # engine/puerto_rico/ops.py gain_vp)
    assert all(set(e.data) == {"amount", "reason"} for e in phase_events(log)
               if e.type == "VpEarned")
    [view] = views_after(GAME, {"players": 3}, 4, log, [first])
    assert view["viewer"] is None and view["phase"] == "role_selection"
    assert all(p["vp"] is None for p in view["players"])


def test_plantations_take_the_right_article() -> None:
    """Issue #9: "took a indigo plantation" read wrong; the article comes with the words."""
    from engine.core import Event

    log = LogWriter({0: "alice"}, "en")
    taken = Event("PlantationTaken", 0, {"tile": "indigo", "source": "face_up"})
    assert log.event_line(taken) == "alice took an indigo plantation."
    corn = Event("PlantationTaken", 0, {"tile": "corn", "source": "hacienda"})
    assert log.event_line(corn) == "alice drew a corn plantation with the Hacienda."
    assert LogWriter({0: "ana"}, "es").event_line(taken) == "ana tomó una plantación de añil."
