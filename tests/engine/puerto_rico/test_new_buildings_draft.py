"""Expansion 1, The New Buildings: the option ``building_selection``, the draft of the violet
buildings by cost (rules spec §10.1, ruling A22; the seed [A] p. 13), saves, playouts of every
module set with it and corrupted saves.  Each test names its rule."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.core import CorruptState, EngineError, IllegalAction, InvalidSetup, Prompt
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG, NBASE_BUILDINGS
from engine.puerto_rico.buildings import in_play
from engine.puerto_rico.data import GOOD_INDEX, RED_SPACES, VIOLET_SPACES
from engine.puerto_rico.festival import construction_candidates
from engine.puerto_rico.state import DRAFT_PHASE, FEST_BUILDING, FEST_GOODS, State
from engine.simulate import simulate
from tests.engine.puerto_rico.scenario import GAME, Scenario
from tests.tiers import first_and_last

DRAFT: dict[str, Any] = {"modules": ["new_buildings"]}
RANDOM: dict[str, Any] = {"modules": ["new_buildings"], "building_selection": "random"}

# §10.1: the candidates for each printed cost (base + Exp. 1) and the column of that cost
CANDIDATES = {
    1: {"small_market", "aqueduct"},
    2: {"hacienda", "construction_hut", "forest_house", "black_market"},
    3: {"small_warehouse", "storehouse"},
    4: {"hospice", "guest_house"},
    5: {"office", "large_market", "church", "trading_post"},
    6: {"large_warehouse", "small_wharf"},
    7: {"factory", "lighthouse"},
    8: {"university", "harbor", "library", "specialty_factory"},
    9: {"wharf", "union_hall"},
    10: {"guild_hall", "residence", "fortress", "customs_house", "city_hall", "cloister", "statue"},
}
COLUMN = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
COST = {name: cost for cost, names in CANDIDATES.items() for name in names}


def _codes(state: State, seat: int) -> list[str]:
    return [a.code for a in GAME.legal_actions(state, seat)]


def draft(state: State, wanted: tuple[str, ...] = ()) -> tuple[State, list[Any]]:
    """Play the draft to its end: the first of ``wanted`` still legal, else the first legal
    building.  Returns the state and the events."""
    events: list[Any] = []
    left = [f"d.{name}" for name in wanted]
    while state.phase == DRAFT_PHASE:
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "draft"
        legal = _codes(state, prompt.seats[0])
        code = next((c for c in left if c in legal), legal[0])
        if code in left:
            left.remove(code)
        state, ev = GAME.apply(state, prompt.seats[0], GAME.decode_action(code))
        events.extend(ev)
    return state, events


def _on_board_by_cost(state: State) -> Counter[int]:
    return Counter(CATALOG[b].cost for b in state.drafted)


# --- the option -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({**DRAFT, "building_selection": "auction"}, "bad_building_selection"),
        ({**DRAFT, "building_selection": 1}, "bad_building_selection"),
        ({"building_selection": "draft"}, "building_selection_without_new_buildings"),
        (
            {"modules": ["festival"], "building_selection": "random"},
            "building_selection_without_new_buildings",
        ),
    ],
)
def test_building_selection_is_validated(options: dict[str, Any], code: str) -> None:
    """§10.1 option ``building_selection`` (docs/engine.md): ``draft`` or ``random``, and only
    with the ``new_buildings`` module; anything else raises its own InvalidSetup code."""
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": 3, **options}, 1)
    assert err.value.code == code


def test_building_selection_defaults_to_the_draft_only_with_the_module() -> None:
    """§10.1: with ``new_buildings`` the players draft unless ``random`` is asked; without it the
    normalized options carry no ``building_selection`` (old games unchanged)."""
    assert GAME.normalize_options({"players": 3, **DRAFT})["building_selection"] == "draft"
    assert GAME.normalize_options({"players": 3, **RANDOM})["building_selection"] == "random"
    assert "building_selection" not in GAME.normalize_options({"players": 3})
    assert "building_selection" not in GAME.normalize_options(
        {"players": 3, "modules": ["festival"]}
    )


def test_space_table_17_violet_spaces_24_with_the_red_ones() -> None:
    """§10.1: the board's violet spaces by printed cost (17, those of the base buildings); the
    red spaces of Exp. 2 make 24 (A21), which the draft fills when Exp. 2 is in play."""
    assert VIOLET_SPACES == {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}
    assert sum(VIOLET_SPACES.values()) == 17
    assert sum(VIOLET_SPACES.values()) + sum(RED_SPACES.values()) == 24
    state = GAME.setup({"players": 3, "modules": ["new_buildings", "nobles"]}, 1)
    assert sum(state.draft_left) == 24


def test_candidates_by_cost_and_column_match_the_table() -> None:
    """§10.1 table: the violet buildings of the game (base + Exp. 1) grouped by printed cost, and
    each cost's column (the quarry cap of §6)."""
    state = GAME.setup({"players": 3, **DRAFT}, 1)
    by_cost: dict[int, set[str]] = {}
    for b in state.rs.draftable:
        by_cost.setdefault(CATALOG[b].cost, set()).add(CATALOG[b].name)
        assert CATALOG[b].column == COLUMN[CATALOG[b].cost]
    assert by_cost == CANDIDATES


