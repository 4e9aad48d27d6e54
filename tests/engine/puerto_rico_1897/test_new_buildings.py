"""1897's Expansion I, the New Buildings (§7.1: X1-1...X1-4, A-36, §9.3's pairs, and the
buildings where 1897 differs: B-33 Press Center, B-34 Distillery, B-11 with the Lumber Mill):
the draft on 1897's tray and positions set up through the kernel."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import InvalidSetup
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import RED_SPACES, VIOLET_SPACES
from engine.puerto_rico.new_buildings import draft_candidates
from engine.puerto_rico.phases import setup
from engine.puerto_rico.ruleset import state_ruleset
from engine.puerto_rico.state import State
from engine.puerto_rico_1897.game import PUERTO_RICO_1897
from engine.puerto_rico_1897.names import REVERSE, word
from tests.engine.puerto_rico_1897.scenario import Scenario1897

GAME_NAME = PUERTO_RICO_1897.name


def kernel_setup(players: int, modules: list[str], **options: Any) -> State:
    """An 1897 game with kernel modules (Expansion I is not offered by the option yet)."""
    return setup({"players": players, "edition": "1897", "modules": modules, **options}, 3,
                 GAME_NAME)


def test_X1_4_and_A_36_no_red_spaces_on_1897s_tray() -> None:
    """X1-4, A-36: the tray's commercial spaces are the base layout's (1, 2, 2, 3, 4, 5, 5, 6,
    7, 8, 8, 9 and 10 x 5), with Expansion II too: no extra (red) spaces."""
    state = kernel_setup(4, ["new_buildings", "nobles"])
    assert {cost: n for cost, n in enumerate(state.draft_left) if n} == VIOLET_SPACES
    classic = setup({"players": 4, "modules": ["new_buildings", "nobles"]}, 3)
    assert sum(classic.draft_left) == sum(VIOLET_SPACES.values()) + sum(RED_SPACES.values())


def test_X2_1_the_large_tailor_shop_is_drafted_onto_an_8_space() -> None:
    """X1-2, X2-1: the Large Tailor Shop (a production building) is drafted like a common
    commercial building, on an 8-space; without the draft nobody drafts it."""
    state = kernel_setup(4, ["new_buildings", "nobles"])
    tailor = BUILDING_INDEX["jeweler"]
    assert tailor in draft_candidates(state, 8)
    assert state.market[tailor] == 0  # not on the tray before it is drafted
    assert all(CATALOG[b].production for b in state.rs.setup_buildings)
    assert tailor not in state.rs.setup_buildings


def test_X1_3_candidates_by_printed_cost() -> None:
    """X1-3, §7.1's candidates per cost (base + I + II), e.g. cost 6: Large Warehouse, Small
    Wharf, Rescue Post; cost 8: School, Harbor, Press Center, Distillery, Large Tailor Shop."""
    state = kernel_setup(3, ["new_buildings", "nobles"])
    names = {cost: sorted(CATALOG[b].name for b in draft_candidates(state, cost))
             for cost in (6, 8)}
    assert names[6] == ["large_warehouse", "royal_supplier", "small_wharf"]
    assert names[8] == ["harbor", "jeweler", "library", "specialty_factory", "university"]


def test_pair_country_house_tailor() -> None:
    """§9.3 ``pair_country_house_tailor``: once the Country House is on the tray the Large
    Tailor Shop may not be, and vice versa."""
    state = kernel_setup(3, ["new_buildings", "nobles"], exclusive_villa_jeweler=True)
    state.drafted.append(BUILDING_INDEX["villa"])
    assert BUILDING_INDEX["jeweler"] not in draft_candidates(state, 8)


def test_cost_swap_moves_school_and_factory_to_the_other_space() -> None:
    """§9.3 ``cost_swap`` in the draft: the School is a 7-space candidate, the Factory an
    8-space one."""
    state = kernel_setup(3, ["new_buildings"], cost_swap=True)
    assert BUILDING_INDEX["university"] in draft_candidates(state, 7)
    assert BUILDING_INDEX["factory"] in draft_candidates(state, 8)


def test_X1_3_the_draft_is_played_from_the_starting_player() -> None:
    """X1-3: with Expansion I the game opens with the draft, the starting player first."""
    state = PUERTO_RICO_1897.setup({"players": 3, "expansions": [1]}, 2)
    prompt = PUERTO_RICO_1897.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("draft", (0,))
    codes = [PUERTO_RICO_1897.encode_action(a) for a in PUERTO_RICO_1897.legal_actions(state, 0)]
    assert "d.press_center" in codes and "d.library" not in codes


def test_pair_country_house_tailor_needs_the_draft_of_I_and_II() -> None:
    with pytest.raises(InvalidSetup) as info:
        PUERTO_RICO_1897.normalize_options(
            {"players": 3, "expansions": [1], "pair_country_house_tailor": True}
        )
    assert info.value.code == "pair_without_draft"


def board(players: int, names: list[str], **options: Any) -> Scenario1897:
    """A scenario of an 1897 game with Expansion I (through the kernel) whose tray holds the
    named buildings (the rest of the random selection left as drawn)."""
    sc = Scenario1897(players)
    state = kernel_setup(players, ["new_buildings"], building_selection="random", **options)
    for name in names:
        b = BUILDING_INDEX[word(name, REVERSE)]
        if b not in state.drafted:
            state.drafted.append(b)
            state.market[b] = state.rs.copies[b]
    state.rs = state_ruleset(state.options, state.draft_left, state.drafted)
    sc.state = state
    sc.boxed["buildings"] = -sum(1 for n in names)  # added to the tray by hand
    return sc


def test_T_X1_8_the_distillery_counts_the_advantage_crate() -> None:
    """T-X1-8, B-34, §6.3: the Craftsman produces 4 Sugar (his mills' 4 spaces; the example's 5
    needs a Canal), 6 Corn, 1 Coffee and takes a Sugar advantage crate: the most non-Corn
    crates is 5, so +4 coins, paid after the crate (classic: +3 at his production)."""
    sc = board(3, ["distillery"])
    sc.player(0, doubloons=0, tiles={"sugar": (4, 4), "corn": (6, 6), "coffee": (1, 1)},
              buildings={"distillery": 1, "large_sugar_mill": 3, "small_sugar_mill": 1,
                         "large_coffee_roaster": 1})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    for _ in (1, 2):
        prompt = sc.prompt(state)
        if prompt is not None and prompt.kind == "produce":
            state = sc.act(state, prompt.seats[0], "produce")
    assert state.players[0].doubloons == 0  # nothing paid before the advantage
    state = sc.act(state, 0, "c.sugar")
    assert state.players[0].doubloons == 4
    assert sc.invariant_failures(state) == []


def test_B_33_press_center_second_quarry_with_builders_yard() -> None:
    """PLN-3, B-33: the Planter with an occupied Press Center and Builder's Yard may take a
    quarry first (advantage) and a second one after the others picked (the exception to one
    quarry a phase); with Hospital still one worker for both tiles."""
    sc = board(3, ["press_center", "builders_yard", "hospital"])
    sc.player(0, buildings={"press_center": 1, "builders_yard": 1, "hospital": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.quarry")
    state = sc.act(state, 0, "o.hospital")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.seats == (0,) and "p.quarry" in sc.legal(state, 0)
    state = sc.act(state, 0, "p.quarry")
    prompt = sc.prompt(state)
    assert prompt is None or prompt.kind != "hospital"
    assert state.players[0].tiles[5] == 2
    assert sc.invariant_failures(state) == []
