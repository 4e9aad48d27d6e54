"""The dependency rule of ARCHITECTURE.md: engine -> nothing; storage -> engine; render -> engine;
bot -> everything.  Imports are read from the source (every ``import`` anywhere in a module,
including inside functions), so a lazy import cannot sneak past."""

from __future__ import annotations

import ast
import json
import re
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


# --- the seams: generic modules name no game (issue #10) ------------------------------------

LAYERS = ("engine", "render", "bot", "storage", "bench")
"""Every layer whose generic modules the seams check (issue #34: the benchmarks too)."""
CATALOGS = ("engine/games.py", "render/games.py", "bot/games/__init__.py")
"""The only generic modules that may name the games: each layer's catalog."""


def catalogs() -> list[dict[str, str]]:
    """Each layer's catalog: a game's registered name -> its package in that layer."""
    from bot.games import PACKAGES as BOT
    from engine.games import PACKAGES as ENGINE
    from render.games import PACKAGES as RENDER

    return [ENGINE, RENDER, BOT]


def game_names() -> set[str]:
    """Every game a catalog names (and every game the engine has registered)."""
    from engine import game_names as registered

    return {name for catalog in catalogs() for name in catalog} | set(registered())


def game_packages() -> set[str]:
    """The dotted names of the game packages: every catalog's, and in each layer the package
    of the same name as another layer's (``bot.games.san_juan`` while only the engine and the
    renderer list San Juan: a game's package is named alike in every layer, ``bench/<game>/``
    too)."""
    listed = {package for catalog in catalogs() for package in catalog.values()}
    leaves = {package.rsplit(".", 1)[-1] for package in listed}
    homes = ("engine", "render", "bot.games", "bench")
    return listed | {f"{home}.{leaf}" for home in homes for leaf in leaves}


def module_name(path: Path, root: Path) -> tuple[str, str]:
    """``path``'s dotted module name and the package its relative imports start from."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def imported_modules(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """Every module an ``import`` names, with its line; relative imports resolved against
    ``package``, and ``from x import y`` counted as ``x`` and ``x.y`` (``y`` may be a module)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def value_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants used as values: docstrings (and any other bare string statement) are
    prose, not values, and are skipped."""
    prose = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
    ]


def names_of_games(path: Path, root: Path, names: set[str], packages: set[str]) -> list[str]:
    """Where the module at ``path`` imports a game's package or names a game ("puerto-rico",
    or a game package's dotted name given to ``importlib``), as ``file:line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    _, package = module_name(path, root)

    def is_game_package(module: str) -> bool:
        return any(module == p or module.startswith(f"{p}.") for p in packages)

    where = path.relative_to(root).as_posix()
    found = {f"{where}:{line}: imports {module}"
             for line, module in imported_modules(tree, package) if is_game_package(module)}
    found |= {f"{where}:{line}: names {text!r}"
              for line, text in value_strings(tree) if text in names or is_game_package(text)}
    return sorted(found, key=lambda s: (int(s.split(":")[1]), s))


def generic_modules(root: Path, packages: set[str]) -> list[Path]:
    """Every module of a layer that is neither in a game's package nor a catalog."""
    games = [root / Path(*p.split(".")) for p in packages]
    return [
        path
        for layer in LAYERS
        for path in sorted((root / layer).rglob("*.py"))
        if path.relative_to(root).as_posix() not in CATALOGS
        and not any(home == path.parent or home in path.parents for home in games)
    ]


def test_the_catalogs_know_the_game_packages() -> None:
    """Every game package the seams check exempts is a real folder, and each layer's catalog
    lists the engine's games (the bot lists those it presents)."""
    from bot.games import PACKAGES as BOT
    from engine.games import PACKAGES as ENGINE
    from render.games import PACKAGES as RENDER

    assert {"puerto-rico", "san-juan"} <= set(ENGINE)
    assert set(RENDER) <= set(ENGINE) and set(BOT) <= set(ENGINE)
    for catalog in (ENGINE, RENDER, BOT):
        for package in catalog.values():
            assert (ROOT / Path(*package.split(".")) / "__init__.py").is_file(), package


