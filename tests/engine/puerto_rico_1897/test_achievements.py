"""1897's Expansion VI, the Achievements (§7.6: X6-1...X6-5, A-31, Appendix D.1; §4.2 item 4),
the kernel's ``achievements`` module: the 30 cards as data, dealt or drafted, each objective met
when it becomes true, announced at any moment, scored at the end, hidden from the others."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from engine import replay
from engine.core import CorruptState, GameOver, IllegalAction, InvalidSetup, NotYourTurn, Prompt
from engine.policies import make_policy
from engine.puerto_rico import PUERTO_RICO
from engine.puerto_rico.heuristic import make_heuristic
from engine.puerto_rico.legality import anytime_actions
from engine.puerto_rico.state import DRAFT_PHASE, GAME_OVER, STEP_ARRANGE, State
from engine.puerto_rico_1897.achievements import (
    ACH_ANNOUNCED,
    ACH_HELD,
    ACH_MET,
    ACH_PICK,
    ANNOUNCE_ACTIONS,
    CARD_INDEX,
    CARDS,
    STATE_CHECKS,
    AchievementCard,
)
from engine.puerto_rico_1897.game import PUERTO_RICO_1897
from engine.puerto_rico_1897.names import RENAMED
from engine.simulate import MAX_ACTIONS, play_game, policy_seed
from tests.engine.puerto_rico_1897.scenario import Scenario1897, score_parts

GAME = PUERTO_RICO_1897
STATUS = {ACH_HELD: "held", ACH_MET: "met", ACH_ANNOUNCED: "announced", ACH_PICK: "pick"}


# --- helpers ------------------------------------------------------------------------------------


def scenario(players: int = 4, **options: Any) -> Scenario1897:
    return Scenario1897(players, expansions=[6], **options)


def status(state: State, name: str) -> str:
    """Where a card stands: ``deck``, or its holder's ``held`` / ``met`` / ``announced`` /
    ``pick``."""
    card = CARD_INDEX[name]
    if state.achievement_owner[card] < 0:
        return "deck"
    return STATUS[state.achievement_status[card]]


def holder(state: State, name: str) -> int:
    return state.achievement_owner[CARD_INDEX[name]]


def load(sc: Scenario1897, state: State, seat: int, good: str) -> str:
    """The first cargo-ship load of ``good`` legal for ``seat``."""
    return next(c for c in sc.legal(state, seat) if c.startswith(f"ship.{good}."))


def hand_view(state: State, viewer: int) -> list[AchievementCard]:
    hand = GAME.view(state, viewer)["achievements"]["hand"]
    assert hand is not None  # a seat's own view shows them
    return hand


Case = Callable[[Scenario1897], tuple[State, int, str]]


# --- the cards (D.1, A-31) and the options ------------------------------------------------------


def test_A_31_thirty_cards_as_data() -> None:
    """A-31, Appendix D.1: the 30 cards (title, VP, objective and what it names), in D.1's
    order; the seed's example, Master Architect, builds an expanded building for at most 6
    coins."""
    table = {c.name: (c.vp, c.objective, c.goods, c.count) for c in CARDS}
    corn, fruit, sugar, tobacco, coffee = range(5)
    assert table == {
        "big_spender": (5, "build_expanded_paying_all_coins", (), 0),
        "caramel_popcorn_inventor": (4, "own_crates", (corn, sugar), 8),
        "coffee_dispatcher": (5, "dispatch", (coffee,), 0),
        "confectionery_supplier": (4, "own_crates", (fruit, sugar), 7),
        "corn_dispatcher": (3, "dispatch", (corn,), 0),
        "deal_closer": (4, "fill_trading_house", (), 0),
        "dock_tycoon": (5, "load_different_goods", (), 3),
        "fruit_dispatcher": (3, "dispatch", (fruit,), 0),
        "head_administrator": (6, "workers_on_buildings", (), 12),
        "independent_shipper": (4, "fill_empty_ship", (), 0),
        "leading_employer": (6, "workers_on_field", (), 9),
        "leading_producer": (6, "produce_crates", (), 7),
        "luxury_crop_trader": (4, "own_crates", (tobacco, coffee), 5),
        "luxury_goods_provider": (5, "production_building_of_each", (sugar, tobacco, coffee), 0),
        "major_investor": (7, "expanded_buildings", (), 2),
        "major_landowner": (7, "empty_spaces_at_most", (), 2),
        "master_agronomist": (5, "field_tiles", (), 12),
        "master_architect": (3, "build_expanded_paying_at_most", (), 6),
        "master_collector": (7, "own_crates_of_one_good", (), 7),
        "pastry_maker": (4, "own_crates", (corn, fruit), 9),
        "prudent_merchant": (4, "store_different_goods", (), 2),
        "senior_bureaucrat": (7, "common_commercial_buildings", (), 7),
        "specialised_shipper": (5, "load_crates_of_one_good", (), 5),
        "sugar_dispatcher": (4, "dispatch", (sugar,), 0),
        "tavern_supplier": (4, "own_crates", (sugar, coffee), 6),
        "tobacco_dispatcher": (5, "dispatch", (tobacco,), 0),
        "tobacco_and_fruit_broker": (4, "own_crates", (fruit, tobacco), 6),
        "trade_strategist": (7, "vp_in_captain_phase", (), 7),
        "trade_tycoon": (4, "sell_for_coins", (), 6),
        "tropical_produce_magnate": (4, "production_buildings", (fruit, sugar), 3),
    }
    assert sum(c.vp for c in CARDS) == 145


def test_X6_expansion_vi_needs_no_other_and_its_options() -> None:
    """§7.6: Expansion VI is played alone or with any other; its options (X6-2's draft, X6-4's
    scoring) default to the rules (deal, completed cards) and are stored only with it, so the
    options of every other game stay as they were."""
    options = GAME.normalize_options({"players": 3, "expansions": [6]})
    assert options["expansions"] == [6]
    assert (options["achievement_deal"], options["achievement_scoring"]) == ("deal", "completed")
    plain = GAME.normalize_options({"players": 3, "expansions": [4, 5]})
    assert "achievement_deal" not in plain and "achievement_scoring" not in plain
    drafted = GAME.normalize_options(
        {"players": 3, "expansions": [6, 1], "achievement_deal": "draft"}
    )
    assert drafted["expansions"] == [1, 6] and drafted["achievement_deal"] == "draft"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"achievement_deal": "draft"}, "achievement_deal_without_achievements"),
        ({"achievement_scoring": "announced"}, "achievement_scoring_without_achievements"),
        ({"expansions": [6], "achievement_deal": "pass"}, "bad_achievement_deal"),
        ({"expansions": [6], "achievement_deal": True}, "bad_achievement_deal"),
        ({"expansions": [6], "achievement_scoring": "all"}, "bad_achievement_scoring"),
        ({"expansions": [6, 6]}, "duplicate_expansion"),
        ({"expansions": [7]}, "bad_expansions"),
    ],
)
def test_X6_bad_options_are_refused(options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidSetup) as info:
        GAME.normalize_options({"players": 3, **options})
    assert info.value.code == code


def test_the_classic_game_has_no_achievements() -> None:
    """The module is 1897's own (``Edition.own_modules``): the classic and 2020 editions refuse
    it, and know none of its options."""
    for options, code in (
        ({"players": 3, "modules": ["achievements"]}, "module_not_in_edition"),
        ({"players": 3, "modules": ["achievements"], "edition": "2020"}, "module_not_in_edition"),
        ({"players": 3, "achievement_deal": "deal"}, "unknown_option"),
    ):
        with pytest.raises(InvalidSetup) as info:
            PUERTO_RICO.normalize_options(options)
        assert info.value.code == code
    state = PUERTO_RICO.setup({"players": 3}, 1)
    with pytest.raises(IllegalAction) as error:
        PUERTO_RICO.apply(state, 0, PUERTO_RICO.decode_action("ach.deal_closer"))
    assert error.value.code == "achievements_not_in_game"


# --- setup (X6-1) -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_X6_1_four_cards_dealt_to_each_at_random(players: int) -> None:
    """X6-1: four cards to each player from the 30, at random with the game's generator (the
    rest stay in the deck, never seen); dealt after every other part of the setup, so a seed
    gives the same board with or without them."""
    hands: set[tuple[int, ...]] = set()
    for seed in range(8):
        state = GAME.setup({"players": players, "expansions": [6]}, seed)
        base = GAME.setup({"players": players}, seed)
        view, plain = GAME.view(state, None), GAME.view(base, None)
        assert {k: v for k, v in view.items() if k not in ("achievements", "options")} == {
            k: v for k, v in plain.items() if k != "options"
        }
        owner = state.achievement_owner
        assert all(owner.count(seat) == 4 for seat in range(players))
        assert owner.count(-1) == 30 - 4 * players
        assert set(state.achievement_status) == {ACH_HELD}
        assert view["achievements"]["deck"] == 30 - 4 * players
        hands.add(tuple(c for c in range(30) if owner[c] == 0))
        assert GAME.invariants(state) == []
        assert GAME.prompt(state) == Prompt((0,), "role", False)
    assert len(hands) == 8


# --- objectives met when they become true (D.1, X6-3) --------------------------------------------


def _build(doubloons: int, building: str, **parts: Any) -> Case:
    def case(sc: Scenario1897) -> tuple[State, int, str]:
        sc.player(0, doubloons=doubloons, **parts)
        return sc.choose("builder", 0), 0, f"b.{building}"

    return case


def _produce(**parts: Any) -> Case:
    def case(sc: Scenario1897) -> tuple[State, int, str]:
        sc.player(0, **parts)
        state = sc.choose("craftsman", 0)
        return state, 0, "produce"

    return case


def _dispatch(good: str) -> Case:
    def case(sc: Scenario1897) -> tuple[State, int, str]:
        sc.ships([(5, good, 4), (6, None, 0), (7, None, 0)])
        sc.player(0, goods={good: 1})
        return sc.choose("captain", 0), 0, f"ship.{good}.0"

    return case


def _dock_tycoon(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 1, "sugar": 1, "coffee": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, load(sc, state, 0, "corn"))
    state = sc.act(state, 0, load(sc, state, 0, "sugar"))
    return state, 0, load(sc, state, 0, "coffee")


def _deal_closer(sc: Scenario1897) -> tuple[State, int, str]:
    sc.house(["corn", "fruit", "sugar"])
    sc.player(0, goods={"tobacco": 1})
    return sc.choose("trader", 0), 0, "t.tobacco"


def _head_administrator(sc: Scenario1897) -> tuple[State, int, str]:
    # 12 building spaces, 11 occupied: the Recruiter's advantage worker fills the last
    sc.player(
        0,
        tiles={},
        buildings={
            "large_sugar_mill": 3,
            "large_tobacco_storage": 3,
            "large_fruit_depot": 3,
            "large_coffee_roaster": 2,
            "small_market": 0,
        },
    )
    return sc.choose("recruiter", 0), 0, "w.advantage"


def _independent_shipper(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, None, 0), (6, "corn", 2), (7, None, 0)])
    sc.player(0, goods={"sugar": 5})
    return sc.choose("captain", 0), 0, "ship.sugar.0"


def _leading_employer(sc: Scenario1897) -> tuple[State, int, str]:
    sc.player(0, tiles={"corn": (4, 4), "sugar": (4, 4)}, buildings={"hospital": 1})
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.tobacco")
    return state, 0, "o.hospital"  # the 9th worker on a field tile


def _master_agronomist(sc: Scenario1897) -> tuple[State, int, str]:
    sc.player(0, tiles={"corn": 6, "sugar": 5})
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    return sc.choose("planter", 0), 0, "p.fruit"


def _prudent_merchant(sc: Scenario1897) -> tuple[State, int, str]:
    # his Coffee fills the last ship; then nobody can load, and his Small Warehouse keeps a
    # Corn and a Sugar when the phase ends (all in the same action)
    sc.ships([(5, "coffee", 4), (6, "fruit", 6), (7, "tobacco", 7)])
    sc.player(0, goods={"corn": 1, "sugar": 1, "coffee": 1}, buildings={"small_warehouse": 1})
    return sc.choose("captain", 0), 0, "ship.coffee.0"


def _specialised_shipper(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"tobacco": 5})
    state = sc.choose("captain", 0)
    return state, 0, load(sc, state, 0, "tobacco")


def _trade_strategist(sc: Scenario1897) -> tuple[State, int, str]:
    # 4 Corn and the advantage: 5 VP; then 2 Sugar: 7 in the phase
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 4, "sugar": 2})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, load(sc, state, 0, "corn"))
    assert state.players[0].vp == 5
    return state, 0, load(sc, state, 0, "sugar")


def _trade_tycoon(sc: Scenario1897) -> tuple[State, int, str]:
    sc.player(0, goods={"coffee": 1}, buildings={"small_market": 1})  # 4 + 1 + 1
    return sc.choose("trader", 0), 0, "t.coffee"


COMMONS = ("small_market", "hacienda", "builders_yard", "small_warehouse", "office", "large_market")

MEETS: dict[str, Case] = {
    "big_spender": _build(9, "city_hall"),  # 10 - 1 (the advantage): every coin
    "caramel_popcorn_inventor": _produce(goods={"corn": 5, "sugar": 2}, tiles={"corn": (1, 1)}),
    "coffee_dispatcher": _dispatch("coffee"),
    "confectionery_supplier": _produce(
        goods={"fruit": 3, "sugar": 3},
        tiles={"sugar": (1, 1)},
        buildings={"small_sugar_mill": 1},
    ),
    "corn_dispatcher": _dispatch("corn"),
    "deal_closer": _deal_closer,
    "dock_tycoon": _dock_tycoon,
    "fruit_dispatcher": _dispatch("fruit"),
    "head_administrator": _head_administrator,
    "independent_shipper": _independent_shipper,
    "leading_employer": _leading_employer,
    "leading_producer": _produce(
        tiles={"corn": (4, 4), "sugar": (3, 3)}, buildings={"large_sugar_mill": 3}
    ),
    "luxury_crop_trader": _produce(
        goods={"tobacco": 2, "coffee": 2},
        tiles={"coffee": (1, 1)},
        buildings={"large_coffee_roaster": 1},
    ),
    "luxury_goods_provider": _build(
        5, "large_coffee_roaster", buildings={"small_sugar_mill": 0, "large_tobacco_storage": 0}
    ),
    "major_investor": _build(9, "customs_house", buildings={"city_hall": 0}),
    "major_landowner": _build(
        2,
        "small_sugar_mill",
        tiles={"corn": 5, "sugar": 5},
        buildings=[*COMMONS, "hospital", "large_warehouse", "small_fruit_depot"],
    ),
    "master_agronomist": _master_agronomist,
    "master_architect": _build(5, "city_hall", tiles={"quarry": (4, 4)}),  # 10 - 4 - 1
    "master_collector": _produce(goods={"corn": 6}, tiles={"corn": (1, 1)}),
    "pastry_maker": _produce(goods={"corn": 5, "fruit": 3}, tiles={"corn": (1, 1)}),
    "prudent_merchant": _prudent_merchant,
    "senior_bureaucrat": _build(3, "hospital", buildings=list(COMMONS)),
    "specialised_shipper": _specialised_shipper,
    "sugar_dispatcher": _dispatch("sugar"),
    "tavern_supplier": _produce(
        goods={"coffee": 2, "sugar": 3},
        tiles={"sugar": (1, 1)},
        buildings={"small_sugar_mill": 1},
    ),
    "tobacco_dispatcher": _dispatch("tobacco"),
    "tobacco_and_fruit_broker": _produce(
        goods={"fruit": 2, "tobacco": 3},
        tiles={"fruit": (1, 1)},
        buildings={"small_fruit_depot": 1},
    ),
    "trade_strategist": _trade_strategist,
    "trade_tycoon": _trade_tycoon,
    "tropical_produce_magnate": _build(
        3, "large_sugar_mill", buildings={"small_fruit_depot": 0, "small_sugar_mill": 0}
    ),
}
assert set(MEETS) == set(CARD_INDEX)


@pytest.mark.parametrize("name", sorted(MEETS))
def test_X6_3_each_objective_is_met_when_it_becomes_true(name: str) -> None:
    """D.1 ("met at the moment it becomes true"), X6-3: for each card, a position one action
    short of its objective leaves it unmet (and nothing to announce); the action that makes it
    true marks it met -- for its holder only -- and offers him ``ach.<card>``."""
    sc = scenario()
    sc.achievements(0, [name])
    state, seat, code = MEETS[name](sc)
    assert status(state, name) == "held"
    assert f"ach.{name}" not in sc.legal(state, 0)
    state = sc.act(state, seat, code)
    assert status(state, name) == "met"
    assert f"ach.{name}" in sc.legal(state, 0)
    assert [c["met"] for c in hand_view(state, 0) if c["achievement"] == name] == [True]
    assert not any(e.type.startswith("Achievement") for e in sc.events)  # no event tells it
    assert sc.invariant_failures(state) == []


def _miss_build(doubloons: int, building: str, **parts: Any) -> Case:
    return _build(doubloons, building, **parts)


def _deal_closer_not_the_trader(sc: Scenario1897) -> tuple[State, int, str]:
    sc.house(["corn", "fruit"])
    sc.player(0, goods={"coffee": 1})
    sc.player(1, goods={"tobacco": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.coffee")
    return state, 1, "t.tobacco"  # the 4th crate, but seat 1 is not the Trader


def _two_goods_loaded(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 1, "sugar": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, load(sc, state, 0, "corn"))
    return state, 0, load(sc, state, 0, "sugar")


def _fill_a_loaded_ship(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, "sugar", 1), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"sugar": 4})
    return sc.choose("captain", 0), 0, "ship.sugar.0"  # full, but not from empty


def _producer_and_advantage(sc: Scenario1897) -> tuple[State, int, str]:
    # 6 crates produced, a 7th taken as the Craftsman's advantage: not produced
    sc.player(0, tiles={"corn": (3, 3), "sugar": (3, 3)}, buildings={"large_sugar_mill": 3})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    return state, 0, "c.sugar"


def _four_crates(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"tobacco": 4})
    state = sc.choose("captain", 0)
    return state, 0, load(sc, state, 0, "tobacco")


def _six_vp(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 4, "sugar": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, load(sc, state, 0, "corn"))
    return state, 0, load(sc, state, 0, "sugar")


def _one_crate_stored(sc: Scenario1897) -> tuple[State, int, str]:
    sc.ships([(5, "coffee", 4), (6, "fruit", 6), (7, "tobacco", 7)])
    sc.player(0, goods={"corn": 1, "sugar": 1, "coffee": 1})  # no warehouse: one crate kept
    return sc.choose("captain", 0), 0, "ship.coffee.0"


def _five_coins(sc: Scenario1897) -> tuple[State, int, str]:
    sc.player(0, goods={"coffee": 1})
    return sc.choose("trader", 0), 0, "t.coffee"


MISSES: dict[str, tuple[str, Case]] = {
    "one coin left": ("big_spender", _miss_build(10, "city_hall")),
    "an expanded building for 9": ("master_architect", _miss_build(9, "city_hall")),
    "a common building paying every coin": ("big_spender", _miss_build(4, "office")),
    "7 crates": (
        "caramel_popcorn_inventor",
        _produce(goods={"corn": 4, "sugar": 2}, tiles={"corn": (1, 1)}),
    ),
    "8 crates, no Sugar": (
        "caramel_popcorn_inventor",
        _produce(goods={"corn": 7}, tiles={"corn": (1, 1)}),
    ),
    "a Corn dispatch": ("coffee_dispatcher", _dispatch("corn")),
    "not the Trader": ("deal_closer", _deal_closer_not_the_trader),
    "two goods loaded": ("dock_tycoon", _two_goods_loaded),
    "a ship loaded before": ("independent_shipper", _fill_a_loaded_ship),
    "the advantage crate": ("leading_producer", _producer_and_advantage),
    "4 crates": ("specialised_shipper", _four_crates),
    "6 VP": ("trade_strategist", _six_vp),
    "one crate stored": ("prudent_merchant", _one_crate_stored),
    "a sale for 5": ("trade_tycoon", _five_coins),
    "3 empty building spaces": (
        "major_landowner",
        _build(
            1,
            "small_fruit_depot",
            tiles={"corn": 5, "sugar": 5},
            buildings=[*COMMONS, "hospital", "large_warehouse"],
        ),
    ),
    "an expanded building fills 2 spaces": (
        "major_landowner",
        _build(9, "city_hall", tiles={"corn": 5, "sugar": 4}, buildings=list(COMMONS)[:6]),
    ),
}


@pytest.mark.parametrize("label", sorted(MISSES))
def test_X6_3_near_misses_leave_the_card_unmet(label: str) -> None:
    """D.1: the same actions one step short of an objective: the card stays unmet (a common
    building is no expanded one; the Trader alone closes a deal; a ship already loaded is not
    filled from empty; the Craftsman's advantage crate is not produced; an expanded building
    takes two building spaces, so 9 tiles and 6 + 2 buildings leave 3 and 4 empty)."""
    name, case = MISSES[label]
    sc = scenario()
    sc.achievements(0, [name])
    sc.achievements(1, [name] if name == "deal_closer" else [])
    state, seat, code = case(sc)
    state = sc.act(state, seat, code)
    assert status(state, name) == "held"
    assert sc.invariant_failures(state) == []


def test_X6_4_a_state_met_once_stays_met_and_scores() -> None:
    """D.1, X6-4: Master Collector's 7 Corn are met when produced; loading them the next
    Captain phase leaves the card met, and it scores."""
    sc = scenario()
    sc.achievements(0, ["master_collector"])
    state, seat, code = MEETS["master_collector"](sc)
    state = sc.act(state, seat, code)
    state = sc.finish_phase(state)
    sc.state = state
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    state = sc.choose("captain", 1)
    state = sc.finish_phase(state)
    assert state.players[0].goods[0] <= 1 and status(state, "master_collector") == "met"
    sc.state = state
    assert score_parts(sc, 0)["achievements"] == 7


def test_X6_5_dispatch_is_X5_4s_a_private_ship_is_never_dispatched() -> None:
    """X6-5, X5-4: 7 Sugar onto the Wharf's private ship is a load (Specialised Shipper: 5 of
    one good in one load) but no dispatch (Sugar Dispatcher stays unmet); the next load filling
    a cargo ship with Sugar is one."""
    sc = scenario()
    sc.achievements(0, ["sugar_dispatcher", "specialised_shipper"])
    sc.ships([(5, None, 0), (6, "sugar", 5), (7, None, 0)])
    sc.player(0, goods={"sugar": 7}, buildings={"wharf": 1})
    sc.player(1, goods={"sugar": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "wharf.sugar")
    assert status(state, "specialised_shipper") == "met"
    assert status(state, "sugar_dispatcher") == "held"
    sc.achievements(1, ["sugar_dispatcher"])
    state = sc.state
    state = sc.act(state, 1, "ship.sugar.1")
    assert status(state, "sugar_dispatcher") == "met" and holder(state, "sugar_dispatcher") == 1
    assert sc.invariant_failures(state) == []


def test_X6_3_one_captain_phases_vp_and_goods() -> None:
    """D.1 Trade Strategist, Dock Tycoon: the VP and the goods of one Captain phase; those of
    the previous phase do not count (the tallies start again)."""
    sc = scenario()
    sc.achievements(0, ["trade_strategist", "dock_tycoon"])
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 4, "sugar": 1})
    state = sc.choose("captain", 0)
    state = sc.finish_phase(state)  # 5 + 1 VP, Corn and Sugar
    assert state.players[0].vp == 6 and not any(state.achievement_tally)
    sc.state = state
    sc.ships([(5, None, 0), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"coffee": 1})
    state = sc.choose("captain", 1)
    state = sc.finish_phase(state)
    assert status(state, "trade_strategist") == "held" and status(state, "dock_tycoon") == "held"


# --- announcing (X6-3) --------------------------------------------------------------------------


def test_X6_3_announce_out_of_turn_without_changing_the_turn() -> None:
    """X6-3 "a qualquer momento": seat 1 meets Coffee Dispatcher in the Captain phase; while
    seat 2 is asked to load, seat 1 (not prompted: only ``ach.coffee_dispatcher`` is legal for
    him) announces it: the prompt is the same, the card face up (its title public, its VP
    hidden until the end); the action is gone afterwards (once only)."""
    sc = scenario()
    sc.achievements(1, ["coffee_dispatcher"])
    sc.ships([(5, "coffee", 4), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 1})
    sc.player(1, goods={"coffee": 1})
    sc.player(2, goods={"sugar": 2})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, load(sc, state, 0, "corn"))
    state = sc.act(state, 1, "ship.coffee.0")
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.seats == (2,) and prompt.kind == "ship"
    assert sc.legal(state, 1) == ["ach.coffee_dispatcher"]
    assert sc.legal(state, 3) == []
    before = len(sc.events)
    after = sc.act(state, 1, "ach.coffee_dispatcher")
    assert sc.prompt(after) == prompt
    assert [(e.type, e.seat, dict(e.data), e.private_to) for e in sc.events[before:]] == [
        ("AchievementAnnounced", 1, {"achievement": "coffee_dispatcher"}, None)
    ]
    assert status(after, "coffee_dispatcher") == "announced"
    public = GAME.view(after, None)["achievements"]["players"][1]
    assert public == {"face_down": 3, "to_pick": 0, "announced": ["coffee_dispatcher"]}
    assert "vp" not in json.dumps(GAME.view(after, 2)["achievements"]["players"])
    assert sc.legal(after, 1) == []
    with pytest.raises(IllegalAction) as info:
        sc.act(after, 1, "ach.coffee_dispatcher")
    assert info.value.code == "achievement_already_announced"
    state = sc.act(after, 2, load(sc, after, 2, "sugar"))  # seat 2's turn goes on
    assert sc.invariant_failures(state) == []


def test_X6_3_announce_during_ones_own_decision_and_the_refusals() -> None:
    """X6-3: the prompted seat's legal actions hold his decision's and the announcement; an
    announcement changes no decision.  Refused: a card not met (``achievement_not_met``),
    another's card or one in the deck (``achievement_not_held``); a regular action of a seat
    not prompted is still ``NotYourTurn``; nothing once the game is over."""
    sc = scenario()
    sc.achievements(0, ["deal_closer"], met=["deal_closer"])
    sc.achievements(1, ["trade_tycoon"])
    state = sc.choose("builder", 0)
    codes = sc.legal(state, 0)
    assert codes[-1] == "ach.deal_closer" and "pass" in codes
    prompt = sc.prompt(state)
    state = sc.act(state, 0, "ach.deal_closer")
    assert sc.prompt(state) == prompt and "ach.deal_closer" not in sc.legal(state, 0)
    for seat, code, error in (
        (1, "ach.trade_tycoon", "achievement_not_met"),
        (1, "ach.deal_closer", "achievement_not_held"),
        (2, "ach.big_spender", "achievement_not_held"),
    ):
        with pytest.raises(IllegalAction) as info:
            sc.act(state, seat, code)
        assert info.value.code == error
    with pytest.raises(NotYourTurn):
        sc.act(state, 1, "pass")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 7, GAME.decode_action("ach.deal_closer"))
    over = state.clone()
    over.phase = GAME_OVER
    with pytest.raises(GameOver):
        GAME.apply(over, 0, GAME.decode_action("ach.deal_closer"))
    assert sc.legal(over, 0) == []


def test_X6_3_announce_while_another_decides_an_offer() -> None:
    """X6-3: while seat 0 decides on his Hospital worker (an offer), seat 1 announces; the
    offer still waits for seat 0."""
    sc = scenario()
    sc.achievements(1, ["master_collector"], met=["master_collector"])
    sc.player(0, buildings={"hospital": 1})
    sc.face_up(["tobacco", "corn", "sugar", "fruit", "coffee"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.tobacco")
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.kind == "hospital"
    state = sc.act(state, 1, "ach.master_collector")
    assert sc.prompt(state) == prompt
    state = sc.act(state, 0, "o.hospital")
    assert sc.invariant_failures(state) == []


def test_X6_3_a_prompt_is_forced_only_without_a_card_face_down() -> None:
    """X6-3 and the public prompt: a single legal load is ``forced`` only for a seat holding no
    card face down (everyone sees that), never because no card of his is met (his secret)."""
    sc = scenario()
    sc.ships([(5, "corn", 4), (6, None, 0), (7, None, 0)])
    sc.player(0, goods={"corn": 1})
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((0,), "ship", False)  # 4 cards face down, none met
    every = [c.name for c in CARDS if holder(state, c.name) == 0]
    sc.achievements(0, every, announced=every)
    assert sc.prompt(sc.state) == Prompt((0,), "ship", True)


def test_X6_3_the_heuristic_announces_at_once() -> None:
    """X6-3: the AI seats (the kernel's heuristic) announce a met card as soon as they are
    asked anything."""
    sc = scenario()
    sc.achievements(0, ["deal_closer"], met=["deal_closer"])
    state = sc.choose("builder", 0)
    legal = GAME.legal_actions(state, 0)
    chosen = make_heuristic(1).choose(GAME, state, 0, legal)
    assert GAME.encode_action(chosen) == "ach.deal_closer"


# --- scoring (X6-4, SCR) -----------------------------------------------------------------------


def test_X6_4_completed_cards_score_announced_or_not() -> None:
    """X6-4, §4.2 item 4: the VP of the completed cards join the score (part
    ``achievements``): announced (Deal Closer, 4) and met but not announced (Master Collector,
    7) alike -- the seed counts "todas as respectivas Conquistas concluídas"; the cards not met
    score 0, no penalty.  At the end the public view shows each player's scored cards."""
    sc = scenario()
    sc.achievements(
        0,
        ["deal_closer", "master_collector", "big_spender"],
        met=["master_collector"],
        announced=["deal_closer"],
    )
    parts = score_parts(sc, 0)
    assert parts["achievements"] == 11
    assert score_parts(sc, 1)["achievements"] == 0
    scored = GAME.view(sc.state, None)["achievements"]["players"][0]["scored"]
    assert scored == [
        {"achievement": "deal_closer", "vp": 4},
        {"achievement": "master_collector", "vp": 7},
    ]


def test_X6_4_option_announced_scores_the_announced_cards_only() -> None:
    """X6-4 read the other way (option ``achievement_scoring: announced``): a card met but never
    announced scores nothing."""
    sc = scenario(achievement_scoring="announced")
    sc.achievements(
        0, ["deal_closer", "master_collector"], met=["master_collector"], announced=["deal_closer"]
    )
    assert score_parts(sc, 0)["achievements"] == 4


def test_X6_4_a_whole_game_adds_the_cards_to_the_score() -> None:
    """X6-4: in a finished game (heuristic players) the breakdown's ``achievements`` is the VP
    of each player's met cards, the total their sum; every card met before the last action is
    announced (the heuristic announces at once)."""
    options = GAME.normalize_options({"players": 3, "expansions": [6]})
    policies = [make_policy("heuristic", GAME.name, policy_seed(5, s)) for s in range(3)]
    state = play_game(GAME, options, 5, policies).final
    outcome = GAME.outcome(state)
    assert outcome is not None
    for line in outcome.scores:
        mine = [c for c in range(30) if state.achievement_owner[c] == line.seat]
        completed = [c for c in mine if state.achievement_status[c] in (ACH_MET, ACH_ANNOUNCED)]
        assert line.breakdown["achievements"] == sum(CARDS[c].vp for c in completed)
        assert line.total == sum(line.breakdown.values())
    assert sum(line.breakdown["achievements"] for line in outcome.scores) > 0


# --- the draft (X6-2) ---------------------------------------------------------------------------


def _kept(state: State, seat: int) -> list[int]:
    return [
        c
        for c in range(30)
        if state.achievement_owner[c] == seat and state.achievement_status[c] != ACH_PICK
    ]


def test_X6_2_draft_keep_one_pass_the_rest_to_the_left() -> None:
    """X6-2: four cards dealt to each as a hand to pick from; every player keeps one at once
    (one prompt names every seat still to keep, in any order), then the rest pass to the left
    (the next seat clockwise); the last card passed is kept with no choice; with four kept
    each the game starts (the Governor picks a role)."""
    state = GAME.setup({"players": 3, "expansions": [6], "achievement_deal": "draft"}, 4)
    assert GAME.prompt(state) == Prompt((0, 1, 2), "achievement_draft", False)
    view = GAME.view(state, 1)["achievements"]
    assert view["hand"] == [] and view["to_pick"] is not None and len(view["to_pick"]) == 4
    assert view["players"][0] == {"face_down": 0, "to_pick": 4, "announced": []}
    hands = {
        seat: [c for c in range(30) if state.achievement_owner[c] == seat] for seat in range(3)
    }
    for round_ in range(3):
        for seat in (2, 0, 1):  # any order
            codes = [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]
            assert len(codes) == 4 - round_ and all(c.startswith("ad.") for c in codes)
            state, events = GAME.apply(state, seat, GAME.decode_action(codes[0]))
            assert next((e.type, e.private_to, e.public_data) for e in events) == (
                "AchievementKept",
                seat,
                {},
            )
            assert GAME.invariants(state) == []
            prompt = GAME.prompt(state)
            if seat != 1 and prompt is not None:
                assert seat not in prompt.seats
        assert all(len(_kept(state, seat)) == round_ + 1 for seat in range(3)) or round_ == 2
    assert all(len(_kept(state, seat)) == 4 for seat in range(3))
    assert GAME.prompt(state) == Prompt((0,), "role", False)
    assert ACH_PICK not in state.achievement_status
    # every card dealt to seat 0 ended with him or one of the others
    assert sorted(c for seat in range(3) for c in _kept(state, seat)) == sorted(
        c for cards in hands.values() for c in cards
    )


def test_X6_2_the_cards_pass_to_the_left() -> None:
    """X6-2: after the first keep, seat 1's hand holds exactly the three cards seat 0 did not
    keep (seat 0 passes to his left, seat 1)."""
    state = GAME.setup({"players": 3, "expansions": [6], "achievement_deal": "draft"}, 9)
    first = [c for c in range(30) if state.achievement_owner[c] == 0]
    kept = {}
    for seat in range(3):
        action = GAME.legal_actions(state, seat)[-1]
        kept[seat] = action.a
        state, events = GAME.apply(state, seat, action)
    passed = [e for e in events if e.type == "AchievementsPassed"]
    assert [(e.seat, e.private_to, e.public_data) for e in passed] == [
        (2, 0, {"to": 0, "count": 3}),
        (0, 1, {"to": 1, "count": 3}),
        (1, 2, {"to": 2, "count": 3}),
    ]
    to_pick = [
        c
        for c in range(30)
        if state.achievement_owner[c] == 1 and state.achievement_status[c] == ACH_PICK
    ]
    assert to_pick == sorted(c for c in first if c != kept[0])
    assert GAME.reveals(
        GAME.setup({"players": 3, "expansions": [6], "achievement_deal": "draft"}, 9), state
    )


def test_X6_2_with_expansion_i_the_cards_are_drafted_after_the_buildings() -> None:
    """X6-2 with Expansion I: the buildings are drafted first (the cards wait as hands to pick
    from), then the cards, then the first round."""
    state = GAME.setup({"players": 3, "expansions": [1, 6], "achievement_deal": "draft"}, 2)
    assert state.phase == DRAFT_PHASE
    while state.phase == DRAFT_PHASE:
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "draft"
        seat = prompt.seats[0]
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        assert GAME.invariants(state) == []
    prompt = GAME.prompt(state)
    assert prompt == Prompt((0, 1, 2), "achievement_draft", False)
    while (prompt := GAME.prompt(state)) is not None and prompt.kind == "achievement_draft":
        seat = prompt.seats[0]
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert prompt is not None and prompt.kind == "role"
    assert all(len(_kept(state, seat)) == 4 for seat in range(3))
    assert GAME.invariants(state) == []


# --- hidden information (X6-1: "mantidas ocultas dos outros jogadores") --------------------------


def test_X6_1_a_seat_sees_its_own_cards_only() -> None:
    """X6-1: a seat's view lists its own cards (title, VP, objective, whether met or
    announced); the public view and the other seats' views show how many each holds face down
    and the titles announced, never a card held face down nor the deck's order; a different
    hand of seat 1 changes seat 1's view only."""
    sc = scenario(3)
    sc.achievements(1, ["deal_closer", "trade_tycoon"], met=["deal_closer"])
    state = sc.state
    mine = hand_view(state, 1)
    assert [c["achievement"] for c in mine] == [
        "deal_closer",
        "head_administrator",
        "senior_bureaucrat",
        "trade_tycoon",
    ]
    assert mine[0] == {
        "achievement": "deal_closer",
        "vp": 4,
        "objective": "fill_trading_house",
        "goods": [],
        "count": None,
        "met": True,
        "announced": False,
    }
    public = GAME.view(state, None)["achievements"]
    assert public["hand"] is None and public["to_pick"] is None
    assert public["deck"] == 18
    for viewer in (None, 0, 2):
        text = json.dumps(GAME.view(state, viewer))
        assert "deal_closer" not in text and "trade_tycoon" not in text
    other = state.clone()  # seat 1's Trade Tycoon swapped for a card of the deck
    deck = other.achievement_owner.index(-1)
    tycoon = CARD_INDEX["trade_tycoon"]
    other.achievement_owner[deck], other.achievement_owner[tycoon] = 1, -1
    for viewer in (None, 0, 2):
        assert GAME.view(other, viewer) == GAME.view(state, viewer)
    assert GAME.view(other, 1) != GAME.view(state, 1)


def test_X6_1_determinize_deals_the_hidden_cards_again() -> None:
    """X6-1: what seat 0 cannot see (the others' cards face down, whether met, the deck) is
    resampled by ``determinize``; his view and the public one stay; announced cards stay."""
    sc = scenario(3)
    sc.achievements(
        1, ["deal_closer", "trade_tycoon"], met=["deal_closer"], announced=["trade_tycoon"]
    )
    state = sc.state
    changed = False
    for seed in range(6):
        other = GAME.determinize(state, 0, seed)
        assert GAME.view(other, 0) == GAME.view(state, 0)
        assert GAME.view(other, None) == GAME.view(state, None)
        assert GAME.invariants(other) == []
        assert status(other, "trade_tycoon") == "announced" and holder(other, "trade_tycoon") == 1
        changed |= other.achievement_owner != state.achievement_owner
    assert changed
    assert GAME.determinize(state, 1, 3).achievement_owner[CARD_INDEX["deal_closer"]] == 1


# --- dump, load, names --------------------------------------------------------------------------


def test_X6_dump_and_load_round_trip() -> None:
    """The cards' holders and statuses and the Captain phase's tallies are saved (only with the
    module: other dumps stay as they were) and load back; a dump with a seat holding five
    cards, or a card in no valid place, is refused."""
    sc = scenario()
    sc.achievements(0, ["trade_strategist"])
    state, seat, code = MEETS["trade_strategist"](sc)
    dumped = GAME.dump(state)
    saved = dumped["achievements"]
    assert saved["cards"]["trade_strategist"] == [0, "held"]  # met by ``code``
    assert sum(owner == 0 for owner, _ in saved["cards"].values()) == 4
    assert saved["tally"]["vp"][0] == 5  # his 5 VP this Captain phase
    loaded = GAME.load(json.loads(json.dumps(dumped)))
    assert GAME.dump(loaded) == dumped and GAME.view(loaded, 0) == GAME.view(state, 0)
    assert loaded.achievement_owner == state.achievement_owner
    assert loaded.achievement_status == state.achievement_status
    assert GAME.dump(GAME.apply(loaded, seat, GAME.decode_action(code))[0]) == GAME.dump(
        sc.act(state, seat, code)
    )
    plain = GAME.dump(GAME.setup({"players": 3, "expansions": [4, 5]}, 1))
    assert not any(key.startswith("achievement") for key in plain)
    spare = next(c.name for c in CARDS if c.name not in saved["cards"])
    five = {**saved, "cards": {**saved["cards"], spare: [1, "held"]}}
    with pytest.raises(CorruptState) as info:
        GAME.load({**dumped, "achievements": five})
    assert "achievements:hands" in info.value.details["problems"]
    dealt = {**saved, "cards": {**saved["cards"], spare: [-1, "met"]}}  # met in the deck
    with pytest.raises(CorruptState) as info:
        GAME.load({**dumped, "achievements": dealt})
    assert "achievements:cards" in info.value.details["problems"]
    unknown = {**saved, "cards": {**saved["cards"], spare: [1, "lost"]}}
    with pytest.raises(CorruptState) as info:
        GAME.load({**dumped, "achievements": unknown})
    assert info.value.code == "unknown_name"
    with pytest.raises(CorruptState) as info:
        GAME.load({**dumped, "achievements": {**saved, "tally": {"vp": [0], "loaded": []}}})
    assert info.value.code == "bad_length"


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 2, "achievement_deal": "draft"}])
def test_D_1_a_game_with_expansion_vi_speaks_1897_words_only(options: dict[str, Any]) -> None:
    """§1: a whole game with Expansion VI (random players: they announce and draft at random),
    its codes, events, views and outcome in 1897's words, never a classic one; it ends within
    the bound though an announcement never ends a turn (each card is announced once)."""
    normalized = GAME.normalize_options({**options, "expansions": [6]})
    players = normalized["players"]
    policies = [make_policy("random", GAME.name, policy_seed(0, s)) for s in range(players)]
    result = play_game(GAME, normalized, 0, policies)
    assert result.failures == [] and len(result.actions) < MAX_ACTIONS
    codes = [code for _, code in result.actions]
    assert any(code.startswith("ach.") for code in codes)
    state, events = replay(GAME.name, normalized, 0, result.actions)
    assert any(e.type == "AchievementAnnounced" for e in events)
    outcome = GAME.outcome(state)
    assert outcome is not None
    text = json.dumps(
        [codes, [e.to_json() for e in events], GAME.view(state, 0), outcome.to_json()]
    )
    words = {
        w
        for token in re.findall(r"[A-Za-z_0-9]+", text)
        for w in (token, token.rstrip("0123456789"))
    }
    assert words & RENAMED == set()
    assert GAME.invariants(state) == []


