"""The project's documents stand alone: the rules it implements are its own files under
``docs/rules/``, no file points outside the repository for them, every relative link of the
README and of ``docs/`` reaches a file, and the README stays a first page (issue #34)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SPECS = ("puerto-rico.md", "puerto-rico-1897.md", "san-juan.md")
# The specs' old home outside the repository, as a path in text or built in code ("shared" /
# "rules"); written in parts so that this file does not name it.
OUTSIDE = re.compile(
    "|".join((r"\.\./" + "shared", "shared" + r"\W{1,5}(?:rules|seeds)\b", "/" + "work/"))
)
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "build",
    "dist",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".json", ".sql", ".txt", ".example", ".cfg", ".ini", ""}
LINK = re.compile(r"\]\(([^)\s]+)\)")
README_LIMIT = 12 * 1024


def _project_text_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED_DIRS or p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and not path.is_relative_to(RULES):
            found.append(path)
    return found


@pytest.mark.parametrize("name", SPECS)
def test_the_rules_specs_are_the_projects_own(name: str) -> None:
    """Each game's rules specification is a file of the project, a whole document."""
    text = (RULES / name).read_text(encoding="utf-8")
    assert text.startswith("# "), name
    assert len(text) > 50_000, f"{name} looks cut: {len(text)} characters"


def test_no_file_refers_outside_the_project() -> None:
    """No source, test, page or setting names the specs' old home outside the repository."""
    files = _project_text_files()
    assert any(p.name == "README.md" for p in files)
    offenders = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_every_relative_link_reaches_a_file(page: Path) -> None:
    """A page moved or renamed leaves no link pointing at nothing (anchors are not checked)."""
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (page.parent / target.split("#", 1)[0]).exists():
            broken.append(target)
    assert not broken, f"{page.name}: {broken}"


def test_the_readme_is_a_first_page() -> None:
    """At most 12 KB: what Governor is, how to set it up, play, test it; the rest in docs/."""
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move details to docs/"


def test_the_readme_says_why_each_dependency_is_there() -> None:
    """Every package pyproject.toml installs (the dev extras too) is named in the README's
    "Dependencies and why", so that nobody has to guess why it was added."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    names = {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0] for spec in wanted}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Dependencies and why", 1)[1].split("\n#", 1)[0]
    missing = sorted(name for name in names if f"`{name}`" not in section)
    assert not missing, f"README's 'Dependencies and why' does not name {missing}"
