"""Issue #33: every constant of 1897's Expansions I-VI held exactly: the building tables of
§5.4 and §5.5 (cost, VP, worker spaces, level, copies, kind), the numbers of the buildings'
effects not held elsewhere (the Church at each level, the Zoning Office's coin both ways, the
Canal's one crate, the Chapel's and Park Administration's rewards), the Festival's rewards
(§7.4) and each Achievement card's VP (Appendix D.1) as the final score adds them.  The
Smuggler's 3s, the Festival Activities' rewards, the Puertomas' scoring of the persons' cards
and the Puertoma's skills are held by ``test_thresholds.py``, ``test_festival_activities.py``
and ``test_puertoma.py``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.state import State
from engine.puerto_rico_1897.achievements import ACH_MET, CARD_INDEX
from engine.puerto_rico_1897.game import PUERTO_RICO_1897 as GAME
from engine.puerto_rico_1897.names import REVERSE, word
from tests.engine.puerto_rico.nobles_scenario import nobles
from tests.engine.puerto_rico_1897.scenario import Scenario1897, coins, score_parts, view

COMMON = "small_violet"  # the kernel's kinds: a common and an expanded commercial building
EXPANDED = "large_violet"
LARGE_PRODUCTION = "large_production"

# name: (cost, VP, worker spaces, level = quarry cap, copies with 3-5 players, kind, size)
EXPANSION_I = {
    "canal": (1, 1, 1, 1, 2, COMMON, 1),  # B-24
    "hidden_market": (2, 1, 1, 1, 2, COMMON, 1),  # B-25
    "lumber_mill": (2, 1, 1, 1, 2, COMMON, 1),  # B-26
    "depot": (3, 1, 1, 1, 2, COMMON, 1),  # B-27
    "shack": (4, 2, 2, 2, 2, COMMON, 1),  # B-28: 2 worker spaces
    "merchants_post": (5, 2, 1, 2, 2, COMMON, 1),  # B-29
    "church": (5, 2, 1, 2, 2, COMMON, 1),  # B-30
    "small_wharf": (6, 2, 1, 2, 2, COMMON, 1),  # B-31 (cost 6: the seed)
    "lighthouse": (7, 3, 1, 3, 2, COMMON, 1),  # B-32
    "press_center": (8, 3, 1, 3, 2, COMMON, 1),  # B-33
    "distillery": (8, 3, 1, 3, 2, COMMON, 1),  # B-34
    "assembly_hall": (9, 3, 1, 3, 2, COMMON, 1),  # B-35
    "cathedral": (10, 4, 1, 4, 1, EXPANDED, 2),  # B-36
    "monument": (10, 8, 0, 4, 1, EXPANDED, 2),  # B-37: 8 VP (the seed), 0 spaces
}
EXPANSION_II = {
    "zoning_office": (2, 1, 1, 1, 2, COMMON, 1),  # B-38
    "chapel": (3, 1, 1, 1, 2, COMMON, 1),  # B-39
    "park_administration": (4, 2, 1, 2, 2, COMMON, 1),  # B-40
    "notary": (5, 2, 1, 2, 2, COMMON, 1),  # B-41
    "rescue_post": (6, 2, 1, 2, 2, COMMON, 1),  # B-42
    "country_house": (7, 3, 1, 3, 2, COMMON, 1),  # B-43
    "large_tailor_shop": (8, 3, 1, 3, 2, LARGE_PRODUCTION, 1),  # B-44: a large production one
    "town_square": (10, 4, 1, 4, 1, EXPANDED, 2),  # B-45
}


def _rows(state: State, table: dict[str, tuple[Any, ...]]) -> dict[str, tuple[Any, ...]]:
    out = {}
    for name in table:
        b = BUILDING_INDEX[word(name, REVERSE)]
        c = CATALOG[b]
        out[name] = (state.rs.cost[b], c.vp, c.circles, state.rs.column[b], state.rs.copies[b],
                     c.kind, 2 if c.kind == EXPANDED else 1)
    return out


def test_B_24_to_B_37_A_30_expansion_i_buildings_table() -> None:
    """B-24...B-37, A-25, A-30, BLG-4 (§5.4): every Expansion I building's cost, VP, worker
    spaces, level (the quarry cap: its VP, 4 for the expanded ones), copies (2 common, 1
    expanded) and size, in an 1897 game with the expansion (4 players)."""
    state = GAME.setup({"players": 4, "expansions": [1]}, 1)
    assert _rows(state, EXPANSION_I) == EXPANSION_I


def test_B_38_to_B_45_A_30_expansion_ii_buildings_table() -> None:
    """B-38...B-45, A-30 (§5.5): every Expansion II building's cost, VP, worker spaces, level,
    copies and size; the Large Tailor Shop is a large production building (Fire Station)."""
    state = GAME.setup({"players": 4, "expansions": [1, 2]}, 1)
    assert _rows(state, EXPANSION_II) == EXPANSION_II


def test_B_19_the_fire_station_counts_the_large_tailor_shop_as_large() -> None:
    """B-19, B-44: the occupied Fire Station counts the Large Tailor Shop as a large production
    building (+2), as the Large Sugar Mill."""
    sc = Scenario1897(4, expansions=[2])
    sc.player(0, buildings={"fire_station": 1, "large_tailor_shop": 0, "small_sugar_mill": 0})
    assert score_parts(sc, 0)["fire_station"] == 2 + 1


def tray(players: int, names: list[str], expansions: tuple[int, ...] = (1,),
         **options: Any) -> Scenario1897:
    sc = Scenario1897(players, expansions=list(expansions), **options)
    sc.board([word(n, REVERSE) for n in names])
    return sc


@pytest.mark.parametrize(("name", "vp"), [
    ("canal", 0), ("hidden_market", 0),  # 1 VP: nothing
    ("shack", 1), ("merchants_post", 1), ("small_wharf", 1),  # 2 VP: +1
    ("lighthouse", 1), ("assembly_hall", 1),  # 3 VP: +1
    ("cathedral", 2), ("monument", 2),  # expanded: +2
])
def test_B_30_church_vp_for_each_level(name: str, vp: int) -> None:
    """B-30: the occupied Church's owner building a 1-VP building gets 0, a 2- or 3-VP common
    building +1, an expanded building +2 (VP tokens from the supply)."""
    sc = tray(3, ["church", name])
    sc.player(0, doubloons=20, vp=0, buildings={"church": 1})
    state = sc.act(sc.choose("builder", 0), 0, f"b.{name}")
    assert state.players[0].vp == vp


def test_B_24_canal_one_extra_sugar_with_the_large_mill() -> None:
    """B-24: producing Sugar with the Large Sugar Mill gives exactly 1 extra Sugar (3 + 1),
    whatever the amount."""
    sc = tray(3, ["canal"])
    sc.player(1, tiles={"sugar": (3, 3)}, buildings={"canal": 1, "large_sugar_mill": 3})
    state = sc.act(sc.choose("craftsman", 0), 1, "produce")
    assert state.players[1].goods[2] == 4


def test_B_38_zoning_office_sells_a_property_for_exactly_one_coin() -> None:
    """B-38 [C]: a property discarded from his field for 1 coin (its worker to the portrait);
    [W] a property from the bag for 1 coin (``test_thresholds.py``)."""
    sc = Scenario1897(3, expansions=[2])
    sc.player(0, doubloons=0, buildings={"zoning_office": 1}, tiles={"corn": (1, 1)})
    nobles(sc, 0, land_office=1)
    state = sc.act(sc.choose("trader", 0), 0, "zo.sell.corn")
    assert coins(sc, state)[0] == 1
    p = view(sc, state)["players"][0]
    assert p["field_used"] == 0 and p["portrait"] == 1
    assert view(sc, state)["property_discard"] == 1


@pytest.mark.parametrize(("citizen", "coins_gained", "vp"), [(False, 1, 0), (True, 0, 1)])
def test_B_39_chapel_one_coin_or_one_vp(citizen: bool, coins_gained: int, vp: int) -> None:
    """B-39: at the start of the Craftsman phase the Chapel [W] gives exactly 1 coin, [C]
    exactly 1 VP."""
    sc = Scenario1897(4, expansions=[2])
    sc.player(1, doubloons=0, vp=0, buildings={"chapel": 1})
    if citizen:
        nobles(sc, 1, chapel=1)
    state = sc.choose("craftsman", 0)
    assert (state.players[1].doubloons, state.players[1].vp) == (coins_gained, vp)


# --- Expansion IV's rewards (§7.4) ---------------------------------------------------------------


def test_X4_4_festival_rewards_3_workers_3_coins_3_vp() -> None:
    """X4-4: the property goal gives 3 workers (from the supply), the goods goal 3 coins, the
    building goal 3 VP -- each exactly."""
    sc = Scenario1897(4, expansions=[4])
    sc.festival(plantation="tobacco", goods=["corn", "corn", "corn"], building="harbor")
    sc.player(0, tiles={"tobacco": 2})
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    supply = sc.state.colonist_supply
    state = sc.act(sc.choose("planter", 0), 0, "p.tobacco")
    assert state.players[0].san_juan == 3 and state.colonist_supply == supply - 3

    sc = Scenario1897(4, expansions=[4])
    sc.festival(plantation="tobacco", goods=["corn", "corn", "corn"], building="harbor")
    sc.player(1, doubloons=0, tiles={"corn": (3, 3)})
    state = sc.act(sc.choose("craftsman", 0), 1, "produce")
    assert coins(sc, state)[1] == 3

    sc = Scenario1897(4, expansions=[4])
    sc.festival(plantation="tobacco", goods=["corn", "corn", "corn"], building="harbor")
    sc.player(0, doubloons=7, vp=0)
    state = sc.act(sc.choose("builder", 0), 0, "b.harbor")
    assert state.players[0].vp == 3


# --- Expansion VI: each card's VP as scored (Appendix D.1, X6-4, §8.13) --------------------------

VP = {
    "big_spender": 5, "caramel_popcorn_inventor": 4, "coffee_dispatcher": 5,
    "confectionery_supplier": 4, "corn_dispatcher": 3, "deal_closer": 4, "dock_tycoon": 5,
    "fruit_dispatcher": 3, "head_administrator": 6, "independent_shipper": 4,
    "leading_employer": 6, "leading_producer": 6, "luxury_crop_trader": 4,
    "luxury_goods_provider": 5, "major_investor": 7, "major_landowner": 7,
    "master_agronomist": 5, "master_architect": 3, "master_collector": 7, "pastry_maker": 4,
    "prudent_merchant": 4, "senior_bureaucrat": 7, "specialised_shipper": 5,
    "sugar_dispatcher": 4, "tavern_supplier": 4, "tobacco_dispatcher": 5,
    "tobacco_and_fruit_broker": 4, "trade_strategist": 7, "trade_tycoon": 4,
    "tropical_produce_magnate": 4,
}
assert len(VP) == 30


@pytest.mark.parametrize("name", sorted(VP))
def test_X6_4_D_1_each_completed_card_scores_its_vp(name: str) -> None:
    """X6-4, D.1, §4.2 item 4: a completed card adds exactly its VP to its holder's final
    score (the spec's table, card by card)."""
    sc = Scenario1897(4, expansions=[6])
    sc.achievements(0, [name], met=[name])
    state = sc.state
    others = [c for c in range(30) if state.achievement_owner[c] == 0 and c != CARD_INDEX[name]]
    assert all(state.achievement_status[c] != ACH_MET for c in others)
    assert score_parts(sc, 0)["achievements"] == VP[name]

