"""The bot's modules form layers (issue #34): their imports make no circle, none is hidden in a
function or behind ``TYPE_CHECKING`` to dodge one, and the contract a game implements
(``bot/games/contract.py``) stands on the words and values below it, never on the generic
implementation above it.

Every ``import`` of a module of ``bot/`` counts, wherever it is written (at the top, inside a
function, under ``if TYPE_CHECKING:``).  A game's package is loaded by name from the catalog
(``importlib``), which is not an import: the games sit above the generic code they use.
``pytest -s`` prints the floors (a module's floor is one more than the highest it imports)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CONTRACT = "bot.games.contract"
CONTRACT_BASE = {"bot.i18n", "bot.limits", "bot.seatnames", "bot.words", "bot.gamelog"}
"""What the contract may stand on: the words every game shares (catalogs, words of codes, the
log's lines, seat names).  Anything else of ``bot/`` is the generic implementation above it."""

Graph = dict[str, dict[str, str]]
"""module -> {imported module of bot/: "top" | "function" | "type"}."""


def module_names(root: Path, package: str = "bot") -> dict[str, tuple[Path, str]]:
    """Every module of ``package`` under ``root``: dotted name -> (its file, the package its
    relative imports start from)."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
            found[".".join(parts)] = (path, ".".join(parts))
        else:
            found[".".join(parts)] = (path, ".".join(parts[:-1]))
    return found


def where(parents: Iterable[ast.AST]) -> str:
    """How an import under ``parents`` runs: in a function, only for the type checker, or at
    import time."""
    kind = "top"
    for node in parents:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return "function"
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            kind = "type"
    return kind


def import_graph(root: Path, package: str = "bot") -> Graph:
    """Which modules of ``package`` each of its modules imports, and how (the first way met
    wins in the order top, type, function)."""
    modules = module_names(root, package)
    rank = {"top": 0, "type": 1, "function": 2}
    graph: Graph = {name: {} for name in modules}

    def resolve(target: str) -> str | None:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    for name, (path, home) in modules.items():
        def visit(node: ast.AST, parents: list[ast.AST], name: str = name,
                  home: str = home) -> None:
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = home.split(".")[: len(home.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                found, how = resolve(target), where(parents)
                if found is None or found == name:
                    continue
                known = graph[name].get(found)
                if known is None or rank[how] < rank[known]:
                    graph[name][found] = how
            for child in ast.iter_child_nodes(node):
                visit(child, [*parents, node])

        visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), [])
    return graph


def circles(graph: Mapping[str, Mapping[str, str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's strongly
    connected components of more than one module, or one importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1 or node in graph.get(node, {}):
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def floors(graph: Mapping[str, Mapping[str, str]]) -> dict[str, int]:
    """Each module's floor in a graph without circles: 0 for one that imports no module of
    the package, else one more than the highest it imports."""
    found: dict[str, int] = {}

    def floor(node: str) -> int:
        if node not in found:
            found[node] = 1 + max((floor(other) for other in graph.get(node, {})), default=-1)
        return found[node]

    for node in graph:
        floor(node)
    return found


def below(graph: Mapping[str, Mapping[str, str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph.get(todo.pop(), {}):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def test_the_bot_imports_make_no_circle() -> None:
    """The modules of ``bot/`` and their imports (every kind) form layers: no circle, so each
    module has a floor.  The floors are printed (``pytest -s``)."""
    graph = import_graph(ROOT)
    assert len(graph) > 60 and "bot.service" in graph["bot.client"]
    assert circles(graph) == []
    by_floor: dict[int, list[str]] = {}
    for module, level in floors(graph).items():
        by_floor.setdefault(level, []).append(module)
    print(f"\n{len(by_floor)} floors of bot/:")
    for level in sorted(by_floor):
        print(f"  {level:2}: {' '.join(sorted(by_floor[level]))}")


def test_no_bot_import_hides_in_a_function_or_behind_type_checking() -> None:
    """A circle held apart by an import inside a function or under ``TYPE_CHECKING`` is a
    circle still: every import of a module of ``bot/`` by another is at the top."""
    graph = import_graph(ROOT)
    hidden = sorted(f"{module} -> {other} ({how})" for module, imports in graph.items()
                    for other, how in imports.items() if how != "top")
    assert hidden == []


def test_the_contract_stands_on_the_words_only() -> None:
    """``bot/games/contract.py`` (what a game implements) imports, directly or not, nothing of
    ``bot/`` but the shared words (:data:`CONTRACT_BASE`): not the catalog of games, the
    service, the panels or the Discord flows above it."""
    graph = import_graph(ROOT)
    assert below(graph, CONTRACT) - CONTRACT_BASE == set()
    assert all(below(graph, base) <= CONTRACT_BASE for base in CONTRACT_BASE)


def test_the_checker_sees_hidden_circles(tmp_path: Path) -> None:
    """Negative control: a circle through a function's import, one through ``TYPE_CHECKING``
    and a contract that imports the service are all found; relative imports resolve."""
    bot = tmp_path / "bot"
    (bot / "games").mkdir(parents=True)
    for name in ("__init__.py", "games/__init__.py"):
        (bot / name).write_text("")
    (bot / "service.py").write_text("from .games.contract import GamePresenter\n")
    (bot / "games" / "contract.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..panels import PanelView\n"
        "def words() -> None:\n    from .. import service\n")
    (bot / "panels.py").write_text("import bot.games.contract\n")
    graph = import_graph(tmp_path)
    assert graph["bot.games.contract"] == {"bot.panels": "type", "bot.service": "function"}
    assert graph["bot.panels"] == {"bot.games.contract": "top"}
    assert circles(graph) == [["bot.games.contract", "bot.panels", "bot.service"]]
    assert below(graph, CONTRACT) - CONTRACT_BASE == {
        "bot.games.contract", "bot.panels", "bot.service"}
