"""Ruling A22 (rules spec §10.1, §14.2): [A] lets the Hacienda and the Forest House both be
drafted; the option ``exclusive_forest_house`` plays the original 2004 rule, which keeps them
apart: once one of them is on the board, the other goes back to the box."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.core import InvalidSetup
from engine.puerto_rico.actions import BUILDING_INDEX
from engine.rng import below, seed_state

GAME = get_game("puerto-rico")
PAIR = {BUILDING_INDEX["hacienda"], BUILDING_INDEX["forest_house"]}


def _drafted_by_random_picks(options: dict[str, object], seed: int) -> set[int]:
    state = GAME.setup(options, seed)
    rng = seed_state(seed)
    while GAME.view(state, None)["phase"] == "draft":
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "draft"
        legal = GAME.legal_actions(state, prompt.seats[0])
        rng, k = below(rng, len(legal))
        state, _ = GAME.apply(state, prompt.seats[0], legal[k])
    return set(state.drafted)


def test_both_may_be_drafted_by_default_a22() -> None:
    """A22 default: some random drafts put both on the board."""
    assert any(
        _drafted_by_random_picks({"players": 3, "modules": ["new_buildings"]}, seed) >= PAIR
        for seed in range(40)
    )


@pytest.mark.parametrize("selection", ["draft", "random"])
def test_the_2004_rule_keeps_them_apart(selection: str) -> None:
    """A22 option: never both, whether drafted or drawn at random, and every space still filled."""
    options = {
        "players": 4,
        "modules": ["new_buildings"],
        "building_selection": selection,
        "exclusive_forest_house": True,
    }
    for seed in range(40):
        drafted = _drafted_by_random_picks(options, seed)
        assert not drafted >= PAIR
        assert len(drafted) == 17


def test_the_option_is_checked() -> None:
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": 3, "exclusive_forest_house": True}, 1)
    assert err.value.code == "exclusive_forest_house_without_new_buildings"
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": 3, "modules": ["new_buildings"], "exclusive_forest_house": 1}, 1)
    assert err.value.code == "bad_exclusive_forest_house"
