# mypy: disable-error-code="union-attr"
# (a prompt or event a scenario knows exists: the tests read it straight away)
"""The builder phase (rules spec §4.1, §5.1, §5.4, §5.5, §5.9, §5.13, §5.16, §5.17): worked
examples S-01, S-06, S-08, S-09, S-14, S-16, S-22, S-23; tests D-05, D-06, D-07; rulings A-3,
A-5, A-14, A-16."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.san_juan.actions import KIND_NAMES, multiset_text
from engine.san_juan.rules import build_cost, build_options, payable_goods
from engine.san_juan.state import State

from .scenario import GAME, Scenario, hand_of, kind, legal_codes, prompt_kind


def pay_code(state: State, seat: int, goods: str = "") -> str:
    """Paying with the whole hand (and ``goods``)."""
    cards = multiset_text(state.players[seat].hand_cards(), KIND_NAMES)
    code = f"p.{cards}" if cards else "p"
    return code + (f"+g.{goods}" if goods else "")


def test_s01_builder_cost_never_below_zero() -> None:
    """S-01 (§4.1 privilege, §5.1 Smithy, §5.17 Library): the builder with Smithy and Library
    builds a Sugar mill (2) for max(0, 2 - 2 - 1) = 0 cards and draws nothing back."""
    sc = Scenario(players=3)
    sc.player(0, hand=["sugar_mill", "x", "x"], buildings=["indigo_plant", "smithy", "library"])
    state = sc.choose("builder", 0, library=True)
    assert prompt_kind(state) == "build"
    assert build_cost(state, 0, kind("sugar_mill"), -1) == 0
    discard = len(state.discard)
    state = sc.act(state, 0, "b.sugar_mill")
    assert state.players[0].top == [
        kind(k) for k in ("indigo_plant", "smithy", "library", "sugar_mill")
    ]
    assert sum(state.players[0].hand) == 2 and len(state.discard) == discard
    built = sc.of_type("BuildingBuilt")[-1]
    assert built.data["cost"] == 0
    assert GAME.prompt(state).seats == (1,)  # no payment step: on to the next seat


def test_s06_paying_with_the_black_market() -> None:
    """S-06 (§5.5, A-3): not the builder, an active Black market, two goods: the Library (5)
    is paid with both goods and three hand cards; five cards reach the discard pile."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["library", "x", "x", "x"],
        buildings=["indigo_plant", "tobacco_storage", "black_market"],
        goods=[0, 1],
    )
    state = sc.choose("builder", 2)
    state = sc.act(state, 2, "pass")
    assert GAME.prompt(state).seats == (0,) and prompt_kind(state) == "build"
    state = sc.act(state, 0, "b.library")
    assert prompt_kind(state) == "pay"
    code = pay_code(state, 0, "indigo,tobacco")
    assert code in legal_codes(state, 0)
    discard = len(state.discard)
    state = sc.act(state, 0, code)
    p = state.players[0]
    assert p.goods == [-1, -1, -1, -1] and sum(p.hand) == 0
    assert len(state.discard) == discard + 5
    paid = sc.of_type("CardsPaid")[-1]
    assert paid.for_viewer(1).data == {"count": 5, "goods": ["indigo", "tobacco"]}


