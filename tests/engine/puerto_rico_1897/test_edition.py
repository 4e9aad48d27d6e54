"""Puerto Rico 1897 as an edition of the Puerto Rico kernel: its setup (§2.2, §2.3, §9.1), the
game end (§4.1), the final score (§4.2), the points where its rules differ from classic (§6:
D-5, D-9, D-10, D-12, D-13), its options (§9.3, §10) and its names (§1).  Each test names its
rule ids."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine import get_game, replay
from engine.core import IllegalAction, InvalidAction, InvalidSetup
from engine.policies import make_policy
from engine.puerto_rico.data import PLANTATIONS_TOTAL
from engine.puerto_rico.ops import draw_plantation
from engine.puerto_rico.state import GAME_OVER, State
from engine.puerto_rico_1897.names import RENAMED
from engine.rng import seed_state
from engine.simulate import play_game, policy_seed
from tests.engine.puerto_rico_1897.scenario import Scenario1897

GAME = get_game("puerto-rico-1897")
CLASSIC = get_game("puerto-rico")


def setup(players: int, seed: int = 0, **options: Any) -> State:
    state: State = GAME.setup({"players": players, **options}, seed)
    return state


# --- setup (§2.2, §2.3, §9.1) -------------------------------------------------------------------

# players: (VP tokens, workers in the supply, in the Agency, coins, market, quarries, roles, ships)
TABLE_2_2 = {
    2: (65, 40, 2, 3, 3, 5, 7, [4, 6]),
    3: (75, 55, 3, 2, 4, 8, 6, [4, 5, 6]),
    4: (100, 75, 4, 3, 5, 8, 7, [5, 6, 7]),
    5: (126, 95, 5, 4, 6, 8, 8, [6, 7, 8]),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_table_2_2_setup_by_player_count(players: int) -> None:
    """SET-2, SET-3, SET-5...SET-10, table 2.2, TWO-2...TWO-4: VP tokens, workers, coins, the
    market, quarries, role tiles and ships for N players."""
    vp, supply, agency, coins, market, quarries, roles, ships = TABLE_2_2[players]
    view = GAME.view(setup(players), None)
    assert view["vp_tokens_left"] == vp
    assert view["workers"] == {"agency": agency, "supply": supply}
    assert [p["coins"] for p in view["players"]] == [coins] * players
    assert len(view["face_up"]) == market == players + 1
    assert view["quarries_left"] == quarries
    assert len(view["roles"]) == roles
    assert all(r["coins"] == 0 for r in view["roles"])  # SET-7: no coins on them
    assert [s["capacity"] for s in view["ships"]] == ships
    assert all(s["count"] == 0 and s["good"] is None for s in view["ships"])
    assert view["trading_house"] == []


def test_initial_state_check_4_players() -> None:
    """§2.3's initial state check: Agency 4, supply 75, VP 100, coins 3 each, market 5 tiles,
    bag 50 - 5 - 4 = 41, quarries 8, ships 5/6/7 empty, 7 role tiles with 0 coins."""
    view = GAME.view(setup(4), None)
    assert view["workers"] == {"agency": 4, "supply": 75}
    assert view["vp_tokens_left"] == 100
    assert len(view["face_up"]) == 5 and view["property_bag"] == 41
    assert view["property_discard"] == 0
    assert sorted(r["role"] for r in view["roles"]) == sorted(
        ["planter", "recruiter", "builder", "craftsman", "trader", "captain", "adventurer"]
    )


@pytest.mark.parametrize(
    ("players", "starts"),
    [
        (2, ["fruit", "corn"]),
        (3, ["fruit", "fruit", "corn"]),
        (4, ["fruit", "fruit", "corn", "corn"]),
        (5, ["fruit", "fruit", "fruit", "corn", "corn"]),
    ],
)
def test_starting_properties_by_seat(players: int, starts: list[str]) -> None:
    """SET-11, table 2.2, TWO-6, D-4: the Governor (seat 0) first; each unoccupied."""
    view = GAME.view(setup(players), None)
    assert [p["field"] for p in view["players"]] == [
        [{"tile": tile, "occupied": False}] for tile in starts
    ]


@pytest.mark.parametrize("seed", range(6))
def test_market_is_drawn_from_the_whole_bag_before_the_starting_properties(seed: int) -> None:
    """SET-4, SET-5, SET-11 (A-27), D-5: all 50 properties go into the bag, N + 1 are drawn,
    then the starting properties are taken out of what is left."""
    players = 4
    state = setup(players, seed)
    bag = State()
    bag.rng = seed_state(seed)
    bag.deck = list(PLANTATIONS_TOTAL)  # the whole bag
    drawn = sorted(draw_plantation(bag) or 0 for _ in range(players + 1))
    assert state.face_up == drawn
    assert sum(state.deck) == 50 - (players + 1) - players
    starts = [p.tiles.index(1) for p in state.players]
    assert [PLANTATIONS_TOTAL[k] - state.deck[k] for k in range(5)] == [
        drawn.count(k) + starts.count(k) for k in range(5)
    ]


def test_two_players_tray_goods_and_properties() -> None:
    """TWO-1, TWO-3, TWO-5, BLG-6: 1 copy of each commercial building, 2 of each production
    building; 3 properties of each type and 3 quarries removed; 2 crates of each good."""
    view = GAME.view(setup(2), None)
    left = {m["building"]: m["left"] for m in view["market"]}
    kinds = {m["building"]: m["kind"] for m in view["market"]}
    assert all(
        left[b] == (2 if kinds[b].endswith("production") else 1) for b in left
    )
    assert view["goods_supply"] == {"corn": 8, "fruit": 9, "sugar": 9, "tobacco": 7, "coffee": 7}
    assert view["property_bag"] == 50 - 15 - 3 - 2 and view["quarries_left"] == 5


def test_three_to_five_players_tray() -> None:
    """SET-1, A-36, §5.2, §5.3: production buildings 4/4/3/3/3/3, commercial 2, expanded 1."""
    left = {m["building"]: m["left"] for m in GAME.view(setup(4), None)["market"]}
    assert [left[b] for b in ("small_fruit_depot", "small_sugar_mill", "large_fruit_depot",
                              "large_sugar_mill", "large_tobacco_storage",
                              "large_coffee_roaster")] == [4, 4, 3, 3, 3, 3]
    assert left["builders_yard"] == left["hospital"] == left["school"] == 2
    assert left["fire_station"] == left["city_hall"] == 1
    assert len(left) == 23


def test_two_players_round_of_six_phases() -> None:
    """TWO-7, T-TWO-1, RND-1, EOR-1, EOR-2: the players alternate until each has chosen 3
    roles; then exactly one tile (the one left) gets a coin and the other player governs."""
    sc = Scenario1897(2, seed=3)
    state = sc.state
    picks = 0
    while picks < 6:
        prompt = sc.prompt(state)
        assert prompt is not None
        if prompt.kind == "role":
            assert prompt.seats == (picks % 2,)
            code = sc.legal(state, prompt.seats[0])[0]
            state = sc.act(state, prompt.seats[0], code)
            picks += 1
        else:
            state = sc.finish_phase(state)
    state = sc.finish_phase(state)
    view = GAME.view(state, None)
    assert view["governor"] == 1 and view["round"] == 2
    assert sorted(r["coins"] for r in view["roles"]) == [0] * 6 + [1]
    ended = sc.events_of("RoundEnded")
    assert len(ended) == 1 and len(ended[0].data["coins_on"]) == 1


# --- game end (§4.1) ----------------------------------------------------------------------------


def test_END_T1_and_END_2_the_game_ends_after_the_recruiter_phase() -> None:
    """END-T1, REC-4, REC-5, END-2, D-9, T-REC-4: 4 players, 8 empty building spaces, 5 workers in
    the supply: the Agency gets the 5, the trigger fires and the game ends once the phase is
    over: no further role, no round-end coins."""
    sc = Scenario1897(4)
    sc.player(0, buildings={"large_sugar_mill": 0, "large_tobacco_storage": 0,
                            "small_market": 0})
    sc.player(1, buildings=["hacienda"])
    sc.set_colonists(supply=5, ship=0)
    state = sc.choose("recruiter", 1, governor=0, earlier=["planter"])
    state = sc.finish_phase(state)
    assert state.over
    view = GAME.view(state, None)
    assert view["workers"] == {"agency": 5, "supply": 0}
    assert view["end_triggered"] == ["workers"]
    assert sc.events_of("RoundEnded") == []  # the round was not finished
    assert [r["coins"] for r in view["roles"]] == [0] * 7
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("workers",)


def test_T_REC_5_exactly_enough_workers_is_no_trigger() -> None:
    """REC-5, T-REC-5: 7 requested (7 empty building spaces), 7 in the supply: no trigger."""
    sc = Scenario1897(4)
    sc.player(0, buildings={"large_sugar_mill": 0, "large_tobacco_storage": 0,
                            "small_market": 0})
    sc.set_colonists(supply=7, ship=0)
    state = sc.finish_phase(sc.choose("recruiter", 0))
    assert not state.over and state.end_reasons == []
    assert GAME.view(state, None)["workers"] == {"agency": 7, "supply": 0}


def test_A_1_end_timing_round_plays_the_round_out() -> None:
    """A-1 (option ``end_timing: round``): the classic reading, the game ends at the end of the
    round in which the trigger fired; the remaining roles are chosen and the round coins
    placed."""
    sc = Scenario1897(4, end_timing="round")
    sc.player(0, buildings={"large_sugar_mill": 0, "large_tobacco_storage": 0,
                            "small_market": 0})
    sc.set_colonists(supply=2, ship=0)
    state = sc.finish_phase(sc.choose("recruiter", 0))
    assert not state.over and state.end_reasons == ["colonists"]
    while not state.over:
        prompt = sc.prompt(state)
        assert prompt is not None
        if prompt.kind == "role":
            state = sc.act(state, prompt.seats[0], sc.legal(state, prompt.seats[0])[0])
        else:
            state = sc.finish_phase(state)
    assert len(sc.events_of("RoundEnded")) == 1


def test_END_T3_vp_tokens_running_out_in_a_captain_phase() -> None:
    """END-T3, CAP-7, END-2: the last VP token taken in a Captain phase ends the game after
    that phase (its storing and ship clearing included)."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 2, "sugar": 1})
    sc.player(1, goods={"coffee": 3})
    sc.set_vp_supply(2)
    state = sc.finish_phase(sc.choose("captain", 0))
    assert state.over
    assert state.end_reasons == ["vp_chips"]
    view = GAME.view(state, None)
    assert view["end_triggered"] == ["vp_tokens"]
    earned = sum(e.data["amount"] for e in sc.events_of("VpEarned"))
    assert earned > 2  # VP past the supply are recorded on paper
    # the phase ran to its end (storing, ship clearing), then the game ended
    assert [e.type for e in sc.events[-2:]] == ["PhaseEnded", "GameEnded"]


