# mypy: disable-error-code="union-attr"
# (a prompt a scenario knows exists: the tests read it straight away)
"""San Juan's thresholds tested on both sides (issue #33, "Tests that name their rules").

Each test adds the side of a threshold of ``docs/rules/san-juan.md`` that no other test
checked (the other side is named in ``docs/rule-thresholds.md``): a count just below, at and
above the number the rule names, so that moving the rule's comparison by one fails a test that
says which rule broke.  Section numbers (§), worked examples (S-n), tests (D-n) and rulings
(A-n) are the spec's.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, InvalidSetup
from engine.san_juan.data import CARDS, TILE_PRICES
from engine.san_juan.scoring import score_parts

from .scenario import GAME, Scenario, legal_codes, prompt_kind

# --- §2.1 player count ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sec2_1_two_to_four_players_are_set_up(players: int) -> None:
    """§2.1: the game is for 2, 3 or 4 players: each count is set up."""
    assert GAME.setup({"players": players}, 0).n == players


@pytest.mark.parametrize("players", [1, 5])
def test_sec2_1_one_or_five_players_are_refused(players: int) -> None:
    """§2.1: no rules for 1 player or for 5 or more: the setup refuses them with a code."""
    with pytest.raises(InvalidSetup) as err:
        GAME.setup({"players": players}, 0)
    assert err.value.code == "players_out_of_range"


# --- §3.3 hand limit ------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "discard"), [(7, 0), (8, 1)])
def test_d01_seven_cards_are_kept_eight_discard_one(cards: int, discard: int) -> None:
    """D-01 / §3.3 (hand limit: "more than 7" cards are discarded down to 7), both sides: at the
    start of a round 7 cards ask nothing and the first role is chosen; 8 cards discard
    exactly 1."""
    sc = Scenario(players=3)
    sc.player(0, hand=["x"] * cards)
    state = sc.end_round()
    if not discard:
        assert prompt_kind(state) == "role"
        assert sum(state.players[0].hand) == 7
        return
    assert prompt_kind(state) == "hand_limit" and GAME.prompt(state).seats == (0,)
    assert {len(GAME.decode_action(c).cards) for c in legal_codes(state, 0)} == {discard}
    state = sc.act(state, 0, legal_codes(state, 0)[0])
    assert sum(state.players[0].hand) == 7 and prompt_kind(state) == "role"


# --- §4.1 builder ------------------------------------------------------------------------------


def test_sec4_1_at_most_one_building_per_builder_phase() -> None:
    """§4.1 ("each player builds at most one building per builder phase"): after his one build
    the builder is not asked again in that phase, though his hand could pay for more; the next
    seat builds, and then the phase ends."""
    sc = Scenario(players=3)
    sc.player(0, hand=["indigo_plant", "indigo_plant", "sugar_mill", "x", "x", "x"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.indigo_plant")  # 1 - 1 = 0: nothing to pay
    assert GAME.prompt(state).seats == (1,)
    for seat in (1, 2):
        state = sc.act(state, seat, "pass")
    assert prompt_kind(state) == "role" and state.turn == 1
    assert [e.seat for e in sc.of_type("BuildingBuilt")] == [0]


# --- §4.2 producer: Aqueduct ---------------------------------------------------------------------

PRODUCTION = ["indigo_plant", "sugar_mill", "tobacco_storage", "coffee_roaster", "silver_smelter"]


@pytest.mark.parametrize(
    ("chooser", "library", "limit"), [(1, False, 2), (0, False, 3), (0, True, 4)]
)
def test_s11_one_good_more_than_the_aqueduct_limit_is_refused(
    chooser: int, library: bool, limit: int
) -> None:
    """S-11 (§5.12 Aqueduct: 2 as a non-producer, 3 as the producer, 4 with the Library), the
    side above: with 5 empty production buildings the seat's view says the limit, and producing
    one good more is refused (``over_capacity``), like S-07's sale."""
    sc = Scenario(players=3)
    sc.player(0, buildings=[*PRODUCTION, "aqueduct", "library"])
    state = sc.choose("producer", chooser, library=library)
    pending = GAME.view(state, 0)["pending"]
    assert pending is not None and pending["capacity"] == limit
    goods = ["indigo", "sugar", "tobacco", "coffee", "silver"]
    state2, _ = GAME.apply(state, 0, GAME.decode_action("pr." + ",".join(goods[:limit])))
    assert sum(1 for g in state2.players[0].goods if g >= 0) == limit
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action("pr." + ",".join(goods[: limit + 1])))
    assert err.value.code == "over_capacity"


# --- §4.3 trader: Market stand ------------------------------------------------------------------