def test_a3_black_market_at_most_two_goods_and_not_a_sale() -> None:
    """A-3: at most 2 goods per build; paying with goods draws nothing (no Market hall)."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["hero", "x", "x", "x"],
        buildings=["indigo_plant", "sugar_mill", "tobacco_storage", "black_market", "market_hall"],
        goods=[0, 1, 2],
    )
    state = sc.choose("builder", 2)
    state = sc.act(state, 2, "pass")
    state = sc.act(state, 0, "b.hero")
    codes = legal_codes(state, 0)
    assert max(len(GAME.decode_action(c).goods) for c in codes) == 2
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action("p.statue,victory_column+g.indigo,sugar,tobacco"))
    assert err.value.code == "goods_not_allowed"
    hand = len(hand_of(state, 0))
    state = sc.act(state, 0, "p.statue,victory_column,hero+g.indigo,sugar")
    assert sum(state.players[0].hand) == hand - 3  # nothing drawn for the goods
    assert not sc.of_type("CardsDrawn")


def test_a3_a5_good_on_the_covered_building_cannot_pay() -> None:
    """A-3 point 4 / A-5: the good on the building being covered is lost, not paid; a Black
    market being covered gives no payment option for its own replacement."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["city_hall", "x", "x", "x", "x"],
        buildings=["coffee_roaster", "crane", "black_market", "indigo_plant"],
        goods=[0, 3],
    )
    state = sc.choose("builder", 2)
    state = sc.act(state, 2, "pass")
    p = state.players[0]
    assert payable_goods(p, 0) == 1  # over the Coffee roaster: only the indigo
    assert payable_goods(p, 2) == 0  # over the Black market itself: none
    state = sc.act(state, 0, "b.city_hall@0")  # 6 - 4 = 2
    assert state.b_cost == 2
    assert [e.data for e in sc.of_type("GoodLost")] == [{"index": 0, "good": "coffee"}]
    codes = legal_codes(state, 0)
    assert not any("coffee" in c for c in codes)
    assert any(c.endswith("+g.indigo") for c in codes)


def test_s08_crane_over_a_chapel() -> None:
    """S-08 (§5.9, §5.10): the Palace (6) over the Chapel (3) costs 3; the building count is
    unchanged; no more Chapel cards at later round starts; the k cards still score, the
    Chapel's own 2 VP do not."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["palace", "x", "x", "x"],
        buildings=["indigo_plant", "crane", "chapel"],
        chapel=4,
    )
    state = sc.choose("builder", 1)
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    count = len(state.players[0].area)
    state = sc.act(state, 0, "b.palace@2")  # the whole hand pays: no payment step
    p = state.players[0]
    assert sum(p.hand) == 0 and len(p.area) == count
    assert p.top[2] == kind("palace") and p.area[2] == (kind("chapel"), kind("palace"))
    from engine.san_juan.scoring import score_parts

    parts = score_parts(p)
    assert parts["chapel"] == 4
    assert parts["buildings"] == 1 + 1 + 0  # indigo, crane, palace: no Chapel VP
    assert state.over is False and prompt_kind(state) == "role"
    sc.player(0, hand=["x"])
    state = sc.end_round()
    assert prompt_kind(state) != "chapel"


def test_s09_crane_with_a_larger_covered_cost() -> None:
    """S-09 (§5.9, A-16): a Statue (3) over a Coffee roaster (4) costs 0 with no refund; the
    good on the roaster is discarded; the building count is unchanged."""
    sc = Scenario(players=3)
    sc.player(
        0, hand=["statue", "x"], buildings=["indigo_plant", "crane", "coffee_roaster"], goods=[2]
    )
    state = sc.choose("builder", 1)
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    discard = len(state.discard)
    state = sc.act(state, 0, "b.statue@2")
    p = state.players[0]
    assert sum(p.hand) == 1 and p.goods == [-1, -1, -1] and len(p.area) == 3
    assert len(state.discard) == discard + 1
    assert sc.of_type("BuildingBuilt")[-1].data["cost"] == 0


def test_s14_quarry_and_privilege() -> None:
    """S-14 (§5.16): the builder with a Quarry builds a Crane (2) for 0."""
    sc = Scenario(players=3)
    sc.player(0, hand=["crane", "x", "x"], buildings=["indigo_plant", "quarry"])
    state = sc.choose("builder", 0)
    assert build_cost(state, 0, kind("crane"), -1) == 0
    state = sc.act(state, 0, "b.crane")
    assert sum(state.players[0].hand) == 2


def test_s16_library_builder_with_quarry() -> None:
    """S-16 (§5.17): the Library doubles the privilege: violet buildings cost 3 less with the
    Quarry (Hero 5 -> 2, City hall 6 -> 3), production buildings 2 less."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["hero", "city_hall", "silver_smelter", "x", "x"],
        buildings=["indigo_plant", "quarry", "library"],
    )
    state = sc.choose("builder", 0, library=True)
    assert build_cost(state, 0, kind("hero"), -1) == 2
    assert build_cost(state, 0, kind("city_hall"), -1) == 3
    assert build_cost(state, 0, kind("silver_smelter"), -1) == 3
    pending = GAME.view(state, 0)["pending"]
    assert pending is not None
    assert pending["costs"]["b.hero"] == 2 and pending["privilege"] == 2


