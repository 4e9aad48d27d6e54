"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, dispatch.

Transport compression follows what discord.py asks for in the query string: ``zlib-stream``
(one zlib context per connection, every message ends with a Z_SYNC_FLUSH) or ``zstd-stream``
(when a zstd implementation is importable; discord.py only asks for it when it has one).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import JSON, Guild, Intent

if TYPE_CHECKING:
    from .server import OfflineDiscordServer


class Op:
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Close:
    UNKNOWN_ERROR = 4000
    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SHARD = 4010
    INVALID_API_VERSION = 4012
    INVALID_INTENTS = 4013
    DISALLOWED_INTENTS = 4014


@dataclass
class GatewayLogEntry:
    """``kind``: connect, identify, ready, resume, resumed, invalid_session, heartbeat,
    presence, request_members, dispatch, close."""

    kind: str
    session_id: str | None = None
    detail: Any = None
    at: float = field(default_factory=time.monotonic)


class GatewaySession:
    """A gateway session (survives its websocket; resumable until invalidated)."""

    def __init__(
        self,
        server: OfflineDiscordServer,
        *,
        intents: int,
        shard: tuple[int, int] | None,
        large_threshold: int,
        identify: JSON,
    ) -> None:
        self.server = server
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.large_threshold = large_threshold
        self.identify = identify
        self.presence: JSON | None = identify.get("presence")
        self.seq = 0
        self.buffer: deque[tuple[int, str]] = deque(maxlen=5000)
        self.connection: GatewayConnection | None = None
        self.valid = True
        self.ready = False
        self.dispatched: list[tuple[int, str]] = []

    def owns_guild(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % shard_count == shard_id

    def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        text = json.dumps({"op": Op.DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text))
        self.dispatched.append((self.seq, event))
        if self.connection is not None and not self.connection.closed:
            self.connection.send_text(text)


def _zstd_encoder() -> Callable[[bytes], bytes] | None:
    try:
        zstandard: Any = importlib.import_module("zstandard")
    except ImportError:
        try:
            zstd_mod: Any = importlib.import_module("compression.zstd")
        except ImportError:
            return None
        compressor = zstd_mod.ZstdCompressor()

        def encode_std(data: bytes) -> bytes:
            return bytes(compressor.compress(data, mode=zstd_mod.ZstdCompressor.FLUSH_BLOCK))

        return encode_std
    cobj = zstandard.ZstdCompressor().compressobj()

    def encode(data: bytes) -> bytes:
        return bytes(cobj.compress(data) + cobj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK))

    return encode


