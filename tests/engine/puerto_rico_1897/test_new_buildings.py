"""1897's Expansion I, the New Buildings (§7.1: X1-1...X1-4, A-36, §9.3's pairs, and the
buildings where 1897 differs: B-33 Press Center, B-34 Distillery, B-11 with the Lumber Mill):
the draft on 1897's tray and positions set up through the kernel."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction, InvalidSetup, Prompt
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import RED_SPACES, SUGAR, VIOLET_SPACES
from engine.puerto_rico.new_buildings import draft_candidates
from engine.puerto_rico.phases import setup
from engine.puerto_rico.ruleset import state_ruleset
from engine.puerto_rico.state import State
from engine.puerto_rico_1897.game import PUERTO_RICO_1897
from engine.puerto_rico_1897.names import REVERSE, word
from tests.engine.puerto_rico_1897.scenario import Scenario1897, score_parts, view

GAME_NAME = PUERTO_RICO_1897.name


def kernel_setup(players: int, modules: list[str], **options: Any) -> State:
    """An 1897 game with kernel modules (Expansion I is not offered by the option yet)."""
    return setup({"players": players, "edition": "1897", "modules": modules, **options}, 3,
                 GAME_NAME)


def test_X1_4_and_A_36_no_red_spaces_on_1897s_tray() -> None:
    """X1-4, A-36: the tray's commercial spaces are the base layout's (1, 2, 2, 3, 4, 5, 5, 6,
    7, 8, 8, 9 and 10 x 5), with Expansion II too: no extra (red) spaces."""
    state = kernel_setup(4, ["new_buildings", "nobles"])
    assert {cost: n for cost, n in enumerate(state.draft_left) if n} == VIOLET_SPACES
    classic = setup({"players": 4, "modules": ["new_buildings", "nobles"]}, 3)
    assert sum(classic.draft_left) == sum(VIOLET_SPACES.values()) + sum(RED_SPACES.values())


def test_X2_1_the_large_tailor_shop_is_drafted_onto_an_8_space() -> None:
    """X1-2, X2-1: the Large Tailor Shop (a production building) is drafted like a common
    commercial building, on an 8-space; without the draft nobody drafts it."""
    state = kernel_setup(4, ["new_buildings", "nobles"])
    tailor = BUILDING_INDEX["jeweler"]
    assert tailor in draft_candidates(state, 8)
    assert state.market[tailor] == 0  # not on the tray before it is drafted
    assert all(CATALOG[b].production for b in state.rs.setup_buildings)
    assert tailor not in state.rs.setup_buildings


def test_X1_3_candidates_by_printed_cost() -> None:
    """X1-3, §7.1's candidates per cost (base + I + II), e.g. cost 6: Large Warehouse, Small
    Wharf, Rescue Post; cost 8: School, Harbor, Press Center, Distillery, Large Tailor Shop."""
    state = kernel_setup(3, ["new_buildings", "nobles"])
    names = {cost: sorted(CATALOG[b].name for b in draft_candidates(state, cost))
             for cost in (6, 8)}
    assert names[6] == ["large_warehouse", "royal_supplier", "small_wharf"]
    assert names[8] == ["harbor", "jeweler", "library", "specialty_factory", "university"]


def test_pair_country_house_tailor() -> None:
    """§9.3 ``pair_country_house_tailor``: once the Country House is on the tray the Large
    Tailor Shop may not be, and vice versa."""
    state = kernel_setup(3, ["new_buildings", "nobles"], exclusive_villa_jeweler=True)
    state.drafted.append(BUILDING_INDEX["villa"])
    assert BUILDING_INDEX["jeweler"] not in draft_candidates(state, 8)


def test_cost_swap_moves_school_and_factory_to_the_other_space() -> None:
    """§9.3 ``cost_swap`` in the draft: the School is a 7-space candidate, the Factory an
    8-space one."""
    state = kernel_setup(3, ["new_buildings"], cost_swap=True)
    assert BUILDING_INDEX["university"] in draft_candidates(state, 7)
    assert BUILDING_INDEX["factory"] in draft_candidates(state, 8)


def test_X1_3_the_draft_is_played_from_the_starting_player() -> None:
    """X1-3: with Expansion I the game opens with the draft, the starting player first."""
    state = PUERTO_RICO_1897.setup({"players": 3, "expansions": [1]}, 2)
    prompt = PUERTO_RICO_1897.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("draft", (0,))
    codes = [PUERTO_RICO_1897.encode_action(a) for a in PUERTO_RICO_1897.legal_actions(state, 0)]
    assert "d.press_center" in codes and "d.library" not in codes


def test_pair_country_house_tailor_needs_the_draft_of_I_and_II() -> None:
    with pytest.raises(InvalidSetup) as info:
        PUERTO_RICO_1897.normalize_options(
            {"players": 3, "expansions": [1], "pair_country_house_tailor": True}
        )
    assert info.value.code == "pair_without_draft"


def board(players: int, names: list[str], **options: Any) -> Scenario1897:
    """A scenario of an 1897 game with Expansion I (through the kernel) whose tray holds the
    named buildings (the rest of the random selection left as drawn)."""
    sc = Scenario1897(players)
    state = kernel_setup(players, ["new_buildings"], building_selection="random", **options)
    for name in names:
        b = BUILDING_INDEX[word(name, REVERSE)]
        if b not in state.drafted:
            state.drafted.append(b)
            state.market[b] = state.rs.copies[b]
    state.rs = state_ruleset(state.options, state.draft_left, state.drafted)
    sc.state = state
    sc.boxed["buildings"] = -sum(1 for n in names)  # added to the tray by hand
    return sc


def test_T_X1_8_the_distillery_counts_the_advantage_crate() -> None:
    """T-X1-8, B-34, §6.3: the Craftsman produces 4 Sugar (his mills' 4 spaces; the example's 5
    needs a Canal), 6 Corn, 1 Coffee and takes a Sugar advantage crate: the most non-Corn
    crates is 5, so +4 coins, paid after the crate (classic: +3 at his production)."""
    sc = board(3, ["distillery"])
    sc.player(0, doubloons=0, tiles={"sugar": (4, 4), "corn": (6, 6), "coffee": (1, 1)},
              buildings={"distillery": 1, "large_sugar_mill": 3, "small_sugar_mill": 1,
                         "large_coffee_roaster": 1})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    for _ in (1, 2):
        prompt = sc.prompt(state)
        if prompt is not None and prompt.kind == "produce":
            state = sc.act(state, prompt.seats[0], "produce")
    assert state.players[0].doubloons == 0  # nothing paid before the advantage
    state = sc.act(state, 0, "c.sugar")
    assert state.players[0].doubloons == 4
    assert sc.invariant_failures(state) == []


def test_T_X1_8_the_distillery_counts_the_canals_crate_for_the_craftsman() -> None:
    """T-X1-8 with the example's 5th Sugar from the Canal (B-24, B-34): the Craftsman's occupied
    Large and Small Sugar Mills work 4 of his 5 Sugar properties, the Canal adds 1, the Sugar
    advantage crate makes 6: the Distillery pays 5 coins, after the crate."""
    sc = board(3, ["distillery", "canal"])
    sc.player(0, doubloons=0, tiles={"sugar": (5, 5)},
              buildings={"distillery": 1, "canal": 1, "large_sugar_mill": 3,
                         "small_sugar_mill": 1})
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    for _ in (1, 2):
        prompt = sc.prompt(state)
        if prompt is not None and prompt.kind == "produce":
            state = sc.act(state, prompt.seats[0], "produce")
    assert state.players[0].goods[SUGAR] == 5  # 4 from the mills, 1 from the Canal
    assert state.players[0].doubloons == 0
    state = sc.act(state, 0, "c.sugar")
    assert state.players[0].goods[SUGAR] == 6
    assert state.players[0].doubloons == 5
    assert sc.invariant_failures(state) == []


def test_B_34_the_distillery_counts_the_canals_crate_for_another_player() -> None:
    """B-24, B-34: for a player who is not the Craftsman, the Canal's crate is produced this
    phase too: 4 Sugar from the mills and 1 from the Canal pay 4 coins at his production."""
    sc = board(3, ["distillery", "canal"])
    sc.player(1, doubloons=0, tiles={"sugar": (5, 5)},
              buildings={"distillery": 1, "canal": 1, "large_sugar_mill": 3,
                         "small_sugar_mill": 1})
    state = sc.choose("craftsman", 0)
    for _ in (0, 1, 2):
        prompt = sc.prompt(state)
        if prompt is not None and prompt.kind == "produce":
            state = sc.act(state, prompt.seats[0], "produce")
    assert state.players[1].goods[SUGAR] == 5
    assert state.players[1].doubloons == 4
    assert sc.invariant_failures(state) == []


def test_B_33_press_center_second_quarry_with_builders_yard() -> None:
    """PLN-3, B-33: the Planter with an occupied Press Center and Builder's Yard may take a
    quarry first (advantage) and a second one after the others picked (the exception to one
    quarry a phase); with Hospital still one worker for both tiles."""
    sc = board(3, ["press_center", "builders_yard", "hospital"])
    sc.player(0, buildings={"press_center": 1, "builders_yard": 1, "hospital": 1})
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.quarry")
    state = sc.act(state, 0, "o.hospital")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.seats == (0,) and "p.quarry" in sc.legal(state, 0)
    state = sc.act(state, 0, "p.quarry")
    prompt = sc.prompt(state)
    assert prompt is None or prompt.kind != "hospital"
    assert state.players[0].tiles[5] == 2
    assert sc.invariant_failures(state) == []


# --- helpers of the tests below -------------------------------------------------------------

GAME = PUERTO_RICO_1897


def codes(sc: Scenario1897, state: State, seat: int, prefix: str) -> set[str]:
    """``seat``'s legal codes starting with ``prefix``."""
    return {c for c in sc.legal(state, seat) if c.startswith(prefix)}


