"""A scenario builder for San Juan rule tests: set up exactly the position under test.

Every card a scenario gives (to a hand, an area, as a good, under a Chapel, on top of the pile)
is taken from the draw pile (or the discard pile), and every card it takes back returns to the
pile, so the 110 cards stay conserved and the engine's invariants keep holding.  Actions go
through the real engine (``GAME.apply``); the events of every action are kept in ``events``.

Typical use::

    sc = Scenario(players=3)
    sc.player(0, hand=["sugar_mill", "x", "x"], buildings=["smithy", "library"])
    state = sc.choose("builder", seat=0, library=True)
    state = sc.act(state, 0, "b.sugar_mill")
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import engine.san_juan  # noqa: F401  (registers "san-juan")
from engine.core import Event, get_game
from engine.san_juan import flow
from engine.san_juan.data import CARDS, KIND_INDEX, ROLE_INDEX, TILES
from engine.san_juan.game import SanJuan
from engine.san_juan.state import State

GAME: SanJuan = get_game("san-juan")  # type: ignore[assignment]
# the cards a scenario uses for "x" (any card whose identity does not matter): kinds that no
# test builds, cycled so that a hand of fillers holds several kinds
FILLERS = ("statue", "victory_column", "hero", "well", "tower", "aqueduct", "archive")


def kind(name: str) -> int:
    return KIND_INDEX[name]


class Scenario:
    def __init__(self, players: int = 3, seed: int = 0, **options: Any) -> None:
        self.state: State = GAME.setup({"players": players, **options}, seed)
        self.events: list[Event] = []
        self._filler = 0

    # --- cards ----------------------------------------------------------------------------

    def _take(self, name: str) -> int:
        """One card of ``name`` out of the pile (from the bottom) or the discard pile."""
        s = self.state
        if name == "x":
            for _ in range(len(FILLERS)):
                name = FILLERS[self._filler % len(FILLERS)]
                self._filler += 1
                if kind(name) in s.pile or kind(name) in s.discard:
                    break
            else:
                return s.pile.pop(0)  # any card: the bottom of the pile
        k = kind(name)
        if k in s.pile:
            s.pile.remove(k)
        elif k in s.discard:
            s.discard.remove(k)
        else:
            # from a hand: that hand gets the bottom card of the pile instead (same size)
            for p in s.players:
                if p.hand[k]:
                    p.hand[k] -= 1
                    p.hand[s.pile.pop(0)] += 1
                    break
            else:
                raise AssertionError(f"no {name} left in the piles or the hands")
        return k

    def _return(self, cards: Iterable[int]) -> None:
        self.state.pile[:0] = list(cards)  # under the pile

    def player(
        self,
        seat: int,
        *,
        hand: Sequence[str] | None = None,
        buildings: Sequence[str | Sequence[str]] | None = None,
        goods: Sequence[int] | None = None,
        chapel: int | None = None,
    ) -> Scenario:
        """Give ``seat`` exactly these components.  ``buildings`` lists top-level buildings
        (a list of names is a stack built over with the Crane, bottom first); all are active.
        ``goods`` lists the area indexes that carry a good; ``chapel`` is the number of cards
        under the Chapel(s)."""
        s = self.state
        p = s.players[seat]
        if hand is not None:
            self._return(p.hand_cards())
            p.hand = [0] * len(p.hand)
            for name in hand:
                p.hand[self._take(name)] += 1
        if buildings is not None:
            for stack in p.area:
                self._return(stack)
            self._return(g for g in p.goods if g >= 0)
            p.area, p.top, p.goods = [], [], []
            for spec in buildings:
                names = [spec] if isinstance(spec, str) else list(spec)
                index = p.add_building(self._take(names[0]))
                for name in names[1:]:
                    p.cover(index, self._take(name))
        if goods is not None:
            self._return(g for g in p.goods if g >= 0)
            p.goods = [-1] * len(p.area)
            for index in goods:
                p.goods[index] = self._take("x")
        if chapel is not None:
            self._return(p.chapel)
            p.chapel = [self._take("x") for _ in range(chapel)]
        return self

    def pile_top(self, names: Sequence[str]) -> Scenario:
        """Put these cards on top of the draw pile: ``names[0]`` is drawn first."""
        cards = [self._take(name) for name in names]
        self.state.pile.extend(reversed(cards))
        return self

    def empty_pile(self, keep: int = 0) -> Scenario:
        """Move all but ``keep`` cards of the draw pile to the discard pile."""
        s = self.state
        moved = s.pile[: len(s.pile) - keep]
        del s.pile[: len(s.pile) - keep]
        s.discard.extend(moved)
        return self

    def tiles(self, order: Sequence[int]) -> Scenario:
        """The face-down trading-house tiles, top first (the others follow in order)."""
        rest = [t for t in TILES if t not in order]
        self.state.tiles = [*order, *rest]
        return self

    def governor(self, seat: int) -> Scenario:
        s = self.state
        s.governor = seat
        s.turn = seat
        return self

    # --- actions --------------------------------------------------------------------------

    def act(self, state: State, seat: int, code: str) -> State:
        state, events = GAME.apply(state, seat, GAME.decode_action(code))
        self.events.extend(events)
        assert GAME.invariants(state) == [], GAME.invariants(state)
        self.state = state
        return state

    def choose(self, role: str, seat: int | None = None, library: bool = False) -> State:
        """The seat whose turn it is (or ``seat``, made so) chooses ``role``."""
        s = self.state
        assert GAME.invariants(s) == [], GAME.invariants(s)
        if seat is not None and s.turn != seat:
            s.governor = (seat - s.picks) % s.n
            s.turn = seat
        assert ROLE_INDEX[role] >= 0
        return self.act(s, s.turn, f"r.{role}" + (".lib" if library else ""))

    def councillor(
        self, seat: int | None = None, library: bool = False, draws: Sequence[int] | None = None
    ) -> State:
        """``seat`` chooses the Councillor and the seats of ``draws`` (default: every seat,
        clockwise from the chooser) take the draw, in that order (§4.4)."""
        state = self.choose("councillor", seat, library)
        n = state.n
        order = [(state.chooser + i) % n for i in range(n)] if draws is None else draws
        for drawer in order:
            state = self.act(state, drawer, "draw")
        return state

    def end_round(self) -> State:
        """Jump to the start-of-round steps of the next round (as if every role of this round
        had been played): the Chapel, then the hand limit (§3.3)."""
        s = self.state
        s.picks = 0
        s.taken = [-1] * 5
        events: list[Event] = []
        flow.end_round(s, events)
        self.events.extend(events)
        assert GAME.invariants(s) == [], GAME.invariants(s)
        return s

    def of_type(self, event: str) -> list[Event]:
        return [e for e in self.events if e.type == event]


def names(cards: Iterable[int]) -> list[str]:
    return sorted(CARDS[c].name for c in cards)


def hand_of(state: State, seat: int) -> list[str]:
    return names(state.players[seat].hand_cards())


def prompt_kind(state: State) -> str | None:
    prompt = GAME.prompt(state)
    return None if prompt is None else prompt.kind


def legal_codes(state: State, seat: int) -> list[str]:
    return [a.code for a in GAME.legal_actions(state, seat)]
