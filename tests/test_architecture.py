"""The dependency rule of ARCHITECTURE.md: engine -> nothing; storage -> engine; render -> engine;
bot -> everything.  Imports are read from the source (every ``import`` anywhere in a module,
including inside functions), so a lazy import cannot sneak past."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engine": {
        "discord",
        "aiosqlite",
        "sqlite3",
        "PIL",
        "asyncio",
        "aiohttp",
        "bot",
        "storage",
        "render",
    },
    "storage": {"discord", "PIL", "render", "bot", "aiohttp"},
    "render": {"discord", "aiosqlite", "sqlite3", "storage", "bot", "asyncio", "aiohttp"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            roots.add(str(node.args[0].value).split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_respects_the_dependency_rule(package: str) -> None:
    """Nothing under ``package`` imports what the layer rule forbids."""
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_roots(path) & FORBIDDEN[package]
        if bad:
            offenders.append(f"{path.relative_to(ROOT)}: {sorted(bad)}")
    assert offenders == []


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The rule test itself catches a function-level import."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    import discord\n    from PIL import Image\n")
    assert imported_roots(module) == {"discord", "PIL"}