def test_generic_modules_name_no_game() -> None:
    """Issue #10, "the seams": the generic modules of every layer import no game's package and
    name no game; only the catalogs (engine/games.py, render/games.py, bot/games/__init__.py)
    say which games exist.  Docstrings and comments may take Puerto Rico as an example."""
    names, packages = game_names(), game_packages()
    modules = generic_modules(ROOT, packages)
    assert len(modules) > 50 and ROOT / "bot" / "service.py" in modules
    assert ROOT / "bench" / "render.py" in modules
    assert ROOT / "bench" / "puerto_rico" / "peer.py" not in modules
    assert not any("puerto_rico" in path.parts for path in modules)
    offenders = [hit for path in modules for hit in names_of_games(path, ROOT, names, packages)]
    assert offenders == []


def test_the_seams_checker_sees_a_game_named(tmp_path: Path) -> None:
    """Negative control: the checker flags an import of a game's package (absolute, relative,
    or a submodule), a game's name as a value and a package's name handed to importlib, and
    lets a docstring or a comment mention them."""
    names, packages = game_names(), game_packages()
    (tmp_path / "bot" / "games").mkdir(parents=True)
    clean = tmp_path / "bot" / "clean.py"
    clean.write_text('"""Plays "puerto-rico", say (engine.puerto_rico)."""\n'
                     "# import engine.puerto_rico\n"
                     "def f() -> str:\n"
                     '    """Default: "puerto-rico"."""\n'
                     '    return "puerto"\n')
    absolute = tmp_path / "bot" / "absolute.py"
    absolute.write_text("import engine.puerto_rico\n")
    named = tmp_path / "bot" / "named.py"
    named.write_text('def f(game: str = "puerto-rico") -> str:\n    return game\n')
    relative = tmp_path / "bot" / "games" / "relative.py"
    relative.write_text("from .puerto_rico import PRESENTER\nfrom . import san_juan\n"
                        "from ...render.san_juan.cards import KINDS\n")
    lazy = tmp_path / "bot" / "lazy.py"
    lazy.write_text('import importlib\nimportlib.import_module("engine.san_juan.data")\n'
                    "def g() -> None:\n    from engine.puerto_rico import data\n")

    def hits(path: Path) -> list[str]:
        return names_of_games(path, tmp_path, names, packages)

    assert hits(clean) == []
    assert hits(absolute) == ["bot/absolute.py:1: imports engine.puerto_rico"]
    assert hits(named) == ["bot/named.py:1: names 'puerto-rico'"]
    assert hits(relative) == [
        "bot/games/relative.py:1: imports bot.games.puerto_rico",
        "bot/games/relative.py:1: imports bot.games.puerto_rico.PRESENTER",
        "bot/games/relative.py:2: imports bot.games.san_juan",
        "bot/games/relative.py:3: imports render.san_juan.cards",
        "bot/games/relative.py:3: imports render.san_juan.cards.KINDS",
    ]
    assert hits(lazy) == ["bot/lazy.py:2: names 'engine.san_juan.data'",
                          "bot/lazy.py:4: imports engine.puerto_rico",
                          "bot/lazy.py:4: imports engine.puerto_rico.data"]
    (tmp_path / "bot" / "games" / "puerto_rico").mkdir()
    (tmp_path / "bot" / "games" / "puerto_rico" / "words.py").write_text('NAME = "puerto-rico"\n')
    (tmp_path / "bot" / "games" / "__init__.py").write_text('PACKAGES = {"puerto-rico": "x"}\n')
    assert [p.relative_to(tmp_path).as_posix() for p in generic_modules(tmp_path, packages)] == [
        "bot/absolute.py", "bot/clean.py", "bot/games/relative.py", "bot/lazy.py", "bot/named.py"]


# --- game knowledge in the generic bot (issue #34) --------------------------------------------

ID_KINDS = ("building", "role", "good", "card", "tile", "plantation", "achievement", "activity")
"""The kinds of a game's own things its catalog words by id (``building.harbor``,
``card.smithy``): a generic module that names one knows that game."""


def game_ids() -> set[str]:
    """The ids of every game's own things: the ``<kind>.<id>`` keys of each presented game's
    catalog folder (its words, not the generic ones), less any id the generic catalog words."""
    from bot.games import presenters

    def ids(files: list[Path]) -> set[str]:
        found = set()
        for file in files:
            for key in json.loads(file.read_text(encoding="utf-8")):
                kind, _, rest = str(key).partition(".")
                if kind in ID_KINDS and rest and "." not in rest:
                    found.add(rest)
        return found

    games = {Path(str(p.folder)) for p in presenters()}
    own = ids([f for folder in games for f in folder.glob("*.json")])
    return own - ids(list((ROOT / "bot" / "i18n").glob("*.json")))


