"""1897's Expansion III, the Smuggler (§7.3: X3-1...X3-4, X3-A...X3-D, A-18, A-19, T-X3-1...
T-X3-6), played with the kernel's Buccaneer and 1897's differences (§6.3: a Hijacked role's
chooser pays the Smuggler; a Lure's surplus is discarded)."""

from __future__ import annotations

from engine import get_game
from engine.core import IllegalAction
from tests.engine.puerto_rico_1897.scenario import Scenario1897

GAME = get_game("puerto-rico-1897")


def roles(sc: Scenario1897, state: object, seat: int) -> list[str]:
    return [c for c in sc.legal(state, seat) if c.startswith("r.")]  # type: ignore[arg-type]


def test_X3_1_the_smuggler_tile_and_its_options() -> None:
    """X3-1, X3-2: an eighth role tile; its chooser alone acts, one of four actions, no
    advantage (codes ``sm.raid_ship``, ``sm.plunder``, ``sm.lure``, ``sm.hijack``)."""
    sc = Scenario1897(4, expansions=[3])
    sc.ships([(5, None, 0), (6, None, 0), (7, "sugar", 5)])
    sc.house(["corn"])
    state = sc.choose("smuggler", 0)
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("smuggler", (0,))
    codes = sc.legal(state, 0)
    assert {c.split(".")[1] for c in codes} == {"raid_ship", "plunder", "lure", "hijack"}
    assert "sm.hijack.smuggler" not in codes


def test_T_X3_1_raid_a_ship() -> None:
    """T-X3-1, X3-A: ship 7 holds 5 Sugar: the Smuggler keeps 3, 2 go to the supply, the ship
    is empty and has no type."""
    sc = Scenario1897(4, expansions=[3])
    sc.ships([(5, None, 0), (6, None, 0), (7, "sugar", 5)])
    supply = GAME.view(sc.state, None)["goods_supply"]["sugar"]
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.raid_ship.2.3")
    view = GAME.view(state, None)
    assert view["players"][0]["goods"]["sugar"] == 3
    assert view["goods_supply"]["sugar"] == supply + 2
    assert view["ships"][2] == {"capacity": 7, "good": None, "count": 0}
    assert sc.events_of("ShipRaided")[-1].data == {"ship": 2, "good": "sugar", "count": 5,
                                                   "kept": 3}
    assert sc.invariant_failures(state) == []


def test_T_X3_2_plunder_the_trading_house() -> None:
    """T-X3-2, X3-B: the house holds Corn, Fruit, Coffee: +3 VP, the house is empty."""
    sc = Scenario1897(4, expansions=[3])
    sc.house(["corn", "fruit", "coffee"])
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.plunder")
    assert state.players[0].vp == 3 and state.house == []
    assert sc.invariant_failures(state) == []


def test_T_X3_3_lure_workers_and_A_19_the_surplus_is_discarded() -> None:
    """T-X3-3, X3-C, A-19: 4 players, Agency 9, the Smuggler has 2 empty spaces: the Agency
    goes down to 4, 5 are removed, he places 2 at once, the 3 others leave the game."""
    sc = Scenario1897(4, expansions=[3])
    sc.player(0, tiles={"corn": 1}, buildings={"small_market": 0})
    sc.set_colonists(ship=9)
    supply = sc.state.colonist_supply
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.lure")
    prompt = sc.prompt(state)
    assert prompt is not None and prompt.kind == "lure_place"
    assert sorted(sc.legal(state, 0)) == ["lure.corn", "lure.small_market", "pass"]
    state = sc.act(state, 0, "lure.corn")
    state = sc.act(state, 0, "lure.small_market")
    view = GAME.view(state, None)
    assert view["workers"] == {"agency": 4, "supply": supply}
    assert state.colonists_out == 3
    assert sc.events_of("AgencyLured")[-1].data == {"removed": 5, "kept": 2}
    assert sc.invariant_failures(state) == []


