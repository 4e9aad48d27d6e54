"""Expansion 1, The New Buildings: the buildings (rules spec §10.2, rulings A22-A32, A39, A45,
A49, A50 of §14.2, Appendix C; the seed [A] p. 13-16, which wins where the two disagree).

Each test names its rule and, for a worked example, its id (T-EXP1-FH, T-EXP1-FH2, T-EXP1-BM) or
the [A] example it replays.  The board is set with ``Scenario.board`` (the violet buildings as if
drafted), forests with ``Scenario.player(forests=...)``.  The Guest House is tested elsewhere.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction, InvalidAction, NotYourTurn, Prompt
from engine.puerto_rico.data import GOOD_INDEX
from engine.puerto_rico.legality import sale_price
from engine.puerto_rico.scoring import score_breakdown
from engine.puerto_rico.state import GAME_OVER, State
from tests.engine.puerto_rico.scenario import GAME, Scenario, building

NEW_BUILDINGS: dict[str, Any] = {"modules": ["new_buildings"], "building_selection": "random"}


def exp1(*board: str, players: int = 4, seed: int = 0) -> Scenario:
    """A game with Exp. 1 whose violet spaces hold exactly ``board``."""
    sc = Scenario(players=players, seed=seed, **NEW_BUILDINGS)
    sc.board(board)
    return sc


def _amounts(sc: Scenario, event: str, reason: str, seat: int | None = None) -> list[int]:
    return [
        int(e.data["amount"])
        for e in sc.events_of(event)
        if e.data["reason"] == reason and (seat is None or e.seat == seat)
    ]


def _price(state: State, seat: int, name: str) -> int:
    [entry] = [m for m in GAME.view(state, seat)["market"] if m["building"] == name]
    return int(entry["price"])


def _codes(sc: Scenario, state: State, seat: int, prefix: str) -> set[str]:
    return {c for c in sc.legal(state, seat) if c.startswith(prefix)}


# --- Forest House (§10.2, A22, A49) -------------------------------------------------------------


def test_t_exp1_fh_eva_builds_the_wharf_for_3() -> None:
    """T-EXP1-FH ([A] example): Eva, the Builder, with an occupied Forest House, 5 forests and 4
    occupied quarries builds the Wharf (9, column 3): 9 − 1 − floor(5/2) − min(4, 3) = 3."""
    sc = exp1("forest_house", "wharf")
    sc.player(
        0,
        doubloons=3,
        tiles={"quarry": (4, 4)},
        forests={"corn": 2, "sugar": 3},
        buildings={"forest_house": 1},
    )
    state = sc.choose("builder", 0)
    assert _price(state, 0, "wharf") == 3
    state = sc.act(state, 0, "b.wharf")
    assert state.players[0].doubloons == 0
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "wharf", "price": 3}
    assert sc.invariant_failures(state) == []


def test_t_exp1_fh_one_doubloon_short_cannot_build() -> None:
    """T-EXP1-FH: with 2 doubloons Eva cannot afford the Wharf at 3."""
    sc = exp1("forest_house", "wharf")
    sc.player(
        0,
        doubloons=2,
        tiles={"quarry": (4, 4)},
        forests={"corn": 5},
        buildings={"forest_house": 1},
    )
    state = sc.choose("builder", 0)
    assert "b.wharf" not in sc.legal(state, 0)


def test_t_exp1_fh2_large_warehouse_costs_nothing() -> None:
    """T-EXP1-FH2 (public source): the Builder with 6 forests and 2 occupied quarries builds the
    Large Warehouse (6): 6 − 1 − 2 − 3 = 0, with no money at all."""
    sc = exp1("forest_house", "large_warehouse")
    sc.player(
        0,
        doubloons=0,
        tiles={"quarry": (2, 2)},
        forests={"indigo": 6},
        buildings={"forest_house": 1},
    )
    state = sc.choose("builder", 0)
    assert _price(state, 0, "large_warehouse") == 0
    state = sc.act(state, 0, "b.large_warehouse")
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "large_warehouse", "price": 0}
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("colonists", "price"), [(1, 0), (0, 4)])
def test_forest_discount_has_no_column_cap_and_needs_the_house_occupied(
    colonists: int, price: int
) -> None:
    """§10.2 Forest House: 1 doubloon less per 2 forests with no column limit (8 forests take 4
    off the column-2 Hospice, where quarries could take only 2); an unoccupied Forest House
    gives nothing (§4.0)."""
    sc = exp1("forest_house", "hospice")
    sc.player(1, doubloons=4, forests={"corn": 8}, buildings={"forest_house": colonists})
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    assert _price(state, 1, "hospice") == price
    state = sc.act(state, 1, "b.hospice")
    assert state.players[1].doubloons == 4 - price


def test_forest_house_settler_places_a_face_up_plantation_as_a_forest() -> None:
    """§10.2 Forest House, Settler: the owner may take a face-up plantation and lay it face down
    as a forest instead; a player without it may not; the forest fills an island space and shows
    as a forest, never occupied."""
    sc = exp1("forest_house")
    sc.player(0, buildings={"forest_house": 1})
    sc.face_up(["corn", "indigo", "sugar", "coffee", "coffee"])
    state = sc.choose("settler", 0)
    assert _codes(sc, state, 0, "f.") == {"f.corn", "f.indigo", "f.sugar", "f.coffee"}
    state = sc.act(state, 0, "f.coffee")
    p = state.players[0]
    assert p.forests[GOOD_INDEX["coffee"]] == 1 and p.tiles[GOOD_INDEX["coffee"]] == 0
    assert p.island() == 2  # the starting indigo and the forest
    assert state.face_up.count(GOOD_INDEX["coffee"]) == 1
    [placed] = sc.events_of("ForestPlaced")
    assert (placed.seat, placed.data) == (0, {"tile": "coffee", "source": "face_up"})
    assert GAME.prompt(state) == Prompt((1,), "settle", False)  # his turn is over
    assert _codes(sc, state, 1, "f.") == set()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, GAME.decode_action("f.corn"))
    assert err.value.code == "illegal_now"  # a settle decision, not the wrong decision
    island = GAME.view(state, None)["players"][0]["island"]
    assert {"tile": "forest", "occupied": False} in island
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("accept", [True, False])
def test_forest_house_hacienda_tile_may_become_a_forest_after_seeing_it(accept: bool) -> None:
    """§10.2 Forest House with an occupied Hacienda ([A]; both in one game: A22 default): he
    looks at the drawn tile first, then decides whether it becomes a forest (A49); the normal
    pick follows either way."""
    sc = exp1("forest_house", "hacienda")
    sc.player(0, buildings={"forest_house": 1, "hacienda": 1})
    sc.stacks({"tobacco": 4})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.hacienda")
    assert sc.events_of("PlantationTaken")[-1].data == {"tile": "tobacco", "source": "hacienda"}
    assert GAME.prompt(state) == Prompt((0,), "forest", False)
    assert sc.legal(state, 0) == ["o.forest", "pass"]
    state = sc.act(state, 0, "o.forest" if accept else "pass")
    p = state.players[0]
    tobacco = GOOD_INDEX["tobacco"]
    assert (p.forests[tobacco], p.tiles[tobacco]) == ((1, 0) if accept else (0, 1))
    placed = [e.data for e in sc.events_of("ForestPlaced")]
    assert placed == ([{"tile": "tobacco", "source": "hacienda"}] if accept else [])
    assert GAME.prompt(state) == Prompt((0,), "settle", False)  # now the normal pick
    assert "s.hacienda" not in sc.legal(state, 0)
    assert sc.invariant_failures(state) == []


def test_forest_house_hospice_colonist_for_a_forest_goes_to_san_juan() -> None:
    """§10.2 Forest House with an occupied Hospice ([A]): he gets the colonist for a forest too,
    but it goes to San Juan (a forest holds no colonist)."""
    sc = exp1("forest_house", "hospice")
    sc.player(0, buildings={"forest_house": 1, "hospice": 1})
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "f.corn")
    assert GAME.prompt(state) == Prompt((0,), "hospice", False)
    state = sc.act(state, 0, "o.hospice")
    p = state.players[0]
    assert p.san_juan == 1 and p.workers[GOOD_INDEX["corn"]] == 0
    assert sc.events_of("ColonistGained")[-1].data["target"] == "san_juan"
    assert sc.invariant_failures(state) == []


def test_forests_fill_the_12_island_spaces_and_count_for_the_residence() -> None:
    """§10.2 Forest House: forests fill island spaces; a full island (8 plantations and 4
    forests) takes nothing in the Settler phase, and the Residence counts the forests (10
    filled spaces with 3 forests: 5 VP)."""
    sc = exp1("forest_house", "residence")
    sc.player(0, tiles={"corn": 8}, forests={"sugar": 4}, buildings={"forest_house": 1})
    sc.player(1, tiles={"corn": 7}, forests={"sugar": 3}, buildings={"residence": 1})
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    state = sc.choose("settler", 0)
    assert sc.legal(state, 0) == []
    assert GAME.prompt(state) == Prompt((1,), "settle", False)  # seat 0 was skipped
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, GAME.decode_action("f.corn"))
    assert score_breakdown(state, 1)["residence"] == 5


def test_no_colonist_on_a_forest() -> None:
    """§10.2 Forest House: forests need no colonist and cannot hold one: with 1 corn plantation
    and 3 forests, 2 colonists fill the corn and the other waits in San Juan."""
    sc = exp1("forest_house")
    sc.player(0, tiles={"corn": 1}, forests={"indigo": 3}, buildings={"forest_house": 0})
    sc.set_colonists(ship=4)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "m.privilege")
    p = state.players[0]
    # two circles (the corn and the Forest House) for 2 colonists: no choice, filled at once
    assert p.workers[GOOD_INDEX["corn"]] == 1 and p.bw[building("forest_house")] == 1
    assert p.san_juan == 0
    with pytest.raises(InvalidAction):
        GAME.decode_action("m.forest")
    assert sc.invariant_failures(state) == []


# --- Black Market (§10.2, A23) ------------------------------------------------------------------


def _leo(doubloons: int, **extra: Any) -> tuple[Scenario, State]:
    """Leo (seat 1, not the Builder) has an occupied Black Market, 1 sugar and 2 VP chips; the
    Builder (seat 0) has passed."""
    sc = exp1("black_market", "factory", "small_market")
    sc.player(0, doubloons=0)
    sc.player(
        1,
        doubloons=doubloons,
        vp=2,
        goods=extra.pop("goods", {"sugar": 1}),
        buildings=extra.pop("buildings", {"black_market": 1}),
        **extra,
    )
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    return sc, state


def test_t_exp1_bm_leo_pays_5_doubloons_a_sugar_and_a_vp_chip_for_the_factory() -> None:
    """T-EXP1-BM ([A] example): Leo has 5 doubloons and wants the Factory (7): he pays his 5
    doubloons, returns 1 sugar and 1 VP chip, builds, and ends with 0 doubloons."""
    sc, state = _leo(5)
    assert _codes(sc, state, 1, "bm.factory") == {"bm.factory.g.sugar.vp"}
    supply = state.goods[GOOD_INDEX["sugar"]], state.vp_supply
    state = sc.act(state, 1, "bm.factory.g.sugar.vp")
    leo = state.players[1]
    assert (leo.doubloons, leo.vp, leo.goods[GOOD_INDEX["sugar"]]) == (0, 1, 0)
    assert leo.bw[building("factory")] == 0
    assert (state.goods[GOOD_INDEX["sugar"]], state.vp_supply) == (supply[0] + 1, supply[1] + 1)
    [used] = sc.events_of("BlackMarketUsed")
    assert (used.seat, used.data) == (1, {"doubloons": 5, "good": "sugar", "vp": 1})
    assert sc.events_of("BuildingBuilt")[-1].data["building"] == "factory"
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("doubloons", [7, 9])
def test_t_exp1_bm_illegal_when_he_can_pay_the_price(doubloons: int) -> None:
    """T-EXP1-BM: with ≥ 7 doubloons Leo cannot use the Black Market for the Factory (only when
    short of money; he must end with 0 doubloons); he builds it the normal way."""
    sc, state = _leo(doubloons)
    assert _codes(sc, state, 1, "bm.factory") == set()
    assert "b.factory" in sc.legal(state, 1)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, GAME.decode_action("bm.factory.g.sugar.vp"))
    assert err.value.code == "illegal_now"  # a build decision, not the wrong decision


def test_black_market_exactly_price_minus_doubloons_items_a23() -> None:
    """A23 / §10.2: he pays every doubloon plus exactly (price − doubloons) items: with 6
    doubloons for the Factory (7) one item, a barrel or a VP chip, never both."""
    sc, state = _leo(6)
    assert _codes(sc, state, 1, "bm.factory") == {"bm.factory.g.sugar", "bm.factory.vp"}


def test_black_market_one_of_each_never_its_own_colonist_at_most_three_a23() -> None:
    """A23: at most one colonist (from San Juan, a tile or a building, never the Black Market's
    own), one barrel (of any kind he has) and one VP chip, so at most 3 items: 4 doubloons buy
    the Factory with all three; 3 doubloons never do."""
    extra = {
        "goods": {"corn": 1, "sugar": 2},
        "buildings": {"black_market": 1, "small_market": 1},
        "tiles": {"corn": (1, 1)},
        "san_juan": 1,
    }
    sc, state = _leo(4, **extra)
    assert _codes(sc, state, 1, "bm.factory") == {
        f"bm.factory.c.{place}.g.{good}.vp"
        for place in ("san_juan", "corn", "small_market")
        for good in ("corn", "sugar")
    }
    with pytest.raises(InvalidAction):
        GAME.decode_action("bm.factory.g.sugar.g.corn")
    supply = state.colonist_supply
    state = sc.act(state, 1, "bm.factory.c.small_market.g.sugar.vp")
    leo = state.players[1]
    assert leo.bw[building("small_market")] == 0 and leo.bw[building("black_market")] == 1
    assert state.colonist_supply == supply + 1
    assert sc.events_of("BlackMarketUsed")[-1].data == {
        "doubloons": 4,
        "colonist": "small_market",
        "good": "sugar",
        "vp": 1,
    }
    assert sc.invariant_failures(state) == []
    sc, state = _leo(3, **extra)
    assert _codes(sc, state, 1, "bm.factory") == set()


def test_black_market_unoccupied_gives_nothing() -> None:
    """§4.0: an unoccupied Black Market does nothing."""
    sc, state = _leo(5, buildings={"black_market": 0})
    assert _codes(sc, state, 1, "bm.") == set()


def test_black_market_returning_a_vp_chip_never_cancels_the_game_end() -> None:
    """§10.2 Black Market ([A]): returning a VP chip after an end condition was met does not
    cancel the game end: the game still ends after the round."""
    sc, state = _leo(5)
    sc.set_vp_supply(0)
    state = sc.state
    state.end_reasons.append("vp_chips")
    state = sc.act(state, 1, "bm.factory.g.sugar.vp")
    assert state.vp_supply == 1 and state.end_reasons == ["vp_chips"]
    while GAME.prompt(state) is not None:
        prompt = GAME.prompt(state)
        assert prompt is not None
        codes = sc.legal(state, prompt.seats[0])
        state = sc.act(state, prompt.seats[0], "pass" if "pass" in codes else codes[0])
    assert state.phase == GAME_OVER and state.round == 1


# --- Church (§10.2, A39) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "vp"),
    [
        ("small_market", 0),
        ("indigo_plant", 1),
        ("office", 1),
        ("coffee_roaster", 1),
        ("harbor", 1),
        ("cloister", 2),
        ("statue", 2),
    ],
)
def test_church_vp_by_column_a39(name: str, vp: int) -> None:
    """§10.2 Church, A39: +0 / +1 / +1 / +2 VP from the supply for building in column 1 / 2 /
    3 / 4 (the Statue, column 4 though worth 8, gives 2)."""
    sc = exp1("church", "small_market", "office", "harbor", "cloister", "statue")
    sc.player(0, doubloons=20, buildings={"church": 1})
    state = sc.choose("builder", 0)
    supply = state.vp_supply
    state = sc.act(state, 0, f"b.{name}")
    assert _amounts(sc, "VpEarned", "church") == ([vp] if vp else [])
    assert state.players[0].vp == vp and state.vp_supply == supply - vp
    assert sc.invariant_failures(state) == []


def test_church_gives_nothing_for_itself_nor_unoccupied() -> None:
    """§10.2 Church: nothing for building the Church itself (it is unoccupied when built); an
    unoccupied Church gives nothing."""
    sc = exp1("church", "office")
    sc.player(0, doubloons=20)
    sc.player(1, doubloons=20, buildings={"church": 0})
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.church")
    state = sc.act(state, 1, "b.office")
    assert _amounts(sc, "VpEarned", "church") == []
    assert sc.invariant_failures(state) == []


# --- Craftsman: Aqueduct, Specialty Factory (§10.2, A28, A29) ----------------------------------


def test_aqueduct_a_examples() -> None:
    """§10.2 Aqueduct, [A] examples: 1 indigo from the Small Indigo Plant and 0 sugar from the
    (occupied) Sugar Mill → 1 indigo, no bonus; 2 indigo from the Indigo Plant and 3 sugar from
    the Sugar Mill → 3 indigo and 4 sugar (A28: the large building occupied and ≥ 1 barrel)."""
    sc = exp1("aqueduct")
    sc.player(
        0,
        tiles={"indigo": (1, 1)},
        buildings={"aqueduct": 1, "small_indigo_plant": 1, "sugar_mill": 1},
    )
    sc.player(
        1,
        tiles={"indigo": (2, 2), "sugar": (3, 3)},
        buildings={"aqueduct": 1, "indigo_plant": 2, "sugar_mill": 3},
    )
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[:3] == [0, 1, 0]
    assert state.players[1].goods[:3] == [0, 3, 4]
    bonus = [(e.seat, e.data) for e in sc.events_of("GoodsProduced") if "by" in e.data]
    assert bonus == [(1, {"goods": {"indigo": 1, "sugar": 1}, "by": "aqueduct"})]
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("supply", "got"), [(2, 2), (3, 3)])
def test_aqueduct_bonus_is_limited_by_the_supply(supply: int, got: int) -> None:
    """A28: the bonus barrel comes from the supply, as far as it goes."""
    sc = exp1("aqueduct")
    sc.player(0, tiles={"indigo": (2, 2)}, buildings={"aqueduct": 1, "indigo_plant": 2})
    sc.set_goods_supply(indigo=supply)
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[GOOD_INDEX["indigo"]] == got
    assert sc.invariant_failures(state) == []


def test_aqueduct_needs_the_large_building_occupied() -> None:
    """§10.2 Aqueduct / A28: the small plants never trigger it: indigo processed by the Small
    Indigo Plant while the (large) Indigo Plant is empty gives no bonus."""
    sc = exp1("aqueduct")
    sc.player(
        0,
        tiles={"indigo": (1, 1)},
        buildings={"aqueduct": 1, "indigo_plant": 0, "small_indigo_plant": 1},
    )
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[GOOD_INDEX["indigo"]] == 1
    assert not [e for e in sc.events_of("GoodsProduced") if "by" in e.data]


def test_specialty_factory_henry_example() -> None:
    """§10.2 Specialty Factory, [A] example: Henry produces 5 corn, 4 indigo and 2 sugar: 4 − 1
    = 3 doubloons (corn never counts)."""
    sc = exp1("specialty_factory")
    sc.player(
        0,
        doubloons=0,
        tiles={"corn": (5, 5), "indigo": (4, 4), "sugar": (2, 2)},
        buildings={
            "specialty_factory": 1,
            "indigo_plant": 3,
            "small_indigo_plant": 1,
            "sugar_mill": 2,
        },
    )
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[:3] == [5, 4, 2]
    assert _amounts(sc, "DoubloonsEarned", "specialty_factory") == [3]
    assert state.players[0].doubloons == 3


def test_specialty_factory_counts_the_aqueduct_not_the_privilege_a29() -> None:
    """A29: the barrels of his own production step, Aqueduct bonus included (2 + 1 indigo: 2
    doubloons), Craftsman privilege excluded; corn alone gives nothing."""
    sc = exp1("specialty_factory", "aqueduct")
    sc.player(
        0,
        tiles={"indigo": (2, 2)},
        buildings={"specialty_factory": 1, "aqueduct": 1, "indigo_plant": 2},
    )
    sc.player(1, tiles={"corn": (4, 4)}, buildings={"specialty_factory": 1})
    state = sc.choose("craftsman", 0)
    assert _amounts(sc, "DoubloonsEarned", "specialty_factory", 0) == [2]
    assert _amounts(sc, "DoubloonsEarned", "specialty_factory", 1) == []
    state = sc.act(state, 0, "c.indigo")
    assert state.players[0].goods[GOOD_INDEX["indigo"]] == 4
    assert _amounts(sc, "DoubloonsEarned", "specialty_factory") == [2]
    assert sc.invariant_failures(state) == []


# --- Trader: Trading Post (§10.2, A24) ----------------------------------------------------------


def test_trading_post_sells_a_kind_already_in_the_house_with_the_privilege() -> None:
    """§10.2 Trading Post, A24: he may sell to his own post a kind already in the trading house
    (without an Office); the barrel goes straight to the supply, the house is unchanged, and the
    Trader's privilege applies (indigo 1 + 1)."""
    sc = exp1("trading_post")
    sc.player(0, doubloons=0, goods={"indigo": 1, "tobacco": 1}, buildings={"trading_post": 1})
    sc.house(["indigo"])
    state = sc.choose("trader", 0)
    legal = sc.legal(state, 0)
    assert {"tp.indigo", "tp.tobacco", "t.tobacco"} <= set(legal)
    assert "t.indigo" not in legal
    supply = state.goods[GOOD_INDEX["indigo"]]
    state = sc.act(state, 0, "tp.indigo")
    assert state.players[0].doubloons == 2
    assert state.house == [GOOD_INDEX["indigo"]]
    assert state.goods[GOOD_INDEX["indigo"]] == supply + 1
    assert sc.events_of("GoodSold")[-1].data == {"good": "indigo", "price": 2, "to": "trading_post"}
    assert sc.invariant_failures(state) == []