# --- the draft (§10.1) ----------------------------------------------------------------------------


def test_draft_from_the_governor_clockwise_until_every_space_is_filled() -> None:
    """§10.1: before the first round, from the starting player clockwise, each player puts one
    violet building on an empty space of its printed cost (prompt kind ``draft``; only
    candidates of a cost with an empty space) until the 17 spaces are filled; then the first
    round starts with the governor (seat 0), not with the next drafter."""
    state = GAME.setup({"players": 3, **DRAFT}, 7)
    view = GAME.view(state, None)
    assert view["phase"] == "draft"
    assert view["draft"] == {
        "spaces_left": {str(c): n for c, n in VIOLET_SPACES.items()},
        "drafted": [],
        "selection": "draft",
    }
    assert [m["building"] for m in view["market"] if m["kind"].endswith("violet")] == []
    filled: Counter[int] = Counter()
    order = []
    rng = random.Random(7)
    for pick in range(17):
        prompt = GAME.prompt(state)
        assert prompt is not None and (prompt.seats, prompt.kind) == ((pick % 3,), "draft")
        seat = prompt.seats[0]
        assert all(_codes(state, other) == [] for other in range(3) if other != seat)
        expected = {
            f"d.{name}"
            for cost, names in CANDIDATES.items()
            if filled[cost] < VIOLET_SPACES[cost]
            for name in names
            if BUILDING_INDEX[name] not in state.drafted
        }
        legal = _codes(state, seat)
        assert set(legal) == expected and prompt.forced == (len(legal) == 1)
        code = rng.choice(legal)
        state, events = GAME.apply(state, seat, GAME.decode_action(code))
        order.append(code[2:])
        filled[COST[code[2:]]] += 1
        assert events[0].type == "BuildingDrafted" and events[0].data == {"building": code[2:]}
    assert events[-1].type == "DraftEnded" and events[-1].data == {"buildings": order}
    assert filled == Counter(VIOLET_SPACES) and _on_board_by_cost(state) == filled
    assert state.draft_left == [0] * 11
    assert GAME.prompt(state) == Prompt((0,), "role", False)
    assert state.round == 1 and state.governor == 0
    view = GAME.view(state, None)
    assert view["phase"] == "role_selection"
    assert view["draft"] == {"spaces_left": {}, "drafted": order, "selection": "draft"}
    assert {m["building"] for m in view["market"] if m["kind"].endswith("violet")} == set(order)
    assert GAME.invariants(state) == []


