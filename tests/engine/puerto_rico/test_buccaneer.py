"""Expansion 3, the Buccaneer (rules spec §12, rulings A33-A35 of §14.4, Appendix C; the seed
[A] p. 17-18).  Each test names the rule it checks."""

from __future__ import annotations

import pytest

from engine import replay
from engine.core import CorruptState, IllegalAction, Prompt
from engine.policies import make_policy
from engine.puerto_rico.data import GOOD_INDEX
from engine.puerto_rico.game import BUCCANEER_OPTION_SETS
from engine.puerto_rico.heuristic import PuertoRicoHeuristic
from engine.puerto_rico.state import BUC_TOKEN
from engine.simulate import canonical_json, play_game, policy_seed, simulate
from tests.engine.puerto_rico.scenario import GAME, Scenario
from tests.tiers import first_and_last

BUCCANEER = {"modules": ["buccaneer"]}


def buc(players: int = 4, seed: int = 0) -> Scenario:
    return Scenario(players=players, seed=seed, **BUCCANEER)


# --- setup and the token ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_buccaneer_is_an_extra_role_card_at_every_count(players: int) -> None:
    """§12 setup: the Buccaneer card joins the role cards of the player count ([A]: with 2
    players too); the token lies on it; picks per round are unchanged."""
    base = GAME.setup({"players": players}, 1)
    state = GAME.setup({"players": players, **BUCCANEER}, 1)
    codes = [a.code for a in GAME.legal_actions(state, 0)]
    assert codes == [*(a.code for a in GAME.legal_actions(base, 0)), "r.buccaneer"]
    assert state.rs.picks_per_round == base.rs.picks_per_round
    public = GAME.view(state, None)
    assert public["buccaneer"] == {
        "token": None,
        "captured": None,
        "captured_by": None,
        "raid_to_place": 0,
    }
    assert public["roles"][-1]["role"] == "buccaneer"
    assert GAME.invariants(state) == []


def test_only_the_chooser_acts_and_takes_the_token() -> None:
    """§12: the chooser takes the token and performs one option; no other player acts."""
    sc = buc()
    state = sc.choose("buccaneer", 0)
    assert sc.prompt(state) == Prompt((0,), "buccaneer", False)
    assert all(sc.legal(state, seat) == [] for seat in (1, 2, 3))
    assert state.buccaneer[BUC_TOKEN] == 0
    [taken] = sc.events_of("BuccaneerTokenTaken")
    assert (taken.seat, taken.data) == (0, {"from": None})
    state = sc.act(state, 0, "bu.raid")
    assert sc.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_the_token_holder_may_not_choose_the_buccaneer() -> None:
    """§12: a player holding the token may not choose the Buccaneer until another player has
    chosen it and taken the token from him."""
    sc = buc()
    sc.state.buccaneer[BUC_TOKEN] = 0
    state = sc.state
    assert "r.buccaneer" not in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action("r.buccaneer"))
    assert err.value.code == "role_not_allowed"
    state = sc.act(state, 0, "r.prospector")
    assert "r.buccaneer" in sc.legal(state, 1)
    state = sc.act(state, 1, "r.buccaneer")
    assert state.buccaneer[BUC_TOKEN] == 1
    assert sc.events_of("BuccaneerTokenTaken")[-1].data == {"from": 0}
    assert sc.invariant_failures(state) == []


def test_no_doubloon_on_the_unchosen_buccaneer() -> None:
    """§12: if the Buccaneer was not chosen in a round, no doubloon is placed on it (the other
    unchosen roles get theirs, §3)."""
    sc = buc(players=3)
    state = sc.state
    for seat, role in enumerate(("captain", "trader", "craftsman")):
        state = sc.act(state, seat, f"r.{role}")
        state = sc.finish_phase(state)
    view = GAME.view(state, None)
    doubloons = {r["card"]: r["doubloons"] for r in view["roles"]}
    assert doubloons["buccaneer"] == 0
    assert doubloons["settler"] == doubloons["mayor"] == 1
    assert sc.invariant_failures(state) == []


# --- the four options ---------------------------------------------------------------------------


def test_piracy_empties_a_ship_and_keeps_up_to_three() -> None:
    """§12 Piracy: all goods of one cargo ship are removed; the Buccaneer keeps up to 3 (his
    choice, 0-3), the rest return to the supply (A35).  Only loaded ships are offered."""
    sc = buc()
    sc.ships([(5, "corn", 5), (6, None, 0), (7, "sugar", 2)])
    state = sc.state
    corn = state.goods[GOOD_INDEX["corn"]]
    state = sc.choose("buccaneer", 0)
    codes = sc.legal(state, 0)
    assert [c for c in codes if c.startswith("bu.piracy")] == [
        "bu.piracy.0.0",
        "bu.piracy.0.1",
        "bu.piracy.0.2",
        "bu.piracy.0.3",
        "bu.piracy.2.0",
        "bu.piracy.2.1",
        "bu.piracy.2.2",
    ]
    state = sc.act(state, 0, "bu.piracy.0.3")
    assert state.players[0].goods[GOOD_INDEX["corn"]] == 3
    assert state.goods[GOOD_INDEX["corn"]] == corn + 2
    assert state.ship_load[0] == 0 and state.ship_kind[0] == -1
    [event] = sc.events_of("ShipPirated")
    assert event.data == {"ship": 0, "good": "corn", "count": 5, "kept": 3}
    assert sc.invariant_failures(state) == []


