"""Discord-shaped API errors and the failure-injection rules of the offline server."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .models import JSON


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """Discord answers ``Content-Type: application/json`` exactly (discord.py compares it so)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


class DiscordAPIError(Exception):
    """Raised inside a handler; rendered as Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: JSON | None = None,
        headers: dict[str, str] | None = None,
        extra: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        data.update(self.extra)
        return data

    def to_response(self) -> web.Response:
        return json_response(self.body(), status=self.status, headers=self.headers)


# --- the error codes a bot is likely to meet -------------------------------------------------

UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_APPLICATION_COMMAND = 10063
INTERACTION_ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_SEND_MESSAGES_TO_USER = 50007
MISSING_PERMISSIONS = 50013
INVALID_CHANNEL_TYPE = 50024
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083
THREAD_ALREADY_CREATED = 160004


def not_found(code: int, what: str) -> DiscordAPIError:
    return DiscordAPIError(404, code, f"Unknown {what}")


def unknown_interaction() -> DiscordAPIError:
    return not_found(UNKNOWN_INTERACTION, "interaction")


def unknown_webhook() -> DiscordAPIError:
    return not_found(UNKNOWN_WEBHOOK, "Webhook")


def unknown_message() -> DiscordAPIError:
    return not_found(UNKNOWN_MESSAGE, "Message")


def unknown_channel() -> DiscordAPIError:
    return not_found(UNKNOWN_CHANNEL, "Channel")


def already_acknowledged() -> DiscordAPIError:
    return DiscordAPIError(
        400, INTERACTION_ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
    )


def cannot_dm() -> DiscordAPIError:
    return DiscordAPIError(403, CANNOT_SEND_MESSAGES_TO_USER, "Cannot send messages to this user")


def missing_permissions() -> DiscordAPIError:
    return DiscordAPIError(403, MISSING_PERMISSIONS, "Missing Permissions")


def empty_message() -> DiscordAPIError:
    return DiscordAPIError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


def unauthorized() -> DiscordAPIError:
    return DiscordAPIError(401, 0, "401: Unauthorized")


def invalid_form(path: str, code: str, message: str) -> DiscordAPIError:
    """50035 with Discord's nested ``errors`` object; ``path`` like ``data.components.0.label``."""
    errors: JSON = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        errors = {part: errors}
    return DiscordAPIError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=errors)


# --- failure injection ---------------------------------------------------------------------


@dataclass
class RecordedRequest:
    """One HTTP request the server received (path is relative to ``/api/v10``)."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    error_code: int | None = None
    at: float = field(default_factory=time.monotonic)


@dataclass
class UploadedFile:
    index: int
    filename: str
    content_type: str | None
    data: bytes


RequestPredicate = Callable[[RecordedRequest], bool]


@dataclass
class Fault:
    """An injected failure: the next ``count`` matching requests get this response.

    ``route`` is either a route template as the server names it
    (``/channels/{channel_id}/messages``)
    or a concrete path (``/channels/123/messages``), or a regular expression object; ``None``
    matches every route. ``count=None`` means forever (until :meth:`cancel`).
    """

    method: str | None
    route: str | re.Pattern[str] | None
    status: int
    body: JSON
    headers: dict[str, str] = field(default_factory=dict)
    count: int | None = 1
    predicate: RequestPredicate | None = None
    hits: list[RecordedRequest] = field(default_factory=list)
    cancelled: bool = False

    @property
    def exhausted(self) -> bool:
        return self.cancelled or (self.count is not None and len(self.hits) >= self.count)

    def cancel(self) -> None:
        self.cancelled = True

    def matches(self, req: RecordedRequest) -> bool:
        if self.exhausted:
            return False
        if self.method is not None and self.method.upper() != req.method:
            return False
        if self.route is not None:
            if isinstance(self.route, re.Pattern):
                if not self.route.search(req.path):
                    return False
            elif self.route not in (req.route, req.path):
                return False
        return self.predicate is None or self.predicate(req)

    def response(self) -> web.Response:
        return json_response(self.body, status=self.status, headers=self.headers)


def rate_limit_fault(
    method: str | None,
    route: str | re.Pattern[str] | None,
    *,
    retry_after: float,
    is_global: bool,
    count: int | None,
    predicate: RequestPredicate | None,
) -> Fault:
    """A 429 exactly as Discord sends it (body with ``retry_after``/``global``, rate-limit headers).

    The ``Via`` header matters: without it discord.py takes a 429 for a Cloudflare ban.
    """
    scope = "global" if is_global else "user"
    headers = {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": "offline-bucket",
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body: JSON = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
    }
    if is_global:
        body["code"] = 0
    return Fault(
        method=method,
        route=route,
        status=429,
        body=body,
        headers=headers,
        count=count,
        predicate=predicate,
    )