@pytest.mark.parametrize(("players", "copies"), [(2, 1), (3, 2), (4, 2), (5, 2)])
def test_both_copies_go_on_the_space_one_with_2_players(players: int, copies: int) -> None:
    """§10.1 step 3: both copies of a small building go on its space; with 2 players one, the
    other back to the box; a large building has one copy."""
    state = GAME.setup({"players": players, **DRAFT}, 1)
    state, _ = GAME.apply(state, 0, GAME.decode_action("d.aqueduct"))
    state, _ = GAME.apply(state, 1, GAME.decode_action("d.statue"))
    assert state.market[BUILDING_INDEX["aqueduct"]] == copies
    assert state.market[BUILDING_INDEX["statue"]] == 1
    assert state.market[BUILDING_INDEX["small_market"]] == 0  # left in the box
    assert GAME.invariants(state) == []


def test_a_filled_cost_and_a_drafted_building_leave_the_draft() -> None:
    """§10.1 step 4: a building goes only on an empty space of its cost: once the single cost-1
    space holds the Small Market, the Aqueduct is refused; a drafted building, a production
    building and a building of a module not in play are refused too."""
    state = GAME.setup({"players": 4, **DRAFT}, 1)
    state, _ = GAME.apply(state, 0, GAME.decode_action("d.small_market"))
    assert not {"d.small_market", "d.aqueduct"} & set(_codes(state, 1))
    for code in ("d.aqueduct", "d.small_market", "d.indigo_plant", "d.land_office"):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, 1, GAME.decode_action(code))
        assert err.value.code == "illegal_now"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, GAME.decode_action("r.settler"))
    assert err.value.code == "wrong_decision"


def test_hacienda_and_forest_house_may_both_be_drafted_a22() -> None:
    """A22 default ([A]): the Hacienda and the Forest House may both be on the board (the two
    cost-2 spaces); then the other cost-2 candidates are out."""
    state = GAME.setup({"players": 3, **DRAFT}, 1)
    state, _ = GAME.apply(state, 0, GAME.decode_action("d.hacienda"))
    assert "d.forest_house" in _codes(state, 1)
    state, _ = GAME.apply(state, 1, GAME.decode_action("d.forest_house"))
    assert not {"d.construction_hut", "d.black_market"} & set(_codes(state, 2))
    state, _ = draft(state)
    assert {BUILDING_INDEX["hacienda"], BUILDING_INDEX["forest_house"]} <= set(state.drafted)
    assert GAME.invariants(state) == []


def test_random_selection_fills_every_space_at_setup() -> None:
    """§10.1 (public source: a random selection per space): every space gets a building drawn
    among its candidates at setup; no draft is played; every candidate can be drawn, the
    Hacienda and the Forest House together too (A22)."""
    seen: Counter[str] = Counter()
    both = 0
    for seed in range(60):
        players = 2 + seed % 4
        state = GAME.setup({"players": players, **RANDOM}, seed)
        assert GAME.prompt(state) == Prompt((0,), "role", False)
        assert _on_board_by_cost(state) == Counter(VIOLET_SPACES)
        assert len(set(state.drafted)) == 17
        for b in state.drafted:
            assert state.market[b] == (1 if players == 2 else CATALOG[b].copies)
            seen[CATALOG[b].name] += 1
        part = GAME.view(state, None)["draft"]
        assert part is not None and part["selection"] == "random"
        names = {CATALOG[b].name for b in state.drafted}
        both += {"hacienda", "forest_house"} <= names
        assert GAME.invariants(state) == []
    assert set(seen) == set(COST)
    assert both > 0


def _festival_goal_after(seed: int) -> tuple[State, State]:
    state = GAME.setup({"players": 3, "modules": ["new_buildings", "festival"]}, seed)
    wanted = ("library", "specialty_factory", "lighthouse", "union_hall")
    return state, draft(state, wanted)[0]