def price(sc: Scenario1897, state: State, seat: int, name: str) -> int:
    """What ``seat`` would pay for ``name`` now (his own view of the tray)."""
    [entry] = [m for m in view(sc, state, seat)["market"] if m["building"] == name]
    return int(entry["price"])


def amounts(sc: Scenario1897, event: str, reason: str, seat: int) -> list[int]:
    """The amounts of ``seat``'s ``event`` events (VpEarned, CoinsEarned) for ``reason``."""
    return [
        int(e.data["amount"])
        for e in sc.events_of(event)
        if e.seat == seat and e.data["reason"] == reason
    ]




def draft_codes(state: State, seat: int) -> list[str]:
    return [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]


BASE_COMMERCIAL = {
    "small_market", "hacienda", "builders_yard", "small_warehouse", "hospital", "office",
    "large_market", "large_warehouse", "factory", "school", "harbor", "wharf", "fire_station",
    "residence", "fortress", "customs_house", "city_hall",
}  # fmt: skip
EXPANSION_I = {
    "canal", "hidden_market", "lumber_mill", "depot", "shack", "merchants_post", "church",
    "small_wharf", "lighthouse", "press_center", "distillery", "assembly_hall", "cathedral",
    "monument",
}  # fmt: skip
EXPANSION_II = {
    "zoning_office", "chapel", "park_administration", "notary", "rescue_post", "country_house",
    "large_tailor_shop", "town_square",
}  # fmt: skip
PRODUCTION = {
    "small_fruit_depot": 4, "small_sugar_mill": 4, "large_fruit_depot": 3,
    "large_sugar_mill": 3, "large_tobacco_storage": 3, "large_coffee_roaster": 3,
}  # fmt: skip
TRAY = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}  # X1-4, A-36


# --- the draft (X1-1, X1-2, X1-3, X1-4, T-X1-1) -----------------------------------------------


