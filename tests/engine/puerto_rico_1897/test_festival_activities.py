"""1897's Expansion V, the Festival Activities (§7.5: X5-1...X5-4, A-17, A-39; B-29 and TRD-2
for Closing the Work), the kernel's ``festival_activities`` module played on Expansion IV's
Festival board."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pytest

from engine import replay
from engine.core import CorruptState, InvalidSetup, Prompt
from engine.policies import make_policy
from engine.puerto_rico import PUERTO_RICO
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import GOOD_INDEX, TILE_INDEX
from engine.puerto_rico.ruleset import normalize_options, state_ruleset
from engine.puerto_rico.state import DRAFT_PHASE, State
from engine.puerto_rico_1897.festival_activities import (
    ACT_BUILDING,
    ACT_CARD,
    ACT_GOODS,
    ACT_HELD,
    ACT_SIZE,
    ACT_TILES,
    ACT_WON,
    ACTIVITIES,
    ACTIVITY_INDEX,
    _draw_kinds,
    card,
    slots,
)
from engine.puerto_rico_1897.game import PUERTO_RICO_1897
from engine.puerto_rico_1897.names import RENAMED, REVERSE, word
from engine.puerto_rico_1897.view import ActivityCard1897
from engine.simulate import play_game, policy_seed
from tests.engine.puerto_rico_1897.scenario import Scenario1897
from tests.engine.puerto_rico_1897.scenario import role as role_pick

GAME = PUERTO_RICO_1897


# --- helpers ------------------------------------------------------------------------------------


def classic(name: str) -> str:
    return word(name, REVERSE)


def scenario(players: int = 4, **options: Any) -> Scenario1897:
    """An 1897 game with Expansions IV and V whose Festival goals are out of the way of the
    tests below (a Coffee property, three Coffee crates, with 3+ players the Harbor)."""
    sc = Scenario1897(players, expansions=[4, 5], **options)
    sc.festival(
        plantation="coffee",
        goods=["coffee", "coffee", "coffee"],
        building="harbor" if players > 2 else None,
    )
    return sc


def cards(sc: Scenario1897, *wanted: tuple[str, Mapping[str, Any]]) -> None:
    """Put exactly these three cards on the Festival board, in 1897's words: ``(activity,
    {"properties": [...], "goods": [...], "building": name})``; the old cards' components go
    back first, the new ones come out of the bag, the supply and (A-17: only when the tray
    keeps another copy) the tray."""
    s = sc.state
    for i in range(3):
        record = card(s, i)
        if record[ACT_WON] < 0:
            tiles, goods = slots(record)
            for k in tiles:
                s.deck[k] += 1
            for k in goods:
                s.goods[k] += 1
            if record[ACT_HELD]:
                s.market[record[ACT_BUILDING]] += 1
    records: list[int] = []
    for name, parts in wanted:
        record = [-1] * ACT_SIZE
        record[ACT_CARD] = ACTIVITY_INDEX[name]
        record[ACT_HELD] = 0
        tiles = [TILE_INDEX[classic(t)] for t in parts.get("properties", ())]
        goods = [GOOD_INDEX[classic(g)] for g in parts.get("goods", ())]
        for k in tiles:
            sc._take_tiles(k, 1)
        for k in goods:
            sc._take_goods(k, 1)
        record[ACT_TILES.start : ACT_TILES.start + len(tiles)] = tiles
        record[ACT_GOODS.start : ACT_GOODS.start + len(goods)] = goods
        if "building" in parts:
            b = BUILDING_INDEX[classic(parts["building"])]
            record[ACT_BUILDING] = b
            if s.market[b] > 1:
                s.market[b] -= 1
                record[ACT_HELD] = 1
        records.extend(record)
    assert len(records) == 3 * ACT_SIZE
    s.activities = records


def board_view(state: State) -> list[ActivityCard1897]:
    return GAME.view(state, None)["festival_activities"]


def completed_by(state: State) -> dict[str, int | None]:
    return {c["activity"]: c["completed_by"] for c in board_view(state)}


def left(state: State) -> dict[str, int]:
    return {m["building"]: m["left"] for m in GAME.view(state, None)["market"]}


def supply(state: State) -> dict[str, int]:
    out: dict[str, int] = GAME.view(state, None)["goods_supply"]
    return out


FILLERS: list[tuple[str, Mapping[str, Any]]] = [
    ("twin_farmers_game", {"properties": ["coffee", "tobacco"]}),
    ("inauguration_ceremony", {"building": "customs_house"}),
    ("traditional_shipping_ceremony", {"goods": ["coffee"]}),
]


def with_fillers(*wanted: tuple[str, Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
    """``wanted`` and as many cards of ``FILLERS`` (not wanted) as make three."""
    names = {name for name, _ in wanted}
    return [*wanted, *[f for f in FILLERS if f[0] not in names]][:3]


# --- the cards and the options ------------------------------------------------------------


def test_A_39_twelve_activities_with_the_seeds_tasks_and_rewards() -> None:
    """A-39, §7.5's table: 12 cards, one per listed activity, each with its slots and reward
    (workers, coins, VP)."""
    table = {
        a.name: (a.task, a.tiles, a.goods, a.building, a.colonists, a.doubloons, a.vp)
        for a in ACTIVITIES
    }
    assert table == {
        "annual_harvest_weigh_in": ("produce", (), (3,), None, 1, 1, 1),
        "carnival_cocktail": ("produce", (), (1, 1, 1), None, 0, 3, 0),
        "closing_the_work": ("fill_trading_house", (), (1,), None, 2, 0, 0),
        "specialists_prize": ("own", (3,), (), None, 3, 0, 0),
        "agriculture_festival": ("own_and_produce", (1, 1), (1, 1), None, 0, 3, 0),
        "festival_goods_delivery": ("load", (), (1, 2), None, 2, 0, 2),
        "twin_farmers_game": ("own", (2, 2), (), None, 0, 0, 3),
        "two_baskets_game": ("produce", (), (2, 2), None, 0, 3, 0),
        "solemn_shipping_ceremony": ("dispatch_largest", (), (1,), None, 3, 0, 0),
        "a_toast_to_the_pioneer": ("build", (), (), "common_3vp", 0, 0, 3),
        "inauguration_ceremony": ("build", (), (), "expanded", 0, 0, 3),
        "traditional_shipping_ceremony": ("dispatch_smallest", (), (1,), None, 0, 2, 0),
    }
    assert all(a.distinct for a in ACTIVITIES if len(a.tiles) + len(a.goods) > 1)


@pytest.mark.parametrize(
    ("expansions", "code"),
    [
        ([5], "expansion_needs_festival"),
        ([3, 5], "expansion_needs_festival"),
        ([5, 6], "expansion_needs_festival"),
    ],
)
def test_X5_expansion_v_needs_the_festival(expansions: list[int], code: str) -> None:
    """§7.5: Expansion V is played on the Festival board of Expansion IV (VI does not stand
    for it)."""
    with pytest.raises(InvalidSetup) as info:
        GAME.normalize_options({"players": 3, "expansions": expansions})
    assert info.value.code == code
    assert GAME.normalize_options({"players": 3, "expansions": [5, 4]})["expansions"] == [4, 5]


def test_the_classic_game_has_no_festival_activities() -> None:
    """The module is 1897's own (``Edition.own_modules``): the classic and 2020 editions refuse
    it with ``module_not_in_edition``; in the kernel it needs the Festival module too."""
    for options in (
        {"players": 3, "modules": ["festival", "festival_activities"]},
        {"players": 3, "modules": ["festival_activities"], "edition": "2020"},
    ):
        with pytest.raises(InvalidSetup) as info:
            PUERTO_RICO.normalize_options(options)
        assert info.value.code == "module_not_in_edition"
    with pytest.raises(InvalidSetup) as info:
        normalize_options(
            {"players": 3, "edition": "1897", "modules": ["festival_activities"]},
            "puerto-rico-1897",
        )
    assert (info.value.code, info.value.details["needs"]) == ("module_needs_module", "festival")


# --- setup (X5-1, X5-2, A-17) ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_X5_1_X5_2_three_cards_their_components_out_of_bag_supply_and_tray(players: int) -> None:
    """X5-1: three distinct cards drawn at random; X5-2: their properties out of the bag, their
    crates out of the supply, a building tile off the tray where it keeps another copy.  The
    same seed without Expansion V has the same market and Festival goals (the cards are drawn
    last), so the differences are exactly the cards' components."""
    seen: set[str] = set()
    for seed in range(10):
        with_v = GAME.setup({"players": players, "expansions": [4, 5]}, seed)
        without = GAME.setup({"players": players, "expansions": [4]}, seed)
        view, base = GAME.view(with_v, None), GAME.view(without, None)
        assert view["festival"] == base["festival"] and view["face_up"] == base["face_up"]
        drawn = view["festival_activities"]
        names = [c["activity"] for c in drawn]
        assert len(set(names)) == 3 and all(c["completed_by"] is None for c in drawn)
        seen.update(names)
        properties = sum(len(c["properties"]) for c in drawn)
        assert view["property_bag"] == base["property_bag"] - properties
        crates = dict.fromkeys(base["goods_supply"], 0)
        for c in drawn:
            for slot in c["goods"]:
                crates[slot["good"]] += 1
        assert view["goods_supply"] == {g: n - crates[g] for g, n in base["goods_supply"].items()}
        on_card = {c["building"] for c in drawn if c["building_on_card"]}
        assert left(with_v) == {b: n - (b in on_card) for b, n in left(without).items()}
        assert GAME.invariants(with_v) == []
    assert len(seen) > 6  # the draw is random