def test_plunder_empties_the_trading_house_for_1_vp_each() -> None:
    """§12 Plunder: the trading house's goods go back to the supply; 1 VP each from the VP
    supply.  Not offered while the house is empty."""
    sc = buc()
    assert "bu.plunder" not in sc.legal(sc.choose("buccaneer", 0), 0)
    sc = buc()
    sc.house(["corn", "indigo", "coffee"])
    vp = sc.state.vp_supply
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.plunder")
    assert state.house == [] and state.players[0].vp == 3 and state.vp_supply == vp - 3
    assert sc.events_of("VpEarned")[-1].data == {"amount": 3, "reason": "plunder"}
    assert sc.invariant_failures(state) == []


def test_raid_keeps_up_to_three_placed_at_once_on_his_island() -> None:
    """§12 Raid, A34: the ship is reduced to N colonists; the Buccaneer keeps at most
    min(3, empty circles) of the removed ones and places them at once on empty circles (never
    San Juan); the rest go to the supply."""
    sc = buc()
    sc.player(0, tiles={"corn": 1, "indigo": 1}, buildings=["small_market"])
    sc.set_colonists(ship=9)
    supply = sc.state.colonist_supply
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.raid")
    assert state.colonist_ship == 4
    assert state.colonist_supply == supply + 2  # 5 removed, 3 kept
    assert sc.prompt(state) == Prompt((0,), "raid_place", False)
    assert sc.legal(state, 0) == ["raid.corn", "raid.indigo", "raid.small_market", "pass"]
    state = sc.act(state, 0, "raid.small_market")
    state = sc.act(state, 0, "raid.corn")
    part = GAME.view(state, None)["buccaneer"]
    assert part is not None and part["raid_to_place"] == 1
    state = sc.act(state, 0, "raid.indigo")
    p = state.players[0]
    assert p.san_juan == 0 and p.workers[GOOD_INDEX["corn"]] == 1
    assert sc.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_raid_limited_by_empty_circles_and_declining_returns_the_rest() -> None:
    """A34: no more kept pieces than empty circles; §12 "up to 3": ``pass`` sends the pieces
    not placed yet to the supply."""
    sc = buc()
    sc.player(0, tiles={"corn": 2})
    sc.set_colonists(ship=9)
    supply = sc.state.colonist_supply
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.raid")
    assert sc.events_of("ColonistShipRaided")[-1].data == {"removed": 5, "kept": 2}
    state = sc.act(state, 0, "pass")
    assert state.colonist_supply == supply + 5
    assert sc.invariant_failures(state) == []


def test_raid_does_nothing_when_the_ship_holds_n_or_fewer() -> None:
    """§12 Raid: nothing happens if the ship already holds N colonists or fewer."""
    sc = buc()
    sc.set_colonists(ship=4)
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.raid")
    assert state.colonist_ship == 4
    assert sc.prompt(state) == Prompt((1,), "role", False)


def test_capture_takes_the_doubloons_and_3_more_when_an_opponent_chooses_it() -> None:
    """§12 Capture, A33: the Buccaneer takes an unused role card's doubloons; it stays
    choosable, and an opponent who chooses it resolves it normally while the Buccaneer gets 3
    doubloons from the bank."""
    sc = buc()
    sc.role_doubloons("prospector", 2)
    sc.player(0, doubloons=0)
    sc.player(1, doubloons=0)
    state = sc.choose("buccaneer", 0)
    assert "bu.capture.buccaneer" not in sc.legal(state, 0)
    state = sc.act(state, 0, "bu.capture.prospector")
    assert state.players[0].doubloons == 2
    part = GAME.view(state, None)["buccaneer"]
    assert part is not None and part["captured"] == "prospector"
    state = sc.act(state, 1, "r.prospector")
    assert state.players[1].doubloons == 1  # the Prospector's privilege, no doubloons left on it
    assert state.players[0].doubloons == 5
    capture = [e for e in sc.events_of("DoubloonsEarned") if e.data["reason"] == "capture"]
    assert [(e.seat, e.data["amount"]) for e in capture] == [(0, 3)]
    assert sc.invariant_failures(state) == []