def game_knowledge(path: Path, root: Path, names: set[str], ids: set[str]) -> list[str]:
    """Where the module at ``path`` names a game inside a longer string (``"... g.game =
    'puerto-rico'"``, ``"gs:san-juan"``) or one of a game's own things by its id, alone or as
    a part of a code or key (``"harbor"``, ``"b.harbor"``, ``"role.builder"``), as
    ``file:line: what``.  Docstrings and comments are prose and may."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    inside = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in sorted(names)))
    where = path.relative_to(root).as_posix()
    found = []
    for line, text in value_strings(tree):
        if text not in names and inside.search(text):
            found.append(f"{where}:{line}: names a game in {text[:60]!r}")
        elif set(re.split(r"[.:]", text)) & ids:
            found.append(f"{where}:{line}: names {text[:60]!r}")
    return found


def test_generic_modules_know_no_game() -> None:
    """Issue #34: besides importing and naming no game (above), the generic modules of every
    layer (engine, storage, render, bot, bench) hold no game's name inside a string (SQL, a
    custom_id, a key) and no id of a game's own things (a building, role, good, card, tile,
    Achievement or Activity): what a game calls its things, and which events, colours or
    player counts are its own, is said in its package and reached through the registries."""
    names, packages, ids = game_names(), game_packages(), game_ids()
    assert {"harbor", "builder", "smithy", "corn"} <= ids
    modules = generic_modules(ROOT, packages)
    layers = {m.parts[len(ROOT.parts)] for m in modules}
    assert layers == set(LAYERS) and ROOT / "bot" / "play_service.py" in modules
    for module in ("engine/story.py", "storage/migrate.py", "render/theme.py",
                   "render/widgets.py", "render/chart.py", "bench/render.py"):
        assert ROOT / module in modules, module
    offenders = [hit for path in modules for hit in game_knowledge(path, ROOT, names, ids)]
    assert offenders == []


def test_the_knowledge_checker_sees_a_game_named_inside(tmp_path: Path) -> None:
    """Negative control: a game's name inside SQL or a custom_id, and a building or role by
    its id (alone or in a code or key) are found; a docstring, another game's longer name and
    a word that is no game's id are not."""
    names, ids = game_names(), game_ids()
    module = tmp_path / "bot" / "m.py"
    module.parent.mkdir()
    module.write_text(
        '"""The Harbor of "puerto-rico": prose."""\n'
        "SQL = \"SELECT id FROM games WHERE game = 'puerto-rico'\"\n"
        'CUSTOM = "gs:san-juan:1"\n'
        'EDITION = "a puerto-rico-1897 table"\n'
        'CODE = "b.harbor"\n'
        'KEY = "role.builder"\n'
        'ALONE = "smithy"\n'
        'PLAIN = "table.phase"\n')
    assert game_knowledge(module, tmp_path, names, ids) == [
        "bot/m.py:2: names a game in \"SELECT id FROM games WHERE game = 'puerto-rico'\"",
        "bot/m.py:3: names a game in 'gs:san-juan:1'",
        "bot/m.py:4: names a game in 'a puerto-rico-1897 table'",
        "bot/m.py:5: names 'b.harbor'",
        "bot/m.py:6: names 'role.builder'",
        "bot/m.py:7: names 'smithy'",
    ]


# --- private names stay private (issue #34) ---------------------------------------------------

