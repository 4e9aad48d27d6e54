"""An optional build of the engine compiled with mypyc, and pure Python whenever there is none.

    python -m engine.native build [--opt 3] [--out DIR] [--force]   compile (2 minutes at -O3)
    python -m engine.native status [--json]                          what an import uses here
    python -m engine.native clean [--out DIR]                        remove every build

What is compiled
    Every module of the engine package, the generic kernel and every game package, except the
    packages' ``__init__`` modules (they stay sources, so that each package keeps its source
    directory as ``__path__``) and the modules of ``NOT_COMPILED``, each with its reason.

Out of tree, keyed by the sources (``engine.native.build``)
    A build copies every ``.py`` of the engine to ``build/native/<key>.tmp-<pid>/`` and runs
    mypyc there in a child process (its ``mypycify``: type check and C code, then setuptools and
    the C compiler of ``sysconfig``); on success that directory becomes ``build/native/<key>/``
    with a ``manifest.json``.  The key hashes every ``.py`` under ``engine/``, compiled or not
    (compiled code bakes in what it knows of the modules it imports), with the interpreter's
    ABI tag and extension suffix.  Any edit of an engine source changes the key, so a build can
    never shadow an edited source: it is just not used until the next build.  Nothing is ever
    written into ``engine/``.

Activation (:func:`activate`, the first thing ``engine/__init__.py`` does)
    When a build for exactly the current key exists, a meta-path finder (:class:`NativeFinder`)
    goes first on ``sys.meta_path``.  It answers only for the modules the build's manifest
    lists and for mypyc's shared library (``<group>__mypyc``, the top-level module that every
    compiled module's small shim imports), with the extension files of the build; every other
    module, the packages themselves included, is found from the sources as usual.  It is all
    or nothing: the shared library is imported first, and when it does not load (or a module
    of the build was somehow imported from its source already) the finder is withdrawn and the
    whole engine stays pure Python: compiled code must never meet a pure copy of its classes.

``GOVERNOR_NATIVE``
    unset or ``auto``: the build when one matches the sources, else pure Python, silently;
    ``0``: pure Python; ``1``: the build is required (``ImportError`` saying what is missing).
    ``GOVERNOR_NATIVE_DIR`` says where the builds live (default: ``build/native`` beside the
    ``engine`` package, i.e. in the checkout, which git ignores).

This package uses the standard library only; mypyc runs in a child process of ``build``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ENV = "GOVERNOR_NATIVE"
ENV_DIR = "GOVERNOR_NATIVE_DIR"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
PACKAGE = PACKAGE_DIR.name
DEFAULT_DIR = PACKAGE_DIR.parent / "build" / "native"
MANIFEST = "manifest.json"
FORMAT = 1  # of a build directory and its manifest (part of the key)
EXT_SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")

NOT_COMPILED: dict[str, str] = {
    f"{PACKAGE}.native": "this loader and its build command: they run before any compiled "
    "module may load",
    f"{PACKAGE}.__main__": "the command line: no hot path",
    f"{PACKAGE}.games": "the catalog of games: data read once",
    f"{PACKAGE}.core": (
        "its frozen dataclasses (Event, Prompt, Outcome, ScoreLine) and errors cross process "
        "boundaries by pickle (the bot's image and AI workers): compiled, a frozen dataclass "
        "cannot be unpickled (nor copied); none of it is on the playouts' path"
    ),
    f"{PACKAGE}.policies": (
        "RandomPolicy.choose declares legal: list[Any], but a game's fast path may hand it "
        "another Sequence (e.g. choices.MultisetActions); compiled, mypyc checks the "
        "argument's type and raises TypeError (the fix, Sequence[Any], is one word)"
    ),
    f"{PACKAGE}.search": "StrongPolicy.choose declares legal: list[Any], as engine.policies",
}
"""Modules (and packages: their every module) left as sources, with the reason."""

_active: Path | None = None


@dataclass(frozen=True)
class Manifest:
    """What a build holds: the compiled modules' extension files (relative to the build
    directory) and mypyc's shared library, a top-level module."""

    key: str
    modules: dict[str, str]
    runtime: str
    runtime_file: str
    opt_level: str
    multi_file: bool
    seconds: float
    mypy: str
    not_compiled: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "key": self.key,
            "modules": self.modules,
            "runtime": self.runtime,
            "runtime_file": self.runtime_file,
            "opt_level": self.opt_level,
            "multi_file": self.multi_file,
            "seconds": self.seconds,
            "mypy": self.mypy,
            "not_compiled": self.not_compiled,
        }