def test_X1_1_X1_2_the_tray_holds_production_only_and_the_pool_is_base_and_I() -> None:
    """X1-1: before the draft the tray holds the six production buildings only (their
    4/4/3/3/3/3 copies), no commercial building; X1-2: the pool is every commercial
    type of the base game and of Expansion I (17 + 14), and with Expansion II its 8 types too
    (the Large Tailor Shop among them)."""
    state = GAME.setup({"players": 3, "expansions": [1]}, 2)
    market = {m["building"]: m["left"] for m in GAME.view(state, None)["market"]}
    assert market == PRODUCTION
    part = GAME.view(state, None)["draft"]
    assert part is not None and part["spaces_left"] == {str(c): n for c, n in TRAY.items()}
    assert {c[2:] for c in draft_codes(state, 0)} == BASE_COMMERCIAL | EXPANSION_I
    both = GAME.setup({"players": 3, "expansions": [1, 2]}, 2)
    pool = {c[2:] for c in draft_codes(both, 0)}
    assert pool == BASE_COMMERCIAL | EXPANSION_I | EXPANSION_II


@pytest.mark.parametrize(("players", "common"), [(3, 2), (2, 1)])
def test_X1_3_X1_4_the_draft_fills_every_commercial_space_then_ends(
    players: int, common: int
) -> None:
    """X1-3: from the starting player clockwise each player puts one type on an empty space of
    its printed cost, a common type with both copies (2 players: one copy), an expanded one
    with its one; X1-4, A-36: it goes on until the 17 commercial spaces (1, 2, 2, 3, 4, 5, 5,
    6, 7, 8, 8, 9, 10 x 5) are filled, then the game's first role pick; the rest is boxed."""
    state = GAME.setup({"players": players, "expansions": [1]}, 2)
    seats = []
    while (prompt := GAME.prompt(state)) is not None and prompt.kind == "draft":
        seat = prompt.seats[0]
        seats.append(seat)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    assert seats == [i % players for i in range(17)]
    assert GAME.prompt(state) == Prompt((0,), "role", False)
    shown = GAME.view(state, None)
    part = shown["draft"]
    assert part is not None and part["spaces_left"] == {}
    drafted = part["drafted"]
    assert len(drafted) == len(set(drafted)) == 17
    market = {m["building"]: m for m in shown["market"]}
    assert set(market) == set(PRODUCTION) | set(drafted)  # nothing else on the tray
    by_cost: dict[int, int] = {}
    for name in drafted:
        entry = market[name]
        by_cost[entry["cost"]] = by_cost.get(entry["cost"], 0) + 1
        assert entry["left"] == (1 if entry["kind"] == "expanded_commercial" else common)
    assert by_cost == TRAY


def test_T_X1_1_X1_3_no_empty_6_space_for_the_small_wharf() -> None:
    """T-X1-1, X1-3, X1-4: the Large Warehouse drafted onto the only 6-space, the next player
    may not draft the Small Wharf (cost 6): not offered, refused; other costs still are."""
    state = GAME.setup({"players": 3, "expansions": [1]}, 2)
    assert "d.small_wharf" in draft_codes(state, 0)
    state, _ = GAME.apply(state, 0, GAME.decode_action("d.large_warehouse"))
    assert GAME.prompt(state) == Prompt((1,), "draft", False)
    offered = draft_codes(state, 1)
    assert "d.small_wharf" not in offered and "d.large_warehouse" not in offered
    assert {"d.lighthouse", "d.depot", "d.monument"} <= set(offered)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, GAME.decode_action("d.small_wharf"))
    part = GAME.view(state, None)["draft"]
    assert part is not None and "6" not in part["spaces_left"]


# --- B-26 Lumber Mill (T-X1-2), B-11 with the Lumber Mill ----------------------------------


def test_T_X1_2_B_26_lumber_mill_example_pays_1() -> None:
    """T-X1-2, B-26, A-4: occupied Lumber Mill, 4 forests, 2 occupied quarries, the Builder buys the
    Large Warehouse (6): 6 - 1 (advantage) - 2 (quarries) - 2 (4 forests / 2) = 1."""
    sc = board(3, ["lumber_mill", "large_warehouse"])
    sc.player(
        0,
        doubloons=1,
        tiles={"quarry": (2, 2)},
        forests={"corn": 2, "sugar": 2},
        buildings={"lumber_mill": 1},
    )
    state = sc.choose("builder", 0)
    assert price(sc, state, 0, "large_warehouse") == 1
    state = sc.act(state, 0, "b.large_warehouse")
    assert state.players[0].doubloons == 0
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "large_warehouse", "price": 1}
    assert sc.invariant_failures(state) == []


def test_B_26_lumber_mill_discount_is_not_capped_and_needs_the_mill_occupied() -> None:
    """B-26: -1 per 2 forests, not limited by the quarry cap (8 forests: the level-2 Hospital
    (4) costs 4 - 4 = 0 for a non-Builder); an unoccupied Lumber Mill gives nothing (4)."""
    sc = board(3, ["lumber_mill", "hospital"])
    sc.player(1, doubloons=4, forests={"corn": 8}, buildings={"lumber_mill": 1})
    sc.player(2, doubloons=4, forests={"corn": 2}, buildings={"lumber_mill": 0})
    state = sc.choose("builder", 0)
    assert price(sc, state, 1, "hospital") == 0
    assert price(sc, state, 2, "hospital") == 4
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.hospital")
    assert state.players[1].doubloons == 4
    assert sc.invariant_failures(state) == []


def test_B_26_lumber_mill_takes_a_face_up_property_as_a_forest() -> None:
    """B-26: in the Planter phase the owner may lay a face-up property face down as a forest
    (``f.<good>``); the forest fills a field space, holds no worker; a player without an
    occupied Lumber Mill is not offered it."""
    sc = board(3, ["lumber_mill"])
    sc.player(0, tiles={"corn": 1}, buildings={"lumber_mill": 1})
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    state = sc.choose("planter", 0)
    assert codes(sc, state, 0, "f.") == {"f.corn", "f.fruit", "f.sugar", "f.coffee"}
    state = sc.act(state, 0, "f.coffee")
    shown = view(sc, state)["players"][0]
    assert shown["field"] == [
        {"tile": "corn", "occupied": False},
        {"tile": "forest", "occupied": False},
    ]
    assert shown["field_used"] == 2
    assert GAME.prompt(state) == Prompt((1,), "plant", False)
    assert codes(sc, state, 1, "f.") == set()
    assert sc.invariant_failures(state) == []