def test_trading_post_no_market_bonus() -> None:
    """§10.2 Trading Post, [A] note: no Small or Large Market bonus on a sale to his own post
    (tobacco 3 + 1 privilege = 4, where the trading house would pay 3 + 1 + 1 + 2 = 7)."""
    sc = exp1("trading_post", "small_market", "large_market")
    sc.player(
        0,
        doubloons=0,
        goods={"tobacco": 1},
        buildings={"trading_post": 1, "small_market": 1, "large_market": 1},
    )
    state = sc.choose("trader", 0)
    assert sale_price(state, 0, GOOD_INDEX["tobacco"]) == 7
    state = sc.act(state, 0, "tp.tobacco")
    assert state.players[0].doubloons == 4


def test_trading_post_with_a_full_house_one_sale_per_turn_a24() -> None:
    """A24: a full trading house does not stop a Trading Post sale (the others sell nothing);
    still one sale per player per phase; the full house is emptied at the phase end."""
    sc = exp1("trading_post")
    sc.player(0, goods={"corn": 2})
    sc.player(1, goods={"corn": 2, "sugar": 1}, buildings={"trading_post": 1})
    sc.house(["indigo", "sugar", "tobacco", "coffee"])
    state = sc.choose("trader", 0)
    assert GAME.prompt(state) == Prompt((1,), "sell", False)
    assert sc.legal(state, 1) == ["tp.corn", "tp.sugar", "pass"]
    state = sc.act(state, 1, "tp.sugar")
    assert GAME.prompt(state) == Prompt((1,), "role", False)  # the phase is over
    assert state.players[1].goods[:3] == [2, 0, 0]
    assert state.house == []
    assert sc.invariant_failures(state) == []


