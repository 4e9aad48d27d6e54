"""``python -m bot`` in a process of its own, pointed at an offline Discord server: the real
command line, its settings from the environment, the way an operator runs it.

    OFFLINE_DISCORD_API=http://127.0.0.1:PORT/api/v10 \
    OFFLINE_DISCORD_GATEWAY=ws://127.0.0.1:PORT/gateway \
    python -m tests.e2e.bot_process --shards 0 --shard-count 2

Only the two addresses :func:`tests.offline_discord.patched_discord` changes are changed here,
before the bot starts; everything else is the bot's own ``main``.
"""

from __future__ import annotations

import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.__main__ import main

if __name__ == "__main__":
    Route.BASE = os.environ["OFFLINE_DISCORD_API"]
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["OFFLINE_DISCORD_GATEWAY"])
    sys.exit(main(sys.argv[1:]))
