"""What the server records about one interaction, and the handle a test awaits on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .models import JSON, Channel, Guild, MessageFlag, StoredMessage, User

if TYPE_CHECKING:
    from .server import OfflineDiscordServer


DISCORD_ACK_TIMEOUT = 3.0
"""Discord's real rule: an interaction not answered within 3 s fails ("This interaction
failed").  ``OfflineDiscordServer(ack_timeout=DISCORD_ACK_TIMEOUT)`` enforces it (the bench)."""
TEST_ACK_TIMEOUT = 30.0
"""The server's default deadline: generous, so that an event-loop stall on a loaded machine does
not fail a bot that defers first.  That the bot defers before any work is tested by order
(tests/e2e/test_defer_first.py), not by the clock."""
WAIT_TIMEOUT = 60.0
"""How long a wait for something expected (a response, a message, a DM) may take before the
test fails.  Only a guard against a hang: every wait returns as soon as the thing arrives."""


class InteractionType:
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType:
    PONG = 1
    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class InteractionFailed(AssertionError):
    """The bot did not acknowledge the interaction in time.

    The user saw "This interaction failed".
    """


@dataclass
class CallbackRecord:
    """The bot's (accepted) response to an interaction."""

    type: int
    data: JSON
    message: StoredMessage | None = None
    files: int = 0
    at: float = field(default_factory=time.monotonic)

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        if self.message is not None and self.type in (4, 5):
            return self.message.ephemeral
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.type in (CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, 6)

    @property
    def content(self) -> str | None:
        value = self.data.get("content")
        return None if value is None else str(value)

    @property
    def choices(self) -> list[JSON]:
        return list(self.data.get("choices") or [])

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])


@dataclass
class RejectedCallback:
    """A callback/webhook call the server refused (e.g. 40060 on a second acknowledgement)."""

    endpoint: str
    status: int
    code: int
    message: str
    at: float = field(default_factory=time.monotonic)


class InteractionHandle:
    """One interaction created by a scripted user.

    Await :meth:`response` for the bot's callback, :meth:`original_message` for the message that
    now represents the response, :meth:`wait_for_followup` for followups; ``followups``,
    ``rejected`` and ``failed`` are plain attributes for assertions.
    """

    def __init__(
        self,
        server: OfflineDiscordServer,
        *,
        id: int,
        token: str,
        type: int,
        payload: JSON,
        user: User,
        channel: Channel,
        guild: Guild | None,
        source_message: StoredMessage | None = None,
        reject_callback_with: int | None = None,
    ) -> None:
        self.server = server
        self.id = id
        self.token = token
        self.type = type
        self.payload = payload
        self.user = user
        self.channel = channel
        self.guild = guild
        self.source_message = source_message
        self.reject_callback_with = reject_callback_with
        self.created_at = time.monotonic()
        self.callback: CallbackRecord | None = None
        self.rejected: list[RejectedCallback] = []
        self.failed = False
        self.original_message_id: int | None = None
        self.followups: list[StoredMessage] = []
        self.deferred_loading_replaced = False
        self.timer: asyncio.TimerHandle | None = None

    def __repr__(self) -> str:
        return (
            f"<InteractionHandle id={self.id} type={self.type} user={self.user.username!r} "
            f"callback={self.callback.type if self.callback else None} failed={self.failed}>"
        )

    # -- state ---------------------------------------------------------------------------------

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def data(self) -> JSON:
        data = self.payload.get("data")
        return data if isinstance(data, dict) else {}

    @property
    def original_message_or_none(self) -> StoredMessage | None:
        if self.original_message_id is None:
            return None
        return self.server.get_message(self.original_message_id)

    # -- waiting -------------------------------------------------------------------------------

    async def response(self, timeout: float = WAIT_TIMEOUT) -> CallbackRecord:
        """The bot's callback. Raises :class:`InteractionFailed` if the ack deadline passed."""

        def check() -> CallbackRecord | None:
            if self.callback is not None:
                return self.callback
            if self.failed:
                raise InteractionFailed(
                    f"This interaction failed: {self!r} was not acknowledged within "
                    f"{self.server.ack_timeout}s"
                )
            return None

        return await self.server.wait_for(check, timeout=timeout, what=f"a response to {self!r}")

    async def original_message(
        self,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT_TIMEOUT,
    ) -> StoredMessage:
        """The message standing for the response, once it is no longer "thinking".

        For type 4/5 responses that is the new message; for 6/7 the message of the component.
        """
        await self.response(timeout=timeout)

        def check() -> StoredMessage | None:
            msg = self.original_message_or_none
            if msg is None or msg.loading:
                return None
            if predicate is not None and not predicate(msg):
                return None
            return msg

        return await self.server.wait_for(
            check, timeout=timeout, what=f"the original response of {self!r}"
        )

    async def wait_for_followup(
        self,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT_TIMEOUT,
    ) -> StoredMessage:
        def check() -> StoredMessage | None:
            for msg in self.followups:
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.server.wait_for(check, timeout=timeout, what=f"a followup of {self!r}")

    async def wait_for_rejection(
        self, code: int | None = None, timeout: float = WAIT_TIMEOUT
    ) -> RejectedCallback:
        def check() -> RejectedCallback | None:
            for rej in self.rejected:
                if code is None or rej.code == code:
                    return rej
            return None

        return await self.server.wait_for(
            check, timeout=timeout, what=f"a rejected callback (code {code}) of {self!r}"
        )

    async def choices(self, timeout: float = WAIT_TIMEOUT) -> list[JSON]:
        """Autocomplete choices returned by the bot."""
        cb = await self.response(timeout)
        if cb.type != CallbackType.AUTOCOMPLETE_RESULT:
            raise AssertionError(f"expected an autocomplete result, got callback type {cb.type}")
        return cb.choices

    async def modal(self, timeout: float = WAIT_TIMEOUT) -> JSON:
        """The modal the bot opened (``custom_id``, ``title``, ``components``)."""
        cb = await self.response(timeout)
        if cb.type != CallbackType.MODAL:
            raise AssertionError(f"expected a modal, got callback type {cb.type}")
        return cb.data

    def followup_payloads(self) -> list[JSON]:
        return [m.to_payload() for m in self.followups]

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "user": self.user.username,
            "callback": None if self.callback is None else self.callback.type,
            "failed": self.failed,
            "rejected": [(r.status, r.code) for r in self.rejected],
            "followups": len(self.followups),
        }