def test_trading_post_unoccupied_gives_nothing() -> None:
    """§4.0: an unoccupied Trading Post adds no sale."""
    sc = exp1("trading_post")
    sc.player(0, goods={"corn": 1}, buildings={"trading_post": 0})
    state = sc.choose("trader", 0)
    assert _codes(sc, state, 0, "tp.") == set()


# --- Captain: Small Wharf, Lighthouse, Union Hall, Storehouse ----------------------------------


def _captain(*board: str, **owner: Any) -> tuple[Scenario, State]:
    """Seat 1 owns ``owner``; the Captain (seat 0) and the others hold no barrel."""
    sc = exp1(*board)
    sc.player(1, **owner)
    return sc, sc.choose("captain", 0)


def test_small_wharf_ships_several_kinds_for_1_vp_per_2_barrels_once_a26() -> None:
    """§10.2 Small Wharf, A26: barrels of several kinds, any number of each, in one turn, for
    floor(n / 2) VP (3 barrels: 1 VP), to the supply; once per phase: his next turns load
    the cargo ships (compulsory)."""
    sc, state = _captain(
        "small_wharf", goods={"corn": 2, "sugar": 1, "indigo": 2}, buildings={"small_wharf": 1}
    )
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    sw = _codes(sc, state, 1, "sw.")
    assert len(sw) == 3 * 2 * 3 and {"sw.none", "sw.corn2.indigo2.sugar1"} <= sw
    assert "pass" not in sc.legal(state, 1)
    supply = state.goods[:]
    state = sc.act(state, 1, "sw.corn2.sugar1")
    assert state.players[1].goods[:3] == [0, 2, 0]
    assert state.goods[0] == supply[0] + 2 and state.goods[2] == supply[2] + 1
    shipped = sc.events_of("GoodsShipped")[-1]
    assert shipped.data == {"goods": {"corn": 2, "sugar": 1}, "count": 3, "ship": "small_wharf"}
    assert _amounts(sc, "VpEarned", "shipping", 1) == [1]
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    legal = sc.legal(state, 1)
    assert legal and all(code.startswith("ship.indigo.") for code in legal)
    assert sc.invariant_failures(state) == []


