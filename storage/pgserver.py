"""A throwaway PostgreSQL server of the machine's own binaries, for the tests and the benchmarks.

    with TemporaryServer.start(tmp_dir) as server:
        url = server.create_database("t1")      # postgresql://governor@127.0.0.1:PORT/t1

``initdb`` into a fresh directory, ``postgres`` on a free loopback port, trust authentication for
its one role; stopped (fast shutdown) and its files left to the caller's temporary directory at
the end.  PostgreSQL refuses to run as root: when this process is root, the server runs as the
``postgres`` system user (Debian's packages create it) or else ``nobody``.

:func:`find_binaries` looks on ``PATH``, then in ``$GOVERNOR_PG_BIN`` and Debian's
``/usr/lib/postgresql/<version>/bin``; :class:`Unavailable` says why none could be started, so that
a test can be skipped with that reason.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROLE = "governor"
PORT_TRIES = 5


class Unavailable(RuntimeError):
    """No PostgreSQL server could be started here (the message says why)."""


def find_binaries() -> Path:
    """The directory of ``initdb``, ``pg_ctl`` and ``postgres``."""
    candidates: list[Path] = []
    if os.environ.get("GOVERNOR_PG_BIN"):
        candidates.append(Path(os.environ["GOVERNOR_PG_BIN"]))
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = sorted((p for p in debian.iterdir() if p.name.isdigit()),
                          key=lambda p: int(p.name), reverse=True)
        candidates += [v / "bin" for v in versions]
    for directory in candidates:
        if all((directory / tool).exists() for tool in ("initdb", "pg_ctl", "postgres")):
            return directory
    raise Unavailable("no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH, in "
                      "$GOVERNOR_PG_BIN or /usr/lib/postgresql/*/bin; install Debian's "
                      "postgresql package")


def _run_as() -> str | None:
    """The user to run the server as: ``None`` (this one) unless this process is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise Unavailable("running as root and neither a 'postgres' nor a 'nobody' user exists")


def free_port() -> int:
    """A loopback port free now (the kernel's choice); another process may take it before
    it is bound."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class TemporaryServer:
    """One running server; :meth:`start` makes it, :meth:`stop` ends it."""

    directory: Path
    port: int
    bin_dir: Path
    user: str | None
    durable: bool = False

    @classmethod
    def start(cls, directory: Path, *, durable: bool = False) -> TemporaryServer:
        """Initialize a cluster in ``directory`` (created; must not hold one) and start it.

        ``durable=False`` (the tests): ``fsync``, ``synchronous_commit`` and full-page writes off,
        as a throwaway database can afford.  ``durable=True`` (the benchmarks): PostgreSQL's own
        defaults, a commit on disk when it returns, as in production."""
        bin_dir = find_binaries()
        user = _run_as()
        directory.mkdir(parents=True, exist_ok=True)
        data = directory / "data"
        if user is not None:
            info = pwd.getpwnam(user)
            os.chown(directory, info.pw_uid, info.pw_gid)
            for parent in directory.parents:  # the server must reach its directory
                if parent.stat().st_mode & 0o001 == 0:
                    os.chmod(parent, parent.stat().st_mode | 0o001)
        _call([str(bin_dir / "initdb"), "-D", str(data), "-U", ROLE, "--auth=trust",
               "--encoding=UTF8", "--locale=C", "--no-sync"], user, "initdb")
        # A free port can be taken by another process before the server binds it (tests run
        # in parallel, each starting servers): then another port, a few times.
        attempt = 1
        while True:
            server = cls(directory, free_port(), bin_dir, user, durable)
            try:
                server.start_again()
            except Unavailable as exc:
                if "could not bind" in str(exc) and attempt < PORT_TRIES:
                    attempt += 1
                    continue
                raise
            return server

    def start_again(self) -> None:
        """Start the server (stopped by :meth:`stop`) on its directory and port: the tests of
        a database outage stop it, then bring it back with everything it held."""
        settings = [
            "-c", "listen_addresses=127.0.0.1", "-c", f"port={self.port}",
            "-c", f"unix_socket_directories={self.directory}", "-c", "max_connections=200",
            "-c", "shared_buffers=64MB", "-c", "max_locks_per_transaction=256",
        ]
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off",
                         "-c", "full_page_writes=off"]
        log = self.directory / "server.log"
        _call([str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), "-l", str(log),
               "-w", "-t", "60", "-o", " ".join(settings), "start"], self.user, "pg_ctl start",
              log=log)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{ROLE}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run ``sql`` with the server's own ``psql`` (no driver needed); returns its output."""
        psql = self.bin_dir / "psql"
        command = [str(psql) if psql.exists() else "psql", "-X", "-q", "-A", "-t",
                   "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
                   "-U", ROLE, "-d", database, "-c", sql]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new database (a copy of ``template`` when given); returns its URL."""
        clause = f" TEMPLATE {template}" if template else ""
        self.psql(f"CREATE DATABASE {name}{clause}")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        _call([str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast",
               "-w", "stop"], self.user, "pg_ctl stop")

    def __enter__(self) -> TemporaryServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _call(command: list[str], user: str | None, what: str, log: Path | None = None) -> None:
    # As another user, with that user's group and none of ours: a directory of root's group
    # would otherwise be judged by its group bits.
    group: int | None = None if user is None else pwd.getpwnam(user).pw_gid
    extra: list[int] | None = None if user is None else []
    done = subprocess.run(command, capture_output=True, text=True, check=False, user=user,
                          group=group, extra_groups=extra, cwd="/", stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        tail = ""
        if log is not None and log.exists():
            tail = log.read_text(errors="replace")[-2000:]
        raise Unavailable(f"{what} failed ({done.returncode}): {done.stderr.strip()[-2000:]}"
                          f"{tail}")


@contextlib.contextmanager
def temporary_server(directory: Path, *, durable: bool = False) -> Iterator[TemporaryServer]:
    server = TemporaryServer.start(directory, durable=durable)
    try:
        yield server
    finally:
        server.stop()