def test_D_1_the_word_table_leaves_expansion_vi_words_as_they_are() -> None:
    """§1: Expansion VI's codes, prompt kind, view keys and values are English 1897 words
    already: 1897's word table (which renames the classic words) leaves them as the kernel has
    them, both ways; only a good's name is 1897's (Fruit)."""
    from engine.puerto_rico_1897 import names

    for card in CARDS:
        for code in (f"ach.{card.name}", f"ad.{card.name}"):
            assert names.code(code) == code == names.classic_code(code)
            assert GAME.encode_action(GAME.decode_action(code)) == code
    state = GAME.setup({"players": 4, "expansions": [6], "achievement_deal": "draft"}, 3)
    kernel = PUERTO_RICO.view(state, 0).get("achievements")  # an edition's part
    assert names.data(kernel) == GAME.view(state, 0)["achievements"]
    text = json.dumps(kernel).replace('"indigo"', '"fruit"')
    assert json.loads(text) == GAME.view(state, 0)["achievements"]
    assert names.data(json.loads(text), reverse=True) == kernel
    assert names.word("achievement_draft") == "achievement_draft"


def test_a_workers_objective_is_met_by_the_placement_within_the_recruiters_arrangement() -> None:
    """D.1 "met at the moment it becomes true", in the Recruiter's arrangement (where only the
    workers' objectives are looked at, ``achievements._positions``): the placement of his 9th
    worker on the field meets Leading Employer at once, and he may announce it while he still
    has workers to place; the placements before it leave it unmet."""
    sc = scenario()
    sc.achievements(0, ["leading_employer"])
    sc.player(0, tiles={"corn": (6, 4), "sugar": (4, 4)}, buildings={"small_market": 0,
                                                                    "hospital": 0})
    state = sc.act(sc.choose("recruiter", 0), 0, "w.advantage")
    assert state.step == STEP_ARRANGE and state.pending[0] and sum(state.players[0].workers) == 0
    for placed in range(1, 10):
        assert status(state, "leading_employer") == "held"
        assert "ach.leading_employer" not in sc.legal(state, 0)
        state = sc.act(state, 0, "w.corn" if placed <= 6 else "w.sugar")
        assert sum(state.players[0].workers) == placed
    assert status(state, "leading_employer") == "met"
    assert state.pending[0] and state.players[0].san_juan == 1  # the arrangement goes on
    assert "ach.leading_employer" in sc.legal(state, 0)


