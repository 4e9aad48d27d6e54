"""The constants of Puerto Rico's expansions held exactly, and their thresholds on both sides
(issue #33, "Tests that name their rules").

Expansions 1-4 of ``docs/rules/puerto-rico.md`` (§10-§13, Appendix A): each test asserts a
number of the rules (a cost, a VP amount, a count of doubloons or colonists, a rounding) where
no other test pinned it, so that changing the constant by one fails a test that names the
building or the rule.  What other tests already pin is listed in ``docs/rule-thresholds.md``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.puerto_rico.actions import CATALOG
from engine.puerto_rico.data import (
    COFFEE,
    INDIGO,
    LARGE_PRODUCTION,
    LARGE_VIOLET,
    NEW_BUILDINGS,
    NOBLES_BUILDINGS,
    SMALL_VIOLET,
)
from engine.puerto_rico.festival import construction_candidates
from engine.puerto_rico.legality import price
from engine.puerto_rico.scoring import score_breakdown
from engine.puerto_rico.state import FEST_GOODS, NOB_SHIP, NOB_SUPPLY
from tests.engine.puerto_rico.nobles_scenario import nob, noble_supplies, nobles
from tests.engine.puerto_rico.scenario import GAME, Scenario, building

NEW: dict[str, Any] = {"modules": ["new_buildings"], "building_selection": "random"}


def exp1(*board: str, players: int = 4) -> Scenario:
    """A game with Exp. 1 whose violet spaces hold exactly ``board``."""
    sc = Scenario(players=players, **NEW)
    sc.board(board)
    return sc


def _amounts(sc: Scenario, event: str, reason: str, seat: int) -> list[int]:
    return [
        int(e.data["amount"])
        for e in sc.events_of(event)
        if e.data["reason"] == reason and e.seat == seat
    ]


# --- Appendix A: the expansions' building tables -------------------------------------------------

# cost, VP, column, circles, copies with 3-5 players, copies with 2 players, kind
APPENDIX_A_EXP1 = {
    "aqueduct": (1, 1, 1, 1, 2, 1, SMALL_VIOLET),
    "forest_house": (2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    "black_market": (2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    "storehouse": (3, 1, 1, 1, 2, 1, SMALL_VIOLET),
    "guest_house": (4, 2, 2, 2, 2, 1, SMALL_VIOLET),
    "church": (5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    "trading_post": (5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    "small_wharf": (6, 2, 2, 1, 2, 1, SMALL_VIOLET),
    "lighthouse": (7, 3, 3, 1, 2, 1, SMALL_VIOLET),
    "library": (8, 3, 3, 1, 2, 1, SMALL_VIOLET),
    "specialty_factory": (8, 3, 3, 1, 2, 1, SMALL_VIOLET),
    "union_hall": (9, 3, 3, 1, 2, 1, SMALL_VIOLET),
    "cloister": (10, 4, 4, 1, 1, 1, LARGE_VIOLET),
    "statue": (10, 8, 4, 0, 1, 1, LARGE_VIOLET),
}
APPENDIX_A_EXP2 = {
    "land_office": (2, 1, 1, 1, 2, 1, SMALL_VIOLET),
    "chapel": (3, 1, 1, 1, 2, 1, SMALL_VIOLET),
    "hunting_lodge": (4, 2, 2, 1, 2, 1, SMALL_VIOLET),
    "zoning_office": (5, 2, 2, 1, 2, 1, SMALL_VIOLET),
    "royal_supplier": (6, 2, 2, 1, 2, 1, SMALL_VIOLET),
    "villa": (7, 3, 3, 1, 2, 1, SMALL_VIOLET),
    "jeweler": (8, 3, 3, 1, 2, 2, LARGE_PRODUCTION),
    "royal_garden": (10, 4, 4, 1, 1, 1, LARGE_VIOLET),
}


@pytest.mark.parametrize(
    ("table", "buildings"),
    [(APPENDIX_A_EXP1, NEW_BUILDINGS), (APPENDIX_A_EXP2, NOBLES_BUILDINGS)],
    ids=["exp1", "exp2"],
)
def test_appendix_a_expansion_building_tables(
    table: dict[str, tuple[int, int, int, int, int, int, str]], buildings: tuple[Any, ...]
) -> None:
    """§10.2 and §11.2 tables, Appendix A ``buildings_exp1`` / ``buildings_exp2`` (public
    source): every expansion building's cost, VP, column, circles, copies (3-5 players and 2
    players) and kind.  The Statue is worth 8 and holds no colonist; the Guest House has 2
    circles; the Jeweler is a production building that keeps 2 copies with 2 players."""
    assert [b.name for b in buildings] == list(table)
    for b in buildings:
        assert (b.cost, b.vp, b.column, b.circles, b.copies, b.copies_2p, b.kind) == table[b.name]


# --- Exp. 1 (§10.2) -------------------------------------------------------------------------------


@pytest.mark.parametrize(("forests", "off"), [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)])
def test_sec10_2_forest_house_one_doubloon_per_two_forests(forests: int, off: int) -> None:
    """§10.2 Forest House: 1 doubloon less for every 2 forests, floor(forests / 2): one forest
    takes nothing off, two take 1, three still 1, four 2 (the Office, cost 5, for a player who
    is not the Builder and has no quarry)."""
    sc = exp1("forest_house", "office")
    sc.player(1, buildings={"forest_house": 1}, forests={"corn": forests} if forests else None)
    assert price(sc.state, 1, building("office")) == 5 - off


@pytest.mark.parametrize(("indigo", "doubloons"), [(1, 0), (2, 1), (3, 2)])
def test_sec10_2_specialty_factory_largest_kind_minus_one(indigo: int, doubloons: int) -> None:
    """§10.2 Specialty Factory: (most barrels of one non-corn kind produced) − 1, at least 0:
    1 indigo pays nothing, 2 pay 1, 3 pay 2."""
    sc = exp1("specialty_factory")
    sc.player(
        0,
        doubloons=0,
        tiles={"indigo": (indigo, indigo)},
        buildings={"specialty_factory": 1, "indigo_plant": indigo},
    )
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[INDIGO] == indigo
    assert sum(_amounts(sc, "DoubloonsEarned", "specialty_factory", 0)) == doubloons


@pytest.mark.parametrize(
    ("goods", "vp"),
    [({"corn": 1}, 0), ({"corn": 2}, 1), ({"corn": 3}, 1), ({"corn": 3, "sugar": 2}, 2)],
)
def test_sec10_2_union_hall_one_vp_per_two_barrels_of_a_kind(
    goods: dict[str, int], vp: int
) -> None:
    """§10.2 Union Hall (A32: at the start of the Captain phase): Σ floor(n_k / 2) over the
    kinds: 1 corn gives nothing, 2 give 1, 3 still 1; 3 corn and 2 sugar give 2."""
    sc = exp1("union_hall")
    sc.player(1, goods=goods, buildings={"union_hall": 1})
    sc.choose("captain", 0)
    assert sum(_amounts(sc, "VpEarned", "union_hall", 1)) == vp


@pytest.mark.parametrize(("corn", "vp"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_a26_small_wharf_vp_rounds_down(corn: int, vp: int) -> None:
    """§10.2 Small Wharf, ruling A26: 1 VP per 2 barrels shipped, floor(n / 2): 1 barrel 0,
    2 barrels 1, 3 barrels 1, 4 barrels 2 (seat 1 is not the Captain)."""
    sc = exp1("small_wharf")
    sc.player(1, goods={"corn": corn}, buildings={"small_wharf": 1})
    sc.ships([(5, "corn", 5), (6, None, 0), (7, None, 0)])  # corn has no cargo ship
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, f"sw.corn{corn}")
    assert sum(_amounts(sc, "VpEarned", "shipping", 1)) == vp
    assert state.players[1].vp == vp


@pytest.mark.parametrize(
    ("tiles", "vp"),
    [({"corn": 2}, 0), ({"corn": 3}, 1), ({"corn": 5}, 1), ({"corn": 6}, 3),
     ({"corn": 3, "quarry": 3, "sugar": 3}, 6)],
)
def test_sec10_2_cloister_bonus_by_groups(tiles: dict[str, int], vp: int) -> None:
    """§10.2 Cloister (occupied at the end): 1 / 3 / 6 / 10 VP for 1 / 2 / 3 / 4 groups of 3
    identical island tiles: 2 corn make no group, 3 make one (1 VP), 5 still one, 6 two (3 VP),
    three kinds of 3 three groups (6 VP)."""
    sc = exp1("cloister")
    sc.player(0, buildings={"cloister": 1}, tiles=tiles)
    assert score_breakdown(sc.state, 0).get("cloister", 0) == vp


def test_sec10_2_aqueduct_one_barrel_from_the_indigo_plant_is_enough() -> None:
    """§10.2 Aqueduct ("at least one" indigo produced in the Indigo Plant; A28): exactly 1
    indigo from the (large) Indigo Plant earns the +1 indigo: 2 in all."""
    sc = exp1("aqueduct")
    sc.player(0, tiles={"indigo": (1, 1)}, buildings={"aqueduct": 1, "indigo_plant": 1})
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[INDIGO] == 2
    assert [e.data["goods"] for e in sc.events_of("GoodsProduced") if e.data.get("by")] == [
        {"indigo": 1}
    ]


# --- Exp. 2 (§11) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("doubloons", "offered"), [(0, False), (1, True)])
def test_sec11_3_land_office_buy_costs_exactly_one_doubloon(doubloons: int, offered: bool) -> None:
    """§11.3 Land Office with a colonist: the top face-down plantation for 1 doubloon: with 0
    doubloons it is not offered, with exactly 1 it is, and buying it leaves him 0."""
    sc = nob()
    sc.player(0, doubloons=doubloons, buildings={"land_office": 1}, goods={"corn": 1})
    state = sc.choose("trader", 0)
    assert ("lo.buy" in sc.legal(state, 0)) == offered
    if offered:
        state = sc.act(state, 0, "lo.buy")
        assert state.players[0].doubloons == 0
        assert sc.events_of("PlantationTaken")[-1].data["price"] == 1
        assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("filled", "offered"), [(11, True), (12, False)])
def test_sec11_3_land_office_buy_needs_an_empty_island_space(filled: int, offered: bool) -> None:
    """§11.3 Land Office with a colonist: the bought plantation goes on his island, so buying
    needs an empty space of the 12: with 11 filled it is offered (and fills the 12th), with 12
    it is not."""
    sc = nob()
    sc.player(0, doubloons=3, tiles={"corn": filled}, buildings={"land_office": 1},
              goods={"corn": 1})
    state = sc.choose("trader", 0)
    assert ("lo.buy" in sc.legal(state, 0)) == offered
    if offered:
        state = sc.act(state, 0, "lo.buy")
        assert state.players[0].island() == 12
        assert sc.invariant_failures(state) == []


def test_sec11_3_villa_takes_the_last_noble() -> None:
    """§11.3 Villa: 1 noble from the reserve while one is left: with exactly 1 noble in the
    supply the Villa takes it (the supply is then empty)."""
    sc = nob()
    sc.player(2, buildings={"villa": 1}, tiles={"corn": 3})
    noble_supplies(sc, supply=1)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    villa = [e for e in sc.events_of("NobleGained") if e.data["by"] == "villa"]
    assert [e.seat for e in villa] == [2]
    assert state.nobles[NOB_SUPPLY] == 0
    assert sc.invariant_failures(state) == []


def test_sec11_1_the_last_noble_goes_on_the_ship() -> None:
    """§11.1: at the end of the Mayor phase one of the R pieces is a noble "as long as nobles
    remain": with exactly 1 noble left it goes on the ship (R = 4: 3 colonists and the noble)."""
    sc = nob()
    noble_supplies(sc, supply=1, ship=0)
    sc.set_colonists(ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert sc.events_of("ColonistShipRefilled")[-1].data == {
        "count": 3, "needed": 4, "nobles": 1}
    assert (state.colonist_ship, state.nobles[NOB_SHIP], state.nobles[NOB_SUPPLY]) == (3, 1, 0)
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("count", [1, 3])
def test_sec11_3_jeweler_and_royal_garden_one_per_noble(count: int) -> None:
    """§11.3 Jeweler (1 doubloon per noble on his board, at his production) and Royal Garden
    (+1 VP per noble at the end, besides §11.1's 1 VP per noble): exactly ``count`` each."""
    sc = nob()
    sc.player(
        0,
        doubloons=0,
        tiles={"corn": (3, 3)},
        buildings={"jeweler": 1, "royal_garden": 1},
    )
    nobles(sc, 0, corn=count - 1, jeweler=1)
    score = score_breakdown(sc.state, 0)
    assert (score["nobles"], score["royal_garden"]) == (count, count)
    state = sc.choose("craftsman", 0)
    assert _amounts(sc, "DoubloonsEarned", "jeweler", 0) == [count]
    assert sc.invariant_failures(state) == []


# --- Exp. 3 (§12) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("ship", "removed", "kept"), [(4, 0, 0), (5, 1, 1), (7, 3, 3), (9, 5, 3)])
def test_sec12_raid_keeps_at_most_three(ship: int, removed: int, kept: int) -> None:
    """§12 Raid (A34: at most min(3, empty circles)): the ship goes down to N = 4 and the
    Buccaneer keeps up to 3 of the removed colonists: none removed from 4, 1 of 1, 3 of 3, and
    3 of 5 although he has 6 empty circles; the rest go to the supply."""
    sc = Scenario(players=4, modules=["buccaneer"])
    sc.player(0, tiles={"corn": 6})
    sc.set_colonists(ship=ship)
    supply = sc.state.colonist_supply
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.raid")
    assert state.colonist_ship == min(ship, 4)
    if removed:
        assert sc.events_of("ColonistShipRaided")[-1].data == {"removed": removed, "kept": kept}
        assert state.colonist_supply == supply + removed - kept
    for _ in range(kept):
        state = sc.act(state, 0, "raid.corn")
    assert state.players[0].workers[0] == kept
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "role"
    assert sc.invariant_failures(state) == []


# --- Exp. 4 (§13) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("coffee", "achieved"), [(1, False), (2, True)])
def test_sec13_plantation_goal_needs_three_plantations(coffee: int, achieved: bool) -> None:
    """§13 plantation goal ("three plantations of the shown kind"), both sides: a second coffee
    plantation achieves nothing; the third gives the 3 colonists (A36: into San Juan)."""
    sc = Scenario(players=4, modules=["festival"])
    sc.festival(plantation="coffee")
    sc.player(0, tiles={"coffee": coffee})
    sc.face_up(["coffee", "corn", "sugar", "indigo", "tobacco"])
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.coffee")
    assert state.players[0].tiles[COFFEE] == coffee + 1
    assert (state.festival_won[0] == 0) == achieved
    assert state.players[0].san_juan == (3 if achieved else 0)
    assert sc.invariant_failures(state) == []


def test_sec13_production_goal_draws_3_of_15_barrels() -> None:
    """§13 setup: 3 barrels of each kind (15) are mixed and 3 drawn at random: every goal shows
    3 barrels, never more than 3 of a kind; over 600 seeds the goals vary (every kind comes up,
    and many different goals), and a goal of three barrels of one kind comes up too (with
    fewer than 3 of each kind in the bag it never could)."""
    goals = set()
    for seed in range(600):
        state = GAME.setup({"players": 3, "modules": ["festival"]}, seed)
        goods = state.festival[FEST_GOODS]
        assert len(goods) == 3
        goals.add(tuple(sorted(goods)))
    assert {k for goal in goals for k in goal} == {0, 1, 2, 3, 4}
    assert len(goals) >= 25  # 35 possible multisets
    assert any(len(set(goal)) == 1 for goal in goals)


def test_sec13_construction_goal_candidates_are_the_column_3_buildings() -> None:
    """§13 setup: the construction goal is one of each column-3 building (worth 3 VP), less the
    production buildings of a kind shown in the production goal: with a goal of corn only,
    exactly Tobacco Storage, Coffee Roaster, Factory, University, Harbor and Wharf."""
    state = GAME.setup({"players": 3, "modules": ["festival"]}, 0)
    names = [CATALOG[b].name for b in construction_candidates(state, [0, 0, 0])]
    assert names == ["tobacco_storage", "coffee_roaster", "factory", "university", "harbor",
                     "wharf"]
