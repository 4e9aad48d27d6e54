"""``bench.engine``: the configurations at a player count take turns chunk by chunk, and what
it reports is what one ``simulate`` call over the same games reports."""

from __future__ import annotations

import argparse

from bench import engine as bench
from engine.simulate import simulate


def _args(**given: object) -> argparse.Namespace:
    values: dict[str, object] = {"game": ["puerto-rico", "puerto-rico-1897"], "games": 3,
                                 "seed": 5, "repeat": 1, "checked": False, "chunk": 2,
                                 "build": "current", "json": True}
    values.update(given)
    return argparse.Namespace(**values)


def test_chunks_report_the_games_of_one_simulate_call() -> None:
    figures = bench.measure(_args())
    row = figures["puerto-rico-1897:all-expansions"]["4"]
    whole = simulate("puerto-rico-1897", 4, 3, 5, ["random"], False,
                     bench.variants("puerto-rico-1897")["all-expansions"])
    assert row["digest"] == whole["digest"]
    assert row["games"] == 3 and row["actions"] == whole["actions"]
    assert row["games_per_s"] > 0 and row["runs"] == 1


def test_every_configuration_is_paired_with_its_base_and_reference() -> None:
    figures = bench.measure(_args(games=1, chunk=1))
    assert set(figures["puerto-rico:all-modules"]) == {"2", "3", "4", "5"}
    for count, row in figures["puerto-rico-1897:all-expansions"].items():
        assert {"ratio_to_base", "ratio_to_reference"} <= set(row), count
    assert "ratio_to_reference" in figures["puerto-rico-1897"]["2"]
    # the solo game sits at 3 seats only (two Puertomas and a person)
    assert set(figures["puerto-rico-1897:solo"]) == {"3"}


def test_a_chunk_larger_than_the_run_plays_every_game_once() -> None:
    one = bench.measure(_args(game=["puerto-rico"], games=2, chunk=50))
    two = bench.measure(_args(game=["puerto-rico"], games=2, chunk=1))
    for key, rows in one.items():
        for count, row in rows.items():
            assert row["digest"] == two[key][count]["digest"], (key, count)
            assert row["actions"] == two[key][count]["actions"]