def test_A_17_a_repeated_type_is_drawn_again() -> None:
    """A-17: for a card asking for different types, a type already drawn is never drawn again
    (here a pile holding 5 Corn and 1 Coffee: two slots are always Corn and Coffee), and a
    slot only draws a type the pile holds."""
    state = GAME.setup({"players": 3, "expansions": [4, 5]}, 1)
    for _ in range(40):
        pile = [5, 0, 0, 0, 1]
        drawn = _draw_kinds(state, pile, 2, True)
        assert sorted(drawn) == [0, 4] and pile == [4, 0, 0, 0, 0]
    three = _draw_kinds(state, [9, 9, 9, 9, 9], 3, True)
    assert len(set(three)) == 3


def test_A_17_over_many_setups() -> None:
    """A-17 over many setups at every player count: the slots of a card differ; a building slot
    names a type of its kind in play, never the Festival goal's (one building, one reward);
    its tile is on the card exactly when the tray keeps another copy: a 3-VP common building
    with 3-5 players (the tray then holds 1), never an expanded building (one copy), never
    with 2 players (TWO-1: one copy of each commercial building; the card only names it)."""
    kinds: dict[str, set[bool]] = {"a_toast_to_the_pioneer": set(), "inauguration_ceremony": set()}
    for seed in range(120):
        players = 2 + seed % 4
        state = GAME.setup({"players": players, "expansions": [4, 5]}, seed)
        view = GAME.view(state, None)
        market = {m["building"]: m for m in view["market"]}
        for c in view["festival_activities"]:
            for types in ([s["tile"] for s in c["properties"]], [s["good"] for s in c["goods"]]):
                assert len(set(types)) == len(types)
            name, building = c["activity"], c["building"]
            if name not in kinds:
                assert building is None and not c["building_on_card"]
                continue
            assert building is not None and view["festival"] is not None
            entry = market[building]
            assert building != view["festival"]["construction"]["building"]
            if name == "a_toast_to_the_pioneer":
                assert (entry["kind"], entry["vp"]) == ("common_commercial", 3)
                assert c["building_on_card"] == (players > 2)
            else:
                assert entry["kind"] == "expanded_commercial" and not c["building_on_card"]
            assert entry["left"] == 1  # never the last copy
            kinds[name].add(c["building_on_card"])
    assert kinds == {"a_toast_to_the_pioneer": {True, False}, "inauguration_ceremony": {False}}


