"""Issue #33: the Puertoma's thresholds (rules spec §8) on both sides: a property fits below 2
of its type, is active with every space filled, a level takes 2 buildings, the price is at
most its coins, a sale needs 1 coin, the town is full at 8, the Easy difficulty discards at 2
skills, L4-Captain discards up to 2 crates, the final score's halves round up, and each role's
profitability (PTM-PROF) one step short of and at what it needs.  Positions are set on the
kernel's state, as in ``test_puertoma.py`` (whose helpers they use)."""

from __future__ import annotations

import pytest

from engine.core import Event
from engine.puerto_rico import phases
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import (
    BUCCANEER,
    BUILDER,
    CAPTAIN,
    CORN,
    CRAFTSMAN,
    MAYOR,
    SETTLER,
    SUGAR,
    TOBACCO,
    TRADER,
)
from engine.puerto_rico.scoring import score_breakdown
from engine.puerto_rico.state import State
from engine.puerto_rico_1897 import puertoma as ptm
from engine.puerto_rico_1897.game import PUERTO_RICO_1897 as GAME
from tests.engine.puerto_rico_1897.test_puertoma import board, card, solo, unlock

FRUIT, COFFEE = 1, 4  # the kernel's goods order: Corn, Fruit, Sugar, Tobacco, Coffee
SEAT = 1  # the first Puertoma of the solo game (seats 1 and 2)


def built(ev: list[Event]) -> list[str]:
    return [e.data["building"] for e in ev if e.type == "BuildingBuilt"]


def place(s: State, seat: int, names: list[str]) -> None:
    """Put these buildings on the Puertoma's board, each on its own level's space."""
    for name in names:
        b = BUILDING_INDEX[name]
        ptm._take_building(s, seat, b, CATALOG[b].column)


# --- the Planter (PTM-PLN) -----------------------------------------------------------------------


@pytest.mark.parametrize(("sugar", "taken"), [([0], SUGAR), ([0, 0], CORN)])
def test_PTM_PLN_a_property_fits_below_2_of_its_type(sugar: list[int], taken: int) -> None:
    """PTM-PLN (§8.2: max 2 properties per type): owning 1 Sugar, the Sugar fits (and is
    preferred, a type it has exactly 1 of); owning 2, it does not: the Corn is taken."""
    s = solo()
    board(s, SEAT, {SUGAR: sugar})
    s.face_up = [CORN, SUGAR]
    ptm._settler_turn(s, SEAT, None)
    assert s.face_up == ([CORN] if taken == SUGAR else [SUGAR])
    assert ptm.properties(s, SEAT, taken) == (2 if taken == SUGAR else 1)


def test_PTM_PLN_A_11_no_fitting_property_a_quarry() -> None:
    """PTM-PLN, A-11: 2 Sugar owned and only Sugar face up: a quarry to its VP area."""
    s = solo()
    board(s, SEAT, {SUGAR: [0, 0]})
    s.face_up = [SUGAR]
    quarries = s.quarries
    ptm._settler_turn(s, SEAT, None)
    assert s.face_up == [SUGAR] and s.quarries == quarries - 1
    assert ptm.vp_area_quarries(s, SEAT) == 1


# --- §8.2 active properties, the Craftsman (PTM-CRF) --------------------------------------------


@pytest.mark.parametrize(("good", "workers", "crates"), [
    (CORN, 0, 0), (CORN, 1, 1),
    (FRUIT, 1, 0), (FRUIT, 2, 1),
    (SUGAR, 1, 0), (SUGAR, 2, 1),
    (TOBACCO, 2, 0), (TOBACCO, 3, 1),
    (COFFEE, 2, 0), (COFFEE, 3, 1),
])
def test_PTM_CRF_a_property_produces_once_every_space_is_filled(good: int, workers: int,
                                                                crates: int) -> None:
    """PTM-CRF, §8.2: a property is active when all the worker spaces under it are filled
    (Corn 1, Fruit 2, Sugar 2, Tobacco 3, Coffee 3); one worker short it produces nothing."""
    s = solo()
    board(s, SEAT, {good: [workers]})
    s.players[SEAT].goods = [0] * 5
    ptm.produce(s, SEAT, None)
    assert s.players[SEAT].goods[good] == crates


