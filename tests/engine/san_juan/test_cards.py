# mypy: disable-error-code="union-attr"
# (a prompt or event a scenario knows exists: the tests read it straight away)
"""The Councillor and the Prospector (rules spec §4.4, §4.5, §5.2, §5.3, §5.14, §5.17): worked
examples S-03, S-04, S-05, S-12, S-15; tests D-13, D-14; rulings A-1, A-7, A-9."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.san_juan.actions import DISCARD, multi

from .scenario import GAME, Scenario, hand_of, kind, legal_codes, prompt_kind


def test_s03_gold_mine_with_a_repeated_cost() -> None:
    """S-03 (§5.2): Library (5), Prefecture (3), Smithy (1), Tobacco storage (3): two cost 3,
    so nothing is gained and all four are discarded."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "gold_mine"])
    sc.pile_top(["library", "prefecture", "smithy", "tobacco_storage"])
    state = sc.choose("prospector", 0)
    state = sc.act(state, 0, "pass")  # the privilege declined: the Gold mine still works
    assert prompt_kind(state) == "gold_mine"
    hand, discard = sum(state.players[0].hand), len(state.discard)
    state = sc.act(state, 0, "reveal")
    revealed = sc.of_type("GoldMineRevealed")[-1]
    assert revealed.data == {
        "cards": ["library", "prefecture", "smithy", "tobacco_storage"],
        "success": False,
    }
    assert revealed.private_to is None  # face up: public
    assert sum(state.players[0].hand) == hand and len(state.discard) == discard + 4
    assert prompt_kind(state) == "role"


def test_s04_gold_mine_with_four_different_costs_keeps_any_card() -> None:
    """S-04 (§5.2, A-9.2): Quarry (4), Smithy (1), Tobacco storage (3), Library (5): the owner
    may take any one of the four (here the Quarry, not the cheapest); 3 are discarded."""
    sc = Scenario(players=3)
    sc.player(0, buildings=["indigo_plant", "gold_mine"])
    sc.pile_top(["quarry", "smithy", "tobacco_storage", "library"])
    state = sc.choose("prospector", 0)
    state = sc.act(state, 0, "pass")
    state = sc.act(state, 0, "reveal")
    assert prompt_kind(state) == "gold_mine_take"
    assert sorted(legal_codes(state, 0)) == sorted(
        ["gm.quarry", "gm.smithy", "gm.tobacco_storage", "gm.library"]
    )
    mine = GAME.view(state, None)["gold_mine"]
    assert mine is not None
    assert mine["cards"] == [
        "quarry",
        "smithy",
        "tobacco_storage",
        "library",
    ]
    hand, discard = sum(state.players[0].hand), len(state.discard)
    state = sc.act(state, 0, "gm.quarry")
    assert sum(state.players[0].hand) == hand + 1 and state.players[0].hand[kind("quarry")] >= 1
    assert len(state.discard) == discard + 3


def test_a9_gold_mines_go_clockwise_from_the_prospector_and_need_four_cards() -> None:
    """A-9.1: every Gold mine owner, clockwise from the prospector (who may be one); A-9.5:
    fewer than 4 cards in the two piles together and the Gold mine cannot be used."""
    sc = Scenario(players=3)
    for seat in range(3):
        sc.player(seat, buildings=["indigo_plant", "gold_mine"])
    state = sc.choose("prospector", 1)
    state = sc.act(state, 1, "draw")
    order = []
    while prompt_kind(state) == "gold_mine":
        seat = GAME.prompt(state).seats[0]
        order.append(seat)
        state = sc.act(state, seat, "pass")
    assert order == [1, 2, 0]
    sc2 = Scenario(players=3)
    sc2.player(0, buildings=["indigo_plant", "gold_mine"])
    rest = sc2.state.pile[3:] + sc2.state.discard
    sc2.state.pile, sc2.state.discard = sc2.state.pile[:3], []
    for card in rest:
        sc2.state.players[1 + card % 2].hand[card] += 1
    state = sc2.choose("prospector", 1)
    state = sc2.act(state, 1, "pass")
    assert prompt_kind(state) == "role"  # 3 cards left: no Gold mine


def test_d14_prospector_basics() -> None:
    """D-14 (§4.5): only the prospector draws (1 card); the others' hands are unchanged; with
    the Library he draws 2."""
    sc = Scenario(players=3)
    state = sc.choose("prospector", 0)
    hands = [sum(p.hand) for p in state.players]
    assert GAME.prompt(state).seats == (0,) and legal_codes(state, 0) == ["draw", "pass"]
    state = sc.act(state, 0, "draw")
    assert [sum(p.hand) for p in state.players] == [hands[0] + 1, hands[1], hands[2]]
    sc2 = Scenario(players=3)
    sc2.player(0, buildings=["indigo_plant", "library"])
    state = sc2.choose("prospector", 0, library=True)
    hand = sum(state.players[0].hand)
    state = sc2.act(state, 0, "draw")
    assert sum(state.players[0].hand) == hand + 2


