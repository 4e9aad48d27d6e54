"""1897's Expansion I, the New Buildings, as far as it is built (§7.1: X1-1...X1-4, A-36,
§9.3's pairs): the draft on 1897's tray, played through the kernel (the ``expansions`` option
refuses 1 until its last differences are built: the Distillery counting the advantage crate,
the Hospital's one worker with the Press Center and the Lumber Mill)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import InvalidSetup
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import RED_SPACES, VIOLET_SPACES
from engine.puerto_rico.new_buildings import draft_candidates
from engine.puerto_rico.phases import setup
from engine.puerto_rico.state import State
from engine.puerto_rico_1897.game import PUERTO_RICO_1897

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


def test_expansion_1_is_not_offered_yet() -> None:
    with pytest.raises(InvalidSetup) as info:
        PUERTO_RICO_1897.normalize_options({"players": 3, "expansions": [1]})
    assert info.value.code == "expansion_not_available"
