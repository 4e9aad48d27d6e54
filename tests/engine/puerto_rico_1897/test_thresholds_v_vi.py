"""Issue #33: the thresholds of 1897's Expansion V (the Festival Activities' tasks) and
Expansion VI (the Achievements' counts, and Big Spender's "paid something") on both sides.
Each test names its rule ids; a position exactly at an objective's number meets it, the same
position one short does not (Appendix D.1: "met at the moment it becomes true").  The
Activities' other sides are in ``test_festival_activities.py`` (a producer one crate short, a
third crate of the house, ...) and the Achievements' in ``test_achievements.py`` (``MEETS``,
``MISSES``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.puerto_rico.state import State
from engine.puerto_rico_1897.achievements import ACH_HELD, ACH_MET, CARD_INDEX
from engine.puerto_rico_1897.names import REVERSE, word
from tests.engine.puerto_rico_1897.scenario import Scenario1897, coins, view
from tests.engine.puerto_rico_1897.test_festival_activities import (
    cards,
    completed_by,
    with_fillers,
)
from tests.engine.puerto_rico_1897.test_festival_activities import scenario as activities

# --- Expansion V (§7.5, X5-3) ---------------------------------------------------------------------


def test_X5_3_specialists_prize_a_second_property_is_not_three() -> None:
    """X5-3 (Specialist's Prize, >= 3 properties of the type): the player with 1 Tobacco takes
    his 2nd: the card stays open; the player with 2 takes his 3rd: completed."""
    sc = activities()
    cards(sc, *with_fillers(("specialists_prize", {"properties": ["tobacco"]})))
    sc.player(0, tiles={"tobacco": 1})
    sc.player(1, tiles={"tobacco": 2})
    sc.face_up(["tobacco", "tobacco", "corn", "sugar", "fruit"])
    state = sc.act(sc.choose("planter", 0), 0, "p.tobacco")
    assert completed_by(state)["specialists_prize"] is None
    state = sc.act(state, 1, "p.tobacco")
    assert completed_by(state)["specialists_prize"] == 1


@pytest.mark.parametrize(("corn", "sugar", "met"), [(2, 0, False), (1, 1, False), (2, 1, True)])
def test_X5_3_twin_farmers_game_two_of_each_type(corn: int, sugar: int, met: bool) -> None:
    """X5-3 (Twin Farmers' Game, >= 2 properties of each of 2 types): taking a Sugar with 2
    Corn and no Sugar (2 + 1) or 1 Corn and 1 Sugar (1 + 2) does not complete it; with 2 Corn
    and 1 Sugar (2 + 2) it does (3 VP)."""
    sc = activities()
    cards(sc, *with_fillers(("twin_farmers_game", {"properties": ["corn", "sugar"]})))
    sc.player(0, vp=0, tiles={"corn": corn, "sugar": sugar} if sugar else {"corn": corn})
    sc.face_up(["sugar", "corn", "fruit", "tobacco", "coffee"])
    state = sc.act(sc.choose("planter", 0), 0, "p.sugar")
    assert (completed_by(state)["twin_farmers_game"] == 0) is met
    assert state.players[0].vp == (3 if met else 0)


def test_X5_3_agriculture_festival_both_goods_produced_not_one() -> None:
    """X5-3 (Agriculture Festival): owning the Corn and Sugar properties and producing Sugar
    alone is one good short; producing Sugar and Coffee completes it (3 coins)."""
    sc = activities()
    cards(sc, *with_fillers(("agriculture_festival",
                             {"properties": ["corn", "sugar"], "goods": ["sugar", "coffee"]})))
    sc.player(0, tiles={"corn": 1, "sugar": (1, 1), "coffee": 1},
              buildings={"small_sugar_mill": 1, "large_coffee_roaster": 1})
    sc.player(1, doubloons=0, tiles={"corn": 1, "sugar": (1, 1), "coffee": (1, 1)},
              buildings={"small_sugar_mill": 1, "large_coffee_roaster": 1})
    state = sc.act(sc.choose("craftsman", 0), 0, "produce")
    assert completed_by(state)["agriculture_festival"] is None
    state = sc.act(state, 1, "produce")
    assert completed_by(state)["agriculture_festival"] == 1
    assert coins(sc, state)[1] == 3


def test_X5_3_festival_goods_delivery_one_and_one_is_not_one_and_two() -> None:
    """X5-3 (Festival Goods Delivery, >= 1 of the first good and >= 2 of the second in one
    Captain phase): 1 Corn and 1 Sugar loaded leave it open; a 2nd Sugar completes it."""
    sc = activities()
    cards(sc, *with_fillers(("festival_goods_delivery", {"goods": ["corn", "sugar"]})))
    sc.ships([(5, None, 0), (6, None, 0), (7, "sugar", 5)])
    sc.player(0, goods={"corn": 1, "sugar": 1})
    sc.player(1, goods={"sugar": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.0")
    state = sc.act(state, 1, "ship.sugar.2")
    state = sc.act(state, 0, "ship.sugar.2")
    assert completed_by(state)["festival_goods_delivery"] is None  # seat 0: 1 Corn + 1 Sugar
    sc2 = activities()
    cards(sc2, *with_fillers(("festival_goods_delivery", {"goods": ["corn", "sugar"]})))
    sc2.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc2.player(0, goods={"corn": 1, "sugar": 2})
    state = sc2.choose("captain", 0)
    state = sc2.act(state, 0, "ship.corn.0")
    state = sc2.act(state, 0, next(c for c in sc2.legal(state, 0) if c.startswith("ship.sugar")))
    assert completed_by(state)["festival_goods_delivery"] == 0


def test_X5_4_a_partial_load_of_the_largest_ship_is_no_dispatch() -> None:
    """X5-4 (Solemn Shipping Ceremony): loading Sugar onto the largest ship leaving it one
    space short (6 of 7) is no dispatch; the crate that fills it (7 of 7) is."""
    sc = activities()
    cards(sc, *with_fillers(("solemn_shipping_ceremony", {"goods": ["sugar"]})))
    sc.ships([(5, None, 0), (6, None, 0), (7, "sugar", 4)])
    sc.player(0, goods={"sugar": 2})
    sc.player(1, goods={"sugar": 1})
    state = sc.act(sc.choose("captain", 0), 0, "ship.sugar.2")
    assert view(sc, state)["ships"][2]["count"] == 6
    assert completed_by(state)["solemn_shipping_ceremony"] is None
    state = sc.act(state, 1, "ship.sugar.2")
    assert completed_by(state)["solemn_shipping_ceremony"] == 1


# --- Expansion VI (§7.6, Appendix D.1): objectives of a player's board, exact and one short ------


def achievements(players: int = 4, expansions: tuple[int, ...] = (6,),
                 **options: Any) -> Scenario1897:
    return Scenario1897(players, expansions=list(expansions), **options)


def met(state: State, name: str) -> bool:
    status = state.achievement_status[CARD_INDEX[name]]
    assert status in (ACH_HELD, ACH_MET)
    return status == ACH_MET


def after_an_action(sc: Scenario1897, name: str) -> bool:
    """Seat 0 holds ``name``; any action (he takes the Adventurer) checks his board: whether
    the card is met then."""
    return met(sc.choose("adventurer", 0), name)


CRATES: list[tuple[str, str, str, int]] = [
    ("caramel_popcorn_inventor", "corn", "sugar", 8),
    ("confectionery_supplier", "fruit", "sugar", 7),
    ("luxury_crop_trader", "tobacco", "coffee", 5),
    ("pastry_maker", "corn", "fruit", 9),
    ("tavern_supplier", "sugar", "coffee", 6),
    ("tobacco_and_fruit_broker", "fruit", "tobacco", 6),
]


@pytest.mark.parametrize(("name", "a", "b", "count"), CRATES)
@pytest.mark.parametrize("short", [0, 1])
def test_X6_3_D_1_two_goods_crates_exactly_the_number(
    name: str, a: str, b: str, count: int, short: int
) -> None:
    """X6-3, D.1 (Caramel Popcorn Inventor >= 8 Corn + Sugar, Confectionery Supplier >= 7
    Fruit + Sugar, Luxury Crop Trader >= 5 Tobacco + Coffee, Pastry Maker >= 9 Corn + Fruit,
    Tavern Supplier >= 6 Sugar + Coffee, Tobacco & Fruit Broker >= 6 Fruit + Tobacco, at least
    one of each): exactly the number met; one crate short not."""
    sc = achievements()
    sc.achievements(0, [name])
    sc.player(0, goods={a: count - 1 - short, b: 1})
    assert after_an_action(sc, name) is (short == 0)


@pytest.mark.parametrize(("name", "a", "b", "count"), CRATES)
def test_X6_3_D_1_two_goods_crates_need_one_of_each(name: str, a: str, b: str, count: int) -> None:
    """X6-3, D.1: the number of crates of one of the two goods alone is not the objective
    (at least one of each)."""
    sc = achievements()
    sc.achievements(0, [name])
    sc.player(0, goods={a: count})
    assert not after_an_action(sc, name)


@pytest.mark.parametrize(("crates", "expected"), [(6, False), (7, True)])
def test_X6_3_D_1_master_collector_7_crates_of_one_good(crates: int, expected: bool) -> None:
    """X6-3, D.1 (Master Collector, >= 7 crates of one good): 6 Sugar (and 6 Corn) not, 7
    Sugar met."""
    sc = achievements()
    sc.achievements(0, ["master_collector"])
    sc.player(0, goods={"sugar": crates, "corn": 6})
    assert after_an_action(sc, "master_collector") is expected


def _head_administrator(short: int) -> dict[str, Any]:
    return {"tiles": {}, "buildings": {
        "large_sugar_mill": 3, "large_tobacco_storage": 3, "large_fruit_depot": 3,
        "large_coffee_roaster": 2, "small_market": 1 - short}}


def _leading_employer(short: int) -> dict[str, Any]:
    return {"tiles": {"corn": (5, 5), "sugar": (4, 4 - short)}, "buildings": {"hospital": 1}}


def _master_agronomist(short: int) -> dict[str, Any]:
    return {"tiles": {"corn": 6, "sugar": 3, "quarry": 3 - short}}


def _major_landowner(short: int) -> dict[str, Any]:
    # 10 field tiles (2 empty) and 10 building spaces used (2 empty); short: one space more
    return {"tiles": {"corn": 5, "quarry": 5 - short},
            "buildings": ["small_market", "hacienda", "builders_yard", "small_warehouse",
                          "office", "large_market", "hospital", "large_warehouse",
                          "small_fruit_depot", "small_sugar_mill"]}


def _major_landowner_buildings(short: int) -> dict[str, Any]:
    return {"tiles": {"corn": 5, "quarry": 5},
            "buildings": ["small_market", "hacienda", "builders_yard", "small_warehouse",
                          "office", "large_market", "hospital", "large_warehouse",
                          "small_fruit_depot", "small_sugar_mill"][:10 - short]}


BOARDS: dict[str, tuple[str, Callable[[int], dict[str, Any]]]] = {
    "12 workers on buildings": ("head_administrator", _head_administrator),
    "9 workers on field tiles": ("leading_employer", _leading_employer),
    "12 field tiles": ("master_agronomist", _master_agronomist),
    "2 empty field spaces": ("major_landowner", _major_landowner),
    "2 empty building spaces": ("major_landowner", _major_landowner_buildings),
}


@pytest.mark.parametrize("label", sorted(BOARDS))
@pytest.mark.parametrize("short", [0, 1])
def test_X6_3_D_1_board_objectives_exactly_the_number(label: str, short: int) -> None:
    """X6-3, D.1: Head Administrator (>= 12 workers on buildings), Leading Employer (>= 9 on
    field tiles), Master Agronomist (12 field tiles), Major Landowner (at most 2 empty field
    and at most 2 empty building spaces): exactly at the number met, one short not."""
    name, board = BOARDS[label]
    sc = achievements()
    sc.achievements(0, [name])
    sc.player(0, **board(short))
    assert after_an_action(sc, name) is (short == 0)


COMMONS = ["small_market", "hacienda", "builders_yard", "small_warehouse", "office",
           "large_market"]
BUILDINGS: dict[str, tuple[str, list[str], str]] = {
    # (card, what he owns before, what he builds): the owned list is cut by ``short`` from
    # the front
    "2 expanded buildings": ("major_investor", ["city_hall"], "customs_house"),
    "7 common commercial buildings": (
        "senior_bureaucrat", COMMONS, "hospital"),
    "3 Fruit or Sugar production buildings": (
        "tropical_produce_magnate", ["small_fruit_depot", "small_sugar_mill"], "large_sugar_mill"),
    "a Sugar, Tobacco and Coffee production building": (
        "luxury_goods_provider", ["small_sugar_mill", "large_tobacco_storage"],
        "large_coffee_roaster"),
}


@pytest.mark.parametrize("label", sorted(BUILDINGS))
@pytest.mark.parametrize("short", [0, 1])
def test_X6_3_D_1_building_objectives_exactly_the_number(label: str, short: int) -> None:
    """X6-3, D.1, checked when a building is bought: Major Investor (>= 2 expanded
    buildings), Senior Bureaucrat (>= 7 common commercial buildings; his expanded City Hall
    and production building do not count), Tropical Produce Magnate (>= 3 Fruit / Sugar
    production buildings), Luxury Goods Provider (a Sugar, a Tobacco and a Coffee production
    building): the purchase reaching the number meets it; one short not."""
    name, owned, last = BUILDINGS[label]
    sc = achievements()
    sc.achievements(0, [name])
    others = ["city_hall", "small_fruit_depot"] if name == "senior_bureaucrat" else []
    sc.player(0, doubloons=20, buildings=[*owned[short:], *others])
    state = sc.act(sc.choose("builder", 0), 0, f"b.{last}")
    assert met(state, name) is (short == 0)


# --- Expansion VI: objectives of one action, exact and one past ----------------------------------


def _expanded_for(sc: Scenario1897, doubloons: int, quarries: int) -> State:
    """Seat 0, the Builder with ``quarries`` occupied quarries and ``doubloons``, builds the
    City Hall (10 - 1 - quarries, cap 4)."""
    sc.player(0, doubloons=doubloons, tiles={"quarry": (quarries, quarries)})
    return sc.act(sc.choose("builder", 0), 0, "b.city_hall")


@pytest.mark.parametrize(("quarries", "price", "expected"), [(3, 6, True), (2, 7, False)])
def test_X6_3_D_1_master_architect_at_most_6_coins(quarries: int, price: int,
                                                   expected: bool) -> None:
    """X6-3, D.1 (Master Architect, the seed's example: an expanded building paying at most
    6 coins): the City Hall for 6 meets it, for 7 not."""
    sc = achievements()
    sc.achievements(0, ["master_architect"])
    state = _expanded_for(sc, 10, quarries)
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "city_hall", "price": price}
    assert met(state, "master_architect") is expected


@pytest.mark.parametrize(("press_center", "price", "expected"), [(1, 0, False), (0, 1, True)])
def test_X6_3_D_1_big_spender_paying_all_means_paying_something(
    press_center: int, price: int, expected: bool
) -> None:
    """X6-3, D.1 (Big Spender: an expanded building paying all your coins): a player with 0
    coins who builds the City Hall for 0 (the Builder with an occupied Press Center, -2; 4
    occupied quarries, -4; 8 forests and the Lumber Mill, -4) paid nothing: not met; with 1
    coin and a price of 1 (his Press Center unoccupied: -1) he pays all his coins: met."""
    sc = achievements(3, expansions=(1, 6))
    sc.board([word(n, REVERSE) for n in ("press_center", "lumber_mill", "city_hall")])
    sc.achievements(0, ["big_spender"])
    sc.player(0, doubloons=price, tiles={"quarry": (4, 4)}, forests={"corn": 8},
              buildings={"press_center": press_center, "lumber_mill": 1})
    state = sc.act(sc.choose("builder", 0), 0, "b.city_hall")
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "city_hall", "price": price}
    assert coins(sc, state)[0] == 0
    assert met(state, "big_spender") is expected


def test_X6_3_D_1_big_spender_a_hidden_market_purchase_with_no_coin_paid_nothing() -> None:
    """X6-3, D.1 (Big Spender), B-25: the Hidden Market takes every coin; a player with no
    coin, short of the City Hall's price 3 (10 - 1 - 4 quarries - 2 for 4 forests), returns a
    worker, a crate and a VP token for it: he paid nothing, so the card is not met."""
    sc = achievements(3, expansions=(1, 6))
    sc.board([word(n, REVERSE) for n in ("hidden_market", "lumber_mill", "city_hall")])
    sc.achievements(0, ["big_spender"])
    sc.player(0, doubloons=0, vp=1, goods={"corn": 1}, tiles={"quarry": (4, 4), "corn": (1, 1)},
              forests={"sugar": 4}, buildings={"hidden_market": 1, "lumber_mill": 1})
    state = sc.choose("builder", 0)
    assert "b.city_hall" not in sc.legal(state, 0)
    state = sc.act(state, 0, "hm.city_hall.c.corn.g.corn.vp")
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "city_hall", "price": 0}
    assert not met(state, "big_spender")


@pytest.mark.parametrize(("load", "expected"), [(3, False), (4, True)])
@pytest.mark.parametrize("good", ["corn", "fruit", "sugar", "tobacco", "coffee"])
def test_X6_3_X6_5_D_1_a_dispatcher_needs_the_crate_that_fills_the_ship(
    good: str, load: int, expected: bool
) -> None:
    """X6-3, X6-5, D.1 (the five Dispatchers: dispatch = the load after which the cargo ship
    is full, X5-4): one crate onto a 5-ship holding 3 of the good leaves it one short: not
    met; onto one holding 4 it fills it: met."""
    name = f"{good}_dispatcher"
    sc = achievements()
    sc.achievements(0, [name])
    sc.ships([(5, good, load), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={good: 1})
    state = sc.act(sc.choose("captain", 0), 0, f"ship.{good}.0")
    assert view(sc, state)["ships"][0]["count"] in (load + 1, 0)
    assert met(state, name) is expected


@pytest.mark.parametrize(("house", "expected"), [(2, False), (3, True)])
def test_X6_3_D_1_deal_closer_the_4th_crate_not_the_3rd(house: int, expected: bool) -> None:
    """X6-3, D.1 (Deal Closer: as the Trader, sell the good that fills the Trading House, the
    4th): the Trader's sale as the 3rd crate is not it; as the 4th it is."""
    sc = achievements()
    sc.achievements(0, ["deal_closer"])
    sc.house(["corn", "fruit", "sugar"][:house])
    sc.player(0, goods={"coffee": 1})
    state = sc.act(sc.choose("trader", 0), 0, "t.coffee")
    assert met(state, "deal_closer") is expected
