"""San Juan's hidden information (rules spec §3.4, A-10): hands, drawn-but-undecided cards,
Chapel cards, the faces of goods, the draw pile and its order, the discard pile, the face-down
trading-house tiles.

The no-leak property: at every position of random games, another seat's hidden cards (hand,
Chapel, drawn cards) are exchanged with cards from the discard pile and the deep part of the
draw pile, the faces of every good too, and the deep part of the pile is shuffled; then every
view of everybody else, before and after the same action, and every event as redacted for them,
must be identical.  ``determinize`` is checked to keep exactly what a seat sees.
"""

from __future__ import annotations

import random

import pytest

from engine.policies import make_policy
from engine.san_juan.state import State

from .scenario import GAME

DEEP = 30  # the top cards of the pile stay in place: one action never draws that many


def perturb(state: State, owner: int, rng: random.Random) -> State:
    """A copy in which ``owner``'s hidden cards, every good's face and the deep pile differ."""
    s = state.clone()
    reservoir_pile = max(0, len(s.pile) - DEEP)
    # the hidden places that may exchange cards: the discard pile, the deep part of the pile
    slots: list[tuple[list[int], int]] = [(s.discard, i) for i in range(len(s.discard))]
    slots += [(s.pile, i) for i in range(reservoir_pile)]
    p = s.players[owner]
    cards: list[int] = p.hand_cards()
    chapel, drawn = list(p.chapel), list(p.drawn)
    goods = [(pl, i) for pl in s.players for i, g in enumerate(pl.goods) if g >= 0]
    pool = cards + chapel + drawn + [pl.goods[i] for pl, i in goods] + [lst[i] for lst, i in slots]
    rng.shuffle(pool)
    at = 0

    def take(count: int) -> list[int]:
        nonlocal at
        out = pool[at : at + count]
        at += count
        return out

    hand = [0] * len(p.hand)
    for card in take(len(cards)):
        hand[card] += 1
    p.hand = hand
    p.chapel = take(len(chapel))
    p.drawn = take(len(drawn))
    for pl, i in goods:
        pl.goods[i] = take(1)[0]
    for lst, i in slots:
        lst[i] = take(1)[0]
    return s


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 3, "variant_start": True}],
)
def test_changing_another_seats_hidden_cards_changes_nothing_anyone_else_sees(
    options: dict[str, object],
) -> None:
    """The no-leak property of the module docstring, over whole random and heuristic games."""
    rng = random.Random(17)
    players = int(options["players"])  # type: ignore[call-overload]
    compared = 0
    for game_index in range(3):
        policy = "heuristic" if game_index == 1 else "random"
        seats = [make_policy(policy, "san-juan", 70 + game_index * 9 + s) for s in range(players)]
        state = GAME.setup(options, 40 + game_index)
        step = 0
        while (prompt := GAME.prompt(state)) is not None:
            actor = prompt.seats[step % len(prompt.seats)]
            action = seats[actor].choose(GAME, state, actor, GAME.legal_actions(state, actor))
            after, events = GAME.apply(state, actor, action)
            owner = rng.choice([s for s in range(players) if s != actor])
            other = perturb(state, owner, rng)
            assert GAME.invariants(other) == []
            viewers = [None, *(v for v in range(players) if v != owner)]
            for viewer in viewers:
                assert GAME.view(other, viewer) == GAME.view(state, viewer)
            other_after, other_events = GAME.apply(other, actor, action)
            if not any(e.type == "PileReshuffled" for e in events):
                for viewer in viewers:
                    assert GAME.view(other_after, viewer) == GAME.view(after, viewer), (
                        step,
                        action,
                        viewer,
                    )
                    assert [e.for_viewer(viewer) for e in other_events] == [
                        e.for_viewer(viewer) for e in events
                    ], (step, action, viewer)
                    compared += 1
            assert (
                GAME.view(other, owner) != GAME.view(state, owner)
                or not (sum(state.players[owner].hand) or state.players[owner].chapel)
                or _same_kinds(state, other, owner)
            )
            state = after
            step += 1
    assert compared > 1000


def _same_kinds(a: State, b: State, seat: int) -> bool:
    pa, pb = a.players[seat], b.players[seat]
    return (
        pa.hand == pb.hand
        and sorted(pa.chapel) == sorted(pb.chapel)
        and sorted(pa.drawn) == sorted(pb.drawn)
    )


