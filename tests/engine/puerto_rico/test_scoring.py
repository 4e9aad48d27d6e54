"""Game end and final scoring (rules spec §7, §8.3): T-END-1..3, the [C] and [A] examples of the
five large buildings, and rulings A14, A18, A38, A47, A52.  Built positions are scored with
``final_scores``; the game-end tests drive the engine to its real end.
Sources: classic rulebook [C], 2020 rulebook [A]."""

from __future__ import annotations

from engine.core import Prompt
from engine.puerto_rico.scoring import final_scores
from engine.puerto_rico.state import GAME_OVER
from tests.engine.puerto_rico.scenario import GAME, Scenario


def _score(sc: Scenario, seat: int) -> dict[str, int]:
    assert sc.invariant_failures(sc.state) == []
    return dict(final_scores(sc.state).scores[seat].breakdown)


# --- game end ---------------------------------------------------------------------------------


def test_t_end_1_vp_chips_run_out() -> None:
    """T-END-1 (§7.1 E3, §4.6 [C]): 2 VP chips are left and a player earns 5 in the Captain
    phase: he takes 2 chips and records 3 on paper; E3 is set; later loads in the phase still
    score; the remaining picks of the round are played, then the game is scored."""
    sc = Scenario(players=4)
    sc.player(1, goods={"corn": 5})
    sc.player(2, goods={"sugar": 2})
    sc.set_vp_supply(2)
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.corn.0")
    assert state.players[1].vp == 5
    assert state.vp_supply == -3  # 2 chips taken, 3 recorded on paper
    assert GAME.view(state, None)["vp_chips_left"] == 0
    assert state.end_reasons == ["vp_chips"]
    state = sc.act(state, 2, "ship.sugar.1")
    assert state.players[2].vp == 2 and state.vp_supply == -5
    assert GAME.prompt(state) == Prompt((1,), "role", False)
    for seat, card in ((1, "prospector"), (2, "trader"), (3, "builder")):
        state = sc.act(state, seat, f"r.{card}")
        state = sc.finish_phase(state)
    assert state.phase == GAME_OVER
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("vp_chips",)
    assert outcome.scores[1].breakdown["chips"] == 5
    assert outcome.winners == (1,)
    assert sc.invariant_failures(state) == []


def test_t_end_2_builder_fills_his_twelfth_space() -> None:
    """T-END-2 (§7.1 E2 [C]): P1 builds his 12th space as the Builder; P2–P4 still build in this
    phase and the rest of the round is played before the end."""
    sc = Scenario(players=4)
    eleven = [
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
        "hospice",
    ]
    sc.player(0, doubloons=4, buildings=eleven)
    for seat in (1, 2, 3):
        sc.player(seat, doubloons=3)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.office")  # 5 − 1 privilege = 4
    assert state.players[0].doubloons == 0
    assert state.end_reasons == ["city_full"]
    for seat, name in ((1, "small_warehouse"), (2, "hacienda"), (3, "construction_hut")):
        assert GAME.prompt(state) == Prompt((seat,), "build", False)
        state = sc.act(state, seat, f"b.{name}")
    assert [len(p.city) for p in state.players] == [12, 1, 1, 1]
    for seat, card in ((1, "prospector"), (2, "trader"), (3, "craftsman")):
        assert GAME.prompt(state) == Prompt((seat,), "role", False)
        state = sc.act(state, seat, f"r.{card}")
        state = sc.finish_phase(state)
    assert state.phase == GAME_OVER
    assert sc.invariant_failures(state) == []


def test_t_end_3_tie_break() -> None:
    """T-END-3 (§7.2 tie-break [C], [C'], [A]): A and B both score 48; A has 3 doubloons + 2
    barrels = 5, B 6 doubloons + 0 barrels = 6: B wins."""
    sc = Scenario(players=4)
    a, b = 0, 1
    sc.player(a, vp=48, doubloons=3, goods={"corn": 1, "coffee": 1})
    sc.player(b, vp=48, doubloons=6)
    sc.player(2, vp=2, doubloons=20)
    outcome = final_scores(sc.state)
    assert outcome.scores[a].total == outcome.scores[b].total == 48
    assert outcome.scores[a].tiebreak == 5 and outcome.scores[b].tiebreak == 6
    assert outcome.winners == (b,)
    assert [line.rank for line in outcome.scores] == [2, 1, 3, 4]
    assert sc.invariant_failures(sc.state) == []


