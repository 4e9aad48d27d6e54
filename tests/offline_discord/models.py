"""Data model of the offline Discord server: users, guilds, channels, messages.

Everything here is plain data plus ``to_payload`` methods that render Discord API v10
JSON shapes (snowflakes as strings, ISO-8601 timestamps).
"""

from __future__ import annotations

import datetime as dt
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000


class Perm:
    """Discord permission bits (https://discord.com/developers/docs/topics/permissions)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EXTERNAL_APPS = 1 << 50

    ALL = (1 << 51) - 1

    DEFAULT_EVERYONE = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CONNECT
        | SPEAK
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS
        | USE_EXTERNAL_APPS
    )
    # What the bot gets through its managed role unless the test says otherwise.
    DEFAULT_BOT = DEFAULT_EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS | MENTION_EVERYONE
    # In a DM with the bot user (see the note on app_permissions in the Discord docs).
    DM_APP = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    DM_APP |= ADD_REACTIONS | USE_EXTERNAL_EMOJIS | MENTION_EVERYONE | USE_APPLICATION_COMMANDS


class Intent:
    """Gateway intent bits."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
    ALL_KNOWN = (1 << 26) - 1


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GROUP_DM = 3
    GUILD_CATEGORY = 4
    GUILD_ANNOUNCEMENT = 5
    ANNOUNCEMENT_THREAD = 10
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (10, 11, 12)


class MessageFlag:
    SUPPRESS_EMBEDS = 1 << 2
    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_VOICE_MESSAGE = 1 << 13
    IS_COMPONENTS_V2 = 1 << 15


class ComponentType:
    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    SECTION = 9
    TEXT_DISPLAY = 10
    THUMBNAIL = 11
    MEDIA_GALLERY = 12
    FILE = 13
    SEPARATOR = 14
    CONTAINER = 17
    LABEL = 18
    SELECTS = (3, 5, 6, 7, 8)


class OptionType:
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


