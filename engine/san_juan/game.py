"""San Juan behind the generic engine contract (``engine.core.Game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import CorruptState, Event, GainEvent, InvalidSetup, Outcome, Prompt, register
from ..rng import seed_state
from . import actions as A
from . import flow, legality, phases, scoring
from .data import NKINDS
from .invariants import invariant_failures
from .ops import shuffle
from .save import dump_state, load_state
from .state import State
from .view import SanJuanView
from .view import view as _view


class SanJuan:
    """The card game, 2–4 players (rules spec §2–§6), with the variant start of §2.7."""

    name = "san-juan"
    legacy_options: Mapping[str, Any] = flow.LEGACY_OPTIONS
    gain_events: Mapping[str, GainEvent] = {}  # no points are taken during play (§6)

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return flow.normalize_options(options)

    def option_sets(self) -> list[dict[str, Any]]:
        """The option dicts the generic tests exercise: 2, 3 and 4 players, each with and
        without the variant start, and the Councillor's draws of the games stored before
        ``councillor_draw`` (``at_once``)."""
        return [
            {"players": players, "variant_start": variant}
            for players in (2, 3, 4)
            for variant in (False, True)
        ] + [{"players": 3, "variant_start": False, "councillor_draw": "at_once"}]

    def setup(self, options: Mapping[str, Any], seed: int) -> State:
        return flow.setup(options, seed)

    def players(self, state: State) -> int:
        return state.n

    def prompt(self, state: State) -> Prompt | None:
        return legality.current_prompt(state)

    def legal_actions(self, state: State, seat: int) -> list[A.Action]:
        if type(seat) is not int or not 0 <= seat < state.n:
            return []
        return list(legality.legal(state, seat))

    # Simulation path: the engine's own sequence of legal actions, built on demand for the
    # large multiset decisions (``choices.Choices``) and shared between equal positions:
    # read-only.  (The three fast-path entries are the engine's functions themselves: no
    # wrapper call on the hottest path.)
    legal_fast = staticmethod(legality.legal)

    def apply(self, state: State, seat: int, action: A.Action) -> tuple[State, list[Event]]:
        """Validate, then apply to a copy: the input state is never mutated."""
        if not isinstance(action, A.Action):
            action = A.decode(action) if isinstance(action, str) else A.decode(repr(action))
        legality.check(state, seat, action)
        new = state.clone()
        events: list[Event] = []
        phases.apply_unchecked(new, seat, action, events)
        return new, events

    # Simulation path: mutate the state in place, no validation and no events; only for
    # actions taken from the legal actions of the same state.
    apply_fast = staticmethod(phases.apply_unchecked)
    # Simulation path: the first prompted seat, -1 when the game is over.
    actor = staticmethod(legality.actor)

    def reveals(self, before: State, after: State) -> bool:
        """Whether going from ``before`` to ``after`` drew or turned a card (a draw takes the
        top of the pile, so the generator need not change), reshuffled the discard pile or
        turned a trading-house tile: such a step can never be taken back.  ``State.reveals``
        counts every one of them."""
        return before.reveals != after.reveals or before.rng != after.rng

    def invariants(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` (empty for every reachable state)."""
        return invariant_failures(state)

    def view(self, state: State, viewer: int | None) -> SanJuanView:
        return _view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def standing(self, state: State) -> Outcome:
        return scoring.final_scores(state)

    def round(self, state: State) -> int:
        return state.round

    def encode_action(self, action: A.Action) -> str:
        return action.code

    def decode_action(self, code: str) -> A.Action:
        return A.decode(code)

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any], *, check: bool = True) -> State:
        state = load_state(data)
        if state.game_name != self.name:
            raise CorruptState("wrong_game", game=state.game_name)
        try:
            options = flow.normalize_options({**flow.LEGACY_OPTIONS, **state.options})
        except InvalidSetup as exc:
            raise CorruptState("bad_options") from exc
        if options["players"] != state.n:
            raise CorruptState("inconsistent_state", problems=["players"])
        state.options = options
        state.variant = options["variant_start"]
        if not check:
            return state
        try:
            problems = self.invariants(state)
        except (IndexError, KeyError, TypeError, ValueError):
            problems = ["malformed"]
        if problems:
            raise CorruptState("inconsistent_state", problems=problems[:5])
        return state

    def determinize(self, state: State, seat: int | None, seed: int) -> State:
        """A copy of ``state`` in which everything hidden from ``seat`` (``None``: from
        everyone) is resampled uniformly with a generator seeded by ``seed``, consistently with
        what ``seat`` sees: the cards it cannot see (the other hands, the draw pile and its
        order, the discard pile, the faces of every good, the other players' Chapel cards and
        drawn-but-undecided cards) are redistributed among those same places, every count kept;
        the face-down trading-house tiles keep the revealed ones in their known cyclic order
        and shuffle only the unknown part; the game's generator is reseeded too, so future
        reshuffles differ.  (A seat's memory of the cards it discarded is not part of its view,
        so the discard pile is resampled too.)"""
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.n):
            raise ValueError(f"no seat {seat!r}")
        s = state.clone()
        s.rng = seed_state(seed)
        pool: list[int] = list(s.pile) + list(s.discard)
        for i, p in enumerate(s.players):
            pool.extend(g for g in p.goods if g >= 0)
            if i != seat:
                pool.extend(p.hand_cards())
                pool.extend(p.chapel)
                pool.extend(p.drawn)
        # in a fixed order before the shuffle: the sample depends on what ``seat`` knows only
        # (the cards' multiset and the places' sizes), never on how they lay (issue #13's
        # fairness: a search that sees the same things makes the same choice)
        pool.sort()
        shuffle(s, pool)
        at = 0

        def take(count: int) -> list[int]:
            nonlocal at
            out = pool[at : at + count]
            at += count
            return out

        s.pile = take(len(s.pile))
        s.discard = take(len(s.discard))
        for i, p in enumerate(s.players):
            p.goods = [take(1)[0] if g >= 0 else -1 for g in p.goods]
            if i != seat:
                hand = [0] * NKINDS
                for card in take(sum(p.hand)):
                    hand[card] += 1
                p.hand = hand
                p.chapel = take(len(p.chapel))
                p.drawn = take(len(p.drawn))
        # the tiles: the unknown ones (not revealed yet) lie on top in an unknown order
        unknown = sorted(t for t in s.tiles if t not in s.revealed)
        shuffle(s, unknown)
        s.tiles = unknown + s.tiles[len(unknown) :]
        s.rng = seed_state(seed ^ 0x5A17_C0DE)
        return s


SAN_JUAN = SanJuan()
register(SAN_JUAN)