def test_final_scoring_printed_vp_and_bonus_only_when_occupied() -> None:
    """§7.2 [C], [A]: every building scores its printed VP, occupied or not (a large building 4);
    the extra VP of a large building need it to be occupied."""
    sc = Scenario(players=3)
    sc.player(0, vp=10, buildings={"residence": 0, "small_market": 0, "harbor": 1})
    assert _score(sc, 0) == {"chips": 10, "buildings": 4 + 1 + 3}
    sc.player(0, buildings={"residence": 1, "small_market": 0, "harbor": 1})
    assert _score(sc, 0) == {"chips": 10, "buildings": 8, "residence": 4}
    assert final_scores(sc.state).scores[0].total == 22


# --- large buildings (§8.3) ----------------------------------------------------------------------


def test_guild_hall_classic_example() -> None:
    """§8.3 Guild Hall, [C] example: Small Sugar Mill, Sugar Mill, Small Indigo Plant, Coffee
    Roaster → 1 + 2 + 1 + 2 = 6 (the production buildings need not be occupied)."""
    sc = Scenario(players=4)
    sc.player(
        0,
        buildings={
            "guild_hall": 1,
            "small_sugar_mill": 0,
            "sugar_mill": 0,
            "small_indigo_plant": 1,
            "coffee_roaster": 0,
        },
    )
    assert _score(sc, 0)["guild_hall"] == 6


def test_guild_hall_2020_example() -> None:
    """§8.3 Guild Hall, [A] example: Small Indigo Plant, Indigo Plant, Coffee Roaster, Sugar Mill
    → 1 + 2 + 2 + 2 = 7; violet buildings do not count."""
    sc = Scenario(players=4)
    sc.player(
        0,
        buildings={
            "guild_hall": 1,
            "small_indigo_plant": 0,
            "indigo_plant": 0,
            "coffee_roaster": 0,
            "sugar_mill": 0,
            "harbor": 1,
        },
    )
    assert _score(sc, 0)["guild_hall"] == 7


def test_residence_classic_and_2020_example() -> None:
    """§8.3 Residence, the example of [C] and [A]: 10 filled island spaces → 5 (plantations and
    quarries, occupied or not); and the other bands: ≤ 9 → 4, 11 → 6, 12 → 7."""
    for filled, bonus in ((10, 5), (9, 4), (11, 6), (12, 7), (1, 4)):
        sc = Scenario(players=4)
        quarries = min(filled, 4)
        sc.player(
            0,
            tiles={"quarry": (quarries, 1), "corn": (filled - quarries, 0)},
            buildings={"residence": 1},
        )
        assert _score(sc, 0)["residence"] == bonus, filled


def test_fortress_classic_example() -> None:
    """§8.3 Fortress, [C] example: 20 colonists on the player's board (plantations, quarries,
    buildings and San Juan) → 6."""
    sc = Scenario(players=4)
    sc.player(0, tiles={"corn": (6, 6), "quarry": (4, 4)}, buildings={"fortress": 1}, san_juan=9)
    assert sc.state.players[0].colonists() == 20
    assert _score(sc, 0)["fortress"] == 6


def test_fortress_2020_example() -> None:
    """§8.3 Fortress, [A] example: 22 colonists → 7."""
    sc = Scenario(players=4)
    sc.player(
        0,
        tiles={"corn": (6, 6), "quarry": (4, 4)},
        buildings={"fortress": 1, "harbor": 1},
        san_juan=10,
    )
    assert sc.state.players[0].colonists() == 22
    assert _score(sc, 0)["fortress"] == 7


def test_customs_house_classic_example() -> None:
    """§8.3 Customs House, [C] example: 23 VP in chips → 5 (building VP excluded)."""
    sc = Scenario(players=4)
    sc.player(0, vp=23, buildings={"customs_house": 1, "harbor": 0})
    assert _score(sc, 0) == {"chips": 23, "buildings": 7, "customs_house": 5}


def test_customs_house_2020_example() -> None:
    """§8.3 Customs House, [A] example: 30 VP in chips → 7."""
    sc = Scenario(players=4)
    sc.player(0, vp=30, buildings={"customs_house": 1})
    assert _score(sc, 0)["customs_house"] == 7


