"""Settings from the environment and .env, validated with one clear sentence per problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE_PATH, SettingsError, load_settings, parse_env_file

TOKEN = "MTE4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789"


def test_env_file_syntax() -> None:
    text = """
    # a comment
    DISCORD_TOKEN="quoted value"
    export LOG_LEVEL=debug   # trailing comment
    DATABASE_PATH='/data/governor.db'
    not an assignment
    EMPTY=
    """
    assert parse_env_file(text) == {
        "DISCORD_TOKEN": "quoted value",
        "LOG_LEVEL": "debug",
        "DATABASE_PATH": "/data/governor.db",
        "EMPTY": "",
    }


def test_defaults_and_the_environment_over_the_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=warning\nDEFAULT_LOCALE=es\n")
    settings = load_settings({"LOG_LEVEL": "debug", "DEV_GUILD_ID": "123"}, env_file)
    assert settings.token == TOKEN
    assert settings.log_level == "DEBUG"
    assert settings.default_locale == "es"
    assert settings.dev_guild_id == 123
    assert settings.database_path == DEFAULT_DATABASE_PATH
    assert TOKEN not in repr(settings)


def test_a_missing_env_file_is_fine(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": f"Bot {TOKEN}"}, tmp_path / "absent")
    assert settings.token == TOKEN


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not a token"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "general"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": TOKEN, "DEFAULT_LOCALE": "fr"}, "DEFAULT_LOCALE must be one of"),
    ],
)
def test_invalid_settings_give_one_sentence(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings(environ, None)
    text = str(info.value)
    assert message in text
    assert text.endswith(".") and "\n" not in text
