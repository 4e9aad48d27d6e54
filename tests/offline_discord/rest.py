"""REST API v10 routes (the part a discord.py bot uses), as an aiohttp application."""

from __future__ import annotations

import base64
import json
import quopri
import re
from collections.abc import Awaitable, Callable, Iterator
from email.message import Message
from email.parser import HeaderParser
from email.policy import compat32
from email.utils import collapse_rfc2231_value
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import errors as E
from .errors import DiscordAPIError, RecordedRequest, UploadedFile, json_response
from .interactions import (
    CallbackRecord,
    CallbackType,
    InteractionHandle,
    InteractionType,
    RejectedCallback,
)
from .models import (
    JSON,
    Channel,
    ChannelType,
    Guild,
    Intent,
    MessageFlag,
    Perm,
    StoredAttachment,
    StoredMessage,
)
from .validation import (
    CREATE_FLAGS,
    validate_choices,
    validate_command,
    validate_message,
    validate_modal,
)

if TYPE_CHECKING:
    from .server import OfflineDiscordServer

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_API = re.compile(r"^/api/v(\d+)(/.*)$")
_NO_AUTH = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}", "/gateway")


def _ok(data: Any, status: int = 200) -> web.Response:
    return json_response(data, status=status)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _int(value: str, not_found: DiscordAPIError) -> int:
    try:
        return int(value)
    except ValueError:
        raise not_found from None


class Body:
    def __init__(self, data: Any, files: list[UploadedFile]) -> None:
        self.data = data
        self.files = files

    @property
    def json(self) -> JSON:
        return self.data if isinstance(self.data, dict) else {}


BODY_KEY = web.RequestKey("offline_discord_body", Body)


def _headers(raw: bytes) -> Message:
    """A part's headers; raw UTF-8 in them (a file's name as aiohttp sends it) read as text."""
    return HeaderParser(policy=compat32).parsestr(raw.decode("utf-8", "replace") + "\r\n\r\n")


def _text(value: Any) -> str:
    """A header parameter as text (RFC 2231 values collapsed)."""
    return collapse_rfc2231_value(value)


def _parts(content_type: str, body: bytes) -> Iterator[tuple[Message, bytes]]:
    """A multipart body's parts (RFC 2046): each one's headers and its decoded bytes.

    Split at the boundary by hand: the standard library's MIME parser reads a part line by
    line, and the PNGs of a whole game made it a third of the end-to-end tests' time."""
    boundary = _headers(b"Content-Type: " + content_type.encode()).get_boundary()
    if not boundary:
        raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.")
    chunks = (b"\r\n" + body).split(b"\r\n--" + boundary.encode())
    for chunk in chunks[1:]:  # the first is the preamble
        if chunk.startswith(b"--"):
            return  # the closing delimiter; what follows is the epilogue
        _, _, rest = chunk.partition(b"\r\n")  # past the rest of the delimiter's line
        if rest.startswith(b"\r\n"):  # a part without headers
            head, payload = b"", rest[2:]
        else:
            head, _, payload = rest.partition(b"\r\n\r\n")
        part = _headers(head)
        encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
        if encoding == "base64":
            payload = base64.b64decode(payload)
        elif encoding == "quoted-printable":
            payload = quopri.decodestring(payload)
        yield part, payload


async def _read_body(request: web.Request) -> Body:
    if request.method in ("GET", "DELETE", "HEAD") and not request.can_read_body:
        return Body(None, [])
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        # The whole body, then split at its boundary (aiohttp's streaming part reader warns of
        # a deprecation of its own when a part spans its read chunks).
        raw_body = await request.read()
        data: Any = None
        files: list[UploadedFile] = []
        for part, raw in _parts(request.headers.get("Content-Type", ctype), raw_body):
            name = _text(part.get_param("name", header="content-disposition") or "")
            if name == "payload_json":
                data = json.loads(raw.decode())
                continue
            match = re.fullmatch(r"files\[(\d+)\]", name)
            index = int(match.group(1)) if match else len(files)
            files.append(
                UploadedFile(
                    index=index,
                    filename=_text(part.get_filename() or "") or f"file{index}",
                    content_type=part.get("Content-Type"),
                    data=raw,
                )
            )
        return Body(data, files)
    raw_text = await request.text()
    if not raw_text:
        return Body(None, [])
    try:
        return Body(json.loads(raw_text), [])
    except ValueError:
        raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.") from None


