"""Expansion 4, the Festival (rules spec §13, ruling A36 of §14.4, Appendix C; the seed [A] p. 18)
and the ``modules`` option of issue #11.

Each test names the rule it checks.  The goals are set with ``Scenario.festival``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import CorruptState, InvalidSetup
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import GOOD_INDEX, GOODS, GOODS_TOTAL, PLANTATIONS_TOTAL, TILES
from engine.puerto_rico.heuristic import PuertoRicoHeuristic
from engine.puerto_rico.state import GAME_OVER
from tests.engine.puerto_rico.scenario import GAME, Scenario

FESTIVAL = {"modules": ["festival"]}


def fest(players: int = 4, seed: int = 0) -> Scenario:
    return Scenario(players=players, seed=seed, **FESTIVAL)


# --- the option ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("modules", "code"),
    [
        (["festivals"], "unknown_module"),
        (["festival", "festival"], "duplicate_module"),
        ("festival", "bad_modules"),
        ([1], "bad_modules"),
    ],
)
def test_modules_option_is_validated_at_setup(modules: object, code: str) -> None:
    """Issue #11: ``modules`` is a subset of the four expansions; an unknown name and a name
    given twice each raise their own InvalidSetup code (a module not built yet:
    tests/engine/puerto_rico/test_nobles.py, now that all four are)."""
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": 3, "modules": modules}, 1)
    assert err.value.code == code


def test_modules_are_normalized_and_legacy_expansions_read_as_none() -> None:
    """Issue #11: normalized options carry ``modules`` (catalog order); the ``expansions: []`` of
    games stored before keeps loading as no modules, and such a game's dump keeps its old form."""
    assert GAME.normalize_options({"players": 3, "expansions": []})["modules"] == []
    assert GAME.normalize_options({"players": 3, **FESTIVAL})["modules"] == ["festival"]
    base = GAME.setup({"players": 3, "expansions": []}, 5)
    dumped = GAME.dump(base)
    assert dumped["options"] == {
        "players": 3,
        "edition": "classic",
        "expansions": [],
        "mayor_placement": "simultaneous",
    }
    assert "festival" not in dumped
    assert GAME.dump(GAME.load(dumped)) == dumped
    with_festival = GAME.setup({"players": 3, **FESTIVAL}, 5)
    dumped = GAME.dump(with_festival)
    assert dumped["options"]["modules"] == ["festival"]
    assert GAME.dump(GAME.load(dumped)) == dumped


# --- setup (§13) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_takes_the_goal_tile_and_barrels_out_of_their_supplies(players: int) -> None:
    """§13 setup: one plantation of the drawn kind leaves the stacks and 3 barrels leave the
    supply until their goal is achieved; the Festival building still counts as an available
    copy (A36), so the market is unchanged.  [A]: with 2 players the Festival setup comes first,
    then the 2-player removals (same counts either way)."""
    base = GAME.setup({"players": players}, 3)
    state = GAME.setup({"players": players, **FESTIVAL}, 3)
    tile, building, goods = state.festival[0], state.festival[1], state.festival[2:5]
    on_table = sum(base.deck) + len(base.face_up)
    assert sum(state.deck) + len(state.face_up) == on_table - 1
    removed = 2 if players == 2 else 0
    assert sum(state.goods) == sum(GOODS_TOTAL) - 5 * removed - 3
    for k in range(len(GOODS)):
        assert state.goods[k] == GOODS_TOTAL[k] - removed - goods.count(k)
    assert state.market == base.market
    assert 0 <= tile < 5 and CATALOG[building].column == 3
    assert state.festival_won == [-1, -1, -1]
    assert GAME.invariants(state) == []
    assert sum(PLANTATIONS_TOTAL) > 0