def test_END_T3_vp_tokens_run_out_before_ends_at_the_next_captain_phase() -> None:
    """END-T3, D-10: the supply already empty (the last token taken outside a Captain phase)
    ends nothing until the next Captain phase is complete."""
    sc = Scenario1897(3)
    sc.player(0, goods={"corn": 1})
    sc.player(1, goods={"sugar": 1})
    sc.set_vp_supply(0)
    state = sc.finish_phase(sc.choose("trader", 0))
    assert not state.over and state.end_reasons == []
    state = sc.finish_phase(sc.choose("captain", 1, governor=0, earlier=["trader"]))
    assert state.over and state.end_reasons == ["vp_chips"]


def test_END_T2_and_T_BLD_8_the_others_still_build_then_the_game_ends() -> None:
    """END-T2, BLD-5, T-BLD-8: a player filling his 12th building space triggers the end; the
    players after him still get their Builder turn, then the game ends (no further roles)."""
    sc = Scenario1897(4)
    eleven = ["small_market", "hacienda", "builders_yard", "small_warehouse", "hospital",
              "office", "large_market", "large_warehouse", "factory", "school", "harbor"]
    sc.player(1, buildings=eleven, doubloons=10)
    sc.player(2, doubloons=10)
    sc.player(3, doubloons=10)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.wharf")
    assert state.end_reasons == ["city_full"] and not state.over
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.seats == (2,)
    state = sc.act(state, 2, "b.small_fruit_depot")
    state = sc.act(state, 3, "b.small_fruit_depot")
    assert state.over
    assert sc.events_of("RoundEnded") == []


