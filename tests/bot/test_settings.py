"""Settings from the environment and .env, validated with one clear sentence per problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_DATABASE_URL,
    Settings,
    SettingsError,
    load_settings,
    parse_env_file,
)

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
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.shard_ids is None and settings.owns_guild(12345 << 22)
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


def test_the_database_url_and_the_older_path_setting() -> None:
    base = {"DISCORD_TOKEN": TOKEN}
    pg = "postgresql://governor:secret@db.internal:5432/governor"
    settings = load_settings({**base, "DATABASE_URL": pg}, None)
    assert settings.database_url == pg
    assert "secret" not in repr(settings)
    older = load_settings({**base, "DATABASE_PATH": "/data/governor.db"}, None)
    assert older.database_url == "sqlite:////data/governor.db"
    with pytest.raises(SettingsError, match="not both"):
        load_settings({**base, "DATABASE_URL": pg, "DATABASE_PATH": "x.db"}, None)
    with pytest.raises(SettingsError, match="DATABASE_URL: unknown database URL scheme"):
        load_settings({**base, "DATABASE_URL": "mysql://x/y"}, None)


@pytest.mark.parametrize(("shards", "count", "ids"), [
    ("0-3", "8", (0, 1, 2, 3)), ("5", "8", (5,)), ("0-1,6", "8", (0, 1, 6)), ("", "2", (0, 1)),
])
def test_the_shards_of_this_process(shards: str, count: str, ids: tuple[int, ...]) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "SHARDS": shards, "SHARD_COUNT": count},
                             None)
    assert settings.shard_ids == ids
    assert settings.shard_count == int(count)


@pytest.mark.parametrize(("shards", "count", "message"), [
    ("0-3", "", "SHARD_COUNT must be"), ("0-8", "8", "from 0 to 7"), ("3-1", "8", "lowest first"),
    ("a", "8", "SHARDS must be"), ("0", "0", "SHARD_COUNT must be"),
])
def test_bad_shards_are_one_sentence(shards: str, count: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        load_settings({"DISCORD_TOKEN": TOKEN, "SHARDS": shards, "SHARD_COUNT": count}, None)


def test_a_guild_belongs_to_the_shard_discord_sends_its_events_to() -> None:
    """(guild_id >> 22) % shard_count; direct messages go to shard 0."""
    settings = Settings(token=TOKEN, shard_ids=(0, 1), shard_count=4)
    assert [settings.owns_guild(n << 22) for n in range(8)] == [True, True, False, False] * 2
    assert settings.owns_guild(None)
    assert not Settings(token=TOKEN, shard_ids=(2,), shard_count=4).owns_guild(None)