def build_app(server: OfflineDiscordServer) -> web.Application:
    api = RestApi(server)
    app = web.Application(middlewares=[api.middleware], client_max_size=64 * 1024 * 1024)
    api.register(app)
    return app


class RestApi:
    def __init__(self, server: OfflineDiscordServer) -> None:
        self.server = server

    # ------------------------------------------------------------------------------------------
    # plumbing
    # ------------------------------------------------------------------------------------------

    def register(self, app: web.Application) -> None:
        r = app.router
        base = "/api/v{version}"
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/applications/{application_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/commands", self.put_commands),
            ("POST", "/applications/{application_id}/commands", self.post_command),
            ("GET", "/applications/{application_id}/commands/{command_id}", self.get_command),
            ("PATCH", "/applications/{application_id}/commands/{command_id}", self.patch_command),
            ("DELETE", "/applications/{application_id}/commands/{command_id}", self.delete_command),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            (
                "POST",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self.post_command,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
                self.get_command_permissions,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                self.get_command,
            ),
            (
                "PATCH",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                self.patch_command,
            ),
            (
                "DELETE",
                "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
                self.delete_command,
            ),
            (
                "POST",
                "/interactions/{interaction_id}/{interaction_token}/callback",
                self.interaction_callback,
            ),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self.create_followup),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self.get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self.edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self.delete_webhook_message,
            ),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.modify_channel),
            ("DELETE", "/channels/{channel_id}", self.delete_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.add_reaction,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.remove_reaction,
            ),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        for method, path, handler in routes:
            r.add_route(method, base + path, handler)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        m = _API.match(request.path)
        if m is None:
            return await handler(request)
        version, rel = int(m.group(1)), m.group(2)
        resource = request.match_info.route.resource
        unknown_route = (
            getattr(request.match_info, "http_exception", None) is not None or resource is None
        )
        route = "<unknown>"
        if resource is not None and not unknown_route:
            route = resource.canonical.removeprefix("/api/v{version}")
        rec = RecordedRequest(
            method=request.method,
            path=rel,
            route=route,
            query=dict(request.query),
            json=None,
            files=[],
        )
        self.server.requests.append(rec)
        response: web.StreamResponse
        try:
            body = await _read_body(request)
            rec.json, rec.files = body.data, body.files
            request[BODY_KEY] = body
            if version != 10:
                raise DiscordAPIError(400, 50041, "Invalid API version provided.")
            if unknown_route:
                self.server.unhandled_requests.append(rec)
                raise DiscordAPIError(404, 0, "404: Not Found")
            if not route.startswith(_NO_AUTH) and request.headers.get("Authorization") != (
                "Bot " + self.server.bot_token
            ):
                raise E.unauthorized()
            fault = self.server.match_fault(rec)
            if fault is not None:
                response = fault.response()
                code = fault.body.get("code")
                rec.error_code = int(code) if isinstance(code, int) else None
            else:
                response = await handler(request)
        except DiscordAPIError as exc:
            response = exc.to_response()
            rec.error_code = exc.code
        rec.status = response.status
        self.server.touch()
        return response

    def body(self, request: web.Request) -> Body:
        body = request.get(BODY_KEY)
        return body if body is not None else Body(None, [])

    def channel(self, request: web.Request) -> Channel:
        cid = _int(request.match_info["channel_id"], E.unknown_channel())
        channel = self.server.channels.get(cid)
        if channel is None:
            raise E.unknown_channel()
        guild = self.server.guild_of(channel)
        if (
            guild is not None
            and not guild.permissions_for(self.server.bot_user.id, channel) & Perm.VIEW_CHANNEL
        ):
            raise DiscordAPIError(403, E.MISSING_ACCESS, "Missing Access")
        return channel

    def guild(self, request: web.Request) -> Guild:
        gid = _int(request.match_info["guild_id"], E.not_found(E.UNKNOWN_GUILD, "Guild"))
        guild = self.server.guilds.get(gid)
        if guild is None:
            raise E.not_found(E.UNKNOWN_GUILD, "Guild")
        return guild

    def channel_message(self, request: web.Request, channel: Channel) -> StoredMessage:
        mid = _int(request.match_info["message_id"], E.unknown_message())
        msg = self.server.get_message(mid)
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel.id:
            raise E.unknown_message()
        return msg

    def require_bot_permissions(self, channel: Channel, perms: int) -> None:
        guild = self.server.guild_of(channel)
        if guild is None:
            return
        have = guild.permissions_for(self.server.bot_user.id, channel)
        if perms & ~have:
            raise E.missing_permissions()

    def attachments_from(self, channel_id: int, body: Body) -> list[StoredAttachment]:
        meta: dict[str, JSON] = {}
        for att in body.json.get("attachments") or []:
            if isinstance(att, dict) and "id" in att:
                meta[str(att["id"])] = att
        out: list[StoredAttachment] = []
        for f in body.files:
            if len(f.data) > self.server.attachment_size_limit:
                raise DiscordAPIError(413, 40005, "Request entity too large")
            info = meta.get(str(f.index), {})
            out.append(
                self.server.store_attachment(
                    channel_id,
                    str(info.get("filename") or f.filename),
                    f.data,
                    f.content_type,
                    info.get("description"),
                )
            )
        return out

    @staticmethod
    def merged(msg: StoredMessage, body: JSON) -> JSON:
        state: JSON = {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags,
        }
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in body:
                state[key] = body[key]
        if body.get("flags") is not None:
            state["flags"] = msg.flags | (int(body["flags"]) & MessageFlag.IS_COMPONENTS_V2)
        return state

    # ------------------------------------------------------------------------------------------
    # gateway / users / application
    # ------------------------------------------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return _ok({"url": self.server.gateway_url.rstrip("/")})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return _ok(
            {
                "url": self.server.gateway_url.rstrip("/"),
                "shards": self.server.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000 - len(self.server.gateway_events("identify")),
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        data = self.server.bot_user.to_payload()
        data.update(verified=True, mfa_enabled=False, email=None, locale="en-US", flags=0)
        return _ok(data)

    async def get_user(self, request: web.Request) -> web.Response:
        uid = _int(request.match_info["user_id"], E.not_found(E.UNKNOWN_USER, "User"))
        user = self.server.get_user(uid)
        if user is None:
            raise E.not_found(E.UNKNOWN_USER, "User")
        return _ok(user.to_payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        recipient = self.body(request).json.get("recipient_id")
        try:
            user = self.server.get_user(int(str(recipient)))
        except (TypeError, ValueError):
            user = None
        if user is None:
            raise E.invalid_form("recipient_id", "USER_NOT_FOUND", "Unknown user")
        return _ok(self.server.dm_channel_for(user).to_payload())

    async def get_application(self, request: web.Request) -> web.Response:
        s = self.server
        return _ok(
            {
                "id": str(s.application_id),
                "name": s.bot_user.username,
                "icon": None,
                "description": "Offline test application",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": s.bot_user.to_payload(),
                "owner": s.owner.to_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(s.guilds),
                "integration_types_config": {"0": {}, "1": {}},
            }
        )

    # ------------------------------------------------------------------------------------------
    # application commands
    # ------------------------------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> tuple[int | None, list[JSON]]:
        app_id = request.match_info["application_id"]
        if app_id != str(self.server.application_id):
            raise DiscordAPIError(403, E.MISSING_ACCESS, "Missing Access")
        if "guild_id" in request.match_info:
            guild = self.guild(request)
            return guild.id, self.server.guild_commands.setdefault(guild.id, [])
        return None, self.server.global_commands

    def _normalise_command(self, raw: JSON, guild_id: int | None, existing: list[JSON]) -> JSON:
        ctype = int(raw.get("type", 1))
        previous = next(
            (c for c in existing if c["name"] == raw.get("name") and c["type"] == ctype), None
        )
        cmd: JSON = {
            "id": previous["id"] if previous else str(self.server.snowflake()),
            "application_id": str(self.server.application_id),
            "version": str(self.server.snowflake()),
            "type": ctype,
            "name": raw["name"],
            "name_localizations": raw.get("name_localizations"),
            "description": raw.get("description", "") if ctype == 1 else "",
            "description_localizations": raw.get("description_localizations"),
            "default_member_permissions": (
                None
                if raw.get("default_member_permissions") is None
                else str(raw["default_member_permissions"])
            ),
            "dm_permission": raw.get("dm_permission", True),
            "nsfw": bool(raw.get("nsfw", False)),
            "contexts": raw.get("contexts"),
            "integration_types": raw.get("integration_types") or [0],
        }
        if raw.get("options"):
            cmd["options"] = raw["options"]
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        return cmd

    async def get_commands(self, request: web.Request) -> web.Response:
        _, commands = self._command_scope(request)
        return _ok(commands)

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id, existing = self._command_scope(request)
        raw = self.body(request).data
        if not isinstance(raw, list):
            raise E.invalid_form("_", "BASE_TYPE_ARRAY", "Must be an array.")
        seen: set[tuple[str, int]] = set()
        for i, cmd in enumerate(raw):
            validate_command(cmd, str(i))
            key = (str(cmd["name"]), int(cmd.get("type", 1)))
            if key in seen:
                raise E.invalid_form(
                    f"{i}.name",
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                )
            seen.add(key)
        commands = [self._normalise_command(c, guild_id, existing) for c in raw]
        existing[:] = commands
        self.server.command_syncs.append((guild_id, commands))
        return _ok(commands)

    async def post_command(self, request: web.Request) -> web.Response:
        guild_id, existing = self._command_scope(request)
        raw = self.body(request).json
        validate_command(raw, "_")
        cmd = self._normalise_command(raw, guild_id, existing)
        created = all(c["id"] != cmd["id"] for c in existing)
        existing[:] = [c for c in existing if c["id"] != cmd["id"]] + [cmd]
        return _ok(cmd, status=201 if created else 200)

    def _find_command(self, request: web.Request) -> tuple[list[JSON], JSON]:
        _, existing = self._command_scope(request)
        cid = request.match_info["command_id"]
        for cmd in existing:
            if cmd["id"] == cid:
                return existing, cmd
        raise E.not_found(E.UNKNOWN_APPLICATION_COMMAND, "application command")

    async def get_command(self, request: web.Request) -> web.Response:
        return _ok(self._find_command(request)[1])

    async def patch_command(self, request: web.Request) -> web.Response:
        _, cmd = self._find_command(request)
        cmd.update(
            {
                k: v
                for k, v in self.body(request).json.items()
                if k not in ("id", "application_id", "type")
            }
        )
        validate_command(cmd, "_")
        return _ok(cmd)

    async def delete_command(self, request: web.Request) -> web.Response:
        existing, cmd = self._find_command(request)
        existing.remove(cmd)
        return _no_content()

    async def get_command_permissions(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        return _ok([])

    # ------------------------------------------------------------------------------------------
    # interactions
    # ------------------------------------------------------------------------------------------

    def _reject(
        self, handle: InteractionHandle | None, endpoint: str, exc: DiscordAPIError
    ) -> DiscordAPIError:
        if handle is not None:
            handle.rejected.append(RejectedCallback(endpoint, exc.status, exc.code, exc.message))
        return exc

    async def interaction_callback(self, request: web.Request) -> web.Response:
        s = self.server
        iid = _int(request.match_info["interaction_id"], E.unknown_interaction())
        handle = s.interactions.get(iid)
        if handle is None or handle.token != request.match_info["interaction_token"]:
            raise E.unknown_interaction()
        if handle.reject_callback_with is not None:
            code = handle.reject_callback_with
            exc = (
                E.unknown_interaction()
                if code == E.UNKNOWN_INTERACTION
                else DiscordAPIError(400, code, "Injected callback failure")
            )
            raise self._reject(handle, "callback", exc)
        if handle.failed:
            raise self._reject(handle, "callback", E.unknown_interaction())
        if handle.callback is not None:
            raise self._reject(handle, "callback", E.already_acknowledged())
        body = self.body(request)
        rtype = body.json.get("type")
        data = body.json.get("data") or {}
        if not isinstance(data, dict):
            raise E.invalid_form(
                "data", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"
            )
        allowed: dict[int, tuple[int, ...]] = {
            CallbackType.CHANNEL_MESSAGE_WITH_SOURCE: (2, 3, 5),
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: (2, 3, 5),
            CallbackType.DEFERRED_UPDATE_MESSAGE: (3, 5),
            CallbackType.UPDATE_MESSAGE: (3, 5),
            CallbackType.AUTOCOMPLETE_RESULT: (4,),
            CallbackType.MODAL: (2, 3),
        }
        if not isinstance(rtype, int) or handle.type not in allowed.get(rtype, ()):
            raise self._reject(
                handle,
                "callback",
                E.invalid_form(
                    "type", "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid interaction response type"
                ),
            )
        if rtype in (6, 7) and handle.source_message is None:
            raise self._reject(
                handle,
                "callback",
                E.invalid_form(
                    "type",
                    "INTERACTION_RESPONSE_TYPE_INVALID",
                    "This interaction has no message to update",
                ),
            )

        message: StoredMessage | None = None
        channel = handle.channel
        if rtype == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            flags = int(data.get("flags") or 0)
            validate_message(data, file_count=len(body.files), creating=True, prefix="data.")
            message = s.create_message(
                channel,
                s.bot_user,
                content=data.get("content") or "",
                embeds=data.get("embeds") or [],
                components=data.get("components") or [],
                flags=flags & CREATE_FLAGS,
                attachments=self.attachments_from(channel.id, body),
                type=self._response_message_type(handle),
                tts=bool(data.get("tts")),
                webhook_id=s.application_id,
                interaction=handle,
                allowed_mentions=data.get("allowed_mentions"),
            )
            handle.original_message_id = message.id
        elif rtype == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            flags = int(data.get("flags") or 0)
            if flags & ~MessageFlag.EPHEMERAL:
                raise self._reject(
                    handle,
                    "callback",
                    E.invalid_form(
                        "data.flags",
                        "INTERACTION_RESPONSE_FLAGS_INVALID",
                        "Only EPHEMERAL may be set on a deferred response",
                    ),
                )
            message = s.create_message(
                channel,
                s.bot_user,
                flags=MessageFlag.LOADING | (flags & MessageFlag.EPHEMERAL),
                type=self._response_message_type(handle),
                webhook_id=s.application_id,
                interaction=handle,
            )
            handle.original_message_id = message.id
        elif rtype == CallbackType.DEFERRED_UPDATE_MESSAGE:
            assert handle.source_message is not None
            handle.original_message_id = handle.source_message.id
            message = handle.source_message
        elif rtype == CallbackType.UPDATE_MESSAGE:
            source = handle.source_message
            assert source is not None
            if source.deleted:
                raise self._reject(handle, "callback", E.unknown_message())
            validate_message(
                self.merged(source, data),
                file_count=len(body.files),
                creating=False,
                prefix="data.",
            )
            new_files = self.attachments_from(channel.id, body)
            message = s.edit_message(source, data, new_files)
            handle.original_message_id = source.id
        elif rtype == CallbackType.AUTOCOMPLETE_RESULT:
            validate_choices(data)
        elif rtype == CallbackType.MODAL:
            validate_modal(data)

        handle.callback = CallbackRecord(
            type=rtype, data=data, message=message, files=len(body.files)
        )
        if handle.timer is not None:
            handle.timer.cancel()
        s.touch()
        with_response = request.query.get("with_response", "").lower() in ("1", "true")
        if not with_response:
            return _no_content()
        interaction: JSON = {"id": str(handle.id), "type": handle.type}
        resource: JSON = {"type": rtype}
        if rtype in (4, 5) and message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = rtype == 5
            interaction["response_message_ephemeral"] = message.ephemeral
        if rtype in (4, 7) and message is not None:
            resource["message"] = message.to_payload()
        return _ok({"interaction": interaction, "resource": resource})

    @staticmethod
    def _response_message_type(handle: InteractionHandle) -> int:
        if handle.type == InteractionType.APPLICATION_COMMAND:
            return 20 if int(handle.data.get("type", 1)) == 1 else 23
        return 0

    def _webhook_handle(self, request: web.Request, endpoint: str) -> InteractionHandle:
        if request.match_info["webhook_id"] != str(self.server.application_id):
            raise E.unknown_webhook()
        handle = self.server.interaction_by_token(request.match_info["webhook_token"])
        if handle is None:
            raise E.unknown_webhook()
        if handle.failed or handle.callback is None:
            raise self._reject(handle, endpoint, E.unknown_webhook())
        return handle

    def _webhook_message(
        self, request: web.Request, handle: InteractionHandle, endpoint: str
    ) -> StoredMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            mid = handle.original_message_id
        else:
            mid = _int(raw, E.unknown_message())
            if mid != handle.original_message_id and all(m.id != mid for m in handle.followups):
                mid = None
        msg = self.server.get_message(mid) if mid is not None else None
        if msg is None or msg.deleted:
            raise self._reject(handle, endpoint, E.unknown_message())
        return msg

    async def create_followup(self, request: web.Request) -> web.Response:
        s = self.server
        handle = self._webhook_handle(request, "followup")
        body = self.body(request)
        data = body.json
        assert handle.callback is not None
        original = handle.original_message_or_none
        if (
            handle.callback.type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
            and not handle.deferred_loading_replaced
        ):
            # Documented backwards-compatible behaviour: the first followup after a deferred
            # response edits the loading message; its ephemeral flag is ignored.
            edit = {k: v for k, v in data.items() if k != "flags"}
            if data.get("flags") is not None:
                edit["flags"] = int(data["flags"]) & MessageFlag.IS_COMPONENTS_V2
            validate_message(self.merged(original, edit), file_count=len(body.files), creating=True)
            msg = s.edit_message(original, edit, self.attachments_from(original.channel_id, body))
            handle.deferred_loading_replaced = True
        else:
            validate_message(data, file_count=len(body.files), creating=True)
            msg = s.create_message(
                handle.channel,
                s.bot_user,
                content=data.get("content") or "",
                embeds=data.get("embeds") or [],
                components=data.get("components") or [],
                flags=int(data.get("flags") or 0) & CREATE_FLAGS,
                attachments=self.attachments_from(handle.channel.id, body),
                type=self._response_message_type(handle),
                tts=bool(data.get("tts")),
                webhook_id=s.application_id,
                interaction=handle,
                allowed_mentions=data.get("allowed_mentions"),
            )
        handle.followups.append(msg)
        s.touch()
        return _ok(msg.to_payload())

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        handle = self._webhook_handle(request, "get")
        return _ok(self._webhook_message(request, handle, "get").to_payload())

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        handle = self._webhook_handle(request, "edit")
        msg = self._webhook_message(request, handle, "edit")
        body = self.body(request)
        validate_message(self.merged(msg, body.json), file_count=len(body.files), creating=False)
        self.server.edit_message(msg, body.json, self.attachments_from(msg.channel_id, body))
        return _ok(msg.to_payload())

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        handle = self._webhook_handle(request, "delete")
        msg = self._webhook_message(request, handle, "delete")
        self.server.delete_message(msg)
        return _no_content()

    # ------------------------------------------------------------------------------------------
    # channels and messages
    # ------------------------------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return _ok(self.channel(request).to_payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        self.require_bot_permissions(channel, Perm.READ_MESSAGE_HISTORY)
        msgs = self.server.messages(channel, include_ephemeral=False)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", "50"))))
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            return _ok([m.to_payload() for m in reversed(msgs[:limit])])
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        return _ok([m.to_payload() for m in reversed(msgs[-limit:])])

    async def create_message(self, request: web.Request) -> web.Response:
        s = self.server
        channel = self.channel(request)
        body = self.body(request)
        data = body.json
        if channel.is_dm:
            recipient = channel.recipients[0]
            if not recipient.dms_open or recipient.bot:
                raise E.cannot_dm()
        else:
            needed = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
            if body.files:
                needed |= Perm.ATTACH_FILES
            self.require_bot_permissions(channel, needed)
            if channel.is_thread:
                self.enter_thread(channel)
        flags = int(data.get("flags") or 0)
        if flags & MessageFlag.EPHEMERAL:
            raise E.invalid_form(
                "flags", "MESSAGE_FLAGS_INVALID", "Channel messages cannot be ephemeral"
            )
        validate_message(data, file_count=len(body.files), creating=True)
        reference = data.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            target = s.get_message(int(reference["message_id"]))
            if (target is None or target.deleted) and reference.get("fail_if_not_exists", True):
                raise E.invalid_form(
                    "message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown message"
                )
        msg = s.create_message(
            channel,
            s.bot_user,
            content=data.get("content") or "",
            embeds=data.get("embeds") or [],
            components=data.get("components") or [],
            flags=flags & CREATE_FLAGS,
            attachments=self.attachments_from(channel.id, body),
            type=19 if isinstance(reference, dict) else 0,
            tts=bool(data.get("tts")),
            message_reference=reference if isinstance(reference, dict) else None,
            nonce=str(data["nonce"]) if data.get("nonce") is not None else None,
            allowed_mentions=data.get("allowed_mentions"),
        )
        return _ok(msg.to_payload())

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        self.require_bot_permissions(channel, Perm.READ_MESSAGE_HISTORY)
        return _ok(self.channel_message(request, channel).to_payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        msg = self.channel_message(request, channel)
        body = self.body(request)
        if msg.author.id != self.server.bot_user.id:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
        validate_message(self.merged(msg, body.json), file_count=len(body.files), creating=False)
        self.server.edit_message(msg, body.json, self.attachments_from(channel.id, body))
        return _ok(msg.to_payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        msg = self.channel_message(request, channel)
        if msg.author.id != self.server.bot_user.id:
            self.require_bot_permissions(channel, Perm.MANAGE_MESSAGES)
        self.server.delete_message(msg)
        return _no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self.channel(request)
        return _no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        msg = self.channel_message(request, channel)
        self.require_bot_permissions(channel, Perm.ADD_REACTIONS)
        msg.reactions.setdefault(request.match_info["emoji"], set()).add(self.server.bot_user.id)
        msg.version = self.server.touch()
        return _no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        channel = self.channel(request)
        msg = self.channel_message(request, channel)
        msg.reactions.get(request.match_info["emoji"], set()).discard(self.server.bot_user.id)
        msg.version = self.server.touch()
        return _no_content()

    def enter_thread(self, thread: Channel) -> None:
        """Posting in a thread: a locked one refuses who may not manage threads; an archived one
        comes back (Discord: "Sending a message will automatically unarchive the thread, unless
        the thread has been locked by a moderator")."""
        guild = self.server.guild_of(thread)
        manage = guild is not None and bool(
            guild.permissions_for(self.server.bot_user.id, thread) & Perm.MANAGE_THREADS)
        if thread.locked and not manage:
            if thread.archived:
                raise DiscordAPIError(400, E.THREAD_ARCHIVED, "Thread is archived")
            raise E.missing_permissions()
        if thread.archived:
            self.server.update_thread(thread, archived=False)

    async def create_thread(self, request: web.Request) -> web.Response:
        s = self.server
        parent = self.channel(request)
        guild = s.guild_of(parent)
        if guild is None or parent.type not in (ChannelType.GUILD_TEXT,
                                                 ChannelType.GUILD_ANNOUNCEMENT):
            raise DiscordAPIError(400, E.INVALID_CHANNEL_TYPE,
                                  "Cannot execute action on this channel type")
        data = self.body(request).json
        name = data.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise E.invalid_form(
                "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        duration = data.get("auto_archive_duration") or 1440
        if duration not in (60, 1440, 4320, 10080):
            raise E.invalid_form("auto_archive_duration", "BASE_TYPE_CHOICES",
                                 "Value must be one of {60, 1440, 4320, 10080}.")
        thread_id: int | None = None
        start: StoredMessage | None = None
        if "message_id" in request.match_info:
            start = self.channel_message(request, parent)
            self.require_bot_permissions(parent, Perm.CREATE_PUBLIC_THREADS)
            if start.thread is not None:
                raise DiscordAPIError(400, E.THREAD_ALREADY_CREATED,
                                      "A thread has already been created for this message")
            thread_id = start.id  # "the thread and its message share the same id"
            ttype = (ChannelType.ANNOUNCEMENT_THREAD
                     if parent.type == ChannelType.GUILD_ANNOUNCEMENT
                     else ChannelType.PUBLIC_THREAD)
        else:
            ttype = int(data.get("type") or ChannelType.PRIVATE_THREAD)
            needed = (
                Perm.CREATE_PUBLIC_THREADS
                if ttype == ChannelType.PUBLIC_THREAD
                else Perm.CREATE_PRIVATE_THREADS
            )
            self.require_bot_permissions(parent, needed)
        thread = Channel(
            id=thread_id or s.snowflake(),
            type=ttype,
            name=name,
            guild_id=guild.id,
            parent_id=parent.id,
            owner_id=s.bot_user.id,
            auto_archive_duration=int(duration),
        )
        guild.channels[thread.id] = thread
        s.channels[thread.id] = thread
        s._messages[thread.id] = []
        payload = thread.to_payload()
        s.dispatch("THREAD_CREATE", {**payload, "newly_created": True}, guild_id=guild.id, intent=1)
        if start is not None:  # the message shows its thread
            start.thread = thread
            start.flags |= MessageFlag.HAS_THREAD
            start.version = s.touch()
            s.dispatch_message_event("MESSAGE_UPDATE", start)
        s.touch()
        return _ok(payload, status=201)

    async def modify_channel(self, request: web.Request) -> web.Response:
        """PATCH a channel: a thread's ``archived``, ``locked``, ``name``,
        ``auto_archive_duration`` with Discord's rules (unarchiving an unlocked thread needs
        nothing more; the rest its creator or Manage Threads; ``locked`` Manage Threads); a
        guild channel's ``name`` and ``topic`` with Manage Channels."""
        s = self.server
        channel = self.channel(request)
        data = self.body(request).json
        guild = s.guild_of(channel)
        if guild is None:
            raise DiscordAPIError(400, E.INVALID_CHANNEL_TYPE,
                                  "Cannot execute action on this channel type")
        have = guild.permissions_for(s.bot_user.id, channel)
        if not channel.is_thread:
            self.require_bot_permissions(channel, Perm.MANAGE_CHANNELS)
            channel.name = str(data.get("name", channel.name))
            channel.topic = data.get("topic", channel.topic)
            s.dispatch("CHANNEL_UPDATE", channel.to_payload(), guild_id=guild.id,
                       intent=Intent.GUILDS)
            s.touch()
            return _ok(channel.to_payload())
        manage = bool(have & Perm.MANAGE_THREADS)
        owner = channel.owner_id == s.bot_user.id
        only_unarchive = set(data) <= {"archived"} and data.get("archived") is False
        if "locked" in data and not manage:
            raise E.missing_permissions()
        if channel.locked and not manage and not (owner and only_unarchive):
            raise E.missing_permissions()
        if not only_unarchive and not (manage or owner):
            raise E.missing_permissions()
        if channel.archived and data.get("archived", True) is not False:
            raise DiscordAPIError(400, E.THREAD_ARCHIVED, "Thread is archived")
        s.update_thread(
            channel,
            archived=data.get("archived"),
            locked=data.get("locked"),
            name=data.get("name"),
            auto_archive_duration=data.get("auto_archive_duration"),
        )
        return _ok(channel.to_payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        """DELETE a thread (Manage Threads) or a guild channel (Manage Channels)."""
        channel = self.channel(request)
        if self.server.guild_of(channel) is None:
            raise DiscordAPIError(400, E.INVALID_CHANNEL_TYPE,
                                  "Cannot execute action on this channel type")
        self.require_bot_permissions(
            channel, Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS)
        payload = channel.to_payload()
        self.server.delete_channel(channel)
        return _ok(payload)

    # ------------------------------------------------------------------------------------------
    # guilds
    # ------------------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        return _ok(
            {
                "id": str(guild.id),
                "name": guild.name,
                "icon": None,
                "splash": None,
                "discovery_splash": None,
                "owner_id": str(guild.owner_id),
                "afk_channel_id": None,
                "afk_timeout": 300,
                "verification_level": 0,
                "default_message_notifications": 0,
                "explicit_content_filter": 0,
                "roles": [r.to_payload() for r in guild.roles.values()],
                "emojis": [],
                "stickers": [],
                "features": guild.features,
                "mfa_level": 0,
                "system_channel_id": None,
                "system_channel_flags": 0,
                "rules_channel_id": None,
                "vanity_url_code": None,
                "description": None,
                "banner": None,
                "premium_tier": 0,
                "preferred_locale": guild.locale,
                "public_updates_channel_id": None,
                "nsfw_level": 0,
                "premium_progress_bar_enabled": False,
                "approximate_member_count": len(guild.members),
            }
        )

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        return _ok([c.to_payload() for c in guild.channels.values() if not c.is_thread])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        return _ok([r.to_payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", "1"))))
        after = int(request.query.get("after", "0"))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )
        return _ok([m.to_payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.guild(request)
        uid = _int(request.match_info["user_id"], E.not_found(E.UNKNOWN_MEMBER, "Member"))
        member = guild.members.get(uid)
        if member is None:
            raise E.not_found(E.UNKNOWN_MEMBER, "Member")
        return _ok(member.to_payload())

    # ------------------------------------------------------------------------------------------
    # CDN stand-in
    # ------------------------------------------------------------------------------------------

    async def get_attachment(self, request: web.Request) -> web.Response:
        try:
            att = self.server.get_attachment(int(request.match_info["attachment_id"]))
        except ValueError:
            att = None
        if att is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )
