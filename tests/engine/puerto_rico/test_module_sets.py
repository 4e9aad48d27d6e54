"""Issue #11: random playouts of every set of Puerto Rico's modules built so far (all 16 subsets
of the four expansions once every one is built) at 2-5 players, with the random and the
heuristic policy, every action through the validating ``apply`` and the invariants checked after
each one (conservation of every component, forests, the Buccaneer token, the Festival pieces)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from engine.puerto_rico.ruleset import AVAILABLE_MODULES, MODULES
from engine.simulate import simulate
from tests.tiers import first_and_last

BUILT = [m for m in MODULES if m in AVAILABLE_MODULES]
MODULE_SETS: list[list[str]] = [
    list(c) for k in range(len(BUILT) + 1) for c in combinations(BUILT, k)]


def test_every_built_module_is_played() -> None:
    assert len(MODULE_SETS) == 2 ** len(BUILT)
    assert {"new_buildings", "buccaneer", "festival"} <= set(BUILT)


@pytest.mark.parametrize("modules", first_and_last(  # the fast tier: none, and all of them
    [pytest.param(m, id="+".join(m) or "base") for m in MODULE_SETS], group=lambda p: None))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_module_set_plays_to_the_end_with_every_invariant(modules: list[str], policy: str) -> None:
    """Two player counts a set, in turn (each count is played with 8 sets of the 16; the
    generic properties play each count with the option sets of ``option_sets``)."""
    first = 2 + MODULE_SETS.index(modules) % 2
    for players in (first, first + 2):
        options: dict[str, Any] = {"modules": modules}
        result = simulate(
            "puerto-rico", players, 1, 100 * players + len(modules), [policy], True, options
        )
        assert result["invariant_failures"] == 0, (players, result.get("failures"))
        assert result["games"] == 1 and sum(result["end_reasons"].values()) >= 1
