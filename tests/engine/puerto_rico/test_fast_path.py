"""The simulation path's memo of legal actions (``State.legal_memo``, ``legality.legal_fast``).

``apply_unchecked`` keeps the list of the next decision when it computes it on its way (and
the Mayor's list of places from one colonist to the next); ``legal_fast`` gives it back.  At
every decision of random games, in every option set of both editions, that list must be the
one ``legal`` computes from scratch on a copy (which holds no memo), for the seat asked and
for every other seat, whether the action applied is the list's own object or an equal one,
and the games must end where the validating path ends them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game, replay
from engine.puerto_rico import legality
from engine.puerto_rico.actions import Action
from engine.simulate import canonical_json

GAMES = ("puerto-rico", "puerto-rico-1897")
CASES = [
    pytest.param(name, options, id=f"{name}-{i}")
    for name in GAMES
    for i, options in enumerate(get_game(name).option_sets())
]


def codes(actions: list[Any]) -> list[str]:
    return [a.code for a in actions]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_the_memo_is_what_legal_computes(name: str, options: dict[str, Any]) -> None:
    game: Any = get_game(name)
    opts = game.normalize_options(options)
    for seed in (3, 4, 5, 6):
        state = game.setup(opts, seed)
        rng = random.Random(seed)
        log: list[tuple[int, str]] = []
        remembered = 0
        while (seat := game.actor(state)) >= 0:
            remembered += state.legal_memo is not None and state.legal_memo[0] == seat
            fresh = state.clone()
            assert fresh.legal_memo is None
            choices = game.legal_fast(state, seat)
            assert codes(choices) == codes(legality.legal(fresh, seat)), (seed, len(log))
            if rng.random() < 0.2:  # another seat asked first: its list, and no other
                other = rng.randrange(state.n)
                got = codes(game.legal_fast(state, other))
                assert got == codes(legality.legal(fresh, other))
            action = choices[rng.randrange(len(choices))]
            log.append((seat, game.encode_action(action)))
            if rng.random() < 0.3:  # an equal action, not the list's object (another process's)
                action = Action(action.kind, action.code, action.a, action.b, action.keep)
            game.apply_fast(state, seat, action)
        # the memo served decisions (not only recomputed lists), but where a module checks
        # the positions after every action (1897's Achievements: ``action_done`` clears it)
        assert remembered > 0 or state.rs.action_done
        checked, _ = replay(name, opts, seed, log)
        assert canonical_json(game.dump(checked)) == canonical_json(game.dump(state))


def test_only_the_simulation_path_reads_the_memo() -> None:
    """``legal`` and ``legal_actions`` always compute: a state changed by hand (a test's
    scenario) is answered as it stands.  The checked ``apply`` leaves its input as it was and
    returns a state whose memo is true; a copy holds none."""
    game: Any = get_game("puerto-rico")
    state = game.setup(game.normalize_options({"players": 3}), 5)
    seat = game.actor(state)
    assert state.legal_memo is not None and state.legal_memo[0] == seat  # the roles left
    first = state.legal_memo[1][0]
    kept = game.dump(state)
    new, _ = game.apply(state, seat, first)
    assert game.dump(state) == kept and state.legal_memo[1][0] is first
    assert new.legal_memo is not None
    assert codes(new.legal_memo[1]) == codes(legality.legal(new.clone(), new.legal_memo[0]))
    assert state.clone().legal_memo is None
    state.card_taken[state.rs.card_of[first.code]] = (seat + 1) % 3  # by hand: now taken
    assert first not in legality.legal(state, seat)
    assert first not in game.legal_actions(state, seat)
