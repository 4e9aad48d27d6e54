"""Settler phase (rules spec §4.1, §8.2 Hacienda / Construction Hut / Hospice): T-SET-1..7 and
rulings A6, A12, A13, A46.  Sources: classic rulebook [C], 2020 rulebook [A]."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, NotYourTurn, Prompt
from engine.puerto_rico.data import CORN, INDIGO, QUARRY, SUGAR, TOBACCO
from tests.engine.puerto_rico.scenario import GAME, Scenario


def test_t_set_1_normal_flow() -> None:
    """T-SET-1 (§4.1, [C]/[A]): the Settler takes a quarry (privilege), P2 coffee, P3 sugar, P4
    nothing; the 3 tiles left go to the discard pile and N + 1 = 5 new tiles are revealed."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    assert sc.state.quarries == 8
    deck_before = sum(sc.state.deck)
    state = sc.choose("settler", 0)
    assert GAME.prompt(state) == Prompt((0,), "settle", False)
    assert sc.legal(state, 0) == [
        "s.corn",
        "s.indigo",
        "s.sugar",
        "s.tobacco",
        "s.coffee",
        "s.quarry",
        "pass",
    ]
    state = sc.act(state, 0, "s.quarry")
    # only the Settler has the quarry privilege
    assert sc.legal(state, 1) == ["s.corn", "s.indigo", "s.sugar", "s.tobacco", "s.coffee", "pass"]
    state = sc.act(state, 1, "s.coffee")
    state = sc.act(state, 2, "s.sugar")
    state = sc.act(state, 3, "pass")
    assert state.quarries == 7
    assert state.players[0].tiles[QUARRY] == 1
    assert state.players[1].tiles[4] == 1 and state.players[2].tiles[SUGAR] == 1
    assert state.discard == [1, 1, 0, 1, 0]  # corn, indigo, tobacco
    assert len(state.face_up) == 5
    assert sum(state.deck) == deck_before - 5
    assert sc.events_of("PlantationsRevealed")[-1].data["reshuffled"] is False
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_t_set_2_privilege_lost_but_role_doubloons_paid() -> None:
    """T-SET-2 (§4.1, §3.2 [C]): the Settler takes nothing, so he gets no quarry and no
    plantation; he still takes the doubloons lying on the card; the others take tiles."""
    sc = Scenario(players=3)
    sc.face_up(["corn", "indigo", "sugar", "coffee"])
    sc.role_doubloons("settler", 2)
    tiles_before = list(sc.state.players[0].tiles)
    state = sc.choose("settler", 0)
    assert state.players[0].doubloons == 2 + 2
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "s.coffee")
    state = sc.act(state, 2, "s.sugar")
    assert state.players[0].tiles == tiles_before
    assert state.quarries == 8
    assert state.players[1].tiles[4] == 1 and state.players[2].tiles[SUGAR] == 1
    assert sc.invariant_failures(state) == []


