"""1897's Expansion II, the Citizens (§7.2: X2-1...X2-7, B-38...B-45, A-20, A-21, T-X2-1...
T-X2-7, §9.3's Tailor restriction), played with the kernel's Nobles and 1897's differences
(§6.3: the Rescue Post at the start of the Captain phase, the Zoning Office selling properties
only; A-21: the player count's workers)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.puerto_rico.state import GAME_OVER, NOB_SHIP, NOB_SUPPLY
from engine.puerto_rico_1897.names import REVERSE, word
from tests.engine.puerto_rico.nobles_scenario import noble_supplies, nobles
from tests.engine.puerto_rico_1897.scenario import Scenario1897, score_parts

GAME = get_game("puerto-rico-1897")


def cit(players: int = 4, **options: Any) -> Scenario1897:
    options.setdefault("expansions", [2])
    return Scenario1897(players, **options)


def citizens(sc: Scenario1897, seat: int, **places: int) -> Scenario1897:
    """Make that many of the pieces already on each place (1897 words) Citizens."""
    nobles(sc, seat, **{word(k, REVERSE): n for k, n in places.items()})
    return sc


def test_T_X2_1_setup_agency_and_citizen_supply() -> None:
    """T-X2-1, X2-2, X2-3, A-21: 4 players: the Agency holds 3 workers and 1 Citizen, 19
    Citizens in their supply; 79 workers in play (76 in the supply)."""
    view = GAME.view(cit().state, None)
    assert view["workers"] == {"agency": 3, "supply": 76}
    assert view["citizens"]["agency"] == 1 and view["citizens"]["supply"] == 19


def test_A_21_all_workers_alternative() -> None:
    """A-21's alternative (option ``all_workers``): all 100 workers, as the classic Nobles."""
    view = GAME.view(cit(all_workers=True).state, None)
    assert view["workers"]["agency"] + view["workers"]["supply"] == 100


def test_T_X2_2_refill_with_a_short_worker_supply_is_no_trigger() -> None:
    """T-X2-2, X2-6, A-20: requested 6 (5 workers + 1 Citizen); 2 workers and 5 Citizens in
    their supplies: the Agency gets 2 workers + 1 Citizen; no end trigger."""
    sc = cit()
    sc.player(0, buildings={"large_sugar_mill": 0, "large_tobacco_storage": 0})
    sc.set_colonists(supply=2, ship=0)
    noble_supplies(sc, supply=5, ship=0)
    state = sc.finish_phase(sc.choose("recruiter", 0))
    assert (state.colonist_ship, state.nobles[NOB_SHIP], state.nobles[NOB_SUPPLY]) == (2, 1, 4)
    assert state.end_reasons == [] and not state.over


def test_T_X2_2b_no_citizen_left_gives_workers_only() -> None:
    """T-X2-2b: requested 4, no Citizen left: 4 workers."""
    sc = cit()
    noble_supplies(sc, supply=0, ship=0)
    sc.set_colonists(ship=0)
    state = sc.finish_phase(sc.choose("recruiter", 0))
    assert (state.colonist_ship, state.nobles[NOB_SHIP]) == (4, 0)


def test_X2_7_the_taker_chooses_worker_or_citizen() -> None:
    """X2-7, A-20: a player taking a piece while the Agency holds both kinds chooses."""
    sc = cit()
    state = sc.choose("recruiter", 0)
    state = sc.act(state, 0, "pass")  # no advantage
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("citizen_or_worker", (0,))
    assert sorted(sc.legal(state, 0)) == ["n.citizen", "n.worker"]


def test_T_X2_3_chapel_with_a_citizen() -> None:
    """T-X2-3, B-39: Chapel [C] at the start of the Craftsman phase: +1 VP ([W]: +1 coin)."""
    sc = cit()
    sc.player(0, buildings={"chapel": 1}, doubloons=0)
    citizens(sc, 0, chapel=1)
    sc.player(1, buildings={"chapel": 1}, doubloons=0)
    state = sc.choose("craftsman", 0)
    assert state.players[0].vp == 1 and state.players[0].doubloons == 0
    assert state.players[1].doubloons == 1


