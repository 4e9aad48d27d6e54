"""Expansion 2, The Nobles: the pieces (rules spec §11.1, rulings A19-A21 and A54 of §14.3,
Appendix C; the seed [A] "Expansión 2: Los Nobles", which wins where the two disagree).

Nobles are a second kind of colonist: the supply of 20, the colonist ship, the Mayor's
distribution and arrangement, final scoring, the view, saves and invariants.  Each test names the
rule it checks.  The buildings are in ``test_nobles_buildings.py``, the other modules with the
Nobles in ``test_nobles_modules.py``.
"""

from __future__ import annotations

import pytest

import engine.puerto_rico.ruleset as ruleset_module
from engine.core import CorruptState, InvalidSetup, Prompt
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.data import COLONISTS_TOTAL, GOOD_INDEX, NOBLES_TOTAL
from engine.puerto_rico.scoring import final_scores, score_breakdown
from engine.puerto_rico.state import NOB_SHIP, NOB_SUPPLY
from tests.engine.puerto_rico.nobles_scenario import (
    NOBLES,
    kind_of,
    nob,
    noble_count,
    noble_supplies,
    nobles,
    seats_of,
)
from tests.engine.puerto_rico.scenario import GAME, Scenario

INDIGO = GOOD_INDEX["indigo"]


# --- the option and setup (§11.1, A20, A21) ----------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_20_nobles_all_100_colonists_and_a_noble_on_the_ship(players: int) -> None:
    """§11.1: the 20 nobles go beside the colonist supply, every one of the 100 colonists goes
    into the supply ("se utilizan todos los trabajadores", [A]) and the ship is filled by the
    base rules with one of its N pieces a noble: N - 1 colonists + 1 noble."""
    state = GAME.setup({"players": players, **NOBLES}, 1)
    assert state.colonist_ship == players - 1
    assert state.colonist_supply == COLONISTS_TOTAL - (players - 1)
    assert state.nobles[NOB_SUPPLY] == NOBLES_TOTAL - 1 and state.nobles[NOB_SHIP] == 1
    assert all(sum(p.nobles) == 0 for p in state.players)
    view = GAME.view(state, None)
    assert view["nobles"] == {"supply": 19, "ship": 1, "raid_to_place": 0}
    assert view["colonists"] == {"ship": players - 1, "supply": 100 - (players - 1)}
    assert GAME.invariants(state) == []


def test_two_players_supply_40_and_ship_one_colonist_one_noble_a20() -> None:
    """A20 (2 players + Nobles): the expansion setup first, then the 2-player changes: supply
    40 colonists, ship 1 colonist + 1 noble."""
    state = GAME.setup({"players": 2, **NOBLES}, 1)
    assert (state.colonist_supply, state.colonist_ship) == (40, 1)
    assert state.nobles[:2] == [19, 1]
    assert GAME.invariants(state) == []


@pytest.mark.parametrize("players", [2, 4])
def test_without_exp1_every_nobles_building_is_in_the_market_a21(players: int) -> None:
    """A21 without Exp. 1: all Exp. 2 buildings join the market: 2 copies of each small
    violet one (1 with 2 players), the Jeweler twice (a production building keeps both copies
    with 2 players, §11.2), 1 Royal Garden."""
    state = GAME.setup({"players": players, **NOBLES}, 1)
    market = {m["building"]: m["left"] for m in GAME.view(state, None)["market"]}
    small = 1 if players == 2 else 2
    for name in ("land_office", "chapel", "hunting_lodge", "zoning_office", "royal_supplier"):
        assert market[name] == small
    assert market["villa"] == small
    assert market["jeweler"] == 2 and market["royal_garden"] == 1
    assert market["harbor"] == small  # the base market is unchanged


def test_with_exp1_the_draft_fills_the_red_spaces_and_the_jeweler_is_in_the_market_a21() -> None:
    """A21 with Exp. 1: one red space per Exp. 2 violet building (24 spaces in all); the
    Jeweler is always in the market (production buildings are not drafted)."""
    state = GAME.setup({"players": 3, "modules": ["new_buildings", "nobles"]}, 2)
    assert sum(state.draft_left) == 24
    market = {m["building"] for m in GAME.view(state, None)["market"]}
    assert "jeweler" in market and "villa" not in market
    draft = {a.code for a in GAME.legal_actions(state, 0)}
    assert {"d.villa", "d.royal_garden", "d.land_office", "d.harbor"} <= draft


