"""``python -m storage verify`` and ``python -m storage backup``."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage import Storage
from storage.__main__ import main
from tests.storage.helpers import active_game, play_some, play_to_end

ROOT = Path(__file__).parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "storage", *args], cwd=ROOT, capture_output=True, text=True,
        timeout=120, check=False,
    )


def make_db(path: Path, *, counter: bool = True) -> dict[str, int]:
    """A running Puerto Rico game, a finished game and a lobby.  The finished game is a
    test-counter game unless ``counter`` is false (a subprocess only knows the real games)."""

    async def build() -> dict[str, int]:
        async with await Storage.open(path) as storage:
            a = await active_game(storage, "puerto-rico", channel_id=1)
            await play_some(storage, a.id, 60, random.Random(1))
            b = await active_game(
                storage, "test-counter" if counter else "puerto-rico", players=2, channel_id=2
            )
            await play_to_end(storage, b.id, random.Random(2))
            c = await storage.games.create_lobby("puerto-rico", creator_id=1, channel_id=3)
            return {"pr": a.id, "counter": b.id, "lobby": c.id}

    return asyncio.run(build())


def test_verify_ok_subprocess(db_path: Path) -> None:
    make_db(db_path, counter=False)
    done = run_cli("verify", str(db_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified 3 games" in done.stdout and "OK" in done.stdout


def test_verify_reports_each_kind_of_mismatch(db_path: Path, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    """A tampered snapshot, a lost log entry and altered events each fail verify (exit 1),
    naming the game; --repair rebuilds what the log can rebuild."""
    ids = make_db(db_path)
    with sqlite3.connect(db_path) as raw:
        row = raw.execute("SELECT snapshot FROM games WHERE id = ?", (ids["pr"],)).fetchone()
        data = json.loads(row[0])
        raw.execute("UPDATE games SET snapshot = ? WHERE id = ?", (
            json.dumps(_tamper(data)), ids["pr"]))
        raw.execute("DELETE FROM actions WHERE game_id = ? AND seq = 3", (ids["counter"],))
    assert main(["verify", str(db_path)]) == 1
    out = capsys.readouterr().out
    assert f"game {ids['pr']} (puerto-rico): snapshot_mismatch" in out
    assert f"game {ids['counter']} (test-counter): log_gap" in out

    assert main(["verify", str(db_path), "--json", "--repair"]) == 1  # the gap stays
    report = json.loads(capsys.readouterr().out)
    assert report["repaired"] == [ids["pr"]]
    assert [p["kind"] for p in report["problems"]] == ["log_gap"]


def _tamper(data: object) -> object:
    """Change one number deep in a snapshot (still valid JSON, maybe still loadable)."""
    if isinstance(data, dict):
        for key in sorted(data):
            if isinstance(data[key], int) and not isinstance(data[key], bool) and key != "v":
                return {**data, key: data[key] + 1}
        for key in sorted(data):
            changed = _tamper(data[key])
            if changed != data[key]:
                return {**data, key: changed}
    if isinstance(data, list):
        for i, item in enumerate(data):
            changed = _tamper(item)
            if changed != item:
                return [*data[:i], changed, *data[i + 1:]]
    return data


def test_verify_events_mismatch(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = make_db(db_path)
    with sqlite3.connect(db_path) as raw:
        raw.execute("DROP TRIGGER actions_append_only")
        raw.execute("UPDATE actions SET events = '[]' WHERE game_id = ? AND seq = 2",
                    (ids["counter"],))
    assert main(["verify", str(db_path)]) == 1
    assert "events_mismatch: action seq 2" in capsys.readouterr().out
    assert main(["verify", str(db_path), "--no-events"]) == 0


def test_verify_missing_file(tmp_path: Path) -> None:
    assert main(["verify", str(tmp_path / "nope.db")]) == 2
    assert main(["backup", str(tmp_path / "nope.db"), str(tmp_path / "out.db")]) == 2


def test_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not SQLite is reported (exit 2), not a traceback."""
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"definitely not sqlite " * 100)
    assert main(["verify", str(garbage)]) == 2
    assert "error:" in capsys.readouterr().err


def test_migrate_command(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", str(db_path)]) == 0
    assert "schema version" in capsys.readouterr().out


async def test_backup_while_the_bot_writes(db_path: Path, tmp_path: Path) -> None:
    """Backups taken while another connection commits continuously are consistent copies:
    integrity_check passes and every snapshot equals the replay of its log."""
    async with await Storage.open(db_path) as storage:
        record = await active_game(storage, "puerto-rico", channel_id=1)
        stop = asyncio.Event()

        async def writer() -> int:
            count = 0
            rng = random.Random(9)
            while not stop.is_set():
                after = await play_some(storage, record.id, 1, rng)
                count += 1
                if after.to_act == ():
                    return count
            return count

        task = asyncio.create_task(writer())
        copies = []
        for n in range(3):
            out = tmp_path / f"copy{n}.db"
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "storage", "backup", str(db_path), str(out), cwd=ROOT,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )
            _, err = await proc.communicate()
            assert proc.returncode == 0, err.decode()
            copies.append(out)
        in_process = await storage.backup(tmp_path / "copy_api.db")
        copies.append(in_process)
        stop.set()
        written = await task
        assert written > 0
    seqs = []
    for copy in copies:
        async with await Storage.open(copy) as restored:
            report = await restored.verify()
            assert report.ok, report.problems
            seqs.append((await restored.games.get(record.id)).seq)
    assert seqs == sorted(seqs)