def test_d13_councillor_basics() -> None:
    """D-13 (§4.4): the councillor draws 5 and keeps 1, the others draw 2 and keep 1; the
    discard pile grows by 4 + 1 + 1."""
    sc = Scenario(players=3)
    state = sc.councillor(0)
    assert [len(p.drawn) for p in state.players] == [5, 2, 2]
    assert GAME.prompt(state).seats == (0, 1, 2)
    discard = len(state.discard)
    hands = [sum(p.hand) for p in state.players]
    for seat in (2, 0, 1):  # any order: simultaneous
        keep = GAME.decode_action(legal_codes(state, seat)[0])
        assert len(keep.cards) == 1
        state = sc.act(state, seat, keep.code)
    assert len(state.discard) == discard + 6
    assert [sum(p.hand) for p in state.players] == [h + 1 for h in hands]
    # the drawn cards are private: the others see counts only
    drawn = [e for e in sc.of_type("CardsDrawn") if e.data["reason"] == "councillor"]
    assert [e.seat for e in drawn] == [0, 1, 2]
    assert all(
        e.for_viewer(None).data == {"count": e.data["count"], "reason": "councillor"} for e in drawn
    )


def test_s05_archive_and_prefecture_as_councillor() -> None:
    """S-05 (§5.3, §5.14): with Archive and Prefecture the councillor adds all 5 cards to his
    hand and discards 3 from the whole hand, old cards included: hand h + 2."""
    sc = Scenario(players=3)
    sc.player(0, hand=["palace", "x", "x"], buildings=["indigo_plant", "prefecture", "archive"])
    state = sc.councillor(0, draws=[0])
    view = GAME.view(state, 0)
    assert view["pending"] == {"decision": "councillor", "archive": True, "discard": 3, "drawn": 5}
    codes = legal_codes(state, 0)
    assert all(len(GAME.decode_action(c).cards) == 3 for c in codes)
    drawn = state.players[0].drawn
    code = multi(DISCARD, tuple(sorted([kind("palace"), drawn[0], drawn[1]]))).code
    assert code in codes
    state = sc.act(state, 0, code)
    assert sum(state.players[0].hand) == 3 + 2
    assert "palace" not in hand_of(state, 0)


@pytest.mark.parametrize(
    ("chooser", "library", "drawn", "discard"),
    [(1, False, 2, 0), (0, False, 5, 3), (0, True, 8, 6)],
)
@pytest.mark.parametrize("archive", [False, True])
def test_s12_s15_prefecture_limits(
    chooser: int, library: bool, drawn: int, discard: int, archive: bool
) -> None:
    """S-12, S-15 (§5.14, §5.3, §5.17): the Prefecture keeps 2 of 2 / 2 of 5 / 2 of 8; with the
    Archive as well, 2, 5 or 8 cards join the hand and 0, 3 or 6 are discarded from it."""
    sc = Scenario(players=3)
    buildings = ["indigo_plant", "prefecture", "library"] + (["archive"] if archive else [])
    sc.player(0, hand=["x", "x"], buildings=buildings)
    state = sc.councillor(chooser, library=library, draws=[0])
    assert len(state.players[0].drawn) == drawn
    codes = [c for c in legal_codes(state, 0) if c != "pass"]
    sizes = {len(GAME.decode_action(c).cards) for c in codes}
    if archive and discard:
        assert all(c.startswith("d.") for c in codes) and sizes == {discard}
    else:
        assert all(c.startswith("k.") for c in codes) and sizes == {2}
    state = sc.act(state, 0, codes[0])
    assert sum(state.players[0].hand) == 2 + 2


def test_a15_a_councillor_may_keep_nothing() -> None:
    """A-15 / A-7: declining the councillor action keeps none of the drawn cards."""
    sc = Scenario(players=3)
    state = sc.choose("councillor", 0)
    hand = sum(state.players[1].hand)
    state = sc.act(state, 1, "pass")
    assert sum(state.players[1].hand) == hand and state.players[1].drawn == []


def test_a15_a_seat_that_passes_never_sees_a_card() -> None:
    """A-15, §4.4: the phase opens with nothing drawn; each seat draws or passes first, so a
    seat that passes draws nothing (no CardsDrawn, the pile untouched by it)."""
    sc = Scenario(players=3)
    pile = len(sc.state.pile)
    state = sc.choose("councillor", 0)
    assert [p.drawn for p in state.players] == [[], [], []]
    assert len(state.pile) == pile and not sc.of_type("CardsDrawn")
    assert GAME.prompt(state).seats == (0, 1, 2)
    assert all(legal_codes(state, seat) == ["draw", "pass"] for seat in (0, 1, 2))
    assert GAME.view(state, 1)["pending"] == {"decision": "councillor", "draw": 2, "keep": 1}
    state = sc.act(state, 1, "pass")
    state = sc.act(state, 0, "draw")
    state = sc.act(state, 2, "draw")
    assert [e.seat for e in sc.of_type("CardsDrawn")] == [0, 2]
    assert state.players[1].drawn == [] and len(state.pile) == pile - 7


