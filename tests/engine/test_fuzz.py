"""Fuzzing (ARCHITECTURE.md, testing layer 4): arbitrary action codes and corrupted saves raise
only the documented errors, and action codes round-trip.

The generic properties walk the registry (every game, positions from random games of each of
its option sets); the Puerto Rico specific ones follow.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import game_names, get_game
from engine.core import (
    CorruptState,
    EngineError,
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
)
from engine.policies import make_policy
from engine.puerto_rico.actions import all_simple_codes, decode, keep_action


def _positions(name: str, count: int, seed: int) -> list[Any]:
    """Positions from a random game of ``name`` (option set ``seed`` mod their number), every
    few actions."""
    game = get_game(name)
    rng = random.Random(seed)
    sets = game.option_sets()
    options = game.normalize_options(sets[seed % len(sets)])
    players = options["players"]
    state = game.setup(options, seed)
    policies = [make_policy("random", name, seed * 10 + s) for s in range(players)]
    out = [state]
    while len(out) < count:
        prompt = game.prompt(state)
        if prompt is None:
            break
        seat = prompt.seats[0]
        state, _ = game.apply(
            state, seat, policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        )
        if rng.random() < 0.2:
            out.append(state)
    return out


POSITIONS = {
    name: [s for seed in range(8) for s in _positions(name, 12, seed)] for name in game_names()
}


def _codes(name: str) -> list[str]:
    """Legal codes seen in the positions (any seat): well-formed codes of that game."""
    game = get_game(name)
    out: set[str] = set()
    for state in POSITIONS[name]:
        prompt = game.prompt(state)
        for seat in prompt.seats if prompt is not None else ():
            out.update(game.encode_action(a) for a in list(game.legal_actions(state, seat))[:40])
    return sorted(out)


CODES = {name: _codes(name) for name in game_names()}
CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._+-=:,*@ "


@pytest.mark.parametrize("name", game_names())
@given(code=st.text(alphabet=CODE_ALPHABET, max_size=40) | st.text(max_size=20))
@settings(max_examples=400)
def test_any_game_decodes_any_text_to_its_code_or_invalid_action(name: str, code: str) -> None:
    """decode(code) is either an action whose code is exactly ``code``, or InvalidAction."""
    game = get_game(name)
    try:
        action = game.decode_action(code)
    except InvalidAction as exc:
        assert exc.code == "unknown_action"
        return
    assert game.encode_action(action) == code
    assert game.decode_action(game.encode_action(action)) == action


@pytest.mark.parametrize("name", game_names())
@given(data=st.data())
@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
def test_any_game_applies_arbitrary_codes_with_documented_errors_only(
    name: str, data: st.DataObject
) -> None:
    """At any position, any seat and any code (a code legal somewhere, a mutated one, noise):
    success exactly when the code is legal there, else one of the documented errors; the input
    state is never changed."""
    game = get_game(name)
    state = data.draw(st.sampled_from(POSITIONS[name]))
    seat = data.draw(st.integers(min_value=-2, max_value=6))
    known = st.sampled_from(CODES[name])
    code = data.draw(
        known
        | known.map(lambda c: c[:-1])
        | known.map(lambda c: c + ",indigo")
        | st.text(alphabet=CODE_ALPHABET, max_size=25)
    )
    before = json.dumps(game.dump(state), sort_keys=True)
    try:
        new, events = game.apply(state, seat, game.decode_action(code))
    except (InvalidAction, IllegalAction, NotYourTurn, GameOver) as exc:
        assert exc.code
        if isinstance(exc, IllegalAction):
            assert code not in [game.encode_action(a) for a in game.legal_actions(state, seat)]
    else:
        assert code in [game.encode_action(a) for a in game.legal_actions(state, seat)]
        assert isinstance(events, list)
        assert new is not state
    assert json.dumps(game.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("name", game_names())
@given(data=st.data())
@settings(max_examples=500)
def test_any_game_loads_corrupted_saves_or_raises_corrupt_state(
    name: str, data: st.DataObject
) -> None:
    """A corrupted dump either loads into a consistent, playable state or raises CorruptState."""
    game = get_game(name)
    state = data.draw(st.sampled_from(POSITIONS[name]))
    rng = random.Random(data.draw(st.integers(min_value=0, max_value=10**6)))
    broken = _corrupt(json.loads(json.dumps(game.dump(state))), rng)
    try:
        loaded = game.load(broken)
    except CorruptState as exc:
        assert exc.code
        return
    invariants = getattr(game, "invariants", None)
    if invariants is not None:
        assert invariants(loaded) == []
    prompt = game.prompt(loaded)
    if prompt is not None:
        for seat in prompt.seats:
            for action in list(game.legal_actions(loaded, seat))[:50]:
                try:
                    game.apply(loaded, seat, action)
                except EngineError:  # pragma: no cover - would be a bug
                    raise AssertionError("a legal action of a loaded state failed") from None


@pytest.mark.parametrize("name", game_names())
def test_any_game_refuses_what_is_not_a_dump(name: str) -> None:
    game = get_game(name)
    bad: Any
    for bad in (None, [], "state", 3, {"format": 99}, {}):
        with pytest.raises(CorruptState):
            game.load(bad)


@pytest.mark.parametrize("name", game_names())
def test_any_game_round_trips_every_legal_code(name: str) -> None:
    """Every legal action's code decodes back to it and is short enough for a custom id."""
    game = get_game(name)
    for code in CODES[name]:
        assert game.encode_action(game.decode_action(code)) == code
        assert len(code) < 90


# --- Puerto Rico -------------------------------------------------------------------------------


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