def _hacienda_forest(players: int = 3) -> tuple[Scenario1897, State]:
    """Seat 0, the Planter, with an occupied Hacienda, Lumber Mill and Hospital, has drawn a
    Tobacco with the Hacienda and laid it as a forest."""
    sc = board(players, ["hacienda", "lumber_mill", "hospital"])
    sc.player(0, buildings={"hacienda": 1, "lumber_mill": 1, "hospital": 1})
    sc.stacks({"tobacco": 4})
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.hacienda")
    assert GAME.prompt(state) == Prompt((0,), "forest", False)
    assert sc.legal(state, 0) == ["o.forest", "pass"]
    state = sc.act(state, 0, "o.forest")
    assert GAME.prompt(state) == Prompt((0,), "plant", False)  # no worker for the forest yet
    return sc, state


def test_B_11_B_26_hacienda_forest_the_hospital_worker_goes_on_the_picked_property() -> None:
    """B-11, B-26, B-8: the Hacienda's tile made a forest, the Hospital's one worker is offered
    for the pick, a property (Corn), and put on it; nothing goes to the portrait."""
    sc, state = _hacienda_forest()
    state = sc.act(state, 0, "p.corn")
    assert GAME.prompt(state) == Prompt((0,), "hospital", False)
    state = sc.act(state, 0, "o.hospital")
    p = view(sc, state)["players"][0]
    assert {"tile": "corn", "occupied": True} in p["field"]
    assert {"tile": "forest", "occupied": False} in p["field"]
    assert p["portrait"] == 0
    assert [e.data for e in sc.events_of("WorkerGained")] == [
        {"target": "corn", "source": "supply", "by": "hospital"}
    ]
    assert GAME.prompt(state) == Prompt((1,), "plant", False)
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("pick", ["pass", "f.corn"])
def test_B_11_B_26_hacienda_forest_and_no_property_the_worker_goes_to_the_portrait(
    pick: str,
) -> None:
    """B-11, B-26: the Hacienda's tile made a forest and the player passes the pick (or takes
    another forest): his only new tiles are forests, so the Hospital's worker is offered for
    the portrait, once."""
    sc, state = _hacienda_forest()
    state = sc.act(state, 0, pick)
    assert GAME.prompt(state) == Prompt((0,), "hospital", False)
    state = sc.act(state, 0, "o.hospital")
    assert view(sc, state)["players"][0]["portrait"] == 1
    assert [e.data for e in sc.events_of("WorkerGained")] == [
        {"target": "portrait", "source": "supply", "by": "hospital"}
    ]
    assert GAME.prompt(state) == Prompt((1,), "plant", False)
    assert sc.invariant_failures(state) == []


def test_B_11_B_26_a_property_gained_the_worker_never_goes_to_the_portrait() -> None:
    """B-11 (Lumber Mill note: "if a non-forest tile was also gained it must go there"): the
    Hacienda's Tobacco kept as a property, its Hospital worker declined, the pick a forest:
    no worker is offered for the portrait."""
    sc = board(3, ["hacienda", "lumber_mill", "hospital"])
    sc.player(0, buildings={"hacienda": 1, "lumber_mill": 1, "hospital": 1})
    sc.stacks({"tobacco": 4})
    sc.face_up(["corn", "fruit", "sugar", "coffee"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.hacienda")
    state = sc.act(state, 0, "pass")  # the Tobacco stays a property
    assert GAME.prompt(state) == Prompt((0,), "hospital", False)
    state = sc.act(state, 0, "pass")  # no worker on it
    state = sc.act(state, 0, "f.corn")
    assert GAME.prompt(state) == Prompt((1,), "plant", False)
    assert view(sc, state)["players"][0]["portrait"] == 0
    assert sc.invariant_failures(state) == []


# --- B-25 Hidden Market (T-X1-3) -------------------------------------------------------------


def _hidden_market(coins: int) -> tuple[Scenario1897, State]:
    """Seat 1 (not the Builder: the Factory's price is 7) has an occupied Hidden Market,
    ``coins``, 1 Sugar, 1 VP token and 1 worker on a Corn property; the Builder passed."""
    sc = board(3, ["hidden_market", "factory"])
    sc.player(0, doubloons=0)
    sc.player(
        1,
        doubloons=coins,
        vp=1,
        goods={"sugar": 1},
        tiles={"corn": (1, 1)},
        buildings={"hidden_market": 1},
    )
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    assert price(sc, state, 1, "factory") == 7
    return sc, state


@pytest.mark.parametrize(
    ("code", "left"),
    [
        ("hm.factory.g.sugar.vp", (0, 0, 1)),
        ("hm.factory.c.corn.vp", (1, 0, 0)),
        ("hm.factory.c.corn.g.sugar", (0, 1, 0)),
    ],
)
def test_T_X1_3_B_25_hidden_market_two_items_and_all_5_coins(
    code: str, left: tuple[int, int, int]
) -> None:
    """T-X1-3, B-25: price 7, 5 coins: he returns two of crate, VP token, property worker (one
    of each at most) and pays all 5 coins; never the Hidden Market's own worker; 0 coins
    after.  ``left``: (Sugar, VP, Corn worker) afterwards."""
    sc, state = _hidden_market(5)
    offered = codes(sc, state, 1, "hm.factory")
    assert offered == {"hm.factory.g.sugar.vp", "hm.factory.c.corn.vp", "hm.factory.c.corn.g.sugar"}
    assert not any(".c.hidden_market" in c for c in codes(sc, state, 1, "hm."))
    supply = state.colonist_supply
    state = sc.act(state, 1, code)
    p = state.players[1]
    assert p.doubloons == 0
    assert (p.goods[2], p.vp, p.workers[0]) == left
    assert state.colonist_supply == supply + 1 - left[2]
    assert sc.events_of("BuildingBuilt")[-1].data == {"building": "factory", "price": 5}
    assert p.bw[BUILDING_INDEX["factory"]] == 0 and p.bw[BUILDING_INDEX["black_market"]] == 1
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("coins", "offered"),
    [(7, set()), (9, set()), (6, {"hm.factory.g.sugar", "hm.factory.vp", "hm.factory.c.corn"}),
     (4, {"hm.factory.c.corn.g.sugar.vp"}), (3, set())],
)  # fmt: skip
def test_T_X1_3_B_25_hidden_market_only_when_short_and_at_most_3_off(
    coins: int, offered: set[str]
) -> None:
    """T-X1-3, B-25: with 7 coins (or more) he can afford the Factory: the Hidden Market is
    not usable (he builds it normally); short by n he returns exactly n items, at most 3 (4
    coins: all three; 3 coins: no way)."""
    sc, state = _hidden_market(coins)
    assert codes(sc, state, 1, "hm.factory") == offered
    assert ("b.factory" in sc.legal(state, 1)) is (coins >= 7)


# --- B-30 Church (T-X1-4), B-37 Monument --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "vp"), [("harbor", 1), ("small_market", 0), ("fortress", 2), ("monument", 2)]
)
def test_T_X1_4_B_30_B_37_church_vp_by_building(name: str, vp: int) -> None:
    """T-X1-4, B-30, B-37: the occupied Church's owner builds the Harbor (3 VP): +1; the Small
    Market (1 VP): 0; the Fortress (expanded): +2; the Monument (expanded, 8 VP): +2 — VP
    tokens from the supply."""
    sc = board(3, ["church", "harbor", "small_market", "fortress", "monument"])
    sc.player(0, doubloons=20, vp=0, buildings={"church": 1})
    state = sc.choose("builder", 0)
    supply = state.vp_supply
    state = sc.act(state, 0, f"b.{name}")
    assert amounts(sc, "VpEarned", "church", 0) == ([vp] if vp else [])
    assert (state.players[0].vp, state.vp_supply) == (vp, supply - vp)
    assert sc.invariant_failures(state) == []