@pytest.mark.parametrize(("supply", "produced"), [(0, 0), (1, 1), (2, 2)])
def test_PTM_CRF_production_as_long_as_the_supply_lasts(supply: int, produced: int) -> None:
    """PTM-CRF-1: each active property 1 crate, supply permitting: two active Sugar with 0, 1,
    2 crates in the supply -> 0, 1, 2."""
    s = solo()
    board(s, SEAT, {SUGAR: [2, 2]})
    s.goods[SUGAR] = supply
    ptm.produce(s, SEAT, None)
    assert s.players[SEAT].goods[SUGAR] == produced


# --- the Builder (PTM-BLD) -----------------------------------------------------------------------


@pytest.mark.parametrize(("level_3", "expected"), [
    ([], "wharf"),  # no level-3 building yet: the dearest level 3
    (["factory"], "wharf"),  # one: a second fits
    (["factory", "harbor"], "large_warehouse"),  # two: the level is full, the dearest level 2
])
def test_PTM_BLD_2_a_level_takes_two_buildings(level_3: list[str], expected: str) -> None:
    """PTM-BLD-2, PTM-BLD-3: a building of a level whose 2 spaces are not both used (< 2 built
    there); 20 coins (level 4 closed: no Reserve token yet)."""
    s = solo()
    place(s, SEAT, level_3)
    s.players[SEAT].doubloons = 20
    ev: list[Event] = []
    ptm._builder_turn(s, SEAT, ev)
    assert built(ev) == [expected]


@pytest.mark.parametrize(("coins", "chooser", "cost"), [
    (9, False, 9), (8, False, 8),  # not the Builder: the Wharf (9) needs 9
    (8, True, 9), (7, True, 8),  # the Builder: 1 off, the Wharf for 8
])
def test_PTM_BLD_2_price_at_most_its_coins(coins: int, chooser: bool, cost: int) -> None:
    """PTM-BLD-2: price = cost - 1 if it is the Builder, at most its coins (no other
    discount): with exactly the price the Wharf (cost 9), one coin short a cost-8 building."""
    s = solo()
    s.players[SEAT].doubloons = coins
    s.chooser = SEAT if chooser else 0
    ev: list[Event] = []
    ptm._builder_turn(s, SEAT, ev)
    [name] = built(ev)
    assert s.rs.cost[BUILDING_INDEX[name]] == cost
    assert s.players[SEAT].doubloons == coins - (cost - 1 if chooser else cost)


@pytest.mark.parametrize(("buildings", "full"), [(7, False), (8, True)])
def test_PTM_BLD_8_END_T2_a_town_is_full_at_8_not_7(buildings: int, full: bool) -> None:
    """PTM-BLD-8, §8.10, END-T2: its town is full with 2 buildings on each of its 4 levels:
    the 7th building fires nothing, the 8th the full town."""
    s = solo()
    place(s, SEAT, ["small_market", "hacienda", "hospice", "office", "factory"])
    if buildings == 8:
        place(s, SEAT, ["university"])
    s.puertoma[ptm.board_at(s, SEAT) + ptm.RESERVE] = BUILDING_INDEX["guild_hall"]
    ptm._take_building(s, SEAT, BUILDING_INDEX["residence"], 4)
    s.players[SEAT].doubloons = 20
    ev: list[Event] = []
    ptm._builder_turn(s, SEAT, ev)
    assert len(s.players[SEAT].city) == buildings
    assert ("city_full" in s.end_reasons) is full


@pytest.mark.parametrize(("level", "before", "unlocks"), [
    (2, [], False), (2, ["hospice"], True),
    (3, [], False), (3, ["factory"], True),
])
def test_PTM_BLD_5_the_second_building_of_a_level_unlocks(level: int, before: list[str],
                                                          unlocks: bool) -> None:
    """PTM-BLD-5: its 1st building of level 2 or 3 unlocks nothing, its 2nd that level's
    skill."""
    s = solo()
    place(s, SEAT, before)
    s.players[SEAT].doubloons = 20
    for b, cat in enumerate(CATALOG):
        if cat.column > level:
            s.market[b] = 0
    ev: list[Event] = []
    ptm._builder_turn(s, SEAT, ev)
    assert CATALOG[BUILDING_INDEX[built(ev)[0]]].column == level
    unlocked = [e.data["level"] for e in ev if e.type == "PuertomaSkillUnlocked"]
    assert unlocked == ([level] if unlocks else [])


