"""Puerto Rico 1897's base buildings (rules spec §5.1-§5.3: B-1...B-23, BLG-*) and the checkable
facts of §3.1 (CON-*), the setup steps SET-6...SET-9 and SET-12, RND-4, TWO-8, the points of §6
where 1897 is the classic game under other names (D-3, D-6, D-7, D-8, D-14...D-17) and the
ambiguities A-2, A-33, A-35, A-37.  Each test names its rule ids.  Played in 1897's words
through ``Scenario1897`` with the default options; final scores through the outcome of a state
set to ``GAME_OVER`` (as the T-SCR tests of ``test_edition.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.core import IllegalAction, Prompt
from engine.puerto_rico.state import State
from engine.puerto_rico_1897.names import data as in_1897_words
from tests.engine.puerto_rico_1897.scenario import (
    GOODS,
    Scenario1897,
    coins,
    field,
    goods,
    held,
    role,
    score_parts,
    view,
)

GAME = get_game("puerto-rico-1897")
CLASSIC = get_game("puerto-rico")












def city(sc: Scenario1897, state: State, seat: int) -> dict[str, int]:
    """A player's buildings: name -> workers on it."""
    return {b["building"]: b["workers"] for b in view(sc, state)["players"][seat]["city"]}


def market(sc: Scenario1897, state: State) -> dict[str, dict[str, Any]]:
    return {m["building"]: m for m in view(sc, state)["market"]}





def gained(sc: Scenario1897, by: str) -> list[tuple[int | None, dict[str, Any]]]:
    return [(e.seat, dict(e.data)) for e in sc.events_of("WorkerGained") if e.data["by"] == by]


# --- the building tables (§5.2, §5.3, BLG-3, BLG-4, BLG-6) --------------------------------------

# name: (cost, VP, worker spaces, level = quarry cap, copies with 3-5 players, kind, good)
PRODUCTION = {
    "small_fruit_depot": (1, 1, 1, 1, 4, "small_production", "fruit"),  # B-1
    "small_sugar_mill": (2, 1, 1, 1, 4, "small_production", "sugar"),  # B-2
    "large_fruit_depot": (3, 2, 3, 2, 3, "large_production", "fruit"),  # B-3
    "large_sugar_mill": (4, 2, 3, 2, 3, "large_production", "sugar"),  # B-4
    "large_tobacco_storage": (5, 3, 3, 3, 3, "large_production", "tobacco"),  # B-5
    "large_coffee_roaster": (6, 3, 2, 3, 3, "large_production", "coffee"),  # B-6
}
COMMON = "common_commercial"
EXPANDED = "expanded_commercial"
COMMERCIAL = {
    "small_market": (1, 1, 1, 1, 2, COMMON, None),  # B-7
    "hacienda": (2, 1, 1, 1, 2, COMMON, None),  # B-8
    "builders_yard": (2, 1, 1, 1, 2, COMMON, None),  # B-9
    "small_warehouse": (3, 1, 1, 1, 2, COMMON, None),  # B-10
    "hospital": (4, 2, 1, 2, 2, COMMON, None),  # B-11
    "office": (5, 2, 1, 2, 2, COMMON, None),  # B-12
    "large_market": (5, 2, 1, 2, 2, COMMON, None),  # B-13
    "large_warehouse": (6, 2, 1, 2, 2, COMMON, None),  # B-14 (A-2: 2 VP)
    "factory": (7, 3, 1, 3, 2, COMMON, None),  # B-15
    "school": (8, 3, 1, 3, 2, COMMON, None),  # B-16
    "harbor": (8, 3, 1, 3, 2, COMMON, None),  # B-17
    "wharf": (9, 3, 1, 3, 2, COMMON, None),  # B-18
    "fire_station": (10, 4, 1, 4, 1, EXPANDED, None),  # B-19
    "residence": (10, 4, 1, 4, 1, EXPANDED, None),  # B-20
    "fortress": (10, 4, 1, 4, 1, EXPANDED, None),  # B-21
    "customs_house": (10, 4, 1, 4, 1, EXPANDED, None),  # B-22
    "city_hall": (10, 4, 1, 4, 1, EXPANDED, None),  # B-23
}


