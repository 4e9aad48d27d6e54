"""Puerto Rico 1897's roles (rules spec §3): the test scenarios of §3 (T-PLN-1..4, T-REC-1..6,
T-BLD-1..8, T-CRF-1..4, T-TRD-1..5, T-CAP-1..7, T-ADV-1, T-EOR-1) and the checkable facts of
the rule ids PLN-*, REC-*, BLD-*, CRF-*, TRD-*, CAP-*, ADV-1 and EOR-* they do not already
cover.  Each test names its rule ids.  Played in 1897's words through ``Scenario1897``; the
default options (``production: full_or_decline``, A-28; ``end_timing: phase``, END-2)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction, NotYourTurn, Prompt
from engine.puerto_rico.state import State
from tests.engine.puerto_rico_1897.scenario import (
    Scenario1897,
    coins,
    field,
    goods,
    held,
    role,
    view,
)


def vps(state: State) -> list[int]:
    return [p.vp for p in state.players]



# --- Planter (§3.3) -----------------------------------------------------------------------------


def test_T_PLN_1_quarries_for_the_planter_and_a_builders_yard_then_a_new_market() -> None:
    """T-PLN-1, PLN-1, PLN-3, PLN-4, PLN-5: 4 players, market [Corn, Fruit, Sugar, Coffee,
    Tobacco], 8 quarries; P1 (Planter) takes a quarry, P2 Coffee, P3 (occupied Builder's Yard)
    a quarry, P4 Sugar: 6 quarries left, Corn/Fruit/Tobacco discarded, 5 new tiles drawn."""
    sc = Scenario1897(4)
    sc.face_up(["corn", "fruit", "sugar", "coffee", "tobacco"])
    sc.player(2, buildings={"builders_yard": 1})
    bag = view(sc, sc.state)["property_bag"]
    state = sc.choose("planter", 0)
    assert sc.prompt(state) == Prompt((0,), "plant", False)
    assert sc.legal(state, 0) == [
        "p.corn",
        "p.fruit",
        "p.sugar",
        "p.tobacco",
        "p.coffee",
        "p.quarry",
        "pass",
    ]
    state = sc.act(state, 0, "p.quarry")
    assert sc.invariant_failures(state) == []
    assert "p.quarry" not in sc.legal(state, 1)  # no advantage, no Builder's Yard
    state = sc.act(state, 1, "p.coffee")
    assert sc.legal(state, 2) == ["p.corn", "p.fruit", "p.sugar", "p.tobacco", "p.quarry", "pass"]
    state = sc.act(state, 2, "p.quarry")
    state = sc.act(state, 3, "p.sugar")
    assert sc.invariant_failures(state) == []
    v = view(sc, state)
    assert v["quarries_left"] == 6
    assert field(sc, state, 0) == [("fruit", False), ("quarry", False)]
    assert field(sc, state, 1) == [("fruit", False), ("coffee", False)]
    assert field(sc, state, 2) == [("corn", False), ("quarry", False)]
    assert field(sc, state, 3) == [("corn", False), ("sugar", False)]
    assert v["property_discard"] == 3
    assert state.discard == [1, 1, 0, 1, 0]  # kernel order: corn, fruit, sugar, tobacco, coffee
    assert len(v["face_up"]) == 5 and v["property_bag"] == bag - 5
    assert sc.events_of("PropertiesRevealed")[-1].data["reshuffled"] is False
    assert sc.prompt(state) == role(1)


def test_T_PLN_2_a_quarry_without_advantage_or_builders_yard_is_rejected() -> None:
    """T-PLN-2, PLN-3: P2 has no Builder's Yard and asks for a quarry: rejected."""
    sc = Scenario1897(4)
    sc.face_up(["corn", "fruit", "sugar", "coffee", "tobacco"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.quarry")
    assert "p.quarry" not in sc.legal(state, 1)
    with pytest.raises(IllegalAction):
        sc.act(state, 1, "p.quarry")
    assert view(sc, state)["quarries_left"] == 7
    assert sc.prompt(state) == Prompt((1,), "plant", False)


def test_PLN_3_builders_yard_without_occupation_gives_no_quarry() -> None:
    """PLN-3, BLG-2: an unoccupied Builder's Yard gives no quarry option."""
    sc = Scenario1897(4)
    sc.player(1, buildings=["builders_yard"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    assert "p.quarry" not in sc.legal(state, 1)


def test_PLN_3_a_planter_with_a_builders_yard_still_takes_one_quarry() -> None:
    """PLN-3, PLN-1: the Planter owning an occupied Builder's Yard takes one quarry and his turn
    is over (no second quarry)."""
    sc = Scenario1897(4)
    sc.player(0, buildings={"builders_yard": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.quarry")
    assert sc.prompt(state) == Prompt((1,), "plant", False)
    with pytest.raises(NotYourTurn):
        sc.act(state, 0, "p.quarry")
    assert view(sc, state)["quarries_left"] == 7
    assert [t for t, _ in field(sc, state, 0)].count("quarry") == 1


def test_PLN_3_no_quarries_left_no_quarry_option() -> None:
    """PLN-3: with no quarries left the option disappears (for the Planter too)."""
    sc = Scenario1897(4)
    sc.set_quarries(0)
    sc.player(1, buildings={"builders_yard": 1})
    state = sc.choose("planter", 0)
    assert "p.quarry" not in sc.legal(state, 0)
    state = sc.act(state, 0, "pass")
    assert "p.quarry" not in sc.legal(state, 1)


def test_PLN_1_one_tile_each_and_declining_is_allowed() -> None:
    """PLN-1, PLN-4, RND-2: each player takes at most one tile (his turn ends with it) and may
    decline; the Planter declining keeps the coins of the tile and gets no tile."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    sc.role_doubloons("planter", 2)
    state = sc.choose("planter", 0)
    assert coins(sc, state)[0] == 2 + 2
    assert "pass" in sc.legal(state, 0)
    state = sc.act(state, 0, "pass")
    assert sc.invariant_failures(state) == []
    state = sc.act(state, 1, "p.coffee")
    assert sc.prompt(state) == Prompt((2,), "plant", False)  # P2's turn ended with one tile
    with pytest.raises(NotYourTurn):
        sc.act(state, 1, "p.corn")
    state = sc.act(state, 2, "pass")
    assert field(sc, state, 0) == [("fruit", False)]
    assert field(sc, state, 1) == [("fruit", False), ("coffee", False)]
    assert field(sc, state, 2) == [("corn", False)]
    assert view(sc, state)["quarries_left"] == 8
    assert view(sc, state)["property_discard"] == 3  # corn, fruit, sugar
    assert sc.invariant_failures(state) == []


def test_T_PLN_3_the_bag_runs_out_and_the_discard_is_recycled() -> None:
    """T-PLN-3, PLN-4, PLN-5, PLN-6 (A-40): 3 players; bag 2 tiles, discard 5; 2 tiles left on
    the market go to the discard (7); draw 2 from the bag, shuffle the 7 discards into the bag,
    draw 2 more: market 4, bag 5, discard 0."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    sc.stacks({"tobacco": 2}, {"corn": 3, "fruit": 2})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.coffee")
    state = sc.act(state, 1, "p.sugar")
    state = sc.act(state, 2, "pass")
    v = view(sc, state)
    assert len(v["face_up"]) == 4
    assert v["face_up"].count("tobacco") == 2  # the bag's two tiles were drawn first
    assert v["property_bag"] == 5 and v["property_discard"] == 0
    assert sc.events_of("PropertiesRevealed")[-1].data["reshuffled"] is True
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_PLN_6_bag_and_discard_empty_the_market_has_fewer_tiles() -> None:
    """PLN-6 (A-40): the bag holds 1 tile and the discard (after PLN-4) 1: the market gets only
    those 2 (3 players want 4)."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    sc.stacks({"tobacco": 1}, {"corn": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.corn")
    state = sc.act(state, 1, "p.sugar")
    state = sc.act(state, 2, "p.fruit")
    v = view(sc, state)
    assert sorted(v["face_up"]) == ["coffee", "corn", "tobacco"]
    assert v["property_bag"] == 0 and v["property_discard"] == 0
    assert sc.invariant_failures(state) == []


def test_PLN_6_empty_market_the_role_gives_coins_and_quarries_only() -> None:
    """PLN-6 (A-40), RND-2: no property anywhere: the Planter may still be chosen (its coins),
    he may take a quarry; the others (no Builder's Yard) get no tile choice."""
    sc = Scenario1897(3)
    sc.face_up([])
    sc.stacks({}, {})
    sc.role_doubloons("planter", 1)
    state = sc.choose("planter", 0)
    assert coins(sc, state)[0] == 2 + 1
    assert sc.legal(state, 0) == ["p.quarry", "pass"]
    state = sc.act(state, 0, "p.quarry")
    assert sc.prompt(state) == role(1)
    assert view(sc, state)["face_up"] == []
    assert sc.invariant_failures(state) == []


def test_T_PLN_4_a_full_field_gets_no_tile_choice() -> None:
    """T-PLN-4, PLN-2, CON-1: P2 has 12 field tiles: no tile choice (even with an occupied
    Builder's Yard); the phase continues with P3."""
    sc = Scenario1897(4)
    sc.face_up(["corn", "fruit", "sugar", "coffee", "tobacco"])
    sc.player(1, tiles={"corn": 6, "fruit": 3, "quarry": 3}, buildings={"builders_yard": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.corn")
    assert sc.legal(state, 1) == []
    assert sc.prompt(state) == Prompt((2,), "plant", False)
    state = sc.act(state, 2, "p.fruit")
    state = sc.act(state, 3, "pass")
    assert view(sc, state)["players"][1]["field_used"] == 12
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


# --- Recruiter (§3.4) ---------------------------------------------------------------------------


def test_T_REC_1_distribution_rulebook_example() -> None:
    """T-REC-1, REC-1: 4 players, Agency 6, P1 Recruiter takes the advantage: P1 1 (from the
    supply) + 2 = 3, P2 2, P3 1, P4 1; the Agency is emptied (then refilled, REC-4)."""
    sc = Scenario1897(4)
    sc.set_colonists(ship=6)
    supply = view(sc, sc.state)["workers"]["supply"]
    state = sc.choose("recruiter", 0)
    assert sc.prompt(state) == Prompt((0,), "recruiter_advantage", False)
    assert sc.legal(state, 0) == ["w.advantage", "pass"]
    state = sc.act(state, 0, "w.advantage")
    assert sc.invariant_failures(state) == []
    assert [p["workers"] for p in view(sc, state)["players"]] == [3, 2, 1, 1]
    assert sc.events_of("WorkerGained")[0].data == {
        "target": "portrait",
        "source": "supply",
        "by": "recruiter",
        "count": 1,
    }
    assert sc.events_of("WorkersDistributed")[-1].data == {"shares_from_recruiter": [2, 2, 1, 1]}
    # each has one space (the starting property): the rest wait on the portrait
    assert [p["portrait"] for p in view(sc, state)["players"]] == [2, 1, 0, 0]
    # all 6 left the Agency; the refill (E = 0 -> N = 4) came from the supply
    assert sc.events_of("AgencyRefilled")[-1].data == {"count": 4, "needed": 4}
    assert view(sc, state)["workers"] == {"agency": 4, "supply": supply - 1 - 4}
    assert sc.prompt(state) == role(1)


def test_T_REC_2_three_players_agency_of_eight() -> None:
    """T-REC-2, REC-1: 3 players, Agency 8, P1 Recruiter (advantage): P1 1 + 3 = 4, P2 3,
    P3 2."""
    sc = Scenario1897(3)
    sc.set_colonists(ship=8)
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "w.advantage")
    assert [p["workers"] for p in view(sc, state)["players"]] == [4, 3, 2]
    assert sc.events_of("WorkersDistributed")[-1].data == {"shares_from_recruiter": [3, 3, 2]}
    assert sc.invariant_failures(state) == []


def test_REC_1_no_advantage_from_an_empty_supply() -> None:
    """REC-1, REC-5: the supply is empty: no advantage (not even offered); the Agency's 4 are
    distributed 1 each; the refill cannot be made: END-T1."""
    sc = Scenario1897(4)
    sc.set_colonists(supply=0, ship=4)
    state = sc.choose("recruiter", 0)
    assert sc.events_of("WorkerGained") == []
    assert [p["workers"] for p in view(sc, state)["players"]] == [1, 1, 1, 1]
    assert view(sc, state)["workers"] == {"agency": 0, "supply": 0}
    assert view(sc, state)["end_triggered"] == ["workers"]
    assert sc.invariant_failures(state) == []


def _refill(empty: dict[int, list[str]], supply: int) -> tuple[Scenario1897, State]:
    """4 players, an empty Agency, these unoccupied buildings; the Recruiter (seat 0) declines
    his advantage, so nobody places a worker: E = the buildings' spaces."""
    sc = Scenario1897(4)
    sc.set_colonists(supply=supply, ship=0)
    for seat, names in empty.items():
        sc.player(seat, buildings=names)
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "pass")
    return sc, state


def test_T_REC_3_refill_at_least_n() -> None:
    """T-REC-3, REC-4: E = 2 empty building spaces (and 4 empty properties, which do not
    count), supply 30: the Agency gets max(2, 4) = 4."""
    sc, state = _refill({1: ["small_market"], 3: ["hacienda"]}, 30)
    assert view(sc, state)["workers"] == {"agency": 4, "supply": 26}
    assert sc.events_of("AgencyRefilled")[-1].data == {"count": 4, "needed": 4}
    assert not state.over and view(sc, state)["end_triggered"] == []
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_T_REC_4_worker_shortage_ends_the_game_after_the_phase() -> None:
    """T-REC-4, REC-4, REC-5, END-T1, END-2: E = 7, supply 5: the Agency gets the 5, END-T1
    fires and the game ends after this phase (no further roles, no round coins)."""
    sc, state = _refill({0: ["large_sugar_mill", "large_tobacco_storage", "small_market"]}, 5)
    assert sc.events_of("AgencyRefilled")[-1].data == {"count": 5, "needed": 7}
    v = view(sc, state)
    assert v["workers"] == {"agency": 5, "supply": 0}
    assert v["end_triggered"] == ["workers"]
    assert state.over and v["game_over"] is True
    assert sc.prompt(state) is None
    assert sc.events_of("RoundEnded") == []
    assert [r["coins"] for r in v["roles"]] == [0] * 7
    outcome = sc.game.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("workers",)
    assert sc.invariant_failures(state) == []


def test_T_REC_5_exactly_enough_is_no_trigger() -> None:
    """T-REC-5, REC-5: E = 7, supply 7: the Agency gets 7, no trigger; play goes on."""
    sc, state = _refill({0: ["large_sugar_mill", "large_tobacco_storage", "small_market"]}, 7)
    v = view(sc, state)
    assert v["workers"] == {"agency": 7, "supply": 0}
    assert v["end_triggered"] == [] and not state.over
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_T_REC_6_surplus_worker_waits_on_the_portrait() -> None:
    """T-REC-6, REC-2, CON-4: 3 workers and only 2 empty spaces: 2 placed, 1 on the portrait
    (no choice, so no prompt)."""
    sc = Scenario1897(4)
    sc.set_colonists(ship=4)
    sc.player(1, tiles={"sugar": 1}, buildings={"small_sugar_mill": 0}, san_juan=2)
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "pass")
    assert sc.prompt(state) == role(1)
    p = view(sc, state)["players"][1]
    assert p["workers"] == 3 and p["portrait"] == 1
    assert field(sc, state, 1) == [("sugar", True)]
    assert p["city"][0]["workers"] == 1
    assert sc.invariant_failures(state) == []


def test_T_REC_6_keeping_a_worker_on_the_portrait_with_an_empty_space_is_rejected() -> None:
    """T-REC-6, REC-2, CON-4: 2 workers, 4 empty spaces: each worker must be placed; stopping
    with one on the portrait (``pass``) is rejected."""
    sc = Scenario1897(4)
    sc.set_colonists(ship=4)
    sc.player(
        1, tiles={"corn": 1, "fruit": 1, "sugar": 1}, buildings={"small_fruit_depot": 0}, san_juan=1
    )
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "pass")
    assert sc.prompt(state) == Prompt((1,), "arrange", False)
    assert sc.legal(state, 1) == ["w.auto", "w.corn", "w.fruit", "w.sugar", "w.small_fruit_depot"]
    state = sc.act(state, 1, "w.fruit")
    assert "pass" not in sc.legal(state, 1)
    with pytest.raises(IllegalAction):
        sc.act(state, 1, "pass")
    state = sc.act(state, 1, "w.small_fruit_depot")
    p = view(sc, state)["players"][1]
    assert p["portrait"] == 0 and p["workers"] == 2
    assert field(sc, state, 1) == [("corn", False), ("fruit", True), ("sugar", False)]
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_REC_2_placed_workers_may_be_moved() -> None:
    """REC-2: in the Recruiter phase a worker already placed may be moved: the Recruiter's Corn
    worker and his advantage worker end on the Fruit property and the Small Market."""
    sc = Scenario1897(4)
    sc.set_colonists(ship=0)
    sc.player(0, tiles={"corn": (1, 1), "fruit": 1}, buildings={"small_market": 0})
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "w.advantage")
    assert sc.prompt(state) == Prompt((0,), "arrange", False)
    assert "w.corn" in sc.legal(state, 0)
    state = sc.act(state, 0, "w.fruit")
    state = sc.act(state, 0, "w.small_market")
    assert field(sc, state, 0) == [("corn", False), ("fruit", True)]
    assert view(sc, state)["players"][0]["city"][0]["workers"] == 1
    assert sc.invariant_failures(state) == []


def _three_choosers(**options: Any) -> tuple[Scenario1897, State]:
    """4 players; seats 0, 1 and 3 each get 1 worker for 4 spaces (a real choice)."""
    sc = Scenario1897(4, **options)
    sc.set_colonists(ship=4)
    for seat in (0, 1, 3):
        sc.player(seat, tiles={"coffee": 1, "corn": 1}, buildings={"large_coffee_roaster": 0})
    state = sc.choose("recruiter", 0)
    return sc, sc.act(state, 0, "pass")


def test_REC_2_placement_is_simultaneous_by_default() -> None:
    """REC-2: placement is simultaneous: every player with a choice is asked at once and may
    answer in any order; a player without a choice (seat 2) was placed automatically."""
    sc, state = _three_choosers()
    assert sc.prompt(state) == Prompt((0, 1, 3), "arrange", False)
    assert field(sc, state, 2) == [("corn", True)]
    state = sc.act(state, 3, "w.coffee")
    state = sc.act(state, 1, "w.large_coffee_roaster")
    assert sc.prompt(state) == Prompt((0,), "arrange", False)
    state = sc.act(state, 0, "w.corn")
    assert sc.prompt(state) == role(1)
    assert field(sc, state, 3) == [("corn", False), ("coffee", True)]
    assert sc.invariant_failures(state) == []


def test_REC_2_placement_clockwise_from_the_recruiter_on_request() -> None:
    """REC-2 (option ``recruiter_placement: sequential``): the Recruiter places first, then
    clockwise; a later player cannot place early."""
    sc, state = _three_choosers(recruiter_placement="sequential")
    assert sc.prompt(state) == Prompt((0,), "arrange", False)
    assert sc.legal(state, 1) == []
    with pytest.raises(NotYourTurn):
        sc.act(state, 1, "w.coffee")
    state = sc.act(state, 0, "w.coffee")
    assert sc.prompt(state) == Prompt((1,), "arrange", False)
    state = sc.act(state, 1, "w.coffee")
    assert sc.prompt(state) == Prompt((3,), "arrange", False)
    state = sc.act(state, 3, "w.coffee")
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_REC_3_workers_are_not_placed_outside_the_recruiter_phase() -> None:
    """REC-3, CON-4: a worker on the portrait stays there when its owner gains a property in
    the Planter phase (no Hospital)."""
    sc = Scenario1897(4)
    sc.face_up(["corn", "fruit", "sugar", "coffee", "tobacco"])
    sc.player(1, san_juan=1)
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    assert all(not code.startswith("w.") for code in sc.legal(state, 1))
    state = sc.act(state, 1, "p.coffee")
    assert field(sc, state, 1) == [("fruit", False), ("coffee", False)]
    assert view(sc, state)["players"][1]["portrait"] == 1
    assert sc.invariant_failures(state) == []


# --- Builder (§3.5) -----------------------------------------------------------------------------


def _price(name: str, *, builder: bool, quarries: int = 3, occupied: int | None = None) -> int:
    """What seat 1 pays for ``name`` with ``quarries`` quarries (``occupied`` of them occupied,
    all by default), as the Builder or after the Builder (seat 0) passed."""
    sc = Scenario1897(4)
    manned = quarries if occupied is None else occupied
    sc.player(1, doubloons=20, tiles={"quarry": (quarries, manned)})
    state = sc.choose("builder", 1 if builder else 0)
    if not builder:
        state = sc.act(state, 0, "pass")
    assert f"b.{name}" in sc.legal(state, 1)
    state = sc.act(state, 1, f"b.{name}")
    price = 20 - coins(sc, state)[1]
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": name, "price": price}
    assert sc.invariant_failures(state) == []
    return price


@pytest.mark.parametrize(
    ("tid", "name", "price"),
    [
        ("T-BLD-1", "builders_yard", 1),
        ("T-BLD-2", "office", 3),
        ("T-BLD-3", "harbor", 5),
        ("T-BLD-4", "city_hall", 7),
    ],
)
def test_T_BLD_1_to_4_quarry_discount_capped_by_level(tid: str, name: str, price: int) -> None:
    """T-BLD-1..4, BLD-4 (rulebook example): 3 occupied quarries, not the Builder: Builder's
    Yard 2 -> 1, Office 5 -> 3, Harbor 8 -> 5, City Hall 10 -> 7 (cap = the building's level,
    expanded 4)."""
    assert _price(name, builder=False) == price, tid


def test_T_BLD_5_the_builder_buys_the_office() -> None:
    """T-BLD-5, BLD-4: the same player as the Builder: Office 5 - 1 - 2 = 2."""
    assert _price("office", builder=True) == 2


@pytest.mark.parametrize(
    ("name", "quarries", "price"),
    [("small_market", 5, 0), ("large_market", 5, 3), ("factory", 5, 4), ("city_hall", 5, 6)],
)
def test_BLD_4_quarry_cap_is_the_level(name: str, quarries: int, price: int) -> None:
    """BLD-4, BLG-4: 5 occupied quarries, not the Builder: at most -1 / -2 / -3 for 1- / 2- /
    3-VP buildings, -4 for an expanded building: Small Market 1 -> 0, Large Market 5 -> 3,
    Factory 7 -> 4, City Hall 10 -> 6."""
    assert _price(name, builder=False, quarries=quarries) == price


def test_BLD_4_only_occupied_quarries_count() -> None:
    """BLD-4, CON-3: 3 quarries of which 1 occupied: Office 5 - 1 = 4."""
    assert _price("office", builder=False, occupied=1) == 4


def test_T_BLD_6_price_floor_zero_and_no_coins_back() -> None:
    """T-BLD-6, BLD-4: the Builder with 0 coins and 4 occupied quarries buys the Small Market
    (cost 1, cap 1): 1 - 1 - 1 = -1 -> 0: pays 0, receives nothing."""
    sc = Scenario1897(4)
    sc.player(0, doubloons=0, tiles={"quarry": (4, 4)})
    state = sc.choose("builder", 0)
    assert "b.small_market" in sc.legal(state, 0)
    assert "b.small_warehouse" not in sc.legal(state, 0)  # 3 - 1 - 1 = 1 > 0 coins
    state = sc.act(state, 0, "b.small_market")
    assert coins(sc, state)[0] == 0
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "small_market", "price": 0}
    assert sc.events_of("CoinsEarned") == []
    assert sc.invariant_failures(state) == []


def test_BLD_4_the_builder_building_nothing_receives_nothing() -> None:
    """BLD-4, RND-2: the Builder who builds nothing gets only the coins on the tile."""
    sc = Scenario1897(4)
    sc.role_doubloons("builder", 1)
    state = sc.choose("builder", 0)
    assert coins(sc, state)[0] == 3 + 1
    state = sc.act(state, 0, "pass")
    assert coins(sc, state)[0] == 4
    assert sc.invariant_failures(state) == []


def test_BLD_1_pay_to_the_bank_take_from_the_tray_no_stock_no_build() -> None:
    """BLD-1: the price goes to the bank, the tile leaves the tray stock (2 -> 1 -> 0); with no
    stock left the type cannot be built."""
    sc = Scenario1897(4)
    for seat in range(4):
        sc.player(seat, doubloons=5)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.hospital")  # 4 - 1 = 3
    state = sc.act(state, 1, "b.hospital")  # 4
    assert coins(sc, state)[:2] == [2, 1]
    left = {m["building"]: m["left"] for m in view(sc, state)["market"]}
    assert left["hospital"] == 0
    assert "b.hospital" not in sc.legal(state, 2)
    with pytest.raises(IllegalAction):
        sc.act(state, 2, "b.hospital")
    assert [b["building"] for b in view(sc, state)["players"][0]["city"]] == ["hospital"]
    assert view(sc, state)["players"][0]["city"][0]["workers"] == 0  # new buildings: empty
    assert sc.invariant_failures(state) == []


def test_BLD_2_one_copy_of_each_type() -> None:
    """BLD-2, CON-8: a player may not build a type he already owns."""
    sc = Scenario1897(4)
    sc.player(0, doubloons=10, buildings=["office"])
    state = sc.choose("builder", 0)
    assert "b.office" not in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "b.office")
    assert err.value.code == "already_owned"


ELEVEN = [
    "small_market",
    "hacienda",
    "builders_yard",
    "small_warehouse",
    "hospital",
    "office",
    "large_market",
    "large_warehouse",
    "factory",
    "school",
    "harbor",
]


def test_T_BLD_7_no_expanded_building_in_the_last_space() -> None:
    """T-BLD-7, BLD-3, CON-2: a player with 11 used spaces may not build an expanded building
    (2 spaces); a common one still fits."""
    sc = Scenario1897(4)
    sc.player(1, doubloons=20, buildings=ELEVEN)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    codes = sc.legal(state, 1)
    assert "b.wharf" in codes
    assert not any(
        f"b.{b}" in codes
        for b in ("fire_station", "residence", "fortress", "customs_house", "city_hall")
    )
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "b.city_hall")
    assert err.value.code == "no_city_space"


def test_BLD_3_an_expanded_building_uses_two_spaces() -> None:
    """BLD-3, CON-2: 10 used spaces + an expanded building = 12 (which fills the town,
    BLD-5)."""
    sc = Scenario1897(4)
    sc.player(1, doubloons=20, buildings=ELEVEN[:10])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.residence")
    assert view(sc, state)["players"][1]["city_used"] == 12
    assert view(sc, state)["end_triggered"] == ["city_full"]
    assert sc.invariant_failures(state) == []


def test_T_BLD_8_full_town_the_others_still_build_then_game_over() -> None:
    """T-BLD-8, BLD-5, END-T2, END-2: P2 (of 4) fills his 12th space; P3 and P4 still build;
    then the game is over: no further roles, no round coins."""
    sc = Scenario1897(4)
    sc.player(1, buildings=ELEVEN, doubloons=10)
    sc.player(2, doubloons=10)
    sc.player(3, doubloons=10)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.wharf")
    assert view(sc, state)["end_triggered"] == ["city_full"] and not state.over
    assert sc.prompt(state) == Prompt((2,), "build", False)
    state = sc.act(state, 2, "b.small_fruit_depot")
    assert sc.prompt(state) == Prompt((3,), "build", False)
    state = sc.act(state, 3, "b.large_market")
    assert state.over and sc.prompt(state) is None
    assert coins(sc, state)[1:] == [1, 9, 5]
    assert sc.events_of("RoundEnded") == []
    assert [r["coins"] for r in view(sc, state)["roles"]] == [0] * 7
    outcome = sc.game.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("city_full",)
    assert sc.invariant_failures(state) == []


# --- Craftsman (§3.6) ---------------------------------------------------------------------------


def test_T_CRF_1_rulebook_example() -> None:
    """T-CRF-1, CRF-1, CRF-2, A-28: 3 Corn properties (2 occupied); 2 occupied Tobacco
    properties with a Large Tobacco Storage 1 of 3 occupied; 4 Sugar properties (3 occupied)
    with 3+1 occupied Sugar-mill spaces: 2 Corn, 1 Tobacco, 3 Sugar."""
    sc = Scenario1897(4)
    sc.player(
        1,
        tiles={"corn": (3, 2), "tobacco": (2, 2), "sugar": (4, 3)},
        buildings={"large_tobacco_storage": 1, "large_sugar_mill": 3, "small_sugar_mill": 1},
    )
    supply = view(sc, sc.state)["goods_supply"]
    state = sc.choose("craftsman", 0)  # the Craftsman (unoccupied Fruit) produces nothing
    assert sc.prompt(state) == Prompt((1,), "produce", False)
    assert sc.legal(state, 1) == ["produce", "pass"]
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 1) == held(corn=2, sugar=3, tobacco=1)
    assert sc.events_of("GoodsProduced")[-1].data == {
        "goods": {"corn": 2, "sugar": 3, "tobacco": 1}
    }
    after = view(sc, state)["goods_supply"]
    assert after == {
        **supply,
        "corn": supply["corn"] - 2,
        "sugar": supply["sugar"] - 3,
        "tobacco": supply["tobacco"] - 1,
    }
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_CRF_2_small_and_large_buildings_add_up_and_fruit_needs_a_building() -> None:
    """CRF-2, CRF-1: 3 occupied Sugar properties with a Small Sugar Mill (1) and a Large Sugar
    Mill with 1 of 3 occupied: 2 Sugar; occupied Fruit with no Fruit building: none; an
    unoccupied Corn property: none."""
    sc = Scenario1897(3)
    sc.player(
        0,
        tiles={"sugar": (3, 3), "fruit": (2, 2), "corn": (1, 0)},
        buildings={"small_sugar_mill": 1, "large_sugar_mill": 1},
    )
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert sc.events_of("GoodsProduced")[-1].data == {"goods": {"sugar": 2}}
    assert goods(sc, state, 0) == held(sugar=2)
    assert sc.invariant_failures(state) == []