def test_festival_construction_goal_is_drawn_after_the_draft_among_its_buildings() -> None:
    """§10.1 timing, §13, the seed ([A] p. 18: choose the Festival building only once the
    Expansion 1 setup is complete): no construction goal during the draft; after it, one of the
    column-3 buildings in play (Tobacco Storage, Coffee Roaster and the drafted ones), never a
    column-3 building left in the box."""
    goals: Counter[str] = Counter()
    for seed in range(30):
        before, after = _festival_goal_after(seed)
        assert before.festival[FEST_BUILDING] == -1
        festival = GAME.view(before, None)["festival"]
        assert festival is not None and festival["construction"]["building"] is None
        assert GAME.invariants(before) == []
        goal = after.festival[FEST_BUILDING]
        assert goal in construction_candidates(after, after.festival[FEST_GOODS])
        assert goal in in_play(after) and CATALOG[goal].column == 3
        goals[CATALOG[goal].name] += 1
        festival = GAME.view(after, None)["festival"]
        assert festival is not None
        assert festival["construction"]["building"] == CATALOG[goal].name
    assert set(goals) <= {
        "tobacco_storage",
        "coffee_roaster",
        "lighthouse",
        "library",
        "specialty_factory",
        "union_hall",
    }
    assert set(goals) & {"lighthouse", "library", "specialty_factory", "union_hall"}


def test_festival_construction_goal_with_random_selection_is_drawn_at_setup() -> None:
    """§10.1, §13: with the random selection the board is complete at setup, and so is the
    Festival's construction goal (among the buildings in play)."""
    for seed in range(20):
        state = GAME.setup({"players": 4, **RANDOM, "modules": ["new_buildings", "festival"]}, seed)
        goal = state.festival[FEST_BUILDING]
        assert goal in construction_candidates(state, state.festival[FEST_GOODS])
        assert GAME.invariants(state) == []


# --- saves --------------------------------------------------------------------------------------


def test_drafted_game_dumps_and_loads_mid_draft_and_after() -> None:
    """Saves (docs/engine.md): a game in the middle of the draft and after it round-trips through
    dump/load, and the loaded game goes on exactly as the original (same picks, same random
    draws, the ruleset compiled for the drafted board)."""
    options = {"players": 3, "modules": ["new_buildings", "buccaneer", "festival"]}
    state = GAME.setup(options, 11)
    for code in ("d.forest_house", "d.library", "d.statue", "d.trading_post", "d.aqueduct"):
        state, _ = GAME.apply(state, GAME.prompt(state).seats[0], GAME.decode_action(code))  # type: ignore[union-attr]
    dumped = GAME.dump(state)
    assert dumped["draft"]["left"][2] == 1
    assert dumped["draft"]["drafted"] == ["forest_house", "library", "statue", "trading_post",
                                          "aqueduct"]
    assert json.loads(json.dumps(dumped)) == dumped
    loaded = GAME.load(dumped)
    assert GAME.dump(loaded) == dumped
    finished, _ = draft(state)
    finished_loaded, _ = draft(loaded)
    assert GAME.dump(finished_loaded) == GAME.dump(finished)
    assert finished_loaded.rs is finished.rs and GAME.load(GAME.dump(finished)).rs is finished.rs
    assert len(finished.rs.draftable) == 17


def test_a_forest_is_saved_and_games_without_the_module_keep_their_old_dumps() -> None:
    """Saves: a player's forests are stored (and only when he has one); a game without
    modules keeps its old options (``expansions: []``) and names no building of an expansion,
    with no draft or forest fields, as does a Festival game without Exp. 1."""
    sc = Scenario(players=3, **RANDOM)
    sc.board(["forest_house"])
    sc.player(1, forests={"coffee": 1, "corn": 2}, buildings={"forest_house": 0})
    dumped = GAME.dump(sc.state)
    assert dumped["players"][1]["forests"] == {"corn": 2, "coffee": 1}
    assert "forests" not in dumped["players"][0]
    assert GAME.dump(GAME.load(dumped)) == dumped
    assert GAME.load(dumped).players[1].forests[GOOD_INDEX["coffee"]] == 1
    for options in ({"players": 3}, {"players": 4, "modules": ["festival"]}):
        old = GAME.dump(GAME.setup(options, 5))
        assert "draft" not in old
        assert set(old["market"]) == {b.name for b in CATALOG[:NBASE_BUILDINGS]}
        assert all("forests" not in p for p in old["players"])
        assert GAME.dump(GAME.load(old)) == old
    assert GAME.dump(GAME.setup({"players": 3}, 5))["options"]["expansions"] == []