PROJECT = ("engine", "storage", "render", "bot", "bench")
"""The project's packages whose modules are checked (the tests' own helpers are not)."""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(path: Path, root: Path) -> list[str]:
    """Where the module at ``path`` imports another project module's underscore name (``from
    engine.rng import _GAMMA``, relative imports included) or reads one through a module it
    imported (``phases._end_phase``, ``engine.rng._GAMMA``), as ``file:line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    _, package = module_name(path, root)
    where = path.relative_to(root).as_posix()
    found: list[str] = []
    bound: dict[str, str] = {}  # a local name -> the project module (or member) it names

    def ours(module: str) -> bool:
        return module.split(".", maxsplit=1)[0] in PROJECT

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            if not ours(base):
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno}: from {base} import {alias.name}")
                bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if ours(alias.name):
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root_node = node.value
            while isinstance(root_node, ast.Attribute):
                root_node = root_node.value
            if isinstance(root_node, ast.Name) and root_node.id in bound:
                found.append(f"{where}:{node.lineno}: reads {ast.unparse(node)}")
    return sorted(found, key=lambda s: int(s.split(":")[1]))


def test_no_module_uses_another_modules_private_names() -> None:
    """Issue #34, "a public kernel, private details private": no module of engine/, storage/,
    render/, bot/ or bench/ imports or reads another project module's underscore name; what
    modules share is public, named and documented once where it is defined."""
    modules = [path for package in PROJECT for path in sorted((ROOT / package).rglob("*.py"))]
    assert len(modules) > 150
    offenders = [hit for path in modules for hit in private_uses(path, ROOT)]
    assert offenders == []


def test_the_private_names_checker_sees_them(tmp_path: Path) -> None:
    """Negative control: an imported underscore name (absolute or relative) and one read
    through an imported module are found; a module's own privates, a dunder, another
    library's underscore name (``os._exit``) and an object's private attribute are not."""
    (tmp_path / "engine" / "puerto_rico").mkdir(parents=True)
    module = tmp_path / "engine" / "puerto_rico" / "m.py"
    module.write_text(
        "import os\n"
        "import engine.rng\n"
        "from engine.rng import _GAMMA\n"
        "from .legality import _place, clockwise\n"
        "from . import phases\n"
        "def _own() -> None:\n"
        "    phases._end_phase(None, None)\n"
        "    engine.rng._GAMMA\n"
        "    phases.__name__\n"
        "    os._exit\n"
        "    clockwise._cache\n"
        "    self = object()\n"
        "    self._private\n"
        "_own()\n")
    assert private_uses(module, tmp_path) == [
        "engine/puerto_rico/m.py:3: from engine.rng import _GAMMA",
        "engine/puerto_rico/m.py:4: from engine.puerto_rico.legality import _place",
        "engine/puerto_rico/m.py:7: reads phases._end_phase",
        "engine/puerto_rico/m.py:8: reads engine.rng._GAMMA",
        "engine/puerto_rico/m.py:11: reads clockwise._cache",
    ]


def test_the_checkers_see_every_layer(tmp_path: Path) -> None:
    """Negative control for the layers beyond bot/: a game's goods and events in the engine's,
    the renderer's and the benchmarks' generic modules, a game's name in storage's SQL and in
    a benchmark's list are found; the same words in a game's own package (``render/<game>/``,
    ``bench/<game>/``) and in a catalog are not."""
    names, packages, ids = game_names(), game_packages(), game_ids()
    files = {
        "engine/story.py": 'GAINS = {"BlackMarketUsed": ("vp", "black_market", -1)}\n',
        "storage/migrate.py": "SQL = \"SELECT id FROM games WHERE game = 'puerto-rico'\"\n",
        "render/theme.py": 'GOODS = {"corn": (242, 200, 48)}\n',
        "bench/render.py": 'GAMES = {"san-juan": (2, 3, 4)}\n',
        "render/puerto_rico/pieces.py": 'GOODS = {"corn": (242, 200, 48)}\n',
        "bench/puerto_rico/peer.py": 'GAME = "puerto-rico"\nHELP = "a copy of x/puerto-rico"\n',
        "render/games.py": 'PACKAGES = {"puerto-rico": "render.puerto_rico"}\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = generic_modules(tmp_path, packages)
    assert [m.relative_to(tmp_path).as_posix() for m in modules] == [
        "engine/story.py", "render/theme.py", "storage/migrate.py", "bench/render.py"]
    found = [hit for path in modules for hit in (*names_of_games(path, tmp_path, names, packages),
                                                 *game_knowledge(path, tmp_path, names, ids))]
    assert found == [
        "engine/story.py:1: names 'black_market'",
        "render/theme.py:1: names 'corn'",
        "storage/migrate.py:1: names a game in \"SELECT id FROM games WHERE game = 'puerto-rico'\"",
        "bench/render.py:1: names 'san-juan'",
    ]


# --- an edition on its kernel (issue #34) -------------------------------------------------------

EDITIONS_OF_KERNELS = {"engine.puerto_rico": ("engine.puerto_rico_1897",)}
"""A game's kernel package -> the packages of the editions built on it: the dependency goes
from an edition to its kernel only."""


def imports_of_editions(root: Path, kernel: str, editions: tuple[str, ...]) -> list[str]:
    """Where a module of ``kernel`` imports one of ``editions`` (anywhere in the module, relative
    imports resolved), as ``file:line: imports what``."""
    found: list[str] = []
    for path in sorted((root / Path(*kernel.split("."))).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        _, package = module_name(path, root)
        where = path.relative_to(root).as_posix()
        found.extend(
            f"{where}:{line}: imports {module}"
            for line, module in imported_modules(tree, package)
            if any(module == e or module.startswith(f"{e}.") for e in editions)
        )
    return found


def test_the_kernel_imports_none_of_its_editions() -> None:
    """Issue #34: the Puerto Rico kernel (engine/puerto_rico/) keeps the hook points and the
    rules both editions share; 1897's own rules (its Puertoma, Festival Activities,
    Achievements) live in engine/puerto_rico_1897/, which fills the kernel's registries when
    it is imported.  Nothing in the kernel imports it."""
    for kernel, editions in EDITIONS_OF_KERNELS.items():
        assert (ROOT / Path(*kernel.split(".")) / "__init__.py").is_file()
        assert imports_of_editions(ROOT, kernel, editions) == []


def test_the_edition_checker_sees_an_import(tmp_path: Path) -> None:
    """Negative control: absolute, relative and in-function imports of an edition's package
    from its kernel are found; the edition importing its kernel is not."""
    kernel = tmp_path / "engine" / "puerto_rico"
    kernel.mkdir(parents=True)
    (tmp_path / "engine" / "puerto_rico_1897").mkdir()
    (kernel / "game.py").write_text(
        "from ..puerto_rico_1897 import puertoma\n"
        "def f() -> None:\n"
        "    import engine.puerto_rico_1897.names\n")
    (kernel / "view.py").write_text("from . import state\n")
    (tmp_path / "engine" / "puerto_rico_1897" / "game.py").write_text(
        "from ..puerto_rico import phases\n")
    assert imports_of_editions(tmp_path, "engine.puerto_rico", ("engine.puerto_rico_1897",)) == [
        "engine/puerto_rico/game.py:1: imports engine.puerto_rico_1897",
        "engine/puerto_rico/game.py:1: imports engine.puerto_rico_1897.puertoma",
        "engine/puerto_rico/game.py:3: imports engine.puerto_rico_1897.names",
    ]


# --- the bot draws through the generic renderer (issue #34) -------------------------------------


def render_games_imported(path: Path, root: Path, packages: set[str]) -> list[str]:
    """Where the bot module at ``path`` imports a game's render package (``render.<game>``),
    as ``file:line: imports what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    _, package = module_name(path, root)
    games = {p for p in packages if p.startswith("render.")}
    where = path.relative_to(root).as_posix()
    return [f"{where}:{line}: imports {module}"
            for line, module in imported_modules(tree, package)
            if any(module == g or module.startswith(f"{g}.") for g in games)]


