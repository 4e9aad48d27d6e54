"""Processes killed with SIGKILL over and over: the database always opens, ``integrity_check`` and
verify pass, every commit a writer acknowledged is there, and a file killed while it was being
created and migrated is finished by the next start.

Nothing here depends on the speed of the machine: a kill is placed by what the killed process has
done, never by the clock.  Some kills come from the test, once the writer has acknowledged a chosen
number of commits and after a short random pause, so they land anywhere (even inside a system
call); the others the process deals itself, right before a chosen SQL statement (a ``BEGIN``, an
``INSERT``, an ``UPDATE``, a ``COMMIT``, any statement of a migration), so the dangerous points are
hit on every machine, however loaded.  The tests assert counts and correctness only; how fast a
commit is belongs to ``python -m bench.storage``.

``GOVERNOR_CRASH_KILLS`` sets the number of kills of the writer test (default 200: 20 before each
kind of statement, the rest at random moments; 1000 or more for a soak).
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
KILLS = int(os.environ.get("GOVERNOR_CRASH_KILLS", "200"))
RANDOM_MIGRATION_KILLS = 60
# Where a writer kills itself: right before the nth statement of that kind after k acknowledged
# commits ("*": any statement, including those of opening the file).
SELF_KILL_POINTS = ("*", "BEGIN", "INSERT", "UPDATE", "COMMIT")


class Helper:
    """The pre-warmed process that forks writers (tests/storage/crash_worker.py).  Its ``wait``
    and ``reap`` give up after 120 s, which only guards against a hang."""

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

    def fork(self, line: str) -> int:
        answer = self.ask(line)
        assert answer.startswith("pid "), (answer, self.stderr())
        return int(answer.split()[1])

    def reap_killed(self, pid: int) -> None:
        """Wait for ``pid``; it must have died of SIGKILL (not by itself, not hanging)."""
        answer = self.ask(f"reap {pid}")
        assert answer.startswith("status "), (answer, self.stderr())
        status = int(answer.split()[1])
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
            f"the child died by itself (status {status}): {self.stderr()}"
        )

    def stderr(self) -> str:
        self._err.flush()
        return self.errors.read_text()[-4000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            try:
                self.proc.wait(120)
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
    with path.open("rb") as f:
        f.seek(offset)
        data = f.read()
    end = data.rfind(b"\n") + 1
    acks = []
    for line in data[:end].decode().splitlines():
        game_id, seq, code = line.split()
        acks.append((int(game_id), int(seq), code))
    return acks, offset + end


@pytest.mark.slow
@pytest.mark.parametrize("game", ["puerto-rico"])
async def test_sigkill_never_loses_an_acknowledged_commit(tmp_path: Path, game: str) -> None:
    """``KILLS`` writers, each killed after it acknowledged 0 to 3 commits: half of them by the
    test at a random moment after that, half by themselves right before a chosen statement.
    Every acknowledged commit is stored, exactly once, and at least as many commits were
    acknowledged as the kills waited for."""
    db = tmp_path / "crash.db"
    acks_path = tmp_path / "acks.txt"
    helper = Helper(db, acks_path, tmp_path / "writer-errors.txt", game)
    rng = random.Random(20260101)
    acked: dict[tuple[int, int], str] = {}
    ack_lines = 0
    waited_for = 0  # acknowledgements the kills were placed after
    self_kills = dict.fromkeys(SELF_KILL_POINTS, 0)
    versions: dict[int, int] = {}
    offset = 0
    try:
        for cycle in range(KILLS):
            after = rng.randrange(4)
            waited_for += after
            if cycle % 2:
                point = SELF_KILL_POINTS[(cycle // 2) % len(SELF_KILL_POINTS)]
                nth = rng.randint(1, 20 if point == "*" else 3)
                pid = helper.fork(f"run {cycle} {point} {nth} {after}")
                self_kills[point] += 1
            else:
                pid = helper.fork(f"run {cycle}")
                answer = helper.ask(f"wait {pid} {after}")
                assert answer == "acked", (cycle, answer, helper.stderr())
                # Wherever the writer is now: often mid-commit, with no pause during start-up.
                if after or cycle % 4:
                    time.sleep(rng.uniform(0, 0.01))
                os.kill(pid, signal.SIGKILL)
            helper.reap_killed(pid)
            new, offset = read_acks(acks_path, offset)
            ack_lines += len(new)
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
    # No commit was acknowledged twice (a lost commit replayed by the next writer would be).
    assert ack_lines == len(acked)
    # Every kill came after the acknowledgements it waited for; none of them was lost.
    assert len(acked) >= waited_for, (len(acked), waited_for)
    assert len(logged) >= len(acked)
    assert sum(self_kills.values()) == KILLS // 2
    print(f"\n{KILLS} kills ({self_kills} self-inflicted before a statement): {len(acked)} "
          f"acknowledged commits, {len(logged)} logged, {finished} games finished")


def _user_version(path: Path) -> int:
    """The schema version the file is at (0 when the kill came before it was even created)."""
    if not path.exists():
        return 0
    with sqlite3.connect(path) as raw:
        return int(raw.execute("PRAGMA user_version").fetchone()[0])


async def _reopens_whole(path: Path, expected: list[tuple[str, str, str]]) -> None:
    """The next start finishes the migrations: the schema of a file migrated in one go."""
    async with await Storage.open(path) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
        assert await storage.db.integrity_check() == []
    assert schema_of(path) == expected
    for leftover in path.parent.glob(f"{path.name}*"):
        leftover.unlink()


@pytest.mark.slow
async def test_sigkill_while_creating_and_migrating(tmp_path: Path) -> None:
    """Killed while creating a new file and running every migration.  First right before each
    statement that opening a new file runs, one kill per statement: the file is then exactly at
    the version of the last migration committed before the kill (never in between).  Then at
    random moments.  Each time the next start finishes the migrations and the schema is exactly
    that of a file migrated in one go."""
    helper = Helper(tmp_path / "unused.db", tmp_path / "acks.txt", tmp_path / "errors.txt",
                    "puerto-rico")
    rng = random.Random(7)
    try:
        fresh = tmp_path / "fresh.db"
        answer = helper.ask(f"count {fresh}")
        assert answer.startswith("trace "), (answer, helper.stderr())
        marks = answer.split()[1]  # one mark per statement, "c" for a COMMIT
        assert marks.count("c") == LATEST_VERSION  # each migration commits once
        expected = schema_of(fresh)

        versions_seen: list[int] = []
        for n in range(len(marks)):
            path = tmp_path / f"stmt{n}.db"
            helper.reap_killed(helper.fork(f"open {path} * {n + 1}"))
            committed = marks[:n].count("c")
            assert _user_version(path) == committed, (n, marks)
            versions_seen.append(committed)
            await _reopens_whole(path, expected)
        # The kills landed before, between and after the migrations.
        assert sorted(set(versions_seen)) == list(range(LATEST_VERSION + 1))

        for n in range(RANDOM_MIGRATION_KILLS):
            path = tmp_path / f"random{n}.db"
            pid = helper.fork(f"open {path}")
            time.sleep(rng.uniform(0, 0.02))
            os.kill(pid, signal.SIGKILL)
            helper.reap_killed(pid)
            assert 0 <= _user_version(path) <= LATEST_VERSION
            await _reopens_whole(path, expected)
    finally:
        helper.close()
