"""The compiled build (``engine.native``): the same games as pure Python, and pure Python whenever
a build is missing, stale, broken or refused.

The comparison needs a build of the current sources: the checkout's when it is up to date (a
developer's ``python -m engine.native build``), else one made here at -O0 into pytest's cache
(about a minute on two cores: the test checks what mypyc makes of the code, not how fast gcc's
optimizer makes it; a clean CI clone makes it once per run).  It is skipped, saying why, where
no build can be made (no C compiler, no mypyc).  Every engine runs in a child process, so this
process's own engine (pure or compiled) does not matter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import game_names, native
from engine.native.build import BuildError, build, toolchain_problem

ROOT = Path(__file__).resolve().parents[2]

# One pytest-xdist worker runs this file: the build below goes into pytest's cache once, not
# twice at the same time into the same directory.
# (Slow: a clean clone builds the engine here, and the fast tier is for quick runs.)
pytestmark = [pytest.mark.xdist_group("engine-native"), pytest.mark.slow]

# every game, every option set of its generic tests: a random game on the simulator's fast path
# (the first and the last set, every module: on the checked path instead: apply, the
# invariants, dump/load and replay at every action) and the first set a heuristic game; each
# game's actions, final dump, public and seat-0 views, outcome and a determinized copy hashed.
# And what the bot's worker processes exchange by pickle: actions, events, prompts, outcomes.
PLAY = r"""
import hashlib, json, pickle
from engine import game_names, get_game, native
from engine.policies import make_policy
from engine.simulate import canonical_json, play_game, policy_seed

report = {"build": native.build_name(), "games": {}, "failures": [], "pickled": {}}
for name in game_names():
    game = get_game(name)
    sets = game.option_sets()
    invariants = getattr(game, "invariants", None)
    for index, options in enumerate(sets):
        opts = game.normalize_options(options)
        if index == 0:
            state = game.setup(opts, 1)
            seat = game.prompt(state).seats[0]
            legal = game.legal_actions(state, seat)
            after, events = game.apply(state, seat, legal[-1])
            sent = [legal, events, game.prompt(after)]
            report["pickled"][name] = pickle.loads(pickle.dumps(sent)) == sent
        plays = [("random", 1, index in (0, len(sets) - 1))]
        plays += [("heuristic", 3, False)] if index == 0 else []
        for policy, seed, checked in plays:
            seats = [make_policy(policy, name, policy_seed(seed, s))
                     for s in range(int(opts["players"]))]
            result = play_game(game, opts, seed, seats, checked, invariants if checked else None)
            final = result.final
            outcome = game.outcome(final)
            digest = hashlib.sha256()
            for part in (result.actions, game.dump(final), game.view(final, None),
                         game.view(final, 0), None if outcome is None else outcome.to_json(),
                         game.dump(game.determinize(final, 0, 5))):
                digest.update(canonical_json(part).encode())
            report["games"][f"{name}/{index}/{policy}/{seed}"] = digest.hexdigest()
            report["failures"] += result.failures
            if outcome is not None and not pickle.loads(pickle.dumps(outcome)) == outcome:
                report["failures"].append(f"{name}: the outcome does not pickle")
print(json.dumps(report))
"""

WHICH = r"""
import json, engine.rng
from engine import native
print(json.dumps({"build": native.build_name(), "rng": engine.rng.__file__}))
"""


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in the checkout with ``env`` added (``GOVERNOR_NATIVE`` unset unless
    given)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(native.ENV)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**environ, **env}, capture_output=True,
        text=True, check=False, timeout=600,
    )


def which(**env: str) -> dict[str, Any]:
    done = run(WHICH, **env)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


@pytest.fixture(scope="module")
def builds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding a build of the current sources (see the module's docstring)."""
    key = native.source_key()
    if native.read_manifest(native.builds_dir() / key, key) is not None:
        return native.builds_dir()
    problem = toolchain_problem()
    if problem is not None:
        pytest.skip(f"no compiled build can be made here: {problem}")
    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("engine-native") if cache is not None else tmp_path_factory.mktemp("n")
    try:
        build(root, opt_level="0")
    except BuildError as exc:
        pytest.fail(f"the engine does not compile with mypyc: {exc}")
    return Path(root)


