"""Puerto Rico behind the generic engine contract (``engine.core.Game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import CorruptState, Event, Outcome, Prompt, register
from . import actions as A
from . import rules, scoring
from .data import CITY_SPACES, ISLAND_SPACES, NGOODS, NTILES, TRADING_HOUSE_CAPACITY
from .state import GAME_OVER, STEP_KEEP, State, dump_state, load_state
from .view import view as _view


class PuertoRico:
    """The classic game, 2–5 players (rules spec §2–§9)."""

    name = "puerto-rico"

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return rules.normalize_options(options)

    def setup(self, options: Mapping[str, Any], seed: int) -> State:
        return rules.setup(options, seed)

    def players(self, state: State) -> int:
        return state.n

    def prompt(self, state: State) -> Prompt | None:
        return rules.current_prompt(state)

    def legal_actions(self, state: State, seat: int) -> list[A.Action]:
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            return []
        return list(rules.legal(state, seat))

    def apply(self, state: State, seat: int, action: A.Action) -> tuple[State, list[Event]]:
        """Validate, then apply to a copy: the input state is never mutated."""
        if not isinstance(action, A.Action):
            action = A.decode(action) if isinstance(action, str) else A.decode(repr(action))
        rules.check(state, seat, action)
        new = state.clone()
        events: list[Event] = []
        rules.apply_unchecked(new, seat, action, events)
        return new, events

    def apply_fast(self, state: State, seat: int, action: A.Action) -> None:
        """Simulation path: mutate ``state`` in place, no validation and no events.  Only for
        actions taken from ``legal_actions`` of the same state."""
        rules.apply_unchecked(state, seat, action, None)

    def actor(self, state: State) -> int:
        """Simulation path: the first prompted seat, -1 when the game is over."""
        return rules.actor(state)

    def view(self, state: State, viewer: int | None) -> dict[str, Any]:
        return _view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def encode_action(self, action: A.Action) -> str:
        return action.code

    def decode_action(self, code: str) -> A.Action:
        return A.decode(code)

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> State:
        state = load_state(data, NGOODS, NTILES, len(A.CATALOG))
        if state.game_name != self.name:
            raise CorruptState("wrong_game", game=state.game_name)
        try:
            options = rules.normalize_options(state.options)
        except Exception as exc:
            raise CorruptState("bad_options") from exc
        state.options = options
        state.rs = rules.ruleset(options)
        problems = invariant_failures(state)
        if problems:
            raise CorruptState("inconsistent_state", problems=problems[:5])
        return state


def invariant_failures(s: State) -> list[str]:
    """Every broken invariant: conservation of each component, no negative count, structure in
    range.  Empty for every reachable state."""
    out: list[str] = []
    rs: rules.Ruleset = s.rs
    n = s.n
    if n != rs.n:
        return ["player_count"]
    got = rules.counts_fingerprint(s)
    for key, value in rules.expected_totals(s).items():
        if got[key] != value:
            out.append(f"conservation:{key}:{got[key]}!={value}")
    if len(s.players) != n or len(s.pending) != n:
        out.append("players")
    scalars = (s.colonist_supply, s.colonist_ship, s.quarries, s.no_load, s.picks, s.turns_taken)
    if min(scalars) < 0:
        out.append("negative_counter")
    lists = (s.deck, s.discard, s.market, s.goods, s.ship_load, s.card_doubloons)
    if any(v < 0 for values in lists for v in values):
        out.append("negative_count")
    if len(s.cards) != len(rs.row.roles) or len(s.card_taken) != len(s.cards):
        out.append("role_cards")
    if len(s.ship_cap) != len(rs.row.ships) or len(s.ship_kind) != len(s.ship_cap):
        out.append("ships")
    for i, cap in enumerate(s.ship_cap):
        load, kind = s.ship_load[i], s.ship_kind[i]
        if load > cap or (kind < 0) != (load == 0) or kind >= NGOODS:
            out.append(f"ship:{i}")
    kinds = [k for k in s.ship_kind if k >= 0]
    if len(kinds) != len(set(kinds)):
        out.append("ship_kind_twice")
    if len(s.house) > TRADING_HOUSE_CAPACITY or any(not 0 <= g < NGOODS for g in s.house):
        out.append("trading_house")
    if len(s.face_up) > n + 1 or any(not 0 <= t < NGOODS for t in s.face_up):
        out.append("face_up")
    if not 0 <= s.governor < n or not 0 <= s.turn < n or s.chooser >= n:
        out.append("seat_range")
    if s.phase not in (0, 1, 2, 3, 4, 5, 6, GAME_OVER) or not 0 <= s.step <= STEP_KEEP:
        out.append("phase")
    for seat, p in enumerate(s.players):
        if p.doubloons < 0 or p.vp < 0 or p.san_juan < 0:
            out.append(f"player:{seat}:negative")
        if any(g < 0 for g in p.goods) or any(t < 0 for t in p.tiles):
            out.append(f"player:{seat}:negative_goods")
        if any(w < 0 or w > t for w, t in zip(p.workers, p.tiles, strict=True)):
            out.append(f"player:{seat}:workers")
        if sum(p.tiles) > ISLAND_SPACES or rules.city_used(p) > CITY_SPACES:
            out.append(f"player:{seat}:spaces")
        for b in p.city:
            if b not in rs.buildings or p.bw[b] > A.CATALOG[b].circles:
                out.append(f"player:{seat}:building")
    for seat, name, arg in s.offers:
        if name not in A.OFFERS or not isinstance(seat, int) or not 0 <= seat < n:
            out.append("offers")
        del arg
    return out


PUERTO_RICO = PuertoRico()
register(PUERTO_RICO)
