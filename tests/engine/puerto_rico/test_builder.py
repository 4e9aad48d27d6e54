"""Builder phase and building price (rules spec §4.3, §6, §8.2 University): T-BLD-1..7 and
rulings A15, A16, A55.  Sources: classic rulebook [C] (its quarry example), 2020 rulebook [A]."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, Prompt
from engine.puerto_rico.actions import CATALOG, NBASE_BUILDINGS
from engine.puerto_rico.legality import city_used
from engine.puerto_rico.state import GAME_OVER
from tests.engine.puerto_rico.scenario import GAME, Scenario, building

ELEVEN_SMALL = [
    "small_indigo_plant",
    "small_sugar_mill",
    "indigo_plant",
    "sugar_mill",
    "tobacco_storage",
    "coffee_roaster",
    "small_market",
    "hacienda",
    "construction_hut",
    "small_warehouse",
    "hospice",
]


def _paid(name: str, *, builder: bool, quarries: int, occupied: int | None = None) -> int:
    """What seat 1 pays for ``name``, with ``quarries`` quarries (``occupied`` of them manned),
    as the Builder or after the Builder (seat 0) passed."""
    sc = Scenario(players=4)
    manned = quarries if occupied is None else occupied
    sc.player(1, doubloons=20, tiles={"quarry": (quarries, manned)} if quarries else None)
    state = sc.choose("builder", 1 if builder else 0)
    if not builder:
        state = sc.act(state, 0, "pass")
    assert f"b.{name}" in sc.legal(state, 1)
    state = sc.act(state, 1, f"b.{name}")
    price = 20 - state.players[1].doubloons
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": name, "price": price}
    assert state.players[1].bw[building(name)] == 0  # new buildings are unoccupied (§4.3)
    assert sc.invariant_failures(state) == []
    return price


def test_t_bld_1_quarry_discount_for_a_non_builder() -> None:
    """T-BLD-1 (§4.3, §6, quarry example in [C]): a non-Builder with 3 occupied quarries pays
    Construction Hut 2 → 1, Office 5 → 3, Harbor 8 → 5, City Hall 10 → 7 (the discount is capped
    by the building's column)."""
    paid = {
        name: _paid(name, builder=False, quarries=3)
        for name in ("construction_hut", "office", "harbor", "city_hall")
    }
    assert paid == {"construction_hut": 1, "office": 3, "harbor": 5, "city_hall": 7}


def test_t_bld_2_quarry_discount_for_the_builder() -> None:
    """T-BLD-2 (§4.3, §6 [C]): the same player as the Builder also gets 1 off: Construction Hut
    0, Office 2, Harbor 4, City Hall 6."""
    paid = {
        name: _paid(name, builder=True, quarries=3)
        for name in ("construction_hut", "office", "harbor", "city_hall")
    }
    assert paid == {"construction_hut": 0, "office": 2, "harbor": 4, "city_hall": 6}


def test_t_bld_3_price_floor_zero() -> None:
    """T-BLD-3 (§6 [C], [A]): the Builder with 1 occupied quarry builds a Small Market (cost 1):
    1 − 1 − 1 = −1 → 0; he can build it with no money and receives nothing back."""
    sc = Scenario(players=4)
    sc.player(0, doubloons=0, tiles={"quarry": (1, 1)})
    state = sc.choose("builder", 0)
    # every column-1 building costing ≤ 2 is free for him; the Small Warehouse (3) costs 1
    assert sc.legal(state, 0) == [
        "b.small_indigo_plant",
        "b.small_sugar_mill",
        "b.small_market",
        "b.hacienda",
        "b.construction_hut",
        "pass",
    ]
    state = sc.act(state, 0, "b.small_market")
    assert state.players[0].doubloons == 0
    assert sc.events_of("BuildingBuilt")[-1].data["price"] == 0
    assert sc.invariant_failures(state) == []


def test_t_bld_4_no_build_no_privilege() -> None:
    """T-BLD-4 (§4.0, §4.3 [C]): the Builder builds nothing and gains nothing but the doubloons
    on the card; the others pay full price minus their own quarries."""
    sc = Scenario(players=4)
    sc.role_doubloons("builder", 1)
    sc.player(0, doubloons=5)
    sc.player(1, doubloons=5, tiles={"quarry": (1, 1)})
    sc.player(2, doubloons=5)
    state = sc.choose("builder", 0)
    assert state.players[0].doubloons == 6
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.hospice")  # 4 − 1 quarry = 3
    state = sc.act(state, 2, "b.hospice")  # 4, no discount
    state = sc.act(state, 3, "pass")
    assert [p.doubloons for p in state.players[:3]] == [6, 2, 1]
    assert state.players[0].city == []
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_t_bld_5_university_puts_exactly_one_colonist() -> None:
    """T-BLD-5 (§4.3, §8.2 University [C], [A]): the owner of an occupied University builds a
    Coffee Roaster (2 circles): exactly 1 colonist from the supply goes on it."""
    sc = Scenario(players=4)
    sc.player(1, doubloons=6, buildings={"university": 1})
    supply = sc.state.colonist_supply
    ship = sc.state.colonist_ship
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.coffee_roaster")
    assert GAME.prompt(state) == Prompt((1,), "university", False)
    assert sc.legal(state, 1) == ["o.university", "pass"]
    state = sc.act(state, 1, "o.university")
    assert state.players[1].bw[building("coffee_roaster")] == 1
    assert state.colonist_supply == supply - 1 and state.colonist_ship == ship
    assert GAME.prompt(state) == Prompt((2,), "build", False)
    assert sc.invariant_failures(state) == []


def test_t_bld_5_university_ship_fallback_and_nothing_when_both_empty() -> None:
    """§8.2 University [C], [A]: with the supply empty the colonist comes from the ship; with
    both empty there is no colonist (and no offer)."""
    sc = Scenario(players=3)
    sc.player(0, doubloons=10, buildings={"university": 1})
    sc.set_colonists(supply=0, ship=1)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.indigo_plant")
    state = sc.act(state, 0, "o.university")
    assert state.players[0].bw[building("indigo_plant")] == 1 and state.colonist_ship == 0
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.small_market")
    assert GAME.prompt(state) == Prompt((1,), "build", False)
    assert state.players[0].bw[building("small_market")] == 0
    assert sc.invariant_failures(state) == []


def test_t_bld_6_twelfth_city_space() -> None:
    """T-BLD-6 (§4.3, §7.1 E2 [C]): P2 fills his 12th city space; P3 and P4 still build, the
    round is completed, then the game ends."""
    sc = Scenario(players=4)
    sc.player(1, doubloons=5, buildings=ELEVEN_SMALL)
    sc.player(2, doubloons=5)
    sc.player(3, doubloons=5)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.office")
    assert city_used(state.players[1]) == 12
    assert state.end_reasons == ["city_full"]
    assert sc.events_of("EndTriggered")[-1].data == {"reason": "city_full"}
    assert GAME.prompt(state) == Prompt((2,), "build", False)
    state = sc.act(state, 2, "b.large_market")
    state = sc.act(state, 3, "b.small_market")
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.phase != GAME_OVER
    for seat, card in ((1, "prospector"), (2, "craftsman"), (3, "trader")):
        state = sc.act(state, seat, f"r.{card}")
        state = sc.finish_phase(state)
    assert state.phase == GAME_OVER
    assert [len(p.city) for p in state.players] == [0, 12, 1, 1]
    assert sc.invariant_failures(state) == []


def test_t_bld_7_duplicate_forbidden() -> None:
    """T-BLD-7 (§4.3 "One copy per player" [C], [A]): P1 owns a Small Market and cannot build the
    second one, although a copy is still on the board."""
    sc = Scenario(players=4)
    sc.player(0, doubloons=10, buildings={"small_market": 0})
    assert sc.state.market[building("small_market")] == 1
    state = sc.choose("builder", 0)
    assert "b.small_market" not in sc.legal(state, 0)
    assert "b.small_indigo_plant" in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "b.small_market")
    assert err.value.code == "already_owned"


