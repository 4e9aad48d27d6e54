"""Fuzzing (ARCHITECTURE.md, testing layer 4): arbitrary action codes and corrupted saves raise
only the documented errors, and action codes round-trip."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.core import (
    CorruptState,
    EngineError,
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
)
from engine.policies import make_policy
from engine.puerto_rico import invariant_failures
from engine.puerto_rico.actions import all_simple_codes, decode, keep_action
from engine.puerto_rico.state import State

GAME = get_game("puerto-rico")


def _states(count: int, seed: int) -> list[State]:
    """Positions from a random game, every few actions."""
    rng = random.Random(seed)
    players = 2 + seed % 4
    state: State = GAME.setup({"players": players}, seed)
    policies = [make_policy("random", "puerto-rico", seed * 10 + s) for s in range(players)]
    out = [state]
    while len(out) < count:
        prompt = GAME.prompt(state)
        if prompt is None:
            break
        seat = prompt.seats[0]
        state, _ = GAME.apply(
            state, seat, policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        )
        if rng.random() < 0.2:
            out.append(state)
    return out


STATES = [s for seed in range(8) for s in _states(12, seed)]
CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._+-=: "


@given(st.text(alphabet=CODE_ALPHABET, max_size=40) | st.text(max_size=20))
@settings(max_examples=600)
def test_decoding_any_text_round_trips_or_raises_invalid_action(code: str) -> None:
    """decode(code) is either an action whose code is exactly ``code``, or InvalidAction."""
    try:
        action = decode(code)
    except InvalidAction as exc:
        assert exc.code == "unknown_action"
        return
    assert action.code == code
    assert decode(action.code) == action


def test_every_code_round_trips_and_fits_a_custom_id() -> None:
    """All fixed codes and many keep codes round-trip and are well under 60 characters."""
    codes = all_simple_codes()
    keeps = [
        keep_action((a, b, c, 0, e)).code
        for a in range(3)
        for b in range(12)
        for c in range(3)
        for e in (0, 11)
    ]
    for code in codes + keeps:
        assert decode(code).code == code
        assert len(code) < 40


@given(
    st.sampled_from(range(len(STATES))),
    st.integers(min_value=-2, max_value=6),
    st.one_of(st.sampled_from(all_simple_codes()), st.text(alphabet=CODE_ALPHABET, max_size=25)),
)
@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
def test_applying_arbitrary_codes_raises_only_documented_errors(
    index: int, seat: int, code: str
) -> None:
    """At any position, any seat and any code: success, or one of the documented errors, and
    the input state is never changed."""
    state = STATES[index]
    before = json.dumps(GAME.dump(state), sort_keys=True)
    try:
        new, events = GAME.apply(state, seat, GAME.decode_action(code))
    except (InvalidAction, IllegalAction, NotYourTurn, GameOver) as exc:
        assert exc.code
    else:
        assert code in [a.code for a in GAME.legal_actions(state, seat)]
        assert isinstance(events, list)
        assert new is not state
    assert json.dumps(GAME.dump(state), sort_keys=True) == before


def _corrupt(data: Any, rng: random.Random) -> Any:
    """One random structural or value change somewhere in a dump."""
    if isinstance(data, dict) and data:
        key = rng.choice(sorted(data))
        choice = rng.random()
        out = dict(data)
        if choice < 0.2:
            del out[key]
        elif choice < 0.7:
            out[key] = _corrupt(out[key], rng)
        else:
            out[key] = rng.choice([None, "x", -1, 10**9, [], {}, 3.5, True])
        return out
    if isinstance(data, list) and data:
        out_list = list(data)
        i = rng.randrange(len(out_list))
        if rng.random() < 0.3:
            del out_list[i]
        else:
            out_list[i] = _corrupt(out_list[i], rng)
        return out_list
    if isinstance(data, bool):
        return not data
    if isinstance(data, int):
        return data + rng.choice([-3, -1, 1, 2, 50])
    return rng.choice([None, 0, "corn", [], {"a": 1}])


@given(st.sampled_from(range(len(STATES))), st.integers(min_value=0, max_value=10**6))
@settings(max_examples=800)
def test_corrupted_saves_raise_only_corrupt_state(index: int, seed: int) -> None:
    """A corrupted dump either loads into a consistent state or raises CorruptState."""
    rng = random.Random(seed)
    data = GAME.dump(STATES[index])
    broken = _corrupt(json.loads(json.dumps(data)), rng)
    try:
        state = GAME.load(broken)
    except CorruptState as exc:
        assert exc.code
        return
    # a change that left a consistent position (e.g. another generator state): still playable
    assert invariant_failures(state) == []
    prompt = GAME.prompt(state)
    if prompt is not None:
        for seat in prompt.seats:
            for action in GAME.legal_actions(state, seat):
                try:
                    GAME.apply(state, seat, action)
                except EngineError:  # pragma: no cover - would be a bug
                    raise AssertionError("a legal action of a loaded state failed") from None


def test_not_a_dump_at_all() -> None:
    bad: Any
    for bad in (None, [], "state", 3, {"format": 99}, {}):
        try:
            GAME.load(bad)
        except CorruptState:
            continue
        raise AssertionError(f"{bad!r} loaded")
