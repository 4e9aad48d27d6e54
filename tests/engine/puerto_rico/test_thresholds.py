"""Puerto Rico's thresholds tested on both sides (issue #33, "Tests that name their rules").

Each test here adds the side of a threshold of ``docs/rules/puerto-rico.md`` that no other test
checked (the other side is named in ``docs/rule-thresholds.md``): a count just below, at and
above the number the rule names, so that moving the rule's comparison by one fails a test that
says which rule broke.  Section numbers (§), tests (T-...) and rulings (A...) are the spec's.
"""

from __future__ import annotations

import pytest

from engine.core import InvalidSetup, Prompt
from engine.puerto_rico.data import GOODS, INDIGO, QUARRY, TOBACCO
from engine.puerto_rico.legality import city_used
from engine.puerto_rico.scoring import final_scores
from tests.engine.puerto_rico.scenario import GAME, Scenario

# ten small buildings: ten city spaces, none of them the Office or the Large Market
TEN_SMALL = [
    "small_indigo_plant",
    "small_sugar_mill",
    "indigo_plant",
    "sugar_mill",
    "tobacco_storage",
    "coffee_roaster",
    "small_market",
    "hacienda",
    "construction_hut",
    "small_warehouse",
]


# --- §2.2 player count -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5])
def test_sec2_2_two_to_five_players_are_set_up(players: int) -> None:
    """§2.2 (the setup table has 2 to 5 players; §9 the 2-player rules): 2 and 5 are set up."""
    assert GAME.setup({"players": players}, 0).n == players


@pytest.mark.parametrize("players", [1, 6])
def test_sec2_2_one_or_six_players_are_refused(players: int) -> None:
    """§2.2: no setup for 1 player or for 6: refused with the code ``bad_player_count``."""
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": players}, 0)
    assert err.value.code == "bad_player_count"


# --- §4.1 Settler ---------------------------------------------------------------------------------


def test_t_set_6_eleven_filled_island_spaces_still_take_a_tile() -> None:
    """T-SET-6 (§4.1 "Full island" [C], [A]; Appendix A ``island_spaces: 12``), the side below:
    with 11 of his 12 island spaces filled a player may still take a plantation or a quarry, and
    the tile he takes fills the 12th space, after which no Settler phase offers him any."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.player(0, tiles={"corn": 6, "indigo": 3, "quarry": 2})
    state = sc.choose("settler", 0)
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
    assert state.players[0].island() == 12 and state.players[0].tiles[QUARRY] == 3
    state = sc.finish_phase(state)
    sc.state = state
    state = sc.choose("settler", 0)
    assert sc.legal(state, 0) == []  # 12 filled: no pick at all
    assert GAME.prompt(state) == Prompt((1,), "settle", False)
    assert sc.invariant_failures(state) == []


def test_t_set_6_hacienda_tile_on_the_twelfth_space_ends_the_turn() -> None:
    """T-SET-6 with §8.2 Hacienda [C]: with 11 spaces filled the Hacienda may still draw (the
    island is not full), and its tile fills the 12th space: the normal pick that would follow
    has no space left, so the turn passes without one."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.stacks({"sugar": 5})
    sc.player(1, tiles={"corn": 6, "indigo": 3, "quarry": 2})
    sc.player(1, buildings={"hacienda": 1})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "pass")
    assert sc.legal(state, 1)[0] == "s.hacienda"
    state = sc.act(state, 1, "s.hacienda")
    assert state.players[1].island() == 12
    assert GAME.prompt(state) == Prompt((2,), "settle", False)  # no pick after the draw
    assert sc.invariant_failures(state) == []


def test_sec4_1_the_last_quarry_can_be_taken_then_none() -> None:
    """§4.1 "No quarries left" [C], [A], the side above 0: with exactly 1 quarry left the Settler
    may take it (privilege); then there are none, and a Construction Hut owner after him cannot
    take one."""
    sc = Scenario(players=4)
    sc.face_up(["corn", "indigo", "sugar", "coffee", "tobacco"])
    sc.set_quarries(1)
    sc.player(1, buildings={"construction_hut": 1})
    state = sc.choose("settler", 0)
    assert "s.quarry" in sc.legal(state, 0)
    state = sc.act(state, 0, "s.quarry")
    assert state.quarries == 0 and state.players[0].tiles[QUARRY] == 1
    assert "s.quarry" not in sc.legal(state, 1)
    assert sc.invariant_failures(state) == []


