"""San Juan's own random-playout properties (ARCHITECTURE.md, testing layer 2; the generic ones
are in ``tests/engine/test_properties.py``): the 110 cards are conserved after every action,
the on-demand legal actions equal their enumeration, the direct legality test equals
membership, and the heuristic beats random seats.  Scale with GOVERNOR_PROPERTY_GAMES."""

from __future__ import annotations

import os
import random

import pytest

from engine.core import IllegalAction
from engine.policies import make_policy
from engine.san_juan import actions as A
from engine.san_juan.choices import Multisets, multisets
from engine.san_juan.data import COPIES, NKINDS, TOTAL_CARDS
from engine.san_juan.legality import is_legal, legal, prompt_seats
from engine.san_juan.state import State
from engine.simulate import simulate

from .scenario import GAME

GAMES = max(2, int(os.environ.get("GOVERNOR_PROPERTY_GAMES", "400")) // 10)


def where(state: State) -> dict[str, int]:
    """Where the cards are (§2.3, §3.4): every place a card can be."""
    players = state.players
    return {
        "hands": sum(sum(p.hand) for p in players),
        "draw_pile": len(state.pile),
        "discard_pile": len(state.discard),
        "buildings": sum(len(stack) for p in players for stack in p.area),
        "goods": sum(1 for p in players for g in p.goods if g >= 0),
        "chapels": sum(len(p.chapel) for p in players),
        "drawn": sum(len(p.drawn) for p in players),
        "gold_mine": len(state.gm_cards),
    }


def by_kind(state: State) -> list[int]:
    out = [0] * NKINDS
    for card in [*state.pile, *state.discard, *state.gm_cards]:
        out[card] += 1
    for p in state.players:
        for k in range(NKINDS):
            out[k] += p.hand[k]
        for card in [*(c for stack in p.area for c in stack), *p.chapel, *p.drawn]:
            out[card] += 1
        for card in p.goods:
            if card >= 0:
                out[card] += 1
    return out


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 2, "variant_start": True},
        {"players": 4, "variant_start": True},
    ],
)
def test_the_110_cards_are_conserved_after_every_action(options: dict[str, object]) -> None:
    """§2.2: hands + pile + discard + buildings + goods + Chapels + drawn-but-undecided (and
    the Gold mine's face-up cards) hold the 110 cards, kind by kind, after every action of
    random and heuristic games."""
    players = int(options["players"])  # type: ignore[call-overload]
    for game_index in range(GAMES):
        policy = "heuristic" if game_index % 2 else "random"
        seed = 300 + game_index
        seats = [make_policy(policy, "san-juan", seed * 5 + s) for s in range(players)]
        state = GAME.setup(options, seed)
        steps = 0
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[-1]
            action = seats[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
            assert sum(where(state).values()) == TOTAL_CARDS
            assert by_kind(state) == list(COPIES)
            steps += 1
        assert steps > 50


def test_on_demand_multisets_equal_their_enumeration() -> None:
    """``Multisets`` (counted and unranked) lists exactly what ``multisets`` enumerates, in the
    same order."""
    rng = random.Random(5)
    for _ in range(300):
        counts = [rng.choice([0, 0, 1, 1, 2, 3]) for _ in range(rng.randint(0, 9))]
        size = rng.randint(0, 7)
        seq = Multisets(counts, size)
        assert list(seq) == multisets(counts, size)
        assert len(seq) == len(multisets(counts, size))
        if len(seq):
            assert seq[-1] == multisets(counts, size)[-1]
            with pytest.raises(IndexError):
                seq[len(seq)]


def _count_multisets(counts: list[int], size: int) -> int:
    """The number of multisets of ``size`` items from ``counts``, by the plain recurrence."""
    ways = [1] + [0] * size
    for count in counts:
        ways = [
            sum(ways[need - t] for t in range(min(count, need) + 1)) for need in range(size + 1)
        ]
    return ways[size]


def test_multiset_counts_hold_for_large_hands() -> None:
    """The packed counting table of ``Multisets`` (one integer per row, a digit per size) gives
    the exact count for hands far larger than a game deals (every kind, many copies), and the
    same multisets as the enumeration where that stays small."""
    rng = random.Random(11)
    for _ in range(200):
        counts = [rng.choice([0, 1, 2, 3, 5, 8, 12]) for _ in range(rng.randint(1, NKINDS))]
        size = rng.randint(0, min(30, sum(counts) + 1))
        seq = Multisets(counts, size)
        assert len(seq) == _count_multisets(counts, size)
        if len(seq) <= 3000:
            assert list(seq) == multisets(counts, size)
        elif size:
            assert len(seq[0]) == len(seq[-1]) == len(seq[len(seq) // 2]) == size
            assert seq[0] < seq[len(seq) // 2] < seq[-1]  # lexicographic order


def test_direct_legality_equals_membership_in_the_legal_actions() -> None:
    """``is_legal`` (no listing) accepts exactly the legal actions at positions of random games:
    every legal action passes; near misses (one card more, fewer or changed) pass exactly when
    they are in the list."""
    rng = random.Random(9)
    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        state = GAME.setup({"players": players, "variant_start": seed % 2 == 1}, seed)
        seats = [make_policy("random", "san-juan", seed + s) for s in range(players)]
        while (prompt := GAME.prompt(state)) is not None:
            for seat in prompt_seats(state):
                options = list(legal(state, seat))
                codes = {a.code for a in options}
                for action in options[:30]:
                    assert is_legal(state, seat, action)
                for action in rng.sample(options, min(4, len(options))):
                    if not (action.cards or action.goods):
                        continue
                    for variant in _near(action, rng):
                        assert is_legal(state, seat, variant) == (variant.code in codes)
                        checked += 1
            seat = prompt.seats[0]
            action = seats[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
    assert checked > 500


def _near(action: A.Action, rng: random.Random) -> list[A.Action]:
    cards, goods = list(action.cards), list(action.goods)
    out = []
    if cards:
        out.append(A.multi(action.kind, tuple(sorted(cards[1:])), action.goods))
        changed = cards[:]
        changed[rng.randrange(len(changed))] = rng.randrange(NKINDS)
        out.append(A.multi(action.kind, tuple(sorted(changed)), action.goods))
        out.append(
            A.multi(action.kind, tuple(sorted([*cards, rng.randrange(NKINDS)])), action.goods)
        )
    if goods:
        out.append(A.multi(action.kind, action.cards, tuple(sorted([*goods, rng.randrange(5)]))))
        out.append(A.multi(action.kind, action.cards, tuple(sorted(goods[1:]))))
    return [a for a in out if a.cards or a.goods]


def test_apply_refuses_what_is_not_legal_without_changing_anything() -> None:
    """Every refused action raises a documented error with a machine-readable code."""
    state = GAME.setup({"players": 3}, 2)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.decode_action("pr.indigo"))
    assert err.value.code == "wrong_decision"


def test_heuristic_beats_three_random_players() -> None:
    """The heuristic seat wins at least 80% of 4-player games against three random seats (a
    seeded, deterministic sample; ``python -m engine simulate --game san-juan --players 4
    --games 400 --policies heuristic,random,random,random`` prints the figure: 398 of 400)."""
    games = 60
    result = simulate("san-juan", 4, games, 2024, ["heuristic", "random", "random", "random"])
    assert result["wins_by_seat"][0] >= 0.8 * games
    result = simulate("san-juan", 4, 20, 99, ["random", "random", "heuristic", "random"])
    assert result["wins_by_seat"][2] >= 0.8 * 20


def test_the_inlined_shuffle_is_the_generators_shuffle() -> None:
    """``ops.shuffle`` (inlined) draws exactly what ``rng.below`` would."""
    from engine.san_juan.ops import _shuffle_reference, shuffle

    for seed in range(20):
        a = GAME.setup({"players": 2}, seed)
        b = a.clone()
        cards = list(range(seed * 3))
        other = list(cards)
        shuffle(a, cards)
        _shuffle_reference(b, other)
        assert cards == other and a.rng == b.rng