def test_setup_draws_every_kind_and_excludes_processors_of_the_shown_barrels() -> None:
    """§13 setup over many seeds: the plantation goal can be any kind; the barrels are drawn
    from 3 of each kind (duplicates possible, never 4 of a kind); the construction goal is a
    column-3 building (Tobacco Storage, Coffee Roaster, Factory, University, Harbor, Wharf)
    other than a production building of a shown kind."""
    tiles: Counter[str] = Counter()
    buildings: Counter[str] = Counter()
    duplicates = 0
    for seed in range(300):
        state = GAME.setup({"players": 3, **FESTIVAL}, seed)
        tiles[TILES[state.festival[0]]] += 1
        goods = state.festival[2:5]
        assert len(goods) == 3 and max(Counter(goods).values()) <= 3
        duplicates += len(set(goods)) < 3
        b = CATALOG[state.festival[1]]
        buildings[b.name] += 1
        assert not (b.production and b.good in goods)
    assert set(tiles) == set(GOODS)
    assert set(buildings) == {
        "tobacco_storage",
        "coffee_roaster",
        "factory",
        "university",
        "harbor",
        "wharf",
    }
    assert duplicates > 0


# --- the plantation goal ------------------------------------------------------------------------


def test_plantation_goal_third_plantation_of_the_kind_gives_3_colonists() -> None:
    """§13 plantation goal and A36: three plantations of the shown kind, occupied or not, give 3
    colonists from the supply into San Juan; the goal tile goes to the plantation discards."""
    sc = fest()
    sc.festival(plantation="coffee")
    sc.player(0, tiles={"coffee": 2, "corn": 1})
    sc.face_up(["coffee", "corn", "sugar", "indigo", "tobacco"])
    state = sc.state
    supply, discard = state.colonist_supply, state.discard[GOOD_INDEX["coffee"]]
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.coffee")
    assert state.festival_won == [0, -1, -1]
    assert state.players[0].san_juan == 3
    assert state.colonist_supply == supply - 3
    [achieved] = sc.events_of("FestivalGoalAchieved")
    assert (achieved.seat, achieved.data) == (0, {"goal": "plantation", "tile": "coffee"})
    state = sc.finish_phase(state)
    # the goal tile, plus the face-up tiles nobody took, went to the discards
    assert state.discard[GOOD_INDEX["coffee"]] == discard + 1
    assert sc.invariant_failures(state) == []


def test_plantation_goal_is_won_once_first_in_resolution_order() -> None:
    """§13: each goal only once, by the first player to meet it; A36: ties in one phase go to
    the first in resolution order (clockwise from the Settler)."""
    sc = fest()
    sc.festival(plantation="sugar")
    sc.player(1, tiles={"sugar": 2})
    sc.player(2, tiles={"sugar": 2})
    sc.face_up(["sugar", "sugar", "corn", "indigo", "tobacco"])
    state = sc.choose("settler", 1, governor=0)
    state = sc.act(state, 1, "s.sugar")
    state = sc.act(state, 2, "s.sugar")
    assert state.festival_won[0] == 1
    assert state.players[1].san_juan == 3 and state.players[2].san_juan == 0
    assert len(sc.events_of("FestivalGoalAchieved")) == 1
    assert sc.invariant_failures(state) == []


def test_plantation_goal_other_kinds_and_quarries_do_not_count() -> None:
    """§13: only plantations of the shown kind count (a quarry is no plantation)."""
    sc = fest()
    sc.festival(plantation="indigo")
    sc.player(0, tiles={"corn": 2, "quarry": 2})
    sc.face_up(["corn", "sugar", "sugar", "coffee", "tobacco"])
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    assert state.festival_won[0] == -1


def test_plantation_goal_with_a_short_supply_gives_what_is_left() -> None:
    """A36: the 3 colonists come from the supply, as many as are left."""
    sc = fest()
    sc.festival(plantation="tobacco")
    sc.player(0, tiles={"tobacco": 2})
    sc.face_up(["tobacco", "corn", "sugar", "indigo", "coffee"])
    sc.set_colonists(supply=2)
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.tobacco")
    assert state.players[0].san_juan == 2 and state.colonist_supply == 0
    assert state.festival_won[0] == 0
    assert sc.invariant_failures(state) == []


def test_plantation_goal_is_checked_on_the_hacienda_draw() -> None:
    """A36: checked whenever a player gains a plantation; the Hacienda's draw is one."""
    sc = fest(seed=4)
    sc.festival(plantation="corn")
    sc.player(0, tiles={"corn": 2}, buildings={"hacienda": 1})
    sc.stacks({"corn": 5})
    sc.face_up(["sugar", "indigo", "coffee", "tobacco", "sugar"])
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.hacienda")
    assert state.players[0].tiles[GOOD_INDEX["corn"]] == 3
    assert state.festival_won[0] == 0 and state.players[0].san_juan == 3
    assert sc.invariant_failures(state) == []


