"""Making a compiled build of the engine (``python -m engine.native build``): see the package's
docstring for where it goes and how it is used.

mypyc runs in a child process, in a copy of the sources, so this module, like the rest of the
engine, imports the standard library only.  The child runs ``SETUP`` (written into the build
directory as ``setup_native.py``): mypyc's documented entry point (``mypycify``, then
setuptools' ``build_ext --inplace``), with three changes of build speed only.  ``multi_file``:
one C file per module instead of one for everything (gcc's time grows faster than the size of a
file, and the code runs as fast: the times are in docs/architecture.md).  ``jobs`` C files
compiled at once (setuptools compiles an extension's files one after the other, so the parallel
compile replaces distutils' ``CCompiler.compile`` in the child; its private helpers are
distutils' own, unchanged since Python 2).  And at -O0 (the tests' build) without the C
runtime's asserts, which mypyc turns on there: they cost gcc time (docs/architecture.md).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from . import (
    EXT_SUFFIX,
    MANIFEST,
    NOT_COMPILED,
    PACKAGE,
    PACKAGE_DIR,
    Manifest,
    builds_dir,
    compiled_modules,
    read_manifest,
    source_files,
    source_key,
)

OPT_LEVELS = ("0", "1", "2", "3")
SETUP = """\
\"\"\"Written by engine.native.build: compile the engine with mypyc, in this directory.\"\"\"
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import setuptools  # first: on Python 3.12+ it provides distutils
from distutils.ccompiler import CCompiler
from mypyc.build import mypycify

CONFIG = json.loads(sys.argv.pop(1))


def compile_in_parallel(self, sources, output_dir=None, macros=None, include_dirs=None,
                        debug=0, extra_preargs=None, extra_postargs=None, depends=None):
    \"\"\"CCompiler.compile with CONFIG["jobs"] files at once, the largest first.\"\"\"
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs)
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj):
        src, ext = build[obj]
        self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    todo = sorted(build, key=lambda obj: -os.path.getsize(build[obj][0]))
    with ThreadPoolExecutor(CONFIG["jobs"]) as pool:
        list(pool.map(one, todo))
    return objects


helpers = ("_setup_compile", "_get_cc_args", "_compile")
if CONFIG["jobs"] > 1 and all(hasattr(CCompiler, name) for name in helpers):
    CCompiler.compile = compile_in_parallel
started = time.perf_counter()
extensions = mypycify(
    CONFIG["files"], opt_level=CONFIG["opt_level"], multi_file=CONFIG["multi_file"])
for extension in extensions:  # -O0 turns the C runtime's asserts on: a third more gcc time
    extension.extra_compile_args = [a for a in extension.extra_compile_args if a != "-UNDEBUG"]
print(f"engine.native: C code in {time.perf_counter() - started:.1f} s", flush=True)
setuptools.setup(name="engine-native", ext_modules=extensions,
                 script_args=["build_ext", "--inplace", "--parallel", str(CONFIG["jobs"])])
print(f"engine.native: built in {time.perf_counter() - started:.1f} s", flush=True)
"""


class BuildError(Exception):
    """A build that could not be made; the message says why in one line."""


def toolchain_problem() -> str | None:
    """Why a build cannot even be attempted here (``None``: it can)."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy: pip install -e '.[dev]')"
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed (mypyc builds with it)"
    compiler = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "")
    words = shlex.split(compiler)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({compiler or 'CC'!r} not found)"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.is_file():
        return f"no Python headers ({header} not found)"
    return None


