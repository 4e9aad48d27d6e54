"""Puerto Rico 1897 behind the generic engine contract: the Puerto Rico kernel with the 1897
edition (``data.EDITION``), its options and its names (``names``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import (
    EngineError,
    Event,
    InvalidAction,
    InvalidSetup,
    Outcome,
    Prompt,
    register,
)
from ..policies import HEURISTICS
from ..puerto_rico import actions as A
from ..puerto_rico.data import register_edition
from ..puerto_rico.game import PuertoRico
from ..puerto_rico.heuristic import make_heuristic
from ..puerto_rico.state import State
from . import names
from .data import AVAILABLE_EXPANSIONS, EDITION, EXPANSION_MODULES, EXPANSION_NUMBERS, GAME
from .view import PuertoRico1897View

register_edition(EDITION)


class PuertoRico1897(PuertoRico):
    """Puerto Rico 1897, 2–5 players (rules spec §2–§6, §9.1, §9.3)."""

    name = GAME

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        kernel = super().normalize_options(_kernel_options(options))
        return _options_1897(kernel)

    def option_sets(self) -> list[dict[str, Any]]:
        """2–5 players as the book recommends, and each alternative reading or rule once."""
        sets: list[dict[str, Any]] = [{"players": n} for n in (2, 3, 4, 5)]
        sets.append({"players": 3, "end_timing": "round", "production": "automatic"})
        sets.append({"players": 4, "cost_swap": True, "alternative_start": True})
        sets.append({"players": 4, "recruiter_placement": "sequential"})
        sets.append({"players": 5, "hacienda_empty_bag": "none"})
        # Expansion IV, the Festival: with 2 players there is no building goal
        sets.extend({"players": n, "expansions": [4]} for n in (2, 4))
        # Expansion III, the Smuggler, alone and with the Festival; the Lure's alternative
        sets.append({"players": 3, "expansions": [3]})
        sets.append({"players": 5, "expansions": [3, 4], "lure_surplus": "supply"})
        # Expansion II, the Citizens, alone, with the Smuggler's Lure, and its alternatives
        sets.append({"players": 3, "expansions": [2]})
        sets.append({"players": 4, "expansions": [2, 3, 4]})
        sets.append({"players": 2, "expansions": [2, 6], "all_workers": True, "tailor_cap": True,
                     "achievement_deal": "draft", "achievement_scoring": "announced"})
        # Expansion V, the Festival Activities (on the Festival board): with 2 players every
        # building slot only names its type
        sets.extend({"players": n, "expansions": [4, 5]} for n in (2, 4))
        # Expansion VI, the Achievements, alone (dealt, X6-1); drafted (X6-2) with 2 players
        # and the alternative scoring above, and with 5 players after Expansion I's draft below
        sets.append({"players": 3, "expansions": [6]})
        # Expansion I, the New Buildings: the draft, the quick random selection, the pairs, and
        # all six (the set the checked-path test plays last; its cards drafted after the
        # buildings)
        sets.append({"players": 3, "expansions": [1]})
        sets.append({"players": 4, "expansions": [1, 2], "building_selection": "random",
                     "pair_hacienda_lumber_mill": True, "pair_country_house_tailor": True})
        # §8, the Puertoma: the solo game (PTM-MODE-1), 1 + 1 (A-12: the 2-player rules) at the
        # Easy difficulty with the Festival and its Activities, and 3 people + 1 at the Hard one
        # (§8.14) with every expansion (§8.13)
        sets.append({"players": 3, "puertomas": 2})
        sets.append({"players": 2, "puertomas": 1, "puertoma_difficulty": "easy",
                     "expansions": [4, 5]})
        sets.append({"players": 4, "puertomas": 1, "puertoma_difficulty": "hard",
                     "expansions": [1, 2, 3, 4, 5, 6]})
        sets.append({"players": 5, "expansions": [1, 2, 3, 4, 5, 6], "achievement_deal": "draft"})
        return sets

    def bench_variants(self) -> dict[str, dict[str, Any]]:
        """For ``bench.engine`` (issue #12's figures): every expansion; the Puertomas (one of
        the seats, at 2, 4 and 5; the solo game, two of 3 seats), alone and with every
        expansion."""
        every = {"expansions": [1, 2, 3, 4, 5, 6]}
        return {
            "all-expansions": every,
            "puertoma": {"puertomas": 1},
            "solo": {"puertomas": 2},
            "puertoma-all-expansions": {"puertomas": 1, **every},
            "solo-all-expansions": {"puertomas": 2, **every},
        }

    def bench_reference(self) -> dict[str, str]:
        """Issue #12: 1897's rates against classic Puerto Rico's at the same seat count (with
        every expansion, against the classic game's every module)."""
        classic, modules = "puerto-rico", "puerto-rico:all-modules"
        return {"": classic, "all-expansions": modules, "puertoma": classic, "solo": classic,
                "puertoma-all-expansions": modules, "solo-all-expansions": modules}

    def setup(self, options: Mapping[str, Any], seed: int) -> State:
        return super().setup(_kernel_options(options), seed)

    def prompt(self, state: State) -> Prompt | None:
        return names.prompt(super().prompt(state))

    def apply(self, state: State, seat: int, action: object) -> tuple[State, list[Event]]:
        # ``object``: a code or any other value is decoded below (compiled by mypyc,
        # ``engine.native``, an ``A.Action`` annotation would refuse them at the call)
        if not isinstance(action, A.Action):
            action = self.decode_action(action if isinstance(action, str) else repr(action))
        try:
            new, events = super().apply(state, seat, action)
        except EngineError as exc:  # its details in 1897's words (codes, buildings, goods)
            details = {
                k: names.code(v) if k == "action" and isinstance(v, str) else names.data(v, k)
                for k, v in exc.details.items()
            }
            raise type(exc)(exc.code, **details) from None
        return new, [names.event(e) for e in events]

    # the kernel's view in 1897's words (``names``): another shape than the kernel's type
    def view(self, state: State, viewer: int | None  # type: ignore[override]
             ) -> PuertoRico1897View:
        out: PuertoRico1897View = names.data(super().view(state, viewer))
        out["options"] = _options_1897(state.options)
        return out

    def outcome(self, state: State) -> Outcome | None:
        return names.outcome(super().outcome(state))

    def standing(self, state: State) -> Outcome:
        standing = names.outcome(super().standing(state))
        assert standing is not None
        return standing

    def encode_action(self, action: A.Action) -> str:
        return names.code(action.code)

    def decode_action(self, code: str) -> A.Action:
        """The action an 1897 code names; a classic code (``s.indigo``) names none here."""
        if not isinstance(code, str):
            raise InvalidAction(action=repr(code))
        try:
            action = A.decode(names.classic_code(code))
        except InvalidAction:
            raise InvalidAction(action=code) from None
        if names.code(action.code) != code:
            raise InvalidAction(action=code)
        return action


