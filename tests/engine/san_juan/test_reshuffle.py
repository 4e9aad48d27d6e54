"""San Juan's reshuffle must shuffle (issue #33, "Tests that name their rules").

§3.5 and ruling A-1: when a card must be drawn and the draw pile is empty, the discard pile is
shuffled and becomes the new draw pile; during a multi-card draw, the cards already drawn in
that action are not part of it.  These tests check that the new pile is a permutation of the
discard pile (every card conserved, nothing else in it) that is not the discard pile in its
order (nor reversed, nor rotated), and that the order comes from the game's seeded generator.
The draws here are the Prospector's and the Gold mine's (the Councillor's draws are being
reworked elsewhere).
"""

from __future__ import annotations

from collections import Counter

from engine.rng import seed_state
from engine.san_juan.data import KIND_INDEX
from engine.san_juan.state import State

from .scenario import GAME, Scenario, prompt_kind


def _unshuffled(new: list[int], old: list[int]) -> bool:
    """Whether ``new`` is ``old`` as it lay, reversed, or cut (a rotation of either)."""
    cuts = range(len(old))
    return any(new == order[i:] + order[:i] for order in (old, old[::-1]) for i in cuts)


def _prospector_with_an_empty_pile(seed: int) -> tuple[Scenario, State, list[int]]:
    """Seat 0 has chosen the Prospector; every card of the draw pile is in the discard pile."""
    sc = Scenario(players=3, seed=seed)
    sc.empty_pile(keep=0)
    discard = list(sc.state.discard)
    state = sc.choose("prospector", 0)
    return sc, state, discard


def test_a1_the_reshuffled_pile_is_a_shuffled_permutation_of_the_discards() -> None:
    """§3.5 / A-1: the Prospector draws from an empty pile: the discard pile (90 cards) is
    reshuffled into the draw pile and he draws its top card.  The new pile (what is left, with
    the card drawn back on top) holds exactly the discarded cards, the discard pile is empty,
    and the order is neither the discard pile's nor its reverse nor any cut of them."""
    for seed in range(5):
        sc, state, discard = _prospector_with_an_empty_pile(seed)
        hand = list(state.players[0].hand)
        state = sc.act(state, 0, "draw")
        assert [e.data["cards"] for e in sc.of_type("PileReshuffled")] == [len(discard)]
        drawn = [k for k, (a, b) in enumerate(zip(state.players[0].hand, hand, strict=True))
                 for _ in range(a - b)]
        assert len(drawn) == 1
        new_pile = [*state.pile, *drawn]  # the card drawn was the top (the end of the list)
        assert Counter(new_pile) == Counter(discard)
        assert state.discard == []
        assert not _unshuffled(new_pile, discard)
        assert GAME.invariants(state) == []


def test_a1_the_new_order_comes_from_the_generator() -> None:
    """§3.5 / A-1: the same position reshuffled with different generator states gives different
    draw piles (the order is the shuffle's, not the discard pile's), and the same generator
    state gives the same pile (a game is reproducible from its seed)."""
    _, state, _ = _prospector_with_an_empty_pile(0)
    piles = set()
    for k in range(6):
        before = state.clone()
        before.rng = seed_state(1000 + k)
        after, _ = GAME.apply(before, 0, GAME.decode_action("draw"))
        again, _ = GAME.apply(before, 0, GAME.decode_action("draw"))
        assert again.pile == after.pile
        piles.add(tuple(after.pile))
    assert len(piles) == 6


def test_a1_cards_drawn_before_the_reshuffle_stay_out_of_it() -> None:
    """A-1 point 2 with §5.2 Gold mine: 2 cards are left in the draw pile when the Gold mine
    turns up 4: the 2 come first, then the discard pile is reshuffled (without them) and 2 more
    are turned up.  The new pile with those 2 back on top is a shuffled permutation of the
    discard pile."""
    sc = Scenario(players=3, seed=3)
    sc.player(0, buildings=["indigo_plant", "gold_mine"])
    sc.empty_pile(keep=2)
    top_two = list(reversed(sc.state.pile))  # drawn first: the top is the end of the list
    discard = list(sc.state.discard)
    state = sc.choose("prospector", 1)
    state = sc.act(state, 1, "pass")
    assert prompt_kind(state) == "gold_mine"
    state = sc.act(state, 0, "reveal")
    assert len(sc.of_type("PileReshuffled")) == 1
    revealed = [KIND_INDEX[name] for name in sc.of_type("GoldMineRevealed")[-1].data["cards"]]
    assert revealed[:2] == top_two
    new_pile = [*state.pile, *reversed(revealed[2:])]
    assert Counter(new_pile) == Counter(discard)
    assert not _unshuffled(new_pile, discard)
    assert GAME.invariants(state) == []


def test_sec2_5_the_setup_shuffles_the_cards_and_the_tiles() -> None:
    """§2.5 steps 3 and 5: the trading-house tiles and the cards are shuffled at setup (the
    tiles' order is hidden): every seed stacks the five tiles T1-T5 once each and deals all 110
    cards, and over 12 seeds the tile stacks take at least 6 orders and the draw piles 12."""
    tiles, piles = set(), set()
    for seed in range(12):
        state = GAME.setup({"players": 3}, seed)
        assert sorted(state.tiles) == [1, 2, 3, 4, 5]
        assert GAME.invariants(state) == []
        tiles.add(tuple(state.tiles))
        piles.add(tuple(state.pile))
    assert len(tiles) >= 6
    assert len(piles) == 12