# --- final score (§4.2) -------------------------------------------------------------------------


def test_T_SCR_1_tokens_buildings_and_expanded_bonuses() -> None:
    """SCR-1, T-SCR-1, B-22, B-23: 30 VP tokens; printed 11 VP; occupied Customs House +7
    (30 tokens / 4) and City Hall with 3 commercial buildings including itself +3: 51."""
    sc = Scenario1897(3)
    sc.player(0, vp=30, buildings={"customs_house": 1, "city_hall": 1, "small_market": 0,
                                   "large_fruit_depot": 0})
    state = sc.state
    state.phase = GAME_OVER
    outcome = GAME.outcome(state)
    assert outcome is not None
    line = outcome.scores[0]
    assert line.breakdown == {"tokens": 30, "buildings": 11, "customs_house": 7, "city_hall": 3}
    assert line.total == 51


def test_T_SCR_2_ties_by_coins_and_crates_then_shared() -> None:
    """SCR-2, T-SCR-2, D-11: equal totals: the most coins + crates wins; still tied: shared."""
    sc = Scenario1897(3)
    sc.player(0, vp=40, doubloons=3, goods={"corn": 2})
    sc.player(1, vp=40, doubloons=4)
    sc.player(2, vp=10, doubloons=0)
    state = sc.state
    state.phase = GAME_OVER
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    sc.player(1, doubloons=5)
    outcome = GAME.outcome(sc.state)
    assert outcome is not None and outcome.winners == (0, 1)