def test_compiled_games_are_the_pure_games(builds: Path) -> None:
    """Every game of the registry, every option set of the generic tests: the compiled build
    plays exactly the games pure Python plays (same actions, states, views, outcomes,
    determinized copies), breaks no invariant on the checked path, and what crosses to the
    bot's worker processes pickles."""
    reports = {}
    for mode in ("0", "1"):
        done = run(PLAY, **{native.ENV: mode, native.ENV_DIR: str(builds)})
        assert done.returncode == 0, done.stderr[-3000:]
        reports[mode] = json.loads(done.stdout)
    pure, compiled = reports["0"], reports["1"]
    assert (pure["build"], compiled["build"]) == ("pure", "native")
    assert {name.split("/")[0] for name in pure["games"]} == set(game_names())
    assert pure["failures"] == [] and compiled["failures"] == []
    assert compiled["games"] == pure["games"]
    assert compiled["pickled"] == pure["pickled"] == dict.fromkeys(game_names(), True)


def test_the_build_is_used_exactly_when_it_matches_and_is_allowed(
    builds: Path, tmp_path: Path
) -> None:
    """A build of these sources is used by default (its modules are extension files);
    ``GOVERNOR_NATIVE=0`` refuses it; a build of other sources is never used, and
    ``GOVERNOR_NATIVE=1`` then fails the import, naming the command that makes one."""
    key = native.source_key()
    here = {native.ENV_DIR: str(builds)}
    compiled = which(**here)
    assert compiled["build"] == "native"
    assert compiled["rng"] == str(builds / key / "engine" / f"rng{native.EXT_SUFFIX}")
    assert which(**here, **{native.ENV: "0"}) == {
        "build": "pure", "rng": str(ROOT / "engine" / "rng.py")}
    stale = tmp_path / "stale"
    stale.mkdir()
    (stale / "0123456789abcdef").symlink_to(builds / key)  # another key's directory
    assert which(**{native.ENV_DIR: str(stale)})["build"] == "pure"
    done = run(WHICH, **{native.ENV_DIR: str(stale), native.ENV: "1"})
    assert done.returncode != 0
    assert "no compiled build of these engine sources" in done.stderr
    assert "python -m engine.native build" in done.stderr


def test_a_build_that_does_not_load_leaves_the_whole_engine_pure(tmp_path: Path) -> None:
    """All or nothing: a build whose shared library does not load is withdrawn with one line
    on stderr and every module is pure Python (required, the import fails)."""
    key = native.source_key()
    broken = tmp_path / key
    broken.mkdir()
    modules = {name: f"{name.replace('.', '/')}{native.EXT_SUFFIX}"
               for name in native.compiled_modules()}
    for path in [*modules.values(), f"x__mypyc{native.EXT_SUFFIX}"]:
        (broken / path).parent.mkdir(parents=True, exist_ok=True)
        (broken / path).write_bytes(b"not an extension")
    manifest = native.Manifest(key, modules, "x__mypyc", f"x__mypyc{native.EXT_SUFFIX}", "0",
                               True, 0.0, "test", {})
    (broken / native.MANIFEST).write_text(json.dumps(manifest.to_json()))
    done = run(WHICH, **{native.ENV_DIR: str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["build"] == "pure"
    assert done.stderr.count("\n") == 1 and "does not load" in done.stderr
    required = run(WHICH, **{native.ENV_DIR: str(tmp_path), native.ENV: "1"})
    assert required.returncode != 0 and "does not load" in required.stderr


def test_no_compiler_is_one_line_and_pure_python(tmp_path: Path) -> None:
    """A build without a C compiler says so in one line, exits with 1 and leaves nothing that
    an import would use."""
    done = subprocess.run(
        [sys.executable, "-m", "engine.native", "build", "--out", str(tmp_path)],
        cwd=ROOT, env={**os.environ, "CC": str(tmp_path / "no-such-cc")}, capture_output=True,
        text=True, check=False, timeout=600,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "no C compiler" in done.stderr and "stays pure Python" in done.stderr
    assert which(**{native.ENV_DIR: str(tmp_path)})["build"] == "pure"


def test_the_key_follows_every_engine_source(tmp_path: Path) -> None:
    """The build key changes with any engine source, compiled or not, so that an edit makes
    every build stale; the compiled modules are every module but the packages' ``__init__``
    and ``NOT_COMPILED``, every game's package included."""
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert native.source_key(copy) == native.source_key()
    for name in ("policies.py", "core.py"):
        path = copy / name
        original = path.read_text()
        path.write_text(original + "\n")
        assert native.source_key(copy) != native.source_key()
        path.write_text(original)
    assert native.source_key(copy) == native.source_key()
    compiled = native.compiled_modules()
    assert not [m for m in compiled if m.split(".")[-1] == "__init__" or m in native.NOT_COMPILED]
    from engine.games import PACKAGES

    for package in PACKAGES.values():
        assert any(m.startswith(f"{package}.") for m in compiled), package
