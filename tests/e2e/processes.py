"""The bot as operating-system processes against an offline Discord server: the harness of
``tests/e2e/test_shards.py`` and of ``python -m bench.bot --processes N`` (:mod:`bench.processes`
adds what the bench measures of them).

Each process is the real command line (``python -m bot --shards IDS --shard-count S``, through
:mod:`tests.e2e.bot_process`, which only points discord.py at the offline server), its settings
from the environment as an operator sets them, its log to a file of its own.  The offline
server sends each server's (guild's) events to the connection of its shard,
``(guild_id >> 22) % S``, so a process sees only its own servers.  What is read of a process
from outside comes from Linux's ``/proc``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from tests.offline_discord import Guild, OfflineDiscordServer

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = "tests.e2e.bot_process"
PROBLEM = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback \(most recent call last\)")
"""A log line worth reporting: an error, a traceback."""


# --- shards -----------------------------------------------------------------------------------

def shards_text(shards: Sequence[int]) -> str:
    """``--shards``' spelling of consecutive shards: ``0`` or ``0-1``."""
    return str(shards[0]) if len(shards) == 1 else f"{shards[0]}-{shards[-1]}"


def guild_on_shard(server: OfflineDiscordServer, shard: int, shard_count: int, name: str
                   ) -> Guild:
    """A new server (guild) whose events Discord sends to ``shard`` of ``shard_count``."""
    while True:
        guild = server.add_guild(name)
        if (guild.id >> 22) % shard_count == shard:
            return guild
        server.guilds.pop(guild.id)  # another shard's: not one of the caller's servers


# --- processes seen from outside (/proc) ------------------------------------------------------

def proc_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (``[0]`` is field 3, the
    state; ``[1]`` the parent; ``[11:15]`` utime, stime, cutime, cstime); None when the
    process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def children_by_parent() -> dict[int, list[int]]:
    """Every running process's children, by parent pid."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := proc_stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def descendants(pid: int, children: Mapping[int, list[int]] | None = None) -> list[int]:
    """``pid``'s running child processes, theirs, and so on."""
    children = children_by_parent() if children is None else children
    found: list[int] = []
    for child in children.get(pid, ()):
        found += [child, *descendants(child, children)]
    return found


