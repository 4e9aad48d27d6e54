"""Issue #33: every reshuffle and random draw of 1897 actually shuffles.  A reshuffle that
stopped shuffling (tiles drawn in the discard's order, a deck dealt in card order) broke only a
golden game's digest, which does not name the rule; each test here names it.  For each one:
the components are conserved, with a fixed seed the result is not the unshuffled order, and
over a few seeds it differs (the seeded generator, ARCHITECTURE.md: reproducible, not fixed).

The property bag is a multiset (tiles by kind: ``State.deck``); a draw takes a tile at random
from it, so "the discard's order" is the kernel's kind order (Corn, Fruit, Sugar, ...)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.puerto_rico.state import State
from engine.puerto_rico_1897 import puertoma as ptm
from engine.puerto_rico_1897.game import PUERTO_RICO_1897 as GAME
from tests.engine.puerto_rico_1897.scenario import Scenario1897, view

SEEDS = range(12)
DISCARD = {"corn": 3, "fruit": 3, "sugar": 3}  # the unshuffled order: Corn, Corn, Corn, Fruit
IN_ORDER = ["corn", "corn", "corn", "fruit"]


def _planter_recycles(seed: int) -> tuple[Scenario1897, State]:
    """3 players, an empty market and bag, 9 tiles in the discard: the Planter phase's end
    draws 4 (N + 1) after putting the discard into the bag (PLN-6)."""
    sc = Scenario1897(3, seed=seed)
    sc.face_up([])
    sc.stacks({}, DISCARD)
    state = sc.finish_phase(sc.choose("planter", 0))
    return sc, state


def test_PLN_6_T_PLN_3_the_recycled_discard_is_shuffled_into_the_bag() -> None:
    """PLN-6, T-PLN-3, A-40: the discard put into the empty bag is drawn at random: the 9
    tiles are conserved (4 on the market, 5 in the bag, none in the discard), the 4 drawn are
    not the discard's first 4, and the seeds draw different markets."""
    markets = {}
    for seed in SEEDS:
        sc, state = _planter_recycles(seed)
        v = view(sc, state)
        assert sc.events_of("PropertiesRevealed")[-1].data["reshuffled"] is True
        assert len(v["face_up"]) == 4 and v["property_bag"] == 5 and v["property_discard"] == 0
        bag = Counter({k: n for k, n in zip(("corn", "fruit", "sugar"), state.deck, strict=False)
                       if n})
        assert Counter(v["face_up"]) + bag == Counter(DISCARD)
        markets[seed] = tuple(v["face_up"])
        assert sc.invariant_failures(state) == []
    assert markets[0] != tuple(IN_ORDER)
    assert len(set(markets.values())) >= 4


def _hacienda_recycles(seed: int) -> tuple[Scenario1897, State]:
    sc = Scenario1897(3, seed=seed)
    sc.player(0, buildings={"hacienda": 1})
    sc.stacks({}, DISCARD)
    return sc, sc.act(sc.choose("planter", 0), 0, "p.hacienda")


def test_A_41_B_8_the_hacienda_draws_from_the_shuffled_discard() -> None:
    """A-41, B-8, D-3 (``hacienda_empty_bag: recycle``): with an empty bag the Hacienda's draw
    puts the discard into the bag and draws at random: 9 tiles conserved (1 drawn, 8 in the
    bag); over the seeds the tile drawn is not always the discard's first (Corn)."""
    drawn: Counter[str] = Counter()
    for seed in SEEDS:
        sc, state = _hacienda_recycles(seed)
        taken = sc.events_of("PropertyTaken")[-1].data
        assert taken["source"] == "hacienda" and taken["reshuffled"] is True
        assert sum(state.deck) == 8 and sum(state.discard) == 0
        drawn[taken["tile"]] += 1
        assert sc.invariant_failures(state) == []
    assert set(drawn) == {"corn", "fruit", "sugar"}


def test_A_41_B_38_the_zoning_office_draws_from_the_shuffled_discard() -> None:
    """A-41, B-38 [W]: the Zoning Office's purchase from an empty bag draws from the recycled
    discard at random (not always its first tile); 9 tiles conserved."""
    drawn: Counter[str] = Counter()
    for seed in SEEDS:
        sc = Scenario1897(3, seed=seed, expansions=[2])
        sc.player(0, buildings={"zoning_office": 1}, doubloons=2, tiles={})
        sc.stacks({}, DISCARD)
        state = sc.act(sc.choose("trader", 0), 0, "zo.buy")
        tiles = [t["tile"] for t in view(sc, state)["players"][0]["field"]]
        assert len(tiles) == 1 and sum(state.deck) == 8 and sum(state.discard) == 0
        drawn[tiles[0]] += 1
        assert sc.invariant_failures(state) == []
    assert set(drawn) == {"corn", "fruit", "sugar"}


def _deck(s: State) -> list[int]:
    return s.puertoma[ptm.DECK_AT:ptm.HEADER]


