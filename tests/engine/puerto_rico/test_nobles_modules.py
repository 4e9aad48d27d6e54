"""Expansion 2, The Nobles with the other expansions (rules spec §11 with §10, §12, §13; rulings
A19, A34) and the random-playout properties of its module sets.

Three of its sets are in ``PuertoRico.option_sets()`` (the generic properties, the bot's and the
images' generic tests walk them); the playouts here cover the others the same way (every
action validated and every invariant checked, replays, corrupted saves raising only
CorruptState).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import replay
from engine.core import CorruptState, EngineError
from engine.policies import make_policy
from engine.puerto_rico.actions import BUILDING_INDEX
from engine.puerto_rico.heuristic import PuertoRicoHeuristic
from engine.puerto_rico.state import BUC_RAID, NOB_RAID, NOB_SHIP, NOB_SUPPLY
from engine.simulate import canonical_json, play_game, policy_seed, simulate
from tests.engine.puerto_rico.nobles_scenario import (
    kind_of,
    nob,
    noble_count,
    noble_supplies,
    nobles,
)
from tests.engine.puerto_rico.scenario import GAME
from tests.tiers import first_and_last

# the module sets with the Nobles played here (all 8 are also played once each by
# tests/engine/puerto_rico/test_module_sets.py)
NOBLES_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "modules": ["nobles"]},
    {"players": 3, "modules": ["nobles"]},
    {"players": 4, "modules": ["nobles"]},
    {"players": 5, "modules": ["nobles"]},
    {"players": 2, "modules": ["nobles", "buccaneer"]},
    {"players": 4, "modules": ["nobles", "buccaneer"]},
    {"players": 3, "modules": ["nobles", "festival"], "edition": "2020"},
    {"players": 5, "modules": ["nobles", "festival"]},
    {"players": 3, "modules": ["nobles", "buccaneer", "festival"]},
    {"players": 4, "modules": ["new_buildings", "nobles"]},
    {"players": 2, "modules": ["new_buildings", "nobles", "buccaneer", "festival"]},
    {"players": 4, "mayor_placement": "sequential", "modules": ["nobles"]},
]


# --- Exp. 3 Buccaneer: the Raid (A34) ----------------------------------------------------------


def test_raid_counts_a_noble_as_a_piece_and_keeps_it_first_a34() -> None:
    """A34: a noble on the ship counts as one of the pieces; the ship keeps N.  Engine choice:
    the Buccaneer keeps the removed nobles first and places them first (``raid.<place>``);
    a removed piece he cannot keep goes back to its supply."""
    sc = nob(modules=["buccaneer"])
    sc.player(0, tiles={"corn": 1, "indigo": 1}, buildings=["chapel"])
    sc.set_colonists(ship=6)
    noble_supplies(sc, ship=1)
    supply = sc.state.colonist_supply
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.raid")
    # 7 pieces, 4 stay: the noble and 2 colonists kept (3 empty circles)
    assert (state.colonist_ship, state.nobles[NOB_SHIP]) == (4, 0)
    assert state.colonist_supply == supply
    assert sc.events_of("ColonistShipRaided")[-1].data == {"removed": 3, "kept": 3, "nobles": 1}
    part = GAME.view(state, None)["nobles"]
    assert part is not None and part["raid_to_place"] == 1
    state = sc.act(state, 0, "raid.chapel")  # the noble goes first
    assert noble_count(state, 0, "chapel") == 1
    [gained] = sc.events_of("NobleGained")
    assert gained.data == {"target": "chapel", "source": "ship", "by": "raid"}
    state = sc.act(state, 0, "raid.corn")
    state = sc.act(state, 0, "pass")  # the last colonist back to the supply
    assert state.colonist_supply == supply + 1 and state.buccaneer[BUC_RAID] == 0
    assert sc.invariant_failures(state) == []


def test_raid_nobles_that_cannot_be_kept_go_back_to_the_noble_supply() -> None:
    """A34: more pieces removed than kept: colonists go back first; when only nobles are left to
    remove, they return to the noble supply; kept nobles that find no place too."""
    sc = nob(modules=["buccaneer"])
    sc.player(0, tiles={"corn": 1})
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=7)
    supply = sc.state.nobles[NOB_SUPPLY]
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.raid")
    assert state.nobles[NOB_SHIP] == 4 and state.nobles[NOB_RAID] == 1
    assert state.nobles[NOB_SUPPLY] == supply + 2
    state = sc.act(state, 0, "pass")
    assert state.nobles[NOB_SUPPLY] == supply + 3 and state.nobles[NOB_RAID] == 0
    assert sc.invariant_failures(state) == []


# --- Exp. 1: Black Market, Guest House (A19: nobles like colonists) ----------------------------


def test_black_market_pays_a_noble_from_a_place_without_a_colonist() -> None:
    """§10.2 Black Market with nobles (A19, "como los trabajadores"): the colonist returned from
    a place that holds only nobles is a noble, back to the noble supply; from a place with a
    colonist, the colonist goes."""
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["black_market", "factory"])
    sc.player(0, doubloons=5, tiles={"corn": (1, 1)}, buildings={"black_market": 1})
    nobles(sc, 0, corn=1)
    supply = sc.state.nobles[NOB_SUPPLY]
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "bm.factory.c.corn")
    assert state.nobles[NOB_SUPPLY] == supply + 1 and sum(state.players[0].nobles) == 0
    assert sc.invariant_failures(state) == []


def test_guest_house_guest_noble_moves_with_the_guests() -> None:
    """§10.2 Guest House with nobles: guests move like colonists; engine choice: a colonist guest
    moves first, then a noble one."""
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["guest_house", "chapel"])
    sc.player(0, buildings={"guest_house": 2, "chapel": 0})
    nobles(sc, 0, guest_house=1)
    state = sc.choose("builder", 0)  # an interlude: guests may move at the phase's start
    assert kind_of(state) == "interlude"
    state = sc.act(state, 0, "g.chapel")
    assert noble_count(state, 0, "chapel") == 0 and noble_count(state, 0, "guest_house") == 1
    assert sc.invariant_failures(state) == []
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["guest_house", "chapel"])
    sc.player(0, buildings={"guest_house": 1, "chapel": 0})
    nobles(sc, 0, guest_house=1)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "g.chapel")
    assert noble_count(state, 0, "chapel") == 1
    assert sc.invariant_failures(state) == []


# --- Exp. 4 Festival ---------------------------------------------------------------------------


def test_festival_plantation_goal_gives_colonists_not_nobles() -> None:
    """§13 with A19: the plantation goal's reward is 3 colonists ("trabajadores")."""
    sc = nob(modules=["festival"])
    sc.festival(plantation="corn")
    sc.player(0, tiles={"corn": 2})
    sc.face_up(["corn", "indigo", "sugar", "coffee", "coffee"])
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    assert state.players[0].san_juan == 3 and sum(state.players[0].nobles) == 0
    assert sc.invariant_failures(state) == []