def test_module_not_available_still_refuses_a_module_not_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #11: the Nobles are playable now (all four expansions are built); a module that is
    not built raises ``module_not_available``."""
    assert "nobles" in ruleset_module.AVAILABLE_MODULES
    GAME.setup({"players": 3, "modules": ["nobles", "festival"]}, 1)
    monkeypatch.setattr(ruleset_module, "AVAILABLE_MODULES", frozenset({"festival"}))
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": 3, "modules": ["nobles", "festival"]}, 1)
    assert err.value.code == "module_not_available"


def test_saves_store_the_nobles_only_with_the_module() -> None:
    """Dumps of games without the module stay as they were (no ``nobles`` key anywhere); with
    it the supply/ship/Raid/Hunting Lodge list and each player's nobles per place round-trip."""
    base = GAME.dump(GAME.setup({"players": 3}, 4))
    assert "nobles" not in base and all("nobles" not in p for p in base["players"])
    sc = nob(players=3)
    sc.player(0, tiles={"corn": (2, 2)}, buildings={"chapel": 1}, san_juan=1)
    nobles(sc, 0, corn=1, chapel=1, san_juan=1)
    dumped = GAME.dump(sc.state)
    assert dumped["nobles"] == [16, 1, 0, 0]
    assert dumped["players"][0]["nobles"] == {
        "tiles": {"corn": 1},
        "city": {"chapel": 1},
        "san_juan": 1,
    }
    assert dumped["players"][1]["nobles"] == {"tiles": {}, "city": {}, "san_juan": 0}
    assert GAME.dump(GAME.load(dumped)) == dumped


# --- the colonist ship (§11.1) -------------------------------------------------------------------


def _finish_mayor(sc: Scenario, seat: int = 0) -> None:
    state = sc.choose("mayor", seat)
    sc.finish_phase(state)


def test_refill_puts_one_noble_among_the_r_pieces() -> None:
    """§11.1, Appendix C Mayor step 5: R = max(N, empty building circles) pieces, one of them a
    noble while nobles remain ("se sustituye un trabajador por un Noble", [A])."""
    sc = nob()
    for seat in range(4):
        sc.player(seat, buildings=["small_market", "hacienda"])
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    _finish_mayor(sc)
    state = sc.state
    # 8 empty building circles (the Mayor passed on his privilege): 7 colonists and a noble
    [refill] = sc.events_of("ColonistShipRefilled")
    assert refill.data == {"count": 7, "needed": 8, "nobles": 1}
    assert (state.colonist_ship, state.nobles[NOB_SHIP]) == (7, 1)
    assert sc.invariant_failures(state) == []


def test_refill_without_nobles_left_is_all_colonists() -> None:
    """§11.1: "siempre y cuando queden Nobles en la reserva": no noble left, all R pieces are
    colonists."""
    sc = nob()
    noble_supplies(sc, supply=0, ship=0)
    sc.set_colonists(ship=0)
    _finish_mayor(sc)
    assert sc.events_of("ColonistShipRefilled")[-1].data == {
        "count": 4,
        "needed": 4,
        "nobles": 0,
    }
    assert sc.state.nobles[NOB_SHIP] == 0


def test_e1_colonist_shortage_is_not_used() -> None:
    """§11.1 ([A]: "NO se utiliza la siguiente condición de Fin de la Partida"): a colonist
    supply too short for the refill puts what is left on the ship and ends nothing."""
    sc = nob()
    sc.set_colonists(supply=2, ship=0)
    noble_supplies(sc, ship=0)
    _finish_mayor(sc)
    state = sc.state
    assert state.end_reasons == []
    assert not sc.events_of("EndTriggered")
    assert (state.colonist_supply, state.colonist_ship, state.nobles[NOB_SHIP]) == (0, 2, 1)
    assert sc.invariant_failures(state) == []


# --- the Mayor's distribution (A19) --------------------------------------------------------------


def test_mayor_distribution_each_taker_chooses_noble_or_colonist_a19() -> None:
    """A19: when a player takes a piece from the ship while both kinds are on it, he chooses the
    noble or a colonist (one at a time clockwise from the Mayor, §4.2): the Mayor takes a
    colonist, the next player the noble, and the rest is handed out without a question."""
    sc = nob()
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")  # no privilege colonist
    assert sc.prompt(state) == Prompt((0,), "noble_or_colonist", False)
    assert sc.legal(state, 0) == ["n.noble", "n.colonist"]
    state = sc.act(state, 0, "n.colonist")
    assert sc.prompt(state) == Prompt((1,), "noble_or_colonist", False)
    state = sc.act(state, 1, "n.noble")
    [gained] = sc.events_of("NobleGained")
    assert (gained.seat, gained.data) == (
        1,
        {"target": "san_juan", "source": "ship", "by": "mayor"},
    )
    [shares] = sc.events_of("ColonistsDistributed")
    assert shares.data == {"shares_from_mayor": [1, 1, 1, 1]}
    # seat 1's only circle is his indigo plantation: the noble works it
    assert noble_count(state, 1, "indigo") == 1 and noble_count(state, 0, "indigo") == 0
    assert sc.invariant_failures(state) == []