def test_the_public_view_shows_counts_and_a_seat_view_adds_its_own_cards() -> None:
    """§3.4: hand sizes are public, contents the owner's; drawn cards likewise; the seed and
    the pile order never appear."""
    state = GAME.setup({"players": 3, "variant_start": True}, 8)
    public = GAME.view(state, None)
    assert [seat["hand"] for seat in public["seats"]] == [0, 0, 0]
    assert [seat["drawn"] for seat in public["seats"]] == [5, 6, 7]
    assert "hand" not in public and "drawn" not in public
    own = GAME.view(state, 1)
    assert len(own["drawn"]) == 6 and own["hand"] == []
    assert own["pending"] == {"decision": "variant_keep", "keep": 4, "drawn": 6}
    text = repr(public)
    assert str(state.rng) not in text and "pile" not in [k for k in public if k == "pile"]
    assert public["draw_pile"] == len(state.pile)


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_determinize_keeps_what_the_seat_knows_and_resamples_the_rest(seat: int | None) -> None:
    """``determinize``: the seat's own hand, drawn and Chapel cards stay; every count stays;
    the revealed trading-house tiles keep their cycle; the hidden cards are resampled."""
    state = GAME.setup({"players": 3}, 4)
    policies = [make_policy("heuristic", "san-juan", 3 + s) for s in range(3)]
    for _ in range(120):
        prompt = GAME.prompt(state)
        assert prompt is not None
        actor = prompt.seats[0]
        action = policies[actor].choose(GAME, state, actor, GAME.legal_actions(state, actor))
        state, _ = GAME.apply(state, actor, action)
    other = GAME.determinize(state, seat, 5)
    assert GAME.invariants(other) == []
    assert GAME.view(other, seat) == GAME.view(state, seat)
    for i, (p, q) in enumerate(zip(state.players, other.players, strict=True)):
        assert sum(p.hand) == sum(q.hand) and len(p.chapel) == len(q.chapel)
        assert p.area == q.area and [g >= 0 for g in p.goods] == [g >= 0 for g in q.goods]
        if i == seat:
            assert p.hand == q.hand and p.chapel == q.chapel and p.drawn == q.drawn
    assert len(other.pile) == len(state.pile) and len(other.discard) == len(state.discard)
    k = len(state.revealed)
    assert (
        other.tiles[len(other.tiles) - min(k, len(other.tiles)) :]
        == state.tiles[len(state.tiles) - min(k, len(state.tiles)) :]
    )
    assert other.pile != state.pile
    assert GAME.determinize(state, seat, 6).pile != other.pile
    with pytest.raises(ValueError):
        GAME.determinize(state, 3, 1)


def test_any_draw_is_a_reveal_and_nothing_else_is() -> None:
    """``reveals``: a step that drew a card (Councillor, production, sale, Prospector, Gold
    mine, Carpenter), turned a tile or reshuffled can never be undone; a role choice without a
    draw, a build, a payment, a keep or a pass can."""
    from .scenario import Scenario

    sc = Scenario(players=3)
    sc.player(
        0, hand=["well", "x", "x", "x"], buildings=["indigo_plant", "sugar_mill", "gold_mine"]
    )
    state = sc.state
    built = sc.choose("builder", 0)
    assert not GAME.reveals(state, built)
    paid = sc.act(built, 0, "b.well")
    assert not GAME.reveals(built, paid)
    after = sc.act(paid, 0, GAME.encode_action(GAME.legal_actions(paid, 0)[0]))
    assert not GAME.reveals(paid, after)
    sc2 = Scenario(players=3)
    start = sc2.state
    chosen = sc2.choose("councillor", 0)
    assert not GAME.reveals(start, chosen)  # nothing drawn before a seat asks (§4.4)
    drawn = sc2.act(chosen, 1, "draw")
    assert GAME.reveals(chosen, drawn)
    kept = sc2.act(drawn, 1, GAME.encode_action(GAME.legal_actions(drawn, 1)[0]))
    assert not GAME.reveals(drawn, kept)
    sc3 = Scenario(players=3)
    start = sc3.state
    traded = sc3.choose("trader", 0)  # a tile is turned even if nobody sells
    assert GAME.reveals(start, traded)
    sc4 = Scenario(players=3)
    sc4.player(0, buildings=["indigo_plant", "gold_mine"])
    state = sc4.choose("prospector", 0)
    after = sc4.act(state, 0, "draw")
    assert GAME.reveals(state, after)
    mined = sc4.act(after, 0, "reveal")
    assert GAME.reveals(after, mined)
