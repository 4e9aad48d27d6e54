"""What ``python -m bench.bot --processes N`` measures of the bot's processes: their CPU time
(``/proc/PID/stat``: a process's own threads, and apart from them its child processes', the
image and AI workers, those that ended and those that run), the machine's and PostgreSQL's.
Linux only.  The processes themselves are :class:`tests.e2e.processes.BotProcesses`, the
harness of ``tests/e2e/test_shards.py``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.processes import children_by_parent, proc_stat

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# --- shards -----------------------------------------------------------------------------------

def shard_groups(processes: int, shard_count: int) -> list[tuple[int, ...]]:
    """The shards of each process: ``shard_count`` split evenly, in order (``2, 4`` -> ``(0, 1),
    (2, 3)``)."""
    if processes < 1 or shard_count % processes:
        raise ValueError(f"{shard_count} shards cannot be split evenly over {processes} "
                         f"processes")
    size = shard_count // processes
    return [tuple(range(i * size, (i + 1) * size)) for i in range(processes)]


# --- CPU time ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Cpu:
    """CPU seconds (user + system) of a process: its own threads, and its child processes
    (the image and AI workers; ended ones and running ones, and theirs)."""

    own: float = 0.0
    children: float = 0.0

    @property
    def total(self) -> float:
        return self.own + self.children

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(self.own - other.own, self.children - other.children)


def process_cpu(pid: int, children: Mapping[int, list[int]] | None = None) -> Cpu:
    """``pid``'s CPU time so far; a process that is gone counts nothing."""
    children = children_by_parent() if children is None else children
    fields = proc_stat(pid)
    if fields is None:
        return Cpu()
    own = (int(fields[11]) + int(fields[12])) / TICK
    ended = (int(fields[13]) + int(fields[14])) / TICK  # children already waited for
    running = sum(process_cpu(child, children).total for child in children.get(pid, ()))
    return Cpu(own, ended + running)


def processes_cpu(pids: Mapping[int, int]) -> dict[int, Cpu]:
    """The CPU time so far of each process of ``pids`` (by index: ``BotProcesses.pids()``)."""
    children = children_by_parent()
    return {index: process_cpu(pid, children) for index, pid in pids.items()}


@dataclass(frozen=True, slots=True)
class MachineCpu:
    """The whole machine's CPU time (``/proc/stat``, every core), in clock ticks."""

    busy: int = 0
    total: int = 0

    @classmethod
    def now(cls) -> MachineCpu:
        try:
            with open("/proc/stat") as stat:
                fields = [int(x) for x in stat.readline().split()[1:]]
        except (OSError, ValueError):
            return cls()
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return cls(sum(fields[:8]) - idle, sum(fields[:8]))

    def seconds_since(self, before: MachineCpu) -> float:
        """CPU seconds spent since ``before``, every core together."""
        return (self.busy - before.busy) / TICK

    def share_since(self, before: MachineCpu) -> float:
        """How busy the machine's cores were since ``before`` (1.0: every core, all the time)."""
        total = self.total - before.total
        return round((self.busy - before.busy) / total, 3) if total > 0 else 0.0


def postmaster_pid(directory: Path) -> int | None:
    """The PostgreSQL server's main process, whose children are its connections and workers
    (``storage.pgserver``'s cluster: ``DIRECTORY/data/postmaster.pid``)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int((directory / "data" / "postmaster.pid").read_text().split()[0])
    return None