def test_t_set_3_hacienda_and_construction_hut_non_settler() -> None:
    """T-SET-3 (§4.1, §8.2 [C]): a non-Settler with an occupied Hacienda and Construction Hut
    draws the top face-down tile (tobacco) and must place it, then takes a quarry instead of a
    face-up plantation: 2 new tiles, 1 of them a quarry; the Hacienda draw is never a quarry."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "coffee"])
    sc.stacks({"tobacco": 6})
    sc.player(2, buildings={"hacienda": 1, "construction_hut": 1})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "pass")
    assert sc.legal(state, 2) == [
        "s.hacienda",
        "s.corn",
        "s.indigo",
        "s.sugar",
        "s.coffee",
        "s.quarry",
        "pass",
    ]
    state = sc.act(state, 2, "s.hacienda")
    p = state.players[2]
    assert p.tiles[TOBACCO] == 1 and p.workers[TOBACCO] == 0  # placed at once, unoccupied
    assert state.deck[TOBACCO] == 5
    # still his turn: the normal pick, with the Construction Hut quarry; no second draw
    assert GAME.prompt(state) == Prompt((2,), "settle", False)
    assert sc.legal(state, 2) == ["s.corn", "s.indigo", "s.sugar", "s.coffee", "s.quarry", "pass"]
    state = sc.act(state, 2, "s.quarry")
    assert state.players[2].tiles[QUARRY] == 1
    assert sum(state.players[2].tiles) == 3  # indigo start tile + tobacco + quarry
    assert GAME.prompt(state) == Prompt((3,), "settle", False)
    assert [e.data["source"] for e in sc.events_of("PlantationTaken")] == ["hacienda"]
    assert sc.invariant_failures(state) == []


def test_t_set_4_settler_with_hacienda() -> None:
    """T-SET-4 (§4.1, §8.2 [C]): the Settler with an occupied Hacienda may end with hacienda +
    quarry, hacienda + face-up, hacienda only, or only a face-up plantation or quarry; never two
    quarries (the Hacienda tile is always a plantation, and a quarry ends his turn)."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.stacks({"sugar": 4})
    sc.player(0, buildings={"hacienda": 1, "construction_hut": 1})
    start = sc.choose("settler", 0)
    assert sc.legal(start, 0)[0] == "s.hacienda" and "s.quarry" in sc.legal(start, 0)
    after_draw = sc.act(start, 0, "s.hacienda")
    assert "s.hacienda" not in sc.legal(after_draw, 0)

    def new_tiles(state) -> list[int]:
        before = start.players[0].tiles
        return [a - b for a, b in zip(state.players[0].tiles, before, strict=True)]

    # hacienda plantation + quarry
    state = sc.act(after_draw, 0, "s.quarry")
    assert new_tiles(state) == [0, 0, 1, 0, 0, 1]
    assert GAME.prompt(state) == Prompt((1,), "settle", False)
    # hacienda plantation + face-up plantation
    state = sc.act(after_draw, 0, "s.coffee")
    assert new_tiles(state) == [0, 0, 1, 0, 1, 0]
    # hacienda plantation only
    state = sc.act(after_draw, 0, "pass")
    assert new_tiles(state) == [0, 0, 1, 0, 0, 0]
    # no Hacienda: a face-up plantation or a quarry only, and the turn is over
    state = sc.act(start, 0, "s.corn")
    assert new_tiles(state) == [1, 0, 0, 0, 0, 0]
    state = sc.act(start, 0, "s.quarry")
    assert new_tiles(state) == [0, 0, 0, 0, 0, 1]
    assert GAME.prompt(state) == Prompt((1,), "settle", False)
    # illegal: a second quarry (his turn is over; and quarries never come from the Hacienda)
    with pytest.raises(NotYourTurn):
        sc.act(state, 0, "s.quarry")
    assert sc.invariant_failures(state) == []


def test_t_set_5_hospice_supply_fallback() -> None:
    """T-SET-5 (§4.1, §8.2 Hospice [C]): with the colonist supply at 0 and 4 on the ship, the
    Hospice colonist for the new sugar plantation comes from the ship (ship = 3); with the ship
    empty too there is no colonist (and no offer)."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.player(1, buildings={"hospice": 1})
    sc.set_colonists(supply=0, ship=4)
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "s.sugar")
    assert GAME.prompt(state) == Prompt((1,), "hospice", False)
    assert sc.legal(state, 1) == ["o.hospice", "pass"]
    state = sc.act(state, 1, "o.hospice")
    assert state.players[1].workers[SUGAR] == 1
    assert state.colonist_ship == 3 and state.colonist_supply == 0
    assert sc.events_of("ColonistGained")[-1].data == {
        "target": "sugar",
        "source": "ship",
        "by": "hospice",
    }
    assert GAME.prompt(state) == Prompt((2,), "settle", False)
    assert sc.invariant_failures(state) == []

    # the ship is also empty: no colonist, no offer
    sc2 = Scenario(players=4)
    sc2.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc2.player(1, buildings={"hospice": 1})
    sc2.set_colonists(supply=0, ship=0)
    state = sc2.choose("settler", 0)
    state = sc2.act(state, 0, "pass")
    state = sc2.act(state, 1, "s.sugar")
    assert state.players[1].workers[SUGAR] == 0
    assert GAME.prompt(state) == Prompt((2,), "settle", False)
    assert sc2.invariant_failures(state) == []


def test_t_set_6_full_island() -> None:
    """T-SET-6 (§4.1 [C], [A]): a player with 12 filled island spaces has no legal tile pick and
    no Hacienda draw (not even a quarry with the Settler privilege and a Construction Hut): his
    turn passes without a prompt."""
    sc = Scenario(players=4)
    sc.player(3, tiles={"corn": 6, "indigo": 3, "quarry": 3})
    sc.player(3, buildings={"hacienda": 1, "construction_hut": 1})
    state = sc.choose("settler", 3)
    assert sc.legal(state, 3) == []
    assert GAME.prompt(state) == Prompt((0,), "settle", False)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    assert sum(state.players[3].tiles) == 12
    assert GAME.prompt(state) == Prompt((0,), "role", False)  # the phase is over
    assert sc.invariant_failures(state) == []


def test_t_set_7_refill_with_reshuffle() -> None:
    """T-SET-7 (§4.1 "Refilling the face-up row" [C], [A]): 3 players, 2 tiles in the stacks, 9 in
    the discard pile, 1 face-up tile left: it is discarded (10), the 2 stack tiles are revealed,
    the 10 discards are shuffled into a new stack and 2 more revealed: 4 face up, 8 in the
    stack, discard pile empty."""
    sc = Scenario(players=3)
    sc.face_up(["corn", "indigo", "sugar", "coffee"])
    sc.stacks({"tobacco": 2}, discard={"corn": 3, "indigo": 3, "sugar": 3})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    state = sc.act(state, 1, "s.indigo")
    state = sc.act(state, 2, "s.sugar")
    assert len(state.face_up) == 4
    assert state.face_up.count(TOBACCO) >= 2  # the 2 stack tiles came first
    assert sum(state.deck) == 8
    assert state.discard == [0, 0, 0, 0, 0]
    assert sc.events_of("PlantationsRevealed")[-1].data["reshuffled"] is True
    assert sc.invariant_failures(state) == []


def test_settler_fewer_face_up_tiles_when_stacks_and_discards_run_out() -> None:
    """§4.1 "Refilling the face-up row" point 3 [C]: stacks and discard pile together hold fewer
    than N + 1 tiles, so fewer tiles are face up; face-up tiles running out during the phase
    leave the later players without a plantation (they are skipped)."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo"])
    sc.stacks({"sugar": 1}, discard={})
    sc.set_quarries(0)
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    state = sc.act(state, 1, "s.indigo")
    # nothing is left for seats 2 and 3: the phase ends; only 1 tile can be revealed
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.face_up == [SUGAR]
    assert sc.invariant_failures(state) == []


