# mypy: disable-error-code="union-attr"
# (a prompt or event a scenario knows exists: the tests read it straight away)
"""Producing and selling (rules spec §4.2, §4.3, §5.6, §5.7, §5.8, §5.12, §5.15): worked
examples S-02, S-07, S-11, S-13; tests D-08, D-09; rulings A-1, A-7, A-17."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.policies import make_policy
from engine.san_juan.data import TILES

from .scenario import GAME, Scenario, legal_codes, prompt_kind


def max_goods(codes: list[str]) -> int:
    return max((len(GAME.decode_action(c).goods) for c in codes if c != "pass"), default=0)


def test_s02_selling_three_goods_with_trading_post_and_market_stand() -> None:
    """S-02 (§4.3, §5.6, §5.8): the trader with a Trading post sells 3 goods at T3 and draws
    1 + 2 + 3 + 1 (Market stand) = 7; the others then sell 1 each at T3's prices; T3 goes to
    the bottom of the stack."""
    sc = Scenario(players=3)
    sc.player(
        0,
        buildings=[
            "indigo_plant",
            "tobacco_storage",
            "silver_smelter",
            "market_stand",
            "trading_post",
        ],
        goods=[0, 1, 2],
    )
    sc.player(1, buildings=["indigo_plant", "coffee_roaster"], goods=[0, 1])
    sc.player(2, buildings=["indigo_plant"])
    sc.tiles([3])
    state = sc.choose("trader", 0)
    assert state.face_up == 3
    assert GAME.prompt(state).seats == (0, 1)  # seat 2 has no good: not asked
    hand = sum(state.players[0].hand)
    discard = len(state.discard)
    state = sc.act(state, 0, "s.indigo,tobacco,silver")
    assert sum(state.players[0].hand) == hand + 7
    assert len(state.discard) == discard + 3
    assert max_goods(legal_codes(state, 1)) == 1
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, GAME.decode_action("s.indigo,coffee"))
    assert err.value.code == "over_capacity"
    hand1 = sum(state.players[1].hand)
    state = sc.act(state, 1, "s.coffee")
    assert sum(state.players[1].hand) == hand1 + 2  # T3 coffee
    assert state.face_up == 0 and state.tiles[-1] == 3
    assert [e.data["tile"] for e in sc.of_type("TileReturned")] == [3]


@pytest.mark.parametrize(
    ("chooser", "library", "limit"), [(1, False, 2), (0, False, 3), (0, True, 4)]
)
def test_s07_trading_post_limits(chooser: int, library: bool, limit: int) -> None:
    """S-07 (§5.6): with a Trading post, 2 as a non-trader, 3 as the trader, 4 with the
    Library; more is refused."""
    sc = Scenario(players=3)
    sc.player(
        0,
        buildings=[
            "indigo_plant",
            "sugar_mill",
            "tobacco_storage",
            "coffee_roaster",
            "silver_smelter",
            "trading_post",
            "library",
        ],
        goods=[0, 1, 2, 3, 4],
    )
    state = sc.choose("trader", chooser, library=library)
    if chooser != 0:
        state = sc.act(state, chooser, "pass") if chooser in GAME.prompt(state).seats else state
    assert max_goods(legal_codes(state, 0)) == limit
    too_many = "s." + ",".join(["indigo", "sugar", "tobacco", "coffee", "silver"][: limit + 1])
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action(too_many))
    assert err.value.code == "over_capacity"


@pytest.mark.parametrize(
    ("chooser", "library", "limit"), [(1, False, 2), (0, False, 3), (0, True, 4)]
)
def test_s11_aqueduct_limits(chooser: int, library: bool, limit: int) -> None:
    """S-11 (§5.12): with an Aqueduct, 2 as a non-producer, 3 as the producer, 4 with the
    Library (empty production buildings still needed)."""
    sc = Scenario(players=3)
    sc.player(
        0,
        buildings=[
            "indigo_plant",
            "sugar_mill",
            "tobacco_storage",
            "coffee_roaster",
            "silver_smelter",
            "aqueduct",
            "library",
        ],
    )
    state = sc.choose("producer", chooser, library=library)
    assert max_goods(legal_codes(state, 0)) == limit


@pytest.mark.parametrize(
    ("tile", "sold", "drawn"), [(5, "sugar,coffee", 6), (3, "sugar,coffee", 4), (3, "sugar", 2)]
)
def test_s13_market_hall(tile: int, sold: str, drawn: int) -> None:
    """S-13 (§5.15, A-6): the Market hall adds 1 card once per phase when at least one good is
    sold (T5: 2 + 3 + 1; T3: 1 + 2 + 1; one sugar at T3: 1 + 1)."""
    sc = Scenario(players=3)
    sc.player(
        0, buildings=["indigo_plant", "sugar_mill", "coffee_roaster", "market_hall"], goods=[1, 2]
    )
    sc.tiles([tile])
    state = sc.choose("trader", 0)
    hand = sum(state.players[0].hand)
    state = sc.act(state, 0, f"s.{sold}")
    assert sum(state.players[0].hand) == hand + drawn


def test_d08_production_limits() -> None:
    """D-08 (§4.2): the producer with 3 production buildings, 2 of them full, produces at most
    1; a non-producer with no empty production building is not asked; never 2 goods on one
    building."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "sugar_mill", "tobacco_storage"], goods=[1, 2])
    sc.player(1, buildings=["indigo_plant"], goods=[0])
    state = sc.choose("producer", 0)
    assert GAME.prompt(state).seats == (0, 2)
    assert legal_codes(state, 0) == ["pr.indigo", "pass"]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 2, GAME.decode_action("pr.indigo*2"))