def test_t_set_7_exactly_n_plus_1_tiles_left_fill_the_row() -> None:
    """§4.1 "Refilling the face-up row" [C], [A], the side at the threshold: when the stacks and
    the discard pile together hold exactly N + 1 tiles, all N + 1 are turned face up (point 3's
    "fewer" needs fewer than N + 1) and both piles are then empty."""
    sc = Scenario(players=3)
    sc.face_up(["corn", "indigo", "sugar", "coffee"])
    sc.stacks({"tobacco": 1}, discard={"corn": 1, "indigo": 1})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.corn")
    state = sc.act(state, 1, "s.indigo")
    state = sc.act(state, 2, "s.sugar")
    # 1 face-up tile left (coffee) joins the 2 discards: 1 + 3 = 4 = N + 1
    assert len(state.face_up) == 4
    assert sum(state.deck) == 0 and sum(state.discard) == 0
    assert sc.invariant_failures(state) == []


def test_t_set_7_the_last_tile_comes_from_the_reshuffle() -> None:
    """§4.1 "Refilling the face-up row" point 2 [C], [A]: the stacks hold exactly N tiles: all N
    are revealed, and the (N + 1)th comes from the discard pile shuffled into new stacks."""
    sc = Scenario(players=3)
    sc.face_up(["indigo", "sugar", "sugar", "indigo"])
    sc.stacks({"tobacco": 3}, discard={"corn": 5})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.indigo")
    state = sc.act(state, 1, "s.sugar")
    state = sc.act(state, 2, "s.sugar")
    assert len(state.face_up) == 4 and state.face_up.count(TOBACCO) == 3  # 3 tobacco + 1 discard
    assert sum(state.deck) == 5 and sum(state.discard) == 0  # 5 corn + 1 indigo, one revealed
    assert sc.events_of("PlantationsRevealed")[-1].data["reshuffled"] is True
    assert sc.invariant_failures(state) == []


# --- §4.2 Mayor -----------------------------------------------------------------------------------


def test_t_may_5_one_colonist_in_the_supply_is_still_a_privilege() -> None:
    """T-MAY-5 (§4.2 step 1 [C], [A]), the side above 0: with exactly 1 colonist in the supply the
    Mayor is offered his privilege and takes it; the supply is then empty, so the refill is
    short and E1 is set (§7.1)."""
    sc = Scenario(players=4)
    sc.set_colonists(supply=1, ship=4)
    state = sc.choose("mayor", 0)
    assert GAME.prompt(state) == Prompt((0,), "mayor_privilege", False)
    state = sc.act(state, 0, "m.privilege")
    assert state.players[0].colonists() == 2  # the privilege colonist + 1 from the ship
    assert state.colonist_supply == 0 and state.end_reasons == ["colonists"]
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("ship", "shares"),
    [(3, [1, 1, 1, 0]), (4, [1, 1, 1, 1]), (5, [2, 1, 1, 1]), (8, [2, 2, 2, 2]), (9, [3, 2, 2, 2])],
)
def test_t_may_1_distribution_around_multiples_of_n(ship: int, shares: list[int]) -> None:
    """T-MAY-1 (§4.2 step 2 [C]): the player at position i from the Mayor receives
    floor(k / N) + 1 if i < k mod N: with 4 players, 3 colonists leave the last seat without
    one, 4 give one each, 5 give the Mayor a second one; 8 and 9 likewise one round later."""
    sc = Scenario(players=4)
    sc.set_colonists(ship=ship)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert sc.events_of("ColonistsDistributed")[-1].data == {"shares_from_mayor": shares}
    assert [p.colonists() for p in state.players] == shares
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(
    ("ship", "privilege", "colonists", "asked", "san_juan"),
    [(6, False, 2, True, None), (7, False, 3, False, 0), (7, True, 4, False, 1)],
)
def test_t_may_4_colonists_against_circles(
    ship: int, privilege: bool, colonists: int, asked: bool, san_juan: int | None
) -> None:
    """T-MAY-4 (§4.2 step 3 "must fill" [C], [A]) on both sides of "colonists = circles": seat 0
    has 3 circles (2 corn plantations, a Small Market).  With 2 colonists he chooses which
    circle stays empty (asked); with exactly 3 every circle is filled and nothing waits in San
    Juan, so there is no question; with 4 the fourth waits in San Juan."""
    sc = Scenario(players=3)
    sc.player(0, tiles={"corn": 2}, buildings=["small_market"])
    sc.set_colonists(ship=ship)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "m.privilege" if privilege else "pass")
    p = state.players[0]
    assert p.colonists() == colonists
    if asked:
        assert GAME.prompt(state) == Prompt((0,), "arrange", False)
    else:
        assert GAME.prompt(state) == Prompt((1,), "role", False)
        assert p.workers[0] == 2 and p.bw[sc.state.players[0].city[0]] == 1
        assert p.san_juan == san_juan
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("empty", "refill"), [(3, 4), (4, 4), (5, 5)])
def test_t_may_2_refill_around_n(empty: int, refill: int) -> None:
    """T-MAY-2 (§4.2 step 4 [C], [A]): R = max(N, E) with 4 players: 3 empty building circles
    still give 4, exactly 4 give 4, 5 give 5 (E counts the circles of every player's buildings
    left empty after placement)."""
    sc = Scenario(players=4)
    sc.set_colonists(ship=0)
    # the Indigo Plant has 3 circles, the Coffee Roaster 2; nobody gets a colonist
    names = {3: ["indigo_plant"], 4: ["indigo_plant", "small_market"], 5: ["indigo_plant",
             "coffee_roaster"]}[empty]
    sc.player(1, buildings=names)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert sc.events_of("ColonistShipRefilled")[-1].data == {"count": refill, "needed": refill}
    assert state.colonist_ship == refill and state.end_reasons == []
    assert sc.invariant_failures(state) == []


