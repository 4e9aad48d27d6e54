"""Captain phase (rules spec §4.6): loading, privilege, Harbor, Wharf, storage, emptying."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, Prompt
from engine.puerto_rico.legality import keep_options, kept_sets
from tests.engine.puerto_rico.scenario import GAME, Scenario


def test_t_cap_1_worked_example_of_the_classic_rulebook() -> None:
    """T-CAP-1 (§4.6, worked example in [C]): the whole loading sequence, storage and emptying."""
    sc = Scenario(players=4)
    ana, roberto, cristina, david = range(4)
    sc.player(ana, goods={"corn": 2, "sugar": 6})
    sc.player(roberto, goods={"sugar": 2, "tobacco": 3})
    sc.player(cristina, goods={"corn": 2, "tobacco": 1})
    sc.player(david, goods={"corn": 1, "indigo": 5})
    sc.ships([(5, None, 0), (6, "corn", 3), (7, None, 0)])
    state = sc.choose("captain", ana)
    # turn 1: the 5-ship is illegal for sugar (it would leave barrels behind)
    assert "ship.sugar.0" not in sc.legal(state, ana)
    state = sc.act(state, ana, "ship.sugar.2")
    state = sc.act(state, roberto, "ship.sugar.2")  # 1 sugar fills the 7-ship
    state = sc.act(state, cristina, "ship.tobacco.0")
    assert sc.legal(state, david) == ["ship.corn.1"]  # indigo has no legal ship
    state = sc.act(state, david, "ship.corn.1")
    state = sc.act(state, ana, "ship.corn.1")  # corn ship now full
    state = sc.act(state, roberto, "ship.tobacco.0")
    # nobody can load any more. Storage: each player has a single kind left, so nobody has a
    # real choice and nobody is asked; the next role pick follows.
    assert GAME.prompt(state) == Prompt((roberto,), "role", False)
    vp = [p.vp for p in state.players]
    assert vp == [9, 4, 1, 1]
    assert state.players[roberto].goods == [0, 0, 1, 0, 0]
    assert state.players[cristina].goods == [1, 0, 0, 0, 0]
    assert state.players[david].goods == [0, 1, 0, 0, 0]
    # the 6-ship (corn) and 7-ship (sugar) are emptied; the 5-ship keeps 4 tobacco
    assert state.ship_kind == [3, -1, -1] and state.ship_load == [4, 0, 0]
    assert sc.invariant_failures(state) == []


def _vp_events(sc: Scenario, seat: int) -> list[tuple[int, str]]:
    return [
        (int(e.data["amount"]), str(e.data["reason"]))
        for e in sc.events_of("VpEarned")
        if e.seat == seat
    ]


def _harbor_wharf_owner(sc: Scenario) -> None:
    """Seat 1 owns an occupied Harbor and Wharf, 5 tobacco and 2 sugar; the tobacco ship has
    room for exactly 3, the sugar ship for 5."""
    sc.player(1, goods={"tobacco": 5, "sugar": 2}, buildings={"harbor": 1, "wharf": 1})
    sc.ships([(5, "tobacco", 2), (6, "sugar", 1), (7, None, 0)])


def test_t_cap_2_harbor_and_wharf_example() -> None:
    """T-CAP-2 (§4.6, §8.2 Harbor and Wharf, example in [C]): 3 tobacco fill the tobacco ship
    (3 + 1 Harbor), 2 sugar go to the sugar ship (2 + 1), then the Wharf ships the 2 remaining
    tobacco to the supply (2 + 1): Harbor bonus 3 for the phase; the full tobacco ship is
    emptied."""
    sc = Scenario(players=4)
    _harbor_wharf_owner(sc)
    supply = list(sc.state.goods)
    state = sc.choose("captain", 0)  # the Captain has no goods: skipped
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    assert sc.legal(state, 1) == ["ship.sugar.1", "ship.tobacco.0", "wharf.sugar", "wharf.tobacco"]
    state = sc.act(state, 1, "ship.tobacco.0")
    assert state.ship_load[0] == 5
    state = sc.act(state, 1, "ship.sugar.1")
    # only the Wharf can take the last tobacco: optional, so "pass" is offered (§4.0)
    assert sc.legal(state, 1) == ["wharf.tobacco", "pass"]
    state = sc.act(state, 1, "wharf.tobacco")
    assert _vp_events(sc, 1) == [
        (3, "shipping"),
        (1, "harbor"),
        (2, "shipping"),
        (1, "harbor"),
        (2, "shipping"),
        (1, "harbor"),
    ]
    assert state.players[1].vp == 10
    assert state.players[1].goods == [0, 0, 0, 0, 0]
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "tobacco", "count": 2, "ship": "wharf"}
    # end: the tobacco ship (full) is emptied; the sugar ship (3 of 6) keeps its cargo
    assert state.ship_kind == [-1, 2, -1] and state.ship_load == [0, 3, 0]
    assert state.goods[3] == supply[3] + 2 + 5
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert sc.invariant_failures(state) == []


def test_t_cap_3_wharf_variant_leaves_the_ship_unfilled() -> None:
    """T-CAP-3 (§8.2 Wharf, example in [C]): the same player puts all 5 tobacco on his Wharf
    (5 + 1 Harbor); then he must load his sugar (the Wharf is used); the tobacco ship is not
    filled by him and therefore not emptied."""
    sc = Scenario(players=4)
    _harbor_wharf_owner(sc)
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "wharf.tobacco")
    assert state.players[1].vp == 6
    assert GAME.prompt(state) == Prompt((1,), "ship", True)  # one legal action: forced
    assert sc.legal(state, 1) == ["ship.sugar.1"]
    state = sc.act(state, 1, "ship.sugar.1")
    assert state.players[1].vp == 6 + 3
    assert state.ship_kind == [3, 2, -1] and state.ship_load == [2, 3, 0]
    assert sc.invariant_failures(state) == []


def test_t_cap_4_largest_ship() -> None:
    """T-CAP-4 (§4.6.1 rule 7 [C], [A]): ships 5, 6, 7 all empty, a player has 8 coffee: he must
    use the 7-ship, loading 7 and keeping 1."""
    sc = Scenario(players=4)
    sc.player(1, goods={"coffee": 8})
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "ship", True)
    assert sc.legal(state, 1) == ["ship.coffee.2"]
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 1, "ship.coffee.0")
    assert err.value.code == "ship_not_allowed"
    state = sc.act(state, 1, "ship.coffee.2")
    assert sc.events_of("GoodsShipped")[-1].data == {"good": "coffee", "count": 7, "ship": 2}
    assert sc.events_of("ShipsEmptied")[-1].data == {"ships": [2]}  # full, so emptied at the end
    assert state.players[1].goods[4] == 1 and state.players[1].vp == 7
    assert sc.invariant_failures(state) == []


def test_t_cap_5_small_warehouse_storage() -> None:
    """T-CAP-5 (§4.6.3 [C], [A]): after loading, a player with an occupied Small Warehouse has
    1 corn, 2 indigo, 4 tobacco.  Keeping all 4 tobacco (warehouse) + 1 indigo (single barrel)
    discards 1 corn and 1 indigo; any other keep following §4.6.3 is legal too."""
    sc = Scenario(players=4)
    sc.player(2, goods={"corn": 1, "indigo": 2, "tobacco": 4}, buildings={"small_warehouse": 1})
    sc.ships([(5, "corn", 5), (6, "indigo", 6), (7, "tobacco", 7)])  # nothing can be loaded
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((2,), "keep", False)
    keeps = sc.legal(state, 2)
    # every keep that follows §4.6.3 and throws away no barrel another keep would save
    # ("corn1.indigo1" loses to "corn1.indigo2", "corn1.tobacco1" to "corn1.tobacco4")
    assert sorted(keeps) == sorted(
        [
            "keep.corn1.indigo2",
            "keep.indigo2.tobacco1",
            "keep.corn1.tobacco4",
            "keep.indigo1.tobacco4",
        ]
    )
    with pytest.raises(IllegalAction) as err:
        sc.act(state, 2, "keep.tobacco4")
    assert err.value.code == "keep_not_allowed"
    state = sc.act(state, 2, "keep.indigo1.tobacco4")
    assert state.players[2].goods == [0, 1, 0, 4, 0]
    assert sc.events_of("GoodsDiscarded")[-1].data == {"goods": {"corn": 1, "indigo": 1}}
    assert state.ship_load == [0, 0, 0]  # the three full ships are emptied
    assert sc.invariant_failures(state) == []


def test_t_cap_6_privilege_needs_a_load() -> None:
    """T-CAP-6 (§4.0, §4.6 [C], [A]): the Captain has no loadable goods during the whole phase
    (his corn ship is full): +0 VP for him, while the others load."""
    sc = Scenario(players=3)
    sc.player(0, goods={"corn": 2})
    sc.player(1, goods={"sugar": 2})
    sc.ships([(4, "corn", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    state = sc.act(state, 1, "ship.sugar.1")
    assert [p.vp for p in state.players] == [0, 2, 0]
    assert sc.invariant_failures(state) == []


def test_t_cap_7_kind_blocked_by_a_full_ship() -> None:
    """T-CAP-7 (§4.6.1 rule 2 [C], [A]): the corn ship is full; a player with only corn has no
    legal load although another ship is empty: he is never asked, and keeps 1 corn."""
    sc = Scenario(players=3)
    sc.player(1, goods={"corn": 3})
    sc.ships([(4, "corn", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.players[1].goods == [1, 0, 0, 0, 0] and state.players[1].vp == 0
    assert not sc.events_of("GoodsShipped")
    assert sc.invariant_failures(state) == []


def test_a7_free_choice_among_tied_empty_ships() -> None:
    """Ruling A7 (§4.6.1 rule 7, §14.1): when several empty ships take all of the player's
    barrels, he chooses freely: 3 corn with empty ships of 4 and 6 (2 players) → either."""
    sc = Scenario(players=2)
    sc.player(1, goods={"corn": 3})
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["ship.corn.0", "ship.corn.1"]
    assert sc.act(state, 1, "ship.corn.0").ship_load == [3, 0]
    assert sc.act(state, 1, "ship.corn.1").ship_load == [0, 3]
    assert sc.invariant_failures(sc.state) == []


def test_a8_loading_ends_after_a_full_cycle_without_a_load() -> None:
    """Ruling A8 (§4.6.2, §14.1; [C] "continues while someone can load", violet buildings never
    compulsory): a Wharf owner who could only use his Wharf may pass; he is asked again after
    someone else loaded; loading ends once a complete cycle passes without a load."""
    sc = Scenario(players=3)
    sc.player(0, goods={"corn": 2, "sugar": 1})
    sc.player(1, goods={"indigo": 3}, buildings={"wharf": 1})
    sc.ships([(4, "indigo", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.1")
    assert GAME.prompt(state) == Prompt((1,), "ship", False)
    assert sc.legal(state, 1) == ["wharf.indigo", "pass"]
    state = sc.act(state, 1, "pass")
    assert sc.legal(state, 0) == ["ship.sugar.2"]  # seat 2 had nothing: skipped
    state = sc.act(state, 0, "ship.sugar.2")
    assert GAME.prompt(state) == Prompt((1,), "ship", False)  # asked again
    state = sc.act(state, 1, "pass")
    # seat 2 and seat 0 cannot load, seat 1 passed: a full cycle without a load ends loading
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    assert state.players[1].goods == [0, 1, 0, 0, 0]  # stored 1, discarded 2
    assert [e.seat for e in sc.events_of("Passed")] == [1, 1]
    assert sc.invariant_failures(state) == []


def test_a9_captain_privilege_on_first_load_of_any_kind() -> None:
    """Ruling A9 (§4.6, §14.1; [C] "when loading his first kind", a Wharf load counts "as if on a
    ship"): +1 VP on the Captain's first load of the phase, once, be it a Wharf load or a load on
    a later turn."""
    # first load is a Wharf load; the later cargo load gets no second privilege
    sc = Scenario(players=3)
    sc.player(0, goods={"indigo": 3, "sugar": 1}, buildings={"wharf": 1})
    sc.ships([(4, "indigo", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "wharf.indigo")
    state = sc.act(state, 0, "ship.sugar.1")
    assert _vp_events(sc, 0) == [(4, "shipping"), (1, "shipping")]
    assert state.players[0].vp == 5
    # the Captain passes his first turn (Wharf only) and loads on his second turn
    sc = Scenario(players=3)
    sc.player(0, goods={"indigo": 3}, buildings={"wharf": 1})
    sc.player(1, goods={"corn": 1})
    sc.ships([(4, "indigo", 4), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "ship.corn.1")
    state = sc.act(state, 0, "wharf.indigo")
    assert state.players[0].vp == 3 + 1 and state.players[1].vp == 1
    assert sc.invariant_failures(state) == []


def test_a10_harbor_one_vp_per_loading_action() -> None:
    """Ruling A10 (§8.2 Harbor, §14.1; [C] "each time he loads", [A] "each different kind"): +1
    VP per loading action, cargo ship or Wharf, even for a kind he already loaded this phase;
    an unoccupied Harbor gives nothing."""
    sc = Scenario(players=3)
    sc.player(1, goods={"corn": 6}, buildings={"harbor": 1, "wharf": 1})
    sc.player(2, goods={"corn": 6}, buildings={"harbor": 0, "wharf": 1})
    sc.ships([(4, "corn", 2), (5, None, 0), (6, None, 0)])
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.corn.0")  # 2 corn, ship full
    assert sc.legal(state, 2) == ["wharf.corn", "pass"]
    state = sc.act(state, 2, "wharf.corn")
    state = sc.act(state, 1, "wharf.corn")  # the 4 remaining corn, same kind again
    assert _vp_events(sc, 1) == [(2, "shipping"), (1, "harbor"), (4, "shipping"), (1, "harbor")]
    assert state.players[1].vp == 8
    assert state.players[2].vp == 6
    assert sc.invariant_failures(state) == []


def test_a53_wharf_capacity_is_unlimited() -> None:
    """Ruling A53 (§8.2 Wharf, §14.1; [C] 11, [A] no limit): the Wharf takes all 11 indigo (the
    most anyone can hold) in one load, straight to the supply; once per phase."""
    sc = Scenario(players=4)
    sc.player(1, goods={"indigo": 11}, buildings={"wharf": 1})
    assert sc.state.goods[1] == 0
    state = sc.choose("captain", 0)
    assert sc.legal(state, 1) == ["ship.indigo.2", "wharf.indigo"]
    state = sc.act(state, 1, "wharf.indigo")
    assert state.players[1].goods[1] == 0 and state.players[1].vp == 11
    assert state.goods[1] == 11
    assert state.ship_load == [0, 0, 0]
    assert sc.invariant_failures(state) == []


def test_warehouses_keep_whole_kinds_but_do_not_exempt_from_loading() -> None:
    """§4.6.3 and §8.2 Small/Large Warehouse [C], [A]: a Large Warehouse keeps all barrels of 2
    kinds, both warehouses 3 kinds, plus the single barrel; a warehouse does not exempt its owner
    from compulsory loading."""
    sc = Scenario(players=3)
    goods = {"corn": 3, "indigo": 3, "sugar": 3, "tobacco": 3}
    sc.player(1, goods=goods, buildings={"large_warehouse": 1, "small_warehouse": 1})
    sc.player(2, goods=goods, buildings={"large_warehouse": 1})
    sc.player(0, goods={"corn": 1}, buildings={"small_warehouse": 1})
    sc.ships([(4, "indigo", 4), (5, "sugar", 5), (6, None, 0)])
    state = sc.choose("captain", 0)
    # the Captain's single corn must be loaded, warehouse or not
    assert sc.legal(state, 0) == ["ship.corn.2"]
    state = sc.act(state, 0, "ship.corn.2")
    state = sc.act(state, 1, "ship.corn.2")  # 3 corn
    state = sc.act(state, 2, "ship.corn.2")  # 2 corn fill the 6-ship
    assert state.ship_load == [4, 5, 6]
    # seat 1 keeps his 3 remaining kinds whole (both warehouses): no choice, no prompt
    assert GAME.prompt(state) == Prompt((2,), "keep", False)
    assert "keep.indigo3.sugar3.tobacco1" in sc.legal(state, 2)  # 2 kinds + 1 barrel
    assert "keep.corn1.indigo3.sugar3.tobacco1" not in sc.legal(state, 2)
    state = sc.act(state, 2, "keep.indigo3.sugar3.tobacco1")
    assert state.players[1].goods == [0, 3, 3, 3, 0]
    assert state.players[2].goods == [0, 3, 3, 1, 0]
    assert sc.invariant_failures(state) == []


def test_keep_choices_never_throw_away_a_barrel_for_nothing() -> None:
    """Ruling on §4.6.3 (legality.keep_options): a Small Warehouse owner with 1 corn and
    2 indigo keeps everything by protecting the indigo; protecting the corn instead would only
    lose an indigo, so it is not offered and he is not asked at all."""
    sc = Scenario(players=3)
    sc.player(1, goods={"corn": 1, "indigo": 2}, buildings={"small_warehouse": 1})
    sc.ships([(4, "corn", 4), (5, "indigo", 5), (6, "sugar", 1)])  # nothing can be loaded
    state = sc.choose("captain", 0)
    assert sc.events_of("GoodsDiscarded") == []
    assert state.players[1].goods == [1, 2, 0, 0, 0]
    assert GAME.prompt(state) == Prompt((1,), "role", False)


@pytest.mark.parametrize("goods", [
    [0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0, 3, 0, 0, 0], [2, 0, 1, 0, 4], [1, 1, 1, 1, 1],
    [0, 0, 0, 0, 7],
])
def test_keep_choices_without_a_warehouse_are_one_barrel_of_any_good_he_has(
    goods: list[int],
) -> None:
    """§4.6.3 with no warehouse: one barrel of any kind he holds (nothing when he holds none).
    ``keep_options`` lists it at once: the same choices, in the same order, as the full
    enumeration (``kept_sets``) with that allowance."""
    sc = Scenario(players=3)
    sc.player(1, goods=dict(zip(("corn", "indigo", "sugar", "tobacco", "coffee"), goods,
                                strict=True)))
    state = sc.state
    assert keep_options(state, 1) == kept_sets(list(state.players[1].goods), 0, 1)
    held = [k for k, n in enumerate(goods) if n]
    assert [a.keep for a in keep_options(state, 1)] == (
        [tuple(int(j == k) for j in range(len(goods))) for k in held] or [(0,) * len(goods)])