def test_land_office_plantation_counts_for_the_festival_plantation_goal() -> None:
    """§13 with §11.3: a plantation bought with the Land Office joins the island (A36: any gain
    counts), so it may achieve the plantation goal."""
    sc = nob(modules=["festival"])
    sc.festival(plantation="corn")
    sc.player(0, doubloons=2, tiles={"corn": 2}, buildings={"land_office": 1})
    sc.stacks({"corn": 3})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "lo.buy")
    assert [e.data["goal"] for e in sc.events_of("FestivalGoalAchieved")] == ["plantation"]
    assert sc.invariant_failures(state) == []


# --- the heuristic -----------------------------------------------------------------------------


def test_heuristic_takes_the_noble_and_trades_with_the_royal_supplier() -> None:
    """The heuristic knows the Nobles: it takes the noble from the ship and trades cheap barrels
    with the Royal Supplier."""
    sc = nob()
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    ai = PuertoRicoHeuristic(1)
    assert ai.choose(GAME, state, 0, GAME.legal_actions(state, 0)).code == "n.noble"
    sc = nob()
    sc.player(1, goods={"corn": 1, "coffee": 1}, buildings={"royal_supplier": 1}, san_juan=1)
    nobles(sc, 1, san_juan=1)
    state = sc.choose("captain", 1)
    assert kind_of(state) == "royal_supplier"
    assert ai.choose(GAME, state, 1, GAME.legal_actions(state, 1)).code == "rs.corn"


def test_heuristic_values_the_nobles_buildings() -> None:
    """The heuristic can value every Exp. 2 building (the Jeweler processes no good)."""
    sc = nob()
    sc.player(0, doubloons=20)
    ai = PuertoRicoHeuristic(1)
    state = sc.choose("builder", 0)
    for name in ("jeweler", "royal_garden", "villa", "land_office"):
        assert isinstance(ai.building_value(state, 0, BUILDING_INDEX[name]), float)


# --- random playouts --------------------------------------------------------------------------


@pytest.mark.parametrize("options", first_and_last(
    [pytest.param(o, id=str(o)) for o in NOBLES_OPTION_SETS], group=lambda p: None))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_nobles_playouts_hold_every_invariant(options: dict[str, Any], policy: str) -> None:
    """Issue #11 properties for the Nobles' module sets at 2-5 players: the validating path with
    every invariant after every action (conservation of nobles and colonists, no noble where
    none may be); fast games that end cleanly, with a winner, and replay to the same state."""
    players = int(options["players"])
    checked = simulate("puerto-rico", players, 1, 91, [policy], check=True, options=options)
    assert checked["failures"] == [] and checked["invariant_failures"] == 0
    opts = GAME.normalize_options(options)
    for i in range(4):
        seed = 700 + i
        policies = [
            make_policy(policy, "puerto-rico", policy_seed(seed, s)) for s in range(players)
        ]
        result = play_game(GAME, opts, seed, policies)
        assert result.failures == [] and GAME.invariants(result.final) == []
        outcome = GAME.outcome(result.final)
        assert outcome is not None and outcome.winners
        assert "colonists" not in outcome.end_reasons  # E1 is not used (§11.1)
        assert all("nobles" in line.breakdown for line in outcome.scores)
        replayed, _ = replay("puerto-rico", opts, seed, result.actions)
        assert canonical_json(GAME.dump(replayed)) == canonical_json(GAME.dump(result.final))


