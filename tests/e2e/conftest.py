"""Fixtures for end-to-end tests against the offline Discord server."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client import GovernorBot
from bot.settings import Settings
from tests.offline_discord import (
    Channel,
    Guild,
    OfflineDiscordServer,
    Perm,
    Role,
    ScriptedUser,
    running_client,
)

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder is marked ``e2e``, new files too: ``-m "not e2e"`` is the fast
    tier (README).  They run first, then the other long tests (``slow``): under pytest-xdist
    the long games start early and the many short tests fill the workers in behind them,
    instead of one long test ending the run."""
    e2e = [item for item in items if item.path.is_relative_to(HERE)]
    for item in e2e:
        item.add_marker(pytest.mark.e2e)
    marked = set(e2e)
    slow = [item for item in items if item not in marked and item.get_closest_marker("slow")]
    marked.update(slow)
    items[:] = [*e2e, *slow, *(item for item in items if item not in marked)]


@dataclass
class World:
    """A small guild: #general, a Manage Server holder, two ordinary members (bob's DMs closed)."""

    server: OfflineDiscordServer
    guild: Guild
    general: Channel
    manager_role: Role
    manager: ScriptedUser
    alice: ScriptedUser
    bob: ScriptedUser


@pytest.fixture
async def discord_server() -> AsyncIterator[OfflineDiscordServer]:
    server = OfflineDiscordServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def world(discord_server: OfflineDiscordServer) -> World:
    server = discord_server
    guild = server.add_guild("Offline Table")
    general = server.add_text_channel(guild, "general")
    manager_role = server.add_role(guild, "Game Master", permissions=Perm.MANAGE_GUILD)
    manager = server.add_user("gm", guild=guild, roles=[manager_role])
    alice = server.add_user("alice", guild=guild, locale="de")
    bob = server.add_user("bob", guild=guild, dms_open=False)
    return World(server, guild, general, manager_role, manager, alice, bob)


# ----------------------------------------------------------------------------------------------
# Governor, the real bot, on a temporary database (tests/e2e/test_bot_*.py)
# ----------------------------------------------------------------------------------------------


class NoShuffle(random.Random):
    """A seeded random source that keeps the lobby's seating order (tests know who starts)."""

    def shuffle(self, x: Any) -> None:
        return None


class OfflineGovernor(GovernorBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # skip discord.py's 5 s pause before a re-IDENTIFY


@pytest.fixture
def bot_settings(tmp_path: Path, world: World) -> Settings:
    return Settings(
        token=world.server.bot_token,
        database_url=str(tmp_path / "governor.db"),
        dev_guild_id=world.guild.id,
        ai_budget=400,  # the strong seats' flow is tested end to end; its strength by bench.ai
    )


@pytest.fixture
def make_governor(bot_settings: Settings) -> Callable[..., OfflineGovernor]:
    """Build a bot (not started) on the test's database; keyword arguments go to GovernorBot."""

    def make(**options: Any) -> OfflineGovernor:
        options.setdefault("rng", NoShuffle(7))
        options.setdefault("guild_ready_timeout", 0.05)
        return OfflineGovernor(bot_settings, **options)

    return make


@pytest.fixture
async def governor(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> AsyncIterator[OfflineGovernor]:
    """Governor connected to the offline server, its commands synced to the test guild."""
    bot = make_governor()
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        yield bot
        await bot.wait_idle()
    world.server.assert_no_failed_interactions()