def test_mayor_distribution_takes_in_turn_past_the_table() -> None:
    """§4.2 with A19: with 6 pieces and 4 players the Mayor takes the 1st and 5th pieces; a
    noble nobody took by then is his choice again."""
    sc = nob()
    sc.set_colonists(ship=5)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    for seat in (0, 1, 2, 3):
        state = sc.act(state, seat, "n.colonist")
    assert sc.prompt(state) == Prompt((0,), "noble_or_colonist", False)
    state = sc.act(state, 0, "n.colonist")  # the last colonist: seat 1 gets the noble
    assert [e.seat for e in sc.events_of("NobleGained")] == [1]
    assert sc.events_of("ColonistsDistributed")[-1].data == {"shares_from_mayor": [2, 2, 1, 1]}
    assert sc.invariant_failures(state) == []


def test_no_question_when_the_ship_holds_one_kind() -> None:
    """A19 asks only at a real choice: a ship of nobles only (or colonists only) is handed out
    as in the base game."""
    sc = nob()
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=2)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert kind_of(state) != "noble_or_colonist"
    assert [e.seat for e in sc.events_of("NobleGained")] == [0, 1]
    assert sc.invariant_failures(state) == []


def test_mayor_privilege_hospice_and_university_give_colonists_only_a19() -> None:
    """A19: the Mayor's privilege, the Hospice and the University name colonists: they give
    colonists, never a noble (with no colonist in the supply nor on the ship, the Hospice and
    University offers are not made even when a noble is on the ship)."""
    sc = nob()
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "m.privilege")
    assert state.nobles[NOB_SUPPLY] == 19 and sum(state.players[0].nobles) == 0
    sc = nob()
    sc.player(0, buildings={"hospice": 1}, doubloons=20)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "coffee"])
    sc.set_colonists(supply=0, ship=0)
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    assert kind_of(state) != "hospice"
    sc = nob()
    sc.player(0, buildings={"university": 1}, doubloons=20)
    sc.set_colonists(supply=0, ship=0)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.harbor")
    assert kind_of(state) != "university"
    assert state.nobles[NOB_SHIP] == 1
    sc = nob()
    sc.player(0, buildings={"university": 1}, doubloons=20)
    sc.set_colonists(supply=1)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.harbor")
    state = sc.act(state, 0, "o.university")
    assert state.players[0].bw[BUILDING_INDEX["harbor"]] == 1
    assert noble_count(state, 0, "harbor") == 0 and state.nobles[NOB_SHIP] == 1
    assert sc.invariant_failures(state) == []


# --- the arrangement (§4.2 with nobles) ------------------------------------------------------


def test_where_the_nobles_go_is_a_choice_mn_places_a_noble() -> None:
    """§11.1 nobles are placed like colonists; with nobles and colonists that could go to more
    than one place the player is asked even when his pieces fill every circle (which circles
    get nobles is a choice).  ``mn.<place>`` places a noble, ``m.<place>`` a colonist."""
    sc = nob()
    sc.player(1, tiles={"corn": (1, 1)}, buildings={"chapel": 0}, san_juan=1)
    nobles(sc, 1, corn=1)
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert 1 in seats_of(state) and kind_of(state) == "arrange"
    assert sc.legal(state, 1) == ["m.auto", "m.corn", "m.chapel", "mn.corn", "mn.chapel"]
    state = sc.act(state, 1, "mn.chapel")
    assert sc.legal(state, 1) == ["m.auto", "m.corn"]  # a colonist waits in San Juan
    state = sc.act(state, 1, "m.corn")
    assert noble_count(state, 1, "chapel") == 1 and noble_count(state, 1, "corn") == 0
    assert sc.invariant_failures(state) == []