def test_B_30_church_nothing_for_itself() -> None:
    """B-30: building the Church itself gives nothing."""
    sc = board(3, ["church"])
    sc.player(0, doubloons=20, vp=0)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.church")
    assert state.players[0].vp == 0 and amounts(sc, "VpEarned", "church", 0) == []
    assert sc.invariant_failures(state) == []


def test_B_37_A_25_monument_8_vp_no_worker_space_city_hall_counts_it() -> None:
    """B-37, A-25: the Monument scores 8 VP unoccupied (no bonus), has 0 worker spaces (the
    Recruiter's 2 workers go to the Corn and the portrait, none on it), takes 2 city spaces,
    and the City Hall counts it (City Hall + Monument: +2)."""
    sc = board(3, ["monument", "city_hall"])
    sc.player(0, tiles={"corn": 1}, buildings={"monument": 0, "city_hall": 1})
    entry = next(b for b in view(sc, sc.state)["players"][0]["city"] if b["building"] == "monument")
    assert (entry["circles"], entry["size"], entry["vp"]) == (0, 2, 8)
    assert score_parts(sc, 0) == {"tokens": 0, "buildings": 8 + 4, "city_hall": 2}
    sc = board(3, ["monument"])
    sc.player(0, tiles={"corn": 1}, buildings=["monument"])
    sc.set_colonists(ship=3)
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "w.advantage")
    state = sc.finish_phase(state)
    p = view(sc, state)["players"][0]
    assert p["workers"] == 2 and p["portrait"] == 1
    assert p["field"] == [{"tile": "corn", "occupied": True}]
    assert state.players[0].bw[BUILDING_INDEX["statue"]] == 0
    assert sc.invariant_failures(state) == []


# --- B-27 Depot (T-X1-5) -----------------------------------------------------------------------


def test_T_X1_5_B_27_B_10_depot_and_small_warehouse_keep_9_of_10() -> None:
    """T-X1-5, B-27, B-10: Depot + Small Warehouse, after loading (every ship full) he holds 5
    Corn, 2 Sugar, 2 Coffee, 1 Fruit: all the Corn + 3 any + 1 more = 9 of the 10 kept."""
    sc = board(3, ["depot", "small_warehouse"])
    sc.player(
        1,
        goods={"corn": 5, "sugar": 2, "coffee": 2, "fruit": 1},
        buildings={"depot": 1, "small_warehouse": 1},
    )
    sc.ships([(4, "coffee", 4), (5, "sugar", 5), (6, "tobacco", 6)])
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "keep", False)
    legal = sc.legal(state, 1)
    assert "keep.corn5.sugar2.coffee2" in legal
    assert max(sum(a.keep) for a in GAME.legal_actions(state, 1)) == 9
    state = sc.act(state, 1, "keep.corn5.sugar2.coffee2")
    assert sum(state.players[1].goods) == 9
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": {"fruit": 1}}
    assert sc.invariant_failures(state) == []


# --- B-31 Small Wharf (T-X1-6, A-23), B-32 Lighthouse (T-X1-7) --------------------------------


def _small_wharf_owner(**others: Any) -> tuple[Scenario1897, State]:
    """Seat 1 with an occupied Small Wharf, Harbor and Lighthouse, 0 coins, 3 Corn and 2 Fruit;
    the Captain is seat 0 (no crates); ``others``: seat 2's crates."""
    sc = board(3, ["small_wharf", "harbor", "lighthouse"])
    sc.player(
        1,
        doubloons=0,
        vp=0,
        goods={"corn": 3, "fruit": 2},
        buildings={"small_wharf": 1, "harbor": 1, "lighthouse": 1},
    )
    sc.player(2, goods=others)
    return sc, sc.choose("captain", 0)


