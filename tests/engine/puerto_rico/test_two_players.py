"""Two-player rules (rules spec §9): T-2P-1, T-2P-2 and the 2-player changes that play shows
(minimum refill N = 2).  The setup rows are in ``test_setup``.  Source: classic rulebook [C]
2-player rules; [A] gives the same list."""

from __future__ import annotations

from engine.core import Prompt
from tests.engine.puerto_rico.scenario import GAME, Scenario


def _round(sc: Scenario, cards: list[str]) -> list[int]:
    state = sc.state
    asked = []
    for card in cards:
        prompt = GAME.prompt(state)
        assert prompt is not None and prompt.kind == "role"
        asked.append(prompt.seats[0])
        state = sc.act(state, prompt.seats[0], f"r.{card}")
        state = sc.finish_phase(state)
    return asked


def test_t_2p_1_pick_order_and_one_doubloon() -> None:
    """T-2P-1 (§9 "Play" [C], [A]): with governor G and other player O the picks go G, O, G, O,
    G, O; exactly 1 of the 7 role cards gets +1 doubloon; the governor card passes to O, who
    starts the next round."""
    sc = Scenario(players=2)
    assert len(sc.state.cards) == 7
    cards = ["prospector", "settler", "mayor", "builder", "trader", "craftsman"]
    assert _round(sc, cards) == [0, 1, 0, 1, 0, 1]
    state = sc.state
    assert sum(state.card_doubloons) == 1
    assert state.card_doubloons[state.rs.card_of["r.captain"]] == 1
    assert state.governor == 1
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    # round 2: the unchosen Captain (1 doubloon) is available again, and the order is O, G, ...
    assert "r.captain" in sc.legal(state, 1)
    assert _round(sc, ["captain", "prospector", "settler", "mayor", "builder", "trader"]) == [
        1,
        0,
        1,
        0,
        1,
        0,
    ]
    assert sc.state.card_doubloons[sc.state.rs.card_of["r.craftsman"]] == 1
    assert sum(sc.state.card_doubloons) == 1
    assert sc.invariant_failures(sc.state) == []


def test_t_2p_2_corn_must_go_on_the_corn_ship() -> None:
    """T-2P-2 (§9, §4.6.1 rules 2 and 6 [C]): ships 4 and 6; the 4-ship holds corn; a player with
    5 corn must put as much corn as fits on the 4-ship and may not use the empty 6-ship."""
    sc = Scenario(players=2)
    sc.player(1, goods={"corn": 5})
    sc.ships([(4, "corn", 1), (6, None, 0)])
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "ship", True)
    assert sc.legal(state, 1) == ["ship.corn.0"]
    state = sc.act(state, 1, "ship.corn.0")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "corn", "count": 3, "ship": 0}
    assert state.players[1].vp == 3
    assert state.players[1].goods[0] == 1  # 2 left, 1 kept in storage
    assert sc.invariant_failures(state) == []


def test_two_players_minimum_refill_is_two() -> None:
    """§9 "Colonists" [C], [A]: the minimum colonist-ship refill is still N = 2."""
    sc = Scenario(players=2)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert state.colonist_ship == 2
    assert sc.events_of("ColonistShipRefilled")[-1].data == {"count": 2, "needed": 2}
    assert sc.invariant_failures(state) == []