def test_where_the_nobles_go_is_no_question_without_a_noble_function() -> None:
    """§11.1: a noble works like a colonist on every building but those with a noble function
    (Land Office, Chapel, Hunting Lodge, Zoning Office) and counts wherever it stands, so a
    player without one is not asked where his nobles go: every circle filled, no prompt; with
    fewer pieces than circles he is asked as in the base game, nobles placed first."""
    sc = nob()
    sc.player(1, tiles={"corn": (1, 1)}, buildings={"harbor": 0}, san_juan=1)
    nobles(sc, 1, corn=1)
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert kind_of(state) == "role"
    p = state.players[1]
    assert p.workers[GOOD_INDEX["corn"]] == 1 and p.bw[BUILDING_INDEX["harbor"]] == 1
    assert sum(p.nobles) == 1
    sc = nob()
    sc.player(1, tiles={"corn": 2}, buildings={"harbor": 0}, san_juan=2)
    nobles(sc, 1, san_juan=1)
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert sc.legal(state, 1) == ["m.auto", "mn.corn", "mn.harbor"]
    state = sc.act(state, 1, "mn.harbor")
    assert sc.legal(state, 1) == ["m.auto", "m.corn"]
    assert sc.invariant_failures(state) == []


def test_must_fill_with_nobles_only_nobles_left_offers_no_colonist_placement() -> None:
    """§4.2 must-fill rule with nobles: while circles are free every piece must go on one; once
    only nobles wait in San Juan, only noble placements are offered."""
    sc = nob()
    sc.player(1, tiles={"corn": 2}, buildings={"chapel": 0}, san_juan=2)
    nobles(sc, 1, san_juan=2)
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert sc.legal(state, 1) == ["m.auto", "mn.corn", "mn.chapel"]
    state = sc.act(state, 1, "mn.chapel")
    state = sc.act(state, 1, "mn.corn")
    p = state.players[1]
    assert p.san_juan == 0 and p.workers[GOOD_INDEX["corn"]] == 1
    assert sc.invariant_failures(state) == []


def test_no_question_when_the_nobles_have_one_place() -> None:
    """§4.2: no choice, no prompt: nobles only and enough circles, or every piece on one
    place (all the room on one kind of tile)."""
    sc = nob()
    sc.player(1, tiles={"corn": 3}, san_juan=2)
    nobles(sc, 1, san_juan=1)
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert kind_of(state) == "role"
    assert state.players[1].workers[0] == 2 and noble_count(state, 1, "corn") == 1
    assert sc.invariant_failures(state) == []


def test_m_auto_puts_a_noble_on_the_chapel() -> None:
    """``m.auto`` suggests: the base arrangement of the pieces, then the nobles on the buildings
    whose noble function serves better (Chapel: 1 VP rather than 1 doubloon)."""
    sc = nob()
    sc.player(1, tiles={"corn": (1, 1)}, buildings={"chapel": 1})
    nobles(sc, 1, corn=1)
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "m.auto")
    assert noble_count(state, 1, "chapel") == 1 and noble_count(state, 1, "corn") == 0
    assert sc.invariant_failures(state) == []


def test_nobles_occupy_and_produce_like_colonists() -> None:
    """§11.1: a noble occupies a tile or building like a colonist: nobles on an indigo
    plantation and on the Indigo Plant produce indigo."""
    sc = nob()
    sc.player(0, tiles={"indigo": (2, 2)}, buildings={"indigo_plant": 2})
    nobles(sc, 0, indigo=2, indigo_plant=1)
    state = sc.choose("craftsman", 0)
    assert state.players[0].goods[INDIGO] == 2
    assert sc.invariant_failures(state) == []


def test_fortress_counts_nobles_a19() -> None:
    """A19: nobles count for the Fortress (1 VP per 3 pieces on the board)."""
    sc = nob()
    sc.player(0, tiles={"corn": (2, 2)}, buildings={"fortress": 1}, san_juan=3)
    nobles(sc, 0, corn=2, san_juan=2)
    assert score_breakdown(sc.state, 0)["fortress"] == 2


# --- final scoring (A54) --------------------------------------------------------------------


def test_one_vp_per_noble_on_the_board_san_juan_included_a54() -> None:
    """§11.1, A54: 1 VP per noble on the player's board, San Juan included, in the breakdown
    under ``nobles``."""
    sc = nob()
    sc.player(0, tiles={"corn": (1, 1)}, buildings={"harbor": 1}, san_juan=2, vp=5)
    nobles(sc, 0, corn=1, harbor=1, san_juan=1)
    line = final_scores(sc.state).scores[0]
    assert line.breakdown["nobles"] == 3
    assert line.total == 5 + CATALOG[BUILDING_INDEX["harbor"]].vp + 3
    assert final_scores(sc.state).scores[1].breakdown["nobles"] == 0
    base = Scenario()
    assert "nobles" not in final_scores(base.state).scores[0].breakdown


# --- view and invariants ----------------------------------------------------------------------


