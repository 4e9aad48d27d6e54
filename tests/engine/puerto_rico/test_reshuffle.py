"""The reshuffle of Puerto Rico's plantations must shuffle (issue #33, "Tests that name their
rules").

§4.1 "Refilling the face-up row" [C], [A]: when the face-down stacks run out, the discard pile is
shuffled face down into new stacks and the revealing goes on.  Ruling A6 models the stacks as one
shuffled deck (a count per kind, each tile drawn at random from the game's seeded generator), so
"shuffled" means: the tiles revealed after the reshuffle are random draws from the discarded
tiles, decided by the generator (not by the discard pile's makeup in some fixed order), and no
tile is lost or made.  This is the only reshuffle of the classic game and its expansions: the
Hacienda and the Land Office never reshuffle (A46; a 1897 option does, tested with 1897).
"""

from __future__ import annotations

from engine.puerto_rico.data import COFFEE, CORN, GOODS, INDIGO, TOBACCO
from engine.puerto_rico.state import State
from tests.engine.puerto_rico.scenario import GAME, Scenario


def _before_the_last_pick(seed: int) -> tuple[Scenario, State]:
    """3 players; the face-down stacks hold 1 tobacco, the discard pile 6 corn and 6 coffee; the
    face-up row indigo, sugar, sugar, indigo.  Seats 0 and 1 have taken indigo and sugar; seat
    2's pick is the last of the phase: the indigo left face up is then discarded, and the
    refill reveals the stack's tobacco and, after the reshuffle, 3 of the 13 discards."""
    sc = Scenario(players=3, seed=seed)
    sc.face_up(["indigo", "sugar", "sugar", "indigo"])
    sc.stacks({"tobacco": 1}, discard={"corn": 6, "coffee": 6})
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.indigo")
    state = sc.act(state, 1, "s.sugar")
    return sc, state


def _reshuffling_settler_end(seed: int) -> tuple[Scenario, State]:
    sc, state = _before_the_last_pick(seed)
    return sc, sc.act(state, 2, "s.sugar")


def test_t_set_7_the_reshuffled_discards_are_drawn_at_random() -> None:
    """T-SET-7 / §4.1 [C], [A] (the reshuffle), ruling A6: after the reshuffle the tiles revealed
    are drawn at random from the discards: over 30 seeds the three tiles drawn after the
    stack's tobacco vary (corn and coffee both come up, and neither "all corn first" nor any
    other single outcome always), each seed reproduces its own draw, and every tile is
    conserved: face up + new stacks = the stack's tile + the discards."""
    outcomes = set()
    coffee = 0
    for seed in range(30):
        sc, state = _reshuffling_settler_end(seed)
        assert sc.events_of("PlantationsRevealed")[-1].data["reshuffled"] is True
        up = sorted(state.face_up)
        assert up.count(TOBACCO) == 1  # the tobacco of the stacks, then 3 of the discards
        drawn = [t for t in up if t != TOBACCO]
        assert all(t in (CORN, INDIGO, COFFEE) for t in drawn)
        # conservation: 1 tobacco + 6 corn + 6 coffee + the discarded indigo = 14 tiles
        total = [a + b for a, b in zip(state.deck, state.discard, strict=True)]
        for t in state.face_up:
            total[t] += 1
        assert dict(zip(GOODS, total, strict=True)) == {
            "corn": 6, "indigo": 1, "sugar": 0, "tobacco": 1, "coffee": 6}
        assert sum(state.discard) == 0
        outcomes.add(tuple(drawn))
        coffee += drawn.count(COFFEE)
        _, again = _reshuffling_settler_end(seed)
        assert again.face_up == state.face_up  # the seed decides the draw
        assert sc.invariant_failures(state) == []
    assert len(outcomes) >= 4
    assert 20 <= coffee <= 70  # 90 tiles drawn from 13 of which 6 coffee: about 41


def test_t_set_7_the_reshuffle_follows_the_generator_not_the_pile() -> None:
    """§4.1 [C], [A] with A6: the very same position reshuffled with different generator states
    reveals different tiles (the new stacks are shuffled by the game's generator, not laid out
    from the discard pile in order)."""
    _, state = _before_the_last_pick(0)
    revealed = set()
    for rng in range(20):
        before = state.clone()
        before.rng = rng * 0x9E3779B97F4A7C15 % (1 << 64)
        after, _ = GAME.apply(before, 2, GAME.decode_action("s.sugar"))
        revealed.add(tuple(sorted(after.face_up)))
    assert len(revealed) >= 3