def _row(entry: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(entry[k] for k in ("cost", "vp", "circles", "level", "left", "kind", "good"))


def test_B_1_B_2_B_3_B_4_B_5_B_6_production_buildings_table() -> None:
    """B-1, B-2, B-3, B-4, B-5, B-6, BLG-4, CON-3 (§5.2): cost, VP, worker spaces, level (the
    quarry cap, = VP), copies 4/4/3/3/3/3, "small" (B-1, B-2) or "large" (B-3...B-6) and the
    good of each production building, 4 players."""
    sc = Scenario1897(4)
    got = market(sc, sc.state)
    assert {name: _row(got[name]) for name in PRODUCTION} == PRODUCTION
    assert [got[name]["size"] for name in PRODUCTION] == [1] * 6
    assert not any(m["good"] == "corn" for m in got.values())  # Corn has no building


def test_commercial_buildings_table() -> None:
    """B-7, B-8, B-9, B-10, B-11, B-12, B-13, B-14, B-15, B-16, B-17, B-18, B-19, B-20, B-21,
    B-22, B-23, A-2, BLG-4, CON-2 (§5.3): cost, VP (the Large Warehouse 2, A-2), worker spaces,
    level (= VP for common buildings, 4 for every expanded one), copies (2 common, 1 expanded)
    and size (an expanded building takes 2 spaces)."""
    sc = Scenario1897(5)
    got = market(sc, sc.state)
    assert {name: _row(got[name]) for name in COMMERCIAL} == COMMERCIAL
    assert {name: got[name]["size"] for name in COMMERCIAL} == {
        name: 2 if row[5] == EXPANDED else 1 for name, row in COMMERCIAL.items()
    }
    assert set(got) == set(PRODUCTION) | set(COMMERCIAL)  # the 23 base types only


def test_D_15_D_2_buildings_are_the_classic_ones_renamed() -> None:
    """D-15, D-2 (§6.2 "renamed only"): every 1897 building has exactly the classic numbers
    (cost, VP, spaces, level, copies, kind) of its classic namesake; the Fruit buildings are the
    Indigo ones."""
    ours = GAME.view(GAME.setup({"players": 4}, 0), None)["market"]
    classic = in_1897_words(CLASSIC.view(CLASSIC.setup({"players": 4}, 0), None)["market"])
    assert ours == classic
    names = [m["building"] for m in ours]
    assert names[:3] == ["small_fruit_depot", "small_sugar_mill", "large_fruit_depot"]


# --- production (§5.2, CRF-2) -------------------------------------------------------------------

# building: (its good, spaces)
PRODUCERS = {name: (row[6], row[2]) for name, row in PRODUCTION.items()}


@pytest.mark.parametrize("name", list(PRODUCERS))
def test_B_1_B_2_B_3_B_4_B_5_B_6_production_pairs_spaces_with_properties(name: str) -> None:
    """B-1, B-2, B-3, B-4, B-5, B-6, CRF-2, CON-3, BLG-5: in the Craftsman phase each occupied
    worker space pairs with one occupied property of its good: a full building with one more
    occupied property than spaces makes as many crates as it has spaces; with one property fewer
    than its spaces, as many as properties; nothing was produced in the Trader phase before."""
    good, spaces = PRODUCERS[name]
    assert isinstance(good, str) and isinstance(spaces, int)
    for props, expected in ((spaces + 1, spaces), (spaces - 1, spaces - 1)):
        sc = Scenario1897(3)
        sc.player(1, doubloons=0, tiles={good: (props, props)}, buildings={name: spaces})
        state = sc.finish_phase(sc.choose("trader", 0))  # BLG-5: no production here
        assert goods(sc, state, 1) == held()
        state = sc.choose("craftsman", 0)
        if expected == 0:  # nothing to produce: not asked
            assert sc.prompt(state) == role(1)
            assert goods(sc, state, 1) == held()
            continue
        assert sc.prompt(state) == Prompt((1,), "produce", False)
        state = sc.act(state, 1, "produce")
        assert goods(sc, state, 1) == held(**{good: expected})
        assert sc.events_of("GoodsProduced")[-1].data == {"goods": {good: expected}}
        assert sc.invariant_failures(state) == []


def test_B_3_CON_3_a_partly_occupied_large_building_counts_its_occupied_spaces() -> None:
    """B-3, CON-3, CRF-2, BLG-2: a Large Fruit Depot with 2 of 3 spaces occupied and 3 occupied
    Fruit properties: 2 Fruit; an unoccupied Small Sugar Mill with an occupied Sugar property:
    no Sugar."""
    sc = Scenario1897(3)
    sc.player(
        1,
        tiles={"fruit": (3, 3), "sugar": (1, 1)},
        buildings={"large_fruit_depot": 2, "small_sugar_mill": 0},
    )
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 1) == held(fruit=2)
    assert sc.invariant_failures(state) == []


# --- B-7 Small Market, B-12 Office, B-13 Large Market (Trader) ----------------------------------


@pytest.mark.parametrize(
    ("markets", "price"),
    [
        ({"small_market": 1}, 3 + 1),
        ({"large_market": 1}, 3 + 2),
        ({"small_market": 1, "large_market": 1}, 3 + 3),
        ({"small_market": 0, "large_market": 0}, 3),
    ],
)
def test_B_7_B_13_market_bonus_on_a_sale(markets: dict[str, int], price: int) -> None:
    """B-7, B-13, BLG-2: a player who is not the Trader sells Tobacco (3): occupied Small Market
    +1, occupied Large Market +2, both +3; unoccupied markets add nothing."""
    sc = Scenario1897(3)
    sc.player(1, doubloons=0, goods={"tobacco": 1}, buildings=markets)
    state = sc.choose("trader", 0)
    state = sc.act(state, 1, "t.tobacco")
    assert coins(sc, state)[1] == price
    assert sc.events_of("GoodSold")[-1].data == {"good": "tobacco", "price": price}
    assert sc.invariant_failures(state) == []


def test_B_12_office_sells_one_crate_into_a_free_space() -> None:
    """B-12, TRD-1, TRD-2: the house holds Sugar, Corn, Fruit; the Office owner sells one more
    Sugar (still one crate: 2 of his 3 stay) into the last space; the house is full, so the
    next player loses his turn, and at the phase end the house is emptied."""
    sc = Scenario1897(3)
    sc.house(["sugar", "corn", "fruit"])
    sc.player(1, doubloons=0, goods={"sugar": 3}, buildings={"office": 1})
    sc.player(2, doubloons=0, goods={"coffee": 1})
    state = sc.choose("trader", 0)
    assert sc.legal(state, 1) == ["t.sugar", "pass"]
    state = sc.act(state, 1, "t.sugar")
    assert coins(sc, state)[1:] == [2, 0]
    assert goods(sc, state, 1) == held(sugar=2)
    assert goods(sc, state, 2) == held(coffee=1)
    assert sc.prompt(state) == role(1)
    assert view(sc, state)["trading_house"] == []
    assert sc.invariant_failures(state) == []


# --- B-8 Hacienda, B-9 Builder's Yard, B-11 Hospital (Planter) ----------------------------------