@pytest.mark.parametrize(("active_before", "discarded"), [(0, False), (1, True)])
def test_easy_the_second_unlocked_skill_discards_not_the_first(active_before: int,
                                                               discarded: bool) -> None:
    """§8.14 Easy: at its 1st unlocked skill nothing is discarded; at its 2nd the other two
    face-down tiles are."""
    s = solo(puertoma_difficulty="easy")
    at = ptm.board_at(s, SEAT)
    if active_before:
        s.puertoma[at + ptm.SKILL_STATE] = ptm.ACTIVE  # level 1 already unlocked
    place(s, SEAT, ["hospice"])
    s.players[SEAT].doubloons = 5
    for name in ("factory", "university", "harbor", "wharf"):
        s.market[BUILDING_INDEX[name]] = 0
    ptm._builder_turn(s, SEAT, None)  # its second level-2 building
    states = s.puertoma[at + ptm.SKILL_STATE:at + ptm.SKILL_STATE + 4]
    assert states[1] == ptm.ACTIVE
    assert (ptm.DISCARDED in states) is discarded
    assert states.count(ptm.FACE_DOWN) == (0 if discarded else 3)


# --- the Trader (PTM-TRD) ------------------------------------------------------------------------


@pytest.mark.parametrize(("good", "chooser", "skill", "sells"), [
    (CORN, False, False, False),  # 0 coins: no sale
    (CORN, True, False, True),  # 0 + 1 (the Trader's advantage)
    (CORN, False, True, True),  # 0 + 1 (L1-Trader's coin)
    (FRUIT, False, False, True),  # 1
])
def test_PTM_TRD_a_sale_needs_at_least_1_coin(good: int, chooser: bool, skill: bool,
                                              sells: bool) -> None:
    """PTM-TRD-1: it sells only for 1 coin or more in total (price + 1 as the Trader + skill
    bonuses): a Corn (price 0) is not sold by a follower, but is by the Trader or with
    L1-Trader B; a Fruit (1) always."""
    s = solo()
    goods = [0] * 5
    goods[good] = 1
    s.players[SEAT].goods = goods
    if skill:
        unlock(s, SEAT, "trader_coin")
    s.chooser = SEAT if chooser else 0
    ev: list[Event] = []
    ptm._trader_turn(s, SEAT, ev)
    assert bool([e for e in ev if e.type == "GoodSold"]) is sells


# --- the Captain (PTM-CAP) -----------------------------------------------------------------------


@pytest.mark.parametrize(("corn", "discarded"), [(1, 1), (2, 2), (3, 2)])
def test_PTM_CAP_3_l4_captain_discards_up_to_2_crates(corn: int, discarded: int) -> None:
    """PTM-CAP-3 (L4-Captain B): up to 2 crates of its worst good discarded for 1 VP each:
    1 Corn -> 1, 2 -> 2, 3 -> 2 (the third stays, then storing keeps 1 crate of its best)."""
    s = solo()
    unlock(s, SEAT, "captain_discard")
    p = s.players[SEAT]
    p.goods = [corn, 0, 0, 0, 0]
    vp = p.vp
    ptm.store(s, SEAT, None)
    assert p.vp == vp + discarded
    assert p.goods[CORN] == min(1, corn - discarded)


@pytest.mark.parametrize(("sugar", "kept"), [(1, 1), (2, 1)])
def test_PTM_CAP_4_storing_keeps_one_crate(sugar: int, kept: int) -> None:
    """PTM-CAP-4: it keeps 1 crate of its best good, not 2."""
    s = solo()
    s.players[SEAT].goods = [0, 0, sugar, 0, 0]
    ptm.store(s, SEAT, None)
    assert s.players[SEAT].goods == [0, 0, kept, 0, 0]


# --- the final score (PTM-SCR) -------------------------------------------------------------------


