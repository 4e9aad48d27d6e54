"""``bench.reminders`` (issue #35): the reminder pass over waiting games, what each pass sends
(counts, never times): everything due in the first, nothing in the second."""

from __future__ import annotations

import json

import pytest

from bench import bot as bench_bot
from bench import reminders


def test_the_first_pass_sends_what_is_due_and_the_second_nothing() -> None:
    figures = reminders.run(60, rng_seed=3)
    first, steady = figures["first_pass"], figures["steady_pass"]
    assert figures["games"] == 60 and 0 < figures["waiting_people"] <= 60
    assert first["reminded_people"] > 0 and first["bank_warnings"] > 0
    assert first["stood_in"] > 0
    assert first["messages"] == (first["reminded_people"] + first["bank_warnings"]
                                 + first["digests"])
    assert {k: v for k, v in steady.items() if k != "cpu_s"} == {
        "reminded_people": 0, "bank_warnings": 0, "stood_in": 0, "digests": 0, "messages": 0}
    assert first["cpu_s"] >= 0 and steady["cpu_s"] >= 0


def test_bench_bot_runs_it_as_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_bot.main(["--scenario", "reminders", "--games", "20", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 20 and "steady_pass" in printed