def test_the_position_checks_cache_changes_nothing() -> None:
    """The objectives that are states of a board are checked after every action for the cards
    still open, on every board only when play moved on (``State.achievement_open``,
    ``achievement_mark``, and the announcements in ``anytime_listed``: caches never dumped): a
    game played with the caches emptied before every action (every board checked, every
    announcement listed again, and Expansion V's open cards, ``activity_open``) ends exactly
    the same, cards met at the same moments."""
    options = {"players": 4, "expansions": [1, 2, 3, 4, 5, 6]}
    for seed in (3, 11):
        cached, checked = GAME.setup(options, seed), GAME.setup(options, seed)
        policy = make_policy("random", GAME.name, seed)
        while (prompt := GAME.prompt(cached)) is not None:
            seat = prompt.seats[0]
            action = policy.choose(GAME, cached, seat, GAME.legal_actions(cached, seat))
            checked.achievement_open = ()
            checked.achievement_mark = ()
            checked.anytime_listed = None
            checked.activity_open = None
            cached, _ = GAME.apply(cached, seat, action)
            checked, _ = GAME.apply(checked, seat, action)
            assert cached.achievement_status == checked.achievement_status
        assert GAME.dump(cached) == GAME.dump(checked)


@pytest.mark.parametrize(
    ("players", "puertomas", "rules"),
    [(2, 0, {}), (3, 0, {}), (4, 0, {}), (5, 0, {}), (3, 2, {}), (2, 1, {}), (5, 1, {}),
     # the Recruiter's workers placed one player after another; production for everyone at
     # once (a Puertoma's role picks may set it off before a person's arrangement)
     (4, 0, {"recruiter_placement": "sequential", "production": "automatic"}),
     (4, 1, {"production": "automatic"})],
)
def test_position_checks_see_every_met_objective(
    players: int, puertomas: int, rules: dict[str, str]
) -> None:
    """D.1, "met at the moment it becomes true": after every action, no card held and not met
    has an objective that is a state its holder's board now meets -- whichever seat acted (the
    checks look at every board when play moved on to another phase, step, role pick, round or
    offer, within a step only at the acting seat's, and in the Recruiter's arrangement only
    his workers: this holds them to it, with every expansion, with and without Puertomas);
    and X6-3, each seat may announce exactly his met cards at every moment (listed once for
    every seat while nothing changed)."""
    options = {"players": players, "puertomas": puertomas, "expansions": [1, 2, 3, 4, 5, 6],
               **rules}
    met_during_play = 0
    for seed in range(8):
        state = GAME.setup(options, seed)
        policies = [make_policy("random", GAME.name, policy_seed(seed, s)) for s in range(players)]
        actions = 0
        while (seat := GAME.actor(state)) >= 0:
            action = policies[seat].choose(GAME, state, seat, GAME.legal_fast(state, seat))
            GAME.apply_fast(state, seat, action)
            actions += 1
            assert actions < MAX_ACTIONS
            owner, status = state.achievement_owner, state.achievement_status
            for card, test, data in STATE_CHECKS:
                if owner[card] >= 0 and status[card] == ACH_HELD:
                    assert not test(state, owner[card], data), (seed, actions, data.name)
            # X6-3: each seat may announce exactly his met cards (listed with the open cards)
            for other in range(players):
                assert anytime_actions(state, other) == [
                    ANNOUNCE_ACTIONS[c] for c in range(len(CARDS))
                    if owner[c] == other and status[c] == ACH_MET
                ], (seed, actions)
        met_during_play += sum(1 for s in state.achievement_status if s != ACH_HELD)
    assert met_during_play > 0