def test_small_wharf_with_no_barrel_counts_as_the_load_a27() -> None:
    """A27: a Small Wharf use with 0 barrels counts as that turn's load (no cargo-ship load that
    turn, no VP, no Harbor bonus); his later turns still carry compulsory loads."""
    sc, state = _captain(
        "small_wharf", "harbor", goods={"corn": 2}, buildings={"small_wharf": 1, "harbor": 1}
    )
    state = sc.act(state, 1, "sw.none")
    assert sc.events_of("GoodsShipped")[-1].data["count"] == 0
    assert state.players[1].vp == 0 and state.players[1].goods[0] == 2
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    assert "pass" not in sc.legal(state, 1)
    assert _codes(sc, state, 1, "sw.") == set()
    state = sc.act(state, 1, sc.legal(state, 1)[0])
    assert state.players[1].goods[0] == 0
    assert _amounts(sc, "VpEarned", "harbor") == [1]  # the cargo load only
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("goods", [{}, {"corn": 2}])
def test_small_wharf_without_a_barrel_earns_the_captain_no_privilege_a9(
    goods: dict[str, int],
) -> None:
    """A9 ([C]: no load, no VP) with A27: a Small Wharf use without a barrel loads nothing, so
    the Captain's privilege waits for his first real load (2 corn: 2 + 1 VP)."""
    sc = exp1("small_wharf")
    sc.player(0, goods=goods, buildings={"small_wharf": 1})
    state = sc.choose("captain", 0)
    if not goods:
        assert sc.legal(state, 0) == ["sw.none", "pass"]
    state = sc.act(state, 0, "sw.none")
    assert state.players[0].vp == 0
    if goods:
        state = sc.act(state, 0, sc.legal(state, 0)[0])
        assert _amounts(sc, "VpEarned", "shipping", 0) == [3]
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("code", "harbor"), [("sw.corn1", [1]), ("sw.none", [])])
def test_small_wharf_harbor_bonus_only_with_a_barrel(code: str, harbor: list[int]) -> None:
    """§10.2 Small Wharf: the Harbor gives +1 per Small Wharf use with ≥ 1 barrel (1 barrel is
    0 shipping VP); the player with only the Small Wharf to use may pass."""
    sc = exp1("small_wharf", "harbor")
    sc.player(1, goods={"corn": 1}, buildings={"small_wharf": 1, "harbor": 1})
    sc.ships([(5, "corn", 5), (6, None, 0), (7, None, 0)])
    state = sc.choose("captain", 0)
    assert "pass" in sc.legal(state, 1)
    state = sc.act(state, 1, code)
    assert _amounts(sc, "VpEarned", "harbor") == harbor
    assert _amounts(sc, "VpEarned", "shipping") == []
    assert sc.invariant_failures(state) == []


