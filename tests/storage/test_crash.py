"""A writer killed with SIGKILL at random moments, over and over: the database always opens,
``integrity_check`` and verify pass, and every commit the writer acknowledged is there.

``GOVERNOR_CRASH_KILLS`` sets the number of kills (default 2000, about 60 s); each kill lands at a
random moment of a writer that opens the file, then commits real Puerto Rico actions in a loop
(creating, filling and starting a new game whenever one ends).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import LATEST_VERSION, Storage
from storage.verify import verify_database
from tests.storage.test_migrations import schema_of

ROOT = Path(__file__).parents[2]
KILLS = int(os.environ.get("GOVERNOR_CRASH_KILLS", "2000"))
MIGRATION_KILLS = 150


class Helper:
    """The pre-warmed process that forks writers (tests/storage/crash_worker.py)."""

    def __init__(self, db: Path, acks: Path, errors: Path, game: str) -> None:
        self.errors = errors
        self._err = errors.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.storage.crash_worker", str(db), str(acks), game],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
            text=True, bufsize=1,
        )
        assert self.ask(None) == "ready", self.stderr()

    def ask(self, line: str | None) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if line is not None:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        assert answer, f"helper died: {self.stderr()}"
        return answer

    def stderr(self) -> str:
        self._err.flush()
        return self.errors.read_text()[-4000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()
        self._err.close()


def read_acks(path: Path, offset: int) -> tuple[list[tuple[int, int, str]], int]:
    """Complete acknowledgement lines after ``offset`` (a line cut by the kill is not one)."""
    if not path.exists():
        return [], offset
    data = path.read_bytes()[offset:]
    end = data.rfind(b"\n") + 1
    acks = []
    for line in data[:end].decode().splitlines():
        game_id, seq, code = line.split()
        acks.append((int(game_id), int(seq), code))
    return acks, offset + end


@pytest.mark.slow
@pytest.mark.parametrize("game", ["puerto-rico"])
async def test_sigkill_never_loses_an_acknowledged_commit(tmp_path: Path, game: str) -> None:
    db = tmp_path / "crash.db"
    acks_path = tmp_path / "acks.txt"
    helper = Helper(db, acks_path, tmp_path / "writer-errors.txt", game)
    rng = random.Random(20260101)
    acked: dict[tuple[int, int], str] = {}
    versions: dict[int, int] = {}
    offset = 0
    started = time.monotonic()
    try:
        for cycle in range(KILLS):
            pid = int(helper.ask(f"run {cycle}").split()[1])
            # Mostly mid-loop; sometimes right away, during start-up and opening the file.
            delay = rng.uniform(0, 0.005) if cycle % 5 == 0 else rng.uniform(0, 0.04)
            time.sleep(delay)
            os.kill(pid, signal.SIGKILL)
            status = int(helper.ask(f"reap {pid}").split()[1])
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
                f"the writer died by itself (status {status}): {helper.stderr()}"
            )
            new, offset = read_acks(acks_path, offset)
            for game_id, seq, code in new:
                acked[(game_id, seq)] = code

            async with await Storage.open(db) as storage:  # always opens
                assert await storage.db.integrity_check() == []
                rows = await storage.db.fetchall("SELECT id, version FROM games")
                changed = [int(r[0]) for r in rows if versions.get(int(r[0])) != int(r[1])]
                versions = {int(r[0]): int(r[1]) for r in rows}
                report = await verify_database(storage.db, game_ids=changed, integrity=False)
                assert report.ok, (cycle, report.problems)
                for game_id, seq, code in new:
                    stored = await storage.db.scalar(
                        "SELECT code FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)
                    )
                    assert stored == code, f"acknowledged commit {game_id}/{seq} missing"
        elapsed = time.monotonic() - started
    finally:
        helper.close()

    async with await Storage.open(db) as storage:
        report = await verify_database(storage.db)
        assert report.ok, report.problems
        logged = {
            (int(r[0]), int(r[1])): str(r[2])
            for r in await storage.db.fetchall("SELECT game_id, seq, code FROM actions")
        }
        finished = await storage.db.scalar("SELECT count(*) FROM games WHERE status='finished'")
    assert all(logged.get(key) == code for key, code in acked.items())
    # The kills landed everywhere: many commits acknowledged, games finished and restarted.
    assert len(acked) >= KILLS // 2, (len(acked), KILLS)
    assert len(logged) >= len(acked)
    print(f"\n{KILLS} kills in {elapsed:.1f}s: {len(acked)} acknowledged commits, "
          f"{len(logged)} logged, {finished} games finished")


async def test_sigkill_while_creating_and_migrating(tmp_path: Path) -> None:
    """Killed while creating a new file and running every migration: the next start finishes the
    migrations and the schema is exactly that of a file migrated in one go."""
    fresh = tmp_path / "fresh.db"
    async with await Storage.open(fresh):
        pass
    expected = schema_of(fresh)
    helper = Helper(tmp_path / "unused.db", tmp_path / "acks.txt", tmp_path / "errors.txt",
                    "puerto-rico")
    rng = random.Random(7)
    versions_seen: set[int] = set()
    try:
        for n in range(MIGRATION_KILLS):
            path = tmp_path / f"new{n}.db"
            pid = int(helper.ask(f"open {path}").split()[1])
            time.sleep(rng.uniform(0, 0.012))
            os.kill(pid, signal.SIGKILL)
            status = int(helper.ask(f"reap {pid}").split()[1])
            assert os.WIFSIGNALED(status), helper.stderr()
            if path.exists():
                with sqlite3.connect(path) as raw:
                    versions_seen.add(int(raw.execute("PRAGMA user_version").fetchone()[0]))
            async with await Storage.open(path) as storage:
                assert await storage.db.schema_version() == LATEST_VERSION
                assert await storage.db.integrity_check() == []
            assert schema_of(path) == expected
            for leftover in path.parent.glob(f"new{n}.db*"):
                leftover.unlink()
    finally:
        helper.close()
    # The kills landed before, between and after the migrations.
    assert len(versions_seen) >= 2, versions_seen