# --- playouts (issue #11: every module set with Exp. 1) -----------------------------------------

EXP1_SETS = [
    ["new_buildings"],
    ["new_buildings", "buccaneer"],
    ["new_buildings", "festival"],
    ["new_buildings", "buccaneer", "festival"],
]


@pytest.mark.parametrize("modules", first_and_last(  # the fast tier: the first and last sets
    [pytest.param(m, id="+".join(m)) for m in EXP1_SETS], group=lambda p: None))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_exp1_module_sets_play_to_the_end_with_every_invariant(
    modules: list[str], policy: str
) -> None:
    """§10 with §12/§13, issue #11: a game of each module set with Exp. 1 at 2-5 players (drafted
    at 2 and 4, random selection at 3 and 5), every action through the validating ``apply`` and
    every invariant checked after each one."""
    for players in (2, 3, 4, 5):
        selection = "draft" if players % 2 == 0 else "random"
        options = {"modules": modules, "building_selection": selection}
        seed = 7000 + 10 * players + len(modules)
        result = simulate("puerto-rico", players, 1, seed, [policy], True, options)
        assert result["failures"] == [], (players, result["failures"][:3])
        assert result["invariant_failures"] == 0
        assert result["games"] == 1 and sum(result["end_reasons"].values()) >= 1


# --- fuzz: corrupted saves ------------------------------------------------------------------------


def _positions() -> list[dict[str, Any]]:
    """Dumps of a game in its draft (with the Festival waiting for it) and of a drafted game
    with forests in its Settler phase."""
    out = []
    state = GAME.setup({"players": 4, "modules": ["new_buildings", "festival"]}, 3)
    for code in ("d.forest_house", "d.hacienda", "d.statue"):
        state, _ = GAME.apply(state, GAME.prompt(state).seats[0], GAME.decode_action(code))  # type: ignore[union-attr]
    out.append(GAME.dump(state))
    sc = Scenario(players=3, seed=4, **RANDOM)
    sc.board(["forest_house", "hacienda", "hospice", "black_market", "library"])
    sc.player(0, forests={"corn": 2}, buildings={"forest_house": 1, "hacienda": 1, "library": 1})
    sc.player(1, forests={"sugar": 1}, buildings={"hospice": 1})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.hacienda")  # a forest offer pending
    out.append(GAME.dump(state))
    return out


POSITIONS = _positions()


def _mutate(data: Any, rng: random.Random) -> Any:
    """One random change somewhere in ``data`` (a dump or a part of it)."""
    if isinstance(data, dict) and data:
        key = rng.choice(sorted(data))
        out = dict(data)
        roll = rng.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.75:
            out[key] = _mutate(out[key], rng)
        else:
            out[key] = rng.choice([None, "x", -1, 10**9, [], {}, 2.5, True])
        return out
    if isinstance(data, list) and data:
        out_list = list(data)
        i = rng.randrange(len(out_list))
        if rng.random() < 0.25:
            del out_list[i]
        else:
            out_list[i] = _mutate(out_list[i], rng)
        return out_list
    if isinstance(data, bool):
        return not data
    if isinstance(data, int):
        return data + rng.choice([-2, -1, 1, 3, 40])
    return rng.choice([None, 0, "corn", []])