def test_wharf_and_small_wharf_in_the_same_phase() -> None:
    """§10.2 Small Wharf ([A]): a player with both occupied uses the Wharf and the Small Wharf
    in one Captain phase, on two of his turns; the Lighthouse pays for each load with a barrel
    (A25)."""
    sc = exp1("wharf", "small_wharf", "lighthouse")
    sc.player(
        1,
        doubloons=0,
        goods={"corn": 3, "sugar": 2},
        buildings={"wharf": 1, "small_wharf": 1, "lighthouse": 1},
    )
    sc.ships([(5, "coffee", 5), (6, "tobacco", 6), (7, "indigo", 7)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "wharf.corn")
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    assert "wharf.sugar" not in sc.legal(state, 1)
    state = sc.act(state, 1, "sw.sugar2")
    assert [e.data["ship"] for e in sc.events_of("GoodsShipped")] == ["wharf", "small_wharf"]
    assert _amounts(sc, "VpEarned", "shipping", 1) == [3, 1]
    assert _amounts(sc, "DoubloonsEarned", "lighthouse", 1) == [1, 1]
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_lighthouse_one_doubloon_per_load_a25() -> None:
    """§10.2 Lighthouse, A25: +1 doubloon each time the owner loads goods (two cargo loads: 2);
    a Small Wharf use without a barrel loads no goods and pays nothing."""
    sc = exp1("lighthouse", "small_wharf")
    sc.player(
        1,
        doubloons=0,
        goods={"corn": 2, "sugar": 1},
        buildings={"lighthouse": 1, "small_wharf": 1},
    )
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "sw.none")
    state = sc.act(state, 1, sc.legal(state, 1)[0])
    state = sc.act(state, 1, sc.legal(state, 1)[0])
    assert _amounts(sc, "DoubloonsEarned", "lighthouse", 1) == [1, 1]
    assert state.players[1].doubloons == 2
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("goods", "doubloons"), [({}, 1), ({"corn": 2}, 2)])
def test_lighthouse_captain_gets_one_even_without_loading_a25(
    goods: dict[str, int], doubloons: int
) -> None:
    """A25: the Captain who owns an occupied Lighthouse gets a flat +1 doubloon on his first
    turn whether or not he loads, plus +1 for each load."""
    sc = exp1("lighthouse")
    sc.player(0, doubloons=0, goods=goods, buildings={"lighthouse": 1})
    state = sc.choose("captain", 0)
    if goods:
        state = sc.act(state, 0, sc.legal(state, 0)[0])
    assert state.players[0].doubloons == doubloons
    assert sc.invariant_failures(state) == []


