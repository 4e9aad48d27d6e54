"""Mayor phase (rules spec §4.2): T-MAY-1..5 and rulings A4 and A17 (placement order: the engine
places simultaneously by default, as [C] l.192 says is normal; the option
``{"mayor_placement": "sequential"}`` gives A17's Mayor-first clockwise order).
Sources: classic rulebook [C], 2020 rulebook [A]."""

from __future__ import annotations

import pytest

from engine.core import NotYourTurn, Prompt
from engine.puerto_rico.data import COFFEE, CORN, INDIGO, QUARRY
from engine.puerto_rico.state import GAME_OVER, State
from tests.engine.puerto_rico.scenario import GAME, Scenario, building


def test_t_may_1_distribution_example() -> None:
    """T-MAY-1 (§4.2, example in [C]): 4 players, 6 colonists on the ship: the Mayor takes 1
    (privilege, from the supply) + 2, the seat to his left 2, the third and fourth seats 1 each;
    the ship is then empty until the refill."""
    sc = Scenario(players=4)
    sc.set_colonists(ship=6)
    supply = sc.state.colonist_supply
    state = sc.choose("mayor", 0)
    assert GAME.prompt(state) == Prompt((0,), "mayor_privilege", False)
    assert sc.legal(state, 0) == ["m.privilege", "pass"]
    state = sc.act(state, 0, "m.privilege")
    assert [p.colonists() for p in state.players] == [3, 2, 1, 1]
    assert sc.events_of("ColonistsDistributed")[-1].data == {"shares_from_mayor": [2, 2, 1, 1]}
    # each player has a single circle (the starting plantation): filled, the rest in San Juan
    assert [p.san_juan for p in state.players] == [2, 1, 0, 0]
    # refill: no building circles, so R = max(4, 0) = 4, from the supply
    assert state.colonist_ship == 4
    assert state.colonist_supply == supply - 1 - 4
    assert sc.invariant_failures(state) == []


def _refill_after(empty_circles: dict[int, list[str]]) -> tuple[Scenario, int]:
    sc = Scenario(players=4)
    sc.set_colonists(ship=0)
    for seat, names in empty_circles.items():
        sc.player(seat, buildings=names)
    supply = sc.state.colonist_supply
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")  # no privilege colonist: nobody owns a colonist
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert supply - state.colonist_supply == state.colonist_ship
    return sc, state.colonist_ship


def test_t_may_2_refill() -> None:
    """T-MAY-2 (§4.2 step 4 [C], [A]): R = max(N, E), E = empty circles on the buildings of all
    players after placement (plantation circles do not count).  E = 0 + 1 + 0 + 1 = 2 → 4;
    E = 7 → 7."""
    sc, refill = _refill_after({1: ["small_market"], 3: ["hacienda"]})
    assert refill == 4
    assert sc.events_of("ColonistShipRefilled")[-1].data == {"count": 4, "needed": 4}
    sc, refill = _refill_after(
        {1: ["coffee_roaster", "sugar_mill", "small_market"], 3: ["hacienda"]}
    )
    assert refill == 7
    assert sc.invariant_failures(sc.state) == []


def test_t_may_3_shortage() -> None:
    """T-MAY-3 (§4.2 step 4, §7.1 E1 [C]; ruling A4): 3 players, E = 6 after placement, 4
    colonists in the supply: the end is triggered, all 4 go on the ship (supply 0), and the
    round continues to its end."""
    sc = Scenario(players=3)
    sc.set_colonists(supply=4, ship=0)
    sc.player(1, buildings=["sugar_mill", "indigo_plant"])
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert state.end_reasons == ["colonists"]
    assert state.colonist_ship == 4 and state.colonist_supply == 0
    assert sc.events_of("ColonistShipRefilled")[-1].data == {"count": 4, "needed": 6}
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert GAME.outcome(state) is None
    state = sc.act(state, 1, "r.trader")
    state = sc.finish_phase(state)
    state = sc.act(state, 2, "r.builder")
    state = sc.finish_phase(state)
    assert state.phase == GAME_OVER
    assert sc.invariant_failures(state) == []