def test_X5_2_with_the_draft_the_building_slot_waits_for_its_end() -> None:
    """X5-2 with Expansion I (the seed: buildings are chosen before the Festival's are drawn):
    a building slot is empty during the draft, then drawn among the drafted buildings of its
    kind, after Expansion IV's goal."""
    for seed in range(40):
        state = GAME.setup({"players": 3, "expansions": [1, 4, 5]}, seed)
        drawn = GAME.view(state, None)["festival_activities"]
        if any(c["activity"] == "inauguration_ceremony" for c in drawn):
            break
    else:
        raise AssertionError("no Inauguration Ceremony drawn")
    assert all(c["building"] is None for c in drawn)
    while state.phase == DRAFT_PHASE:
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "draft"
        seat = prompt.seats[0]
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
        assert GAME.invariants(state) == []
    view = GAME.view(state, None)
    inauguration = next(
        c for c in view["festival_activities"] if c["activity"] == "inauguration_ceremony"
    )
    drafted = {CATALOG[b].name for b in state.drafted}
    assert inauguration["building"] is not None and view["festival"] is not None
    assert classic(inauguration["building"]) in drafted
    assert view["festival"]["construction"]["building"] is not None


# --- production tasks: Annual Harvest Weigh-in, Carnival Cocktail, Two Baskets Game,
# --- Agriculture Festival -------------------------------------------------------------------------


def test_X5_3_annual_harvest_weigh_in_first_producer_of_3_gets_worker_coin_vp() -> None:
    """X5-3, §7.5: 3 Sugar in one Craftsman phase.  The Craftsman's 2 do not; the next player's
    3 do: 1 worker (placed at once, as the Festival's), 1 coin, 1 VP, the card's Sugar back
    in the supply; the third player's 3 Sugar come too late."""
    sc = scenario()
    cards(sc, *with_fillers(("annual_harvest_weigh_in", {"goods": ["sugar"]})))
    sc.player(0, tiles={"sugar": (2, 2)}, buildings={"large_sugar_mill": 2})
    sc.player(1, tiles={"sugar": (3, 3), "corn": 1}, buildings={"large_sugar_mill": 3}, doubloons=0)
    sc.player(2, tiles={"sugar": (3, 3)}, buildings={"large_sugar_mill": 3}, doubloons=0)
    sugar = supply(sc.state)["sugar"]
    workers = sc.state.colonist_supply
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert completed_by(state)["annual_harvest_weigh_in"] is None
    state = sc.act(state, 1, "produce")
    assert completed_by(state)["annual_harvest_weigh_in"] == 1
    assert sc.events_of("FestivalActivityCompleted")[-1].data == {
        "activity": "annual_harvest_weigh_in",
        "workers": 1,
        "coins": 1,
        "vp": 1,
    }
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("festival_workers", (1,))
    assert sc.legal(state, 1) == ["fw.corn", "pass"]
    state = sc.act(state, 1, "fw.corn")
    p1 = state.players[1]
    assert (p1.doubloons, p1.vp, p1.workers[0], p1.san_juan) == (1, 1, 1, 0)
    assert state.colonist_supply == workers - 1
    state = sc.act(state, 2, "produce")
    assert completed_by(state)["annual_harvest_weigh_in"] == 1
    assert (state.players[2].doubloons, state.players[2].vp) == (0, 0)
    assert len(sc.events_of("FestivalActivityCompleted")) == 1
    assert supply(state)["sugar"] == sugar - 2 - 3 - 3 + 1  # the card's crate is back
    assert sc.invariant_failures(state) == []


def test_X5_3_carnival_cocktail_three_goods_in_one_phase() -> None:
    """X5-3: Corn, Sugar and Coffee in one phase: the Craftsman's Corn and Sugar do not; the
    next player's three goods do (3 coins, the 3 crates back); the third's too late."""
    sc = scenario()
    cards(sc, *with_fillers(("carnival_cocktail", {"goods": ["corn", "sugar", "coffee"]})))
    three = {
        "tiles": {"corn": (1, 1), "sugar": (1, 1), "coffee": (1, 1)},
        "buildings": {"small_sugar_mill": 1, "large_coffee_roaster": 1},
        "doubloons": 0,
    }
    sc.player(0, tiles={"corn": (1, 1), "sugar": (1, 1)}, buildings={"small_sugar_mill": 1})
    sc.player(1, **three)
    sc.player(2, **three)
    before = supply(sc.state)
    state = sc.choose("craftsman", 0)
    for seat in (0, 1, 2):
        state = sc.act(state, seat, "produce")
    assert completed_by(state)["carnival_cocktail"] == 1
    assert [p.doubloons for p in state.players[1:3]] == [3, 0]
    assert supply(state) == {
        **before,
        "corn": before["corn"] - 3 + 1,
        "sugar": before["sugar"] - 3 + 1,
        "coffee": before["coffee"] - 2 + 1,
    }
    assert sc.invariant_failures(state) == []


