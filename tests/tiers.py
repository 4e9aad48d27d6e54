"""The fast tier's share of a long parametrized walk (docs/testing.md, "Running the tests").

A walk over every option set of every game (random playouts, every image, every view) runs
whole in the full suite; the fast tier (``-m "not e2e and not slow"``) keeps, of each game, its
first option set (the base game) and its last (every module or expansion at once): the cases
most likely to break, at a tenth of the cost.  The others are marked ``slow``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet


def _group(param: ParameterSet) -> object:
    return param.values[0]


def first_and_last(
    params: Iterable[ParameterSet | Sequence[Any]],
    group: Callable[[ParameterSet], object] = _group,
) -> list[ParameterSet]:
    """``params`` with every case but the first and the last of its group (by default its
    first value: the game's name) marked ``slow``; plain tuples become ``pytest.param``."""
    cases = [p if isinstance(p, ParameterSet) else pytest.param(*p) for p in params]
    ends: dict[object, tuple[int, int]] = {}
    for i, case in enumerate(cases):
        key = group(case)
        ends[key] = (ends.get(key, (i, i))[0], i)
    return [
        case if i in ends[group(case)] else pytest.param(
            *case.values, marks=[*case.marks, pytest.mark.slow], id=case.id)
        for i, case in enumerate(cases)
    ]