def test_T_X2_4_notary_with_a_worker() -> None:
    """T-X2-4, B-41: Notary [W], Builder, 2 occupied quarries, Harbor (8/3): 8-1-2-1 = 4."""
    sc = cit()
    sc.player(0, buildings={"notary": 1}, tiles={"quarry": (2, 2)}, doubloons=4)
    state = sc.choose("builder", 0)
    assert "b.harbor" in sc.legal(state, 0)
    state = sc.act(state, 0, "b.harbor")
    assert state.players[0].doubloons == 0


def test_T_X2_5_park_administration_needs_strictly_fewer_tiles() -> None:
    """T-X2-5, B-40: Park Administration [C]; field tiles: owner 7, others 8 and 7: no bonus;
    strictly fewer than everyone: +2 VP."""
    for other, bonus in ((7, 0), (8, 2)):
        sc = cit(3)
        sc.player(0, buildings={"park_administration": 1}, tiles={"corn": 7})
        citizens(sc, 0, park_administration=1)
        sc.player(1, tiles={"corn": 1, "sugar": 7})
        sc.player(2, tiles={"fruit": other})
        state = sc.finish_phase(sc.choose("planter", 0))
        assert state.players[0].vp == bonus


def test_T_X2_6_large_tailor_shop_and_the_tailor_cap() -> None:
    """T-X2-6, B-44, §9.3: occupied Large Tailor Shop, 4 Citizens: +4 coins; with the Tailor
    restriction +3."""
    for cap, coins in ((False, 4), (True, 3)):
        sc = cit(tailor_cap=cap)
        sc.player(0, buildings={"large_tailor_shop": 1}, tiles={"corn": (3, 3)}, san_juan=1,
                  doubloons=0)
        citizens(sc, 0, large_tailor_shop=1, corn=2, portrait=1)
        state = sc.choose("craftsman", 0)
        state = sc.act(state, 0, "produce")
        assert state.players[0].doubloons == coins


def tailor_owner(sc: Scenario1897, seat: int) -> Scenario1897:
    """``seat`` owns an occupied Large Tailor Shop and 4 Citizens (the shop's, 2 on his
    quarries, 1 on the portrait), and has nothing to produce."""
    sc.player(seat, buildings={"large_tailor_shop": 1}, tiles={"quarry": (2, 2)}, san_juan=1,
              doubloons=0)
    return citizens(sc, seat, large_tailor_shop=1, quarry=2, portrait=1)


@pytest.mark.parametrize("production", ["full_or_decline", "automatic"])
@pytest.mark.parametrize("seat", [0, 1])
def test_B_44_the_tailor_pays_an_owner_with_nothing_to_produce(production: str, seat: int) -> None:
    """B-44: the Large Tailor Shop pays 1 coin per Citizen in the Craftsman phase whether or not
    its owner has goods to produce ("ganha 1 Moeda para cada Cidadão"), the Craftsman or not,
    whichever way production is played (A-28)."""
    sc = tailor_owner(cit(production=production), seat)
    sc.player(1 - seat, tiles={"corn": (1, 1)})
    state = sc.finish_phase(sc.choose("craftsman", 0))
    assert state.players[seat].doubloons == 4


def test_A_28_declining_production_still_pays_the_tailor() -> None:
    """A-28 with B-44 (the ruling beside ``phases._produce``): declining takes no crate, but the
    Tailor's coins are not production: the owner who declines is paid all the same."""
    sc = tailor_owner(cit(production="full_or_decline"), 1)
    sc.player(1, tiles={"quarry": (2, 2), "corn": (1, 1)})
    state = sc.choose("craftsman", 0)
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("produce", (1,))
    state = sc.act(state, 1, "pass")
    assert state.players[1].doubloons == 4
    assert state.players[1].goods == [0] * len(state.players[1].goods)


def test_T_X2_7_town_square_doubles_citizens() -> None:
    """T-X2-7, X2-5, B-45: occupied Town Square, 3 Citizens: 3 + 3 = 6 VP from Citizens."""
    sc = cit()
    sc.player(0, buildings={"town_square": 1}, tiles={"corn": (2, 2)})
    citizens(sc, 0, town_square=1, corn=2)
    state = sc.state
    state.phase = GAME_OVER
    outcome = GAME.outcome(state)
    assert outcome is not None
    parts = outcome.scores[0].breakdown
    assert parts["citizens"] == 3 and parts["town_square"] == 3