def test_view_shows_each_players_nobles_by_place() -> None:
    """The public view shows the nobles: supply, ship, Raid (``nobles``), and for each player
    his total and San Juan's, each island tile's ``noble`` and each building's ``nobles``;
    without the module the view is unchanged (``nobles`` null, no per-player key)."""
    sc = nob()
    sc.player(0, tiles={"corn": (2, 2)}, buildings={"chapel": 1}, san_juan=1)
    nobles(sc, 0, corn=1, chapel=1)
    view = GAME.view(sc.state, None)
    me = view["players"][0]
    assert me["nobles"] == {"total": 2, "san_juan": 0}
    assert [t["noble"] for t in me["island"]] == [True, False]
    assert me["city"][0]["nobles"] == 1
    assert view["players"][1]["nobles"] == {"total": 0, "san_juan": 0}
    base = GAME.view(GAME.setup({"players": 4}, 0), None)
    assert base["nobles"] is None
    assert "nobles" not in base["players"][0]
    assert "noble" not in base["players"][0]["island"][0]


@pytest.mark.parametrize(
    ("change", "failure"),
    [
        (lambda s: s.nobles.__setitem__(NOB_SUPPLY, 18), "conservation:nobles"),
        (lambda s: s.players[0].nobles.__setitem__(0, 1), "player:0:nobles"),
        (lambda s: s.players[0].nobles.__setitem__(-1, 1), "player:0:nobles"),
        (lambda s: s.nobles.__setitem__(3, 2), "nobles:lodge"),
    ],
)
def test_invariants_catch_a_noble_out_of_place(change: object, failure: str) -> None:
    """Invariants: 20 nobles in all (supply, ship, Raid, boards); never more nobles on a place
    than pieces; the Hunting Lodge's progress only at the end of a Settler phase."""
    state = GAME.setup({"players": 3, **NOBLES}, 1)
    assert callable(change)
    change(state)
    assert any(f.startswith(failure) for f in GAME.invariants(state))


def test_invariants_conserve_colonists_with_nobles() -> None:
    """Invariants: with the module the colonists are counted apart from the nobles (100 in all;
    41 with 2 players, A20)."""
    state = GAME.setup({"players": 2, **NOBLES}, 1)
    state.colonist_supply += 1
    assert any(f.startswith("conservation:colonists") for f in GAME.invariants(state))


@pytest.mark.parametrize(
    "value",
    [[20, 1, 0, 0], [19, -1, 0, 0], [19, 1, 1, 0], [19, 1], "x", [19, 1, 0, 9]],
)
def test_corrupted_nobles_saves_raise_corrupt_state(value: object) -> None:
    """Fuzz (ARCHITECTURE.md layer 4): a save with impossible nobles raises only
    CorruptState."""
    dumped = GAME.dump(GAME.setup({"players": 4, **NOBLES}, 2))
    dumped["nobles"] = value
    with pytest.raises(CorruptState):
        GAME.load(dumped)


@pytest.mark.parametrize(
    "value",
    [
        {"tiles": {"corn": 1}, "city": {}, "san_juan": 0},
        {"tiles": {}, "city": {"sugar_mill": 1}, "san_juan": 0},
        {"tiles": {}, "city": {"no_such_building": 1}, "san_juan": 0},
        {"tiles": {}, "city": {}, "san_juan": 1},
        {"tiles": {"forest": 1}, "city": {}, "san_juan": 0},
        {"tiles": {}, "city": "x", "san_juan": 0},
        {"tiles": {}, "city": {}},
        [0, 0],
    ],
)
def test_corrupted_player_nobles_raise_corrupt_state(value: object) -> None:
    """Fuzz: a player's nobles on a place without a piece, on a building he does not own or in
    a malformed entry raise only CorruptState."""
    dumped = GAME.dump(GAME.setup({"players": 4, **NOBLES}, 2))
    dumped["players"][0]["nobles"] = value
    with pytest.raises(CorruptState):
        GAME.load(dumped)


def test_a_save_without_the_players_nobles_is_corrupt() -> None:
    """Saves: the module's fields exist exactly when the module is in play."""
    dumped = GAME.dump(GAME.setup({"players": 4, **NOBLES}, 2))
    del dumped["players"][1]["nobles"]
    with pytest.raises(CorruptState):
        GAME.load(dumped)
    dumped = GAME.dump(GAME.setup({"players": 4, **NOBLES}, 2))
    del dumped["nobles"]
    with pytest.raises(CorruptState):
        GAME.load(dumped)
    base = GAME.dump(GAME.setup({"players": 4}, 2))
    base["nobles"] = [19, 1, 0, 0]
    with pytest.raises(CorruptState):
        GAME.load(base)