def test_union_hall_a_examples_at_the_captain_phase_start_a32() -> None:
    """§10.2 Union Hall, [A] examples, A32: at the start of the Captain phase, before any load,
    each owner takes 1 VP per 2 barrels of a kind: Eva (3 corn, 1 coffee, 2 indigo) 2 VP,
    Antonio (4 corn, 2 coffee) 3 VP; owners clockwise from the Captain."""
    sc = exp1("union_hall")
    eva, antonio = 1, 2
    sc.player(eva, goods={"corn": 3, "coffee": 1, "indigo": 2}, buildings={"union_hall": 1})
    sc.player(antonio, goods={"corn": 4, "coffee": 2}, buildings={"union_hall": 1})
    sc.player(3, goods={"corn": 2}, buildings={"union_hall": 0})
    sc.player(0, goods={"sugar": 2})
    state = sc.choose("captain", 0)
    union = [(e.seat, e.data["amount"]) for e in sc.events_of("VpEarned")]
    assert {e.data["reason"] for e in sc.events_of("VpEarned")} == {"union_hall"}
    assert union == [(eva, 2), (antonio, 3)]
    assert not sc.events_of("GoodsShipped")
    assert (state.players[eva].vp, state.players[antonio].vp) == (2, 3)
    assert GAME.prompt(state) == Prompt((0,), "ship", False)
    assert sc.invariant_failures(state) == []


def test_storehouse_with_small_warehouse_keeps_a_kind_and_4_barrels() -> None:
    """§10.2 Storehouse, [A] example: with an occupied Small Warehouse too he keeps every barrel
    of 1 kind plus 4 barrels of any kinds (1 + 3).  (Two buildings of cost 3: with Exp. 2's red
    space.)"""
    sc = exp1("storehouse", "small_warehouse", players=2)
    sc.player(
        1,
        goods={"corn": 5, "indigo": 3, "sugar": 3},
        buildings={"storehouse": 1, "small_warehouse": 1},
    )
    sc.ships([(4, "coffee", 4), (6, "tobacco", 6)])
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "keep", False)
    have = state.players[1].goods
    # every offer: one whole kind plus exactly 4 barrels (only those no other offer contains)
    assert set(sc.legal(state, 1)) == {
        "keep.corn5.indigo3.sugar1",
        "keep.corn5.indigo2.sugar2",
        "keep.corn5.indigo1.sugar3",
        "keep.corn2.indigo3.sugar2",
        "keep.corn1.indigo3.sugar3",
        "keep.corn2.indigo2.sugar3",
    }
    for action in GAME.legal_actions(state, 1):
        kept = action.keep
        assert any(kept[k] == have[k] and sum(kept) - have[k] == 4 for k in range(3))
    state = sc.act(state, 1, "keep.corn5.indigo3.sugar1")
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": {"sugar": 2}}
    assert sc.invariant_failures(state) == []


