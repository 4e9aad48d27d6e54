"""``python -m bot``: clear refusals without tracebacks, and the token never in the logs."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import discord
import pytest

import bot.__main__ as entry
from bot.logsetup import REDACTED, configure_logging
from bot.settings import Settings
from tests.offline_discord import OfflineDiscordServer, patched_discord

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in (
        "DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARDS", "SHARD_COUNT", "DEV_GUILD_ID",
        "LOG_LEVEL", "DEFAULT_LOCALE")}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "governor: DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "hunter2"}, "governor: DISCORD_TOKEN does not look like a bot token"),
    ],
)
def test_missing_or_malformed_token_exits_with_one_sentence(
    tmp_path: Path, env: dict[str, str], message: str
) -> None:
    proc = run_bot(tmp_path, env)
    assert proc.returncode == 2
    assert proc.stderr.startswith(message)
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "hunter2" not in proc.stderr
    assert not (tmp_path / "governor.db").exists()


def test_token_is_read_from_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=still-wrong\n")
    proc = run_bot(tmp_path, {})
    assert proc.returncode == 2 and "does not look like a bot token" in proc.stderr


def test_refused_token_is_one_sentence(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    async def refused(settings: Settings) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "a.b.c")
    monkeypatch.setattr(entry, "run", refused)
    monkeypatch.setattr(entry, "configure_logging", lambda *a, **k: None)
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert err == (
        "governor: Discord refused the token in DISCORD_TOKEN; reset it in the Developer Portal "
        "(Bot -> Reset Token) and update .env.\n"
    )


async def test_a_token_refused_by_discord_never_reaches_the_log(tmp_path: Path) -> None:
    """Against the offline Discord a wrong token gets 401 -> LoginFailure; with DEBUG logging
    nothing logged contains the token, and a record that does is redacted."""
    wrong = "MTIz.wrong.not-the-real-secret-token"
    stream = io.StringIO()
    root, library = logging.getLogger(), logging.getLogger("discord")
    saved_handlers, saved_levels = root.handlers[:], (root.level, library.level)
    configure_logging("DEBUG", secrets=[wrong], stream=stream)
    try:
        async with OfflineDiscordServer() as server:
            with patched_discord(server):
                settings = Settings(token=wrong, database_url=str(tmp_path / "g.db"))
                with pytest.raises(discord.LoginFailure):
                    await entry.run(settings)
        logging.getLogger("bot").warning("leaked %s", wrong)
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_levels[0])
        library.setLevel(saved_levels[1])
    output = stream.getvalue()
    assert "logging in using static token" in output
    assert wrong not in output and f"leaked {REDACTED}" in output


async def test_an_unusable_database_path_is_one_sentence(tmp_path: Path) -> None:
    """The storage cannot be opened: a StartupError naming DATABASE_URL, no half-started bot."""
    from bot.client import StartupError

    before = set(threading.enumerate())
    async with OfflineDiscordServer() as server:
        with patched_discord(server):
            settings = Settings(token=server.bot_token, database_url=str(tmp_path / "no" / "g.db"))
            with pytest.raises(StartupError) as info:
                await entry.run(settings)
    # aiosqlite stops its worker thread after a failed connect by posting to this loop: wait
    # until that thread is done, before the test's loop closes (60 s only guard against a hang).
    loop = asyncio.get_running_loop()
    guard = loop.time() + 60
    while [t for t in set(threading.enumerate()) - before
           if "_connection_worker_thread" in t.name and t.is_alive()]:
        assert loop.time() < guard, "aiosqlite's worker thread did not stop"
        await asyncio.sleep(0.01)
    await asyncio.sleep(0)
    text = str(info.value)
    assert text.startswith(f"Cannot open the database {tmp_path / 'no' / 'g.db'}")
    assert text.endswith("check DATABASE_URL.")


async def test_an_unreachable_postgresql_is_one_sentence_without_its_password() -> None:
    """A PostgreSQL that refuses the connection: one sentence naming the database without the
    URL's password, and DATABASE_URL."""
    from bot.client import StartupError

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://governor:hunter2@127.0.0.1:{port}/governor"
    async with OfflineDiscordServer() as server:
        with patched_discord(server):
            settings = Settings(token=server.bot_token, database_url=url)
            with pytest.raises(StartupError) as info:
                await entry.run(settings)
    text = str(info.value)
    assert text.startswith(
        f"Cannot open the database postgresql://governor:***@127.0.0.1:{port}/governor (")
    assert "cannot connect to PostgreSQL" in text and text.endswith("check DATABASE_URL.")
    assert "hunter2" not in text


def test_startup_error_exit(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    from bot.client import StartupError

    async def broken(settings: Settings) -> None:
        raise StartupError("Cannot open the database x (denied); check DATABASE_URL.")

    monkeypatch.setenv("DISCORD_TOKEN", "a.b.c")
    monkeypatch.setattr(entry, "run", broken)
    monkeypatch.setattr(entry, "configure_logging", lambda *a, **k: None)
    assert entry.main([]) == 2
    assert capsys.readouterr().err == (
        "governor: Cannot open the database x (denied); check DATABASE_URL.\n"
    )