# --- the production goal ------------------------------------------------------------------------


def _producer(sc: Scenario, seat: int, indigo: int, coffee: int) -> None:
    sc.player(
        seat,
        tiles={"indigo": (indigo, indigo), "coffee": (coffee, coffee)},
        buildings={"indigo_plant": indigo, "coffee_roaster": coffee},
    )


def test_production_goal_example_two_indigo_and_a_coffee() -> None:
    """§13 production goal, A36 example: goal {indigo, indigo, coffee} needs at least 2 indigo
    and 1 coffee produced in one Craftsman phase: 3 doubloons; the barrels return to supply."""
    sc = fest()
    sc.festival(goods=["indigo", "indigo", "coffee"], building="factory")
    _producer(sc, 1, indigo=2, coffee=1)
    state = sc.state
    indigo, coffee = state.goods[GOOD_INDEX["indigo"]], state.goods[GOOD_INDEX["coffee"]]
    doubloons = state.players[1].doubloons
    state = sc.choose("craftsman", 0)
    assert state.festival_won[1] == 1
    assert state.players[1].doubloons == doubloons + 3
    # 2 indigo and 1 coffee produced, the 3 goal barrels back
    assert state.goods[GOOD_INDEX["indigo"]] == indigo - 2 + 2
    assert state.goods[GOOD_INDEX["coffee"]] == coffee - 1 + 1
    [achieved] = sc.events_of("FestivalGoalAchieved")
    assert achieved.data == {"goal": "production", "goods": ["indigo", "indigo", "coffee"]}
    assert sc.invariant_failures(state) == []


def test_production_goal_needs_every_shown_barrel() -> None:
    """A36: one indigo short of {indigo, indigo, coffee} does not meet the goal."""
    sc = fest()
    sc.festival(goods=["indigo", "indigo", "coffee"], building="factory")
    _producer(sc, 1, indigo=1, coffee=2)
    state = sc.choose("craftsman", 0)
    assert state.festival_won[1] == -1
    assert sc.events_of("FestivalGoalAchieved") == []


def test_production_goal_excludes_the_craftsman_privilege() -> None:
    """A36: only the player's own production step counts, not the Craftsman's privilege barrel."""
    sc = fest()
    sc.festival(goods=["indigo", "indigo", "coffee"], building="factory")
    _producer(sc, 0, indigo=1, coffee=1)
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "c.indigo")
    assert state.players[0].goods[GOOD_INDEX["indigo"]] == 2
    assert state.festival_won[1] == -1


def test_production_goal_goes_to_the_first_in_production_order() -> None:
    """§13: the first player who meets it; production runs clockwise from the Craftsman."""
    sc = fest()
    sc.festival(goods=["corn", "corn", "corn"], building="factory")
    sc.player(1, tiles={"corn": (3, 3)})
    sc.player(3, tiles={"corn": (3, 3)})
    state = sc.choose("craftsman", 2, governor=0)
    assert state.festival_won[1] == 3
    assert sc.invariant_failures(state) == []


# --- the construction goal ----------------------------------------------------------------------


def test_construction_goal_gives_3_vp_once() -> None:
    """§13 construction goal: building the shown building gives 3 VP from the VP supply (A36);
    a second copy built later gives nothing."""
    sc = fest()
    sc.festival(building="harbor")
    sc.player(0, doubloons=10)
    sc.player(1, doubloons=10)
    state = sc.state
    vp_supply = state.vp_supply
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.harbor")
    assert state.festival_won[2] == 0
    assert state.players[0].vp == 3 and state.vp_supply == vp_supply - 3
    state = sc.act(state, 1, "b.harbor")
    assert state.players[1].vp == 0
    assert len(sc.events_of("FestivalGoalAchieved")) == 1
    assert sc.invariant_failures(state) == []


