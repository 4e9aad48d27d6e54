"""Issue #33: every threshold of the 1897 spec's base game and Expansions I-IV tested on both
sides ("at least N", "exactly N", "reaches 0", "at most N", rounding down).  Each test names
its rule id and puts the same position one step below and at (or one step above) the
threshold, so that moving the threshold by one in either direction fails it.  Thresholds the
existing tests already hold on both sides are not repeated here (the rule table,
``docs/puerto-rico-1897-rules.md``, lists every test of an id); Expansions V and VI are in
``test_thresholds_v_vi.py``, the Puertoma's in ``test_puertoma_thresholds.py``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction, Prompt
from engine.puerto_rico.state import State
from engine.puerto_rico_1897.names import REVERSE, word
from tests.engine.puerto_rico.nobles_scenario import nobles
from tests.engine.puerto_rico_1897.scenario import (
    Scenario1897,
    coins,
    goods,
    held,
    role,
    score_parts,
    view,
)


def tray(players: int, names: list[str], expansions: tuple[int, ...] = (1,),
         **options: Any) -> Scenario1897:
    """An 1897 game with Expansion I whose drafted tray holds exactly ``names`` (1897 words),
    as if the draft had ended."""
    sc = Scenario1897(players, expansions=list(expansions), **options)
    sc.board([word(n, REVERSE) for n in names])
    return sc


# --- §3.3 Planter ------------------------------------------------------------------------------


def test_PLN_2_eleven_field_tiles_take_a_twelfth_then_none() -> None:
    """PLN-2, CON-1: with 11 filled field spaces a player still picks a tile (his 12th); at
    the next Planter phase, with 12, he has no tile choice at all."""
    sc = Scenario1897(3)
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    sc.player(1, tiles={"corn": 6, "quarry": 5})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    assert "p.coffee" in sc.legal(state, 1)
    state = sc.act(state, 1, "p.coffee")
    assert view(sc, state)["players"][1]["field_used"] == 12
    sc.state = state
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "pass")
    assert sc.legal(state, 1) == []
    assert sc.prompt(state) == Prompt((2,), "plant", False)
    assert sc.invariant_failures(state) == []


def test_PLN_3_the_last_quarry_then_none() -> None:
    """PLN-3: one quarry left: the Planter takes it; the occupied Builder's Yard owner after
    him has no quarry option any more (no quarries left, the option disappears)."""
    sc = Scenario1897(3)
    sc.set_quarries(1)
    sc.player(1, buildings={"builders_yard": 1})
    state = sc.choose("planter", 0)
    assert "p.quarry" in sc.legal(state, 0)
    state = sc.act(state, 0, "p.quarry")
    assert view(sc, state)["quarries_left"] == 0
    assert "p.quarry" not in sc.legal(state, 1)
    with pytest.raises(IllegalAction):
        sc.act(state, 1, "p.quarry")
    assert sc.invariant_failures(state) == []


# --- §3.4 Recruiter ----------------------------------------------------------------------------


def _refill(buildings: list[str], supply: int = 40) -> tuple[Scenario1897, State]:
    """4 players, an empty Agency; seat 0 owns these unoccupied buildings and, as the
    Recruiter, declines his advantage: E = their worker spaces."""
    sc = Scenario1897(4)
    sc.set_colonists(supply=supply, ship=0)
    sc.player(0, buildings=buildings)
    state = sc.choose("recruiter", 0)
    return sc, sc.act(state, 0, "pass")


@pytest.mark.parametrize(
    ("buildings", "refill"),
    [
        (["small_market", "hacienda", "builders_yard"], 4),  # E = 3 < N: N
        (["small_market", "hacienda", "builders_yard", "office"], 4),  # E = N
        (["small_market", "hacienda", "builders_yard", "office", "hospital"], 5),  # E = N + 1
    ],
)
def test_REC_4_requested_is_the_larger_of_E_and_N(buildings: list[str], refill: int) -> None:
    """REC-4: requested = max(E, N), E the empty worker spaces on buildings: 4 players,
    E = 3 -> 4; E = 4 -> 4; E = 5 -> 5."""
    sc, state = _refill(buildings)
    assert sc.events_of("AgencyRefilled")[-1].data == {"count": refill, "needed": refill}
    assert view(sc, state)["workers"]["agency"] == refill
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("supply", "trigger"), [(6, True), (7, False), (8, False)])
def test_REC_5_END_T1_one_worker_short_is_a_trigger(supply: int, trigger: bool) -> None:
    """REC-5, END-T1, END-2: E = 7 requested; a supply of 6 (one short) fires the trigger and
    the game ends after the phase; 7 (exactly enough) or 8 does not."""
    sc, state = _refill(["large_sugar_mill", "large_tobacco_storage", "small_market"], supply)
    assert sc.events_of("AgencyRefilled")[-1].data == {"count": min(7, supply), "needed": 7}
    assert (view(sc, state)["end_triggered"] == ["workers"]) is trigger
    assert state.over is trigger
    assert sc.invariant_failures(state) == []


# --- §3.5 Builder ------------------------------------------------------------------------------

TEN = ["small_market", "hacienda", "builders_yard", "small_warehouse", "hospital", "office",
       "large_market", "large_warehouse", "factory", "school"]


def test_BLD_5_END_T2_the_eleventh_space_is_no_trigger_the_twelfth_is() -> None:
    """BLD-5, END-T2, BLD-3: a player with 10 used spaces builds a common building (11 used):
    no trigger, the round goes on; at the next Builder phase his 12th space fills the town."""
    sc = Scenario1897(3)
    sc.player(1, doubloons=20, buildings=TEN)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.harbor")
    state = sc.act(state, 2, "pass")
    assert view(sc, state)["players"][1]["city_used"] == 11
    assert view(sc, state)["end_triggered"] == [] and not state.over
    assert sc.prompt(state) == role(1)
    sc.state = state
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.wharf")
    assert view(sc, state)["players"][1]["city_used"] == 12
    assert view(sc, state)["end_triggered"] == ["city_full"]
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("quarries", "price"), [(1, 4), (2, 3), (3, 3)])
def test_BLD_4_the_quarry_cap_of_a_2_vp_building_on_both_sides(quarries: int, price: int) -> None:
    """BLD-4: the Office (cost 5, 2 VP: cap 2), not the Builder: 1 occupied quarry -> 4,
    2 (the cap) -> 3, 3 (over the cap) -> 3."""
    sc = Scenario1897(4)
    sc.player(1, doubloons=20, tiles={"quarry": (quarries, quarries)})
    state = sc.act(sc.choose("builder", 0), 0, "pass")
    state = sc.act(state, 1, "b.office")
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "office", "price": price}


@pytest.mark.parametrize(("doubloons", "legal"), [(2, False), (3, True)])
def test_BLD_4_the_exact_price_is_affordable(doubloons: int, legal: bool) -> None:
    """BLD-4, BLD-1: the Builder pays the Office 5 - 1 - 1 (one occupied quarry) = 3: with 3
    coins he may build it (and has 0 left), with 2 he may not."""
    sc = Scenario1897(4)
    sc.player(0, doubloons=doubloons, tiles={"quarry": (1, 1)})
    state = sc.choose("builder", 0)
    assert ("b.office" in sc.legal(state, 0)) is legal
    if legal:
        state = sc.act(state, 0, "b.office")
        assert coins(sc, state)[0] == 0
    else:
        with pytest.raises(IllegalAction):
            sc.act(state, 0, "b.office")


# --- §3.7 Trader -------------------------------------------------------------------------------


def test_TRD_2_TRD_3_the_third_crate_leaves_room_the_fourth_fills_the_house() -> None:
    """TRD-2, TRD-3, TRD-1: the house holds 2 crates; the Trader sells the 3rd: the next player
    may still sell (the 4th), which fills the house: the last player loses his turn, and at
    the phase end the 4 crates return to the supply.  Three crates at a phase end stay."""
    sc = Scenario1897(3)
    sc.house(["corn", "fruit"])
    for seat, good in ((0, "sugar"), (1, "tobacco"), (2, "coffee")):
        sc.player(seat, goods={good: 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.sugar")
    assert sc.prompt(state) == Prompt((1,), "sell", False)
    state = sc.act(state, 1, "t.tobacco")
    assert sc.prompt(state) == role(1)  # seat 2 lost his turn
    assert view(sc, state)["trading_house"] == []
    assert goods(sc, state, 2) == held(coffee=1)

    sc = Scenario1897(3)
    sc.house(["corn", "fruit"])
    sc.player(0, goods={"sugar": 1})
    state = sc.finish_phase(sc.act(sc.choose("trader", 0), 0, "t.sugar"))
    assert view(sc, state)["trading_house"] == ["corn", "fruit", "sugar"]
    assert sc.invariant_failures(state) == []


# --- §3.8 Captain, §4.1 end --------------------------------------------------------------------


@pytest.mark.parametrize(("tokens", "trigger"), [(3, False), (2, True), (1, True)])
def test_CAP_7_END_T3_the_supply_reaching_0_in_a_captain_phase(tokens: int, trigger: bool) -> None:
    """CAP-7, END-T3, END-2: the Captain loads 1 Corn (+1 advantage: 2 VP); with 3 tokens left
    1 remains: no trigger; with 2 the supply reaches 0 and with 1 it runs out (1 VP on
    paper): the game ends after the phase."""
    sc = Scenario1897(3)
    sc.set_vp_supply(tokens)
    sc.player(0, goods={"corn": 1})
    state = sc.finish_phase(sc.choose("captain", 0))
    assert state.players[0].vp == 2
    assert view(sc, state)["vp_tokens_left"] == max(0, tokens - 2)
    assert (view(sc, state)["end_triggered"] == ["vp_tokens"]) is trigger
    assert state.over is trigger
    assert sc.invariant_failures(state) == []


def test_CAP_5_one_crate_is_kept_not_two() -> None:
    """CAP-5: without a warehouse a player keeps at most 1 crate in total: with 1 crate nothing
    spoils; with 2 (of one good) one returns to the supply."""
    sc = Scenario1897(3)
    sc.ships([(4, "corn", 4), (5, "fruit", 5), (6, "sugar", 6)])  # every ship full
    sc.player(1, goods={"tobacco": 1})
    sc.player(2, goods={"tobacco": 2})
    tobacco = view(sc, sc.state)["goods_supply"]["tobacco"]
    state = sc.finish_phase(sc.choose("captain", 0))
    assert goods(sc, state, 1) == held(tobacco=1)
    assert goods(sc, state, 2) == held(tobacco=1)
    assert view(sc, state)["goods_supply"]["tobacco"] == tobacco + 1
    assert sc.invariant_failures(state) == []


# --- §5.3 base buildings: rounding down at game end ------------------------------------------


@pytest.mark.parametrize(("workers", "bonus"), [(20, 6), (21, 7), (23, 7), (24, 8)])
def test_B_21_fortress_one_vp_per_3_workers_rounded_down(workers: int, bonus: int) -> None:
    """B-21: +1 VP per 3 workers owned (portrait included), rounded down: 20 -> 6, 21 -> 7,
    23 -> 7, 24 -> 8."""
    sc = Scenario1897(3)
    on_board = 1 + 12  # the Fortress and 12 occupied field tiles
    sc.player(0, tiles={"corn": (12, 12)}, buildings={"fortress": 1},
              san_juan=workers - on_board)
    assert view(sc, sc.state)["players"][0]["workers"] == workers
    assert score_parts(sc, 0)["fortress"] == bonus


@pytest.mark.parametrize(("tokens", "bonus"), [(35, 8), (36, 9), (39, 9), (40, 10)])
def test_B_22_customs_house_one_vp_per_4_tokens_rounded_down(tokens: int, bonus: int) -> None:
    """B-22: +1 VP per 4 VP earned as tokens, rounded down: 35 -> 8, 36 -> 9, 39 -> 9,
    40 -> 10."""
    sc = Scenario1897(4)
    sc.player(0, vp=tokens, buildings={"customs_house": 1})
    assert score_parts(sc, 0) == {"tokens": tokens, "buildings": 4, "customs_house": bonus}


# --- §5.4 Expansion I ----------------------------------------------------------------------------


def _price(sc: Scenario1897, state: State, seat: int, name: str) -> int:
    """What ``seat`` would pay for ``name`` now (his own view of the tray)."""
    [entry] = [m for m in view(sc, state, seat)["market"] if m["building"] == name]
    return int(entry["price"])


@pytest.mark.parametrize(("forests", "price"), [(1, 4), (2, 3), (3, 3), (4, 2), (5, 2)])
def test_B_26_lumber_mill_one_coin_per_two_forests_rounded_down(forests: int, price: int) -> None:
    """B-26: -1 coin per 2 forests (floor(forests / 2)): the Hospital (4), not the Builder:
    1 forest -> 4, 2 -> 3, 3 -> 3, 4 -> 2, 5 -> 2."""
    sc = tray(3, ["lumber_mill", "hospital"])
    sc.player(1, doubloons=4, forests={"corn": forests}, buildings={"lumber_mill": 1})
    state = sc.act(sc.choose("builder", 0), 0, "pass")
    assert _price(sc, state, 1, "hospital") == price
    state = sc.act(state, 1, "b.hospital")
    assert coins(sc, state)[1] == 4 - price
    assert sc.invariant_failures(state) == []


CATHEDRAL_SETS: list[tuple[dict[str, Any], dict[str, int], int]] = [
    # (tiles, forests, bonus): sets of 3 identical field tiles -> 0, 1, 3, 6, 10
    ({"corn": 2, "quarry": 2}, {"sugar": 2}, 0),
    ({"corn": 3, "quarry": 2}, {}, 1),
    ({"corn": 5, "quarry": 2}, {}, 1),
    ({"corn": 6}, {}, 3),
    ({"corn": 3, "quarry": 3}, {"sugar": 3}, 6),
    ({"corn": 3, "quarry": 3}, {"sugar": 6}, 10),
]


@pytest.mark.parametrize(("tiles", "forests", "bonus"), CATHEDRAL_SETS)
def test_B_36_cathedral_each_count_of_sets_of_three(
    tiles: dict[str, Any], forests: dict[str, int], bonus: int
) -> None:
    """B-36: sets of 3 identical field tiles (forests, quarries, each property type apart; 6
    of a kind make 2 sets): two of each kind -> 0; 3 Corn -> 1 set: +1; 5 Corn -> still 1;
    6 Corn -> 2 sets: +3; 3 sets: +6; 4 sets: +10."""
    sc = tray(3, ["cathedral"])
    sc.player(0, buildings={"cathedral": 1}, tiles=tiles, forests=forests)
    parts = score_parts(sc, 0)
    assert parts.get("cathedral", 0) == bonus


@pytest.mark.parametrize(("crates", "vp"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_B_31_small_wharf_one_vp_per_two_crates(crates: int, vp: int) -> None:
    """B-31, A-23: the Small Wharf scores 1 VP per 2 crates loaded, rounded down: 1 -> 0,
    2 -> 1, 3 -> 1, 4 -> 2 (not the Captain: no advantage)."""
    sc = tray(3, ["small_wharf"])
    sc.ships([(4, "corn", 4), (5, "fruit", 5), (6, "sugar", 6)])  # every ship full
    sc.player(1, vp=0, goods={"coffee": crates}, buildings={"small_wharf": 1})
    state = sc.choose("captain", 0)  # the Captain has nothing to load: seat 1's turn
    state = sc.act(state, 1, f"sw.coffee{crates}")
    assert state.players[1].vp == vp
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("held_crates", "vp"), [({"corn": 1}, 0), ({"corn": 2}, 1),
                                                  ({"corn": 3}, 1), ({"corn": 1, "sugar": 1}, 0)])
def test_B_35_assembly_hall_one_vp_per_two_crates_of_a_type(
    held_crates: dict[str, int], vp: int
) -> None:
    """B-35: +1 VP per 2 crates of each type (floor per type): 1 Corn -> 0, 2 -> 1, 3 -> 1;
    1 Corn and 1 Sugar -> 0 (pairs do not mix types)."""
    sc = tray(4, ["assembly_hall"])
    sc.player(1, vp=0, goods=held_crates, buildings={"assembly_hall": 1})
    state = sc.choose("captain", 0)
    assert state.players[1].vp == vp


@pytest.mark.parametrize(("sugar", "bonus"), [(1, 0), (2, 1), (3, 2)])
def test_B_34_distillery_the_most_produced_minus_one(sugar: int, bonus: int) -> None:
    """B-34: (the most crates of one non-Corn good produced) - 1 coins: 1 Sugar -> 0,
    2 -> 1, 3 -> 2 (not the Craftsman: no advantage crate)."""
    sc = tray(3, ["distillery"])
    sc.player(1, doubloons=0, tiles={"sugar": (sugar, sugar)},
              buildings={"distillery": 1, "large_sugar_mill": 3})
    state = sc.act(sc.choose("craftsman", 0), 1, "produce")
    assert goods(sc, state, 1) == held(sugar=sugar)
    assert coins(sc, state)[1] == bonus


# --- §5.5 Expansion II ---------------------------------------------------------------------------


def cit(players: int = 4, **options: Any) -> Scenario1897:
    options.setdefault("expansions", [2])
    return Scenario1897(players, **options)


def citizens(sc: Scenario1897, seat: int, **places: int) -> Scenario1897:
    """Make that many of the pieces already on each place (1897 words) Citizens."""
    nobles(sc, seat, **{word(k, REVERSE): n for k, n in places.items()})
    return sc


@pytest.mark.parametrize(("citizen", "building", "price"), [
    (False, "harbor", 7), (False, "city_hall", 10),  # [W]: -1 on a common building only
    (True, "harbor", 8), (True, "city_hall", 8),  # [C]: -2 on an expanded building only
])
def test_B_41_notary_worker_common_citizen_expanded(citizen: bool, building: str,
                                                    price: int) -> None:
    """B-41: the Notary [W] takes 1 off a common building (Harbor 8 -> 7) and nothing off an
    expanded one (City Hall 10); [C] takes 2 off an expanded building (10 -> 8) and nothing
    off a common one (8)."""
    sc = cit()
    sc.player(1, doubloons=10, buildings={"notary": 1})
    if citizen:
        citizens(sc, 1, notary=1)
    state = sc.act(sc.choose("builder", 0), 0, "pass")
    assert _price(sc, state, 1, building) == price


@pytest.mark.parametrize(("count", "offered"), [
    (1, {"rp.corn", "rp.sugar", "rp.coffee"}),
    (2, {"rp.corn", "rp.sugar", "rp.coffee", "rp.corn.sugar", "rp.corn.coffee",
         "rp.sugar.coffee"}),
])
def test_B_42_rescue_post_one_crate_per_citizen(count: int, offered: set[str]) -> None:
    """B-42: once per Citizen the owner controls, 1 crate (each of another type) for 1 VP:
    with 1 Citizen one crate at most, with 2 two crates of different types."""
    sc = cit()
    sc.player(1, buildings={"rescue_post": 1}, tiles={"corn": (1, 1)},
              goods={"corn": 2, "sugar": 1, "coffee": 1})
    citizens(sc, 1, rescue_post=1, **({"corn": 1} if count == 2 else {}))
    sc.player(0, goods={"fruit": 1})
    state = sc.choose("captain", 0)
    trades = {c for c in sc.legal(state, 1) if c.startswith("rp.")}
    assert trades == offered


@pytest.mark.parametrize(("doubloons", "offered"), [(0, False), (1, True)])
def test_B_38_zoning_office_buys_for_exactly_one_coin(doubloons: int, offered: bool) -> None:
    """B-38 [W]: a property from the bag costs 1 coin: with 0 coins not offered, with 1 it
    is (and leaves 0)."""
    sc = cit(3)
    sc.player(0, buildings={"zoning_office": 1}, doubloons=doubloons)
    state = sc.choose("trader", 0)
    assert ("zo.buy" in sc.legal(state, 0)) is offered
    if offered:
        state = sc.act(state, 0, "zo.buy")
        assert coins(sc, state)[0] == 0 and view(sc, state)["players"][0]["field_used"] == 2


# --- §7.3 Expansion III --------------------------------------------------------------------------


@pytest.mark.parametrize(("load", "kept"), [(2, 2), (3, 3), (4, 3)])
def test_X3_A_raid_keeps_up_to_3_crates(load: int, kept: int) -> None:
    """X3-A: the Smuggler takes up to 3 of a ship's crates (2 of 2, 3 of 3, 3 of 4: never a
    4th) and returns the rest; the ship is empty."""
    sc = Scenario1897(4, expansions=[3])
    sc.ships([(5, None, 0), (6, None, 0), (7, "sugar", load)])
    sugar = view(sc, sc.state)["goods_supply"]["sugar"]
    state = sc.choose("smuggler", 0)
    raids = [c for c in sc.legal(state, 0) if c.startswith("sm.raid_ship.2.")]
    assert raids == [f"sm.raid_ship.2.{k}" for k in range(kept + 1)]
    state = sc.act(state, 0, f"sm.raid_ship.2.{kept}")
    assert goods(sc, state, 0) == held(sugar=kept)
    assert view(sc, state)["goods_supply"]["sugar"] == sugar + load - kept
    assert view(sc, state)["ships"][2]["count"] == 0
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("agency", "removed"), [(3, 0), (4, 0), (5, 1)])
def test_X3_C_lure_down_to_exactly_N(agency: int, removed: int) -> None:
    """X3-C: 4 players: the Agency holding 3 or 4 (<= N) loses nothing; 5 loses 1."""
    sc = Scenario1897(4, expansions=[3])
    sc.set_colonists(ship=agency)
    sc.player(0, tiles={"corn": 1}, buildings={"small_market": 0})
    state = sc.act(sc.choose("smuggler", 0), 0, "sm.lure")
    assert sc.events_of("AgencyLured")[-1].data == {"removed": removed, "kept": removed}
    assert state.colonist_ship == min(agency, 4)


def test_X3_C_lure_keeps_at_most_3_even_with_more_spaces() -> None:
    """X3-C, A-19: 4 players, Agency 9: 5 removed; the Smuggler with 5 empty spaces keeps 3
    (not 4) and the other 2 leave the game."""
    sc = Scenario1897(4, expansions=[3])
    sc.set_colonists(ship=9)
    sc.player(0, tiles={"corn": 2}, buildings={"small_market": 0, "large_sugar_mill": 0})
    state = sc.act(sc.choose("smuggler", 0), 0, "sm.lure")
    assert sc.events_of("AgencyLured")[-1].data == {"removed": 5, "kept": 3}
    for _ in range(3):
        state = sc.act(state, 0, next(c for c in sc.legal(state, 0) if c != "pass"))
    assert sc.prompt(state) == role(1)
    assert view(sc, state)["players"][0]["workers"] == 3
    assert state.colonists_out == 2
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("doubloons", "allowed"), [(2, False), (3, True)])
def test_X3_D_A_18_a_hijacked_role_for_exactly_3_coins(doubloons: int, allowed: bool) -> None:
    """X3-D, A-18: a player with 3 coins may choose the hijacked Builder (he pays all 3 to the
    Smuggler); with 2 he may not."""
    sc = Scenario1897(4, expansions=[3])
    sc.player(0, doubloons=0)
    sc.player(1, doubloons=doubloons)
    state = sc.act(sc.choose("smuggler", 0), 0, "sm.hijack.builder")
    assert ("r.builder" in sc.legal(state, 1)) is allowed
    if allowed:
        state = sc.act(state, 1, "r.builder")
        assert coins(sc, state)[:2] == [3, 0]


@pytest.mark.parametrize("crates", [1, 4])
def test_X3_B_plunder_one_vp_per_crate(crates: int) -> None:
    """X3-B: 1 VP per crate returned from the Trading House: 1 -> 1, 4 -> 4."""
    sc = Scenario1897(4, expansions=[3])
    sc.house(["corn", "fruit", "sugar", "coffee"][:crates])
    state = sc.act(sc.choose("smuggler", 0), 0, "sm.plunder")
    assert state.players[0].vp == crates and state.house == []


# --- §7.4 Expansion IV ---------------------------------------------------------------------------


def test_X4_4_the_property_goal_needs_3_not_2() -> None:
    """X4-4 (property): owning 3 properties of the Festival's type; the 2nd Tobacco gives
    nothing, the 3rd (next Planter phase) gives the 3 workers."""
    sc = Scenario1897(4, expansions=[4])
    sc.festival(plantation="tobacco")
    sc.player(0, tiles={"tobacco": 1})
    sc.face_up(["tobacco", "tobacco", "corn", "sugar", "fruit"])
    state = sc.act(sc.choose("planter", 0), 0, "p.tobacco")
    assert state.festival_won[0] == -1 and state.players[0].san_juan == 0
    sc.state = state
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    state = sc.act(sc.choose("planter", 0), 0, "p.tobacco")
    assert state.festival_won[0] == 0 and state.players[0].san_juan == 3


@pytest.mark.parametrize(("sugar", "met"), [(1, False), (2, True)])
def test_A_15_X4_4_the_goods_goal_counts_each_crate_shown(sugar: int, met: bool) -> None:
    """A-15, X4-4 (goods): Sugar, Sugar, Coffee shown: 1 Sugar and 1 Coffee (every type, one
    crate short) is not the goal; 2 Sugar and 1 Coffee is (3 coins)."""
    sc = Scenario1897(4, expansions=[4])
    sc.festival(goods=["sugar", "sugar", "coffee"])
    sc.player(1, doubloons=0, tiles={"sugar": (sugar, sugar), "coffee": (1, 1)},
              buildings={"large_sugar_mill": 2, "large_coffee_roaster": 1})
    state = sc.act(sc.choose("craftsman", 0), 1, "produce")  # seat 0 has nothing to produce
    assert (state.festival_won[1] == 1) is met
    assert coins(sc, state)[1] == (3 if met else 0)