@pytest.mark.parametrize(("coins", "crates", "half"), [(2, 4, 3), (3, 4, 4), (4, 4, 4),
                                                       (0, 0, 0), (1, 0, 1)])
def test_PTM_SCR_coins_and_crates_halved_rounded_up(coins: int, crates: int, half: int) -> None:
    """PTM-SCR: +1 VP per 2 remaining goods and coins together, rounded up: 6 -> 3, 7 -> 4,
    8 -> 4, 0 -> 0, 1 -> 1."""
    s = solo()
    p = s.players[SEAT]
    p.doubloons, p.goods = coins, [crates, 0, 0, 0, 0]
    assert score_breakdown(s, SEAT)["leftovers"] == half


@pytest.mark.parametrize(("sugar", "bonus"), [([2], 0), ([2, 1], 0), ([2, 2], 2)])
def test_PTM_SCR_both_properties_of_a_type_active(sugar: list[int], bonus: int) -> None:
    """PTM-SCR: +2 VP per property type with both tiles active: one Sugar active (with or
    without a second, inactive one) -> 0; both -> 2."""
    s = solo()
    board(s, SEAT, {SUGAR: sugar})
    assert score_breakdown(s, SEAT)["full_properties"] == bonus


# --- profitability (PTM-PROF), one step short and at it ------------------------------------------


@pytest.mark.parametrize(("coins", "profitable"), [(0, False), (1, True)])
def test_PTM_PROF_builder_with_its_coins_the_tile_and_the_advantage(coins: int,
                                                                    profitable: bool) -> None:
    """PTM-PROF (Builder): it can build with its coins + the tile's + 1 (the advantage): the
    cheapest commercial building in stock costs 2 (the Small Market removed) and the tile
    carries 0: 1 coin is enough (1 + 1), 0 is not."""
    s = solo()
    s.market[BUILDING_INDEX["small_market"]] = 0
    s.players[SEAT].doubloons = coins
    assert ptm._profitable(s, SEAT, card(s, BUILDER)) is profitable


@pytest.mark.parametrize(("workers", "profitable"), [(3, False), (2, True)])
def test_PTM_PROF_recruiter_an_empty_worker_space(workers: int, profitable: bool) -> None:
    """PTM-PROF (Recruiter): at least one empty worker space under one of its properties:
    a Tobacco with 3 of 3 -> no; 2 of 3 -> yes."""
    s = solo()
    board(s, SEAT, {TOBACCO: [workers]})
    assert ptm._profitable(s, SEAT, card(s, MAYOR)) is profitable


@pytest.mark.parametrize(("held_sugar", "supply", "profitable"),
                         [(1, 5, False), (0, 5, True), (0, 0, False)])
def test_PTM_PROF_craftsman_a_good_it_holds_none_of(held_sugar: int, supply: int,
                                                    profitable: bool) -> None:
    """PTM-PROF (Craftsman): it would produce a crate of a good it holds 0 of (and the supply
    has it): an active Sugar while holding 1 Sugar -> no; holding none -> yes; none in the
    supply -> no."""
    s = solo()
    board(s, SEAT, {SUGAR: [2]})
    s.players[SEAT].goods = [0, 0, held_sugar, 0, 0]
    s.goods[SUGAR] = supply
    assert ptm._profitable(s, SEAT, card(s, CRAFTSMAN)) is profitable


@pytest.mark.parametrize(("sugar", "profitable"), [([0, 0], False), ([0], True)])
def test_PTM_PROF_planter_a_face_up_property_that_fits(sugar: list[int], profitable: bool) -> None:
    """PTM-PROF (Planter): a face-up property of a type it has fewer than 2 of (quarries do
    not count): only Sugar face up, 2 Sugar owned -> no; 1 -> yes."""
    s = solo()
    board(s, SEAT, {SUGAR: sugar})
    s.face_up = [SUGAR]
    assert ptm._profitable(s, SEAT, card(s, SETTLER)) is profitable


