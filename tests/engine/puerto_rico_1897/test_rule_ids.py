"""Issue #12: the table of 1897's rule ids and their tests (docs/puerto-rico-1897-rules.md) is
current, and it sees what a test names (a negative control for its id reading)."""

from __future__ import annotations

from tests.engine.puerto_rico_1897 import rule_ids


def test_the_rule_table_is_current() -> None:
    """Regenerate it with ``python -m tests.engine.puerto_rico_1897.rule_ids``."""
    assert rule_ids.DOC.read_text(encoding="utf-8") == rule_ids.table()


def test_ids_are_read_from_names_docstrings_and_ranges() -> None:
    ids = set(rule_ids.spec_ids())
    assert {"PLN-3", "T-CAP-2b", "END-T3", "B-11", "A-28", "PTM-BLD-6", "T-PTM-SCR"} <= ids
    assert not any(i.startswith("PS-") for i in ids)  # sources, not rules
    # a test's name reaches ``_expand`` with its ids' underscores made hyphens
    assert rule_ids._expand("T-BLD-1..3 and T-BLD-5_to_6") == (
        "T-BLD-1 T-BLD-2 T-BLD-3 and T-BLD-5 T-BLD-6"
    )
    tested = rule_ids.tested_ids()
    assert "T-CAP-1" in tested and "D-13" in tested
    assert "X6-2" in tested and "A-31" in tested  # Expansion VI (test_achievements.py)
    assert {"PTM-BLD-6", "T-PTM-1", "A-45", "D-19"} <= set(tested)  # the Puertoma's (§8)
    assert rule_ids.why_untested("A-34").startswith("the Standard edition")
    assert rule_ids.why_untested("B-30") == "no test names it yet"