@pytest.mark.parametrize(("sold", "bonus"), [("indigo", 0), ("indigo,sugar", 1)])
def test_sec5_8_market_stand_needs_two_goods_sold(sold: str, bonus: int) -> None:
    """§5.8 Market stand (A-17: the goods sold in this phase), both sides of "at least 2": the
    trader (who may sell 2) with an active Market stand draws the price of one good only, and
    the price of two goods plus 1."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "sugar_mill", "market_stand"], goods=[0, 1])
    sc.tiles([4])
    state = sc.choose("trader", 0)
    hand = sum(state.players[0].hand)
    state = sc.act(state, 0, f"s.{sold}")
    prices = TILE_PRICES[4]
    price = prices[0] + (prices[1] if "," in sold else 0)
    assert sum(state.players[0].hand) == hand + price + bonus
    assert sc.of_type("GoodsSold")[-1].data["market_stand"] == bonus


# --- §5.2 Gold mine (A-9.5) -----------------------------------------------------------------------


def test_a9_gold_mine_with_exactly_four_cards_left() -> None:
    """A-9 point 5 (§5.2: the Gold mine turns up 4 cards), the side at the threshold: with
    exactly 4 cards left in the draw pile and the discard pile together the Gold mine can be
    used (3 cards cannot, ``test_a9_gold_mines_go_clockwise_...``)."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "gold_mine"])
    s = sc.state
    rest = s.pile[4:] + s.discard
    s.pile, s.discard = s.pile[:4], []
    for card in rest:  # the other cards go to hands, so that exactly 4 can still be drawn
        s.players[1 + card % 2].hand[card] += 1
    state = sc.choose("prospector", 1)
    state = sc.act(state, 1, "pass")
    assert prompt_kind(state) == "gold_mine" and GAME.prompt(state).seats == (0,)
    state = sc.act(state, 0, "reveal")
    assert len(sc.of_type("GoldMineRevealed")[-1].data["cards"]) == 4
    assert GAME.invariants(state) == []


# --- §6.1 the end -------------------------------------------------------------------------------


def test_d04_eleven_buildings_do_not_end_the_game() -> None:
    """D-04 / §6.1 (the game ends after a builder phase in which someone has 12 buildings), the
    side below: a builder phase that leaves a player with 11 buildings (a new place, not the
    Crane) goes on to the next role."""
    sc = Scenario(players=3)
    ten = ["indigo_plant"] * 4 + ["sugar_mill"] * 3 + ["tobacco_storage"] * 3
    sc.player(0, hand=["indigo_plant", "x"], buildings=ten)
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "b.indigo_plant")  # 1 - 1 = 0
    for seat in (1, 2):
        state = sc.act(state, seat, "pass")
    assert len(state.players[0].area) == 11
    assert not state.over and prompt_kind(state) == "role"


# --- §5.19 cost-6 buildings ---------------------------------------------------------------------


def _parts(buildings: list[str], chapel: int = 0) -> dict[str, int]:
    sc = Scenario(players=2)
    sc.player(0, buildings=buildings, chapel=chapel)
    return score_parts(sc.state.players[0])


@pytest.mark.parametrize(
    ("monuments", "bonus"),
    [([], 0), (["statue"], 4), (["hero"], 4), (["statue", "hero"], 6),
     (["statue", "victory_column", "hero"], 8)],
)
def test_s20_triumphal_arch_by_monuments(monuments: list[str], bonus: int) -> None:
    """S-20 (§5.19 Triumphal arch): m = 0 → 0 [Derived], 1 → 4, 2 → 6, 3 → 8 monuments."""
    assert _parts(["triumphal_arch", *monuments])["triumphal_arch"] == bonus


@pytest.mark.parametrize(("chapel", "other", "bonus"), [(33, 35, 8), (34, 36, 9), (37, 39, 9)])
def test_s21_palace_around_multiples_of_four(chapel: int, other: int, bonus: int) -> None:
    """S-21 (§5.19 Palace: floor(all the owner's other VP / 4), scored last): 35 → 8, 36 → 9,
    39 → 9 (the Chapel's 2 printed VP plus its cards make up the other VP)."""
    parts = _parts(["palace", "chapel"], chapel=chapel)
    assert sum(v for k, v in parts.items() if k != "palace") == other
    assert parts["palace"] == bonus


# --- §8 card data -------------------------------------------------------------------------------


def test_sec5_18_monument_vp() -> None:
    """§5.18: Statue 3 VP, Victory column 4, Hero 5 (one of each may be owned)."""
    vp = {card.name: card.vp for card in CARDS}
    assert (vp["statue"], vp["victory_column"], vp["hero"]) == (3, 4, 5)
    assert _parts(["statue", "victory_column", "hero"])["buildings"] == 12