def test_B_42_rescue_post_trades_at_the_start_of_the_captain_phase() -> None:
    """B-42, §6.3: at the start of the Captain phase, before anyone loads (the classic Royal
    Supplier: before its owner's first turn): once per Citizen, 1 crate per type for 1 VP.
    Example: 2 Citizens, 3 Corn and 1 Sugar: 1 Corn + 1 Sugar for 2 VP."""
    sc = cit()
    sc.player(1, buildings={"rescue_post": 1}, tiles={"corn": (1, 1)},
              goods={"corn": 3, "sugar": 1})
    citizens(sc, 1, rescue_post=1, corn=1)
    sc.player(0, goods={"coffee": 2})
    state = sc.choose("captain", 0)
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("rescue_post", (1,))
    assert "rp.corn.sugar" in sc.legal(state, 1)
    state = sc.act(state, 1, "rp.corn.sugar")
    assert state.players[1].vp == 2 and state.players[1].goods[0] == 2
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("ship", (0,))
    assert sc.invariant_failures(state) == []


def test_B_38_zoning_office_buys_and_sells_properties_only() -> None:
    """B-38, A-41, A-43: [W] pay 1 coin for a random property from the bag (recycling the
    discard when the bag is empty); [C] discard a property (never a quarry) for 1 coin."""
    sc = cit(3)
    sc.player(0, buildings={"zoning_office": 1}, doubloons=2, goods={"corn": 1})
    sc.stacks({}, {"coffee": 1})
    state = sc.choose("trader", 0)
    assert "zo.buy" in sc.legal(state, 0)
    state = sc.act(state, 0, "zo.buy")
    assert state.players[0].tiles[4] == 1 and state.players[0].doubloons == 1
    sc2 = cit(3)
    sc2.player(0, buildings={"zoning_office": 1}, tiles={"corn": 1, "quarry": 1})
    citizens(sc2, 0, zoning_office=1)
    state = sc2.choose("trader", 0)
    assert sorted(c for c in sc2.legal(state, 0) if c.startswith("zo.")) == ["zo.sell.corn"]


def test_X2_6_the_game_ends_by_a_full_town_or_vp_only() -> None:
    """X2-6: failing to fill the Agency is no trigger with Expansion II."""
    sc = cit()
    sc.player(0, buildings={"large_sugar_mill": 0, "large_tobacco_storage": 0})
    sc.set_colonists(supply=0, ship=0)
    state = sc.finish_phase(sc.choose("recruiter", 0))
    assert state.end_reasons == [] and not state.over


def test_B_43_country_house_takes_a_citizen_at_the_recruiter_phase_start() -> None:
    """B-43: at the start of the Recruiter phase ([W] or [C]) the owner takes a Citizen from
    the supply; none left, a worker from the supply; never from the Agency."""
    sc = cit()
    sc.player(1, buildings={"country_house": 1})
    agency = sc.state.colonist_ship
    state = sc.choose("recruiter", 0)
    p = state.players[1]
    assert p.nobles[-1] == 1 and p.san_juan == 1  # on his portrait, placed this phase
    assert state.colonist_ship == agency
    sc2 = cit()
    sc2.player(1, buildings={"country_house": 1})
    noble_supplies(sc2, supply=0)
    state = sc2.choose("recruiter", 0)
    assert state.players[1].san_juan == 1 and state.players[1].nobles[-1] == 0


def test_A_48_expansions_with_two_players() -> None:
    """A-48: expansions with 2 players are played with the 2-player setup, then each
    expansion's: the Agency 1 worker + 1 Citizen, one copy of each commercial building."""
    state = GAME.setup({"players": 2, "expansions": [1, 2, 3, 4]}, 5)
    view = GAME.view(state, None)
    assert view["workers"]["agency"] == 1 and view["citizens"]["agency"] == 1
    assert len(view["roles"]) == 8  # 7 + the Smuggler


def test_X2_4_citizens_are_workers_for_every_rule() -> None:
    """X2-4: a Citizen occupies and produces like a worker (the Fortress counts it too)."""
    sc = cit()
    sc.player(0, tiles={"corn": (2, 2)}, buildings={"fortress": 1}, san_juan=1)
    citizens(sc, 0, corn=1, fortress=1)
    state = sc.choose("craftsman", 0)
    state = sc.act(state, 0, "produce")
    assert state.players[0].goods[0] == 2  # the Citizen's Corn produces
    assert score_parts(sc, 0)["fortress"] == 1  # 4 pieces, Citizens included: 4 // 3