def test_B_8_D_3_hacienda_draws_from_the_bag_before_the_pick() -> None:
    """B-8, D-3: before his normal pick the owner may draw 1 property from the bag (one code,
    no stack to choose); it is placed at once (no way to refuse it), then the normal pick
    follows; the bag loses that tile, the market none."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "tobacco"])
    sc.stacks({"coffee": 1})
    sc.player(1, buildings={"hacienda": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    assert sc.legal(state, 1) == ["p.hacienda", "p.corn", "p.fruit", "p.sugar", "p.tobacco", "pass"]
    assert [c for c in sc.legal(state, 1) if "hacienda" in c] == ["p.hacienda"]
    state = sc.act(state, 1, "p.hacienda")
    assert sc.events_of("PropertyTaken")[-1].data == {"tile": "coffee", "source": "hacienda"}
    assert field(sc, state, 1) == [("fruit", False), ("coffee", False)]
    v = view(sc, state)
    assert v["property_bag"] == 0 and len(v["face_up"]) == 4
    # the draw is placed; the turn goes on with the normal pick (no second draw, no refusal)
    assert sc.prompt(state) == Prompt((1,), "plant", False)
    assert sc.legal(state, 1) == ["p.corn", "p.fruit", "p.sugar", "p.tobacco", "pass"]
    state = sc.act(state, 1, "p.sugar")
    assert field(sc, state, 1) == [("fruit", False), ("sugar", False), ("coffee", False)]
    assert sc.invariant_failures(state) == []


def test_B_8_D_3_the_hacienda_draw_is_random() -> None:
    """B-8, D-3: the Hacienda's tile is drawn at random from the bag (Corn 5, Coffee 5): over a
    few seeds both kinds come up, and the bag always loses the tile drawn."""
    drawn = set()
    for seed in range(12):
        sc = Scenario1897(3, seed=seed)
        sc.face_up(["corn", "fruit", "sugar", "tobacco"])
        sc.stacks({"corn": 5, "coffee": 5})
        sc.player(0, buildings={"hacienda": 1})
        state = sc.act(sc.choose("planter", 0), 0, "p.hacienda")
        tile = sc.events_of("PropertyTaken")[-1].data["tile"]
        drawn.add(tile)
        assert view(sc, state)["property_bag"] == 9
        assert state.deck[0 if tile == "corn" else 4] == 4
    assert drawn == {"corn", "coffee"}


def test_B_8_CON_1_hacienda_needs_a_free_space() -> None:
    """B-8, CON-1, PLN-2: with 11 field tiles the Hacienda's draw fills the 12th space and no
    normal pick follows; with 12 it is not offered (the player has no tile choice at all)."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "tobacco"])
    sc.player(1, buildings={"hacienda": 1}, tiles={"corn": 6, "quarry": 5})
    sc.player(2, buildings={"hacienda": 1}, tiles={"corn": 3, "quarry": 3, "sugar": 6})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    assert "p.hacienda" in sc.legal(state, 1)
    state = sc.act(state, 1, "p.hacienda")
    assert view(sc, state)["players"][1]["field_used"] == 12
    # no normal pick for him; seat 2 (12 tiles: no Hacienda, no pick) is not asked
    assert sc.prompt(state) == role(1)
    assert [e.seat for e in sc.events_of("PropertyTaken")] == [1]
    assert view(sc, state)["players"][2]["field_used"] == 12
    assert sc.invariant_failures(state) == []


def test_B_8_BLG_2_an_unoccupied_hacienda_draws_nothing() -> None:
    """B-8, BLG-2: an unoccupied Hacienda gives no draw."""
    sc = Scenario1897(3)
    sc.player(0, buildings=["hacienda"])
    state = sc.choose("planter", 0)
    assert "p.hacienda" not in sc.legal(state, 0)