def test_A_19_lure_surplus_to_the_supply_alternative() -> None:
    """A-19's alternative (option ``lure_surplus: supply``): the surplus goes back to the
    supply, as in classic Puerto Rico."""
    sc = Scenario1897(4, expansions=[3], lure_surplus="supply")
    sc.player(0, tiles={"corn": 1})
    sc.set_colonists(ship=9)
    supply = sc.state.colonist_supply
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.lure")
    state = sc.act(state, 0, "lure.corn")
    assert state.colonists_out == 0
    assert state.colonist_supply == supply + 4
    assert sc.invariant_failures(state) == []


def test_T_X3_4_a_hijacked_role_is_paid_to_the_smuggler() -> None:
    """T-X3-4, X3-D, §6.3: the Smuggler hijacks the Builder (2 coins on it): +2; P3 later
    chooses the Builder with 5 coins: he pays the Smuggler 3 and plays it normally."""
    sc = Scenario1897(4, expansions=[3])
    sc.role_doubloons("builder", 2)
    sc.player(0, doubloons=0)
    sc.player(2, doubloons=5)
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.hijack.builder")
    assert state.players[0].doubloons == 2
    state = sc.act(state, 1, "r.planter")
    state = sc.finish_phase(state)
    assert "r.builder" in roles(sc, state, 2)
    state = sc.act(state, 2, "r.builder")
    assert state.players[0].doubloons == 2 + 3
    assert state.players[2].doubloons == 2
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("build", (2,))
    assert sc.events_of("HijackFeePaid")[-1].seat == 2
    assert sc.invariant_failures(state) == []


def test_A_18_fewer_than_3_coins_cannot_choose_a_hijacked_role() -> None:
    """A-18: choosing a hijacked role requires paying 3 coins."""
    sc = Scenario1897(4, expansions=[3])
    sc.player(1, doubloons=2)
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.hijack.builder")
    assert "r.builder" not in roles(sc, state, 1)
    try:
        GAME.apply(state, 1, "r.builder")
    except IllegalAction as exc:
        assert exc.code == "role_not_allowed"
    else:
        raise AssertionError("a hijacked role chosen without 3 coins")


def test_T_X3_5_an_unchosen_hijacked_role_is_played_by_the_smuggler() -> None:
    """T-X3-5, X3-D, A-18: a hijacked Captain nobody chose is played by the Smuggler after
    the round's last phase (he loads first, +1 VP advantage); no coin on it."""
    sc = Scenario1897(3, expansions=[3])
    sc.player(0, goods={"corn": 2})
    state = sc.choose("smuggler", 0)
    state = sc.act(state, 0, "sm.hijack.captain")
    for seat in (1, 2):
        codes = [c for c in roles(sc, state, seat) if c != "r.captain"]
        state = sc.act(state, seat, codes[0])
        while (prompt := sc.prompt(state)) is not None and prompt.kind not in ("role", "ship"):
            legal = sc.legal(state, prompt.seats[0])
            state = sc.act(state, prompt.seats[0], "pass" if "pass" in legal else legal[0])
    prompt = sc.prompt(state)
    assert prompt is not None and (prompt.kind, prompt.seats) == ("ship", (0,))
    assert sc.events_of("RoundEnded") == []  # the round ends after the hijacked Captain
    state = sc.finish_phase(state)
    assert state.players[0].vp == 2 + 1
    ended = sc.events_of("RoundEnded")[-1].data
    assert "captain" not in ended["coins_on"] and "smuggler" not in ended["coins_on"]


def test_T_X3_6_the_token_holder_cannot_choose_the_smuggler() -> None:
    """T-X3-6, X3-3, X3-4: P2 holds the token: no Smuggler for him; the token moves when
    another player chooses it; no coin is ever put on the Smuggler tile."""
    sc = Scenario1897(4, expansions=[3])
    state = sc.choose("smuggler", 1, governor=0, earlier=["planter"])
    state = sc.act(state, 1, "sm.lure")
    state = sc.finish_phase(state)
    assert "r.smuggler" not in roles(sc, state, 2)
    assert state.buccaneer[0] == 1