# --- buildings where 1897 differs (§6.2) ---------------------------------------------------------


def test_D_12_wharf_cargo_stays_on_the_private_ship_until_the_phase_ends() -> None:
    """B-18, D-12, CAP-6: the Wharf's crates are out of the supply while the Captain phase
    lasts, shown on the private ship, and back in the supply with the full ships' at its
    end."""
    sc = Scenario1897(3)
    sc.player(0, goods={"sugar": 4}, buildings={"wharf": 1})
    sc.player(1, goods={"corn": 1})
    sc.ships([(4, "sugar", 4), (5, None, 0), (6, "coffee", 6)])  # the sugar ship is full
    supply = GAME.view(sc.state, None)["goods_supply"]["sugar"]
    state = sc.choose("captain", 0)
    assert "wharf.sugar" in sc.legal(state, 0)
    state = sc.act(state, 0, "wharf.sugar")
    view = GAME.view(state, None)
    assert view["private_ships"]["sugar"] == 4
    assert view["goods_supply"]["sugar"] == supply
    assert sc.invariant_failures(state) == []
    state = sc.finish_phase(state)
    view = GAME.view(state, None)
    assert "private_ships" not in view or not any(view["private_ships"].values())
    assert view["goods_supply"]["sugar"] == supply + 4 + 4  # the private ship's and ship 4's
    emptied = sc.events_of("ShipsEmptied")[-1]
    assert emptied.data["private_ships"] == {"sugar": 4}


def test_D_13_hospital_worker_on_the_hacienda_tile_or_the_pick() -> None:
    """B-11, B-8, D-13: with Hacienda and Hospital the owner gets one worker a turn, on either
    new tile: offered for the Hacienda's tile first; taken there, the pick gets none;
    declined, the pick's tile may have it."""
    for take_first in (True, False):
        sc = Scenario1897(3)
        sc.player(0, buildings={"hacienda": 1, "hospital": 1})
        sc.face_up(["coffee", "corn", "sugar", "tobacco"])
        state = sc.choose("planter", 0)
        state = sc.act(state, 0, "p.hacienda")
        prompt = sc.prompt(state)
        assert prompt is not None and prompt.kind == "hospital"
        state = sc.act(state, 0, "o.hospital" if take_first else "pass")
        state = sc.act(state, 0, "p.coffee")
        prompt = sc.prompt(state)
        assert prompt is not None
        if take_first:
            assert prompt.kind != "hospital"
        else:
            assert prompt.kind == "hospital" and prompt.seats == (0,)
            state = sc.act(state, 0, "o.hospital")
        workers = [e for e in sc.events_of("WorkerGained") if e.data["by"] == "hospital"]
        assert len(workers) == 1
        assert sc.invariant_failures(state) == []