def test_t_may_4_must_fill() -> None:
    """T-MAY-4 (§4.2 step 3 [C], [A]): a player with 3 colonists (2 on tiles, 1 new) and 4
    circles must put all 3 on circles (he chooses which circle stays empty; he cannot stop
    early); a player with 6 colonists and 4 circles fills all 4 and keeps 2 in San Juan."""
    sc = Scenario(players=4)
    sc.set_colonists(ship=4)
    sc.player(1, tiles={"corn": (2, 2), "indigo": 1}, buildings={"small_indigo_plant": 0})
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((1,), "arrange", False)
    p = state.players[1]
    assert p.san_juan == 3 and sum(p.workers) == 0  # lifted to San Juan to rearrange
    assert sc.legal(state, 1) == ["m.auto", "m.corn", "m.indigo", "m.small_indigo_plant"]
    state = sc.act(state, 1, "m.indigo")
    state = sc.act(state, 1, "m.small_indigo_plant")
    assert GAME.prompt(state) == Prompt((1,), "arrange", False)
    assert "pass" not in sc.legal(state, 1)  # cannot leave the last colonist in San Juan
    state = sc.act(state, 1, "m.corn")
    p = state.players[1]
    assert p.san_juan == 0
    assert p.workers[CORN] == 1 and p.workers[INDIGO] == 1
    assert p.bw[building("small_indigo_plant")] == 1
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []

    # 6 colonists, 4 circles: no choice, so no prompt; 2 stay in San Juan
    sc = Scenario(players=4)
    sc.set_colonists(ship=4)
    sc.player(1, tiles={"corn": (2, 2), "indigo": 1}, buildings={"small_indigo_plant": 0})
    sc.player(1, san_juan=3)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    p = state.players[1]
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert p.workers[CORN] == 2 and p.workers[INDIGO] == 1
    assert p.bw[building("small_indigo_plant")] == 1
    assert p.san_juan == 2
    assert sc.invariant_failures(state) == []


def test_t_may_5_empty_supply() -> None:
    """T-MAY-5 (§4.2 [C], [A]): supply 0 at the start of the phase: no privilege colonist (no
    prompt for it), the normal distribution from the ship, no refill, end trigger set."""
    sc = Scenario(players=4)
    sc.set_colonists(supply=0, ship=5)
    state = sc.choose("mayor", 0)
    assert [p.colonists() for p in state.players] == [2, 1, 1, 1]
    assert state.colonist_ship == 0 and state.colonist_supply == 0
    assert state.end_reasons == ["colonists"]
    assert not sc.events_of("ColonistGained")
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_a4_short_refill_moves_every_remaining_colonist_and_sets_e1() -> None:
    """Ruling A4 (§4.2 step 4, §14.1; [C] says the game ends, nothing about a partial supply):
    move all remaining colonists to the ship and set E1.  Here R = max(4, 0) = 4 with 2 left.
    The ship's colonists still serve the Hospice fallback in the same round."""
    sc = Scenario(players=4)
    sc.player(1, buildings={"hospice": 1})
    sc.set_colonists(supply=3, ship=0)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "m.privilege")  # supply 3 -> 2
    # seat 1 has 1 colonist for 2 circles (indigo, Hospice): his choice
    assert GAME.prompt(state) == Prompt((1,), "arrange", False)
    state = sc.act(state, 1, "m.hospice")
    assert state.colonist_ship == 2 and state.colonist_supply == 0
    assert state.end_reasons == ["colonists"]
    state = sc.act(state, 1, "r.settler")
    state = sc.act(state, 1, "s.coffee")
    state = sc.act(state, 1, "o.hospice")
    assert state.colonist_ship == 1
    assert sc.invariant_failures(state) == []


def _two_choosers() -> tuple[Scenario, State]:
    """4 players, default options; seats 1 and 3 have a real choice (fewer colonists than
    circles, several places); seats 0 and 2 have none."""
    sc = Scenario(players=4)
    sc.set_colonists(ship=4)
    for seat in (1, 3):
        sc.player(seat, tiles={"coffee": 1, "corn": 1}, buildings={"coffee_roaster": 0})
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    return sc, state


def test_a17_mayor_placement_is_simultaneous_by_default() -> None:
    """Ruling A17 (§4.2 step 3; [C] l.192 simultaneous is normal, [A] likewise): by default the
    prompt names every seat with a real choice, and no other seat; they may answer in any order;
    seats with no choice were filled automatically."""
    sc, state = _two_choosers()
    assert state.options["mayor_placement"] == "simultaneous"
    assert GAME.prompt(state) == Prompt((1, 3), "arrange", False)
    assert sc.legal(state, 0) == [] and sc.legal(state, 2) == []
    assert state.players[0].workers[INDIGO] == 1 and state.players[2].workers[CORN] == 1
    assert sc.legal(state, 3) == ["m.auto", "m.corn", "m.coffee", "m.coffee_roaster"]
    # seat 3 answers first: one colonist, so the single placement finishes his arrangement
    state = sc.act(state, 3, "m.coffee")
    assert GAME.prompt(state) == Prompt((1,), "arrange", False)
    state = sc.act(state, 1, "m.auto")
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.players[3].workers[COFFEE] == 1
    assert sum(state.players[1].workers) + state.players[1].bw[building("coffee_roaster")] == 1
    assert sc.invariant_failures(state) == []