def alive(pids: Sequence[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie, ended but not waited for, is not)."""
    return [pid for pid in pids
            if (fields := proc_stat(pid)) is not None and fields[0] != "Z"]


# --- the processes ----------------------------------------------------------------------------

class BotProcesses:
    """The bot's processes against ``server``, each running some of ``shard_count`` shards on
    ``database_url``; their logs go to ``log_dir`` (``process<i>-<start>.log``)."""

    def __init__(self, server: OfflineDiscordServer, database_url: str, log_dir: Path, *,
                 shard_count: int, ai_budget: int | None = None,
                 log_level: str = "INFO") -> None:
        self.server = server
        self.shard_count = shard_count
        self.env = {
            **{k: v for k, v in os.environ.items()
               if k not in ("DATABASE_PATH", "SHARDS", "SHARD_COUNT", "DEV_GUILD_ID",
                            "AI_BUDGET")},
            "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": server.bot_token,
            "DATABASE_URL": database_url, "LOG_LEVEL": log_level,
            "OFFLINE_DISCORD_API": server.api_base, "OFFLINE_DISCORD_GATEWAY": server.gateway_url,
        }
        if ai_budget is not None:
            self.env["AI_BUDGET"] = str(ai_budget)
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            # Started in the background by a shell (``cmd &``): SIGINT is ignored here, and an
            # ignored signal stays ignored in the children, so the bots would not stop on it (a
            # handler, unlike SIG_IGN, does not pass to them).
            signal.signal(signal.SIGINT, signal.default_int_handler)
        self.log_dir = log_dir
        self.running: dict[int, subprocess.Popen[bytes]] = {}
        self.shards: dict[int, tuple[int, ...]] = {}
        self.logs: list[Path] = []
        self._files: list[IO[bytes]] = []

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", LAUNCHER, *args]

    async def sync_commands(self) -> None:
        """``python -m bot sync --global``: the slash commands exist before the bot runs."""
        done = await asyncio.to_thread(
            subprocess.run, self.command("sync", "--global"), env=self.env, cwd=self.log_dir,
            capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0 or not self.server.global_commands:
            raise RuntimeError(f"python -m bot sync --global failed: {done.stderr[-3000:]}")

    async def start(self, index: int, shards: tuple[int, ...], timeout: float = 180) -> None:
        """Start process ``index`` running ``shards``; wait until the server saw each of its
        shards identify and the bot says it is connected (every shard ready)."""
        before = set(self.server.sessions)
        log = self.log_dir / f"process{index}-{len(self.logs) + 1}.log"
        self.logs.append(log)
        self._files.append(file := log.open("wb"))
        process = self.running[index] = subprocess.Popen(
            self.command("--shards", shards_text(shards), "--shard-count", str(self.shard_count)),
            env=self.env, cwd=self.log_dir, stdout=file, stderr=subprocess.STDOUT)
        self.shards[index] = shards

        def ready() -> bool | None:
            if process.poll() is not None:
                raise RuntimeError(f"bot process {index} (shards {shards_text(shards)}) ended: "
                                   f"{log.read_text(errors='replace')[-3000:]}")
            identified = {s.shard[0] for s in self.server.sessions.values()
                          if s.valid and s.id not in before and s.shard is not None
                          and s.shard[1] == self.shard_count}
            if not set(shards) <= identified:
                return None
            return "connected as" in log.read_text(errors="replace") or None

        await self.server.wait_for(ready, timeout=timeout, poll_interval=0.2,
                                   what=f"bot process {index} ready")

    async def start_all(self, groups: Sequence[tuple[int, ...]]) -> None:
        await asyncio.gather(*(self.start(i, shards) for i, shards in enumerate(groups)))

    def pids(self) -> dict[int, int]:
        return {index: process.pid for index, process in self.running.items()}

    def kill(self, index: int) -> list[int]:
        """SIGKILL process ``index``, as a crash would; returns the worker processes it had
        started (images, AI), which nothing kills with it."""
        process = self.running.pop(index)
        workers = descendants(process.pid)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        return workers

    def log_text(self, index: int) -> str:
        """The end of each log process ``index`` wrote, every start of it."""
        return "\n".join(path.read_text(errors="replace")[-3000:] for path in self.logs
                         if path.name.startswith(f"process{index}-"))

    async def stop(self, timeout: float = 60) -> None:
        """SIGINT, as an operator's Ctrl-C; SIGKILL after ``timeout`` seconds, to the process
        and its worker processes (which would outlive it).  The offline server keeps running
        meanwhile (the bots close their connections to it)."""
        for process in self.running.values():
            process.send_signal(signal.SIGINT)
        for index, process in self.running.items():
            try:
                await asyncio.to_thread(process.wait, timeout)
            except subprocess.TimeoutExpired:
                print(f"bot process {index} did not stop in {timeout:.0f} s of SIGINT: killed",
                      file=sys.stderr, flush=True)
                workers = descendants(process.pid)
                process.kill()
                for pid in workers:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                await asyncio.to_thread(process.wait)
        self.running.clear()
        for file in self._files:
            file.close()
        self._files.clear()

    def problems(self) -> dict[str, list[str]]:
        """The ERROR, CRITICAL and traceback lines of each log, by log file name."""
        found: dict[str, list[str]] = {}
        for log in self.logs:
            with contextlib.suppress(OSError):
                lines = [line for line in log.read_text(errors="replace").splitlines()
                         if PROBLEM.search(line)]
                if lines:
                    found[log.name] = lines
        return found