def test_A_41_hacienda_recycles_the_discard_from_an_empty_bag() -> None:
    """B-8, A-41 (option ``hacienda_empty_bag``): with an empty bag the Hacienda draws from the
    recycled discard; with ``none`` it cannot be used."""
    for recycle in ("recycle", "none"):
        sc = Scenario1897(3, hacienda_empty_bag=recycle)
        sc.player(0, buildings={"hacienda": 1})
        sc.stacks({}, {"tobacco": 2})
        state = sc.choose("planter", 0)
        codes = sc.legal(state, 0)
        assert ("p.hacienda" in codes) == (recycle == "recycle")
        if recycle == "recycle":
            state = sc.act(state, 0, "p.hacienda")
            taken = sc.events_of("PropertyTaken")[-1].data
            assert taken == {"tile": "tobacco", "source": "hacienda", "reshuffled": True}
            assert sum(state.discard) == 0 and sum(state.deck) == 1


# --- production decision (A-28) -----------------------------------------------------------------


def test_A_28_each_player_produces_all_or_declines() -> None:
    """CRF-3, A-28 (option ``production: full_or_decline``): clockwise from the Craftsman, each
    player who would receive a crate takes his whole production or declines it; a declined
    production leaves the crates to the next player; nobody is asked who would get none."""
    sc = Scenario1897(3)
    sc.player(0, tiles={"sugar": (2, 2)}, buildings={"small_sugar_mill": 1})
    sc.player(1, tiles={"corn": (1, False)})
    sc.player(2, tiles={"sugar": (1, 1)}, buildings={"small_sugar_mill": 1})
    sc.set_goods_supply(sugar=1)
    state = sc.choose("craftsman", 0)
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("produce", (0,))
    assert sc.legal(state, 0) == ["produce", "pass"]
    state = sc.act(state, 0, "pass")
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("produce", (2,))
    state = sc.act(state, 2, "produce")
    assert state.players[2].goods[2] == 1 and state.players[0].goods[2] == 0
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.kind != "produce"


def test_A_28_automatic_production_asks_nobody() -> None:
    """A-28's alternative (option ``production: automatic``): production is taken, as in
    classic Puerto Rico."""
    sc = Scenario1897(3, production="automatic")
    sc.player(0, tiles={"sugar": (1, 1)}, buildings={"small_sugar_mill": 1})
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[2] == 1
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.kind != "produce"


# --- alternative rules (§9.3) ------------------------------------------------------------------


def test_cost_swap_school_7_factory_8() -> None:
    """§9.3 ``cost_swap``, D-18: the School costs 7 and the Factory 8 (VP unchanged)."""
    for swap, school, factory in ((False, 8, 7), (True, 7, 8)):
        sc = Scenario1897(3, cost_swap=swap)
        sc.player(1, doubloons=7)
        state = sc.choose("builder", 0)
        state = sc.act(state, 0, "pass")
        codes = sc.legal(state, 1)
        assert ("b.school" in codes) == (school <= 7)
        assert ("b.factory" in codes) == (factory <= 7)
        for viewer in (None, 1):  # the market shows what is charged (the table and a panel)
            market = {m["building"]: m for m in GAME.view(state, viewer)["market"]}
            assert (market["school"]["cost"], market["factory"]["cost"]) == (school, factory)
            assert market["school"]["vp"] == market["factory"]["vp"] == 3


def test_alternative_start_corn_starters_get_one_coin_less() -> None:
    """§9.3 ``alternative_start``, D-18: each player starting with Corn gets 1 coin less."""
    view = GAME.view(setup(4, alternative_start=True), None)
    assert [p["coins"] for p in view["players"]] == [3, 3, 2, 2]


# --- options (§9.3, §10) ------------------------------------------------------------------------