def test_X5_3_two_baskets_game_two_crates_of_each() -> None:
    """X5-3: 2 Sugar and 2 Tobacco (in a single phase, §7.5): 2 Sugar and 1 Tobacco are not
    enough; the next player's 2 and 2 are (3 coins); the third player's 2 and 2 come too
    late."""
    sc = scenario()
    cards(sc, *with_fillers(("two_baskets_game", {"goods": ["sugar", "tobacco"]})))
    sc.player(
        0,
        tiles={"sugar": (2, 2), "tobacco": (1, 1)},
        buildings={"large_sugar_mill": 2, "large_tobacco_storage": 1},
    )
    sc.player(
        1,
        tiles={"sugar": (2, 2), "tobacco": (2, 2)},
        buildings={"large_sugar_mill": 2, "large_tobacco_storage": 2},
        doubloons=0,
    )
    sc.player(
        2,
        tiles={"sugar": (2, 2), "tobacco": (2, 2)},
        buildings={"large_sugar_mill": 2, "large_tobacco_storage": 2},
        doubloons=0,
    )
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert completed_by(state)["two_baskets_game"] is None
    state = sc.act(state, 1, "produce")
    assert completed_by(state)["two_baskets_game"] == 1 and state.players[1].doubloons == 3
    state = sc.act(state, 2, "produce")
    assert state.players[2].goods[GOOD_INDEX["tobacco"]] == 2 and state.players[2].doubloons == 0
    assert completed_by(state)["two_baskets_game"] == 1
    assert sc.invariant_failures(state) == []


def test_X5_3_agriculture_festival_owns_two_types_and_produces_two_goods() -> None:
    """X5-3: a Corn and a Sugar property owned (occupied or not) and Sugar and Coffee produced
    in one phase.  Producing without a Corn property does not; with it (unoccupied) it does
    (3 coins; the card's 2 properties back into the bag, its 2 crates to the supply)."""
    sc = scenario()
    cards(
        sc,
        *with_fillers(
            (
                "agriculture_festival",
                {"properties": ["corn", "sugar"], "goods": ["sugar", "coffee"]},
            )
        ),
    )
    makers = {"small_sugar_mill": 1, "large_coffee_roaster": 1}
    sc.player(0, tiles={"sugar": (1, 1), "coffee": (1, 1)}, buildings=makers)
    sc.player(
        1, tiles={"sugar": (1, 1), "coffee": (1, 1), "corn": 1}, buildings=makers, doubloons=0
    )
    sc.player(
        2, tiles={"sugar": (1, 1), "coffee": (1, 1), "corn": 1}, buildings=makers, doubloons=0
    )
    bag = GAME.view(sc.state, None)["property_bag"]
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert completed_by(state)["agriculture_festival"] is None
    state = sc.act(state, 1, "produce")
    state = sc.act(state, 2, "produce")
    assert completed_by(state)["agriculture_festival"] == 1
    assert [p.doubloons for p in state.players[1:3]] == [3, 0]
    assert GAME.view(state, None)["property_bag"] == bag + 2
    assert sc.invariant_failures(state) == []


def test_X5_3_the_craftsmans_advantage_crate_is_no_production() -> None:
    """X5-3 read as the kernel's Expansion IV goods goal: the Craftsman produces 2 Sugar and
    takes a Sugar advantage crate: 3 crates, but not 3 produced; the card stays open."""
    sc = scenario()
    cards(sc, *with_fillers(("annual_harvest_weigh_in", {"goods": ["sugar"]})))
    sc.player(0, tiles={"sugar": (2, 2)}, buildings={"large_sugar_mill": 2})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert sc.legal(state, 0) == ["c.sugar", "pass"]
    state = sc.act(state, 0, "c.sugar")
    assert state.players[0].goods[GOOD_INDEX["sugar"]] == 3
    assert completed_by(state)["annual_harvest_weigh_in"] is None
    assert sc.invariant_failures(state) == []


# --- owning properties: Specialist's Prize, Twin Farmers' Game ------------------------------------


def test_X5_3_specialists_prize_third_tobacco_three_workers_at_once() -> None:
    """X5-3: the first player to own 3 Tobacco properties takes 3 workers from the supply,
    placed at once (or left on the portrait); the card's Tobacco goes back into the bag.
    The next player's third Tobacco, in the same Planter phase, comes too late."""
    sc = scenario()
    cards(sc, *with_fillers(("specialists_prize", {"properties": ["tobacco"]})))
    sc.player(0, tiles={"tobacco": 2}, buildings={"small_market": 0})
    sc.player(1, tiles={"tobacco": 2})
    sc.face_up(["tobacco", "tobacco", "corn", "sugar", "fruit"])
    bag = GAME.view(sc.state, None)["property_bag"]
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.tobacco")
    assert completed_by(state)["specialists_prize"] == 0
    assert GAME.view(state, None)["property_bag"] == bag + 1
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("festival_workers", (0,))
    assert sorted(sc.legal(state, 0)) == ["fw.small_market", "fw.tobacco", "pass"]
    state = sc.act(state, 0, "fw.small_market")
    state = sc.act(state, 0, "fw.tobacco")
    state = sc.act(state, 0, "fw.tobacco")
    p0 = state.players[0]
    assert (
        p0.workers[TILE_INDEX["tobacco"]],
        p0.bw[BUILDING_INDEX["small_market"]],
        p0.san_juan,
    ) == (2, 1, 0)
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("plant", (1,))
    state = sc.act(state, 1, "p.tobacco")
    assert state.players[1].tiles[TILE_INDEX["tobacco"]] == 3
    assert completed_by(state)["specialists_prize"] == 0 and state.players[1].san_juan == 0
    assert sc.invariant_failures(state) == []


