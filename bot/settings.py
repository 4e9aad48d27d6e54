"""Settings of one bot process, read once at start-up from the environment and ``.env``.

The environment wins over the file, so a deployment can override a value without editing it.
Everything is validated here, in one place: the rest of the bot receives a :class:`Settings`
value and never reads the environment itself.  The token is kept out of ``repr`` and logs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.search import DEFAULT_BUDGET
from storage.database import parse_url

DEFAULT_DATABASE_URL = "sqlite:///governor.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOCALES = ("en", "es", "pt")
MAX_AI_BUDGET = 1_000_000  # about a minute of thinking per decision: surely a typo beyond

# A bot token is three URL-safe base64 parts separated by dots (user id, timestamp, HMAC).
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
_ENV_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")


class SettingsError(Exception):
    """A setting is missing or invalid; ``str(error)`` is one sentence meant for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False)
    database_url: str = field(default=DEFAULT_DATABASE_URL, repr=False)
    """``sqlite:///FILE`` (the default; a plain path too) or ``postgresql://USER:PASS@HOST/DB``
    (kept out of ``repr``: it may hold a password)."""
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_locale: str = "en"
    ai_budget: int = DEFAULT_BUDGET
    """The strong AI's engine actions per decision (about a second of CPU by default)."""
    shard_ids: tuple[int, ...] | None = None
    """The Discord shards this process runs (``None``: one process, no sharding)."""
    shard_count: int | None = None
    """How many shards the bot has in all, over every process."""

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process serves ``guild_id``'s games: Discord sends a server's events to
        shard ``(guild_id >> 22) % shard_count``, and direct messages to shard 0."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids


def parse_shards(text: str, count: int) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0-3,6"`` as shard ids below ``count``; :class:`SettingsError`
    otherwise."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, sep, high = part.partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            raise SettingsError(f"SHARDS must be shard numbers and ranges such as 0-3 or 0-3,6, "
                                f"not {text!r}.")
        first, last = int(low), int(high) if sep else int(low)
        if first > last or last >= count:
            raise SettingsError(f"SHARDS {text!r} must name shards from 0 to {count - 1} "
                                f"(SHARD_COUNT is {count}), lowest first.")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def shard_settings(shards: str, count: str) -> tuple[tuple[int, ...] | None, int | None]:
    """``(shard_ids, shard_count)`` from the texts of ``SHARDS`` and ``SHARD_COUNT`` (or the
    command line's ``--shards``/``--shard-count``); both empty: no sharding."""
    if not shards and not count:
        return None, None
    if not count.isdigit() or int(count) < 1:
        raise SettingsError(f"SHARD_COUNT must be the number of shards over every process (a "
                            f"whole number, at least 1), not {count!r}.")
    total = int(count)
    return (parse_shards(shards, total) if shards else tuple(range(total))), total


def parse_env_file(text: str) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file: comments, blank lines, ``export`` and quotes are
    understood; an unquoted value ends at `` #``.  Lines that are not assignments are ignored."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _ENV_LINE.fullmatch(line)
        if match is None:
            continue
        key, value = match.group(1), match.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].strip()
        values[key] = value
    return values


def read_env_file(path: Path) -> dict[str, str]:
    """The assignments of ``path``; an absent file is no error (the environment may suffice)."""
    try:
        return parse_env_file(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise SettingsError(f"Cannot read {path}: {exc.strerror or exc}.") from None


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """Settings from ``environ`` (default: ``os.environ``) over ``env_file``.

    Raises :class:`SettingsError` with one sentence naming the setting and how to fix it."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update(os.environ if environ is None else environ)

    def get(key: str) -> str:
        return values.get(key, "").strip()

    token = get("DISCORD_TOKEN")
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: put the bot token from the Discord Developer Portal "
            "(Bot -> Reset Token) in .env or in the environment."
        )
    if token.lower().startswith("bot "):
        token = token[4:].strip()
    if _TOKEN_SHAPE.fullmatch(token) is None:
        raise SettingsError(
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots): "
            "copy it again from the Discord Developer Portal (Bot -> Reset Token)."
        )

    database = get("DATABASE_URL")
    legacy_path = get("DATABASE_PATH")
    if legacy_path and database:
        raise SettingsError("Set DATABASE_URL or DATABASE_PATH, not both (DATABASE_PATH=FILE "
                            "is the older spelling of DATABASE_URL=sqlite:///FILE).")
    database = database or (f"sqlite:///{legacy_path}" if legacy_path else DEFAULT_DATABASE_URL)
    try:
        parse_url(database)
    except ValueError as exc:
        raise SettingsError(f"DATABASE_URL: {exc}.") from None
    shard_ids, shard_count = shard_settings(get("SHARDS"), get("SHARD_COUNT"))
    guild_text = get("DEV_GUILD_ID")
    dev_guild: int | None = None
    if guild_text:
        if not guild_text.isdigit() or int(guild_text) <= 0:
            raise SettingsError(
                f"DEV_GUILD_ID must be a server id (a number), not {guild_text!r}; "
                "leave it empty to sync no development server."
            )
        dev_guild = int(guild_text)

    level = (get("LOG_LEVEL") or "INFO").upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")

    locale = (get("DEFAULT_LOCALE") or "en").lower()
    if locale not in LOCALES:
        raise SettingsError(
            f"DEFAULT_LOCALE must be one of {', '.join(LOCALES)}, not {locale!r}."
        )

    budget_text = get("AI_BUDGET")
    budget = DEFAULT_BUDGET
    if budget_text:
        if not budget_text.isdigit() or not 1 <= int(budget_text) <= MAX_AI_BUDGET:
            raise SettingsError(
                f"AI_BUDGET must be a whole number from 1 to {MAX_AI_BUDGET} (engine actions "
                f"the strong AI plays out per decision), not {budget_text!r}; leave it empty "
                f"for {DEFAULT_BUDGET}.")
        budget = int(budget_text)

    return Settings(
        token=token,
        database_url=database,
        dev_guild_id=dev_guild,
        log_level=level,
        default_locale=locale,
        ai_budget=budget,
        shard_ids=shard_ids,
        shard_count=shard_count,
    )