def _targeted(dumped: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A change aimed at Exp. 1's fields: the draft's spaces and buildings, a player's forests,
    the phase, the pending offer."""
    out: dict[str, Any] = json.loads(json.dumps(dumped))
    target = rng.choice(["draft", "forests", "phase", "offers", "market"])
    if target == "forests":
        p = rng.choice(out["players"])
        p["forests"] = _mutate(p.get("forests", {"corn": 0}), rng)
    elif target == "phase":
        out["phase"] = rng.choice([0, 1, DRAFT_PHASE, 9, 10])
    else:
        out[target] = _mutate(out[target], rng)
    return out


def _loads_or_corrupt(broken: Any) -> None:
    """Loading raises CorruptState and nothing else; a save that loads is consistent and every
    legal action of it applies."""
    try:
        loaded = GAME.load(broken)
    except CorruptState as exc:
        assert exc.code
        return
    assert GAME.invariants(loaded) == []
    GAME.view(loaded, None)
    prompt = GAME.prompt(loaded)
    for seat in prompt.seats if prompt is not None else ():
        for action in GAME.legal_actions(loaded, seat)[:40]:
            try:
                GAME.apply(loaded, seat, action)
            except EngineError:  # pragma: no cover - would be a bug
                raise AssertionError(f"legal {action} failed after load") from None


@pytest.mark.parametrize("position", range(len(POSITIONS)))
def test_corrupted_draft_and_forest_saves_raise_only_corrupt_state(position: int) -> None:
    """Fuzz (ARCHITECTURE.md layer 4, like test_fuzz): a drafted or forest save changed at
    random, anywhere or in Exp. 1's fields, loads consistently or raises CorruptState."""
    rng = random.Random(position)
    dumped = POSITIONS[position]
    for _ in range(1000):
        _loads_or_corrupt(_targeted(dumped, rng))
        _loads_or_corrupt(_mutate(dumped, rng))


@pytest.mark.parametrize(
    "change",
    [
        {"drafted": ["forest_house"] * 3},
        {"drafted": ["indigo_plant", "hacienda", "aqueduct"]},
        {"drafted": ["small_market", "hacienda", "no_such_building"]},
        {"drafted": [0, 1]},
        {"drafted": "x"},
        {"left": [0] * 11},
        {"left": [1] * 10},
        {"left": None},
        {"phase": 0},
    ],
    ids=str,
)
def test_corrupted_draft_fields_raise_corrupt_state(change: dict[str, Any]) -> None:
    """Fuzz: impossible draft fields (a building drafted twice, a production building, an
    unknown index, the wrong length, a finished draft in the draft phase, a draft phase left
    with its Festival goal undrawn) raise CorruptState."""
    saved = POSITIONS[0]
    if "phase" in change:
        broken = {**saved, **change}
    else:
        broken = {**saved, "draft": {**saved["draft"], **change}}
    with pytest.raises(CorruptState):
        GAME.load(broken)


@pytest.mark.parametrize(
    "forests",
    [{"corn": -1}, {"corn": 1, "indigo": -1}, {"sugar": 13}, {"quarry": 1}, [1, 1], "x",
     {"corn": None}],
    ids=str,
)
def test_corrupted_forests_raise_corrupt_state(forests: Any) -> None:
    """Fuzz: a negative, impossible or malformed forest count raises CorruptState, even when
    the plantation count still adds up (a negative forest balanced by another)."""
    dumped = json.loads(json.dumps(POSITIONS[1]))
    dumped["players"][2]["forests"] = forests
    with pytest.raises(CorruptState):
        GAME.load(dumped)


def test_the_compiled_boards_are_bounded_and_recompiled_alike() -> None:
    """One ruleset is compiled per drafted board; a long-running bot plays thousands of drafts,
    so only the ``BOARDS_KEPT`` most recently used stay cached, and a board compiled again
    after its eviction has the same buildings and hooks."""
    from engine.puerto_rico import ruleset as R

    options = GAME.normalize_options({"players": 3, **DRAFT})
    violet = list(range(NBASE_BUILDINGS, len(CATALOG)))
    first = tuple(violet[:10])
    compiled = R.ruleset(options, first)
    rng = random.Random(3)
    for _ in range(R.BOARDS_KEPT + 20):
        R.ruleset(options, tuple(rng.sample(violet, 12)))
    assert len(R._BOARDS) == R.BOARDS_KEPT
    again = R.ruleset(options, first)
    assert again is not compiled  # evicted, then compiled again
    assert again.buildings == compiled.buildings
    assert {k: [b for b, _ in v] for k, v in again.hooks.items()} == {
        k: [b for b, _ in v] for k, v in compiled.hooks.items()
    }
