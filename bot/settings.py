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

DEFAULT_DATABASE_PATH = Path("governor.db")
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
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_locale: str = "en"
    ai_budget: int = DEFAULT_BUDGET
    """The strong AI's engine actions per decision (about a second of CPU by default)."""


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

    database = get("DATABASE_PATH")
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
        database_path=Path(database) if database else DEFAULT_DATABASE_PATH,
        dev_guild_id=dev_guild,
        log_level=level,
        default_locale=locale,
        ai_budget=budget,
    )