def test_settler_no_quarries_left() -> None:
    """§4.1 "No quarries left" [C], [A]: the Settler cannot use his privilege and a Construction
    Hut owner cannot use his building."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.set_quarries(0)
    sc.player(1, buildings={"construction_hut": 1})
    state = sc.choose("settler", 0)
    assert "s.quarry" not in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "s.quarry")
    assert err.value.code == "no_quarries_left"
    state = sc.act(state, 0, "pass")
    assert "s.quarry" not in sc.legal(state, 1)


def test_settler_construction_hut_quarry_and_the_one_quarry_limit() -> None:
    """§4.1 "Quarry limit" and §8.2 Construction Hut [C], [A]: a non-Settler takes a quarry only
    with an occupied Construction Hut (an unoccupied one does nothing, §4.0); a Settler who owns
    one still gets a single quarry, since the quarry is his one normal pick."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.player(0, buildings={"construction_hut": 1})
    sc.player(1, buildings={"construction_hut": 1})
    sc.player(2, buildings={"construction_hut": 0})
    state = sc.choose("settler", 0)
    assert sc.legal(state, 0).count("s.quarry") == 1
    state = sc.act(state, 0, "s.quarry")
    assert GAME.prompt(state) == Prompt((1,), "settle", False)
    assert "s.quarry" in sc.legal(state, 1)
    state = sc.act(state, 1, "s.quarry")
    assert "s.quarry" not in sc.legal(state, 2)
    assert [p.tiles[QUARRY] for p in state.players] == [1, 1, 0, 0]
    assert state.quarries == 6
    assert sc.invariant_failures(state) == []