def test_T_X1_6_B_31_B_17_B_32_small_wharf_with_harbor_and_lighthouse() -> None:
    """T-X1-6, B-31, B-17, B-32: one Small Wharf load of 3 Corn + 2 Fruit (any mix, even kinds
    a cargo ship could take): 5 // 2 = 2 VP + 1 Harbor VP + 1 Lighthouse coin."""
    sc, state = _small_wharf_owner()
    assert "sw.corn3.fruit2" in sc.legal(state, 1)
    state = sc.act(state, 1, "sw.corn3.fruit2")
    p = state.players[1]
    assert (p.vp, p.doubloons, sum(p.goods)) == (3, 1, 0)
    assert amounts(sc, "VpEarned", "shipping", 1) == [2]
    assert amounts(sc, "VpEarned", "harbor", 1) == [1]
    assert amounts(sc, "CoinsEarned", "lighthouse", 1) == [1]
    shipped = sc.events_of("GoodsShipped")[-1].data
    assert shipped == {"goods": {"corn": 3, "fruit": 2}, "count": 5, "ship": "small_wharf"}
    assert sc.invariant_failures(state) == []


def test_T_X1_6_B_31_small_wharf_crates_leave_at_the_phase_end() -> None:
    """T-X1-6, B-31 ("crates return to the supply at the end of the Captain phase", as the
    Wharf's do): while seat 2 still loads, the 3 Corn + 2 Fruit are on the private ship, not
    in the supply; when the phase ends they are back."""
    sc, state = _small_wharf_owner(sugar=2)
    corn, fruit = state.goods[0], state.goods[1]
    state = sc.act(state, 1, "sw.corn3.fruit2")
    assert GAME.prompt(state) == Prompt((2,), "ship", False)  # the phase goes on
    assert (state.goods[0], state.goods[1]) == (corn, fruit)
    private = view(sc, state).get("private_ships", {})
    assert (private.get("corn"), private.get("fruit")) == (3, 2)
    state = sc.finish_phase(state)
    assert (state.goods[0], state.goods[1]) == (corn + 3, fruit + 2)
    assert sc.invariant_failures(state) == []


