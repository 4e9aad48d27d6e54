"""Connecting a real discord.py client to the offline server.

Only two addresses of discord.py are changed, and restored afterwards:

* ``discord.http.Route.BASE``: the REST base URL;
* ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``: a plain ``discord.Client`` never asks
  ``GET /gateway/bot`` (only ``AutoShardedClient`` does), it connects straight to this default.
  ``GET /gateway/bot`` and READY's ``resume_gateway_url`` point at the offline server as well.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .interactions import WAIT_TIMEOUT
from .server import OfflineDiscordServer

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def patched_discord(server: OfflineDiscordServer) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at ``server`` for the duration."""
    old_base = Route.BASE
    old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = server.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def running_client(
    server: OfflineDiscordServer,
    client: ClientT,
    *,
    ready_timeout: float = WAIT_TIMEOUT,
) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``server``, wait until it is ready, close it on exit.

    Tip: construct the client with ``guild_ready_timeout=0.05`` (discord.py waits that long after
    the last GUILD_CREATE before ``on_ready``; the default is 2 s) and override
    ``before_identify_hook`` to skip discord.py's 5 s sleep before a re-IDENTIFY.
    """
    with patched_discord(server):
        task = asyncio.create_task(client.start(server.bot_token), name="offline-discord-client")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait(
                {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if task in done:
                task.result()  # raises the start-up error
                raise RuntimeError("the client stopped before becoming ready")
            if ready not in done:
                raise TimeoutError(f"the client was not ready within {ready_timeout}s")
            # With a short guild_ready_timeout a stalled event loop can make discord.py call
            # on_ready before a GUILD_CREATE it already received was parsed: the test starts
            # once every guild of the bot is in its cache, however loaded the machine is.
            guilds = [g.id for g in server.guilds.values()
                      if client.intents.guilds and server.bot_user.id in g.members
                      and _on_its_shards(client, g.id)]
            await server.wait_for(
                lambda: all(client.get_guild(g) is not None for g in guilds) or None,
                timeout=ready_timeout, what="the bot's guilds in its cache",
            )
            yield client
        finally:
            ready.cancel()
            if not client.is_closed():
                await client.close()
            try:
                await asyncio.wait_for(task, timeout=WAIT_TIMEOUT)
            except (asyncio.CancelledError, TimeoutError):
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready


def _on_its_shards(client: discord.Client, guild_id: int) -> bool:
    """Whether Discord sends ``guild_id``'s events to one of ``client``'s shards."""
    count = client.shard_count or 1
    if isinstance(client, discord.AutoShardedClient):
        ids = client.shard_ids if client.shard_ids is not None else range(count)
    else:
        ids = [client.shard_id or 0]
    return (guild_id >> 22) % count in ids
