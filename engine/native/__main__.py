"""Command line of the compiled build: ``python -m engine.native build|status|clean``."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import (
    ENV,
    ENV_DIR,
    NOT_COMPILED,
    active_build,
    build_name,
    builds_dir,
    read_manifest,
    source_key,
)
from . import __doc__ as about
from .build import OPT_LEVELS, BuildError, build


def status() -> dict[str, Any]:
    """What an import of the engine uses here, and why."""
    root = builds_dir()
    key = source_key()
    manifest = read_manifest(root / key, key)
    others = sorted(p.name for p in root.iterdir() if p.name != key) if root.is_dir() else []
    active = active_build()
    return {
        "mode": os.environ.get(ENV, "").strip().lower() or "auto",
        "dir": str(root),
        "key": key,
        "build": None if manifest is None else str(root / key),
        "opt_level": None if manifest is None else manifest.opt_level,
        "multi_file": None if manifest is None else manifest.multi_file,
        "compiled_modules": None if manifest is None else len(manifest.modules),
        "build_seconds": None if manifest is None else manifest.seconds,
        "this_process": build_name(),
        "this_process_build": None if active is None else str(active),
        "other_entries": others,
        "not_compiled": NOT_COMPILED,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.native",
        description=about,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="compile the engine with mypyc, out of tree")
    make.add_argument("--opt", default="3", choices=OPT_LEVELS,
                      help="the C compiler's optimization level (default 3)")
    make.add_argument("--out", type=Path,
                      help=f"the builds' directory (default: ${ENV_DIR}, else build/native)")
    make.add_argument("--jobs", type=int, help="C files compiled at once (default: the CPUs)")
    make.add_argument("--single-file", action="store_true",
                      help="one C file for every module (slower to compile)")
    make.add_argument("--force", action="store_true", help="rebuild an up-to-date build")
    make.add_argument("--keep", action="store_true", help="keep the builds of other sources")
    show = sub.add_parser("status", help="what an import of the engine uses here")
    show.add_argument("--json", action="store_true")
    wipe = sub.add_parser("clean", help="remove every build")
    wipe.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "build":
        return _build(args)
    if args.command == "status":
        info = status()
        if args.json:
            print(json.dumps(info, sort_keys=True))
        else:
            print(f"this process: {info['this_process']}; build of these sources: "
                  f"{info['build'] or 'none'} (key {info['key']}, {ENV}={info['mode']})")
        return 0
    root = (args.out or builds_dir()).resolve()
    shutil.rmtree(root, ignore_errors=True)
    print(f"engine.native: removed {root}")
    return 0


def _build(args: argparse.Namespace) -> int:
    try:
        target, made = build(args.out, args.opt, args.force, prune=not args.keep,
                             jobs=args.jobs, multi_file=not args.single_file)
    except BuildError as exc:
        print(f"engine.native: no compiled build ({exc}); the engine stays pure Python",
              file=sys.stderr)
        return 1
    manifest = read_manifest(target, target.name)
    if not made or manifest is None:
        print(f"engine.native: up to date: {target}")
        return 0
    print(f"engine.native: {len(manifest.modules)} modules compiled at -O{manifest.opt_level} "
          f"in {manifest.seconds:.0f} s into {target} (used from the next import of the engine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