def test_city_hall_classic_example() -> None:
    """§8.3 City Hall, [C] example: City Hall + Hacienda, Harbor, Office, Construction Hut, Large
    Warehouse, Residence → 7 (occupied or not; production buildings do not count)."""
    sc = Scenario(players=4)
    sc.player(
        0,
        buildings={
            "city_hall": 1,
            "hacienda": 0,
            "harbor": 0,
            "office": 0,
            "construction_hut": 0,
            "large_warehouse": 0,
            "residence": 0,
            "small_indigo_plant": 1,
        },
    )
    assert _score(sc, 0)["city_hall"] == 7


def test_city_hall_2020_example() -> None:
    """§8.3 City Hall, [A] example: City Hall + Construction Hut, Hospice, Large Market, Factory,
    University, Customs House → 7."""
    sc = Scenario(players=4)
    sc.player(
        0,
        buildings={
            "city_hall": 1,
            "construction_hut": 0,
            "hospice": 0,
            "large_market": 0,
            "factory": 0,
            "university": 0,
            "customs_house": 0,
            "coffee_roaster": 2,
        },
    )
    assert _score(sc, 0)["city_hall"] == 7


# --- rulings --------------------------------------------------------------------------------------


def test_a14_residence_with_zero_filled_island_spaces_scores_4() -> None:
    """Ruling A14 (§8.3, §14.1; [C] "up to 9" → 4, [A] "1 to 9" → 4): 0 filled spaces → 4."""
    sc = Scenario(players=3)
    sc.player(0, tiles={}, buildings={"residence": 1})
    assert sum(sc.state.players[0].tiles) == 0
    assert _score(sc, 0)["residence"] == 4


def test_a18_city_hall_counts_every_violet_building_itself_included() -> None:
    """Ruling A18 (§8.3, §14.1; "violet" [C] / "Edificio Comercial" [A]): every violet building,
    small or large, counts 1 (large ones once), City Hall included; production buildings do
    not."""
    sc = Scenario(players=3)
    sc.player(
        0,
        buildings={
            "city_hall": 1,
            "guild_hall": 0,
            "fortress": 0,
            "small_market": 0,
            "wharf": 0,
            "indigo_plant": 0,
            "small_sugar_mill": 0,
        },
    )
    assert _score(sc, 0)["city_hall"] == 5


def test_a38_still_tied_after_the_tie_break_is_a_shared_victory() -> None:
    """Ruling A38 (§7.2, §14.1; the sources say nothing): equal score and equal doubloons +
    barrels → both players win (rank 1)."""
    sc = Scenario(players=3)
    sc.player(0, vp=20, doubloons=4, goods={"corn": 1})
    sc.player(1, vp=20, doubloons=5)
    sc.player(2, vp=19, doubloons=30)
    outcome = final_scores(sc.state)
    assert outcome.winners == (0, 1)
    assert [line.rank for line in outcome.scores] == [1, 1, 3]
    assert sc.invariant_failures(sc.state) == []


def test_a47_customs_house_counts_vp_recorded_on_paper() -> None:
    """Ruling A47 (§8.3, §14.1): the Customs House counts every VP received during play, as chips
    or on paper once the chips ran out; building VP are excluded."""
    sc = Scenario(players=3)
    sc.player(1, vp=20, goods={"corn": 3}, buildings={"customs_house": 1, "harbor": 0})
    sc.set_vp_supply(1)
    state = sc.choose("captain", 0)
    state = sc.act(state, 1, "ship.corn.0")
    assert state.players[1].vp == 23 and state.vp_supply == -2
    assert _score(sc, 1) == {"chips": 23, "buildings": 7, "customs_house": 5}


def test_a52_tie_break_counts_only_goods_in_the_own_windrose() -> None:
    """Ruling A52 (§7.2, §14.1): the tie-break is doubloons + the barrels in the player's own
    windrose; goods he sold to the trading house or loaded on ships no longer count."""
    sc = Scenario(players=3)
    sc.player(0, doubloons=0, goods={"indigo": 1, "sugar": 2, "coffee": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "t.indigo")  # 1 + 1 privilege
    assert final_scores(state).scores[0].tiebreak == 2 + 3
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.sugar.0")
    state = sc.act(state, 0, "ship.coffee.1")
    assert state.players[0].goods == [0, 0, 0, 0, 0]
    assert final_scores(state).scores[0].tiebreak == 2
    assert sc.invariant_failures(state) == []