class GatewayConnection:
    """One websocket; all outgoing frames go through a queue so their order is kept."""

    def __init__(
        self,
        server: OfflineDiscordServer,
        ws: web.WebSocketResponse,
        request: web.Request,
        compress: str | None,
    ) -> None:
        self.server = server
        self.ws = ws
        self.path = request.path
        self.compress = compress
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self.closed = False
        self.close_code: int | None = None
        self._transport = request.transport
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._encode: Callable[[bytes], bytes] | None = None
        if compress == "zlib-stream":
            zctx = zlib.compressobj()

            def encode_zlib(data: bytes) -> bytes:
                return zctx.compress(data) + zctx.flush(zlib.Z_SYNC_FLUSH)

            self._encode = encode_zlib
        elif compress == "zstd-stream":
            self._encode = _zstd_encoder()
        self._writer = server.spawn(self._write_loop())

    def send(self, payload: JSON) -> None:
        self.send_text(json.dumps(payload))

    def send_text(self, text: str) -> None:
        if not self.closed:
            self._queue.put_nowait(text)

    async def _write_loop(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None or self.ws.closed:
                return
            try:
                if self._encode is not None:
                    await self.ws.send_bytes(self._encode(text.encode()))
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    def stop_writer(self) -> None:
        self._queue.put_nowait(None)

    async def close(self, code: int, message: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.stop_writer()
        await self.ws.close(code=code, message=message.encode())

    def abort(self) -> None:
        """Cut the TCP connection without a close frame (a network failure)."""
        if self.closed:
            return
        self.closed = True
        self.stop_writer()
        if self._transport is not None:
            self._transport.abort()


def ready_payload(server: OfflineDiscordServer, session: GatewaySession) -> JSON:
    user = server.bot_user.to_payload()
    user.update(verified=True, mfa_enabled=False, email=None, flags=0)
    data: JSON = {
        "v": 10,
        "user": user,
        "guilds": [
            {"id": str(g.id), "unavailable": True}
            for g in server.guilds.values()
            if session.owns_guild(g.id) and server.has_bot(g)
        ],
        "session_id": session.id,
        "session_type": "normal",
        "resume_gateway_url": server.resume_gateway_url,
        "application": {"id": str(server.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "auth": {},
        "_trace": ["offline-discord"],
    }
    if session.shard is not None:
        data["shard"] = list(session.shard)
    return data


def guild_create_payload(
    server: OfflineDiscordServer, guild: Guild, session: GatewaySession
) -> JSON:
    if session.intents & Intent.GUILD_MEMBERS:
        members = list(guild.members.values())
    else:
        members = [m for m in guild.members.values() if m.user.id == server.bot_user.id]
    channels = [c for c in guild.channels.values() if not c.is_thread]
    threads = [c for c in guild.channels.values() if c.is_thread and not c.archived]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [r.to_payload() for r in sorted(guild.roles.values(), key=lambda r: r.position)],
        "emojis": [],
        "stickers": [],
        "features": guild.features,
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": guild.joined_at.isoformat(),
        "large": len(guild.members) > session.large_threshold,
        "unavailable": False,
        "member_count": len(guild.members),
        "voice_states": [],
        "members": [m.to_payload() for m in members],
        "channels": [c.to_payload() for c in channels],
        "threads": [c.to_payload() for c in threads],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
    }


async def gateway_handler(server: OfflineDiscordServer, request: web.Request) -> web.StreamResponse:
    ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
    await ws.prepare(request)
    compress = request.query.get("compress")
    conn = GatewayConnection(server, ws, request, compress)
    server.connections.append(conn)
    server.gateway_log.append(
        GatewayLogEntry("connect", detail={"path": request.path, **request.query})
    )
    server.touch()

    if request.query.get("encoding", "json") != "json":
        await conn.close(Close.DECODE_ERROR, "only encoding=json is supported")
    elif request.query.get("v") not in (None, "9", "10"):
        await conn.close(Close.INVALID_API_VERSION, "Invalid API version")
    elif compress not in (None, "zlib-stream", "zstd-stream") or (
        compress == "zstd-stream" and conn._encode is None
    ):
        await conn.close(Close.DECODE_ERROR, f"unsupported compression {compress!r}")
    else:
        conn.send(
            {
                "op": Op.HELLO,
                "d": {
                    "heartbeat_interval": server.heartbeat_interval_ms,
                    "_trace": ["offline-discord"],
                },
                "s": None,
                "t": None,
            }
        )
    try:
        async for msg in ws:
            if msg.type is WSMsgType.TEXT:
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await conn.close(Close.DECODE_ERROR, "Error while decoding payload")
                    break
                await _handle_payload(server, conn, payload)
            elif msg.type is WSMsgType.BINARY:
                await conn.close(Close.DECODE_ERROR, "binary frames are not supported")
                break
            else:
                break
    finally:
        conn.closed = True
        conn.close_code = conn.close_code or ws.close_code
        conn.stop_writer()
        if conn.session is not None and conn.session.connection is conn:
            conn.session.connection = None
        server.gateway_log.append(
            GatewayLogEntry(
                "close", conn.session.id if conn.session else None, detail={"code": conn.close_code}
            )
        )
        server.touch()
    return ws


async def _handle_payload(
    server: OfflineDiscordServer, conn: GatewayConnection, payload: Any
) -> None:
    if not isinstance(payload, dict):
        await conn.close(Close.DECODE_ERROR, "payload is not an object")
        return
    op = payload.get("op")
    data = payload.get("d")
    session_id = conn.session.id if conn.session else None
    if op == Op.HEARTBEAT:
        conn.heartbeats += 1
        server.gateway_log.append(GatewayLogEntry("heartbeat", session_id, detail=data))
        conn.send({"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        server.touch()
        return
    if op == Op.IDENTIFY:
        await _identify(server, conn, data if isinstance(data, dict) else {})
        return
    if op == Op.RESUME:
        await _resume(server, conn, data if isinstance(data, dict) else {})
        return
    if conn.session is None:
        await conn.close(Close.NOT_AUTHENTICATED, "Not authenticated")
        return
    if op == Op.PRESENCE_UPDATE:
        conn.session.presence = data
        server.gateway_log.append(GatewayLogEntry("presence", session_id, detail=data))
    elif op == Op.REQUEST_GUILD_MEMBERS:
        server.gateway_log.append(GatewayLogEntry("request_members", session_id, detail=data))
        _send_member_chunk(server, conn.session, data if isinstance(data, dict) else {})
    elif op == Op.VOICE_STATE_UPDATE:
        pass
    else:
        await conn.close(Close.UNKNOWN_OPCODE, "Unknown opcode")
    server.touch()


async def _identify(server: OfflineDiscordServer, conn: GatewayConnection, data: JSON) -> None:
    if conn.session is not None:
        await conn.close(Close.ALREADY_AUTHENTICATED, "Already authenticated")
        return
    if data.get("token") != server.bot_token:
        await conn.close(Close.AUTHENTICATION_FAILED, "Authentication failed")
        return
    intents = data.get("intents")
    if not isinstance(intents, int) or intents < 0 or intents & ~Intent.ALL_KNOWN:
        await conn.close(Close.INVALID_INTENTS, "Invalid intent(s)")
        return
    if intents & Intent.PRIVILEGED & ~server.privileged_intents:
        await conn.close(Close.DISALLOWED_INTENTS, "Disallowed intent(s)")
        return
    shard: tuple[int, int] | None = None
    raw_shard = data.get("shard")
    if raw_shard is not None:
        if not (
            isinstance(raw_shard, list) and len(raw_shard) == 2 and 0 <= raw_shard[0] < raw_shard[1]
        ):
            await conn.close(Close.INVALID_SHARD, "Invalid shard")
            return
        shard = (int(raw_shard[0]), int(raw_shard[1]))
    # A fresh IDENTIFY for the same shard replaces the earlier sessions of that shard.
    for old in server.sessions.values():
        if old.shard == shard:
            old.valid = False
    session = GatewaySession(
        server,
        intents=intents,
        shard=shard,
        large_threshold=int(data.get("large_threshold") or 50),
        identify=data,
    )
    server.sessions[session.id] = session
    conn.session = session
    session.connection = conn
    server.gateway_log.append(
        GatewayLogEntry("identify", session.id, detail={"intents": intents, "shard": shard})
    )
    session.dispatch("READY", ready_payload(server, session))
    if intents & Intent.GUILDS:
        for guild in server.guilds.values():
            if session.owns_guild(guild.id) and server.has_bot(guild):
                session.dispatch("GUILD_CREATE", guild_create_payload(server, guild, session))
    session.ready = True
    server.gateway_log.append(GatewayLogEntry("ready", session.id))
    server.touch()


async def _resume(server: OfflineDiscordServer, conn: GatewayConnection, data: JSON) -> None:
    session = server.sessions.get(str(data.get("session_id")))
    seq = data.get("seq")
    seq = int(seq) if isinstance(seq, int) else 0
    oldest = session.buffer[0][0] if session is not None and session.buffer else 1
    if (
        session is None
        or not session.valid
        or data.get("token") != server.bot_token
        or seq < oldest - 1
        or seq > session.seq
    ):
        server.gateway_log.append(GatewayLogEntry("invalid_session", data.get("session_id")))
        conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
        server.touch()
        return
    previous = session.connection
    if previous is not None and previous is not conn and not previous.closed:
        await previous.close(Close.UNKNOWN_ERROR, "Session resumed elsewhere")
    conn.session = session
    session.connection = conn
    server.gateway_log.append(GatewayLogEntry("resume", session.id, detail={"seq": seq}))
    replayed = 0
    for s, text in session.buffer:
        if s > seq:
            conn.send_text(text)
            replayed += 1
    session.dispatch("RESUMED", {"_trace": ["offline-discord"]})
    server.gateway_log.append(GatewayLogEntry("resumed", session.id, detail={"replayed": replayed}))
    server.touch()


def _send_member_chunk(server: OfflineDiscordServer, session: GatewaySession, data: JSON) -> None:
    guild = server.guilds.get(int(data.get("guild_id") or 0))
    if guild is None:
        return
    members = list(guild.members.values())
    user_ids = data.get("user_ids")
    not_found: list[str] = []
    if user_ids:
        wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
        members = [m for m in members if m.user.id in wanted]
        not_found = [str(u) for u in wanted - {m.user.id for m in members}]
    query = data.get("query")
    if isinstance(query, str) and query:
        members = [m for m in members if m.user.username.lower().startswith(query.lower())]
    limit = int(data.get("limit") or 0)
    if limit:
        members = members[:limit]
    chunk: JSON = {
        "guild_id": str(guild.id),
        "members": [m.to_payload() for m in members],
        "chunk_index": 0,
        "chunk_count": 1,
        "not_found": not_found,
    }
    if data.get("nonce"):
        chunk["nonce"] = data["nonce"]
    session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