@pytest.mark.parametrize(
    ("case", "hand", "build", "final"),
    [
        ("a", ["well", "x"], "well", 2),
        ("b", ["well", "x", "x"], "well", 2),
        ("c", ["sugar_mill", "x"], "sugar_mill", 1),
        ("d", ["well", "x"], None, 2),
    ],
)
def test_s22_poor_house_after_carpenter(
    case: str, hand: list[str], build: str | None, final: int
) -> None:
    """S-22 (§5.4, §5.13, A-4): the Carpenter's draw (violet only) comes first, then the Poor
    house with 0 or 1 cards; no build, no draw."""
    sc = Scenario(players=3)
    sc.player(0, hand=hand, buildings=["indigo_plant", "carpenter", "poor_house"])
    state = sc.choose("builder", 0)  # cost - 1
    if build is None:
        state = sc.act(state, 0, "pass")
        assert sum(state.players[0].hand) == final
        return
    state = sc.act(state, 0, f"b.{build}")
    if prompt_kind(state) == "pay":
        state = sc.act(state, 0, legal_codes(state, 0)[0])
    steps = []
    while GAME.prompt(state).seats == (0,):
        steps.append(prompt_kind(state))
        state = sc.act(state, 0, "draw")
    assert sum(state.players[0].hand) == final
    expected = {"a": ["carpenter", "poor_house"], "b": ["carpenter"], "c": ["poor_house"]}
    assert steps == expected[case]