def test_A_23_B_31_small_wharf_odd_count_rounds_down_and_is_the_turns_load() -> None:
    """A-23, B-31: 3 Corn on the Small Wharf: 3 // 2 = 1 VP; the use is that turn's load (it
    replaces the cargo load); once a phase: his next turn loads his Sugar on a cargo ship
    (compulsory: no pass, no Small Wharf)."""
    sc = board(3, ["small_wharf"])
    sc.player(1, vp=0, goods={"corn": 3, "sugar": 2}, buildings={"small_wharf": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "sw.corn3")
    assert state.players[1].vp == 1 and amounts(sc, "VpEarned", "shipping", 1) == [1]
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    legal = sc.legal(state, 1)
    assert legal and all(c.startswith("ship.sugar.") for c in legal)
    assert sc.invariant_failures(state) == []


def test_A_23_B_31_loading_0_crates_is_no_use_of_the_small_wharf() -> None:
    """A-23 ("loading 0 crates does not count as a use"): a 0-crate Small Wharf load, if
    offered at all, leaves the Small Wharf for a later turn of the phase."""
    sc = board(3, ["small_wharf"])
    sc.player(1, vp=0, goods={"corn": 2, "sugar": 1}, buildings={"small_wharf": 1})
    state = sc.choose("captain", 0)
    assert codes(sc, state, 1, "sw.") - {"sw.none"}
    if "sw.none" in sc.legal(state, 1):
        state = sc.act(state, 1, "sw.none")
        assert GAME.prompt(state) == Prompt((1,), "ship", False)
        assert codes(sc, state, 1, "sw.") - {"sw.none"}
    assert sc.invariant_failures(state) == []


def test_T_X1_7_B_32_lighthouse_captain_loads_twice() -> None:
    """T-X1-7, B-32: the Lighthouse's owner is the Captain: +1 coin at the start of the phase,
    +1 for each of his two loads: 3 coins."""
    sc = board(3, ["lighthouse"])
    sc.player(0, doubloons=0, goods={"corn": 2, "sugar": 1}, buildings={"lighthouse": 1})
    state = sc.choose("captain", 0)
    assert state.players[0].doubloons == 1  # before loading
    state = sc.act(state, 0, "ship.corn.0")
    state = sc.act(state, 0, "ship.sugar.1")
    assert state.players[0].doubloons == 3
    assert amounts(sc, "CoinsEarned", "lighthouse", 0) == [1, 1, 1]
    assert sc.invariant_failures(state) == []


# --- B-33 Press Center (T-X1-9, A-26) ----------------------------------------------------------


def _press_center(role: str, players: int = 3, **owner: Any) -> tuple[Scenario1897, State]:
    sc = board(players, ["press_center", "office"])
    sc.player(0, buildings={"press_center": 1}, **owner)
    return sc, sc.choose(role, 0)


def test_T_X1_9_B_33_A_26_press_center_trader_sells_tobacco_for_5() -> None:
    """T-X1-9, B-33, A-26: the Press Center's owner chooses the Trader and sells Tobacco:
    3 + 2 (the doubled advantage) = 5 coins."""
    sc, state = _press_center("trader", doubloons=0, goods={"tobacco": 1})
    state = sc.act(state, 0, "t.tobacco")
    assert state.players[0].doubloons == 5
    assert sc.events_of("GoodSold")[-1].data["price"] == 5
    assert sc.invariant_failures(state) == []


def test_A_26_B_33_press_center_recruiter_takes_2_supply_workers() -> None:
    """A-26, B-33: the Recruiter's advantage doubled: 2 workers from the supply."""
    sc, state = _press_center("recruiter")
    state = sc.act(state, 0, "w.advantage")
    gained = [e.data for e in sc.events_of("WorkerGained") if e.data["by"] == "recruiter"]
    assert gained == [{"target": "portrait", "source": "supply", "by": "recruiter", "count": 2}]
    assert sc.invariant_failures(state) == []


def test_A_26_B_33_press_center_builder_pays_2_less() -> None:
    """A-26, B-33: the Builder's advantage doubled: the Office (5) for 3."""
    sc, state = _press_center("builder", doubloons=3)
    assert price(sc, state, 0, "office") == 3
    state = sc.act(state, 0, "b.office")
    assert state.players[0].doubloons == 0
    assert sc.invariant_failures(state) == []


def test_A_26_B_33_press_center_captain_2_more_vp() -> None:
    """A-26, B-33: the Captain's advantage doubled: 2 Corn loaded, 2 + 2 VP."""
    sc, state = _press_center("captain", vp=0, goods={"corn": 2})
    state = sc.act(state, 0, "ship.corn.0")
    assert state.players[0].vp == 4
    assert amounts(sc, "VpEarned", "shipping", 0) == [4]
    assert sc.invariant_failures(state) == []


def test_A_26_B_33_press_center_adventurer_2_coins() -> None:
    """A-26, B-33: the Adventurer's advantage doubled (4 players): 2 coins, plus the coins
    lying on the tile (1), not doubled."""
    sc = board(4, ["press_center"])
    sc.player(0, doubloons=0, buildings={"press_center": 1})
    sc.role_doubloons("adventurer", 1)
    state = sc.choose("adventurer", 0)
    assert state.players[0].doubloons == 3
    assert amounts(sc, "CoinsEarned", "adventurer", 0) == [2]
    assert sc.invariant_failures(state) == []


# --- B-24 Canal (T-X1-10, A-24) -----------------------------------------------------------------


def _produce_all(sc: Scenario1897, state: State) -> State:
    """Every production decision of the Craftsman phase: ``produce``."""
    while (prompt := GAME.prompt(state)) is not None and prompt.kind == "produce":
        state = sc.act(state, prompt.seats[0], "produce")
    return state


def test_T_X1_10_B_24_canal_large_fruit_depot_only() -> None:
    """T-X1-10, B-24: Large Fruit Depot with 2 occupied spaces, 2 occupied Fruit properties:
    2 + 1 = 3 Fruit; only a Small Fruit Depot (1 Fruit): 1 Fruit, no bonus."""
    sc = board(3, ["canal"])
    sc.player(0, tiles={"fruit": (2, 2)}, buildings={"canal": 1, "large_fruit_depot": 2})
    sc.player(1, tiles={"fruit": (1, 1)}, buildings={"canal": 1, "small_fruit_depot": 1})
    state = _produce_all(sc, sc.choose("craftsman", 0))
    assert (state.players[0].goods[1], state.players[1].goods[1]) == (3, 1)
    bonus = [(e.seat, e.data) for e in sc.events_of("GoodsProduced") if "by" in e.data]
    assert bonus == [(0, {"goods": {"fruit": 1}, "by": "canal"})]
    assert sc.invariant_failures(state) == []


def test_A_24_B_24_canal_with_small_and_large_depot_counts_the_large_first() -> None:
    """A-24, B-24: Small and Large Fruit Depot both occupied, 1 occupied Fruit property: its
    crate is the large building's, so the Canal adds 1: 2 Fruit."""
    sc = board(3, ["canal"])
    sc.player(
        0,
        tiles={"fruit": (1, 1)},
        buildings={"canal": 1, "large_fruit_depot": 1, "small_fruit_depot": 1},
    )
    state = _produce_all(sc, sc.choose("craftsman", 0))
    assert state.players[0].goods[1] == 2
    assert sc.invariant_failures(state) == []


# --- B-36 Cathedral (T-X1-11), A-29 Residence, B-35 Assembly Hall ----------------------------


def test_T_X1_11_B_36_cathedral_example() -> None:
    """T-X1-11, B-36: 6 forests, 3 quarries, 2 Corn, 1 Coffee: 2 + 1 = 3 sets of 3 => +6 (a
    forest is a forest whatever lies face down); unoccupied: nothing."""
    field: dict[str, Any] = {
        "tiles": {"quarry": 3, "corn": 2, "coffee": 1},
        "forests": {"sugar": 4, "fruit": 2},
    }
    sc = board(3, ["cathedral"])
    sc.player(0, buildings={"cathedral": 1}, **field)
    assert score_parts(sc, 0) == {"tokens": 0, "buildings": 4, "cathedral": 6}
    sc = board(3, ["cathedral"])
    sc.player(0, buildings={"cathedral": 0}, **field)
    assert score_parts(sc, 0) == {"tokens": 0, "buildings": 4}


def test_A_29_B_20_residence_counts_forests() -> None:
    """A-29, B-20, B-26: the Residence counts filled field spaces, forests included, occupied
    or not: 7 Corn + 3 forests = 10 => +5."""
    sc = board(3, ["residence"])
    sc.player(0, tiles={"corn": (7, 2)}, forests={"sugar": 3}, buildings={"residence": 1})
    assert view(sc, sc.state)["players"][0]["field_used"] == 10
    assert score_parts(sc, 0) == {"tokens": 0, "buildings": 4, "residence": 5}


def test_B_35_assembly_hall_examples_at_the_start_of_the_captain_phase() -> None:
    """B-35: at the start of the Captain phase, before anyone loads: 3 Corn, 2 Fruit, 1 Coffee
    => 2 VP; 4 Corn, 2 Coffee => 3 VP; an unoccupied Assembly Hall gives nothing."""
    sc = board(4, ["assembly_hall"])
    sc.player(1, vp=0, goods={"corn": 3, "fruit": 2, "coffee": 1}, buildings={"assembly_hall": 1})
    sc.player(2, vp=0, goods={"corn": 4, "coffee": 2}, buildings={"assembly_hall": 1})
    sc.player(3, vp=0, goods={"corn": 2}, buildings={"assembly_hall": 0})
    state = sc.choose("captain", 0)
    assert not sc.events_of("GoodsShipped")
    assert [(e.seat, e.data["amount"]) for e in sc.events_of("VpEarned")] == [(1, 2), (2, 3)]
    assert [p.vp for p in state.players] == [0, 2, 3, 0]
    assert sc.invariant_failures(state) == []


# --- B-29 Merchants' Post (T-X1-12, A-22) -------------------------------------------------------


def test_T_X1_12_B_29_merchants_post_coffee_already_in_the_house() -> None:
    """T-X1-12, B-29: the Trader with a Merchants' Post and a Large Market returns a Coffee
    while the house already holds one: 4 + 1 (advantage) = 5 coins, no market bonus; the house
    is unchanged, the crate back in the supply."""
    sc = board(3, ["merchants_post", "large_market"])
    sc.player(
        0,
        doubloons=0,
        goods={"coffee": 1},
        buildings={"merchants_post": 1, "large_market": 1},
    )
    sc.house(["coffee"])
    state = sc.choose("trader", 0)
    assert sc.legal(state, 0) == ["mp.coffee", "pass"]  # the house takes no second Coffee
    supply = state.goods[4]
    state = sc.act(state, 0, "mp.coffee")
    assert state.players[0].doubloons == 5
    assert state.house == [4] and state.goods[4] == supply + 1
    assert sc.events_of("GoodSold")[-1].data == {
        "good": "coffee",
        "price": 5,
        "to": "merchants_post",
    }
    assert sc.invariant_failures(state) == []


def test_A_22_B_29_merchants_post_with_a_full_house() -> None:
    """A-22, B-29: the house full (4 crates), the Trader sells nothing, but the Merchants' Post
    owner still returns a Sugar for its price (2, no advantage: not the Trader)."""
    sc = board(3, ["merchants_post"])
    sc.player(0, goods={"corn": 2})
    sc.player(1, doubloons=0, goods={"sugar": 1}, buildings={"merchants_post": 1})
    sc.house(["corn", "fruit", "tobacco", "coffee"])
    state = sc.choose("trader", 0)
    assert GAME.prompt(state) == Prompt((1,), "sell", False)
    assert sc.legal(state, 1) == ["mp.sugar", "pass"]
    state = sc.act(state, 1, "mp.sugar")
    assert state.players[1].doubloons == 2 and state.players[1].goods[2] == 0
    assert sc.invariant_failures(state) == []


# --- B-28 Shack -------------------------------------------------------------------------------


def test_B_28_shack_workers_move_and_work_at_once() -> None:
    """B-28, B-10, B-33 (the rulebook example): the Shack has 2 worker spaces; at the end of the
    Captain phase one moves to the empty Small Warehouse and stores with it (all 3 Corn + 1);
    later, after choosing the Trader, the other moves to the Press Center: a doubled advantage
    (Corn 0 + 2).  A moved worker stays (only the Shack's workers move)."""
    sc = board(3, ["shack", "small_warehouse", "press_center"])
    sc.player(
        1,
        goods={"corn": 3, "fruit": 1},
        buildings={"shack": 2, "small_warehouse": 0, "press_center": 0},
    )
    shack = next(b for b in view(sc, sc.state)["players"][1]["city"] if b["building"] == "shack")
    assert (shack["circles"], shack["workers"]) == (2, 2)
    sc.ships([(4, "coffee", 4), (5, "sugar", 5), (6, "tobacco", 6)])  # nothing loads
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "interlude", False)  # the phase's start
    assert "sh.small_warehouse" in sc.legal(state, 1)
    state = sc.act(state, 1, "pass")
    assert GAME.prompt(state) == Prompt((1,), "interlude", False)  # before the storage
    state = sc.act(state, 1, "sh.small_warehouse")
    assert codes(sc, state, 1, "sh.") == {"sh.fruit", "sh.press_center"}
    state = sc.act(state, 1, "pass")
    assert state.players[1].goods[:3] == [3, 1, 0]  # all Corn + 1: nothing to choose
    assert sc.invariant_failures(state) == []
    sc.player(1, doubloons=0, goods={"corn": 1})
    state = sc.choose("trader", 1, governor=0)
    if GAME.prompt(state) == Prompt((1,), "interlude", False):  # the phase's start
        state = sc.act(state, 1, "pass")
    assert GAME.prompt(state) == Prompt((1,), "sell", False)
    assert "sh.press_center" in sc.legal(state, 1)
    state = sc.act(state, 1, "sh.press_center")
    assert GAME.prompt(state) == Prompt((1,), "sell", False)  # still his decision
    state = sc.act(state, 1, "t.corn")
    assert state.players[1].doubloons == 2
    city = {b["building"]: b["workers"] for b in view(sc, state)["players"][1]["city"]}
    assert city == {"shack": 0, "small_warehouse": 1, "press_center": 1}
    assert sc.invariant_failures(state) == []