def test_X5_3_worker_reward_as_many_as_the_supply_holds() -> None:
    """X5-3 with the Festival's rule (X4: "3 workers from the supply, if possible"): with one
    worker left in the supply the Specialist's Prize gives one; with no empty space it waits on
    the portrait (no question asked)."""
    sc = scenario()
    cards(sc, *with_fillers(("specialists_prize", {"properties": ["tobacco"]})))
    sc.player(0, tiles={"tobacco": 2})
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    sc.set_colonists(supply=1)
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.tobacco")
    assert completed_by(state)["specialists_prize"] == 0
    assert sc.events_of("FestivalActivityCompleted")[-1].data["workers"] == 1
    assert state.colonist_supply == 0
    state = sc.act(state, 0, "fw.tobacco")
    assert state.players[0].workers[TILE_INDEX["tobacco"]] == 1
    assert sc.invariant_failures(state) == []


def test_X5_3_twin_farmers_game_two_and_two_properties_3_vp() -> None:
    """X5-3: 2 Corn and 2 Sugar properties: the Planter with 2 Corn and 1 Sugar takes a Sugar:
    3 VP (tokens from the supply); the next player, with the same, comes too late."""
    sc = scenario()
    cards(sc, *with_fillers(("twin_farmers_game", {"properties": ["corn", "sugar"]})))
    sc.player(0, tiles={"corn": 2, "sugar": 1})
    sc.player(1, tiles={"corn": 2, "sugar": 1})
    sc.face_up(["sugar", "sugar", "corn", "fruit", "tobacco"])
    tokens = GAME.view(sc.state, None)["vp_tokens_left"]
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.sugar")
    assert completed_by(state)["twin_farmers_game"] == 0 and state.players[0].vp == 3
    assert GAME.view(state, None)["vp_tokens_left"] == tokens - 3
    state = sc.act(state, 1, "p.sugar")
    assert completed_by(state)["twin_farmers_game"] == 0 and state.players[1].vp == 0
    assert sc.invariant_failures(state) == []


# --- Closing the Work (the 4th crate, TRD-2; not the Merchants' Post, B-29) ----------------------