def test_T_CRF_2_advantage_only_of_a_produced_type_still_in_supply() -> None:
    """T-CRF-2, CRF-4: the Craftsman produces 2 Sugar and 1 Tobacco; afterwards the supply has
    Sugar 0 and Tobacco 3: the advantage may only be Tobacco."""
    sc = Scenario1897(4)
    sc.player(
        0,
        tiles={"sugar": (2, 2), "tobacco": (1, 1)},
        buildings={"large_tobacco_storage": 1, "large_sugar_mill": 2},
    )
    sc.set_goods_supply(sugar=2, tobacco=4)
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert view(sc, state)["goods_supply"]["sugar"] == 0
    assert view(sc, state)["goods_supply"]["tobacco"] == 3
    assert sc.prompt(state) == Prompt((0,), "craftsman_advantage", False)
    assert sc.legal(state, 0) == ["c.tobacco", "pass"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "c.sugar")
    assert err.value.code == "privilege_good_not_available"
    with pytest.raises(IllegalAction):
        sc.act(state, 0, "c.corn")  # not produced this phase
    state = sc.act(state, 0, "c.tobacco")
    assert goods(sc, state, 0) == held(sugar=2, tobacco=2)
    assert view(sc, state)["goods_supply"]["tobacco"] == 2
    assert sc.events_of("AdvantageGoodTaken")[-1].data == {"good": "tobacco"}
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_T_CRF_3_shortage_hurts_later_players() -> None:
    """T-CRF-3, CRF-3, CRF-4: supply 3 Sugar; P1 (Craftsman) and P2 can each make 2: P1 gets 2,
    P2 1, supply 0; P1's advantage cannot be Sugar (he produced nothing else: no advantage)."""
    sc = Scenario1897(3)
    sc.player(0, tiles={"sugar": (2, 2)}, buildings={"large_sugar_mill": 2})
    sc.player(1, tiles={"sugar": (2, 2)}, buildings={"large_sugar_mill": 2})
    sc.set_goods_supply(sugar=3)
    state = sc.choose("craftsman", 0)
    assert sc.prompt(state) == Prompt((0,), "produce", False)
    state = sc.act(state, 0, "produce")
    assert sc.prompt(state) == Prompt((1,), "produce", False)
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 0) == held(sugar=2)
    assert goods(sc, state, 1) == held(sugar=1)
    assert view(sc, state)["goods_supply"]["sugar"] == 0
    assert sc.events_of("AdvantageGoodTaken") == []
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_CRF_4_advantage_after_all_players_produced() -> None:
    """CRF-4: the advantage is taken after all players have produced: with 3 Sugar in supply
    the Craftsman (2 Sugar, 1 Corn) is asked for it only after P2 took the last Sugar, so it
    can only be Corn."""
    sc = Scenario1897(3)
    sc.player(0, tiles={"sugar": (2, 2), "corn": (1, 1)}, buildings={"large_sugar_mill": 2})
    sc.player(1, tiles={"sugar": (1, 1)}, buildings={"small_sugar_mill": 1})
    sc.set_goods_supply(sugar=3)
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert sc.prompt(state) == Prompt((1,), "produce", False)
    state = sc.act(state, 1, "produce")
    assert sc.prompt(state) == Prompt((0,), "craftsman_advantage", False)
    assert sc.legal(state, 0) == ["c.corn", "pass"]
    assert sc.invariant_failures(state) == []