def test_builder_one_building_per_phase_availability_and_money() -> None:
    """§4.3 [C]: one building per player per phase (his turn ends with it), only copies still on
    the board, and price ≤ his doubloons."""
    sc = Scenario(players=3)
    sc.market(harbor=0)
    sc.player(0, doubloons=20)
    sc.player(1, doubloons=0)
    state = sc.choose("builder", 0)
    assert "b.harbor" not in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "b.harbor")
    assert err.value.code == "sold_out"
    state = sc.act(state, 0, "b.small_market")
    # seat 1 cannot pay anything: skipped without a prompt; seat 2 (2 doubloons) decides
    assert GAME.prompt(state) == Prompt((2,), "build", False)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 2, "b.office")
    assert err.value.code == "not_enough_doubloons"
    assert len(state.players[0].city) == 1


def test_price_unoccupied_quarries_give_no_discount() -> None:
    """§6 [C], [A]: only occupied quarries reduce the price (and at most by the column)."""
    assert _paid("office", builder=False, quarries=3, occupied=1) == 4
    assert _paid("small_market", builder=False, quarries=3) == 0
    assert _paid("guild_hall", builder=False, quarries=4, occupied=0) == 10


def test_a15_large_building_needs_two_empty_city_spaces() -> None:
    """Ruling A15 (§4.3, §14.1; [C] "two adjacent spaces" but buildings may be moved, [A] "two
    free spaces"): a large building is legal with ≥ 2 empty city spaces, not with 1."""
    sc = Scenario(players=3)
    sc.player(0, doubloons=20, buildings=ELEVEN_SMALL[:10])
    state = sc.choose("builder", 0)
    assert "b.residence" in sc.legal(state, 0)
    sc = Scenario(players=3)
    sc.player(0, doubloons=20, buildings=ELEVEN_SMALL)
    state = sc.choose("builder", 0)
    assert "b.residence" not in sc.legal(state, 0)
    assert "b.office" in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "b.residence")
    assert err.value.code == "no_city_space"
    # a full city cannot build at all: no prompt
    sc = Scenario(players=3)
    sc.player(0, doubloons=20, buildings=[*ELEVEN_SMALL, "office"])
    state = sc.choose("builder", 0)
    assert GAME.prompt(state) == Prompt((1,), "build", False)