def test_capture_unchosen_role_is_played_by_the_buccaneer_at_round_end() -> None:
    """§12 Capture, A33, Appendix C end of round step 1: a captured role nobody chose is played
    by the Buccaneer as its chooser after the last pick (his privilege, then everybody's turn
    clockwise from him); then the round ends (no doubloon on it: it was chosen)."""
    sc = buc()
    sc.player(0, doubloons=0)
    sc.player(1, doubloons=0)
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.capture.builder")
    for seat, role in ((1, "trader"), (2, "craftsman")):
        state = sc.act(state, seat, f"r.{role}")
        state = sc.finish_phase(state)
    state = sc.act(state, 3, "r.prospector")  # the round's last pick
    played = sc.events_of("CapturedRolePlayed")
    assert [(e.seat, e.data) for e in played] == [(0, {"role": "builder", "card": "builder"})]
    assert state.chooser == 0 and sc.prompt(state) == Prompt((0,), "build", False)
    assert "b.small_indigo_plant" in sc.legal(state, 0)  # cost 1 - privilege 1 = 0
    state = sc.act(state, 0, "b.small_indigo_plant")
    assert state.players[0].doubloons == 0
    # clockwise from the Buccaneer: seat 1 has no money (skipped), seat 2 may build
    assert sc.prompt(state) == Prompt((2,), "build", False)
    state = sc.finish_phase(state)
    assert state.round == 2 and state.governor == 1
    part = GAME.view(state, None)["buccaneer"]
    assert part is not None and part["captured"] is None
    assert sc.invariant_failures(state) == []


def test_two_players_the_buccaneer_may_choose_his_captured_role_without_bonus() -> None:
    """§12 with 2 players ([A]: the Buccaneer is allowed), engine choice of buccaneer.py: each
    player picks three roles a round, so the Buccaneer may choose the card he captured himself;
    the 3 doubloons are only for an opponent's choice."""
    sc = buc(players=2)
    sc.player(0, doubloons=0)
    state = sc.choose("buccaneer", 0)
    state = sc.act(state, 0, "bu.capture.prospector")
    state = sc.act(state, 1, "r.trader")
    state = sc.finish_phase(state)
    assert "r.prospector" in sc.legal(state, 0)
    state = sc.act(state, 0, "r.prospector")
    assert state.players[0].doubloons == 1  # the privilege only
    assert not [e for e in sc.events_of("DoubloonsEarned") if e.data["reason"] == "capture"]
    assert sc.invariant_failures(state) == []


# --- invariants, heuristic ----------------------------------------------------------------------


def test_invariants_never_a_doubloon_on_the_buccaneer() -> None:
    """§12: the Buccaneer card never carries a doubloon."""
    sc = buc()
    sc.role_doubloons("buccaneer", 1)
    assert "buccaneer:doubloons" in sc.invariant_failures(sc.state)


def test_heuristic_plunders_a_full_house() -> None:
    """The heuristic knows the Buccaneer: with 4 barrels in the trading house and nothing else
    to gain it plunders."""
    sc = buc()
    sc.house(["corn", "indigo", "sugar", "coffee"])
    sc.set_colonists(ship=4)
    state = sc.choose("buccaneer", 0)
    ai = PuertoRicoHeuristic(3)
    choice = ai.choose(GAME, state, 0, GAME.legal_actions(state, 0))
    assert choice.code == "bu.plunder"


# --- random playouts (the generic properties, until the sets join ``option_sets``) -------------


@pytest.mark.parametrize("options", first_and_last(  # the fast tier: the first and last sets
    [pytest.param(o, id=str(o)) for o in BUCCANEER_OPTION_SETS], group=lambda p: None))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_buccaneer_playouts_hold_every_invariant(options: dict[str, object], policy: str) -> None:
    """Issue #11 properties for the Buccaneer's module sets: the validating path with every
    invariant after every action; fast games that end cleanly and replay to the same state."""
    players = int(str(options["players"]))
    checked = simulate("puerto-rico", players, 3, 77, [policy], check=True, options=options)
    assert checked["failures"] == [] and checked["invariant_failures"] == 0
    opts = GAME.normalize_options(options)
    for i in range(6):
        seed = 500 + i
        policies = [
            make_policy(policy, "puerto-rico", policy_seed(seed, s)) for s in range(players)
        ]
        result = play_game(GAME, opts, seed, policies)
        assert result.failures == [] and GAME.invariants(result.final) == []
        outcome = GAME.outcome(result.final)
        assert outcome is not None and outcome.winners
        replayed, _ = replay("puerto-rico", opts, seed, result.actions)
        assert canonical_json(GAME.dump(replayed)) == canonical_json(GAME.dump(result.final))


@pytest.mark.parametrize(
    "value",
    [[5, -1, -1, 0], [-1, 3, -1, 0], [-1, 99, 0, 0], [-1, -1, -1, 2], [-1, -1, -1], "x"],
)
def test_corrupted_buccaneer_saves_raise_corrupt_state(value: object) -> None:
    """Fuzz (ARCHITECTURE.md layer 4): a save with an impossible token holder, capture or Raid
    count raises only CorruptState."""
    dumped = GAME.dump(GAME.setup({"players": 4, **BUCCANEER}, 2))
    dumped["buccaneer"] = value
    with pytest.raises(CorruptState):
        GAME.load(dumped)
