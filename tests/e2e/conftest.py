"""Fixtures for end-to-end tests against the offline Discord server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.offline_discord import (
    Channel,
    Guild,
    OfflineDiscordServer,
    Perm,
    Role,
    ScriptedUser,
)


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
