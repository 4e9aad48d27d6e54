"""The offline Discord server: world state, message store, waiting helpers, fault injection.

The HTTP side lives in :mod:`.rest`, the websocket side in :mod:`.gateway`, scripted users in
:mod:`.scripted`. Everything runs on the test's event loop; nothing here is thread-safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from .errors import (
    DiscordAPIError,
    Fault,
    RecordedRequest,
    RequestPredicate,
    rate_limit_fault,
)
from .interactions import TEST_ACK_TIMEOUT, WAIT_TIMEOUT, InteractionHandle
from .models import (
    JSON,
    Channel,
    ChannelType,
    ComponentType,
    Guild,
    Intent,
    Member,
    MessageFlag,
    Overwrite,
    Perm,
    Role,
    SnowflakeFactory,
    StoredAttachment,
    StoredMessage,
    User,
    utcnow,
)
from .validation import MENTION_TYPES

if TYPE_CHECKING:
    from .gateway import GatewayConnection, GatewayLogEntry, GatewaySession
    from .scripted import ScriptedUser

T = TypeVar("T")

MESSAGE_ROUTES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
"""The routes whose body is a message (:meth:`OfflineDiscordServer.message_payloads`)."""
CALLBACK_ROUTE = "/interactions/{interaction_id}/{interaction_token}/callback"


class OfflineDiscordTimeout(TimeoutError, AssertionError):
    """A ``wait_for*`` helper gave up; the message says what was awaited and what was there."""


class _Notifier:
    """Wakes every waiter whenever the server state changes."""

    def __init__(self) -> None:
        self._future: asyncio.Future[None] | None = None

    def notify(self) -> None:
        fut, self._future = self._future, None
        if fut is not None and not fut.done():
            fut.set_result(None)

    def changed(self) -> asyncio.Future[None]:
        if self._future is None:
            self._future = asyncio.get_running_loop().create_future()
        return self._future


class OfflineDiscordServer:
    """A Discord REST v10 + gateway look-alike on 127.0.0.1 for end-to-end tests.

    Build the world (guilds, channels, roles, users), ``await start()``, point discord.py at it
    (see :func:`tests.offline_discord.harness.running_client`), then drive it with scripted users.
    """

    def __init__(
        self,
        *,
        bot_name: str = "Governor",
        bot_token: str | None = None,
        ack_timeout: float = TEST_ACK_TIMEOUT,
        heartbeat_interval_ms: int = 41250,
        privileged_intents: int = Intent.PRIVILEGED,
        host: str = "127.0.0.1",
        attachment_size_limit: int = 10 * 1024 * 1024,
    ) -> None:
        self.snowflake = SnowflakeFactory()
        self.host = host
        self.port = 0
        self.ack_timeout = ack_timeout
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        self.attachment_size_limit = attachment_size_limit

        self.application_id = self.snowflake()
        self.bot_user = User(id=self.application_id, username=bot_name, bot=True)
        self.bot_token = bot_token or f"offline.{self.application_id}.{secrets.token_hex(8)}"
        self.owner = User(id=self.snowflake(), username="app-owner")

        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}  # by recipient user id
        self._messages: dict[int, list[StoredMessage]] = {}
        self._messages_by_id: dict[int, StoredMessage] = {}
        self._attachments: dict[int, StoredAttachment] = {}

        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs: list[tuple[int | None, list[JSON]]] = []

        self.interactions: dict[int, InteractionHandle] = {}
        self.failed_interactions: list[InteractionHandle] = []

        self.requests: list[RecordedRequest] = []
        self.unhandled_requests: list[RecordedRequest] = []
        self.faults: list[Fault] = []

        self.recommended_shards = 1
        """What ``GET /gateway/bot`` recommends (a client that runs every shard uses it)."""
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.gateway_log: list[GatewayLogEntry] = []

        self._scripted: dict[int, ScriptedUser] = {}
        self._notifier = _Notifier()
        self._version = 0
        self._runner: web.AppRunner | None = None
        self._background: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------------------------------
    # lifecycle
    # ------------------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Returned by ``GET /gateway[/bot]``; also the DEFAULT_GATEWAY discord.py must use."""
        return f"ws://{self.host}:{self.port}/"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/resume/"

    async def start(self) -> OfflineDiscordServer:
        from .gateway import gateway_handler
        from .rest import build_app

        async def gateway(request: web.Request) -> web.StreamResponse:
            return await gateway_handler(self, request)

        app = build_app(self)
        app.router.add_get("/", gateway)
        app.router.add_get("/resume/", gateway)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        addresses = self._runner.addresses
        self.port = int(addresses[0][1])
        return self

    async def stop(self) -> None:
        for handle in self.interactions.values():
            if handle.timer is not None:
                handle.timer.cancel()
        for conn in list(self.connections):
            await conn.close(1001)
        for task in list(self._background):
            task.cancel()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> OfflineDiscordServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def spawn(self, coro: Awaitable[T]) -> asyncio.Task[T]:
        async def run() -> T:
            return await coro

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # ------------------------------------------------------------------------------------------
    # change notification and waiting
    # ------------------------------------------------------------------------------------------

    def touch(self) -> int:
        """Record a state change; returns the new version number."""
        self._version += 1
        self._notifier.notify()
        return self._version

    def mark(self) -> int:
        """A point in time: ``wait_for_message(..., since=mark)`` only sees later changes."""
        return self._version

    async def wait_for(
        self,
        check: Callable[[], T | None],
        *,
        timeout: float = WAIT_TIMEOUT,
        what: str = "a condition",
        describe: Callable[[], str] | None = None,
        poll_interval: float = 0.02,
    ) -> T:
        """Wait until ``check()`` returns something other than ``None`` and return it.

        ``check`` may raise to abort the wait (e.g. :class:`InteractionFailed`).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result is not None:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                detail = f"\n{describe()}" if describe is not None else ""
                raise OfflineDiscordTimeout(
                    f"timed out after {timeout}s waiting for {what}{detail}"
                )
            # Woken by every server-side change; polling as well covers conditions on the
            # bot's own state (its caches, recorded errors) that the server cannot see change.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.shield(self._notifier.changed()), min(remaining, poll_interval)
                )

    # ------------------------------------------------------------------------------------------
    # world building
    # ------------------------------------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Offline Guild",
        *,
        owner: User | ScriptedUser | None = None,
        locale: str = "en-US",
        everyone_permissions: int = Perm.DEFAULT_EVERYONE,
        bot_permissions: int = Perm.DEFAULT_BOT,
        with_bot: bool = True,
    ) -> Guild:
        owner_user = self._as_user(owner) if owner is not None else self.owner
        gid = self.snowflake()
        guild = Guild(id=gid, name=name, owner_id=owner_user.id, locale=locale)
        guild.roles[gid] = Role(
            id=gid, guild_id=gid, name="@everyone", permissions=everyone_permissions
        )
        bot_role = Role(
            id=self.snowflake(),
            guild_id=gid,
            name=self.bot_user.username,
            permissions=bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        if with_bot:  # (without: a server the bot is not in, where a user install still works)
            guild.roles[bot_role.id] = bot_role
            guild.members[self.bot_user.id] = Member(
                user=self.bot_user, guild_id=gid, role_ids=[bot_role.id]
            )
        guild.members[owner_user.id] = Member(user=owner_user, guild_id=gid)
        self.guilds[gid] = guild
        if self.sessions and with_bot:
            from .gateway import guild_create_payload

            for session in self._live_sessions():
                self.dispatch_to(
                    session, "GUILD_CREATE", guild_create_payload(self, guild, session)
                )
        self.touch()
        return guild

    def has_bot(self, guild: Guild) -> bool:
        """Whether the bot is a member of ``guild`` (the guild install)."""
        return self.bot_user.id in guild.members

    def add_role(
        self,
        guild: Guild,
        name: str,
        *,
        permissions: int = 0,
        position: int | None = None,
        color: int = 0,
    ) -> Role:
        pos = (
            position if position is not None else max(r.position for r in guild.roles.values()) + 1
        )
        role = Role(
            id=self.snowflake(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=pos,
            color=color,
        )
        guild.roles[role.id] = role
        self.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.to_payload()},
            guild_id=guild.id,
            intent=Intent.GUILDS,
        )
        self.touch()
        return role

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        type: int = ChannelType.GUILD_TEXT,
        topic: str | None = None,
        parent: Channel | None = None,
        overwrites: Sequence[Overwrite] = (),
    ) -> Channel:
        channel = Channel(
            id=self.snowflake(),
            type=type,
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
            topic=topic,
            parent_id=parent.id if parent else None,
            overwrites=list(overwrites),
            # a thread was started by someone (Discord always says who): the guild's owner
            owner_id=guild.owner_id if type in ChannelType.THREADS else None,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self._messages[channel.id] = []
        event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
        self.dispatch(event, channel.to_payload(), guild_id=guild.id, intent=Intent.GUILDS)
        self.touch()
        return channel

    def add_text_channel(self, guild: Guild, name: str, **kwargs: Any) -> Channel:
        return self.add_channel(guild, name, type=ChannelType.GUILD_TEXT, **kwargs)

    def set_overwrite(
        self, channel: Channel, target: Role | User | ScriptedUser, *, allow: int = 0, deny: int = 0
    ) -> None:
        if isinstance(target, Role):
            oid, otype = target.id, 0
        else:
            oid, otype = self._as_user(target).id, 1
        channel.overwrites = [o for o in channel.overwrites if o.id != oid]
        channel.overwrites.append(Overwrite(id=oid, type=otype, allow=allow, deny=deny))
        if channel.guild_id is not None:
            self.dispatch(
                "CHANNEL_UPDATE",
                channel.to_payload(),
                guild_id=channel.guild_id,
                intent=Intent.GUILDS,
            )
        self.touch()

    def update_thread(
        self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None,
        name: str | None = None, auto_archive_duration: int | None = None,
    ) -> None:
        """Change a thread as Discord (inactivity archives it) or a moderator would; THREAD_UPDATE
        goes out.  ``update_thread(t, archived=True)`` is a thread archived for inactivity."""
        if archived is not None:
            thread.archived = archived
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        if auto_archive_duration is not None:
            thread.auto_archive_duration = auto_archive_duration
        self.dispatch("THREAD_UPDATE", thread.to_payload(), guild_id=thread.guild_id,
                      intent=Intent.GUILDS)
        self.touch()

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel or a thread (its messages go with it); CHANNEL_DELETE or
        THREAD_DELETE goes out.  A message a deleted thread was started from loses it."""
        guild = self.guild_of(channel)
        if guild is not None:
            guild.channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        for msg in self._messages.pop(channel.id, []):
            self._messages_by_id.pop(msg.id, None)
        for msg in self._messages_by_id.values():
            if msg.thread is channel:
                msg.thread = None
                msg.flags &= ~MessageFlag.HAS_THREAD
        if channel.is_thread:
            data: JSON = {"id": str(channel.id), "guild_id": str(channel.guild_id),
                          "parent_id": str(channel.parent_id), "type": channel.type}
            self.dispatch("THREAD_DELETE", data, guild_id=channel.guild_id, intent=Intent.GUILDS)
        else:
            self.dispatch("CHANNEL_DELETE", channel.to_payload(), guild_id=channel.guild_id,
                          intent=Intent.GUILDS)
        self.touch()

    def add_user(
        self,
        username: str,
        *,
        guild: Guild | Iterable[Guild] | None = None,
        roles: Iterable[Role] = (),
        global_name: str | None = None,
        dms_open: bool = True,
        locale: str = "en-US",
        nick: str | None = None,
    ) -> ScriptedUser:
        """Create a user (optionally a member of ``guild`` with ``roles``) and return its script."""
        from .scripted import ScriptedUser

        user = User(
            id=self.snowflake(),
            username=username,
            global_name=global_name,
            dms_open=dms_open,
            locale=locale,
        )
        self.users[user.id] = user
        guilds: list[Guild] = []
        if isinstance(guild, Guild):
            guilds = [guild]
        elif guild is not None:
            guilds = list(guild)
        role_list = list(roles)
        for g in guilds:
            self.add_member(g, user, roles=[r for r in role_list if r.guild_id == g.id], nick=nick)
        scripted = ScriptedUser(self, user)
        self._scripted[user.id] = scripted
        self.touch()
        return scripted

    def add_member(
        self,
        guild: Guild,
        user: User | ScriptedUser,
        *,
        roles: Iterable[Role] = (),
        nick: str | None = None,
    ) -> Member:
        u = self._as_user(user)
        member = Member(user=u, guild_id=guild.id, role_ids=[r.id for r in roles], nick=nick)
        guild.members[u.id] = member
        self.dispatch(
            "GUILD_MEMBER_ADD",
            {**member.to_payload(), "guild_id": str(guild.id)},
            guild_id=guild.id,
            intent=Intent.GUILD_MEMBERS,
        )
        self.touch()
        return member

    def set_roles(self, guild: Guild, user: User | ScriptedUser, roles: Iterable[Role]) -> None:
        u = self._as_user(user)
        member = guild.members[u.id]
        member.role_ids = [r.id for r in roles]
        self.dispatch(
            "GUILD_MEMBER_UPDATE",
            {**member.to_payload(), "guild_id": str(guild.id)},
            guild_id=guild.id,
            intent=Intent.GUILD_MEMBERS,
        )
        self.touch()

    def set_dms_open(self, user: User | ScriptedUser, open: bool) -> None:
        """``open=False``: the bot's DMs to this user fail with 403 / 50007."""
        self._as_user(user).dms_open = open
        self.touch()

    def user(self, key: str | int) -> ScriptedUser:
        """The scripted user with that username or id."""
        for uid, scripted in self._scripted.items():
            if key in (uid, scripted.user.username):
                return scripted
        raise KeyError(f"no scripted user {key!r}")

    def get_user(self, user_id: int) -> User | None:
        return self.users.get(user_id)

    def dm_channel_for(self, user: User | ScriptedUser) -> Channel:
        u = self._as_user(user)
        channel = self.dm_channels.get(u.id)
        if channel is None:
            channel = Channel(id=self.snowflake(), type=ChannelType.DM, recipients=[u])
            self.dm_channels[u.id] = channel
            self.channels[channel.id] = channel
            self._messages[channel.id] = []
            self.touch()
        return channel

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def resolve_channel(self, channel: Channel | int) -> Channel:
        if isinstance(channel, Channel):
            return channel
        found = self.channels.get(channel)
        if found is None:
            raise KeyError(f"unknown channel {channel}")
        return found

    def _as_user(self, user: User | ScriptedUser | int) -> User:
        if isinstance(user, User):
            return user
        if isinstance(user, int):
            return self.users[user]
        return user.user

    # ------------------------------------------------------------------------------------------
    # messages
    # ------------------------------------------------------------------------------------------

    def messages(
        self,
        channel: Channel | int,
        *,
        include_deleted: bool = False,
        include_ephemeral: bool = True,
    ) -> list[StoredMessage]:
        """The channel's messages, oldest first, with edits applied (components as raw JSON)."""
        ch = self.resolve_channel(channel)
        return [
            m
            for m in self._messages.get(ch.id, [])
            if (include_deleted or not m.deleted) and (include_ephemeral or not m.ephemeral)
        ]

    def all_messages(self) -> list[StoredMessage]:
        return sorted(self._messages_by_id.values(), key=lambda m: m.id)

    def get_message(self, message_id: int) -> StoredMessage | None:
        return self._messages_by_id.get(message_id)

    def dms(self, user: User | ScriptedUser) -> list[StoredMessage]:
        u = self._as_user(user)
        channel = self.dm_channels.get(u.id)
        return [] if channel is None else self.messages(channel)

    def _describe_channel(self, channel_id: int) -> str:
        msgs = self._messages.get(channel_id, [])
        lines = [f"channel {channel_id} holds {len(msgs)} message(s):"]
        for m in msgs[-10:]:
            state = " deleted" if m.deleted else ""
            lines.append(
                f"  {m.id} by {m.author.username} flags={m.flags}{state}: {m.text()[:120]!r} "
                f"components={len(list(m.iter_components()))} "
                f"files={[a.filename for a in m.attachments]}"
            )
        return "\n".join(lines)

    async def wait_for_message(
        self,
        channel: Channel | int,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT_TIMEOUT,
        since: int | None = None,
        include_ephemeral: bool = True,
    ) -> StoredMessage:
        """The newest message in ``channel`` (current state) matching ``predicate``.

        With ``since=server.mark()`` only messages created or edited after the mark count.
        """
        ch = self.resolve_channel(channel)

        def check() -> StoredMessage | None:
            for msg in reversed(self.messages(ch, include_ephemeral=include_ephemeral)):
                if since is not None and msg.version <= since:
                    continue
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.wait_for(
            check,
            timeout=timeout,
            what=f"a message in channel {ch.name or ch.id}",
            describe=lambda: self._describe_channel(ch.id),
        )

    async def wait_for_dm(
        self,
        user: User | ScriptedUser,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT_TIMEOUT,
        since: int | None = None,
    ) -> StoredMessage:
        u = self._as_user(user)

        def check() -> StoredMessage | None:
            for msg in reversed(self.dms(u)):
                if since is not None and msg.version <= since:
                    continue
                if predicate is None or predicate(msg):
                    return msg
            return None

        def describe() -> str:
            ch = self.dm_channels.get(u.id)
            return "no DM channel was ever opened" if ch is None else self._describe_channel(ch.id)

        return await self.wait_for(
            check, timeout=timeout, what=f"a DM to {u.username}", describe=describe
        )

    async def wait_for_edit(
        self,
        message: StoredMessage | int,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT_TIMEOUT,
    ) -> StoredMessage:
        """Wait until ``message`` has been edited (after this call) and matches ``predicate``."""
        mid = message if isinstance(message, int) else message.id
        start = self._version

        def check() -> StoredMessage | None:
            msg = self.get_message(mid)
            if msg is None or msg.version <= start:
                return None
            if predicate is not None and not predicate(msg):
                return None
            return msg

        return await self.wait_for(check, timeout=timeout, what=f"an edit of message {mid}")

    def create_message(
        self,
        channel: Channel,
        author: User,
        *,
        content: str = "",
        embeds: list[JSON] | None = None,
        components: list[JSON] | None = None,
        flags: int = 0,
        attachments: list[StoredAttachment] | None = None,
        type: int = 0,
        tts: bool = False,
        webhook_id: int | None = None,
        interaction: InteractionHandle | None = None,
        message_reference: JSON | None = None,
        nonce: str | None = None,
        message_id: int | None = None,
        allowed_mentions: JSON | None = None,
    ) -> StoredMessage:
        msg = StoredMessage(
            id=message_id or self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            embeds=embeds or [],
            components=components or [],
            flags=flags,
            attachments=attachments or [],
            type=type,
            tts=tts,
            webhook_id=webhook_id,
            application_id=self.application_id if interaction is not None else None,
            interaction_id=interaction.id if interaction is not None else None,
            message_reference=message_reference,
            nonce=nonce,
            allowed_mentions=allowed_mentions,
        )
        if interaction is not None:
            msg.interaction_metadata = self.interaction_metadata(interaction)
        self._resolve_mentions(msg)
        self._messages.setdefault(channel.id, []).append(msg)
        self._messages_by_id[msg.id] = msg
        if not msg.ephemeral:
            channel.last_message_id = msg.id
        msg.version = self.touch()
        if not msg.ephemeral and not msg.loading:
            self.dispatch_message_event("MESSAGE_CREATE", msg)
        return msg

    def edit_message(
        self,
        msg: StoredMessage,
        body: JSON,
        new_files: Sequence[StoredAttachment] = (),
    ) -> StoredMessage:
        """Apply a PATCH-style body (only keys present change) and record the old revision."""
        msg.revisions.append(msg.to_payload())
        was_loading = msg.loading
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            editable = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2
            msg.flags = (msg.flags & ~editable) | (int(body["flags"]) & editable)
        if "attachments" in body and body["attachments"] is not None:
            keep = {int(a["id"]) for a in body["attachments"] if _is_existing_attachment(a, msg)}
            msg.attachments = [a for a in msg.attachments if a.id in keep]
        msg.attachments.extend(new_files)
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        self._resolve_mentions(msg)
        msg.flags &= ~MessageFlag.LOADING
        msg.edited_at = None if was_loading else utcnow()
        msg.version = self.touch()
        if not msg.ephemeral:
            event = "MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE"
            self.dispatch_message_event(event, msg)
        return msg

    def _resolve_mentions(self, msg: StoredMessage) -> None:
        """Who the message pings, as Discord decides: the mentions written in its content and
        its text displays (embeds never ping), kept only when its ``allowed_mentions`` allows
        them (none given: every kind is parsed).  A backslash before a mention is not honoured
        here: an escaped mention counts when the kind is allowed (the stricter reading)."""
        text = "\n".join([msg.content, *(
            str(c.get("content", "")) for c in msg.iter_components()
            if c.get("type") == ComponentType.TEXT_DISPLAY)])
        allowed = msg.allowed_mentions
        parse = (allowed.get("parse") or []) if isinstance(allowed, dict) else list(MENTION_TYPES)
        listed: dict[str, set[int]] = {
            kind: {int(i) for i in (allowed.get(kind) or [])} if isinstance(allowed, dict)
            else set() for kind in ("users", "roles")}

        def pings(kind: str, ident: int) -> bool:
            return kind in parse or ident in listed[kind]

        users = [self.users.get(int(uid)) for uid in re.findall(r"<@!?(\d+)>", text)
                 if pings("users", int(uid))]
        msg.mentions = [u for u in dict.fromkeys(users) if u is not None]
        guild = self.guilds.get(msg.guild_id) if msg.guild_id is not None else None
        roles = [int(rid) for rid in re.findall(r"<@&(\d+)>", text) if pings("roles", int(rid))]
        msg.mention_role_ids = [r for r in roles if guild is not None and r in guild.roles]
        msg.mention_everyone = "everyone" in parse and bool(re.search(r"@(everyone|here)", text))

    def delete_message(self, msg: StoredMessage) -> None:
        msg.deleted = True
        msg.version = self.touch()
        if not msg.ephemeral:
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            self.dispatch_message_event("MESSAGE_DELETE", msg, data=data)

    def store_attachment(
        self,
        channel_id: int,
        filename: str,
        data: bytes,
        content_type: str | None,
        description: str | None,
    ) -> StoredAttachment:
        aid = self.snowflake()
        att = StoredAttachment(
            id=aid,
            filename=filename,
            data=data,
            content_type=content_type,
            description=description,
            url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
        )
        self._attachments[aid] = att
        return att

    def get_attachment(self, attachment_id: int) -> StoredAttachment | None:
        return self._attachments.get(attachment_id)

    def interaction_metadata(self, handle: InteractionHandle) -> JSON:
        owners = handle.payload.get("authorizing_integration_owners", {})
        meta: JSON = {
            "id": str(handle.id),
            "type": handle.type,
            "user": handle.user.to_payload(),
            "authorizing_integration_owners": owners,
        }
        if handle.type == 2:
            meta["name"] = handle.data.get("name")
            meta["command_type"] = handle.data.get("type", 1)
        if handle.source_message is not None:
            meta["interacted_message_id"] = str(handle.source_message.id)
        if handle.original_message_id is not None:
            meta["original_response_message_id"] = str(handle.original_message_id)
        return meta

    # ------------------------------------------------------------------------------------------
    # gateway dispatch
    # ------------------------------------------------------------------------------------------

    def _live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.valid]

    def dispatch_to(self, session: GatewaySession, event: str, data: Any) -> None:
        session.dispatch(event, data)

    def dispatch(
        self, event: str, data: Any, *, guild_id: int | None = None, intent: int | None = None
    ) -> None:
        """Send a DISPATCH to every valid session that has ``intent`` and owns the guild's shard."""
        for session in self._live_sessions():
            if intent is not None and not session.intents & intent:
                continue
            if not session.owns_guild(guild_id):
                continue
            session.dispatch(event, data)

    def dispatch_message_event(
        self, event: str, msg: StoredMessage, *, data: JSON | None = None
    ) -> None:
        guild = self.guilds.get(msg.guild_id) if msg.guild_id is not None else None
        intent = Intent.GUILD_MESSAGES if guild is not None else Intent.DIRECT_MESSAGES
        for session in self._live_sessions():
            if not session.intents & intent or not session.owns_guild(msg.guild_id):
                continue
            if data is not None:
                session.dispatch(event, data)
                continue
            payload = msg.to_payload()
            if guild is not None:
                payload["guild_id"] = str(guild.id)
                member = guild.members.get(msg.author.id)
                if member is not None and msg.webhook_id is None:
                    payload["member"] = member.to_payload(include_user=False)
            mentioned = f"<@{self.bot_user.id}>" in msg.content
            if (
                guild is not None
                and not session.intents & Intent.MESSAGE_CONTENT
                and msg.author.id != self.bot_user.id
                and not mentioned
            ):
                payload.update(content="", embeds=[], attachments=[], components=[])
            session.dispatch(event, payload)

    # ------------------------------------------------------------------------------------------
    # interactions
    # ------------------------------------------------------------------------------------------

    def register_interaction(self, handle: InteractionHandle) -> None:
        self.interactions[handle.id] = handle
        loop = asyncio.get_running_loop()
        handle.timer = loop.call_later(self.ack_timeout, self._expire_interaction, handle)
        self.touch()

    def _expire_interaction(self, handle: InteractionHandle) -> None:
        if handle.callback is None and not handle.failed:
            handle.failed = True
            self.failed_interactions.append(handle)
            self.touch()

    def assert_no_failed_interactions(self) -> None:
        if self.failed_interactions:
            raise AssertionError(
                "interactions failed (not acknowledged in time): "
                + ", ".join(repr(h) for h in self.failed_interactions)
            )

    def interaction_by_token(self, token: str) -> InteractionHandle | None:
        for handle in self.interactions.values():
            if handle.token == token:
                return handle
        return None

    # ------------------------------------------------------------------------------------------
    # application commands
    # ------------------------------------------------------------------------------------------

    def commands_for(self, guild_id: int | None) -> list[JSON]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.get(guild_id, [])

    def find_command(self, name: str, guild_id: int | None, command_type: int = 1) -> JSON | None:
        pools = [self.guild_commands.get(guild_id, [])] if guild_id is not None else []
        pools.append(self.global_commands)
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name and int(cmd.get("type", 1)) == command_type:
                    return cmd
        return None

    async def wait_for_command_sync(
        self, guild: Guild | int | None = None, *, timeout: float = WAIT_TIMEOUT
    ) -> list[JSON]:
        gid = guild.id if isinstance(guild, Guild) else guild

        def check() -> list[JSON] | None:
            for synced_gid, commands in reversed(self.command_syncs):
                if synced_gid == gid:
                    return commands
            return None

        scope = "global" if gid is None else f"guild {gid}"
        return await self.wait_for(check, timeout=timeout, what=f"a {scope} command sync")

    # ------------------------------------------------------------------------------------------
    # failure injection
    # ------------------------------------------------------------------------------------------

    def inject_rate_limit(
        self,
        method: str | None,
        route: str | re.Pattern[str] | None,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        count: int | None = 1,
        predicate: RequestPredicate | None = None,
    ) -> Fault:
        """The next ``count`` matching requests get 429 + ``retry_after`` (seconds)."""
        fault = rate_limit_fault(
            method,
            route,
            retry_after=retry_after,
            is_global=is_global,
            count=count,
            predicate=predicate,
        )
        self.faults.append(fault)
        return fault

    def inject_error(
        self,
        method: str | None,
        route: str | re.Pattern[str] | None,
        *,
        status: int,
        code: int = 0,
        message: str = "Injected failure",
        count: int | None = 1,
        predicate: RequestPredicate | None = None,
    ) -> Fault:
        """The next ``count`` matching requests fail with this Discord error."""
        body = DiscordAPIError(status, code, message).body()
        fault = Fault(
            method=method, route=route, status=status, body=body, count=count, predicate=predicate
        )
        self.faults.append(fault)
        return fault

    def match_fault(self, req: RecordedRequest) -> Fault | None:
        for fault in self.faults:
            if fault.matches(req):
                fault.hits.append(req)
                return fault
        return None

    def requests_to(
        self, method: str | None = None, route: str | None = None
    ) -> list[RecordedRequest]:
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper())
            and (route is None or route in (r.route, r.path))
        ]

    def message_payloads(self) -> list[tuple[RecordedRequest, JSON]]:
        """Every message body the bot sent, oldest first, with its request: channel messages
        and DMs, their edits, interaction replies (a callback's ``data``: types 4 and 7),
        followups and their edits.  Its ``allowed_mentions`` say whom it may ping."""
        out: list[tuple[RecordedRequest, JSON]] = []
        for request in self.requests:
            body = request.json if isinstance(request.json, dict) else {}
            if (request.method, request.route) in MESSAGE_ROUTES:
                out.append((request, body))
            elif request.route == CALLBACK_ROUTE and body.get("type") in (4, 7):
                data = body.get("data")
                out.append((request, data if isinstance(data, dict) else {}))
        return out

    async def drop_gateway(
        self,
        *,
        code: int = 4000,
        abort: bool = False,
        invalidate_session: bool = False,
    ) -> int:
        """Close every gateway websocket (``abort=True``: cut the TCP connection instead).

        With ``invalidate_session`` the sessions cannot be resumed: the client's RESUME gets an
        INVALID_SESSION and it must IDENTIFY afresh. Returns the number of connections dropped.
        """
        conns = [c for c in self.connections if not c.closed]
        for conn in conns:
            if invalidate_session and conn.session is not None:
                conn.session.valid = False
            if abort:
                conn.abort()
            else:
                await conn.close(code)
        self.touch()
        return len(conns)

    def send_reconnect(self) -> None:
        """Send op 7 RECONNECT on every connection (the client should resume)."""
        for conn in self.connections:
            if not conn.closed:
                conn.send({"op": 7, "d": None})

    def request_heartbeat(self) -> None:
        """Send op 1 HEARTBEAT: the client must answer with a heartbeat at once."""
        for conn in self.connections:
            if not conn.closed:
                conn.send({"op": 1, "d": None})

    def invalidate_sessions(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION on every connection."""
        for conn in self.connections:
            if not conn.closed:
                if not resumable and conn.session is not None:
                    conn.session.valid = False
                conn.send({"op": 9, "d": resumable})

    def gateway_events(self, kind: str | None = None) -> list[GatewayLogEntry]:
        return [e for e in self.gateway_log if kind is None or e.kind == kind]

    async def wait_for_gateway(
        self, kind: str, count: int = 1, *, timeout: float = WAIT_TIMEOUT
    ) -> list[GatewayLogEntry]:
        """Wait until ``count`` log entries of ``kind`` exist: connect, identify, ready, resume,
        resumed, invalid_session, heartbeat, close."""

        def check() -> list[GatewayLogEntry] | None:
            entries = self.gateway_events(kind)
            return entries if len(entries) >= count else None

        return await self.wait_for(
            check,
            timeout=timeout,
            what=f"{count} gateway {kind!r} event(s)",
            describe=lambda: "gateway log: " + ", ".join(e.kind for e in self.gateway_log[-30:]),
        )

    async def wait_until_connected(self, *, timeout: float = WAIT_TIMEOUT) -> GatewaySession:
        """Wait for a session that is identified/resumed and has a live connection."""

        def check() -> GatewaySession | None:
            for session in self._live_sessions():
                if (
                    session.connection is not None
                    and not session.connection.closed
                    and session.ready
                ):
                    return session
            return None

        return await self.wait_for(check, timeout=timeout, what="a connected gateway session")


def _is_existing_attachment(att: Any, msg: StoredMessage) -> bool:
    if not isinstance(att, dict) or "id" not in att:
        return False
    try:
        aid = int(att["id"])
    except (TypeError, ValueError):
        return False
    return any(a.id == aid for a in msg.attachments)