def test_CRF_4_no_production_no_advantage() -> None:
    """CRF-4: the Craftsman produces nothing (others do): no advantage, no prompt for it."""
    sc = Scenario1897(3)
    sc.player(1, tiles={"corn": (2, 2)})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 1) == held(corn=2)
    assert goods(sc, state, 0) == held()
    assert sc.events_of("AdvantageGoodTaken") == []
    assert sc.prompt(state) == role(1)


def test_CRF_3_declined_production_leaves_the_crates_and_gives_no_advantage() -> None:
    """CRF-3 (A-28), CRF-4: the Craftsman declines his whole production (2 Corn): the 2 Corn in
    the supply go to P2; the Craftsman produced nothing: no advantage crate."""
    sc = Scenario1897(3)
    sc.player(0, tiles={"corn": (2, 2)})
    sc.player(1, tiles={"corn": (2, 2)})
    sc.set_goods_supply(corn=2)
    state = sc.choose("craftsman", 0)
    assert sc.legal(state, 0) == ["produce", "pass"]
    state = sc.act(state, 0, "pass")
    assert sc.prompt(state) == Prompt((1,), "produce", False)
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 0) == held()
    assert goods(sc, state, 1) == held(corn=2)
    assert sc.events_of("AdvantageGoodTaken") == []
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_T_CRF_4_factory_three_types() -> None:
    """T-CRF-4, B-15: the Factory owner produces 3 Corn, 1 Coffee, 2 Fruit: 3 types, +2
    coins."""
    sc = Scenario1897(4)
    sc.player(
        1,
        doubloons=0,
        tiles={"corn": (3, 3), "coffee": (1, 1), "fruit": (2, 2)},
        buildings={"factory": 1, "large_coffee_roaster": 1, "large_fruit_depot": 2},
    )
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 1) == held(corn=3, fruit=2, coffee=1)
    assert coins(sc, state)[1] == 2
    assert [e.data for e in sc.events_of("CoinsEarned")] == [{"amount": 2, "reason": "factory"}]
    assert sc.invariant_failures(state) == []