def iso(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).isoformat()


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class SnowflakeFactory:
    """Time-based, strictly increasing snowflakes (so ``created_at`` in discord.py is sane)."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(candidate, self._last + 1)
            return self._last


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    avatar: str | None = None
    app_installed: bool = False
    """The user added the application to their account (a user install): its commands that
    allow it work for them in its DMs and in servers without the bot."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": self.avatar,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    managed: bool = False
    mentionable: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=utcnow)

    def to_payload(self, *, include_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if include_user:
            data["user"] = self.user.to_payload()
            data["deaf"] = False
            data["mute"] = False
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    overwrites: list[Overwrite] = field(default_factory=list)
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    last_message_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self, *, permissions: int | None = None) -> JSON:
        if self.type == ChannelType.DM:
            data: JSON = {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": _opt_id(self.last_message_id),
                "recipients": [u.to_payload() for u in self.recipients],
                "flags": 0,
            }
        else:
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": _opt_id(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [o.to_payload() for o in self.overwrites],
                "nsfw": self.nsfw,
                "parent_id": _opt_id(self.parent_id),
                "last_message_id": _opt_id(self.last_message_id),
                "rate_limit_per_user": 0,
                "flags": 0,
            }
            if self.type in (ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT):
                data["topic"] = self.topic
                data["default_auto_archive_duration"] = 1440
            if self.is_thread:
                data.pop("permission_overwrites")
                data["owner_id"] = _opt_id(self.owner_id)
                data["message_count"] = 0
                data["member_count"] = 1
                data["total_message_sent"] = 0
                data["thread_metadata"] = {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(utcnow()),
                    "locked": self.locked,
                    "create_timestamp": iso(utcnow()),
                }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    features: list[str] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=utcnow)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def role_named(self, name: str) -> Role:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"no role named {name!r} in guild {self.name!r}")

    def channel_named(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return Perm.ALL
        member = self.members.get(user_id)
        perms = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & Perm.ADMINISTRATOR:
            return Perm.ALL
        return perms

    def permissions_for(self, user_id: int, channel: Channel | None = None) -> int:
        """Discord's permission algorithm: base role permissions, then channel overwrites."""
        perms = self.base_permissions(user_id)
        if perms == Perm.ALL or channel is None:
            return perms
        if channel.is_thread and channel.parent_id is not None:
            parent = self.channels.get(channel.parent_id)
            if parent is not None:
                channel = parent
        member = self.members.get(user_id)
        role_ids = set(member.role_ids) if member else set()
        for ow in channel.overwrites:
            if ow.type == 0 and ow.id == self.id:
                perms = (perms & ~ow.deny) | ow.allow
        allow = deny = 0
        for ow in channel.overwrites:
            if ow.type == 0 and ow.id in role_ids:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        for ow in channel.overwrites:
            if ow.type == 1 and ow.id == user_id:
                perms = (perms & ~ow.deny) | ow.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        return perms


@dataclass(eq=False)
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def image_size(self) -> tuple[int, int] | None:
        if self.is_png and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return int(width), int(height)
        return None

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        dims = self.image_size()
        if dims is not None:
            data["width"], data["height"] = dims
        return data


@dataclass(eq=False)
class StoredMessage:
    """A message as the server holds it: the current state plus the history of revisions."""

    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[StoredAttachment] = field(default_factory=list)
    type: int = 0
    tts: bool = False
    created_at: dt.datetime = field(default_factory=utcnow)
    edited_at: dt.datetime | None = None
    deleted: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    message_reference: JSON | None = None
    nonce: str | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    mentions: list[User] = field(default_factory=list)
    """The users it pings (its mentions that its ``allowed_mentions`` allows)."""
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    allowed_mentions: JSON | None = None
    """The ``allowed_mentions`` it was last sent with (``None``: none given, all parsed)."""
    # The thread started from this message (Discord: the ``thread`` field, flag HAS_THREAD).
    thread: Channel | None = None
    # Payload snapshots of every earlier version, oldest first.
    revisions: list[JSON] = field(default_factory=list)
    # Server-side sequence number of the last change (see OfflineDiscordServer.mark()).
    version: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & MessageFlag.IS_COMPONENTS_V2)

    @property
    def edited(self) -> bool:
        return self.edited_at is not None

    @property
    def sent_content(self) -> str:
        """The content as first sent (before any edit)."""
        return str(self.revisions[0].get("content") or "") if self.revisions else self.content

    def iter_components(self) -> Iterator[JSON]:
        """Every component, depth first, including those nested in rows/sections/containers."""
        yield from iter_components(self.components)

    def buttons(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") == ComponentType.BUTTON]

    def selects(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") in ComponentType.SELECTS]

    def find_component(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        type: int | None = None,
    ) -> JSON | None:
        for comp in self.iter_components():
            if type is not None and comp.get("type") != type:
                continue
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            cid = comp.get("custom_id")
            if custom_id_prefix is not None and not (
                isinstance(cid, str) and cid.startswith(custom_id_prefix)
            ):
                continue
            return comp
        return None

    def component(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        type: int | None = None,
    ) -> JSON:
        """Like :meth:`find_component` but raises ``KeyError`` when there is none."""
        found = self.find_component(
            label=label, custom_id=custom_id, custom_id_prefix=custom_id_prefix, type=type
        )
        if found is None:
            raise KeyError(
                f"message {self.id} has no component label={label!r} custom_id={custom_id!r}"
            )
        return found

    def text(self) -> str:
        """All human-readable text: content, text displays, embed titles/descriptions/fields."""
        parts: list[str] = [self.content] if self.content else []
        for comp in self.iter_components():
            if comp.get("type") == ComponentType.TEXT_DISPLAY:
                parts.append(str(comp.get("content", "")))
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            footer = embed.get("footer")
            if isinstance(footer, dict) and footer.get("text"):
                parts.append(str(footer["text"]))
        return "\n".join(parts)

    def attachment(self, filename: str | None = None) -> StoredAttachment:
        for att in self.attachments:
            if filename is None or att.filename == filename:
                return att
        raise KeyError(f"message {self.id} has no attachment {filename!r}")

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.to_payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_role_ids],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.author.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for name, users in self.reactions.items()
                if users
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.thread is not None:
            data["thread"] = self.thread.to_payload()
        return data


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    for comp in components:
        yield comp
        children: list[JSON] = []
        if isinstance(comp.get("components"), list):
            children.extend(comp["components"])
        if isinstance(comp.get("accessory"), dict):
            children.append(comp["accessory"])
        if isinstance(comp.get("component"), dict):
            children.append(comp["component"])
        yield from iter_components(children)


def _opt_id(value: int | None) -> str | None:
    return None if value is None else str(value)
