"""``bench.instructions``: the callgrind summary read, the warm-up subtracted, the ratios paired
as ``bench.engine`` pairs them (valgrind itself is replaced by a counter of the test's own)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.instructions import collected, measure, play
from engine.simulate import simulate


def test_collected_reads_the_summary_and_refuses_anything_else() -> None:
    summary = "==12== Events    : Ir\n==12== Collected : 123456789\n==12== I refs: 123,456,789\n"
    assert collected(summary) == 123_456_789
    with pytest.raises(RuntimeError, match="no callgrind summary"):
        collected("valgrind: command not found")


def test_the_child_plays_the_warm_up_then_the_measured_games() -> None:
    assert play("san-juan", 2, 0, 0, {}) == 0  # the warm-up only
    assert play("san-juan", 3, 2, 7, {}) == simulate("san-juan", 3, 2, 7, ["random"])["actions"]


def test_figures_subtract_the_warm_up_and_pair_base_and_reference() -> None:
    """Per game: (with games - warm-up only) / games; ``ratio_to_base`` and
    ``ratio_to_reference`` compare instructions a game, the other's over this one's."""
    calls: list[tuple[str, int, int, dict[str, Any]]] = []
    per_game = {"puerto-rico": 20e6, "puerto-rico:all-modules": 30e6, "puerto-rico-1897": 25e6,
                "puerto-rico-1897:all-expansions": 40e6}

    def counter(game: str, players: int, games: int, seed: int,
                options: dict[str, Any]) -> tuple[int, int]:
        calls.append((game, players, games, options))
        key = game if not options else {"puerto-rico": "puerto-rico:all-modules",
                                        "puerto-rico-1897": "puerto-rico-1897:all-expansions"}[game]
        start_up = 300e6 + players  # counted in both runs: it cancels out
        return int(start_up + games * per_game[key]), games * 100

    figures = measure(["puerto-rico", "puerto-rico-1897"], ["", "all-modules", "all-expansions"],
                      [2, 5], 10, 0, 2, counter)
    assert sorted(figures) == ["puerto-rico", "puerto-rico-1897",
                               "puerto-rico-1897:all-expansions", "puerto-rico:all-modules"]
    assert len(calls) == 2 * 4 * 2  # two runs for each key and count
    modules = figures["puerto-rico:all-modules"]["5"]
    assert modules["minstr_per_game"] == 30.0 and modules["actions"] == 1000
    assert modules["ratio_to_base"] == round(20 / 30, 3)
    expansions = figures["puerto-rico-1897:all-expansions"]["2"]
    assert expansions["ratio_to_reference"] == 0.75  # classic's every module, 30 over 40
    assert "ratio_to_base" in expansions and "ratio_to_reference" not in modules