def test_construction_goal_with_two_players_the_single_copy_is_available() -> None:
    """A36: the Festival tile is one copy off the board but still an available copy, which
    matters with 2 players (one copy of each violet building): it can be built and achieves
    the goal."""
    sc = fest(players=2)
    sc.festival(building="wharf")
    sc.player(0, doubloons=10)
    assert sc.state.market[BUILDING_INDEX["wharf"]] == 1
    state = sc.choose("builder", 0)
    assert "b.wharf" in sc.legal(state, 0)
    state = sc.act(state, 0, "b.wharf")
    assert state.festival_won[2] == 0 and state.market[BUILDING_INDEX["wharf"]] == 0
    assert sc.invariant_failures(state) == []


def test_construction_goal_vp_can_trigger_the_end() -> None:
    """A36: the reward VP come from the VP supply, so taking the last chips triggers E3
    (ruling A3: in any phase)."""
    sc = fest()
    sc.festival(building="university")
    sc.player(0, doubloons=10)
    sc.set_vp_supply(2)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.university")
    assert state.end_reasons == ["vp_chips"]
    assert state.phase != GAME_OVER


# --- view, invariants, heuristic ----------------------------------------------------------------


def test_view_shows_the_goals_and_who_achieved_them() -> None:
    """§13: the Festival board is public: its goals and who achieved each; no key value
    without the module."""
    assert GAME.view(GAME.setup({"players": 3}, 1), None)["festival"] is None
    sc = fest()
    sc.festival(plantation="coffee", goods=["corn", "sugar", "sugar"], building="harbor")
    sc.player(0, doubloons=10)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.harbor")
    for viewer in (None, 0, 1):
        assert GAME.view(state, viewer)["festival"] == {
            "plantation": {"tile": "coffee", "achieved_by": None},
            "production": {"goods": ["corn", "sugar", "sugar"], "achieved_by": None},
            "construction": {"building": "harbor", "achieved_by": 0},
        }


def test_invariants_count_the_festival_pieces() -> None:
    """Conservation (issue #11): the goal tile and barrels are components on the Festival board;
    a goal that §13 could not have drawn is reported."""
    state = GAME.setup({"players": 4, **FESTIVAL}, 9)
    assert GAME.invariants(state) == []
    broken = state.clone()
    broken.festival_won = [-1, 0, -1]  # the barrels counted as returned, but they were not
    assert any(f.startswith("conservation:goods") for f in GAME.invariants(broken))
    sc = fest(seed=9)
    sc.festival(goods=["coffee", "corn", "corn"], building="coffee_roaster")
    assert "festival:building" in sc.invariant_failures(sc.state)
    broken = GAME.setup({"players": 4}, 9)
    broken.festival_won = [-1, -1, -1]
    assert "festival:not_in_play" in GAME.invariants(broken)


def test_heuristic_values_the_open_goals() -> None:
    """The heuristic knows the goals: the construction goal's building and the plantation that
    completes the plantation goal are worth more while the goal is open."""
    sc = fest()
    sc.festival(plantation="sugar", building="harbor")
    sc.player(0, tiles={"sugar": 2})
    state = sc.state
    ai = PuertoRicoHeuristic(1)
    with_goal = ai.building_value(state, 0, BUILDING_INDEX["harbor"])
    tile_with_goal = ai.tile_value(state, 0, GOOD_INDEX["sugar"])
    state = state.clone()
    state.festival_won = [1, -1, 1]
    assert ai.building_value(state, 0, BUILDING_INDEX["harbor"]) == pytest.approx(with_goal - 3)
    assert ai.tile_value(state, 0, GOOD_INDEX["sugar"]) == pytest.approx(tile_with_goal - 3)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tile", "no_such_tile"),
        ("tile", "quarry"),
        ("building", "no_such_building"),
        ("goods", ["corn", "indigo", "no_such_good"]),
        ("goods", ["corn"]),
        ("won", [7, -1, -1]),
        ("won", "x"),
        ("buccaneer", [-1, -1, -1, 0]),
    ],
)
def test_corrupted_festival_saves_raise_corrupt_state(field: str, value: object) -> None:
    """Fuzz (ARCHITECTURE.md layer 4): a save whose Festival pieces are malformed or impossible
    (or that carries another module's pieces) raises only CorruptState."""
    dumped = GAME.dump(GAME.setup({"players": 4, **FESTIVAL}, 2))
    if field == "buccaneer":
        dumped[field] = value
    else:
        dumped["festival"] = {**dumped["festival"], field: value}
    with pytest.raises(CorruptState):
        GAME.load(dumped)
