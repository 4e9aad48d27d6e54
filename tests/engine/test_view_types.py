"""Every game's view is what its type says (issue #34): the ``TypedDict`` that a game's ``view``
declares, which mypy checks the renderer's and the bot's readers with, matches what the engine
returns, for the public view and each seat's, over random playouts of every option set."""

from __future__ import annotations

import typing

import pytest

from engine import get_game
from engine.games import PACKAGES

from .view_types import check_view, keys_of, mismatches, played, view_type

GAMES = sorted(PACKAGES)
"""Every game of the catalog: each declares its view's type."""


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
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


@pytest.mark.parametrize("name", GAMES)
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
