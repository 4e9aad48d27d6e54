"""The permissions a game needs in its channel, and the words for the missing ones.

A game channel needs the bot to see it, post in it, show embeds and images in it and read its
history (the lobby is an embed, the table an image edited in place).  In a thread, posting is
Send Messages in Threads.  ``/game new`` and Start check the bot's resolved permissions in the
channel (the interaction's ``app_permissions``) and refuse with the exact list of what is missing
(:class:`bot.errors.MissingPermissions`); a post that fails later is handled by
:class:`bot.publisher.DiscordPublisher` (the players are told, the game resumes once posting
works again).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from .i18n import CATALOG, Catalog

GAME_CHANNEL: tuple[str, ...] = (
    "view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
)
"""What a game needs in a text channel, in the order Discord's settings list them."""
IN_THREAD: tuple[str, ...] = (
    "view_channel", "send_messages_in_threads", "embed_links", "attach_files",
    "read_message_history",
)
"""The same in a thread (posting there is Send Messages in Threads)."""
STORY_THREAD: tuple[str, ...] = ("create_public_threads", "send_messages_in_threads")
"""Added when the game tells its story in a thread of its own channel."""


def needed(channel: object, *, story_thread: bool = False) -> tuple[str, ...]:
    """The permissions a game needs in ``channel`` (a thread needs the thread variants; a game
    whose story goes to a thread of its own also needs to create one and post in it)."""
    if isinstance(channel, discord.Thread):
        return IN_THREAD
    return (*GAME_CHANNEL, *STORY_THREAD) if story_thread else GAME_CHANNEL


IMPLIED: dict[str, tuple[str, ...]] = {
    "send_messages": ("embed_links", "attach_files"),
    "send_messages_in_threads": ("embed_links", "attach_files"),
}
"""Discord takes these away with the key (no Send Messages: no embeds, no files either); an
admin who grants the key gives them back unless they are denied too."""


def missing(permissions: discord.Permissions, wanted: Sequence[str] = GAME_CHANNEL
            ) -> list[str]:
    """The names in ``wanted`` that ``permissions`` lacks, as an admin must grant them: only
    View Channel when the channel cannot be seen (Discord then takes everything away), and not
    what a missing Send Messages takes away with it (:data:`IMPLIED`).  Administrator lacks
    nothing."""
    if permissions.administrator:
        return []
    lacking = [name for name in wanted if not getattr(permissions, name)]
    if "view_channel" in lacking:
        return ["view_channel"]
    implied = {name for key in lacking for name in IMPLIED.get(key, ())}
    return [name for name in lacking if name not in implied]


def bot_permissions(channel: object) -> discord.Permissions | None:
    """The bot's resolved permissions in a guild channel from the gateway cache; ``None`` when
    they cannot be known (a DM, an uncached channel or member)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    return channel.permissions_for(me)


def can_post(channel: object, names: Sequence[str]) -> bool:
    """Whether ``channel``, missing ``names``, still takes a plain text message."""
    post = "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
    return "view_channel" not in names and post not in names


def permission_names(names: Sequence[str], lang: str, catalog: Catalog = CATALOG) -> str:
    """"Attach Files and Embed Links" in ``lang``."""
    return catalog.join(lang, [catalog.t(lang, f"perm.{name}") for name in names])