def test_storehouse_keeps_3_more_barrels_of_any_kinds() -> None:
    """§10.2 Storehouse: 3 more barrels of any kinds than the normal 1: 4 barrels in all."""
    sc = exp1("storehouse", players=2)
    sc.player(1, goods={"corn": 5, "indigo": 3}, buildings={"storehouse": 1})
    sc.ships([(4, "coffee", 4), (6, "tobacco", 6)])
    state = sc.choose("captain", 0)
    assert set(sc.legal(state, 1)) == {
        "keep.corn4",
        "keep.corn3.indigo1",
        "keep.corn2.indigo2",
        "keep.corn1.indigo3",
    }
    state = sc.act(state, 1, "keep.corn1.indigo3")
    assert state.players[1].goods[:2] == [1, 3]
    assert sc.invariant_failures(state) == []


# --- Library (§10.2, A31, A45) ------------------------------------------------------------------


def _library_settler(*buildings: str, players: int = 3) -> tuple[Scenario, State]:
    """Seat 0, the Settler, owns an occupied Library and ``buildings`` (occupied)."""
    sc = exp1("library", *buildings, players=players)
    sc.player(0, buildings={"library": 1, **dict.fromkeys(buildings, 1)})
    sc.face_up(["corn", "indigo", "sugar", "coffee"])
    return sc, sc.choose("settler", 0)


def test_library_settler_second_pick_after_the_others() -> None:
    """§10.2 Library, Settler: after every other player has taken his plantation, the Settler
    takes one of the remaining face-up plantations (no second quarry without a Construction
    Hut); then the phase ends."""
    sc, state = _library_settler()
    state = sc.act(state, 0, "s.quarry")
    state = sc.act(state, 1, "s.corn")
    state = sc.act(state, 2, "s.indigo")
    assert GAME.prompt(state) == Prompt((0,), "settle", False)
    assert sc.legal(state, 0) == ["s.sugar", "s.coffee", "pass"]
    state = sc.act(state, 0, "s.coffee")
    p = state.players[0]
    assert (p.tiles[GOOD_INDEX["coffee"]], p.tiles[5]) == (1, 1)
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_library_second_pick_without_hacienda_or_hospice_colonist() -> None:
    """§10.2 Library: the Hacienda acts once per phase (not on the second pick), and with an
    occupied Hospice he gets a colonist only for his first tile."""
    sc, state = _library_settler("hacienda", "hospice")
    assert "s.hacienda" in sc.legal(state, 0)
    state = sc.act(state, 0, "s.hacienda")
    state = sc.act(state, 0, "s.corn")
    assert GAME.prompt(state) == Prompt((0,), "hospice", False)
    state = sc.act(state, 0, "o.hospice")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    assert "s.hacienda" not in sc.legal(state, 0)
    state = sc.act(state, 0, "s.sugar")
    assert GAME.prompt(state) == Prompt((1,), "role", False)  # no Hospice offer
    assert len(sc.events_of("ColonistGained")) == 1
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("hut", "first", "quarry"),
    [(False, "s.corn", False), (True, "s.corn", True), (True, "s.quarry", False)],
)
def test_library_second_quarry_only_with_construction_hut_a45(
    hut: bool, first: str, quarry: bool
) -> None:
    """§10.2 Library ([A] note), A45: the second tile may be a quarry only with an occupied
    Construction Hut, and only when his first tile was not a quarry (one quarry per phase)."""
    sc, state = _library_settler(*(["construction_hut"] if hut else []))
    state = sc.act(state, 0, first)
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    assert GAME.prompt(state) == Prompt((0,), "settle", False)
    assert ("s.quarry" in sc.legal(state, 0)) is quarry


def test_library_second_pick_may_be_a_forest_a49() -> None:
    """§10.2 Forest House with an occupied Library ([A]), A49: the second tile may be a forest
    too (0, 1 or 2 forests)."""
    sc, state = _library_settler("forest_house")
    state = sc.act(state, 0, "f.corn")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    assert {"f.indigo", "f.sugar", "f.coffee"} <= set(sc.legal(state, 0))
    state = sc.act(state, 0, "f.sugar")
    assert sum(state.players[0].forests) == 2
    assert sc.invariant_failures(state) == []


def _library_owner(role: str, **owner: Any) -> tuple[Scenario, State]:
    sc = exp1("library", "office")
    buildings = {"library": 1, **owner.pop("buildings", {})}
    sc.player(0, buildings=buildings, **owner)
    return sc, sc.choose(role, 0)


def test_library_mayor_takes_2_colonists() -> None:
    """§10.2 Library (public source): the Mayor's privilege is 2 colonists from the supply."""
    sc, state = _library_owner("mayor")
    supply = state.colonist_supply
    state = sc.act(state, 0, "m.privilege")
    gained = sc.events_of("ColonistGained")[-1]
    assert gained.data["by"] == "mayor" and gained.data["count"] == 2
    assert state.players[0].colonists() == 1 + 2 + 1  # the Library's, the privilege, the ship's
    refilled = sc.events_of("ColonistShipRefilled")[-1].data["count"]
    assert state.colonist_supply == supply - 2 - refilled
    assert sc.invariant_failures(state) == []


def test_library_builder_pays_2_less() -> None:
    """§10.2 Library (public source), §6: the Builder pays 2 less (Office 5 → 3)."""
    sc, state = _library_owner("builder", doubloons=3)
    assert _price(state, 0, "office") == 3
    state = sc.act(state, 0, "b.office")
    assert state.players[0].doubloons == 0


