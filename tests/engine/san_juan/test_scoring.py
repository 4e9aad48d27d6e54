# mypy: disable-error-code="union-attr"
# (a prompt or event a scenario knows exists: the tests read it straight away)
"""The end and the scoring (rules spec §6, §5.10, §5.18, §5.19): worked examples S-10, S-18,
S-19, S-20, S-21; tests D-04, D-10, D-11; rulings A-2, A-10, A-11, A-19."""

from __future__ import annotations

from engine.san_juan.scoring import final_scores, score_parts

from .scenario import GAME, Scenario, legal_codes, prompt_kind


def parts(buildings: list[str], chapel: int = 0) -> dict[str, int]:
    sc = Scenario(players=2)
    sc.player(0, buildings=buildings, chapel=chapel)
    return score_parts(sc.state.players[0])


def test_s10_chapel_scoring() -> None:
    """S-10 (§5.10): a Chapel with 7 cards under it is worth 2 + 7 = 9."""
    p = parts(["chapel"], chapel=7)
    assert p == {"buildings": 2, "chapel": 7}


def test_s18_guild_hall() -> None:
    """S-18 (§5.19): 2 VP per production building: 4 of them -> 8."""
    p = parts(["guild_hall", "indigo_plant", "indigo_plant", "sugar_mill", "tobacco_storage"])
    assert p["guild_hall"] == 8 and p["buildings"] == 1 + 1 + 1 + 2


def test_s19_city_hall_counts_itself() -> None:
    """S-19 (§5.19): 1 VP per violet building, itself included: 9."""
    p = parts(
        [
            "poor_house",
            "aqueduct",
            "carpenter",
            "chapel",
            "quarry",
            "library",
            "statue",
            "victory_column",
            "city_hall",
        ]
    )
    assert p["city_hall"] == 9


def test_s20_triumphal_arch() -> None:
    """S-20 (§5.19): two monuments -> 6 (0/4/6/8 for 0..3)."""
    assert parts(["triumphal_arch", "statue", "hero"])["triumphal_arch"] == 6
    assert parts(["triumphal_arch"])["triumphal_arch"] == 0
    assert parts(["triumphal_arch", "statue", "hero", "victory_column"])["triumphal_arch"] == 8


def test_s21_palace_scores_a_quarter_of_the_rest_last() -> None:
    """S-21 (§5.19, §6.2 step 4): 34 other VP -> floor(34 / 4) = 8, total 42."""
    p = parts(
        ["palace", "hero", "victory_column", "statue", "library", "chapel", "indigo_plant"],
        chapel=16,
    )
    assert sum(v for k, v in p.items() if k != "palace") == 34
    assert p["palace"] == 8 and sum(p.values()) == 42


def test_a19_cost_six_buildings_have_no_printed_vp() -> None:
    """A-19: Guild hall, City hall, Triumphal arch and Palace score by formula only."""
    p = parts(["guild_hall", "city_hall", "triumphal_arch", "palace"])
    assert p["buildings"] == 0


def test_d10_full_scoring() -> None:
    """D-10 (§6.2): 19 printed + 5 Chapel + 8 Guild hall + 8 City hall + 6 Triumphal arch =
    46, Palace 11: 57."""
    p = parts(
        [
            "indigo_plant",
            "indigo_plant",
            "sugar_mill",
            "silver_smelter",
            "chapel",
            "statue",
            "hero",
            "library",
            "guild_hall",
            "city_hall",
            "triumphal_arch",
            "palace",
        ],
        chapel=5,
    )
    assert p == {
        "buildings": 19,
        "chapel": 5,
        "guild_hall": 8,
        "city_hall": 8,
        "triumphal_arch": 6,
        "palace": 11,
    }
    assert sum(p.values()) == 57


def test_d11_tie_break_cards_in_hand_plus_goods() -> None:
    """D-11 (§6.3): 40 VP each; A has 3 cards and 2 goods (5), B 6 cards (6): B wins; an
    exact tie is a shared victory (A-11)."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["x"] * 3,
        buildings=["chapel", "indigo_plant", "sugar_mill"],
        goods=[1, 2],
        chapel=36,
    )
    sc.player(1, hand=["x"] * 6, buildings=["chapel", "indigo_plant", "sugar_mill"], chapel=36)
    sc.player(2, hand=[], buildings=["indigo_plant"])
    outcome = final_scores(sc.state)
    assert [line.total for line in outcome.scores] == [40, 40, 1]
    assert [line.tiebreak for line in outcome.scores] == [5, 6, 0]
    assert outcome.winners == (1,)
    assert [line.rank for line in outcome.scores] == [2, 1, 3]
    sc.player(0, hand=["x"] * 4)
    outcome = final_scores(sc.state)
    assert outcome.winners == (0, 1)


def test_d04_the_game_ends_after_the_builder_phase_of_the_twelfth_building() -> None:
    """D-04 (§6.1, A-2): A builds his 12th building; B and C still build in that phase; then
    the game ends at once (no more roles, no Chapel, no hand limit) and is scored."""
    sc = Scenario(players=3)
    eleven = (
        ["indigo_plant"] * 3
        + ["sugar_mill"] * 3
        + ["tobacco_storage"] * 3
        + ["chapel", "coffee_roaster"]
    )
    sc.player(0, hand=["sugar_mill", "x"], buildings=eleven)
    sc.player(1, hand=["smithy"] + ["x"] * 9, buildings=["indigo_plant", "chapel"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.sugar_mill")  # 2 - 1 = 1: the whole rest of the hand
    assert len(state.players[0].area) == 12 and not state.over
    assert GAME.prompt(state).seats == (1,)
    state = sc.act(state, 1, "b.smithy")
    state = sc.act(state, 1, legal_codes(state, 1)[0])
    assert GAME.prompt(state).seats == (2,)
    state = sc.act(state, 2, "pass")
    assert state.over and GAME.prompt(state) is None
    assert [e.type for e in sc.events][-4:] == ["Passed", "PhaseEnded", "RoundEnded", "GameEnded"]
    assert GAME.legal_actions(state, 0) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.end_reasons == ("twelve_buildings",)
    assert sum(state.players[1].hand) == 9 - 1  # no hand-limit check at the end
    view = GAME.view(state, None)
    assert view["game_over"] and view["outcome"] == outcome.to_json()
    assert view["seats"][1]["chapel"] == 0  # everything a score sheet needs is public
    assert prompt_kind(state) is None
