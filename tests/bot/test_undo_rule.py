"""The undo rule (bot/undo.py): a player takes back their own last decision, with the automatic
moves it caused, while no other person decided since and nothing hidden or random came out."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.errors import UserError
from bot.undo import may_undo, plan_undo
from engine import get_game
from storage import ActionRecord

GAME = get_game("puerto-rico")
OPTIONS = {"players": 3}
SEED = 1
ALICE, BOB = 100, 200
AT = datetime(2026, 1, 1, tzinfo=UTC)


def logged(moves: list[tuple[int, str, int | None]]) -> list[ActionRecord]:
    """A log from (seat, code, user) moves, checked by the engine as it goes."""
    state = GAME.setup(OPTIONS, SEED)
    out = []
    for seq, (seat, code, user) in enumerate(moves, start=1):
        state, events = GAME.apply(state, seat, GAME.decode_action(code))
        out.append(ActionRecord(1, seq, seat, code, user, AT, tuple(e.to_json() for e in events)))
    return out


def plan(log: list[ActionRecord], user: int) -> Any:
    return plan_undo(GAME, OPTIONS, SEED, log, user, game_id=1)


def test_own_last_decision_is_taken_back() -> None:
    """Alice built and nobody moved since: her build is taken back."""
    log = logged([(0, "r.builder", ALICE), (0, "b.small_market", ALICE)])
    result = plan(log, ALICE)
    assert result.count == 1 and result.decision.code == "b.small_market"
    assert may_undo(log, ALICE) and not may_undo(log, BOB)


def test_refused_once_an_ai_seat_replied() -> None:
    """Alice built; the AI seat (no user) built after her.  An AI seat is a player: seeing its
    reply and then taking the build back would be peeking, so it is refused."""
    log = logged(
        [(0, "r.builder", ALICE), (0, "b.small_market", ALICE), (1, "b.small_indigo_plant", None)]
    )
    with pytest.raises(UserError) as refused:
        plan(log, ALICE)
    assert refused.value.key == "err.undo_others"
    assert not may_undo(log, ALICE)


def test_own_forced_moves_are_taken_back_with_the_decision() -> None:
    """A forced move of the same seat, played automatically right after the decision, goes
    back with it (found by playing a seeded game until a seat's decision is followed by a
    forced move of its own that reveals nothing)."""
    state = GAME.setup(OPTIONS, SEED)
    moves: list[tuple[int, str, int | None]] = []
    users = {0: ALICE, 1: BOB, 2: 300}
    for step in range(3000):
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        legal = GAME.legal_actions(state, seat)
        action = legal[(step * 7) % len(legal)]
        forced = prompt.forced
        after, _ = GAME.apply(state, seat, action)
        moves.append((seat, action.code, None if forced else users[seat]))
        if (
            forced
            and len(moves) > 1
            and moves[-2][0] == seat
            and moves[-2][2] is not None
            and not GAME.reveals(state, after)
        ):
            break
        state = after
    else:
        pytest.fail("no forced follow-up found")
    log = logged(moves)
    user = moves[-2][2]
    assert user is not None
    try:
        result = plan(log, user)
    except UserError as refused:  # the decision itself revealed something: also a valid refusal
        assert refused.key == "err.undo_revealed"
        return
    assert result.count == 2 and result.decision.code == moves[-2][1]


def test_stepping_back_decision_by_decision() -> None:
    """After her build is taken back, the role choice before it is her last decision."""
    log = logged([(0, "r.builder", ALICE)])
    result = plan(log, ALICE)
    assert result.count == 1 and result.decision.code == "r.builder"


def test_refused_when_another_person_decided_since() -> None:
    log = logged(
        [(0, "r.builder", ALICE), (0, "b.small_market", ALICE), (1, "b.small_indigo_plant", BOB)]
    )
    with pytest.raises(UserError) as refused:
        plan(log, ALICE)
    assert refused.value.key == "err.undo_others"
    assert plan(log, BOB).count == 1


def test_refused_when_something_random_was_revealed() -> None:
    """The last settler's choice ends the phase, which turns new plantations face up: the
    last settler (seat 2) may not take it back."""
    carol = 300
    state = GAME.setup(OPTIONS, SEED)
    moves: list[tuple[int, str, int | None]] = [(0, "r.settler", ALICE)]
    state, _ = GAME.apply(state, 0, GAME.decode_action("r.settler"))
    for seat, user in ((0, ALICE), (1, BOB), (2, carol)):
        code = GAME.encode_action(GAME.legal_actions(state, seat)[0])
        moves.append((seat, code, user))
        state, _ = GAME.apply(state, seat, GAME.decode_action(code))
    log = logged(moves)
    with pytest.raises(UserError) as refused:
        plan(log, carol)
    assert refused.value.key == "err.undo_revealed"


def test_nothing_to_take_back() -> None:
    with pytest.raises(UserError) as refused:
        plan([], ALICE)
    assert refused.value.key == "err.undo_nothing"
    log = logged([(0, "r.builder", ALICE)])
    with pytest.raises(UserError) as refused:
        plan(log, BOB)
    assert refused.value.key == "err.undo_nothing"