class NativeFinder(importlib.abc.MetaPathFinder):
    """Finds exactly the modules of one build (dotted name -> extension file, relative to
    ``root``); ``None`` for every other name, which the usual finders then look up."""

    def __init__(self, root: Path, files: Mapping[str, str]) -> None:
        self.root = root
        self.files = dict(files)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        relative = self.files.get(fullname)
        if relative is None:
            return None
        location = str(self.root / relative)
        loader = importlib.machinery.ExtensionFileLoader(fullname, location)
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


def builds_dir() -> Path:
    """Where the builds live: ``$GOVERNOR_NATIVE_DIR``, else ``build/native`` of the checkout."""
    configured = os.environ.get(ENV_DIR)
    return Path(configured) if configured else DEFAULT_DIR


def source_files(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """Every ``.py`` of the engine package in ``package_dir``, sorted."""
    return sorted(p for p in package_dir.rglob("*.py") if "__pycache__" not in p.parts)


def source_key(package_dir: Path = PACKAGE_DIR) -> str:
    """The build key of the sources in ``package_dir``: every ``.py`` (path and bytes), the
    build format, the interpreter's cache tag and extension suffix."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.implementation.cache_tag}\0{EXT_SUFFIX}\0".encode())
    for path in source_files(package_dir):
        digest.update(path.relative_to(package_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def compiled_modules(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The dotted names of the modules a build compiles, sorted."""
    names = []
    for path in source_files(package_dir):
        parts = path.relative_to(package_dir.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            continue
        name = ".".join(parts)
        if not any(name == kept or name.startswith(f"{kept}.") for kept in NOT_COMPILED):
            names.append(name)
    return names


def read_manifest(build: Path, key: str) -> Manifest | None:
    """The manifest of the build in ``build`` when it is complete and made for ``key``."""
    try:
        data = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
        if data["format"] != FORMAT:
            return None
        manifest = Manifest(
            key=str(data["key"]),
            modules={str(k): str(v) for k, v in data["modules"].items()},
            runtime=str(data["runtime"]),
            runtime_file=str(data["runtime_file"]),
            opt_level=str(data["opt_level"]),
            multi_file=bool(data["multi_file"]),
            seconds=float(data["seconds"]),
            mypy=str(data["mypy"]),
            not_compiled={str(k): str(v) for k, v in data["not_compiled"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if manifest.key != key or not manifest.modules:
        return None
    if not all((build / f).is_file() for f in (manifest.runtime_file, *manifest.modules.values())):
        return None
    return manifest


def active_build() -> Path | None:
    """The build this process runs the engine from (``None``: pure Python)."""
    return _active


def build_name() -> str:
    """``"native"`` or ``"pure"``: what this process runs."""
    return "pure" if _active is None else "native"


def activate() -> Path | None:
    """Put the build of the current sources first on ``sys.meta_path`` when there is one and
    ``GOVERNOR_NATIVE`` allows it; return its directory (``None``: pure Python)."""
    global _active
    if _active is not None:
        return _active
    mode = os.environ.get(ENV, "").strip().lower() or "auto"
    if mode == "0":
        return None
    if mode not in ("1", "auto"):
        raise ImportError(f"{ENV}={mode!r}: use 0 (pure Python), 1 (compiled) or auto")
    required = mode == "1"
    root = builds_dir()
    if not required and not root.is_dir():
        return None  # no build was ever made here: not even the sources are read
    try:
        key = source_key()
    except OSError as exc:  # a source vanished while it was read
        _refuse(required, root, f"the sources cannot be read ({exc})")
        return None
    build = root / key
    manifest = read_manifest(build, key)
    if manifest is None:
        if required:
            raise ImportError(
                f"{ENV}=1 but there is no compiled build of these engine sources in {build} "
                "(run: python -m engine.native build)"
            )
        return None
    early = sorted(name for name in manifest.modules if name in sys.modules)
    if early:
        _refuse(required, build, f"imported from the sources already: {', '.join(early)}")
        return None
    finder = NativeFinder(build, {**manifest.modules, manifest.runtime: manifest.runtime_file})
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module(manifest.runtime)
    except ImportError as exc:
        sys.meta_path.remove(finder)
        sys.modules.pop(manifest.runtime, None)
        _refuse(required, build, f"it does not load ({exc})")
        return None
    _active = build
    return build


def _refuse(required: bool, where: Path, why: str) -> None:
    message = f"engine.native: not using the compiled build in {where}: {why}"
    if required:
        raise ImportError(message)
    print(f"{message}; the engine runs pure Python", file=sys.stderr)