@pytest.mark.parametrize(("corn", "house", "profitable"), [
    (0, [], False),  # nothing to sell
    (1, [], True),  # a Corn: 0 + 1 as the Trader
    (1, [CORN], False),  # the house holds Corn (no L1-Trader A)
    (1, [SUGAR, TOBACCO, COFFEE, FRUIT], False),  # the house is full
])
def test_PTM_PROF_trader_a_sale_for_1_coin_as_the_trader(corn: int, house: list[int],
                                                          profitable: bool) -> None:
    """PTM-PROF (Trader): it can sell some crate for 1 coin or more in total, counting the
    Trader's advantage, within the Trading House's rules (TRD-1, TRD-2)."""
    s = solo()
    s.players[SEAT].goods = [corn, 0, 0, 0, 0]
    s.house = house
    assert ptm._profitable(s, SEAT, card(s, TRADER)) is profitable


@pytest.mark.parametrize(("corn", "profitable"), [(0, False), (1, True)])
def test_PTM_PROF_captain_a_crate_to_load(corn: int, profitable: bool) -> None:
    """PTM-PROF (Captain): it can load some crate onto a cargo ship."""
    s = solo()
    s.players[SEAT].goods = [corn, 0, 0, 0, 0]
    assert ptm._profitable(s, SEAT, card(s, CAPTAIN)) is profitable


def _smuggler(agency: int, house: int, load: int) -> State:
    s = GAME.setup({"players": 3, "puertomas": 2, "expansions": [3]}, 1)
    s.colonist_supply += s.colonist_ship - agency
    s.colonist_ship = agency
    s.house = [CORN] * house
    s.goods[CORN] -= house
    s.ship_kind[0], s.ship_load[0] = (SUGAR, load) if load else (-1, 0)
    s.goods[SUGAR] -= load
    return s


@pytest.mark.parametrize(("agency", "house", "load", "action", "gain"), [
    (3, 0, 0, "lure", 0),  # the Agency holds N: nothing at all
    (4, 0, 0, "lure", 1),  # N + 1: 1 worker
    (7, 0, 0, "lure", 3),  # N + 4: at most 3 kept
    (3, 1, 0, "plunder", 1),
    (3, 0, 1, "raid", 1),
    (3, 0, 5, "raid", 3),  # at most 3 crates kept
    (5, 2, 2, "lure", 2),  # ties: Lure > Plunder > Raid
])
def test_x3_PTM_PROF_the_smugglers_gain(agency: int, house: int, load: int, action: str,
                                         gain: int) -> None:
    """§8.13 Exp. III, PTM-PROF (Smuggler: a gain of at least 1), X3-A, X3-C: the action with
    the largest gain -- workers lured (the Agency's over N = 3, at most 3), crates plundered,
    crates kept from a ship (at most 3) -- ties Lure > Plunder > Raid; no gain at all: not
    profitable."""
    s = _smuggler(agency, house, load)
    assert ptm._smuggler_action(s, SEAT) == (action, gain)
    assert ptm._profitable(s, SEAT, card(s, BUCCANEER)) is (gain >= 1)


# --- the Agency's refill with Puertomas (PTM-REC-5) ----------------------------------------------


@pytest.mark.parametrize(("props", "other", "refill"), [
    # the largest single gap of each (3 and 2), not their sums (5 and 2): 5
    ({TOBACCO: [1], COFFEE: [0]}, {COFFEE: [1]}, 5),
    ({TOBACCO: [1], COFFEE: [0], CORN: [0]}, {COFFEE: [1], CORN: [0]}, 5),
    # gaps 2 and 0: E = 2 < N = 3: N
    ({SUGAR: [0], FRUIT: [0]}, {CORN: [1]}, 3),
    # gaps 2 and 2: E = 4 > N
    ({SUGAR: [0]}, {FRUIT: [0]}, 4),
])
def test_PTM_REC_5_the_largest_gap_under_a_single_property(
    props: dict[int, list[int]], other: dict[int, list[int]], refill: int
) -> None:
    """PTM-REC-5: each Puertoma counts the most empty worker spaces under a single one of its
    properties (not their sum); requested = max(E, N)."""
    s = solo()
    board(s, SEAT, props)
    board(s, 2, other)
    s.colonist_ship = 0
    supply = s.colonist_supply
    s.phase, s.chooser = 2, 0  # the Recruiter phase's end
    phases._refill_ship(s, None)
    assert supply - s.colonist_supply == refill
