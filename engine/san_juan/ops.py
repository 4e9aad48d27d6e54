"""Small state operations shared by the phases: drawing (with the reshuffle of A-1), discarding,
shuffling, and the events that record them.

Each records what happened as an event when an event list is given (the unchecked simulation
path passes ``None``).  Any event naming a card a seat holds or drew is private to that seat;
everybody else sees counts only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..core import Event
from ..rng import GAMMA, MASK64, below
from .data import CARDS
from .state import State

Events = list[Event] | None

NAMES: Final = tuple(card.name for card in CARDS)


def shuffle(s: State, cards: list[int]) -> None:
    """Fisher–Yates with the game's seeded generator, in place: exactly ``rng.below`` per
    step, inlined (a reshuffle is the longest loop of a game)."""
    rng = s.rng
    for i in range(len(cards) - 1, 0, -1):
        rng = (rng + GAMMA) & MASK64
        z = rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        j = (z ^ (z >> 31)) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    s.rng = rng


def _shuffle_reference(s: State, cards: list[int]) -> None:
    """:func:`shuffle` written with ``rng.below`` (the tests compare the two)."""
    rng = s.rng
    for i in range(len(cards) - 1, 0, -1):
        rng, j = below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    s.rng = rng


def reshuffle(s: State, ev: Events) -> None:
    """§3.5 / A-1: the discard pile, shuffled, becomes the draw pile.  Cards being looked at or
    revealed in the current action are not in the discard pile, so they stay out."""
    s.pile = s.discard
    s.discard = []
    shuffle(s, s.pile)
    s.reveals += 1
    if ev is not None:
        ev.append(Event("PileReshuffled", None, {"cards": len(s.pile)}))


def draw(s: State, ev: Events) -> int:
    """The top card of the draw pile, reshuffling when it is empty (A-1: lazily, when a card
    must be drawn); -1 when both piles are empty (the draw gives nothing)."""
    if not s.pile:
        if not s.discard:
            return -1
        reshuffle(s, ev)
    s.reveals += 1
    return s.pile.pop()


def draw_many(s: State, count: int, ev: Events) -> list[int]:
    """Up to ``count`` cards (fewer when both piles run out, A-1)."""
    pile = s.pile
    if 0 < count <= len(pile):  # no reshuffle: the top ``count`` cards, top first
        out = pile[-count:]
        del pile[-count:]
        out.reverse()
        s.reveals += count
        return out
    out = []
    for _ in range(count):
        card = draw(s, ev)
        if card < 0:
            break
        out.append(card)
    return out


def draw_to_hand(s: State, seat: int, count: int, reason: str, ev: Events) -> int:
    """``seat`` draws up to ``count`` cards into its hand; returns how many it got."""
    hand = s.players[seat].hand
    pile = s.pile
    if 0 < count <= len(pile):  # no reshuffle: the top ``count`` cards, top first
        got = pile[-count:]
        del pile[-count:]
        got.reverse()
        s.reveals += count
        for card in got:
            hand[card] += 1
        if ev is not None:
            cards_drawn(ev, seat, got, reason)
        return count
    got = []
    for _ in range(count):
        card = draw(s, ev)
        if card < 0:
            break
        hand[card] += 1
        got.append(card)
    if ev is not None and count:
        cards_drawn(ev, seat, got, reason)
    return len(got)


def cards_drawn(ev: list[Event], seat: int, cards: list[int], reason: str) -> None:
    ev.append(
        Event(
            "CardsDrawn",
            seat,
            {"count": len(cards), "reason": reason, "cards": names(cards)},
            private_to=seat,
            public_data={"count": len(cards), "reason": reason},
        )
    )


def discard_from_hand(
    s: State, seat: int, cards: Iterable[int], event: str, reason: str, ev: Events
) -> None:
    """Move ``cards`` (kinds) from ``seat``'s hand to the discard pile, face down."""
    hand = s.players[seat].hand
    discard = s.discard
    moved = list(cards)
    for card in moved:
        hand[card] -= 1
        discard.append(card)
    if ev is not None and moved:
        private(ev, event, seat, {"count": len(moved), "reason": reason, "cards": names(moved)})


def private(ev: list[Event], event: str, seat: int, data: dict[str, object]) -> None:
    """An event whose card names only ``seat`` sees; the others see it without ``cards``."""
    public = {k: v for k, v in data.items() if k != "cards"}
    ev.append(Event(event, seat, data, private_to=seat, public_data=public))


def names(cards: Iterable[int]) -> list[str]:
    return [NAMES[c] for c in cards]