# --- §4.3 Builder, §7.1 E2 ------------------------------------------------------------------------


def test_t_bld_6_the_eleventh_city_space_does_not_end_the_game() -> None:
    """T-BLD-6 / §7.1 E2 [C] (ruling A55: the used spaces reaching 12), the side below: filling
    the 11th city space triggers nothing; the 12th does (next Builder phase)."""
    sc = Scenario(players=3)
    sc.player(0, doubloons=20, buildings=TEN_SMALL)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.office")
    assert city_used(state.players[0]) == 11 and state.end_reasons == []
    assert not sc.events_of("EndTriggered")
    state = sc.finish_phase(state)
    sc.state = state
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.large_market")
    assert city_used(state.players[0]) == 12 and state.end_reasons == ["city_full"]
    assert sc.invariant_failures(state) == []


# --- §4.5 Trader ----------------------------------------------------------------------------------


def test_t_tra_2_three_barrels_stay_in_the_house() -> None:
    """T-TRA-2 (§4.5 "Emptying" [C], [A]: only a house holding exactly 4 barrels is emptied), the
    side just below: a phase that ends with 3 barrels leaves them there; the next phase has one
    space, and the sale that fills it ends the phase and empties the house."""
    sc = Scenario(players=3)
    sc.player(0, goods={"corn": 1})
    sc.player(1, goods={"indigo": 1})
    sc.player(2, goods={"sugar": 1, "coffee": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.corn")
    state = sc.act(state, 1, "t.indigo")
    state = sc.act(state, 2, "t.sugar")
    assert len(state.house) == 3 and not sc.events_of("TradingHouseEmptied")
    sc.state = state
    state = sc.choose("trader", 2)
    assert sc.legal(state, 2) == ["t.coffee", "pass"]
    state = sc.act(state, 2, "t.coffee")
    assert state.house == [] and len(sc.events_of("TradingHouseEmptied")) == 1
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("good", "price"), list(zip(GOODS, (0, 1, 2, 3, 4), strict=True)))
def test_sec4_5_sale_prices(good: str, price: int) -> None:
    """§4.5 sale prices [C], [A]: corn 0, indigo 1, sugar 2, tobacco 3, coffee 4 (a player who is
    not the Trader and has no Market)."""
    sc = Scenario(players=3)
    sc.player(1, doubloons=0, goods={good: 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 1, f"t.{good}")
    assert state.players[1].doubloons == price
    assert sc.events_of("GoodSold")[-1].data == {"good": good, "price": price}


# --- §4.6 Captain, §7.1 E3 ------------------------------------------------------------------------


def test_a3_one_chip_left_is_not_the_end_the_last_one_is() -> None:
    """Ruling A3 / §7.1 E3 [C] ("at the moment the supply reaches 0"), both sides: a load that
    leaves 1 VP chip in the supply triggers nothing; the next load, which takes the last chip,
    sets E3."""
    sc = Scenario(players=3)
    sc.player(1, goods={"indigo": 3})
    sc.player(2, goods={"sugar": 1})
    sc.set_vp_supply(4)
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.indigo.0")
    assert state.vp_supply == 1 and state.end_reasons == []
    state = sc.act(state, 2, "ship.sugar.1")
    assert state.vp_supply == 0 and state.end_reasons == ["vp_chips"]
    assert sc.invariant_failures(state) == []


def test_sec8_2_wharf_once_per_captain_phase() -> None:
    """§8.2 Wharf [C], [A]: once per Captain phase, on any of his turns: after one Wharf load its
    owner is offered no second one in that phase (no cargo ship takes his sugar either, so the
    phase ends and he keeps a single sugar); in the next Captain phase he may use it again."""
    sc = Scenario(players=3)
    sc.player(1, goods={"indigo": 2, "sugar": 2}, buildings={"wharf": 1})
    sc.ships([(4, "corn", 4), (5, "indigo", 5), (6, "sugar", 6)])  # no cargo ship takes them
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["wharf.indigo", "wharf.sugar", "pass"]
    state = sc.act(state, 1, "wharf.indigo")
    assert state.players[1].goods[INDIGO] == 0
    assert GAME.prompt(state) == Prompt((1,), "role", False)  # no second Wharf load: phase over
    assert [e.data["ship"] for e in sc.events_of("GoodsShipped")] == ["wharf"]
    assert state.players[1].goods == [0, 0, 1, 0, 0]  # one sugar kept (§4.6.3)
    sc.state = state
    state = sc.choose("captain", 0)  # the full ships were emptied: cargo ships take sugar now
    assert "wharf.sugar" in sc.legal(state, 1)
    assert sc.invariant_failures(state) == []


# --- §8.3 large buildings -------------------------------------------------------------------------


def _bonus(sc: Scenario, seat: int, name: str) -> int:
    assert sc.invariant_failures(sc.state) == []
    return final_scores(sc.state).scores[seat].breakdown[name]


@pytest.mark.parametrize(("colonists", "bonus"), [(20, 6), (21, 7), (23, 7), (24, 8)])
def test_sec8_3_fortress_one_vp_per_three_colonists(colonists: int, bonus: int) -> None:
    """§8.3 Fortress [C], [A]: floor(c / 3) for c colonists on the board (San Juan included):
    20 → 6 (the [C] example), 21 → 7, 23 → 7, 24 → 8."""
    sc = Scenario(players=4)
    sc.player(
        0,
        tiles={"corn": (6, 6), "quarry": (4, 4)},
        buildings={"fortress": 1},
        san_juan=colonists - 11,
    )
    assert sc.state.players[0].colonists() == colonists
    assert _bonus(sc, 0, "fortress") == bonus


@pytest.mark.parametrize(("vp", "bonus"), [(23, 5), (24, 6), (27, 6), (28, 7), (3, 0), (4, 1)])
def test_sec8_3_customs_house_one_vp_per_four_chips(vp: int, bonus: int) -> None:
    """§8.3 Customs House [C], [A]: floor(v / 4) for v VP earned as chips: 23 → 5 (the [C]
    example), 24 → 6, 27 → 6, 28 → 7; 3 → 0 and 4 → 1 at the bottom."""
    sc = Scenario(players=4)
    sc.player(0, vp=vp, buildings={"customs_house": 1})
    assert _bonus(sc, 0, "customs_house") == bonus


# --- §8.1 / Appendix A: the building table ------------------------------------------------------

# Appendix A ``buildings_base``: cost, VP, column, circles, copies 3-5 players, copies 2 players
APPENDIX_A_BASE = {
    "small_indigo_plant": (1, 1, 1, 1, 4, 2),
    "small_sugar_mill": (2, 1, 1, 1, 4, 2),
    "indigo_plant": (3, 2, 2, 3, 3, 2),
    "sugar_mill": (4, 2, 2, 3, 3, 2),
    "tobacco_storage": (5, 3, 3, 3, 3, 2),
    "coffee_roaster": (6, 3, 3, 2, 3, 2),
    "small_market": (1, 1, 1, 1, 2, 1),
    "hacienda": (2, 1, 1, 1, 2, 1),
    "construction_hut": (2, 1, 1, 1, 2, 1),
    "small_warehouse": (3, 1, 1, 1, 2, 1),
    "hospice": (4, 2, 2, 1, 2, 1),
    "office": (5, 2, 2, 1, 2, 1),
    "large_market": (5, 2, 2, 1, 2, 1),
    "large_warehouse": (6, 2, 2, 1, 2, 1),
    "factory": (7, 3, 3, 1, 2, 1),
    "university": (8, 3, 3, 1, 2, 1),
    "harbor": (8, 3, 3, 1, 2, 1),
    "wharf": (9, 3, 3, 1, 2, 1),
    "guild_hall": (10, 4, 4, 1, 1, 1),
    "residence": (10, 4, 4, 1, 1, 1),
    "fortress": (10, 4, 4, 1, 1, 1),
    "customs_house": (10, 4, 4, 1, 1, 1),
    "city_hall": (10, 4, 4, 1, 1, 1),
}


@pytest.mark.parametrize("players", [2, 3])
def test_sec8_1_building_table(players: int) -> None:
    """§8.1 and Appendix A ``buildings_base`` [C] (ruling A16: Factory 7, University 8): every
    base building's cost, VP, column and circles as the public market shows them, and its
    copies on the board at setup (2 players: §9)."""
    market = {m["building"]: m for m in GAME.view(GAME.setup({"players": players}, 0), None)[
        "market"]}
    assert set(market) == set(APPENDIX_A_BASE)
    for name, (cost, vp, column, circles, copies, copies_2p) in APPENDIX_A_BASE.items():
        m = market[name]
        assert (m["cost"], m["vp"], m["column"], m["circles"]) == (cost, vp, column, circles)
        assert m["left"] == (copies_2p if players == 2 else copies), name