def test_B_8_B_9_the_hacienda_tile_is_no_quarry_but_the_pick_may_be() -> None:
    """B-8, B-9, PLN-3: an owner of Hacienda and Builder's Yard: the drawn tile is a property
    (it cannot be swapped for a quarry: no quarry leaves the stack); his normal pick may then be
    a quarry."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "tobacco"])
    sc.stacks({"tobacco": 3})
    sc.player(1, buildings={"hacienda": 1, "builders_yard": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "p.hacienda")
    assert view(sc, state)["quarries_left"] == 8
    assert field(sc, state, 1) == [("fruit", False), ("tobacco", False)]
    assert "p.quarry" in sc.legal(state, 1)
    state = sc.act(state, 1, "p.quarry")
    assert field(sc, state, 1) == [("fruit", False), ("tobacco", False), ("quarry", False)]
    assert view(sc, state)["quarries_left"] == 7
    assert sc.invariant_failures(state) == []


def test_B_9_B_11_builders_yard_quarry_gets_the_hospital_worker() -> None:
    """B-9, B-11: a player who is not the Planter, with occupied Builder's Yard and Hospital,
    takes a quarry instead of a face-up property and puts the Hospital's worker (from the
    supply) on it; the market keeps its tiles until the phase ends."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "tobacco"])
    sc.player(1, buildings={"builders_yard": 1, "hospital": 1})
    supply = view(sc, sc.state)["workers"]["supply"]
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.corn")
    assert sc.legal(state, 1) == ["p.fruit", "p.sugar", "p.tobacco", "p.quarry", "pass"]
    state = sc.act(state, 1, "p.quarry")
    assert sc.prompt(state) == Prompt((1,), "hospital", False)
    assert sc.legal(state, 1) == ["o.hospital", "pass"]
    state = sc.act(state, 1, "o.hospital")
    assert field(sc, state, 1) == [("fruit", False), ("quarry", True)]
    assert gained(sc, "hospital") == [
        (1, {"target": "quarry", "source": "supply", "by": "hospital"})
    ]
    v = view(sc, state)
    assert v["quarries_left"] == 7 and v["workers"]["supply"] == supply - 1
    assert "p.quarry" not in sc.legal(state, 2)  # no Builder's Yard
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("supply", "agency", "source"),
    [(5, 3, "supply"), (0, 3, "agency"), (0, 0, None)],
)
def test_B_11_hospital_worker_from_the_supply_else_the_agency_else_none(
    supply: int, agency: int, source: str | None
) -> None:
    """B-11: the Hospital's worker comes from the supply; with the supply empty, from the
    Agency; with both empty there is nothing (not even an offer).  It goes on the new tile and
    on no other (the empty starting Fruit stays empty)."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    sc.player(0, buildings={"hospital": 1})
    sc.set_colonists(supply=supply, ship=agency)
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.coffee")
    if source is None:
        assert sc.prompt(state) == Prompt((1,), "plant", False)
        assert field(sc, state, 0) == [("fruit", False), ("coffee", False)]
        assert gained(sc, "hospital") == []
        return
    assert sc.prompt(state) == Prompt((0,), "hospital", False)
    state = sc.act(state, 0, "o.hospital")
    assert field(sc, state, 0) == [("fruit", False), ("coffee", True)]
    assert gained(sc, "hospital") == [(0, {"target": "coffee", "source": source, "by": "hospital"})]
    taken = (1, 0) if source == "supply" else (0, 1)
    assert view(sc, state)["workers"] == {"agency": agency - taken[1], "supply": supply - taken[0]}
    assert sc.invariant_failures(state) == []


# --- B-16 School (Builder) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("supply", "agency", "source"),
    [(5, 3, "supply"), (0, 3, "agency"), (0, 0, None)],
)
def test_B_16_school_worker_on_the_new_building(
    supply: int, agency: int, source: str | None
) -> None:
    """B-16: the owner of an occupied School builds a Large Sugar Mill (3 spaces): 1 worker
    (only one) on the new building, from the supply; supply empty: from the Agency; both empty:
    nothing (no offer)."""
    sc = Scenario1897(3)
    sc.player(1, doubloons=10, buildings={"school": 1})
    sc.set_colonists(supply=supply, ship=agency)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.large_sugar_mill")
    assert coins(sc, state)[1] == 10 - 4
    if source is None:
        assert sc.prompt(state) == Prompt((2,), "build", False)
        assert city(sc, state, 1) == {"school": 1, "large_sugar_mill": 0}
        assert gained(sc, "school") == []
        return
    assert sc.prompt(state) == Prompt((1,), "school", False)
    assert sc.legal(state, 1) == ["o.school", "pass"]
    state = sc.act(state, 1, "o.school")
    assert city(sc, state, 1) == {"school": 1, "large_sugar_mill": 1}
    assert gained(sc, "school") == [
        (1, {"target": "large_sugar_mill", "source": source, "by": "school"})
    ]
    taken = (1, 0) if source == "supply" else (0, 1)
    assert view(sc, state)["workers"] == {"agency": agency - taken[1], "supply": supply - taken[0]}
    assert sc.prompt(state) == Prompt((2,), "build", False)
    assert sc.invariant_failures(state) == []


def test_B_16_BLG_2_only_a_school_occupied_before_the_purchase() -> None:
    """B-16, BLG-2: building the School itself brings no worker (it was not occupied before the
    purchase), nor does building with an unoccupied School."""
    sc = Scenario1897(3)
    sc.player(0, doubloons=10)
    sc.player(1, doubloons=10, buildings=["school"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.school")
    assert sc.prompt(state) == Prompt((1,), "build", False)
    state = sc.act(state, 1, "b.small_market")
    assert sc.prompt(state) == Prompt((2,), "build", False)
    assert city(sc, state, 0) == {"school": 0}
    assert city(sc, state, 1) == {"school": 0, "small_market": 0}
    assert gained(sc, "school") == []
    assert sc.invariant_failures(state) == []


def test_CON_4_B_16_portrait_workers_wait_outside_the_recruiter_phase() -> None:
    """CON-4, REC-3, B-16: workers waiting on the portrait stay there when their owner builds
    (the new building is filled only by the School's worker); on the portrait they are still
    his workers."""
    sc = Scenario1897(3)
    sc.player(1, doubloons=10, buildings={"school": 1}, san_juan=2)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.large_market")
    state = sc.act(state, 1, "o.school")
    p = view(sc, state)["players"][1]
    assert (p["portrait"], p["workers"]) == (2, 4)
    assert city(sc, state, 1) == {"school": 1, "large_market": 1}
    assert sc.invariant_failures(state) == []


# --- B-15 Factory (Craftsman) -------------------------------------------------------------------

FACTORY_OWNER = {
    "factory": 1,
    "small_fruit_depot": 1,
    "small_sugar_mill": 1,
    "large_tobacco_storage": 1,
    "large_coffee_roaster": 1,
}


@pytest.mark.parametrize(("kinds", "bonus"), [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_B_15_factory_bonus_by_kinds_produced(kinds: int, bonus: int) -> None:
    """B-15: by the number of distinct goods produced (1 crate each here): 0 or 1 => 0,
    2 => +1, 3 => +2, 4 => +3, 5 => +5."""
    sc = Scenario1897(3)
    sc.player(1, doubloons=0, tiles=dict.fromkeys(GOODS[:kinds], (1, 1)), buildings=FACTORY_OWNER)
    state = sc.choose("craftsman", 0)
    if kinds:
        state = sc.act(state, 1, "produce")
    assert goods(sc, state, 1) == held(**dict.fromkeys(GOODS[:kinds], 1))
    assert coins(sc, state)[1] == bonus
    reasons = [e.data for e in sc.events_of("CoinsEarned") if e.seat == 1]
    assert reasons == ([{"amount": bonus, "reason": "factory"}] if bonus else [])
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []


def test_B_15_CON_6_crate_counts_and_missing_crates() -> None:
    """B-15, CON-6: crate counts do not matter (3 Corn + 1 Sugar = 2 kinds: +1); a good whose
    supply is empty is not produced and does not count (Fruit: none left)."""
    sc = Scenario1897(3)
    sc.player(
        1,
        doubloons=0,
        tiles={"corn": (3, 3), "sugar": (1, 1), "fruit": (1, 1)},
        buildings=FACTORY_OWNER,
    )
    sc.set_goods_supply(fruit=0)
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 1, "produce")
    assert goods(sc, state, 1) == held(corn=3, sugar=1)
    assert coins(sc, state)[1] == 1
    assert sc.invariant_failures(state) == []


def test_B_15_the_craftsman_advantage_adds_no_kind() -> None:
    """B-15, CRF-4: the Craftsman with a Factory produces Corn and Sugar (+1); his advantage
    crate (a second Sugar: only a kind he produced) adds no kind: still +1 in all."""
    sc = Scenario1897(3)
    sc.player(0, doubloons=0, tiles={"corn": (2, 2), "sugar": (1, 1)}, buildings=FACTORY_OWNER)
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert coins(sc, state)[0] == 1
    assert sc.prompt(state) == Prompt((0,), "craftsman_advantage", False)
    assert sc.legal(state, 0) == ["c.corn", "c.sugar", "pass"]
    state = sc.act(state, 0, "c.sugar")
    assert goods(sc, state, 0) == held(corn=2, sugar=2)
    assert coins(sc, state)[0] == 1
    assert [e.data for e in sc.events_of("CoinsEarned")] == [{"amount": 1, "reason": "factory"}]
    assert sc.invariant_failures(state) == []


# --- B-10 Small Warehouse, B-14 Large Warehouse, B-17 Harbor, B-18 Wharf (Captain) --------------


@pytest.mark.parametrize("occupied", [1, 0])
def test_B_10_CON_5_small_warehouse_keeps_one_kind_plus_one_crate(occupied: int) -> None:
    """B-10, CON-5, BLG-2, CAP-5: nothing can be loaded; 3 Corn, 2 Sugar, 2 Coffee: the occupied
    Small Warehouse keeps all crates of 1 kind + 1 crate (here Corn 3 + 1 Sugar; 3 crates are
    returned to the supply); unoccupied, only 1 crate is kept."""
    sc = Scenario1897(3)
    sc.player(
        1, goods={"corn": 3, "sugar": 2, "coffee": 2}, buildings={"small_warehouse": occupied}
    )
    sc.ships([(4, "corn", 4), (5, "sugar", 5), (6, "coffee", 6)])
    supply = view(sc, sc.state)["goods_supply"]
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((1,), "keep", False)
    codes = sc.legal(state, 1)
    if occupied:
        assert "keep.corn3.sugar1" in codes and "keep.corn3.sugar2" not in codes
        state = sc.act(state, 1, "keep.corn3.sugar1")
        assert goods(sc, state, 1) == held(corn=3, sugar=1)
        returned = {"sugar": 1, "coffee": 2}
    else:
        assert sorted(codes) == ["keep.coffee1", "keep.corn1", "keep.sugar1"]
        state = sc.act(state, 1, "keep.corn1")
        assert goods(sc, state, 1) == held(corn=1)
        returned = {"corn": 2, "sugar": 2, "coffee": 2}
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": returned}
    after = view(sc, state)["goods_supply"]
    # the full ships are emptied too (CAP-6): 4 Corn, 5 Sugar, 6 Coffee
    full = {"corn": 4, "sugar": 5, "coffee": 6}
    assert after == {g: supply[g] + returned.get(g, 0) + full.get(g, 0) for g in GOODS}
    assert sc.invariant_failures(state) == []


def test_B_10_a_warehouse_does_not_excuse_loading() -> None:
    """B-10, CAP-2: an occupied Small Warehouse owner who can load Corn must load it (``pass``
    is refused), although he could have stored it all."""
    sc = Scenario1897(3)
    sc.player(1, goods={"corn": 2}, buildings={"small_warehouse": 1})
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((1,), "ship", False)  # which ship: his choice
    assert sc.legal(state, 1) == ["ship.corn.0", "ship.corn.1", "ship.corn.2"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "pass")
    assert err.value.code == "must_load"


def test_B_14_A_2_large_warehouse_keeps_two_kinds_plus_one_crate() -> None:
    """B-14, A-2, BLG-3, CAP-5: nothing can be loaded; 3 Corn, 2 Sugar, 2 Coffee, 1 Fruit: the
    occupied Large Warehouse keeps all crates of 2 kinds + 1 crate (Corn 3, Sugar 2, 1 Coffee);
    at the end it scores its printed 2 VP (A-2)."""
    sc = Scenario1897(3)
    sc.player(
        1,
        goods={"corn": 3, "sugar": 2, "coffee": 2, "fruit": 1},
        buildings={"large_warehouse": 1},
    )
    sc.ships([(4, "corn", 4), (5, "sugar", 5), (6, "coffee", 6)])
    state = sc.choose("captain", 0)
    codes = sc.legal(state, 1)
    assert "keep.corn3.sugar2.coffee1" in codes
    assert "keep.corn3.sugar2.coffee2" not in codes  # 3 whole kinds: no
    state = sc.act(state, 1, "keep.corn3.sugar2.coffee1")
    assert goods(sc, state, 1) == held(corn=3, sugar=2, coffee=1)
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": {"fruit": 1, "coffee": 1}}
    assert sc.invariant_failures(state) == []
    assert score_parts(sc, 1) == {"tokens": 0, "buildings": 2}


def test_B_17_harbor_rulebook_example() -> None:
    """B-17, B-18, CAP-3 (the rulebook example): the Harbor owner loads 3 Tobacco (filling the
    ship) => 3 + 1; later 2 Sugar => 2 + 1; later his Wharf takes the other 2 Tobacco =>
    2 + 1: the Harbor gives +3 in the phase (one per load, whatever the crates)."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 1})
    sc.player(1, goods={"tobacco": 5, "sugar": 2}, buildings={"harbor": 1, "wharf": 1})
    sc.ships([(4, "tobacco", 1), (5, None, 0), (6, "corn", 1)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.2")
    assert sc.legal(state, 1) == ["ship.sugar.1", "ship.tobacco.0", "wharf.sugar", "wharf.tobacco"]
    state = sc.act(state, 1, "ship.tobacco.0")
    assert view(sc, state)["ships"][0] == {"capacity": 4, "good": "tobacco", "count": 4}
    assert state.players[1].vp == 3 + 1
    state = sc.act(state, 1, "ship.sugar.1")
    assert state.players[1].vp == 4 + 2 + 1
    assert sc.legal(state, 1) == ["wharf.tobacco", "pass"]
    state = sc.act(state, 1, "wharf.tobacco")
    assert state.players[1].vp == 7 + 2 + 1
    assert [(e.data["amount"], e.data["reason"]) for e in sc.events_of("VpEarned") if e.seat] == [
        (3, "shipping"),
        (1, "harbor"),
        (2, "shipping"),
        (1, "harbor"),
        (2, "shipping"),
        (1, "harbor"),
    ]
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "tobacco", "count": 2, "ship": "wharf"}
    assert sc.prompt(state) == role(1)
    assert goods(sc, state, 1) == held()
    assert sc.invariant_failures(state) == []


def test_B_17_BLG_2_an_unoccupied_harbor_gives_nothing() -> None:
    """B-17, BLG-2: an unoccupied Harbor: 3 Coffee loaded => 3 VP only."""
    sc = Scenario1897(3)
    sc.player(1, goods={"coffee": 3}, buildings=["harbor"])
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.coffee.0")
    assert state.players[1].vp == 3
    assert [e.data["reason"] for e in sc.events_of("VpEarned")] == ["shipping"]


def test_B_18_wharf_all_crates_of_any_kind_once_per_phase() -> None:
    """B-18, CAP-3: instead of a cargo load the Wharf takes all crates of one kind, even a kind
    already on a cargo ship and more than any ship could hold (6 Corn; the Corn ship has 3
    spaces): 1 VP per crate; the Wharf is then gone for this phase (his Coffee must go on a
    cargo ship); the next Captain phase it is there again."""
    sc = Scenario1897(3)
    sc.player(1, goods={"corn": 6, "coffee": 2}, buildings={"wharf": 1})
    sc.player(2, goods={"sugar": 1})
    sc.ships([(4, "corn", 1), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == [
        "ship.corn.0",
        "ship.coffee.1",
        "ship.coffee.2",
        "wharf.corn",
        "wharf.coffee",
    ]
    state = sc.act(state, 1, "wharf.corn")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "corn", "count": 6, "ship": "wharf"}
    assert state.players[1].vp == 6
    assert view(sc, state)["private_ships"]["corn"] == 6
    assert view(sc, state)["ships"][0] == {"capacity": 4, "good": "corn", "count": 1}
    state = sc.act(state, 2, "ship.sugar.1")
    assert sc.legal(state, 1) == ["ship.coffee.2"]  # no second Wharf load
    state = sc.act(state, 1, "ship.coffee.2")
    assert state.players[1].vp == 6 + 2
    assert sc.prompt(state) == role(1)
    assert sc.invariant_failures(state) == []
    sc.player(1, goods={"fruit": 2})
    state = sc.choose("captain", 0)  # a new Captain phase: the Wharf again
    assert "wharf.fruit" in sc.legal(state, 1)


# --- B-19...B-23 and the printed VP (game end, §4.2) --------------------------------------------


def test_B_19_fire_station_rulebook_example() -> None:
    """B-19, BLG-3: occupied Fire Station with Small Fruit Depot (small: +1), Large Fruit Depot,
    Large Coffee Roaster, Large Sugar Mill (large: +2 each), all unoccupied, and a Small Market
    (no production building: 0) => +7; printed VP 4 + 1 + 2 + 3 + 2 + 1 = 13 counted occupied
    or not."""
    sc = Scenario1897(3)
    sc.player(
        0,
        vp=5,
        buildings={
            "fire_station": 1,
            "small_fruit_depot": 0,
            "large_fruit_depot": 0,
            "large_coffee_roaster": 0,
            "large_sugar_mill": 0,
            "small_market": 0,
        },
    )
    assert score_parts(sc, 0) == {"tokens": 5, "buildings": 13, "fire_station": 7}


def test_B_19_B_20_B_21_B_22_B_23_unoccupied_expanded_buildings_score_printed_vp_only() -> None:
    """B-19, B-20, B-21, B-22, B-23, BLG-2, BLG-3, CON-2: five unoccupied expanded buildings
    (10 spaces) score their printed 4 VP each and no bonus."""
    sc = Scenario1897(3)
    five = ["fire_station", "residence", "fortress", "customs_house", "city_hall"]
    sc.player(0, vp=40, buildings=five, tiles={"corn": (12, 12)}, san_juan=10)
    assert view(sc, sc.state)["players"][0]["city_used"] == 10
    assert score_parts(sc, 0) == {"tokens": 40, "buildings": 20}


@pytest.mark.parametrize(
    ("tiles", "bonus"),
    [
        ({"corn": 1}, 4),
        ({"corn": (5, 5), "quarry": 4}, 4),
        ({"corn": 6, "quarry": 4}, 5),
        ({"sugar": (7, 2), "quarry": (4, 4)}, 6),
        ({"coffee": 4, "tobacco": 4, "quarry": 4}, 7),
    ],
)
def test_B_20_residence_by_filled_field_spaces(
    tiles: dict[str, int | tuple[int, int]], bonus: int
) -> None:
    """B-20, A-29: occupied Residence: filled field spaces (properties and quarries, occupied or
    not) 1...9 => +4, 10 => +5, 11 => +6, 12 => +7."""
    sc = Scenario1897(3)
    sc.player(0, tiles=tiles, buildings={"residence": 1})
    assert score_parts(sc, 0) == {"tokens": 0, "buildings": 4, "residence": bonus}


@pytest.mark.parametrize(("portrait", "bonus"), [(3, 7), (0, 6), (5, 8)])
def test_B_21_fortress_counts_every_worker(portrait: int, bonus: int) -> None:
    """B-21: occupied Fortress: +1 VP per 3 workers owned, rounded down, those on the portrait
    included: 12 on the field + 1 + 3 + 3 on buildings + 3 on the portrait = 22 => +7; without
    the portrait's 19 => +6; with 5 there 24 => +8."""
    sc = Scenario1897(3)
    sc.player(
        0,
        tiles={"corn": (3, 3), "sugar": (3, 3), "tobacco": (3, 3), "quarry": (3, 3)},
        buildings={"fortress": 1, "large_sugar_mill": 3, "large_tobacco_storage": 3},
        san_juan=portrait,
    )
    assert view(sc, sc.state)["players"][0]["workers"] == 19 + portrait
    assert score_parts(sc, 0) == {"tokens": 0, "buildings": 4 + 2 + 3, "fortress": bonus}


def test_B_22_customs_house_counts_paper_vp_not_building_vp() -> None:
    """B-22, CAP-3, END-T3: 30 VP tokens, 2 left in the supply; the Customs House owner (the
    Captain) loads 5 Coffee (+1 advantage): 36 VP, 4 of them on paper => +9 (36 / 4); the
    printed VP of his buildings (4 + 3) do not count."""
    sc = Scenario1897(3)
    sc.player(0, vp=30, goods={"coffee": 5}, buildings={"customs_house": 1, "harbor": 0})
    sc.set_vp_supply(2)
    state = sc.finish_phase(sc.choose("captain", 0))
    assert state.over and state.players[0].vp == 36
    assert view(sc, state)["vp_tokens_left"] == 0
    assert score_parts(sc, 0) == {"tokens": 36, "buildings": 7, "customs_house": 9}
    assert sc.invariant_failures(state) == []


def test_B_23_city_hall_rulebook_example() -> None:
    """B-23, BLG-3, CON-2: occupied City Hall + Builder's Yard, Hospital, Large Market, Factory,
    School, Customs House (unoccupied: commercial buildings count occupied or not) => +7; the
    Small Fruit Depot (production) does not count; 10 spaces used."""
    sc = Scenario1897(3)
    sc.player(
        0,
        buildings={
            "city_hall": 1,
            "builders_yard": 0,
            "hospital": 0,
            "large_market": 0,
            "factory": 0,
            "school": 0,
            "customs_house": 0,
            "small_fruit_depot": 0,
        },
    )
    assert view(sc, sc.state)["players"][0]["city_used"] == 10
    assert score_parts(sc, 0) == {
        "tokens": 0,
        "buildings": 4 + 1 + 2 + 2 + 3 + 3 + 4 + 1,
        "city_hall": 7,
    }


# --- BLG-1, CON-7 -------------------------------------------------------------------------------


def test_BLG_1_CON_8_one_copy_of_each_type_production_too() -> None:
    """BLG-1, CON-8: the owner of a Small Fruit Depot cannot build a second one, but may build
    the Large Fruit Depot (another type)."""
    sc = Scenario1897(3)
    sc.player(0, doubloons=5, buildings=["small_fruit_depot"])
    state = sc.choose("builder", 0)
    codes = sc.legal(state, 0)
    assert "b.small_fruit_depot" not in codes and "b.large_fruit_depot" in codes
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "b.small_fruit_depot")
    assert err.value.code == "already_owned"
    state = sc.act(state, 0, "b.large_fruit_depot")
    assert city(sc, state, 0) == {"small_fruit_depot": 0, "large_fruit_depot": 0}
    assert sc.invariant_failures(state) == []


def test_CON_7_coins_public_vp_tokens_hidden() -> None:
    """CON-7: coins and goods are public; VP tokens are hidden: the public view shows nobody's,
    a player's view shows only his own."""
    sc = Scenario1897(3)
    sc.player(1, vp=7, doubloons=4, goods={"corn": 1})
    public = view(sc, sc.state)["players"]
    assert [p["coins"] for p in public] == [2, 4, 2]
    assert public[1]["goods"] == held(corn=1)
    assert [p["vp"] for p in public] == [None] * 3
    assert [p["vp"] for p in view(sc, sc.state, 1)["players"]] == [None, 7, None]
    assert [p["vp"] for p in view(sc, sc.state, 0)["players"]] == [0, None, None]


# --- setup and components (SET-*, D-*, A-*) -----------------------------------------------------

# players: (VP tokens, workers in play, 1897 role tiles, ships)
COMPONENTS = {
    2: (65, 42, 7, [4, 6]),
    3: (75, 58, 6, [4, 5, 6]),
    4: (100, 79, 7, [5, 6, 7]),
    5: (126, 100, 8, [6, 7, 8]),
}
CLASSIC_VP = {2: 65, 3: 75, 4: 100, 5: 122}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_D_6_D_8_D_14_SET_12_components_in_play_against_classic(players: int) -> None:
    """D-6, D-8, D-14, SET-12, SET-6, SET-8: the VP tokens in play 65/75/100/126 (classic
    65/75/100/122: only the 5-player supply differs); the workers in play 42/58/79/100 counting
    the Agency (as classic); the quarry stack and the ships of classic (decks 4...8); the rest
    is out of the game (the invariant totals hold)."""
    vp, workers, _, ships = COMPONENTS[players]
    state = GAME.setup({"players": players}, 0)
    ours = GAME.view(state, None)
    classic = CLASSIC.view(CLASSIC.setup({"players": players}, 0), None)
    assert ours["vp_tokens_left"] == vp
    assert classic["vp_chips_left"] == CLASSIC_VP[players]
    assert (vp == CLASSIC_VP[players]) == (players != 5)
    assert sum(ours["workers"].values()) == workers == sum(classic["colonists"].values())
    assert [s["capacity"] for s in ours["ships"]] == ships
    assert ours["ships"] == classic["ships"]
    assert all(s["count"] == 0 and s["good"] is None for s in ours["ships"])
    assert ours["quarries_left"] == classic["quarries_left"] == (5 if players == 2 else 8)
    assert Scenario1897(players).invariant_failures(state) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_SET_7_SET_9_A_37_role_tiles_and_governor(players: int) -> None:
    """SET-7, SET-9, A-37: the role tiles for N (6/7/8: 8 tiles in all, two of them
    Adventurers, both used with 5 players), face up without coins; seat 0 holds the Governor
    marker and picks first."""
    _, _, tiles, _ = COMPONENTS[players]
    sc = Scenario1897(players)
    v = view(sc, sc.state)
    assert len(v["roles"]) == tiles
    assert [r["role"] for r in v["roles"]].count("adventurer") == {3: 0, 4: 1, 5: 2}[players]
    assert all(r["coins"] == 0 and r["taken_by"] is None for r in v["roles"])
    assert v["governor"] == 0
    assert [p["is_governor"] for p in v["players"]] == [True] + [False] * (players - 1)
    assert sc.prompt(sc.state) == role(0)
    assert len(sc.legal(sc.state, 0)) == tiles


def test_D_17_two_player_setup_is_the_classic_one() -> None:
    """D-17, BLG-6, TWO-1, TWO-2, TWO-3, TWO-4, TWO-5, TWO-6: the 2-player setup is the classic
    one (65 VP, 40 + 2 workers, ships 4 and 6, 3 of each property and 3 quarries out, 2 of each
    good out, 7 roles, 3 coins, 1 of each commercial and 2 of each production building) with
    Fruit for the Governor."""
    ours = GAME.view(GAME.setup({"players": 2}, 0), None)
    classic = in_1897_words(CLASSIC.view(CLASSIC.setup({"players": 2}, 0), None))
    for key in (
        "vp_tokens_left",
        "workers",
        "ships",
        "quarries_left",
        "goods_supply",
        "market",
        "property_bag",
    ):
        assert ours[key] == classic[key], key
    assert [r["role"] for r in ours["roles"]] == [r["role"] for r in classic["roles"]]
    assert [p["coins"] for p in ours["players"]] == [p["coins"] for p in classic["players"]]
    assert [p["coins"] for p in ours["players"]] == [3, 3]
    assert ours["vp_tokens_left"] == 65 and ours["workers"] == {"agency": 2, "supply": 40}
    left = {m["building"]: m["left"] for m in ours["market"]}
    assert (left["small_fruit_depot"], left["small_market"], left["city_hall"]) == (2, 1, 1)
    assert [p["field"] for p in ours["players"]] == [
        [{"tile": "fruit", "occupied": False}],
        [{"tile": "corn", "occupied": False}],
    ]


def test_D_7_A_33_83_coins_but_the_bank_is_unlimited() -> None:
    """D-7, A-33: 83 coins in all (the bank's and the players'); the bank still pays when it has
    none left: 4 players hold all 83, the Adventurer takes his coin all the same."""
    sc = Scenario1897(4)
    state = sc.state
    assert state.bank + sum(coins(sc, state)) == 83
    sc.player(0, doubloons=83 - 9)
    assert sc.state.bank == 0
    state = sc.choose("adventurer", 0)
    assert coins(sc, state) == [75, 3, 3, 3]
    assert state.bank == -1
    assert sc.events_of("CoinsEarned")[-1].data == {"amount": 1, "reason": "adventurer"}
    assert sc.invariant_failures(state) == []


def test_RND_4_A_37_both_adventurers_in_one_round() -> None:
    """RND-4, A-37, ADV-1: 5 players, two Adventurer tiles: one player takes one (+1 coin), the
    next may take the other (+1 coin)."""
    sc = Scenario1897(5)
    state = sc.choose("adventurer", 0)
    assert sc.prompt(state) == role(1)
    assert "r.adventurer2" in sc.legal(state, 1)
    assert "r.adventurer" not in sc.legal(state, 1)
    state = sc.act(state, 1, "r.adventurer2")
    assert coins(sc, state) == [5, 5, 4, 4, 4]
    taken = {r["card"]: r["taken_by"] for r in view(sc, state)["roles"]}
    assert (taken["adventurer"], taken["adventurer2"]) == (0, 1)
    assert sc.prompt(state) == role(2)
    assert sc.invariant_failures(state) == []


def test_D_16_A_35_sale_prices_0_1_2_3_4() -> None:
    """D-16, A-35, TRD-2, TRD-3: 5 players, the Trader has nothing to sell; the others sell
    Corn 0, Fruit 1, Sugar 2, Tobacco 3 (the house is full and emptied); in the next Trader
    phase Coffee sells for 4."""
    sc = Scenario1897(5)
    for seat, good in enumerate(GOODS[:4], start=1):
        sc.player(seat, doubloons=0, goods={good: 1})
    state = sc.choose("trader", 0)  # the Trader, with nothing to sell, is not asked
    assert sc.prompt(state) == Prompt((1,), "sell", False)
    for seat, good in enumerate(GOODS[:4], start=1):
        state = sc.act(state, seat, f"t.{good}")
    assert coins(sc, state) == [4, 0, 1, 2, 3]
    assert view(sc, state)["trading_house"] == []
    sc.player(1, goods={"coffee": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 1, "t.coffee")
    assert coins(sc, state)[1] == 4
    assert [e.data["price"] for e in sc.events_of("GoodSold")] == [0, 1, 2, 3, 4]
    assert sc.invariant_failures(state) == []


def test_TWO_8_two_players_end_after_the_triggering_phase() -> None:
    """TWO-8, END-T3, END-2: 2 players; the last VP token is taken in a Captain phase: the other
    player still loads, then the game ends (no further role)."""
    sc = Scenario1897(2)
    sc.player(0, goods={"corn": 2})
    sc.player(1, goods={"sugar": 2})
    sc.set_vp_supply(1)
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.0")
    assert not state.over
    assert sc.prompt(state) == Prompt((1,), "ship", True)
    state = sc.act(state, 1, "ship.sugar.1")
    assert state.over and sc.prompt(state) is None
    assert view(sc, state)["end_triggered"] == ["vp_tokens"]
    assert sc.events_of("RoundEnded") == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("vp_tokens",)
    assert sc.invariant_failures(state) == []
