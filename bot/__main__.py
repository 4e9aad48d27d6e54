"""``python -m bot``: run the bot.  ``python -m bot sync --global`` (or ``--guild ID``) syncs the
slash commands once and exits; a normal start never syncs globally.  ``python -m bot --shards 0-3
--shard-count 8`` runs shards 0 to 3 of 8 (README, "Running at scale").

Settings come from the environment and ``.env`` (see ``bot.settings``).  A missing or refused
token ends with one sentence on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
from collections.abc import Sequence

import aiohttp
import discord

from .client import GovernorBot, StartupError, governor_bot
from .logsetup import configure_logging
from .settings import Settings, SettingsError, load_settings, shard_settings

log = logging.getLogger("bot")

EXIT_CONFIG = 2


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Governor, the bot.")
    parser.add_argument("--shards", default="", metavar="IDS",
                        help="the shards this process runs, e.g. 0-3 or 0-3,6 (over SHARDS)")
    parser.add_argument("--shard-count", default="", metavar="N",
                        help="the bot's shards over every process (over SHARD_COUNT)")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="connect and serve (the default)")
    sync = sub.add_parser("sync", help="sync the slash commands once, then exit")
    where = sync.add_mutually_exclusive_group(required=True)
    where.add_argument("--global", dest="everywhere", action="store_true",
                       help="sync globally (takes up to an hour to show everywhere)")
    where.add_argument("--guild", type=int, help="sync to this server id only")
    return parser.parse_args(argv)


async def run(settings: Settings) -> None:
    async with governor_bot(settings) as bot:
        await bot.start(settings.token)


async def sync(settings: Settings, guild_id: int | None) -> int:
    # Commands belong to the application, not to a shard: one unsharded login syncs them.
    unsharded = dataclasses.replace(settings, shard_ids=None, shard_count=None)
    async with GovernorBot(unsharded, sync_dev_guild=False) as bot:
        await bot.login(settings.token)
        synced = await bot.sync_commands(guild_id=guild_id)
    where = "globally" if guild_id is None else f"to server {guild_id}"
    print(f"Synced {len(synced)} commands {where}.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = load_settings()
        if args.shards or args.shard_count:
            shard_ids, shard_count = shard_settings(
                args.shards or ",".join(map(str, settings.shard_ids or ())),
                args.shard_count or str(settings.shard_count or ""))
            settings = dataclasses.replace(settings, shard_ids=shard_ids, shard_count=shard_count)
    except SettingsError as exc:
        print(f"governor: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    configure_logging(settings.log_level, secrets=[settings.token])
    try:
        if args.command == "sync":
            return asyncio.run(sync(settings, None if args.everywhere else args.guild))
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(
            "governor: Discord refused the token in DISCORD_TOKEN; reset it in the Developer "
            "Portal (Bot -> Reset Token) and update .env.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    except StartupError as exc:
        print(f"governor: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except aiohttp.ClientConnectionError as exc:
        print(f"governor: cannot reach Discord ({exc}); check the network.", file=sys.stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print("governor: Discord refused the gateway intents the bot asked for.", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
