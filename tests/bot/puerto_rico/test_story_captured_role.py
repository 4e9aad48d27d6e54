"""The story of the role the Buccaneer captured and plays himself at the end of the round
(Exp. 3, rules spec §12 Capture): its phase opens with ``CapturedRolePlayed``, not a role
choice, so its post tells that phase's lines only, never the phase before it again."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.changes import PhaseEnd
from bot.gamelog import (
    phase_actions,
    phase_end_points,
    phase_ends,
    phase_events,
    phase_start,
)
from bot.games import presenter_for
from bot.posting import round_phases
from engine import get_game
from engine.policies import make_policy
from storage import ActionRecord

GAME = get_game("puerto-rico")
PR = presenter_for("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)


def captured_game() -> list[ActionRecord]:
    """The log of a seeded Buccaneer game up to the end of a captured role's phase."""
    for seed in range(200):
        state = GAME.setup({"players": 3, "modules": ["buccaneer"]}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        log: list[ActionRecord] = []
        played = False
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, events = GAME.apply(state, seat, action)
            log.append(ActionRecord(1, len(log) + 1, seat, GAME.encode_action(action), None, AT,
                                    tuple(e.to_json() for e in events)))
            for event in events:  # the first phase end after the captured role is played
                played = played or event.type == "CapturedRolePlayed"
                if played and event.type == "PhaseEnded":
                    return log
    raise AssertionError("no captured role played in 200 games")


def types(action: ActionRecord) -> set[Any]:
    return {e.get("type") for e in action.events}


def event_types(actions: list[ActionRecord]) -> list[Any]:
    return [e.get("type") for a in actions for e in a.events]


def test_a_captured_role_phase_is_told_from_where_it_is_played() -> None:
    """The captured role's phase begins in the action of the round's last pick: its story
    starts at ``CapturedRolePlayed``, without the pick's own phase (told in its own post)."""
    log = captured_game()
    end = len(log) - 1
    opened = max(i for i, a in enumerate(log) if "CapturedRolePlayed" in types(a))
    assert phase_start(log, end, PR.phase_openers) == opened
    told = event_types(phase_actions(log, end, ended=True, openers=PR.phase_openers))
    assert told[0] == "CapturedRolePlayed" and "RoleChosen" not in told
    assert told.count("PhaseEnded") == 1  # its own phase only
    highlights = phase_events(log, end, to_phase_end=True, openers=PR.phase_openers)
    assert highlights[0].type == "CapturedRolePlayed"
    assert sum(e.type == "PhaseEnded" for e in highlights) == 1


def test_the_last_picks_phase_stops_where_the_captured_role_opens() -> None:
    """The phase of the round's last pick ends in the same action: its story stops at its
    end, before the captured role is played (unless that phase ends there too)."""
    log = captured_game()
    opened = max(i for i, a in enumerate(log) if "CapturedRolePlayed" in types(a))
    assert opened < len(log) - 1  # the seeded game's captured phase goes on after that action
    told = event_types(phase_actions(log, opened, ended=True, openers=PR.phase_openers))
    assert told[-1] == "PhaseEnded" and told.count("RoleChosen") == 1
    assert "CapturedRolePlayed" not in told


def test_the_rounds_phases_each_begin_at_their_own_opener() -> None:
    log = captured_game()
    ends = phase_ends(log)
    last = PhaseEnd(log[ends[-1]].seq, "", None, 1, {}, (), None, None)
    phases, _ = round_phases(log, last, PR.phase_openers)
    starts = [p.chosen for p in phases[:-1]]
    assert all(seq is not None for seq in starts)


def double_end() -> tuple[list[ActionRecord], int, Mapping[str, Any]]:
    """A seeded Buccaneer game's log up to an action that ended two phases (the round's last
    pick's, then the captured role's, played at once), that action's index and the public view
    after it."""
    for seed in range(300):
        state = GAME.setup({"players": 4, "modules": ["buccaneer"]}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        log: list[ActionRecord] = []
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, events = GAME.apply(state, seat, action)
            log.append(ActionRecord(1, len(log) + 1, seat, GAME.encode_action(action), None, AT,
                                    tuple(e.to_json() for e in events)))
            if sum(e.type == "PhaseEnded" for e in events) == 2:
                return log, len(log) - 1, GAME.view(state, None)
    raise AssertionError("no action ended two phases in 300 games")


def test_an_action_ending_two_phases_tells_each() -> None:
    """One story entry, board and lines per phase even when one action ended two: the last
    pick's phase up to its end, the captured role's from where it is played."""
    log, index, view = double_end()
    points = phase_end_points(log)
    assert points[-2:] == [(index, 0), (index, 1)]
    first = event_types(phase_actions(log, index, ended=True, part=0, openers=PR.phase_openers))
    second = event_types(phase_actions(log, index, ended=True, part=1, openers=PR.phase_openers))
    assert first.count("PhaseEnded") == 1 and "CapturedRolePlayed" not in first
    assert second[0] == "CapturedRolePlayed" and second.count("PhaseEnded") == 1
    ended = [e for e in log[index].events if e["type"] == "PhaseEnded"]
    card = next(e for e in log[index].events if e["type"] == "CapturedRolePlayed")["data"]["card"]
    before = PR.view_at_phase_end(view, log, index, 0)
    after = PR.view_at_phase_end(view, log, index, 1)
    assert before["active_role"] == ended[0]["data"]["role"]
    assert after["active_role"] == ended[1]["data"]["role"]
    taken = {r["card"]: r["taken_by"] for r in before["roles"]}
    assert taken[card] is None  # not played yet when the first phase ended
    assert {r["card"]: r["taken_by"] for r in after["roles"]}[card] is not None