def test_X5_3_closing_the_work_the_crate_that_fills_the_trading_house() -> None:
    """X5-3, TRD-2: Sugar sold as the 4th crate.  A 3rd Sugar does not fill the house; the
    4th crate of another good fills it without completing the card (and the others lose their
    turn); next Trader phase, a Sugar filling the emptied house completes it (2 workers, on
    the portrait: no empty space); a later Sugar filling it again comes too late."""
    sc = scenario()
    cards(sc, *with_fillers(("closing_the_work", {"goods": ["sugar"]})))
    sc.house(["corn", "fruit"])
    sc.player(0, goods={"sugar": 1})
    sc.player(1, goods={"tobacco": 1})
    sc.player(2, goods={"sugar": 1}, tiles={"corn": (1, 1)})
    sc.player(3, goods={"sugar": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.sugar")
    state = sc.act(state, 1, "t.tobacco")
    assert completed_by(state)["closing_the_work"] is None
    assert sc.prompt(state) == role_pick(1)  # the house is full: seats 2 and 3 lose their turn
    assert state.house == []  # emptied at the end of the phase (TRD-3)
    sc.state = state
    sc.house(["corn", "fruit", "tobacco"])
    state = sc.choose("trader", 2)
    assert sc.legal(state, 2) == ["t.sugar", "pass"]
    state = sc.act(state, 2, "t.sugar")
    assert completed_by(state)["closing_the_work"] == 2
    assert sc.events_of("FestivalActivityCompleted")[-1].data == {
        "activity": "closing_the_work",
        "workers": 2,
        "coins": 0,
        "vp": 0,
    }
    assert state.players[2].san_juan == 2
    sc.state = state
    sc.house(["corn", "fruit", "tobacco"])
    state = sc.choose("trader", 3)
    state = sc.act(state, 3, "t.sugar")
    assert sc.events_of("GoodSold")[-1].seat == 3 and state.house == []  # it filled the house
    assert completed_by(state)["closing_the_work"] == 2
    assert state.players[3].san_juan == 0
    assert len(sc.events_of("FestivalActivityCompleted")) == 1
    assert sc.invariant_failures(state) == []


def test_B_29_a_merchants_post_sale_is_no_sale_for_closing_the_work() -> None:
    """B-29, X5-3: with the house holding 3 crates, the Trader returns a Sugar through his
    Merchants' Post: no sale to the house, the card stays open; the next player's Sugar fills
    the house and completes it."""
    sc = Scenario1897(3, expansions=[1, 4, 5], building_selection="random")
    s = sc.state
    post = BUILDING_INDEX[classic("merchants_post")]
    if post not in s.drafted:
        s.drafted.append(post)
        s.market[post] = s.rs.copies[post]
        sc.boxed["buildings"] = -s.rs.copies[post]
        s.rs = state_ruleset(s.options, s.draft_left, s.drafted)
    cards(
        sc,
        ("closing_the_work", {"goods": ["sugar"]}),
        ("twin_farmers_game", {"properties": ["coffee", "tobacco"]}),
        ("traditional_shipping_ceremony", {"goods": ["coffee"]}),
    )
    sc.house(["corn", "fruit", "tobacco"])
    sc.player(0, goods={"sugar": 1}, buildings={"merchants_post": 1})
    sc.player(1, goods={"sugar": 1})
    state = sc.choose("trader", 0)
    assert "mp.sugar" in sc.legal(state, 0)
    state = sc.act(state, 0, "mp.sugar")
    assert len(state.house) == 3 and completed_by(state)["closing_the_work"] is None
    state = sc.act(state, 1, "t.sugar")
    assert completed_by(state)["closing_the_work"] == 1
    assert sc.invariant_failures(state) == []


# --- loading and dispatching (X5-4) ---------------------------------------------------------------


def test_X5_3_festival_goods_delivery_one_and_two_crates_in_one_captain_phase() -> None:
    """X5-3: 1 Corn and 2 Sugar loaded in one Captain phase, over several loads: the Captain
    loads 2 Sugar, later 1 Corn: 2 workers and 2 VP at his second load; the next player, who
    loaded 3 Sugar and then a Corn, comes too late."""
    sc = scenario()
    cards(sc, *with_fillers(("festival_goods_delivery", {"goods": ["corn", "sugar"]})))
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"sugar": 2, "corn": 1})
    sc.player(1, goods={"sugar": 3, "corn": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.sugar.0")  # 2 Sugar on ship 5
    state = sc.act(state, 1, "ship.sugar.0")  # 3 Sugar fill it
    assert completed_by(state)["festival_goods_delivery"] is None
    assert sc.prompt(state) == Prompt((0,), "ship", False)  # seats 2 and 3 have no goods
    vp = state.players[0].vp
    state = sc.act(state, 0, "ship.corn.1")
    assert completed_by(state)["festival_goods_delivery"] == 0
    assert state.players[0].vp == vp + 1 + 2  # the Corn's VP and the card's 2
    assert sc.events_of("FestivalActivityCompleted")[-1].data == {
        "activity": "festival_goods_delivery",
        "workers": 2,
        "coins": 0,
        "vp": 2,
    }
    prompt = sc.prompt(state)  # his starting Fruit is empty: one may go there now
    assert prompt is not None and (prompt.kind, prompt.seats) == ("festival_workers", (0,))
    state = sc.act(state, 0, "pass")  # both stay on the portrait
    assert state.players[0].san_juan == 2
    state = sc.act(state, 1, "ship.corn.1")
    assert completed_by(state)["festival_goods_delivery"] == 0
    assert state.players[1].san_juan == 0
    assert len(sc.events_of("FestivalActivityCompleted")) == 1
    assert sc.invariant_failures(state) == []


def test_X5_3_festival_goods_delivery_counts_one_phase_and_private_ships() -> None:
    """X5-3: the loads of one Captain phase count (the tally is 0 once it ends), and a load on
    a private ship (the Wharf) is a load: 2 Sugar loaded last phase and 1 Corn now do not
    complete the card; 2 Sugar on the Wharf's ship and 1 Corn on a cargo ship do."""
    sc = scenario()
    cards(sc, *with_fillers(("festival_goods_delivery", {"goods": ["corn", "sugar"]})))
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"sugar": 2})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.sugar.0")
    state = sc.finish_phase(state)  # (over already: nobody has anything more to load)
    assert not any(state.activity_loads)
    sc.state = state
    sc.player(0, goods={"corn": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, next(c for c in sc.legal(state, 0) if c.startswith("ship.corn")))
    assert completed_by(state)["festival_goods_delivery"] is None
    state = sc.finish_phase(state)
    sc.state = state
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(1, goods={"sugar": 2, "corn": 1}, buildings={"wharf": 1})
    state = sc.choose("captain", 1)
    state = sc.act(state, 1, "wharf.sugar")
    assert completed_by(state)["festival_goods_delivery"] is None
    state = sc.act(state, 1, next(c for c in sc.legal(state, 1) if c.startswith("ship.corn")))
    assert completed_by(state)["festival_goods_delivery"] == 1
    assert sc.invariant_failures(state) == []


def test_X5_4_solemn_shipping_ceremony_dispatch_the_largest_ship() -> None:
    """X5-4, X5-3: dispatching = loading the crate that fills a cargo ship.  Sugar on the
    largest ship (7): the Captain's Sugar leaves it at 6 of 7; the next player's fills it:
    3 workers (on the portrait: no empty space).  Filling the smallest ship with Sugar would
    not do; a later dispatch of the largest ship with Sugar comes too late."""
    sc = scenario()
    cards(sc, *with_fillers(("solemn_shipping_ceremony", {"goods": ["sugar"]})))
    sc.ships([(5, "corn", 4), (6, None, 0), (7, "sugar", 5)])
    sc.player(0, goods={"sugar": 1})
    sc.player(1, goods={"sugar": 1, "corn": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.sugar.2")
    assert completed_by(state)["solemn_shipping_ceremony"] is None
    state = sc.act(state, 1, "ship.corn.0")  # fills the smallest ship: Corn, not the largest
    assert completed_by(state)["solemn_shipping_ceremony"] is None
    assert sc.prompt(state) == Prompt((1,), "ship", True)  # the others have nothing to load
    state = sc.act(state, 1, "ship.sugar.2")
    assert completed_by(state)["solemn_shipping_ceremony"] == 1
    assert view_ship(state, 2) == {"capacity": 7, "good": "sugar", "count": 7}
    assert state.players[1].san_juan == 3
    state = sc.finish_phase(state)
    sc.state = state
    sc.ships([(5, None, 0), (6, None, 0), (7, "sugar", 6)])
    sc.player(2, goods={"sugar": 1})
    state = sc.choose("captain", 2)
    state = sc.act(state, 2, "ship.sugar.2")
    assert completed_by(state)["solemn_shipping_ceremony"] == 1
    assert state.players[2].san_juan == 0
    assert sc.invariant_failures(state) == []


def view_ship(state: State, index: int) -> dict[str, Any]:
    return dict(GAME.view(state, None)["ships"][index])


def test_X5_4_traditional_shipping_ceremony_the_smallest_ship_2_coins() -> None:
    """X5-4: Coffee dispatching the smallest ship (5): the first to fill it gets 2 coins; in a
    later Captain phase, another player filling it with Coffee again gets nothing more."""
    sc = scenario()
    cards(
        sc,
        ("traditional_shipping_ceremony", {"goods": ["coffee"]}),
        ("twin_farmers_game", {"properties": ["corn", "tobacco"]}),
        ("inauguration_ceremony", {"building": "customs_house"}),
    )
    sc.ships([(5, "coffee", 3), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"coffee": 1}, doubloons=0)
    sc.player(1, goods={"coffee": 2}, doubloons=0)
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.coffee.0")
    assert completed_by(state)["traditional_shipping_ceremony"] is None
    state = sc.act(state, 1, "ship.coffee.0")
    assert completed_by(state)["traditional_shipping_ceremony"] == 1
    assert (state.players[0].doubloons, state.players[1].doubloons) == (0, 2)
    state = sc.finish_phase(state)
    sc.state = state
    sc.ships([(5, "coffee", 4), (6, None, 0), (7, None, 0)])
    sc.player(2, goods={"coffee": 1}, doubloons=0)
    state = sc.choose("captain", 2)
    state = sc.act(state, 2, "ship.coffee.0")
    assert sc.events_of("GoodsShipped")[-1].seat == 2
    assert sc.events_of("ShipsEmptied")[-1].data["ships"] == [0]  # it filled ship 5
    assert completed_by(state)["traditional_shipping_ceremony"] == 1
    assert state.players[2].doubloons == 0
    assert sc.invariant_failures(state) == []


def test_X5_4_a_private_ship_is_never_dispatched() -> None:
    """X5-4: a private ship has no limit: loading all one's Sugar onto the Wharf's ship never
    dispatches (Solemn and Traditional Shipping Ceremonies stay open)."""
    sc = scenario()
    cards(
        sc,
        ("solemn_shipping_ceremony", {"goods": ["sugar"]}),
        ("traditional_shipping_ceremony", {"goods": ["corn"]}),
        ("twin_farmers_game", {"properties": ["coffee", "tobacco"]}),
    )
    sc.ships([(5, "corn", 4), (6, "fruit", 1), (7, "sugar", 6)])
    sc.player(0, goods={"sugar": 7, "corn": 3}, buildings={"wharf": 1})
    state = sc.choose("captain", 0)
    assert {"wharf.sugar", "wharf.corn"} <= set(sc.legal(state, 0))
    state = sc.act(state, 0, "wharf.sugar")
    state = sc.finish_phase(state)
    assert state.players[0].goods[GOOD_INDEX["sugar"]] == 0
    assert completed_by(state) == {
        "solemn_shipping_ceremony": None,
        "traditional_shipping_ceremony": 0,  # his Corn filled ship 5 in his next turn
        "twin_farmers_game": None,
    }
    assert sc.invariant_failures(state) == []


# --- building: A Toast to the Pioneer, Inauguration Ceremony -------------------------------------


def test_X5_3_a_toast_to_the_pioneer_3_vp_and_the_tile_back_to_the_tray() -> None:
    """X5-3, A-17: the Factory, one of its two tiles on the card (the tray keeps 1).  Building
    it: 3 VP, the card's tile back on the tray; the next Builder builds that Factory: no
    reward."""
    sc = scenario()
    cards(sc, *with_fillers(("a_toast_to_the_pioneer", {"building": "factory"})))
    assert left(sc.state)["factory"] == 1
    assert board_view(sc.state)[0]["building_on_card"] is True
    sc.player(0, doubloons=7)
    sc.player(1, doubloons=7)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.factory")
    assert completed_by(state)["a_toast_to_the_pioneer"] == 0 and state.players[0].vp == 3
    assert left(state)["factory"] == 1 and board_view(state)[0]["building_on_card"] is False
    state = sc.act(state, 1, "b.factory")
    assert state.players[1].vp == 0 and left(state)["factory"] == 0
    assert sc.invariant_failures(state) == []


def test_A_17_inauguration_ceremony_names_the_only_copy() -> None:
    """A-17, X5-3: an expanded building has one copy: the card names the City Hall and its
    tile stays on the tray; building it gives 3 VP, and nothing returns (no later player can
    build it: there is no other tile)."""
    sc = scenario()
    cards(sc, *with_fillers(("inauguration_ceremony", {"building": "city_hall"})))
    assert left(sc.state)["city_hall"] == 1
    assert board_view(sc.state)[0]["building_on_card"] is False
    sc.player(0, doubloons=10)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.city_hall")
    assert completed_by(state)["inauguration_ceremony"] == 0 and state.players[0].vp == 3
    assert left(state)["city_hall"] == 0
    assert "b.city_hall" not in sc.legal(state, 1)
    assert sc.invariant_failures(state) == []


def test_A_17_two_players_the_pioneer_names_the_single_copy() -> None:
    """A-17 with 2 players (TWO-1: one tile of each commercial building; Expansion IV then has
    no building goal, A-16): the card names the School without taking its only tile; building
    it completes the card."""
    sc = scenario(2)
    cards(sc, *with_fillers(("a_toast_to_the_pioneer", {"building": "school"})))
    assert left(sc.state)["school"] == 1
    assert board_view(sc.state)[0]["building_on_card"] is False
    sc.player(0, doubloons=8)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.school")
    assert completed_by(state)["a_toast_to_the_pioneer"] == 0 and state.players[0].vp == 3
    assert sc.invariant_failures(state) == []


def test_X5_3_vp_rewards_count_against_the_tokens_END_T3() -> None:
    """X5-3, END-T3: a VP reward is taken from the VP tokens (``ops.gain_vp``): with 2 tokens
    left the Pioneer's 3 VP empty them; 1897 ends the game at the end of the next Captain
    phase, not at once."""
    sc = scenario()
    cards(sc, *with_fillers(("a_toast_to_the_pioneer", {"building": "factory"})))
    sc.set_vp_supply(2)
    sc.player(0, doubloons=7)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.factory")
    state = sc.finish_phase(state)
    view = GAME.view(state, None)
    assert state.players[0].vp == 3 and view["vp_tokens_left"] == 0
    assert view["end_triggered"] == [] and not view["game_over"]
    sc.state = state
    state = sc.choose("captain", 1)
    state = sc.finish_phase(state)
    view = GAME.view(state, None)
    assert view["game_over"] and view["end_triggered"] == ["vp_tokens"]
    assert sc.invariant_failures(state) == []


# --- view, events, dump ---------------------------------------------------------------------------


def test_X5_3_the_view_shows_the_cards_and_who_completed_them() -> None:
    """X5-1, X5-3: the public view shows the three cards in 1897's words (properties, workers,
    coins), their components and reward, and who completed each; every seat sees the same."""
    sc = scenario()
    cards(
        sc,
        ("twin_farmers_game", {"properties": ["corn", "fruit"]}),
        ("festival_goods_delivery", {"goods": ["fruit", "sugar"]}),
        ("a_toast_to_the_pioneer", {"building": "school"}),
    )
    sc.player(0, doubloons=8)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.school")
    public = board_view(state)
    assert public == [
        {
            "activity": "twin_farmers_game",
            "task": "own",
            "properties": [{"tile": "corn", "count": 2}, {"tile": "fruit", "count": 2}],
            "goods": [],
            "building": None,
            "building_on_card": False,
            "reward": {"workers": 0, "coins": 0, "vp": 3},
            "completed_by": None,
        },
        {
            "activity": "festival_goods_delivery",
            "task": "load",
            "properties": [],
            "goods": [{"good": "fruit", "count": 1}, {"good": "sugar", "count": 2}],
            "building": None,
            "building_on_card": False,
            "reward": {"workers": 2, "coins": 0, "vp": 2},
            "completed_by": None,
        },
        {
            "activity": "a_toast_to_the_pioneer",
            "task": "build",
            "properties": [],
            "goods": [],
            "building": "school",
            "building_on_card": False,
            "reward": {"workers": 0, "coins": 0, "vp": 3},
            "completed_by": 0,
        },
    ]
    assert all(GAME.view(state, seat)["festival_activities"] == public for seat in range(4))
    assert "festival_activities" not in GAME.view(GAME.setup({"players": 3}, 1), None)


def test_X5_dump_and_load_round_trip() -> None:
    """The cards and the Captain phase's loads are saved (only with the module: other dumps
    stay as they were) and load back to the same state."""
    sc = scenario()
    cards(sc, *with_fillers(("festival_goods_delivery", {"goods": ["corn", "sugar"]})))
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"sugar": 2, "corn": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.sugar.0")
    dumped = GAME.dump(state)
    saved = dumped["festival_activities"]
    assert saved["cards"][0]["card"] == "festival_goods_delivery"
    assert saved["cards"][0]["goods"] == ["corn", "sugar", None]
    assert saved["loads"][0] == {"sugar": 2}
    loaded = GAME.load(json.loads(json.dumps(dumped)))
    assert GAME.dump(loaded) == dumped and GAME.view(loaded, 0) == GAME.view(state, 0)
    assert loaded.activities == state.activities
    assert loaded.activity_loads == state.activity_loads
    plain = GAME.dump(GAME.setup({"players": 3, "expansions": [4]}, 1))
    assert "festival_activities" not in plain
    broken = {**dumped, "festival_activities": {**saved, "cards": saved["cards"][:-1]}}
    with pytest.raises(CorruptState) as info:
        GAME.load(broken)
    assert info.value.code == "bad_length"
    twice = [saved["cards"][0], {**saved["cards"][1], "card": saved["cards"][0]["card"]},
             saved["cards"][2]]  # the same card twice
    with pytest.raises(CorruptState) as info:
        GAME.load({**dumped, "festival_activities": {**saved, "cards": twice}})
    assert "activities:cards" in info.value.details["problems"]


@pytest.mark.parametrize("players", [2, 4])
def test_X5_a_game_with_expansion_v_speaks_1897_words_only(players: int) -> None:
    """X5-3, §1: a whole heuristic game with Expansions IV and V, its codes, events, views and
    outcome in 1897's words, never a classic one; cards get completed on the way."""
    options = GAME.normalize_options({"players": players, "expansions": [4, 5]})
    policies = [make_policy("heuristic", GAME.name, policy_seed(3, s)) for s in range(players)]
    result = play_game(GAME, options, 3, policies)
    state, events = replay(GAME.name, options, 3, result.actions)
    done = [e.data for e in events if e.type == "FestivalActivityCompleted"]
    assert done and all(set(d) == {"activity", "workers", "coins", "vp"} for d in done)
    outcome = GAME.outcome(state)
    assert outcome is not None
    text = json.dumps(
        [
            [code for _, code in result.actions],
            [e.to_json() for e in events],
            GAME.view(state, 0),
            outcome.to_json(),
        ]
    )
    words = {
        w
        for token in re.findall(r"[A-Za-z_0-9]+", text)
        for w in (token, token.rstrip("0123456789"))
    }
    assert words & RENAMED == set()
    assert GAME.invariants(state) == []
