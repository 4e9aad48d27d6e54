"""``docs/rule-thresholds.md`` names only tests that exist, and names every test written for it.

The page is the inventory of issue #33's "Tests that name their rules" for classic Puerto Rico
and San Juan: every threshold and expansion constant of the two specs, with the test that checks
each side.  A renamed or deleted test would leave the page pointing at nothing; a new threshold
test left off the page would be a rule nobody can find.  Both fail here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rule-thresholds.md"
TESTS = ROOT / "tests" / "engine"
REFERENCE = re.compile(
    r"`((?:(?:puerto_rico|san_juan)/)?test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)`")
# the files written for the inventory: each of their tests must be on the page
OWN = (
    "puerto_rico/test_thresholds.py",
    "puerto_rico/test_expansion_constants.py",
    "puerto_rico/test_reshuffle.py",
    "san_juan/test_thresholds.py",
    "san_juan/test_reshuffle.py",
)


def _tests_of(relative: str) -> set[str]:
    tree = ast.parse((TESTS / relative).read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
    }


def test_every_test_the_page_names_exists() -> None:
    """Each ``file::test`` of the page is a test function of that file under tests/engine."""
    refs = REFERENCE.findall(DOC.read_text(encoding="utf-8"))
    assert len(refs) > 100
    missing = [
        f"{path}::{name}"
        for path, name in refs
        if not (TESTS / path).is_file() or name not in _tests_of(path)
    ]
    assert missing == []


def test_every_inventory_test_is_on_the_page() -> None:
    """Every test of the inventory's own files is named on the page."""
    named = set(REFERENCE.findall(DOC.read_text(encoding="utf-8")))
    absent = [
        f"{path}::{name}"
        for path in OWN
        for name in sorted(_tests_of(path))
        if (path, name) not in named
    ]
    assert absent == []