def test_PTM_SET_2_the_tie_breaker_deck_is_shuffled_at_setup() -> None:
    """PTM-SET-2 (c), D.2: the 8 tie-breaker cards are shuffled face down: each setup's deck
    is a permutation of 1-8, not in card order, and the seeds deal different orders."""
    orders = set()
    for seed in SEEDS:
        s = GAME.setup({"players": 3, "puertomas": 2}, seed)
        deck = _deck(s)
        assert sorted(deck) == list(range(1, 9))
        orders.add(tuple(deck))
    assert tuple(range(1, 9)) not in orders
    assert len(orders) == len(SEEDS)


@pytest.mark.parametrize("seed", [1, 2])
def test_PTM_GEN_5_an_empty_tie_breaker_deck_is_shuffled_again(seed: int) -> None:
    """PTM-GEN-5: once the 8 cards are drawn, the next draw shuffles all 8 into a new deck:
    a permutation of 1-8 that is neither card order nor the order just drawn."""
    s = GAME.setup({"players": 3, "puertomas": 2}, seed)
    first = [ptm.draw_card(s, 1, "role", None) for _ in range(8)]
    ptm.draw_card(s, 1, "role", None)
    again = _deck(s)
    assert sorted(again) == list(range(1, 9))
    assert again not in (first, list(range(1, 9)))
    assert s.puertoma[ptm.DECK_POS] == 1


def test_PTM_GEN_5_reshuffled_decks_differ_by_seed() -> None:
    """PTM-GEN-5: over the seeds the reshuffled deck differs (the game's generator)."""
    orders = set()
    for seed in SEEDS:
        s = GAME.setup({"players": 3, "puertomas": 2}, seed)
        for _ in range(9):
            ptm.draw_card(s, 1, "role", None)
        orders.add(tuple(_deck(s)))
    assert len(orders) >= len(SEEDS) - 1


def test_PTM_SET_3_skill_tiles_are_drawn_at_random() -> None:
    """PTM-SET-3 (d), §8.9: each Puertoma takes one of the three skill tiles of each level at
    random: over the seeds every tile of every level is drawn, and the two Puertomas' draws
    are not always the same."""
    seen: list[set[int]] = [set() for _ in range(ptm.LEVELS)]
    same = 0
    for seed in range(30):
        s = GAME.setup({"players": 3, "puertomas": 2}, seed)
        tiles = {seat: s.puertoma[ptm.board_at(s, seat) + ptm.SKILL_AT:
                                  ptm.board_at(s, seat) + ptm.SKILL_AT + ptm.LEVELS]
                 for seat in (1, 2)}
        for level in range(ptm.LEVELS):
            seen[level] |= {tiles[1][level], tiles[2][level]}
        same += tiles[1] == tiles[2]
    assert all(level == {0, 1, 2} for level in seen)
    assert same < 10


def test_X4_1_X4_2_X4_3_X5_1_the_festival_draws_are_random() -> None:
    """X4-1 (a property drawn among one of each type), X4-2 (3 crates among 3 of each good),
    X4-3 (a 3-VP commercial building), X5-1 (3 Activity cards of the 12): over the seeds the
    draws differ, and the Activity cards are not always the first three of the list."""
    properties, goods, buildings, cards = set(), set(), set(), set()
    for seed in range(24):
        v = GAME.view(GAME.setup({"players": 4, "expansions": [4, 5]}, seed), None)
        festival = v["festival"]
        assert festival is not None
        properties.add(festival["property"]["tile"])
        goods.add(tuple(festival["production"]["goods"]))
        buildings.add(festival["construction"]["building"])
        cards.add(tuple(c["activity"] for c in v["festival_activities"]))
    assert len(properties) == 5 and len(buildings) == 4
    assert len(goods) >= 8 and len(cards) >= 12
    assert ("annual_harvest_weigh_in", "carnival_cocktail", "closing_the_work") not in cards


def test_X6_1_the_achievement_cards_are_dealt_shuffled() -> None:
    """X6-1: 4 cards dealt to each player from the shuffled deck: the hands are not the deck's
    first cards in order, and differ by seed; §8.13: a person's six cards at a table with
    Puertomas are drawn the same way."""
    hands = set()
    first = tuple(range(4))
    for seed in SEEDS:
        s = GAME.setup({"players": 4, "expansions": [6]}, seed)
        hand = tuple(c for c in range(30) if s.achievement_owner[c] == 0)
        assert len(hand) == 4
        hands.add(hand)
    assert first not in hands and len(hands) == len(SEEDS)
    picks = set()
    for seed in SEEDS:
        s = GAME.setup({"players": 3, "puertomas": 2, "expansions": [6]}, seed)
        picks.add(tuple(sorted(GAME.encode_action(a) for a in GAME.legal_actions(s, 0))))
    assert len(picks) == len(SEEDS)