def test_s23_carpenter_does_not_pay_for_itself() -> None:
    """S-23 (§5.0 activation, §5.13): building the Carpenter draws nothing; the next violet
    building does."""
    sc = Scenario(players=3)
    sc.player(0, hand=["carpenter", "well", "x", "x", "x", "x"], buildings=["indigo_plant"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.carpenter")
    assert prompt_kind(state) == "pay"
    state = sc.act(state, 0, next(c for c in legal_codes(state, 0) if "well" not in c))
    assert GAME.prompt(state).seats == (1,)  # no Carpenter step
    for seat in (1, 2):
        state = sc.act(state, seat, "pass")
    sc.end_round()  # the next round: the Governor passes to seat 1
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.well")
    if prompt_kind(state) == "pay":
        state = sc.act(state, 0, legal_codes(state, 0)[0])
    assert prompt_kind(state) == "carpenter"


def test_d05_the_crane_never_reaches_twelve() -> None:
    """D-05 (§5.9, §6.1, A-2): with 11 buildings, building over one leaves 11; no end."""
    sc = Scenario(players=3)
    eleven = (
        ["indigo_plant"] * 3
        + ["sugar_mill"] * 3
        + ["tobacco_storage"] * 3
        + ["crane", "coffee_roaster"]
    )
    sc.player(0, hand=["silver_smelter", "x", "x"], buildings=eleven)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.silver_smelter@10")  # 5 - 1 - 4 = 0
    for seat in (1, 2):
        state = sc.act(state, seat, "pass")
    assert len(state.players[0].area) == 11
    assert not state.over and prompt_kind(state) == "role"


def test_d06_functions_work_from_the_next_phase_of_the_same_round() -> None:
    """D-06 (§5.0): a Well built in this round's builder phase pays in a later producer phase
    of the same round; a Quarry does not reduce its own cost."""
    sc = Scenario(players=3)
    sc.player(1, hand=["well", "x", "x"], buildings=["indigo_plant", "sugar_mill"])
    sc.player(2, hand=["quarry", "x", "x", "x", "x"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 1, "b.well")  # 2: the whole hand
    state = sc.act(state, 2, "b.quarry")  # 4, not 3: the whole hand
    assert sc.of_type("BuildingBuilt")[-1].data["cost"] == 4
    assert prompt_kind(state) == "role" and state.turn == 1
    state = sc.act(state, 1, "r.producer")
    hand = sum(state.players[1].hand)
    state = sc.act(state, 1, "pr.indigo,sugar")
    assert sum(state.players[1].hand) == hand + 1
    drawn = [e for e in sc.of_type("CardsDrawn") if e.data["reason"] == "well"]
    assert len(drawn) == 1 and drawn[0].seat == 1


def test_d07_one_top_level_copy_of_each_violet_building() -> None:
    """D-07 (§4.1 L2, §5.9): a second Smithy is refused (the card still pays); another Indigo
    plant is fine; a Smithy covered with the Crane may be built again."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["smithy", "indigo_plant", "well", "x"],
        buildings=["indigo_plant", "smithy", "crane"],
    )
    state = sc.choose("builder", 0)
    codes = legal_codes(state, 0)
    assert "b.smithy" not in codes and "b.indigo_plant" in codes
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action("b.smithy"))
    assert err.value.code == "already_built"
    state = sc.act(state, 0, "b.well")  # 2 - 1 = 1: the Smithy card may pay
    assert "p.smithy" in legal_codes(state, 0)
    sc2 = Scenario(players=3)
    sc2.player(0, hand=["smithy", "x"], buildings=["indigo_plant", ["smithy", "well"], "crane"])
    state = sc2.choose("builder", 0)
    assert "b.smithy" in legal_codes(state, 0)


def test_a14_no_building_over_the_same_name() -> None:
    """A-14: no building over a building of the same name, production ones included; never
    over the Crane itself."""
    sc = Scenario(players=3)
    sc.player(0, hand=["indigo_plant", "well", "x"], buildings=["indigo_plant", "crane", "well"])
    state = sc.choose("builder", 0)
    codes = legal_codes(state, 0)
    assert "b.indigo_plant@0" not in codes and "b.indigo_plant@2" in codes
    assert not any(c.endswith("@1") for c in codes)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action("b.indigo_plant@0"))
    assert err.value.code == "same_building"


def test_a5_a_covered_smithy_or_quarry_gives_nothing_for_its_replacement() -> None:
    """A-5: covering the Smithy with a production building, the Smithy does not reduce it."""
    sc = Scenario(players=3)
    sc.player(
        0, hand=["silver_smelter", "x"], buildings=["indigo_plant", "crane", "smithy", "quarry"]
    )
    state = sc.choose("builder", 1)
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 2, "pass")
    assert build_cost(state, 0, kind("silver_smelter"), 2) == 5 - 1  # the Smithy's own cost
    assert build_cost(state, 0, kind("silver_smelter"), 3) == 5 - 4 - 1  # Quarry: Smithy works
    assert build_cost(state, 0, kind("silver_smelter"), -1) == 5 - 1


def test_a_seat_without_cards_is_skipped_and_a_seat_with_cards_is_asked() -> None:
    """§4.1 / ruling beside legality: a seat holding no card has nothing to place (skipped on
    what everybody sees); a seat with cards is asked even if it can build nothing, and the
    prompt is never flagged forced (that would tell what the hand holds)."""
    sc = Scenario(players=3)
    sc.player(1, hand=[])
    sc.player(2, hand=["palace"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    prompt = GAME.prompt(state)
    assert prompt.seats == (2,) and prompt.kind == "build" and not prompt.forced
    assert legal_codes(state, 2) == ["pass"]


def test_build_options_agree_with_build_cost_and_payable_goods() -> None:
    """The hoisted build options equal the definition L1-L4 (build_cost, payable_goods)."""
    sc = Scenario(players=3)
    sc.player(
        0,
        hand=["silver_smelter", "palace", "statue", "well", "indigo_plant", "x"],
        buildings=["indigo_plant", "crane", "smithy", "quarry", "black_market", "coffee_roaster"],
        goods=[0, 5],
    )
    state = sc.choose("builder", 0)
    p = state.players[0]
    expected = []
    size = sum(p.hand)
    for k in range(len(p.hand)):
        if not p.hand[k] or (k >= 5 and k in p.top):
            continue
        if build_cost(state, 0, k, -1) <= size - 1 + payable_goods(p, -1):
            expected.append(f"b.{KIND_NAMES[k]}")
        for target, top in enumerate(p.top):
            if top in (kind("crane"), k):
                continue
            if build_cost(state, 0, k, target) <= size - 1 + payable_goods(p, target):
                expected.append(f"b.{KIND_NAMES[k]}@{target}")
    assert [a.code for a in build_options(state, 0)] == [*expected, "pass"]