def test_every_nobles_decision_comes_up_in_playouts() -> None:
    """The playouts reach every prompt kind and action family of the module."""
    kinds: set[str] = set()
    codes: set[str] = set()
    for seed in range(12):
        options = GAME.normalize_options({"players": 3 + seed % 3, "modules": ["nobles"]})
        state = GAME.setup(options, seed)
        policies = [make_policy("random", "puerto-rico", seed * 7 + s) for s in range(5)]
        while (prompt := GAME.prompt(state)) is not None:
            kinds.add(prompt.kind)
            seat = prompt.seats[0]
            action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
            codes.add(action.code.split(".")[0])
            state, _ = GAME.apply(state, seat, action)
    assert {"noble_or_colonist", "royal_supplier", "hunting_lodge"} <= kinds
    assert {"n", "mn", "lo", "rs", "hl"} <= codes


def _positions() -> list[Any]:
    out: list[Any] = []
    for seed, options in enumerate(NOBLES_OPTION_SETS):
        opts = GAME.normalize_options(options)
        state = GAME.setup(opts, seed)
        policy = make_policy("random", "puerto-rico", seed)
        rng = random.Random(seed)
        while (prompt := GAME.prompt(state)) is not None and len(out) < 12 * (seed + 1):
            seat = prompt.seats[0]
            action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
            if rng.random() < 0.05:
                out.append(state)
    return out


POSITIONS = _positions()


def _corrupt(data: Any, rng: random.Random) -> Any:
    """One random structural or value change somewhere in a dump (as in test_fuzz)."""
    if isinstance(data, dict) and data:
        key = rng.choice(sorted(data))
        out = dict(data)
        choice = rng.random()
        if choice < 0.2:
            del out[key]
        elif choice < 0.7:
            out[key] = _corrupt(out[key], rng)
        else:
            out[key] = rng.choice([None, "x", -1, 10**9, [], {}, 3.5, True])
        return out
    if isinstance(data, list) and data:
        items = list(data)
        i = rng.randrange(len(items))
        if rng.random() < 0.3:
            del items[i]
        else:
            items[i] = _corrupt(items[i], rng)
        return items
    if isinstance(data, bool):
        return not data
    if isinstance(data, int):
        return data + rng.choice([-3, -1, 1, 2, 50])
    return rng.choice([None, 0, "corn", [], {"a": 1}])


@given(data=st.data())
@settings(max_examples=300)
def test_corrupted_nobles_games_load_or_raise_corrupt_state(data: st.DataObject) -> None:
    """Fuzz (ARCHITECTURE.md layer 4) on positions of games with the Nobles: a corrupted save
    either loads into a consistent, playable state or raises CorruptState."""
    state = data.draw(st.sampled_from(POSITIONS))
    rng = random.Random(data.draw(st.integers(min_value=0, max_value=10**6)))
    dumped = json.loads(json.dumps(GAME.dump(state)))
    if "nobles" in dumped and rng.random() < 0.5:  # aim at the module's fields half the time
        target = rng.choice(["nobles", "players"])
        dumped[target] = _corrupt(dumped[target], rng)
    else:
        dumped = _corrupt(dumped, rng)
    try:
        loaded = GAME.load(dumped)
    except CorruptState as exc:
        assert exc.code
        return
    assert GAME.invariants(loaded) == []
    prompt = GAME.prompt(loaded)
    if prompt is not None:
        for seat in prompt.seats:
            for action in GAME.legal_actions(loaded, seat)[:50]:
                try:
                    GAME.apply(loaded, seat, action)
                except EngineError:  # pragma: no cover - would be a bug
                    raise AssertionError("a legal action of a loaded state failed") from None


def test_cli_simulates_the_nobles_with_checks() -> None:
    """``python -m engine simulate --game puerto-rico --players 4 --options
    '{"modules":["nobles"]}' --check`` plays with every invariant checked."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "simulate",
            "--game",
            "puerto-rico",
            "--players",
            "4",
            "--games",
            "2",
            "--options",
            '{"modules":["nobles"]}',
            "--check",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["games"] == 2 and result["invariant_failures"] == 0
    assert "colonists" not in result["end_reasons"]
