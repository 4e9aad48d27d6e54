"""An offline Discord (REST API v10 + gateway) for end-to-end tests of the real discord.py client.

See README.md in this folder. The usual entry points::

    server = await OfflineDiscordServer().start()
    guild = server.add_guild("Table")
    general = server.add_text_channel(guild, "general")
    alice = server.add_user("alice", guild=guild)
    async with running_client(server, bot):
        handle = await alice.run("/game new players:3", channel=general)
        response = await handle.response()
"""

from .errors import DiscordAPIError, Fault, RecordedRequest, UploadedFile
from .gateway import GatewayConnection, GatewayLogEntry, GatewaySession
from .harness import patched_discord, running_client
from .interactions import (
    DISCORD_ACK_TIMEOUT,
    TEST_ACK_TIMEOUT,
    WAIT_TIMEOUT,
    CallbackRecord,
    CallbackType,
    InteractionFailed,
    InteractionHandle,
    InteractionType,
    RejectedCallback,
)
from .models import (
    Channel,
    ChannelType,
    ComponentType,
    Guild,
    Intent,
    Member,
    MessageFlag,
    OptionType,
    Overwrite,
    Perm,
    Role,
    StoredAttachment,
    StoredMessage,
    User,
)
from .scripted import ScriptedUser, ScriptError, parse_command_line
from .server import OfflineDiscordServer, OfflineDiscordTimeout

__all__ = [
    "DISCORD_ACK_TIMEOUT",
    "TEST_ACK_TIMEOUT",
    "WAIT_TIMEOUT",
    "CallbackRecord",
    "CallbackType",
    "Channel",
    "ChannelType",
    "ComponentType",
    "DiscordAPIError",
    "Fault",
    "GatewayConnection",
    "GatewayLogEntry",
    "GatewaySession",
    "Guild",
    "Intent",
    "InteractionFailed",
    "InteractionHandle",
    "InteractionType",
    "Member",
    "MessageFlag",
    "OfflineDiscordServer",
    "OfflineDiscordTimeout",
    "OptionType",
    "Overwrite",
    "Perm",
    "RecordedRequest",
    "RejectedCallback",
    "Role",
    "ScriptError",
    "ScriptedUser",
    "StoredAttachment",
    "StoredMessage",
    "UploadedFile",
    "User",
    "parse_command_line",
    "patched_discord",
    "running_client",
]