def test_options_have_the_recommended_defaults() -> None:
    """§10 A-1, A-28, A-41 and §9.3: every option stored, the recommended reading first."""
    assert GAME.normalize_options({"players": 3}) == {
        "players": 3,
        "edition": "1897",
        "expansions": [],
        "recruiter_placement": "simultaneous",
        "end_timing": "phase",
        "production": "full_or_decline",
        "hacienda_empty_bag": "recycle",
        "all_workers": False,
        "lure_surplus": "discard",
        "pair_country_house_tailor": False,
        "cost_swap": False,
        "alternative_start": False,
        "tailor_cap": False,
    }


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"players": 3, "end_timing": "never"}, "bad_end_timing"),
        ({"players": 3, "production": "some"}, "bad_production"),
        ({"players": 3, "cost_swap": 1}, "bad_cost_swap"),
        ({"players": 3, "edition": "classic"}, "unknown_edition"),
        ({"players": 6}, "bad_player_count"),
        ({"players": 3, "mayor_placement": "simultaneous"}, "unknown_option"),
    ],
)
def test_bad_options_are_refused_with_a_specific_code(options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidSetup) as info:
        GAME.normalize_options(options)
    assert info.value.code == code


def test_the_classic_game_does_not_play_1897_options() -> None:
    for options in ({"players": 3, "edition": "1897"}, {"players": 3, "end_timing": "phase"}):
        with pytest.raises(InvalidSetup):
            CLASSIC.normalize_options(options)


# --- names (§1) ---------------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z_]+")


def _words(obj: Any) -> set[str]:
    text = json.dumps(obj)
    return {w for token in _WORD.findall(text) for w in (token, token.rstrip("0123456789"))}


@pytest.mark.parametrize("players", [2, 4])
def test_an_1897_game_speaks_1897_words_only(players: int) -> None:
    """§1 glossary, D-1, D-2: codes, prompts, events, views and the outcome of a whole game use
    1897's words (fruit, planter, worker, portrait, coins...) and never the classic ones."""
    options = GAME.normalize_options({"players": players})
    policies = [make_policy("random", GAME.name, policy_seed(5, s)) for s in range(players)]
    result = play_game(GAME, options, 5, policies)
    codes = [code for _, code in result.actions]
    state, events = replay(GAME.name, options, 5, result.actions)
    seen = _words(codes) | _words([e.to_json() for e in events])
    seen |= _words(GAME.view(state, 0)) | _words(GAME.outcome(state).to_json())  # type: ignore[union-attr]
    assert seen & RENAMED == set()
    assert {"fruit", "planter", "recruiter", "coins", "portrait", "workers"} <= seen


def test_codes_in_both_directions_and_classic_codes_refused() -> None:
    """Every legal code decodes to the action it encodes; a classic code is no 1897 code."""
    state = setup(4)
    for action in GAME.legal_actions(state, 0):
        code = GAME.encode_action(action)
        assert GAME.decode_action(code) is action
    for classic in ("r.settler", "s.indigo", "b.hospice", "m.auto"):
        with pytest.raises(InvalidAction):
            GAME.decode_action(classic)


def test_errors_name_1897_codes() -> None:
    """A refused action's details are in 1897's words."""
    sc = Scenario1897(3)
    state = sc.choose("builder", 0)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, "b.fire_station")
    assert info.value.details["action"] == "b.fire_station"


def test_B_11_each_hospital_owner_gets_his_own_worker() -> None:
    """B-11: one worker a turn is each owner's: the Planter's taken worker leaves the next
    owner's offer intact (a regression: the one-a-turn mark must not outlive the turn)."""
    sc = Scenario1897(3)
    sc.player(0, buildings={"hospital": 1})
    sc.player(1, buildings={"hospital": 1})
    sc.face_up(["coffee", "corn", "sugar", "tobacco"])
    state = sc.choose("planter", 0)
    state = sc.act(state, 0, "p.coffee")
    state = sc.act(state, 0, "o.hospital")
    state = sc.act(state, 1, "p.corn")
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("hospital", (1,))
    state = sc.act(state, 1, "o.hospital")
    assert [e.seat for e in sc.events_of("WorkerGained")] == [0, 1]