# --- Trader (§3.7) ------------------------------------------------------------------------------


def test_T_TRD_1_small_market_corn_rulebook_example() -> None:
    """T-TRD-1, TRD-4, B-7: the Trader with an occupied Small Market sells Corn: 0 + 1 + 1 =
    2 coins."""
    sc = Scenario1897(4)
    sc.player(0, doubloons=0, goods={"corn": 1}, buildings={"small_market": 1})
    state = sc.choose("trader", 0)
    assert sc.prompt(state) == Prompt((0,), "sell", False)
    state = sc.act(state, 0, "t.corn")
    assert coins(sc, state)[0] == 2
    assert sc.events_of("GoodSold")[-1].data == {"good": "corn", "price": 2}
    assert view(sc, state)["trading_house"] == ["corn"]
    assert sc.invariant_failures(state) == []


def test_T_TRD_2_both_markets_and_advantage() -> None:
    """T-TRD-2, B-7, B-13: the Trader with occupied Small and Large Market sells Coffee: 4 + 1
    + 2 + 1 = 8."""
    sc = Scenario1897(4)
    sc.player(0, doubloons=0, goods={"coffee": 1}, buildings={"small_market": 1, "large_market": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.coffee")
    assert coins(sc, state)[0] == 8
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("good", "price"), [("corn", 0), ("fruit", 1), ("sugar", 2), ("tobacco", 3), ("coffee", 4)]
)
def test_TRD_prices(good: str, price: int) -> None:
    """§3.7 prices (A-35), TRD-4: a non-Trader without markets sells for Corn 0, Fruit 1,
    Sugar 2, Tobacco 3, Coffee 4 (Corn for 0 is a legal sale)."""
    sc = Scenario1897(3)
    sc.player(1, doubloons=0, goods={good: 1})
    state = sc.choose("trader", 0)
    assert sc.legal(state, 1) == [f"t.{good}", "pass"]
    state = sc.act(state, 1, f"t.{good}")
    assert coins(sc, state)[1] == price
    assert view(sc, state)["trading_house"] == [good]
    assert goods(sc, state, 1) == held()
    assert sc.invariant_failures(state) == []


def test_TRD_4_corn_for_0_still_earns_the_advantage() -> None:
    """TRD-4, §3.7 advantage: the Trader selling Corn gets 0 + 1; a Trader who does not sell
    gets nothing."""
    sc = Scenario1897(3)
    sc.player(0, doubloons=0, goods={"corn": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.corn")
    assert coins(sc, state)[0] == 1
    sc = Scenario1897(3)
    sc.player(0, doubloons=0, goods={"corn": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "pass")
    assert coins(sc, state)[0] == 0 and goods(sc, state, 0) == held(corn=1)


def test_T_TRD_3_no_duplicate_without_an_occupied_office() -> None:
    """T-TRD-3, TRD-1, B-12: the house holds Sugar; a player without an Office may not sell
    Sugar; with an occupied Office he may (an unoccupied one does not help)."""
    for office, allowed in ((None, False), (0, False), (1, True)):
        sc = Scenario1897(4)
        sc.house(["sugar"])
        buildings = {} if office is None else {"office": office}
        sc.player(1, doubloons=0, goods={"sugar": 1}, buildings=buildings)
        state = sc.choose("trader", 0)
        assert ("t.sugar" in sc.legal(state, 1)) is allowed
        if allowed:
            state = sc.act(state, 1, "t.sugar")
            assert view(sc, state)["trading_house"] == ["sugar", "sugar"]
            assert coins(sc, state)[1] == 2
            assert sc.invariant_failures(state) == []
        else:  # nobody can sell: P2 is skipped and the phase is over
            assert sc.prompt(state) == role(1)
            assert goods(sc, state, 1) == held(sugar=1)
            assert view(sc, state)["trading_house"] == ["sugar"]


def test_TRD_1_two_office_owners_each_add_a_duplicate() -> None:
    """TRD-1, B-12: the house holds Tobacco; two occupied Office owners each sell Tobacco."""
    sc = Scenario1897(4)
    sc.house(["tobacco"])
    sc.player(1, doubloons=0, goods={"tobacco": 1}, buildings={"office": 1})
    sc.player(2, doubloons=0, goods={"tobacco": 1}, buildings={"office": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 1, "t.tobacco")
    state = sc.act(state, 2, "t.tobacco")
    assert view(sc, state)["trading_house"] == ["tobacco"] * 3
    assert coins(sc, state)[1:3] == [3, 3]
    assert sc.invariant_failures(state) == []


def test_T_TRD_4_the_fourth_crate_skips_the_rest_and_empties_the_house() -> None:
    """T-TRD-4, TRD-2, TRD-3 (A-38): the house has 3 crates; P1 (Trader) sells the 4th; P2, P3
    (with goods they could sell) lose their turn; at the phase end all 4 crates return to the
    supply."""
    sc = Scenario1897(3)
    sc.house(["corn", "fruit", "sugar"])
    sc.player(0, doubloons=0, goods={"coffee": 1})
    sc.player(1, doubloons=0, goods={"tobacco": 1})
    sc.player(2, doubloons=0, goods={"tobacco": 1})
    supply = view(sc, sc.state)["goods_supply"]
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.coffee")
    assert coins(sc, state) == [5, 0, 0]
    assert sc.prompt(state) == role(1)
    assert goods(sc, state, 1) == held(tobacco=1) and goods(sc, state, 2) == held(tobacco=1)
    v = view(sc, state)
    assert v["trading_house"] == []
    assert v["goods_supply"] == {
        "corn": supply["corn"] + 1,
        "fruit": supply["fruit"] + 1,
        "sugar": supply["sugar"] + 1,
        "tobacco": supply["tobacco"],
        "coffee": supply["coffee"] + 1,
    }
    assert len(sc.events_of("TradingHouseEmptied")) == 1
    assert sc.invariant_failures(state) == []


def test_T_TRD_5_a_house_not_full_keeps_its_crates() -> None:
    """T-TRD-5, TRD-3: 2 crates in the house at the phase end: they stay for the next Trader
    phase (where their types stay blocked)."""
    sc = Scenario1897(3)
    sc.player(0, goods={"sugar": 2})
    sc.player(1, goods={"tobacco": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.sugar")
    state = sc.act(state, 1, "t.tobacco")
    assert sc.prompt(state) == role(1)
    assert view(sc, state)["trading_house"] == ["sugar", "tobacco"]
    assert sc.events_of("TradingHouseEmptied") == []
    state = sc.choose("trader", 0)
    assert sc.legal(state, 0) == []  # his Sugar is still blocked
    assert sc.invariant_failures(state) == []


# --- Captain (§3.8) -----------------------------------------------------------------------------


def test_T_CAP_1_rulebook_example_step_by_step() -> None:
    """T-CAP-1, CAP-1, CAP-2, CAP-3, CAP-4, CAP-5, CAP-6, B-10: 4 players; ships 5 (empty),
    6 (3 Corn), 7 (empty); Aglaé is the Captain.  Loading, the advantage (once), storing with
    Diego's occupied Small Warehouse, and emptying the full ships 6 and 7 (ship 5 keeps its 4
    Tobacco)."""
    sc = Scenario1897(4)
    aglae, renato, mariana, diego = range(4)
    sc.player(aglae, goods={"corn": 2, "sugar": 6})
    sc.player(renato, goods={"sugar": 2, "tobacco": 3})
    sc.player(mariana, goods={"corn": 2, "tobacco": 1})
    sc.player(diego, goods={"corn": 1, "fruit": 5}, buildings={"small_warehouse": 1})
    sc.ships([(5, None, 0), (6, "corn", 3), (7, None, 0)])
    supply = view(sc, sc.state)["goods_supply"]
    assert supply == {
        "corn": 10 - 5 - 3,
        "fruit": 11 - 5,
        "sugar": 11 - 8,
        "tobacco": 9 - 4,
        "coffee": 9,
    }
    state = sc.choose("captain", aglae)
    # step 1: Aglaé, 2 Corn and 6 Sugar: she may choose either type (CAP-2); Sugar only on
    # ship 7 (ship 5 would take fewer)
    assert sc.prompt(state) == Prompt((aglae,), "ship", False)
    assert sc.legal(state, aglae) == ["ship.corn.1", "ship.sugar.2"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, aglae, "ship.sugar.0")
    assert err.value.code == "ship_not_allowed"
    state = sc.act(state, aglae, "ship.sugar.2")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "sugar", "count": 6, "ship": 2}
    assert state.players[aglae].vp == 6 + 1  # + the Captain's advantage
    assert sc.invariant_failures(state) == []
    # step 2: Renato, 2 Sugar + 3 Tobacco: 1 Sugar fills ship 7
    assert sc.legal(state, renato) == ["ship.sugar.2", "ship.tobacco.0"]
    state = sc.act(state, renato, "ship.sugar.2")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "sugar", "count": 1, "ship": 2}
    assert view(sc, state)["ships"][2] == {"capacity": 7, "good": "sugar", "count": 7}
    assert state.players[renato].vp == 1
    assert sc.invariant_failures(state) == []
    # step 3: Mariana, 2 Corn + 1 Tobacco: 1 Tobacco on ship 5
    assert sc.legal(state, mariana) == ["ship.corn.1", "ship.tobacco.0"]
    state = sc.act(state, mariana, "ship.tobacco.0")
    assert state.players[mariana].vp == 1
    assert sc.invariant_failures(state) == []
    # step 4: Diego, 1 Corn + 5 Fruit: Fruit fits nowhere (no empty ship): must load the Corn
    assert sc.prompt(state) == Prompt((diego,), "ship", True)
    assert sc.legal(state, diego) == ["ship.corn.1"]
    state = sc.act(state, diego, "ship.corn.1")
    assert view(sc, state)["ships"][1] == {"capacity": 6, "good": "corn", "count": 4}
    assert state.players[diego].vp == 1
    assert sc.invariant_failures(state) == []
    # step 5: Aglaé, 2 Corn: fills ship 6; no second advantage
    assert sc.prompt(state) == Prompt((aglae,), "ship", True)
    state = sc.act(state, aglae, "ship.corn.1")
    assert state.players[aglae].vp == 7 + 2
    assert sc.invariant_failures(state) == []
    # step 6: Renato, 1 Sugar + 3 Tobacco: Sugar's ship is full; 3 Tobacco on ship 5 (4/5)
    assert sc.prompt(state) == Prompt((renato,), "ship", True)
    assert sc.legal(state, renato) == ["ship.tobacco.0"]
    state = sc.act(state, renato, "ship.tobacco.0")
    assert state.players[renato].vp == 1 + 3
    # step 7: nobody can load (Mariana's Corn and Diego's Fruit have no ship, Aglaé has
    # nothing, Renato's Sugar ship is full): loading ends; storing needs no choice
    assert sc.prompt(state) == role(renato)
    assert vps(state) == [9, 4, 1, 1]
    assert view(sc, state)["vp_tokens_left"] == 100 - 15
    assert [(e.seat, e.data["amount"]) for e in sc.events_of("VpEarned")] == [
        (aglae, 7),
        (renato, 1),
        (mariana, 1),
        (diego, 1),
        (aglae, 2),
        (renato, 3),
    ]
    # store: Aglaé 0, Renato keeps 1 Sugar, Mariana keeps 1 Corn and returns 1, Diego (Small
    # Warehouse) keeps all 5 Fruit
    assert goods(sc, state, aglae) == held()
    assert goods(sc, state, renato) == held(sugar=1)
    assert goods(sc, state, mariana) == held(corn=1)
    assert goods(sc, state, diego) == held(fruit=5)
    assert [(e.seat, e.data) for e in sc.events_of("GoodsDiscarded")] == [
        (mariana, {"goods": {"corn": 1}})
    ]
    # ships 6 and 7 are emptied; ship 5 keeps its 4 Tobacco
    assert sc.events_of("ShipsEmptied")[-1].data == {"ships": [1, 2]}
    assert view(sc, state)["ships"] == [
        {"capacity": 5, "good": "tobacco", "count": 4},
        {"capacity": 6, "good": None, "count": 0},
        {"capacity": 7, "good": None, "count": 0},
    ]
    assert view(sc, state)["goods_supply"] == {
        "corn": supply["corn"] + 6 + 1,
        "fruit": supply["fruit"],
        "sugar": supply["sugar"] + 7,
        "tobacco": supply["tobacco"],
        "coffee": supply["coffee"],
    }
    assert sc.invariant_failures(state) == []


def test_T_CAP_2_the_ship_that_takes_the_most() -> None:
    """T-CAP-2, CAP-2: ships 5/6/7 empty, 7 Sugar: only ship 7 (loads 7)."""
    sc = Scenario1897(4)
    sc.player(1, goods={"sugar": 7})
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((1,), "ship", True)
    assert sc.legal(state, 1) == ["ship.sugar.2"]
    for ship in (0, 1):
        with pytest.raises(IllegalAction) as err:
            sc.act(state, 1, f"ship.sugar.{ship}")
        assert err.value.code == "ship_not_allowed"
    state = sc.act(state, 1, "ship.sugar.2")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "sugar", "count": 7, "ship": 2}
    assert state.players[1].vp == 7
    assert sc.invariant_failures(state) == []


def test_T_CAP_2b_tie_between_the_two_larger_ships() -> None:
    """T-CAP-2b, CAP-2: ships 5/6/7 empty, 6 Sugar: ship 6 or 7 (both load 6); ship 5
    rejected."""
    sc = Scenario1897(4)
    sc.player(1, goods={"sugar": 6})
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["ship.sugar.1", "ship.sugar.2"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "ship.sugar.0")
    assert err.value.code == "ship_not_allowed"
    for ship in (1, 2):
        after = sc.act(state, 1, f"ship.sugar.{ship}")
        assert after.players[1].vp == 6 and goods(sc, after, 1) == held()
        assert sc.invariant_failures(after) == []


def test_T_CAP_3_either_ship_when_both_take_all() -> None:
    """T-CAP-3, CAP-2: ships 5 and 7 empty (6 carries Corn), 3 Sugar: either ship (both load
    3)."""
    sc = Scenario1897(4)
    sc.player(1, goods={"sugar": 3})
    sc.ships([(5, None, 0), (6, "corn", 2), (7, None, 0)])
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["ship.sugar.0", "ship.sugar.2"]
    for ship in (0, 2):
        after = sc.act(state, 1, f"ship.sugar.{ship}")
        assert view(sc, after)["ships"][ship] == {
            "capacity": (5, 6, 7)[ship],
            "good": "sugar",
            "count": 3,
        }
        assert after.players[1].vp == 3
        assert sc.invariant_failures(after) == []


def test_T_CAP_4_only_the_ship_of_that_type() -> None:
    """T-CAP-4, CAP-1, CAP-2: ship 5 holds 4 Sugar; a player with 3 Sugar may use only that
    ship: loads 1 (ship full), 2 Sugar stay with him."""
    sc = Scenario1897(4)
    sc.player(1, goods={"sugar": 3})
    sc.player(2, goods={"corn": 1})
    sc.ships([(5, "sugar", 4), (6, None, 0), (7, None, 0)])
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["ship.sugar.0"]
    with pytest.raises(IllegalAction):
        sc.act(state, 1, "ship.sugar.2")  # two ships never carry the same type
    state = sc.act(state, 1, "ship.sugar.0")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "sugar", "count": 1, "ship": 0}
    assert goods(sc, state, 1) == held(sugar=2)
    assert state.players[1].vp == 1
    assert view(sc, state)["ships"][0] == {"capacity": 5, "good": "sugar", "count": 5}
    assert sc.prompt(state) == Prompt((2,), "ship", False)
    assert sc.invariant_failures(state) == []


def test_CAP_1_a_full_ship_takes_nothing_and_blocks_its_type() -> None:
    """CAP-1: the Corn ship is full: a player with only Corn cannot load (not even on an empty
    ship) and is not asked."""
    sc = Scenario1897(3)
    sc.player(1, goods={"corn": 3})
    sc.ships([(4, "corn", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == role(1)  # nobody was asked to load
    assert sc.events_of("GoodsShipped") == []
    assert goods(sc, state, 1) == held(corn=1)  # stored 1 (CAP-5)
    assert sc.invariant_failures(state) == []


def test_T_CAP_5_no_load_no_advantage() -> None:
    """T-CAP-5, CAP-3: the Captain loads nothing all phase (his Corn's ship is full): no
    advantage VP, while the others load."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 2})
    sc.player(1, goods={"sugar": 2})
    sc.ships([(4, "corn", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((1,), "ship", False)
    state = sc.act(state, 1, "ship.sugar.1")
    assert vps(state) == [0, 2, 0]
    assert [e.seat for e in sc.events_of("VpEarned")] == [1]
    assert sc.invariant_failures(state) == []


def test_CAP_3_one_vp_per_crate_whatever_the_good() -> None:
    """CAP-3: 1 VP per crate, Corn as Coffee: 3 Corn = 3 VP, 3 Coffee = 3 VP (not the
    Captain)."""
    sc = Scenario1897(3)
    sc.player(1, goods={"corn": 3})
    sc.player(2, goods={"coffee": 3})
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.corn.0")
    state = sc.act(state, 2, "ship.coffee.1")
    assert vps(state) == [0, 3, 3]
    assert sc.invariant_failures(state) == []


def test_T_CAP_6_small_and_large_warehouse_storing() -> None:
    """T-CAP-6, CAP-5, B-10, B-14: occupied Small + Large Warehouse, 4 Corn, 3 Sugar, 2
    Coffee, 1 Fruit, 1 Tobacco after loading: all crates of 3 types + 1 crate, e.g.
    Corn/Sugar/Coffee + 1 Fruit = 10 kept, the Tobacco returned."""
    sc = Scenario1897(4)
    sc.player(
        1,
        goods={"corn": 4, "sugar": 3, "coffee": 2, "fruit": 1, "tobacco": 1},
        buildings={"small_warehouse": 1, "large_warehouse": 1},
    )
    sc.ships([(5, "corn", 5), (6, "sugar", 6), (7, "coffee", 7)])  # nothing can be loaded
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((1,), "keep", False)
    codes = sc.legal(state, 1)
    # every keep: all crates of 3 types + 1 crate of a 4th (here each remaining type whole)
    assert sorted(codes) == sorted(
        [
            "keep.corn4.fruit1.sugar3.tobacco1",
            "keep.corn4.fruit1.tobacco1.coffee2",
            "keep.corn4.fruit1.sugar3.coffee2",
            "keep.corn4.sugar3.tobacco1.coffee2",
            "keep.fruit1.sugar3.tobacco1.coffee2",
        ]
    )
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "keep.corn4.sugar3.coffee2")  # a storable crate thrown away
    assert err.value.code == "keep_not_allowed"
    state = sc.act(state, 1, "keep.corn4.fruit1.sugar3.coffee2")
    assert goods(sc, state, 1) == held(corn=4, fruit=1, sugar=3, coffee=2)
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": {"tobacco": 1}}
    assert sc.events_of("ShipsEmptied")[-1].data == {"ships": [0, 1, 2]}
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_CAP_5_one_crate_kept_the_player_chooses_which() -> None:
    """CAP-5: without a warehouse a player keeps 1 crate of his choice; the rest return to the
    supply."""
    sc = Scenario1897(3)
    sc.player(1, goods={"corn": 2, "sugar": 1})
    sc.ships([(4, "corn", 4), (5, "sugar", 5), (6, "coffee", 6)])
    supply = view(sc, sc.state)["goods_supply"]
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((1,), "keep", False)
    assert sorted(sc.legal(state, 1)) == ["keep.corn1", "keep.sugar1"]
    state = sc.act(state, 1, "keep.sugar1")
    assert goods(sc, state, 1) == held(sugar=1)
    assert view(sc, state)["goods_supply"]["corn"] == supply["corn"] + 2 + 4
    assert sc.invariant_failures(state) == []


def test_CAP_5_storage_is_checked_only_after_the_captain() -> None:
    """CAP-5: after a Craftsman phase a player keeps all his crates (5 here)."""
    sc = Scenario1897(3)
    sc.player(1, tiles={"corn": (3, 3), "sugar": (2, 2)}, buildings={"large_sugar_mill": 2})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 1, "produce")
    assert sc.prompt(state) == role(1)
    assert goods(sc, state, 1) == held(corn=3, sugar=2)
    assert sc.events_of("GoodsDiscarded") == []


def test_T_CAP_7_loading_is_mandatory() -> None:
    """T-CAP-7, CAP-2: a player who could load Corn but prefers to keep it (no private ship):
    ``pass`` is rejected."""
    sc = Scenario1897(4)
    sc.player(1, goods={"corn": 2})
    state = sc.choose("captain", 0)
    assert "pass" not in sc.legal(state, 1)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "pass")
    assert err.value.code == "must_load"
    assert goods(sc, state, 1) == held(corn=2)


def test_CAP_4_loading_continues_until_a_cycle_without_a_load() -> None:
    """CAP-4, CAP-2: players keep loading in turn (one type per turn) while anyone can: the
    Captain loads Corn, later his Sugar; the phase ends once nobody can load."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 2, "sugar": 1})
    sc.player(1, goods={"coffee": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.0")
    assert goods(sc, state, 0) == held(sugar=1)  # one type per turn
    assert sc.prompt(state) == Prompt((1,), "ship", False)
    state = sc.act(state, 1, "ship.coffee.1")
    assert sc.prompt(state) == Prompt((0,), "ship", True)  # round again: seat 2 had nothing
    state = sc.act(state, 0, "ship.sugar.2")
    assert sc.prompt(state) == role(1)
    assert vps(state) == [2 + 1 + 1, 1, 0]
    assert sc.invariant_failures(state) == []


def test_CAP_4_a_private_ship_option_may_be_declined_until_a_cycle_passes() -> None:
    """CAP-4, B-18: a Wharf owner whose only option is his private ship may pass; he is asked
    again after someone else loaded; the phase ends after a full cycle without a load."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 2, "sugar": 1})
    sc.player(1, goods={"fruit": 3}, buildings={"wharf": 1})
    sc.ships([(4, "fruit", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.1")
    assert sc.prompt(state) == Prompt((1,), "ship", False)
    assert sc.legal(state, 1) == ["wharf.fruit", "pass"]
    state = sc.act(state, 1, "pass")
    assert sc.prompt(state) == Prompt((0,), "ship", True)  # seat 2 has nothing: skipped
    state = sc.act(state, 0, "ship.sugar.2")
    assert sc.prompt(state) == Prompt((1,), "ship", False)  # asked again
    state = sc.act(state, 1, "pass")
    assert sc.prompt(state) == role(1)
    assert goods(sc, state, 1) == held(fruit=1)  # stored 1 (CAP-5)
    assert vps(state) == [2 + 1 + 1, 0, 0]
    assert sc.invariant_failures(state) == []


def test_CAP_7_last_vp_token_in_a_captain_phase_ends_the_game_after_it() -> None:
    """CAP-7, END-T3, END-2, CAP-5, CAP-6: 2 VP tokens left; the Captain takes the last ones
    with his first load: the others still load, storing and ship clearing are carried out, then
    the game ends (the VP past the supply are recorded on paper)."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 2})
    sc.player(1, goods={"coffee": 5})
    sc.player(2, goods={"sugar": 2, "fruit": 2})
    sc.set_vp_supply(2)
    supply = view(sc, sc.state)["goods_supply"]
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.0")  # 2 + 1: the last token is taken
    assert view(sc, state)["vp_tokens_left"] <= 0
    assert not state.over  # the others still load
    assert sc.legal(state, 1) == ["ship.coffee.1", "ship.coffee.2"]
    state = sc.act(state, 1, "ship.coffee.1")  # fills ship 5
    assert sc.prompt(state) == Prompt((2,), "ship", False)
    state = sc.act(state, 2, "ship.sugar.2")
    assert state.over and sc.prompt(state) is None
    assert vps(state) == [3, 5, 2]
    v = view(sc, state)
    assert v["vp_tokens_left"] <= 0  # the 8 VP past the supply are on paper
    assert v["end_triggered"] == ["vp_tokens"]
    # storing: seat 2 keeps 1 of his 2 Fruit; clearing: the full ship 5 is emptied
    assert goods(sc, state, 2) == held(fruit=1)
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": {"fruit": 1}}
    assert sc.events_of("ShipsEmptied")[-1].data == {"ships": [1]}
    assert v["goods_supply"]["coffee"] == supply["coffee"] + 5
    assert v["ships"][0] == {"capacity": 4, "good": "corn", "count": 2}
    assert sc.events_of("RoundEnded") == []
    outcome = sc.game.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("vp_tokens",)
    assert sc.invariant_failures(state) == []


# --- Adventurer (§3.9) --------------------------------------------------------------------------


def test_T_ADV_1_tile_coins_plus_one() -> None:
    """T-ADV-1, ADV-1, RND-2: 4 players; the Adventurer tile carries 2 coins; the chooser had 3:
    3 + 2 + 1 = 6; nobody else does anything (the next player picks a role)."""
    sc = Scenario1897(4)
    sc.role_doubloons("adventurer", 2)
    state = sc.choose("adventurer", 0)
    assert coins(sc, state) == [6, 3, 3, 3]
    assert sc.prompt(state) == role(1)
    assert [e.type for e in sc.events if e.seat not in (None, 0)] == []
    assert sc.invariant_failures(state) == []


# --- End of round (§3.10) -----------------------------------------------------------------------


def test_T_EOR_1_one_coin_on_each_role_not_chosen_and_the_governor_moves() -> None:
    """T-EOR-1, EOR-1, EOR-2, RND-1: 3 players, 6 tiles, 3 chosen: 3 coins placed (one on each
    tile not chosen); the chosen tiles are back, the Governor passes to the left."""
    sc = Scenario1897(3)
    state = sc.choose("builder", 0)
    state = sc.finish_phase(state)
    assert "r.builder" not in sc.legal(state, 1)  # RND-1: taken for the round
    state = sc.finish_phase(sc.act(state, 1, "r.trader"))
    state = sc.finish_phase(sc.act(state, 2, "r.captain"))
    v = view(sc, state)
    assert {r["role"]: r["coins"] for r in v["roles"]} == {
        "planter": 1,
        "recruiter": 1,
        "builder": 0,
        "craftsman": 1,
        "trader": 0,
        "captain": 0,
    }
    assert all(r["taken_by"] is None for r in v["roles"])
    assert v["governor"] == 1 and v["round"] == 2
    assert sc.prompt(state) == role(1)
    assert len(sc.legal(state, 1)) == 6
    ended = sc.events_of("RoundEnded")
    assert len(ended) == 1 and len(ended[0].data["coins_on"]) == 3
    assert sc.invariant_failures(state) == []


def test_RND_3_coins_accumulate_until_chosen() -> None:
    """RND-3, RND-2, EOR-1: a tile already carrying 1 coin gets a 2nd at the next round end; its
    chooser takes both."""
    sc = Scenario1897(3)
    sc.role_doubloons("planter", 1)
    state = sc.choose("builder", 0)
    state = sc.finish_phase(state)
    state = sc.finish_phase(sc.act(state, 1, "r.trader"))
    state = sc.finish_phase(sc.act(state, 2, "r.captain"))
    assert {r["role"]: r["coins"] for r in view(sc, state)["roles"]}["planter"] == 2
    before = coins(sc, state)[1]
    state = sc.act(state, 1, "r.planter")
    assert coins(sc, state)[1] == before + 2