def test_a17_mayor_placement_sequential_option_mayor_first_then_clockwise() -> None:
    """Ruling A17 (§14.1): with ``mayor_placement: sequential`` the seats with a real choice
    place one after the other, Mayor first, then clockwise; a later seat cannot act early."""
    sc = Scenario(players=4, mayor_placement="sequential")
    sc.set_colonists(ship=4)
    for seat in (0, 1, 3):
        sc.player(seat, tiles={"coffee": 1, "corn": 1}, buildings={"coffee_roaster": 0})
    state = sc.choose("mayor", 1)  # the Mayor is seat 1: order 1, 3, 0 (seat 2 has no choice)
    state = sc.act(state, 1, "pass")
    assert GAME.prompt(state) == Prompt((1,), "arrange", False)
    assert sc.legal(state, 3) == [] and sc.legal(state, 0) == []
    with pytest.raises(NotYourTurn):
        sc.act(state, 3, "m.coffee")
    state = sc.act(state, 1, "m.coffee")
    assert GAME.prompt(state) == Prompt((3,), "arrange", False)
    state = sc.act(state, 3, "m.corn")
    assert GAME.prompt(state) == Prompt((0,), "arrange", False)
    state = sc.act(state, 0, "m.coffee_roaster")
    assert GAME.prompt(state) == Prompt((2,), "role", False)
    assert state.players[1].workers[COFFEE] == 1
    assert state.players[3].workers[CORN] == 1
    assert state.players[0].bw[building("coffee_roaster")] == 1
    assert sc.invariant_failures(state) == []


def test_mayor_colonists_may_be_rearranged_freely() -> None:
    """§4.2 step 3 [C], [A]: colonists already on tiles may be moved to any empty circle of the
    player's own board (here from corn to coffee plantation + roaster); new buildings stay empty
    until then; placement is only possible in the Mayor phase."""
    sc = Scenario(players=3)
    sc.set_colonists(ship=0)
    sc.player(2, tiles={"corn": (2, 2), "coffee": 1, "quarry": 1}, buildings={"coffee_roaster": 0})
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert GAME.prompt(state) == Prompt((2,), "arrange", False)
    state = sc.act(state, 2, "m.coffee")
    state = sc.act(state, 2, "m.coffee_roaster")
    p = state.players[2]
    assert p.workers == [0, 0, 0, 0, 1, 0]
    assert p.bw[building("coffee_roaster")] == 1 and p.san_juan == 0
    assert p.tiles[QUARRY] == 1
    assert sc.events_of("ColonistsArranged")[-1].seat == 2
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("supply", "privilege", "ends"),
    [
        (3, False, False),  # the ship takes the last 3: the supply is 0, but it was enough
        (4, True, False),  # 1 to the Mayor, the last 3 to the ship
        (2, False, True),  # 2 for a ship that needs 3: short
        (3, True, True),  # the privilege colonist leaves 2 for a ship that needs 3
    ],
)
def test_e1_ends_the_game_only_when_the_supply_is_short_not_when_it_reaches_0(
    supply: int, privilege: bool, ends: bool
) -> None:
    """§7.1 E1 [C]: "At the end of a Mayor phase, the colonist supply cannot refill the colonist
    ship with the required number R = max(N, empty building circles)"; §4.2 step 4: "If the
    supply holds fewer than R colonists, the game-end condition is triggered".  Emptying the
    supply is not a shortage.  3 players, no buildings, so R = max(3, 0) = 3 and the ship takes
    3 at the end of the Mayor phase: with 3 colonists left (after the privilege, if taken) the
    supply goes to 0 and the game goes on into round 2; with 2 the ship gets both (ruling A4),
    E1 is set and the game ends with the round."""
    sc = Scenario(players=3)
    sc.set_colonists(supply=supply, ship=3)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "m.privilege" if privilege else "pass")
    left = supply - (1 if privilege else 0)
    assert sc.events_of("ColonistShipRefilled")[-1].data == {"count": min(left, 3), "needed": 3}
    assert state.colonist_ship == min(left, 3) and state.colonist_supply == 0
    assert state.end_reasons == (["colonists"] if ends else [])
    # the rest of the round: seats 1 and 2 pick roles with nothing to decide in them
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    state = sc.finish_phase(sc.act(state, 1, "r.trader"))
    state = sc.finish_phase(sc.act(state, 2, "r.builder"))
    if ends:
        assert state.phase == GAME_OVER and GAME.outcome(state) is not None
    else:
        assert state.phase != GAME_OVER and state.round == 2
        assert GAME.prompt(state) == Prompt((1,), "role", False)  # the new Governor picks
    assert sc.invariant_failures(state) == []