def test_a16_factory_costs_7_and_university_8() -> None:
    """Ruling A16 (§8.1, §14.1; [C] Factory 7 / University 8, unlike some public references):
    with exactly 7 doubloons a non-Builder can build the Factory but not the University."""
    sc = Scenario(players=3)
    sc.player(1, doubloons=7)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    assert "b.factory" in sc.legal(state, 1)
    assert "b.university" not in sc.legal(state, 1)
    state = sc.act(state, 1, "b.factory")
    assert state.players[1].doubloons == 0
    assert _paid("university", builder=False, quarries=0) == 8


def test_a55_large_building_on_the_twelfth_space_triggers_e2() -> None:
    """Ruling A55 (§7.1 E2, §14.1; [C] "builds on his 12th city space"): the trigger is the number
    of used city spaces reaching 12, so a large building on spaces 11-12 ends the game."""
    sc = Scenario(players=3)
    sc.player(0, doubloons=20, buildings=ELEVEN_SMALL[:10])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.guild_hall")
    assert len(state.players[0].city) == 11 and city_used(state.players[0]) == 12
    assert state.end_reasons == ["city_full"]
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("builder", "doubloons", "offered", "not_offered"),
    [
        # not the Builder, 2 doubloons: Office 5 − min(3, 2) = 3 (5 − 3 = 2 without the cap);
        # Tobacco Storage, also cost 5 but column 3: 5 − 3 = 2
        (False, 2, "tobacco_storage", "office"),
        # Small Warehouse (cost 3, column 1): 3 − min(3, 1) = 2 (0 without the cap)
        (False, 1, "construction_hut", "small_warehouse"),
        # the Builder, 1 doubloon: Office 5 − 1 − 2 = 2 (5 − 1 − 3 = 1 without the cap)
        (True, 1, "tobacco_storage", "office"),
    ],
)
def test_legal_builds_never_exceed_the_money_at_the_column_capped_price(
    builder: bool, doubloons: int, offered: str, not_offered: str
) -> None:
    """§6 [C], [A]: price = cost − Builder privilege − min(occupied quarries, column); §4.3:
    "A player needs price ≤ his doubloons".  Seat 1 has 3 occupied quarries: a building whose
    price would be affordable if the quarry discount were not capped by its column is neither
    offered nor buildable; one of the same cost in a higher column is."""
    sc = Scenario(players=4)
    sc.player(1, doubloons=doubloons, tiles={"quarry": (3, 3)})
    state = sc.choose("builder", 1 if builder else 0)
    if not builder:
        state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((1,), "build", False)
    assert f"b.{offered}" in sc.legal(state, 1)
    assert f"b.{not_offered}" not in sc.legal(state, 1)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, f"b.{not_offered}")
    assert err.value.code == "not_enough_doubloons"
    state = sc.act(state, 1, f"b.{offered}")
    assert state.players[1].doubloons == 0
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("builder", [False, True])
@pytest.mark.parametrize("quarries", [0, 1, 2, 3, 4])
def test_legal_builds_are_exactly_the_buildings_affordable_at_their_price(
    builder: bool, quarries: int
) -> None:
    """§4.3, §6 [C], [A], for every amount of money from 0 to 10: with an empty city and every
    building on the board, the buildings offered are exactly those whose price
    max(0, cost − Builder privilege − min(occupied quarries, column)) is at most his doubloons
    (computed here from the building table, not by the engine's own price function)."""
    for doubloons in range(11):
        sc = Scenario(players=4)
        sc.player(
            1, doubloons=doubloons, tiles={"quarry": (quarries, quarries)} if quarries else None
        )
        state = sc.choose("builder", 1 if builder else 0)
        if not builder:
            state = sc.act(state, 0, "pass")  # the Builder
        expected = {
            f"b.{b.name}"
            for b in CATALOG[:NBASE_BUILDINGS]
            if max(0, b.cost - builder - min(quarries, b.column)) <= doubloons
        }
        if not expected:  # nothing he can pay: his turn is skipped
            assert GAME.prompt(state) != Prompt((1,), "build", False)
            continue
        assert GAME.prompt(state) == Prompt((1,), "build", False), doubloons
        codes = sc.legal(state, 1)
        assert set(codes) - {"pass"} == expected, doubloons
        assert "pass" in codes