def _kernel_options(options: Mapping[str, Any]) -> Any:
    """1897's options in the kernel's words: ``expansions`` (numbers, §7) as the kernel's
    ``modules``; a classic name (``mayor_placement``, ``modules``) is no 1897 option."""
    if not isinstance(options, Mapping):
        return options  # the kernel refuses it
    for key in options:
        if key in names.RENAMED or key == "modules":
            raise InvalidSetup("unknown_option", option=str(key))
    out = dict(names.data(options, reverse=True))
    expansions = out.pop("expansions", [])
    if not isinstance(expansions, list | tuple) or any(
        type(e) is not int or not 1 <= e <= 6 for e in expansions
    ):
        raise InvalidSetup("bad_expansions", option="expansions")
    if len(set(expansions)) != len(expansions):
        raise InvalidSetup("duplicate_expansion", option="expansions")
    if 5 in expansions and 4 not in expansions:  # X5: played on the Festival board
        raise InvalidSetup("expansion_needs_festival", option="expansions", value=5)
    for e in sorted(expansions):
        if e not in AVAILABLE_EXPANSIONS:
            raise InvalidSetup("expansion_not_available", option="expansions", value=e)
    out["modules"] = [EXPANSION_MODULES[e] for e in sorted(expansions)]
    if out.get("exclusive_villa_jeweler") and not {1, 2} <= set(expansions):
        # §9.3: a pair of the draft of Expansions I and II
        raise InvalidSetup("pair_without_draft", option="pair_country_house_tailor")
    return out


def _options_1897(kernel: Mapping[str, Any]) -> dict[str, Any]:
    """Normalized kernel options in 1897's words, ``modules`` as ``expansions``."""
    out: dict[str, Any] = {}
    for key, value in kernel.items():
        if key == "modules":
            out["expansions"] = sorted(EXPANSION_NUMBERS[m] for m in value)
        else:
            out[names.word(key)] = names.data(value, key)
    return out


PUERTO_RICO_1897 = PuertoRico1897()
register(PUERTO_RICO_1897)
HEURISTICS[GAME] = make_heuristic  # the kernel's: it reads the kernel's state and actions
