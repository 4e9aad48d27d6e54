"""Every game's view is what its type says (issue #34): the ``TypedDict`` that a game's ``view``
declares, which mypy checks the renderer's and the bot's readers with, matches what the engine
returns, for the public view and each seat's, over random playouts of every option set."""

from __future__ import annotations

import typing
from typing import Any

import pytest

from engine import get_game
from engine.policies import make_policy

from .view_types import check_view, keys_of, mismatches, view_type

TYPED = ("san-juan", "puerto-rico")
"""The games whose view has its type (each game's engine declares it)."""
EVERY = 3
"""Views are checked every few steps (and at the end): a step rarely changes their shape."""


def played(name: str, options: dict[str, Any], seed: int) -> typing.Iterator[tuple[int, Any]]:
    """(step, state) along a random game, every :data:`EVERY` steps and the last one."""
    game = get_game(name)
    state = game.setup(options, seed)
    policy = make_policy("random", name, seed)
    step = 0
    while (prompt := game.prompt(state)) is not None:
        if step % EVERY == 0:
            yield step, state
        seat = prompt.seats[0]
        state, _ = game.apply(state, seat, policy.choose(game, state, seat,
                                                         game.legal_actions(state, seat)))
        step += 1
    yield step, state


@pytest.mark.slow
@pytest.mark.parametrize("name", TYPED)
def test_every_view_of_random_games_has_its_type(name: str) -> None:
    """The public view and every seat's, along a random game of each option set: every key its
    type requires, no other, each value of its type; a seat's view adds the same keys to the
    public one at every step (its private part)."""
    game = get_game(name)
    hint = view_type(game)
    assert typing.is_typeddict(hint), f"{name}'s view returns {hint!r}, not a TypedDict"
    for k, options in enumerate(game.option_sets()):
        private: set[str] | None = None
        for step, state in played(name, options, 100 + k):
            public = game.view(state, None)
            check_view(public, hint, f"{options} step {step}, public")
            for seat in range(game.players(state)):
                own = game.view(state, seat)
                check_view(own, hint, f"{options} step {step}, seat {seat}")
                assert public.keys() <= own.keys()
                extra = own.keys() - public.keys()
                private = extra if private is None else private
                assert extra == private, (options, step, seat)


@pytest.mark.parametrize("name", TYPED)
def test_the_check_sees_a_view_drift(name: str) -> None:
    """A key missing, a key the type does not declare, and a value of another type are each
    reported (an ``int`` given a ``bool``, which JSON tells apart)."""
    game = get_game(name)
    hint = view_type(game)
    view = dict(game.view(game.setup(game.option_sets()[0], 1), None))
    assert mismatches(view, hint) == []
    declared, required = keys_of(hint)
    key = sorted(required)[0]
    assert mismatches({k: v for k, v in view.items() if k != key}, hint) == [
        f"view: no {key!r}"]
    assert mismatches({**view, "surprise": 1}, hint) == [
        f"view: 'surprise' is not a key of {hint.__name__}"]
    number = next(k for k in sorted(required) if declared[k] is int)
    assert mismatches({**view, number: True}, hint) == [f"view.{number}: True is not a int"]
