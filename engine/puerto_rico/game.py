"""Puerto Rico behind the generic engine contract (``engine.core.Game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import CorruptState, Event, GainEvent, Outcome, Prompt, register
from ..rng import seed_state
from . import actions as A
from . import buccaneer as _buccaneer  # noqa: F401  (registers the Exp. 3 role)
from . import legality, phases, scoring
from . import new_buildings as _new_buildings  # noqa: F401  (registers Exp. 1's draft, buildings)
from . import nobles as _nobles  # noqa: F401  (registers Exp. 2's pieces and buildings)
from .extensions import RESAMPLERS, REVEALERS
from .invariants import invariant_failures
from .ruleset import AVAILABLE_MODULES, MODULES, normalize_options, state_ruleset
from .save import dump_state, load_state
from .state import State
from .view import PuertoRicoView
from .view import view as _view

# Exp. 3 module sets played by the engine's own tests (see ``option_sets``)
BUCCANEER_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "modules": ["buccaneer"]},
    {"players": 4, "modules": ["buccaneer"]},
    {"players": 5, "modules": ["buccaneer", "festival"]},
    {"players": 3, "modules": ["buccaneer", "festival"], "edition": "2020"},
]
# Exp. 1 module sets (the bot words its codes, prompt kinds and events, so the bot's and the
# images' generic tests walk them too): the draft, the random selection, the 2004 rule, and
# all three modules together
NEW_BUILDINGS_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "modules": ["new_buildings"]},
    {"players": 3, "modules": ["new_buildings"], "building_selection": "random"},
    {"players": 4, "modules": ["new_buildings"], "exclusive_forest_house": True},
    {"players": 5, "modules": ["new_buildings", "buccaneer", "festival"]},
]
# Exp. 2 module sets (the bot words them too): the Nobles alone, with the Festival in the 2020
# edition, and all four modules together (the last set: the checked-path test plays it)
NOBLES_OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "modules": ["nobles"]},
    {"players": 3, "modules": ["nobles", "festival"], "edition": "2020"},
    {"players": 4, "modules": ["new_buildings", "nobles", "buccaneer", "festival"]},
]


GAIN_EVENTS: Mapping[str, GainEvent] = {
    "VpEarned": GainEvent("amount", None, 1),
    "BlackMarketUsed": GainEvent("vp", "black_market", -1),
}
"""The VP chips a seat takes during play, by the event's ``reason`` (shipping, the Harbor...),
and gives back: one paid at the Black market (Exp. 1)."""


class PuertoRico:
    """The classic game, 2–5 players (rules spec §2–§9)."""

    name = "puerto-rico"
    legacy_options: Mapping[str, Any] = {}
    gain_events: Mapping[str, GainEvent] = GAIN_EVENTS

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return normalize_options(options, self.name)

    def option_sets(self) -> list[dict[str, Any]]:
        """The option dicts the generic tests play: 2–5 players classic, and the 2020 edition
        and the sequential Mayor at 3 and 4 players."""
        sets: list[dict[str, Any]] = [{"players": n} for n in (2, 3, 4, 5)]
        sets.append({"players": 3, "edition": "2020"})
        sets.append({"players": 4, "mayor_placement": "sequential"})
        # issue #11: every module set built so far (the last set is also the one the
        # checked-path test plays)
        sets.extend({"players": n, "modules": ["festival"]} for n in (2, 4))
        sets.append({"players": 3, "modules": ["festival"], "edition": "2020"})
        # The Buccaneer's sets (the bot words its codes and prompt kinds, so the bot's and the
        # images' generic tests walk them too)
        sets.extend(dict(options) for options in BUCCANEER_OPTION_SETS)
        sets.extend(dict(options) for options in NEW_BUILDINGS_OPTION_SETS)
        sets.extend(dict(options) for options in NOBLES_OPTION_SETS)
        return sets

    def bench_variants(self) -> dict[str, dict[str, Any]]:
        """For ``bench.engine``: every expansion built so far, together (issue #11's figure)."""
        return {"all-modules": {"modules": [m for m in MODULES if m in AVAILABLE_MODULES]}}

    def determinize(self, state: State, seat: int | None, seed: int) -> State:
        """A copy of ``state`` with everything hidden from ``seat`` resampled.  The only hidden
        part that a player cannot reconstruct from what he has seen is the future of the random
        draws (which plantations come up, in what order): the seeded generator, reseeded here.
        The other players' VP chips are hidden in the views (face down, [C]) but every chip is
        taken in public (``VpEarned`` amounts are public, issue #9), so their totals follow from
        the game's public history and stay as they are.  What an edition's package hides
        besides is dealt again by its ``extensions.RESAMPLERS`` (1897: the Achievement cards
        hidden from ``seat``, the Puertomas' tie-breaker cards and face-down skills)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.n):
            raise ValueError(f"no seat {seat!r}")
        s = state.clone()
        s.rng = seed_state(seed)
        for resample in RESAMPLERS:
            resample(s, seat)
        return s

    def setup(self, options: Mapping[str, Any], seed: int) -> State:
        return phases.setup(options, seed, self.name)

    def players(self, state: State) -> int:
        return state.n

    def prompt(self, state: State) -> Prompt | None:
        return legality.current_prompt(state)

    def legal_actions(self, state: State, seat: int) -> list[A.Action]:
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            return []
        return list(legality.legal(state, seat))

    # Simulation path: the engine's own list of legal actions (do not mutate it).  (The three
    # fast-path entries are the engine's functions themselves: no wrapper call on the hottest
    # path, as in San Juan.)
    legal_fast = staticmethod(legality.legal_fast)

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

    def reveals(self, before: State, after: State) -> bool:
        """Whether going from ``before`` to ``after`` revealed anything hidden or random (a
        Hacienda draw, the plantations turned face up at the end of the Settler phase): such an
        action can never be taken back.  Every draw goes through the seeded generator, so its
        state changing is exactly that; an edition's package says what else reveals something
        (``extensions.REVEALERS``; 1897: an Achievement announced, a draft hand passed on, the
        end; a Puertoma's tie-breaker card drawn or skill turned up)."""
        return before.rng != after.rng or any(shows(before, after) for shows in REVEALERS)

    # Simulation path: the first prompted seat, -1 when the game is over.
    actor = staticmethod(legality.actor)

    def invariants(self, state: State) -> list[str]:
        """Every broken invariant of ``state`` (empty for every reachable state)."""
        return invariant_failures(state)

    def view(self, state: State, viewer: int | None) -> PuertoRicoView:
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
            options = normalize_options(state.options, self.name)
        except Exception as exc:
            raise CorruptState("bad_options") from exc
        state.options = options
        state.rs = state_ruleset(options, state.draft_left, state.drafted)
        if not check:
            return state
        try:
            problems = self.invariants(state)
        except (IndexError, KeyError, TypeError, ValueError):
            problems = ["malformed"]
        if problems:
            raise CorruptState("inconsistent_state", problems=problems[:5])
        return state


PUERTO_RICO = PuertoRico()
register(PUERTO_RICO)