def test_a6_plantations_are_drawn_from_one_shuffled_deck() -> None:
    """Ruling A6 (§2.3 step 5, §14.1; [C] 5 stacks, [A] N + 1 stacks): one shuffled face-down
    deck; the Hacienda draws a random face-down tile and the refill reveals random tiles, all
    reproducible from the game seed."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.stacks({"coffee": 1, "sugar": 9})
    sc.player(0, buildings={"hacienda": 1})
    start = sc.choose("settler", 0)
    drawn = set()
    for seed in range(40):
        state = start.clone()
        state.rng = seed
        after, _ = GAME.apply(state, 0, GAME.decode_action("s.hacienda"))
        new = [a - b for a, b in zip(after.players[0].tiles, state.players[0].tiles, strict=True)]
        assert sum(new) == 1 and sum(after.deck) == 9
        drawn.add(new.index(1))
        again, _ = GAME.apply(state, 0, GAME.decode_action("s.hacienda"))
        assert again.players[0].tiles == after.players[0].tiles  # same seed, same tile
    assert drawn == {SUGAR, 4}  # both kinds of the deck can come up
    # the refill reveals N + 1 random tiles of the same deck
    assert sc.invariant_failures(start) == []


def test_a12_hospice_colonist_from_the_ship_else_none() -> None:
    """Ruling A12 (§8.2 Hospice; [C] ship fallback, [A] silent): with an empty colonist supply
    the Hospice colonist comes from the ship; with the ship empty as well there is none."""
    sc = Scenario(players=3)
    sc.face_up(["corn", "indigo", "sugar", "coffee"])
    sc.player(0, buildings={"hospice": 1})
    sc.set_colonists(supply=0, ship=1)
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.coffee")
    state = sc.act(state, 0, "o.hospice")
    assert state.players[0].workers[4] == 1
    assert state.colonist_ship == 0
    # next Settler phase: supply and ship both empty, so no offer at all
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    assert GAME.prompt(state) == Prompt((1,), "settle", False)
    assert state.players[0].workers[CORN] == 0
    assert sc.invariant_failures(state) == []


def test_a13_hospice_colonist_on_a_quarry() -> None:
    """Ruling A13 (§8.2 Hospice; [C] "plantation or quarry", [A] summary): the Hospice colonist
    may go on a quarry taken with the Settler privilege; it comes from the supply."""
    sc = Scenario(players=3)
    sc.player(0, buildings={"hospice": 1})
    supply = sc.state.colonist_supply
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.quarry")
    assert GAME.prompt(state) == Prompt((0,), "hospice", False)
    state = sc.act(state, 0, "o.hospice")
    assert state.players[0].tiles[QUARRY] == 1 and state.players[0].workers[QUARRY] == 1
    assert state.colonist_supply == supply - 1
    # declining is allowed too (violet buildings are never compulsory, §4.0)
    sc2 = Scenario(players=3)
    sc2.player(0, buildings={"hospice": 1})
    state = sc2.choose("settler", 0)
    state = sc2.act(state, 0, "s.quarry")
    state = sc2.act(state, 0, "pass")
    assert state.players[0].workers[QUARRY] == 0
    assert sc2.events_of("OfferDeclined")[-1].data == {"offer": "hospice"}
    assert sc.invariant_failures(sc.state) == []


def test_a46_hacienda_unusable_while_the_stacks_are_empty() -> None:
    """Ruling A46 (§14.1; reshuffles happen only at the end-of-phase refill): with no face-down
    tile left the Hacienda cannot be used, even though the discard pile holds tiles; no tile and
    no Hospice colonist ever comes with the Hacienda draw either."""
    sc = Scenario(players=3)
    sc.face_up(["corn", "indigo", "sugar", "coffee"])
    sc.stacks({}, discard={"indigo": 5})
    sc.player(0, buildings={"hacienda": 1, "hospice": 1})
    state = sc.choose("settler", 0)
    assert "s.hacienda" not in sc.legal(state, 0)
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "s.hacienda")
    assert err.value.code == "hacienda_not_available"
    # with a tile in the stacks the draw is offered, and gets no Hospice colonist
    sc2 = Scenario(players=3)
    sc2.stacks({"indigo": 1})
    sc2.player(0, buildings={"hacienda": 1, "hospice": 1})
    state = sc2.choose("settler", 0)
    state = sc2.act(state, 0, "s.hacienda")
    assert GAME.prompt(state) == Prompt((0,), "settle", False)  # no hospice offer
    assert state.players[0].tiles[INDIGO] == 2 and state.players[0].workers[INDIGO] == 0
    assert "s.hacienda" not in sc2.legal(state, 0)
    assert sc2.invariant_failures(state) == []


def test_quarry_privilege_belongs_to_the_settler_not_the_governor() -> None:
    """§4.1 privilege [C], [A]: "The Settler may take one quarry from the quarry pile instead of a
    face-up plantation"; every other player takes "a quarry only if he owns an occupied
    Construction Hut".  The Settler is whoever chose the role, not the Governor: in a round that
    the Governor (seat 0) began, seat 2 picks the Settler.  Seat 2 may take a quarry; the
    Governor, whose turn in this phase comes third, may not."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    state = sc.choose("settler", 2, governor=0)
    assert (state.governor, state.chooser, state.picks) == (0, 2, 3)
    assert sorted(seat for seat in state.card_taken if seat >= 0) == [0, 1, 2]
    assert GAME.prompt(state) == Prompt((2,), "settle", False)
    assert "s.quarry" in sc.legal(state, 2)
    state = sc.act(state, 2, "s.quarry")
    assert "s.quarry" not in sc.legal(state, 3)
    state = sc.act(state, 3, "s.corn")
    assert GAME.prompt(state) == Prompt((0,), "settle", False)
    assert sc.legal(state, 0) == ["s.indigo", "s.sugar", "s.tobacco", "s.coffee", "pass"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 0, "s.quarry")
    assert err.value.code == "quarry_not_allowed"
    state = sc.act(state, 0, "s.sugar")
    state = sc.act(state, 1, "pass")
    assert [p.tiles[QUARRY] for p in state.players] == [0, 0, 1, 0]
    assert state.quarries == 7
    # seats 0, 1 and 2 have picked: the round goes on with seat 3
    assert GAME.prompt(state) == Prompt((3,), "role", False)
    assert sc.invariant_failures(state) == []