def test_A_3_the_hidden_market_acts_only_in_the_builder_phase() -> None:
    """A-3: the Hidden Market (listed by the seed among the Trader phase's buildings) has no
    Trader-phase use: its codes are offered in the Builder phase only."""
    sc = board(3, ["hidden_market", "harbor"])
    sc.player(0, buildings={"hidden_market": 1}, doubloons=1, goods={"corn": 1}, vp=1)
    state = sc.choose("trader", 0)
    assert not any(c.startswith("hm.") for c in sc.legal(state, 0))


def test_A_30_expansion_costs_vp_and_spaces_are_the_classic_ones() -> None:
    """A-30: Expansions I and II buildings have the classic costs, VP and worker spaces (e.g.
    Small Wharf 6 / 2 / 1, Monument 10 / 8 / 0, Large Tailor Shop 8 / 3 / 1)."""
    for name, cost, vp, spaces in (("small_wharf", 6, 2, 1), ("statue", 10, 8, 0),
                                   ("jeweler", 8, 3, 1), ("guest_house", 4, 2, 2)):
        b = CATALOG[BUILDING_INDEX[name]]
        assert (b.cost, b.vp, b.circles) == (cost, vp, spaces), name


def test_pair_hacienda_lumber_mill() -> None:
    """§9.3 ``pair_hacienda_lumber_mill``: once the Hacienda is on the tray the Lumber Mill may
    not be, and vice versa (without the option both may be)."""
    for pair in (False, True):
        state = PUERTO_RICO_1897.setup(
            {"players": 3, "expansions": [1], "pair_hacienda_lumber_mill": pair}, 2
        )
        state.drafted.append(BUILDING_INDEX["hacienda"])
        assert (BUILDING_INDEX["forest_house"] in draft_candidates(state, 2)) is not pair
