"""The story of the role the Buccaneer captured and plays himself at the end of the round
(Exp. 3, rules spec §12 Capture): its phase opens with ``CapturedRolePlayed``, not a role
choice, so its post tells that phase's lines only, never the phase before it again."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.gamelog import phase_actions, phase_ends, phase_events, phase_start
from bot.games import presenter_for
from bot.posting import round_phases
from bot.service import PhaseEnd
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