def test_well_needs_two_goods_produced() -> None:
    """§5.7 / A-17: the Well pays 1 card for at least 2 goods produced in this phase."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "sugar_mill", "well"])
    state = sc.choose("producer", 0)
    hand = sum(state.players[0].hand)
    state = sc.act(state, 0, "pr.indigo")
    assert sum(state.players[0].hand) == hand
    sc2 = Scenario(players=3)
    sc2.player(0, buildings=["indigo_plant", "sugar_mill", "well"])
    state = sc2.choose("producer", 0)
    state = sc2.act(state, 0, "pr.indigo,sugar")
    assert sum(state.players[0].hand) == hand + 1


def test_a7_the_tile_turns_even_if_nobody_can_sell() -> None:
    """A-7 / D-09: choosing the Trader turns the top tile and returns it to the bottom even
    when nobody has a good: the phase ends at once."""
    sc = Scenario(players=3)
    sc.tiles([2, 4])
    state = sc.choose("trader", 0)
    assert [e.data["tile"] for e in sc.of_type("TileRevealed")] == [2]
    assert state.face_up == 0 and state.tiles == [4, 1, 3, 5, 2]
    assert prompt_kind(state) == "role"
    assert [e.type for e in sc.events][-1] == "PhaseEnded"


def test_d09_the_tile_cycle_repeats_every_five_trader_phases() -> None:
    """D-09 (§4.3): over a whole game the tile of trader phase n + 5 is the tile of phase n."""
    for seed in range(6):
        state = GAME.setup({"players": 3}, seed)
        policies = [make_policy("random", "san-juan", seed * 7 + s) for s in range(3)]
        tiles: list[int] = []
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, events = GAME.apply(state, seat, action)
            tiles.extend(e.data["tile"] for e in events if e.type == "TileRevealed")
        assert len(tiles) > 5
        assert all(tiles[i] == tiles[i + 5] for i in range(len(tiles) - 5))
        assert sorted(tiles[:5]) == list(TILES)


def test_a1_producing_from_an_empty_table_places_nothing() -> None:
    """A-1 point 3: with both piles empty, a producer places no good; nothing else happens."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "sugar_mill"])
    state = sc.state
    # every other card goes into the other hands
    rest = state.pile + state.discard
    state.pile, state.discard = [], []
    for card in rest:
        state.players[1 + card % 2].hand[card] += 1
    state = sc.choose("producer", 0)
    state = sc.act(state, 0, "pr.indigo,sugar")
    assert state.players[0].goods == [-1, -1]
    produced = sc.of_type("GoodsProduced")[-1]
    assert produced.data["goods"] == []