def test_no_presenter_imports_a_renderer() -> None:
    """Issue #34: the bot reaches the images only through the generic rendering entry points
    (``render``, ``render.timelapse``); a presenter takes what it needs of a game from the
    engine (1897's words read back: ``engine.puerto_rico_1897.vocabulary``), never from the
    game's renderer."""
    packages = game_packages()
    assert {"render.puerto_rico", "render.puerto_rico_1897", "render.san_juan"} <= packages
    modules = sorted((ROOT / "bot").rglob("*.py"))
    assert [hit for path in modules for hit in render_games_imported(path, ROOT, packages)] == []


def test_the_renderer_checker_sees_a_presenter_import(tmp_path: Path) -> None:
    """Negative control: a presenter's import of a game's renderer (absolute, relative, in a
    function) is found; the generic entry points are not."""
    folder = tmp_path / "bot" / "games" / "puerto_rico_1897"
    folder.mkdir(parents=True)
    module = folder / "kernel.py"
    module.write_text("from render.puerto_rico_1897 import kernel_view\n"
                      "import render\n"
                      "from render.timelapse import timelapse\n"
                      "def f() -> None:\n"
                      "    from render.san_juan import layout\n")
    assert render_games_imported(module, tmp_path, game_packages()) == [
        "bot/games/puerto_rico_1897/kernel.py:1: imports render.puerto_rico_1897",
        "bot/games/puerto_rico_1897/kernel.py:1: imports render.puerto_rico_1897.kernel_view",
        "bot/games/puerto_rico_1897/kernel.py:5: imports render.san_juan",
        "bot/games/puerto_rico_1897/kernel.py:5: imports render.san_juan.layout",
    ]
