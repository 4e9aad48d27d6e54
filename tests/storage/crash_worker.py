"""The writer that test_crash.py kills with SIGKILL, over and over.

Run as ``python -m tests.storage.crash_worker DB ACKS GAME``: a pre-warmed helper (engine,
storage and aiosqlite already imported) that forks a fresh writer per command, so a kill cycle
costs a fork instead of an interpreter start.  Commands on stdin, one per line:

``run SEED``  fork a writer; print ``pid N``.  The writer opens DB and loops forever: continue the
              active game (or start a lobby left half-filled by an earlier kill, or create a new
              one), commit one legal action picked deterministically from ``legal_actions``, and
              only then print the acknowledgement ``GAME_ID SEQ CODE`` on its stdout, which is
              the ACKS file (opened for appending).
``open PATH`` fork a process that only opens (creating and migrating) the database PATH, then
              sleeps; print ``pid N``.
``reap PID``  wait for that writer; print ``status N`` (the raw wait status).
``quit``      exit.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import traceback

import engine  # noqa: F401  (registers "puerto-rico")
from storage import GameStatus, Storage
from tests.storage.counter_game import register_counter
from tests.storage.helpers import choose

PLAYERS = 4


async def writer(path: str, game_name: str, seed: int) -> None:
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


async def opener(path: str) -> None:
    storage = await Storage.open(path)
    os.write(1, b"opened\n")
    await asyncio.sleep(3600)
    await storage.close()


def _open_child(path: str) -> None:
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        asyncio.run(opener(path))
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)
    os._exit(4)


def _child(path: str, acks: str, game_name: str, seed: int) -> None:
    try:
        fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.dup2(fd, 1)
        os.close(fd)
        asyncio.run(writer(path, game_name, seed))
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)
    os._exit(4)


def main(path: str, acks: str, game_name: str) -> None:
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            return
        if words[0] == "run":
            pid = os.fork()
            if pid == 0:
                _child(path, acks, game_name, int(words[1]))
            print(f"pid {pid}", flush=True)
        elif words[0] == "open":
            pid = os.fork()
            if pid == 0:
                _open_child(words[1])
            print(f"pid {pid}", flush=True)
        elif words[0] == "reap":
            _, status = os.waitpid(int(words[1]), 0)
            print(f"status {status}", flush=True)


if __name__ == "__main__":
    register_counter()
    main(sys.argv[1], sys.argv[2], sys.argv[3])