def test_a15_having_drawn_a_seat_keeps_its_card() -> None:
    """§4.4 (draws 2, keeps 1): once the cards are seen, passing is no longer offered; a keep
    before the draw is refused too."""
    sc = Scenario(players=3)
    state = sc.choose("councillor", 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, GAME.decode_action("k.well"))
    assert err.value.code == "draw_first"
    state = sc.act(state, 1, "draw")
    assert "pass" not in legal_codes(state, 1) and len(legal_codes(state, 1)) >= 1
    for code in ("pass", "draw"):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, 1, GAME.decode_action(code))
        assert err.value.code == "already_drawn"


def test_a12_a_full_pile_deals_each_draw_at_once() -> None:
    """A-12: with cards enough for everyone, a seat's draw is dealt as soon as it asks, in
    any order; the later seats do not wait for the Councillor."""
    sc = Scenario(players=3)
    state = sc.choose("councillor", 0)
    state = sc.act(state, 2, "draw")
    assert len(state.players[2].drawn) == 2 and state.waiting == 0
    assert GAME.prompt(state).seats == (0, 1, 2)
    state = sc.act(state, 2, legal_codes(state, 2)[0])
    assert GAME.prompt(state).seats == (0, 1)


def aside(sc: Scenario, keep: int) -> None:
    """Leave ``keep`` cards in the draw pile and none in the discard pile: the others go to
    seat 1's hand (every card stays somewhere)."""
    s = sc.state
    for card in s.pile[:-keep] + s.discard:
        s.players[1].hand[card] += 1
    del s.pile[:-keep]
    s.discard.clear()


def test_a1_a12_a_short_pile_deals_in_order_from_the_councillor() -> None:
    """A-1 with A-12 (§4.4's order, clockwise from the Councillor): 4 cards in the pile, none
    discarded.  The later seats' draws wait; the Councillor draws the 4, keeps 1 and discards
    3; the next seat's draw reshuffles those 3; the last seat's takes the card left and the
    reshuffled discard of the seat before it: 4, 2 and 2 cards, where drawing everything at
    the start gave 4, 0 and 0."""
    sc = Scenario(players=3)
    aside(sc, keep=4)
    state = sc.choose("councillor", 0)
    state = sc.act(state, 2, "draw")
    state = sc.act(state, 1, "draw")
    assert state.waiting == 0b110 and [p.drawn for p in state.players] == [[], [], []]
    view = GAME.view(state, None)
    assert [p["waiting"] for p in view["seats"]] == [False, True, True]
    assert GAME.prompt(state).seats == (0,)
    state = sc.act(state, 0, "draw")
    assert len(state.players[0].drawn) == 4 and state.waiting == 0b110
    state = sc.act(state, 0, legal_codes(state, 0)[0])
    assert len(state.players[1].drawn) == 2 and state.waiting == 0b100
    assert len(sc.of_type("PileReshuffled")) == 1
    state = sc.act(state, 1, legal_codes(state, 1)[0])
    assert len(state.players[2].drawn) == 2 and state.waiting == 0
    assert len(sc.of_type("PileReshuffled")) == 2
    assert [e.seat for e in sc.of_type("CardsDrawn")] == [0, 1, 2]


def test_a1_at_once_dealt_every_draw_at_the_start() -> None:
    """``councillor_draw: at_once`` (games stored before the option): every seat's cards drawn
    when the phase opens; a short pile leaves the last seats without cards."""
    sc = Scenario(players=3, councillor_draw="at_once")
    aside(sc, keep=4)
    state = sc.choose("councillor", 0)
    assert [len(p.drawn) for p in state.players] == [4, 0, 0]
    assert GAME.prompt(state).seats == (0,)
    assert "pass" in legal_codes(state, 0)


def test_a1_a_multi_card_draw_reshuffles_part_way() -> None:
    """A-1: the councillor's 5 cards are drawn from the 2 left, then the reshuffled discard
    pile; the cards drawn so far are not part of the reshuffle."""
    sc = Scenario(players=3)
    sc.empty_pile(keep=2)
    top = list(sc.state.pile)
    state = sc.councillor(0, draws=[0])
    assert len(sc.of_type("PileReshuffled")) == 1
    assert sorted(state.players[0].drawn[:2]) == sorted(top)
    assert len(state.players[0].drawn) == 5
    assert GAME.invariants(state) == []


def test_wrong_keep_count_is_refused() -> None:
    """§4.4: keeping 2 without a Prefecture is refused with a machine-readable code."""
    sc = Scenario(players=3)
    state = sc.councillor(0, draws=[0])
    drawn = sorted(state.players[0].drawn)
    from engine.san_juan.actions import KIND_NAMES, multiset_text

    code = "k." + multiset_text(drawn[:2], KIND_NAMES)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action(code))
    assert err.value.code == "keep_not_allowed"
