"""The processes that test_crash.py kills with SIGKILL, over and over.

Run as ``python -m tests.storage.crash_worker DB ACKS GAME``: a pre-warmed helper (engine,
storage and aiosqlite already imported) that forks a fresh child per command, so a kill cycle
costs a fork instead of an interpreter start.  Commands on stdin, one per line, one answer each:

``run SEED [PREFIX NTH AFTER]``
    Fork a writer; print ``pid N``.  The writer opens DB and loops forever: continue the active
    game (or start a lobby left half-filled by an earlier kill, or create a new one), commit one
    legal action picked deterministically from ``legal_actions``, and only then print the
    acknowledgement ``GAME_ID SEQ CODE`` on its stdout, which is the ACKS file (opened for
    appending).  With ``PREFIX NTH AFTER`` the writer SIGKILLs itself once it has acknowledged
    ``AFTER`` commits, just before SQLite runs the ``NTH`` statement after that which starts with
    ``PREFIX`` (``*``: any statement): a kill at an exact point (inside a write transaction,
    right before its ``COMMIT``...), whatever the load of the machine.
``open PATH [PREFIX NTH]``
    Fork a process that only opens (creating and migrating) the database PATH, then sleeps;
    print ``pid N``.  With ``PREFIX NTH`` it SIGKILLs itself before that statement, as above.
``count PATH``
    Open (create and migrate) PATH in a child and print ``trace MARKS``: one character per SQL
    statement that opening ran, ``c`` for a ``COMMIT`` and ``.`` for any other.
``wait PID K``
    Wait until the writer PID has appended K acknowledgements to ACKS since it was forked
    (print ``acked``) or has exited (print ``exited STATUS``).
``reap PID``
    Wait for that child to end; print ``status N`` (the raw wait status).
``quit``
    Exit.

``wait`` and ``reap`` give up after :data:`HANG_GUARD_S` seconds (print ``timeout``): that only
guards against a hang, it never measures speed.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
import time
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any

import engine  # noqa: F401  (registers "puerto-rico")
from storage import GameStatus, Storage
from tests.storage.counter_game import register_counter
from tests.storage.helpers import choose

PLAYERS = 4
HANG_GUARD_S = 120.0
_POLL_S = 0.001

_acked = 0  # acknowledgements this writer printed


def _kill_at(prefix: str, nth: int, after: int) -> Callable[[str], None]:
    """A trace callback that SIGKILLs this process just before the ``nth`` statement starting
    with ``prefix`` (``*``: any) once ``after`` commits were acknowledged."""
    matched = 0

    def on_statement(sql: str) -> None:
        nonlocal matched
        if _acked < after or (prefix != "*" and not sql.lstrip().upper().startswith(prefix)):
            return
        matched += 1
        if matched == nth:
            os.kill(os.getpid(), signal.SIGKILL)

    return on_statement


def _trace_connections(callback: Callable[[str], None]) -> None:
    """Make every SQLite connection this (forked) process opens from now on report each
    statement to ``callback`` before running it (aiosqlite calls ``sqlite3.connect``)."""
    real_connect = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = real_connect(*args, **kwargs)
        conn.set_trace_callback(callback)
        return conn

    sqlite3.connect = connect  # type: ignore[assignment]


async def writer(path: str, game_name: str) -> None:
    global _acked
    storage = await Storage.open(path)
    while True:
        active = await storage.games.list_by_status(GameStatus.ACTIVE, limit=1)
        if not active:
            lobbies = await storage.games.list_by_status(GameStatus.LOBBY, limit=1)
            if not lobbies:
                await storage.games.create_lobby(
                    game_name, creator_id=1, options={"target": 40} if game_name ==
                    "test-counter" else {}
                )
                continue
            lobby = lobbies[0]
            for n in range(len(lobby.seats), PLAYERS):
                if n == PLAYERS - 1:
                    lobby = await storage.games.add_ai(lobby.id, "random")
                else:
                    lobby = await storage.games.join(lobby.id, 1 + n)
            await storage.games.start(lobby.id, seed=lobby.id)
            continue
        loaded = await storage.games.load(active[0].id)
        record = loaded.record
        move = choose(record.game, loaded.state, random.Random(f"{record.id}:{record.seq}"))
        assert move is not None, "an active game always prompts"
        seat, code = move
        result = await storage.games.play(
            record.id, seat, code, expected_version=record.version, user_id=1
        )
        os.write(1, f"{record.id} {result.action.seq} {code}\n".encode())
        _acked += 1


async def opener(path: str) -> None:
    storage = await Storage.open(path)
    os.write(1, b"opened\n")
    await asyncio.sleep(3600)
    await storage.close()


def _mark(marks: list[str], sql: str) -> None:
    marks.append("c" if sql.strip().upper() == "COMMIT" else ".")


async def counter(path: str, marks: list[str]) -> None:
    storage = await Storage.open(path)
    trace = "".join(marks)  # before close: closing runs statements of its own
    await storage.close()
    os.write(1, f"trace {trace}\n".encode())


def _child(stdout: str, body: Callable[[], Any], trace: Callable[[str], None] | None) -> None:
    """Run ``body()`` (a coroutine) in this forked child with stdout on ``stdout`` (``-``: the
    helper's) and every statement reported to ``trace``; never return."""
    try:
        if stdout != "-":
            fd = os.open(stdout, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.dup2(fd, 1)
            os.close(fd)
        if trace is not None:
            _trace_connections(trace)
        asyncio.run(body())
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)
    os._exit(0)


def _fork(stdout: str, body: Callable[[], Any], trace: Callable[[str], None] | None) -> int:
    pid = os.fork()
    if pid == 0:
        _child(stdout, body, trace)
    return pid


def _exited(pid: int) -> int | None:
    done, status = os.waitpid(pid, os.WNOHANG)
    return status if done else None


def main(path: str, acks: str, game_name: str) -> None:
    started_at: dict[int, int] = {}  # writer pid -> size of ACKS when it was forked
    statuses: dict[int, int] = {}  # children already reaped by ``wait``

    def acks_size() -> int:
        return os.path.getsize(acks) if os.path.exists(acks) else 0

    def acks_since(offset: int) -> int:
        if not os.path.exists(acks):
            return 0
        with open(acks, "rb") as f:
            f.seek(offset)
            return f.read().count(b"\n")

    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            return
        command, args = words[0], words[1:]
        if command == "run":
            kill = _kill_at(args[1], int(args[2]), int(args[3])) if len(args) == 4 else None
            offset = acks_size()
            pid = _fork(acks, partial(writer, path, game_name), kill)
            started_at[pid] = offset
            print(f"pid {pid}", flush=True)
        elif command == "open":
            kill = _kill_at(args[1], int(args[2]), 0) if len(args) == 3 else None
            pid = _fork(os.devnull, partial(opener, args[0]), kill)
            print(f"pid {pid}", flush=True)
        elif command == "count":
            marks: list[str] = []  # filled in the child
            pid = _fork("-", partial(counter, args[0], marks), partial(_mark, marks))
            _, status = os.waitpid(pid, 0)  # the child printed its answer
            if status != 0:
                print(f"exited {status}", flush=True)
        elif command == "wait":
            pid, want = int(args[0]), int(args[1])
            deadline = time.monotonic() + HANG_GUARD_S
            answer = "timeout"
            while time.monotonic() < deadline:
                if acks_since(started_at[pid]) >= want:
                    answer = "acked"
                    break
                ended = _exited(pid)
                if ended is not None:
                    statuses[pid] = ended
                    answer = f"exited {ended}"
                    break
                time.sleep(_POLL_S)
            print(answer, flush=True)
        elif command == "reap":
            pid = int(args[0])
            deadline = time.monotonic() + HANG_GUARD_S
            reaped = statuses.pop(pid) if pid in statuses else None
            while reaped is None and time.monotonic() < deadline:
                reaped = _exited(pid)
                if reaped is None:
                    time.sleep(_POLL_S)
            started_at.pop(pid, None)
            print("timeout" if reaped is None else f"status {reaped}", flush=True)


if __name__ == "__main__":
    register_counter()
    main(sys.argv[1], sys.argv[2], sys.argv[3])