def build(
    out: Path | None = None,
    opt_level: str = "3",
    force: bool = False,
    prune: bool = True,
    jobs: int | None = None,
    multi_file: bool = True,
) -> tuple[Path, bool]:
    """Compile the current sources into a build under ``out`` (default: ``builds_dir()``) at
    the C optimization level ``opt_level``, compiling ``jobs`` C files at once (default: one
    per CPU) from one C file per module (``multi_file``) or one for all; return the build's
    directory and whether it was made now (``False``: an up-to-date build was there).
    ``prune`` removes the builds of other sources.  Raises :class:`BuildError`."""
    if opt_level not in OPT_LEVELS:
        raise BuildError(f"optimization level {opt_level!r}: use one of {', '.join(OPT_LEVELS)}")
    root = (out or builds_dir()).resolve()
    key = source_key()
    target = root / key
    if not force and read_manifest(target, key) is not None:
        return target, False
    problem = toolchain_problem()
    if problem is not None:
        raise BuildError(problem)
    started = time.perf_counter()
    staging = _stage(root, key)
    modules = compiled_modules()
    log = staging / "build.log"
    config = {
        "files": [f"{m.replace('.', '/')}.py" for m in modules],
        "opt_level": opt_level,
        "multi_file": multi_file,
        "jobs": max(1, jobs or os.cpu_count() or 1),
    }
    (staging / "setup_native.py").write_text(SETUP, encoding="utf-8")
    with log.open("w", encoding="utf-8") as stream:
        done = subprocess.run(
            [sys.executable, "setup_native.py", json.dumps(config)],
            cwd=staging,
            stdin=subprocess.DEVNULL,
            stdout=stream,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if done.returncode != 0:
        failed = root / f"{key}.failed"
        shutil.rmtree(failed, ignore_errors=True)
        staging.rename(failed)
        raise BuildError(
            f"mypyc failed (exit {done.returncode}): {_last_error(failed / log.name)} "
            f"(log: {failed / log.name})"
        )
    files = {name: f"{name.replace('.', '/')}{EXT_SUFFIX}" for name in modules}
    runtimes = sorted(p.name for p in staging.glob(f"*__mypyc{EXT_SUFFIX}"))
    missing = sorted(name for name, f in files.items() if not (staging / f).is_file())
    if len(runtimes) != 1 or missing:
        shutil.rmtree(staging, ignore_errors=True)
        raise BuildError(f"mypyc made no extension for {missing or 'its shared library'}")
    for scratch in (staging / "build").glob("*.*-*"):  # temp.<platform> objects, lib.* copies
        shutil.rmtree(scratch, ignore_errors=True)
    manifest = Manifest(
        key=key,
        modules=files,
        runtime=runtimes[0].removesuffix(EXT_SUFFIX),
        runtime_file=runtimes[0],
        opt_level=opt_level,
        multi_file=multi_file,
        seconds=round(time.perf_counter() - started, 1),
        mypy=_version("mypy"),
        not_compiled=dict(NOT_COMPILED),
    )
    (staging / MANIFEST).write_text(json_text(manifest), encoding="utf-8")
    _install(root, key, staging)
    if prune:
        _prune(root, key)
    return target, True


def json_text(manifest: Manifest) -> str:
    return json.dumps(manifest.to_json(), indent=1, sort_keys=True) + "\n"


def _stage(root: Path, key: str) -> Path:
    """A fresh copy of the engine's sources under ``root``, checked against ``key``."""
    staging = root / f"{key}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    for path in source_files():
        copy = staging / path.relative_to(PACKAGE_DIR.parent)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    if source_key(staging / PACKAGE) != key:
        shutil.rmtree(staging, ignore_errors=True)
        raise BuildError("the engine's sources changed while they were copied: build again")
    # mypy reads this configuration, not the checkout's (which it would find by searching up)
    (staging / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    return staging


def _install(root: Path, key: str, staging: Path) -> None:
    """Rename ``staging`` to the build of ``key`` (a build of the same key is replaced)."""
    target = root / key
    if target.exists():
        old = root / f"{key}.old-{os.getpid()}"
        target.rename(old)
        shutil.rmtree(old, ignore_errors=True)
    staging.rename(target)


def _prune(root: Path, key: str) -> None:
    """Remove the builds (and failed builds) of other sources; builds in progress stay."""
    for other in root.iterdir():
        stem, _, suffix = other.name.partition(".")
        if other.is_dir() and stem != key and _is_key(stem) and not suffix.startswith("tmp-"):
            shutil.rmtree(other, ignore_errors=True)


def _is_key(name: str) -> bool:
    return len(name) == 16 and all(c in "0123456789abcdef" for c in name)


def _last_error(log: Path) -> str:
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return "no log"
    errors = [line for line in lines if "error" in line.lower()]
    return (errors or lines or ["no output"])[-1].strip()[:300]


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
