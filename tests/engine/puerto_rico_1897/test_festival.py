"""1897's Expansion IV, the Festival (§7.4: X4-1...X4-4, A-15, A-16, T-X4-1, T-X4-2), played
with the kernel's Festival and 1897's differences (§6.3)."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.core import InvalidSetup
from engine.puerto_rico.state import FEST_BUILDING
from tests.engine.puerto_rico_1897.scenario import Scenario1897

GAME = get_game("puerto-rico-1897")


def test_X4_setup_three_goals_and_their_components() -> None:
    """X4-1, X4-2, X4-3: a property drawn out of the bag, 3 crates out of the supply, one
    3-VP commercial building (A-16) whose tile leaves the tray."""
    state = GAME.setup({"players": 4, "expansions": [4]}, 7)
    view = GAME.view(state, None)
    festival = view["festival"]
    assert set(festival) == {"property", "production", "construction"}
    assert len(festival["production"]["goods"]) == 3
    building = festival["construction"]["building"]
    assert building in {"factory", "school", "harbor", "wharf"}
    left = {m["building"]: m["left"] for m in view["market"]}
    assert left[building] == 1  # 2 copies, one on the Festival board
    assert sum(view["goods_supply"].values()) == 50 - 3
    assert view["property_bag"] == 50 - 5 - 4 - 1


@pytest.mark.parametrize("seed", range(12))
def test_A_16_the_building_goal_is_a_3_vp_commercial_building(seed: int) -> None:
    """X4-3, A-16, §6.3: only the 3-VP commercial buildings present (Factory, School, Harbor,
    Wharf in the base game), never a production building."""
    view = GAME.view(GAME.setup({"players": 3, "expansions": [4]}, seed), None)
    assert view["festival"]["construction"]["building"] in {"factory", "school", "harbor",
                                                            "wharf"}


def test_A_16_two_players_have_no_building_goal() -> None:
    """A-16: with 2 players each commercial building has one copy: no building goal."""
    state = GAME.setup({"players": 2, "expansions": [4]}, 1)
    assert state.festival[FEST_BUILDING] == -1
    view = GAME.view(state, None)
    assert view["festival"]["construction"]["building"] is None
    assert all(m["left"] == 1 for m in view["market"] if m["kind"] != "large_production"
               and m["kind"] != "small_production")


def test_T_X4_1_goods_goal_needs_the_shown_crates_in_one_phase() -> None:
    """T-X4-1, X4-4, A-15: goods Sugar, Sugar, Coffee; the first to produce 2 Sugar and 1
    Coffee in one Craftsman phase gets 3 coins and the 3 Festival crates go back."""
    sc = Scenario1897(4, expansions=[4])
    sc.festival(goods=["sugar", "sugar", "coffee"])
    sc.player(0, tiles={"sugar": (1, 1)}, buildings={"small_sugar_mill": 1})
    sc.player(1, tiles={"sugar": (2, 2), "coffee": (1, 1)},
              buildings={"large_sugar_mill": 2, "large_coffee_roaster": 1}, doubloons=0)
    supply = GAME.view(sc.state, None)["goods_supply"]
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")  # 1 Sugar: not the goal
    assert state.festival_won == [-1, -1, -1]
    state = sc.act(state, 1, "produce")
    assert state.festival_won[1] == 1
    assert state.players[1].doubloons == 3
    after = GAME.view(state, None)["goods_supply"]
    assert after["sugar"] == supply["sugar"] - 1 - 2 + 2 and after["coffee"] == supply["coffee"]
    assert sc.events_of("FestivalGoalAchieved")[-1].data == {
        "goal": "production", "goods": ["sugar", "sugar", "coffee"]}
    assert sc.invariant_failures(state) == []


def test_T_X4_2_property_goal_workers_placed_at_once() -> None:
    """T-X4-2, X4-4: Tobacco; P1 gains his 3rd Tobacco in a Planter phase: 3 workers from the
    supply, placed at once on empty spaces (or left on the portrait); the Festival's tile goes
    back into the bag (§7.4's clean-up)."""
    sc = Scenario1897(4, expansions=[4])
    sc.festival(plantation="tobacco")
    sc.player(0, tiles={"tobacco": 2}, buildings={"small_market": 0})
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    bag = sum(sc.state.deck)
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.tobacco")
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("festival_workers", (0,))
    assert sorted(sc.legal(state, 0)) == ["fw.small_market", "fw.tobacco", "pass"]
    assert state.players[0].san_juan == 3 and sum(state.deck) == bag + 1
    state = sc.act(state, 0, "fw.tobacco")
    state = sc.act(state, 0, "fw.small_market")
    assert sc.legal(state, 0) == ["fw.tobacco", "pass"]
    state = sc.act(state, 0, "pass")  # the third stays on the portrait
    p = state.players[0]
    assert (p.workers[3], p.san_juan) == (1, 1)
    placed = sc.events_of("WorkerPlaced")
    assert [e.data for e in placed] == [{"target": "tobacco", "by": "festival"},
                                        {"target": "small_market", "by": "festival"}]
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.seats == (1,) and prompt.kind == "plant"
    assert sc.invariant_failures(state) == []


def test_X4_building_goal_gives_3_vp_and_returns_the_tile() -> None:
    """X4-4, A-16: building the shown type (one of the copies left on the tray) gives 3 VP;
    the Festival's tile then goes back to the tray."""
    sc = Scenario1897(3, expansions=[4])
    sc.festival(building="harbor")
    sc.player(0, doubloons=8)
    left = {m["building"]: m["left"] for m in GAME.view(sc.state, None)["market"]}
    assert left["harbor"] == 1
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.harbor")
    assert state.festival_won[2] == 0 and state.players[0].vp == 3
    left = {m["building"]: m["left"] for m in GAME.view(state, None)["market"]}
    assert left["harbor"] == 1  # one bought, the Festival's back
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("expansions", "code"),
    [
        ([7], "bad_expansions"),
        (["4"], "bad_expansions"),
        ([4, 4], "duplicate_expansion"),
        ([5], "expansion_needs_festival"),
    ],
)
def test_expansions_option_is_validated(expansions: list[object], code: str) -> None:
    with pytest.raises(InvalidSetup) as info:
        GAME.normalize_options({"players": 3, "expansions": expansions})
    assert info.value.code == code


def test_the_classic_modules_option_is_no_1897_option() -> None:
    with pytest.raises(InvalidSetup) as info:
        GAME.normalize_options({"players": 3, "modules": ["festival"]})
    assert info.value.code == "unknown_option"
