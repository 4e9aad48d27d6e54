"""Issue #9: the log says what happened: where colonists were placed, who could do nothing in a
phase (the engine skips them silently), and never more than the public events carry (a seat's
VP total is face down; a shipment's VP show only where the event has its public form)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games.puerto_rico.gamelog import PrLogWriter as LogWriter
from bot.i18n import LANGUAGES
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from storage import ActionRecord

GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = {0: "alice", 1: "bob", 2: "carol"}


def record(seq: int, seat: int, *events: Event) -> ActionRecord:
    return ActionRecord(1, seq, seat, "x", 100 + seat, AT, tuple(e.to_json() for e in events))


def ev(kind: str, seat: int | None, **data: Any) -> Event:
    return Event(kind, seat, data)


def test_the_mayors_arrangement_in_words() -> None:
    arranged = ev("ColonistsArranged", 0, tiles={"corn": 2, "indigo": 0, "quarry": 1},
                  buildings={"small_market": 1, "hacienda": 0}, san_juan=1)
    assert LogWriter(NAMES, "en").lines([record(1, 0, arranged)]) == [
        "alice arranged their colonists: 2 on corn, 1 on quarry, 1 on the Small market, "
        "1 left in San Juan."]
    assert LogWriter(NAMES, "es").lines([record(1, 0, arranged)]) == [
        "alice colocó sus colonos: 2 en maíz, 1 en cantera, 1 en Mercado pequeño, "
        "1 en San Juan."]


def test_the_nobles_among_the_arrangement_in_words() -> None:
    """Exp. 2: the pieces of a place name the nobles among them (the engine's ``nobles``)."""
    arranged = ev("ColonistsArranged", 0, tiles={"corn": 2}, buildings={"chapel": 1},
                  san_juan=2, nobles={"chapel": 1, "san_juan": 2})
    assert LogWriter(NAMES, "en").lines([record(1, 0, arranged)]) == [
        "alice arranged their colonists and nobles: 2 on corn, 1 on the Chapel (1 noble), "
        "2 left in San Juan (2 nobles)."]
    assert LogWriter(NAMES, "es").lines([record(1, 0, arranged)]) == [
        "alice colocó sus colonos y nobles: 2 en maíz, 1 en Capilla (1 noble), "
        "2 en San Juan (2 nobles)."]


def test_the_engine_names_the_nobles_of_an_arrangement() -> None:
    """The event of an arrangement with nobles carries them by place; without the module it
    carries none (the events of classic games are unchanged)."""
    from engine.puerto_rico.phases import arrangement

    assert "nobles" not in arrangement(GAME.setup({"players": 3}, 1).players[0])
    player = GAME.setup({"players": 3, "modules": ["nobles"]}, 1).players[0]
    assert "nobles" not in arrangement(player)  # no noble yet
    player.nobles[-1] = 1
    player.san_juan += 1
    assert arrangement(player)["nobles"] == {"san_juan": 1}


def test_who_could_not_act_in_a_phase() -> None:
    trader = [record(1, 0, ev("RoleChosen", 0, role="trader", card="trader", doubloons=0)),
              record(2, 0, ev("GoodSold", 0, good="indigo", price=2)),
              record(3, 1, ev("Passed", 1, phase="trader"), ev("PhaseEnded", 0, role="trader"))]
    lines = LogWriter(NAMES, "en").lines(trader)
    assert lines[-1] == "carol could not sell anything."
    assert LogWriter(NAMES, "es").lines(trader)[-1] == "Sin nada que vender: carol."
    captain = [record(1, 2, ev("RoleChosen", 2, role="captain", card="captain", doubloons=0),
                      ev("PhaseEnded", 2, role="captain"))]
    assert LogWriter(NAMES, "en").lines(captain)[-1] == "Nobody could load anything."
    builder = [record(1, 2, ev("RoleChosen", 2, role="builder", card="builder", doubloons=0)),
               record(2, 2, ev("BuildingBuilt", 2, building="harbor", price=7),
                      ev("PhaseEnded", 2, role="builder"))]
    assert LogWriter(NAMES, "en").lines(builder)[-1] == (
        "alice and bob could not build anything.")
    # a phase whose start is not in the lines read says nothing about who acted
    assert LogWriter(NAMES, "en").lines(builder[1:])[-1] == (
        "carol built the Harbor for 7 doubloons.")


def test_a_shipment_shows_no_vp_the_public_cannot_see() -> None:
    shipped = record(1, 0, ev("GoodsShipped", 0, good="corn", count=3, ship=0),
                     Event("VpEarned", 0, {"amount": 4, "reason": "ship"}, 0, None))
    assert LogWriter(NAMES, "en").lines([shipped]) == ["alice shipped 3 corn on ship 1."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_says_who_could_not_act(lang: str) -> None:
    """In real games: every skipped seat of a Builder/Trader/Captain phase is named once."""
    state = GAME.setup({"players": 3}, 9)
    policy = make_policy("heuristic", "puerto-rico", 9)
    log: list[ActionRecord] = []
    skipped = 0
    acted: set[int] = set()
    role = ""
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        for event in events:
            if event.type == "RoleChosen":
                role, acted = str(event.data["role"]), set()
            elif event.type in ("PlantationTaken", "QuarryTaken", "BuildingBuilt", "GoodSold",
                                "GoodsShipped", "Passed"):
                acted.add(int(event.seat or 0))
            elif event.type == "PhaseEnded" and role in ("settler", "builder", "trader",
                                                         "captain"):
                skipped += 3 - len(acted)
        log.append(ActionRecord(1, len(log) + 1, seat, GAME.encode_action(action), None, AT,
                                tuple(e.to_json() for e in events)))
    lines = LogWriter(NAMES, lang).lines(log)
    said = [line for line in lines if any(word in line for word in (
        "could not", "Nobody could", "Sin ", "Nadie pudo", "Sem ", "Ninguém pôde"))]
    named = sum(line.count("alice") + line.count("bob") + line.count("carol") or 3
                for line in said)
    assert skipped > 0 and named == skipped