def test_library_craftsman_two_barrels_of_kinds_produced() -> None:
    """§10.2 Library ([A]): the Craftsman takes 2 extra barrels, of one kind or two, among the
    kinds he produced (A11)."""
    sc, state = _library_owner(
        "craftsman",
        tiles={"corn": (2, 2), "indigo": (1, 1)},
        buildings={"small_indigo_plant": 1},
    )
    assert sc.legal(state, 0) == ["c.corn", "c.indigo", "pass"]
    state = sc.act(state, 0, "c.corn")
    assert GAME.prompt(state) == Prompt((0,), "craft_privilege", False)
    assert sc.legal(state, 0) == ["c.corn", "c.indigo", "pass"]
    state = sc.act(state, 0, "c.corn")
    assert state.players[0].goods[:2] == [4, 1]
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_library_trader_2_more_doubloons() -> None:
    """§10.2 Library (public source): the Trader's privilege is 2 doubloons (corn: 0 + 2)."""
    sc, state = _library_owner("trader", doubloons=0, goods={"corn": 1})
    state = sc.act(state, 0, "t.corn")
    assert state.players[0].doubloons == 2


def test_library_captain_2_more_vp() -> None:
    """§10.2 Library (public source): the Captain's privilege is 2 VP on his first load."""
    sc, state = _library_owner("captain", goods={"corn": 2})
    state = sc.act(state, 0, sc.legal(state, 0)[0])
    assert _amounts(sc, "VpEarned", "shipping", 0) == [4]


def test_library_prospector_2_doubloons_not_the_card_doubloons_a31() -> None:
    """§10.2 Library, A31: the Prospector's privilege is 2 doubloons; the 3 doubloons lying on
    the card are not doubled (3 + 2 = 5)."""
    sc = exp1("library")
    sc.player(0, doubloons=0, buildings={"library": 1})
    sc.role_doubloons("prospector", 3)
    state = sc.choose("prospector", 0)
    assert state.players[0].doubloons == 5
    assert _amounts(sc, "DoubloonsEarned", "prospector") == [2]
    assert sc.invariant_failures(state) == []


def test_library_only_doubles_the_owners_own_role() -> None:
    """§10.2 Library: only the privilege of a role he picks; another player's Builder phase
    gives him no discount."""
    sc = exp1("library", "office")
    sc.player(1, doubloons=5, buildings={"library": 1})
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    assert _price(state, 1, "office") == 5


# --- Final scoring: Cloister, Statue (§10.2, A50) ----------------------------------------------


def test_cloister_leo_example() -> None:
    """§10.2 Cloister, [A] example: Leo has 6 corn, 1 sugar, 2 tobacco and 3 forests: 3 groups
    of 3 (2 of corn, 1 of forests) → 6 VP; unoccupied, nothing."""
    sc = exp1("cloister")
    island: dict[str, Any] = {
        "tiles": {"corn": 6, "sugar": 1, "tobacco": 2},
        "forests": {"coffee": 1, "sugar": 2},
    }
    sc.player(0, buildings={"cloister": 1}, **island)
    sc.player(1, buildings={"cloister": 0}, **island)
    assert score_breakdown(sc.state, 0)["cloister"] == 6
    assert "cloister" not in score_breakdown(sc.state, 1)


@pytest.mark.parametrize(
    ("tiles", "forests", "vp"),
    [
        ({"quarry": 3, "corn": 3}, {}, 3),
        ({"quarry": 2, "corn": 2}, {"corn": 1}, 0),
        ({"corn": 3, "indigo": 3, "quarry": 3}, {"sugar": 3}, 10),
        ({"corn": 12}, {}, 10),
        ({"corn": 5, "sugar": 4}, {"indigo": 2}, 3),
    ],
)
def test_cloister_groups_quarries_and_forests_are_kinds_a50(
    tiles: dict[str, int], forests: dict[str, int], vp: int
) -> None:
    """§10.2 Cloister, A50: groups of 3 identical island tiles among the 5 plantations,
    quarries and forests (a forest is a forest whatever lies face down); 1/3/6/10 VP for 1/2/3/4
    groups (a plantation and a forest of one kind never group)."""
    sc = exp1("cloister")
    sc.player(0, buildings={"cloister": 1}, tiles=tiles, forests=forests)
    assert score_breakdown(sc.state, 0).get("cloister", 0) == vp


def test_statue_is_worth_8_and_holds_no_colonist() -> None:
    """§10.2 Statue: 8 VP at game end (its printed VP, no bonus), 2 city spaces, no colonist can
    be placed on it and it adds 0 to the Mayor's empty circles (E)."""
    sc = exp1("statue")
    sc.player(0, buildings=["statue"], tiles={"corn": 1})
    assert score_breakdown(sc.state, 0) == {"chips": 0, "buildings": 8}
    sc.set_colonists(ship=4)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "m.privilege")
    assert state.players[0].bw[building("statue")] == 0
    assert state.players[0].san_juan == 1  # the corn took one; none fits on the Statue
    [refilled] = sc.events_of("ColonistShipRefilled")
    assert refilled.data["needed"] == 4  # max(N, E = 0)
    assert GAME.view(state, None)["players"][0]["city_used"] == 2
    assert sc.invariant_failures(state) == []


def test_statue_gets_no_university_colonist() -> None:
    """§10.2 Statue, §8.2 University: no colonist can be placed on the Statue, so building it
    brings no University offer."""
    sc = exp1("statue", "university")
    sc.player(0, doubloons=10, buildings={"university": 1})
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.statue")
    assert GAME.prompt(state) != Prompt((0,), "university", False)
    assert not sc.events_of("ColonistGained")
    assert sc.invariant_failures(state) == []
