"""Turn notifications by direct message, with the fall-backs a shared server needs.

* A user may turn DMs off (``/pr notify``); the setting lives in storage (``dm_notifications``).
* Discord refuses a DM to a user who blocks them (403, code 50007).  That is remembered
  (``dm_blocked``) so we stop trying, and the user is mentioned in the game's channel instead.
  Turning notifications on again clears the mark.
* DMs are rate-limited: at most one per user per ``min_interval`` seconds (a quick exchange of
  turns does not flood anyone), and a global bucket keeps the bot well inside Discord's limits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import discord

from storage import Storage, UserSettings

from .i18n import CATALOG, Catalog

log = logging.getLogger(__name__)

DM_BLOCKED_CODE = 50007


class TokenBucket:
    """At most ``rate`` acquisitions per ``per`` seconds on average, bursts up to ``rate``."""

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.per = per
        self.clock = clock
        self.tokens = float(rate)
        self.updated = clock()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = self.clock()
                refill = (now - self.updated) * self.rate / self.per
                self.tokens = min(self.rate, self.tokens + refill)
                self.updated = now
                if self.tokens >= 1:
                    self.tokens -= 1
                    return
                await asyncio.sleep((1 - self.tokens) * self.per / self.rate)


@dataclass
class NotifyReport:
    """What one round of notifications did (for logs and tests)."""

    sent: list[int] = field(default_factory=list)
    mentioned: list[int] = field(default_factory=list)
    opted_out: list[int] = field(default_factory=list)
    throttled: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnNotice:
    game_id: int
    channel_id: int | None
    language: str | None
    what: dict[str, str]
    """The decision asked for, by language (``{"en": "choose a role", "es": ...}``)."""
    link: str | None


class Notifier:
    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        catalog: Catalog = CATALOG,
        *,
        min_interval: float = 60.0,
        rate: int = 5,
        per: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.storage = storage
        self.catalog = catalog
        self.min_interval = min_interval
        self.clock = clock
        self.bucket = TokenBucket(rate, per, clock)
        self._last_dm: dict[int, float] = {}

    async def set_enabled(self, user_id: int, enabled: bool) -> UserSettings:
        """``/pr notify``: turning DMs on also forgets an earlier refusal (the user may have
        opened their DMs since)."""
        if enabled:
            return await self.storage.settings.update_user(
                user_id, dm_notifications=True, dm_blocked=False
            )
        return await self.storage.settings.update_user(user_id, dm_notifications=False)

    async def turn(self, notice: TurnNotice, user_ids: Sequence[int]) -> NotifyReport:
        """Tell ``user_ids`` it is their turn: a DM each, or one mention in the game channel for
        those who cannot get a DM."""
        report = NotifyReport()
        if not user_ids:
            return report
        settings = await self.storage.settings.users(list(dict.fromkeys(user_ids)))
        fallback: list[int] = []
        for user_id, prefs in settings.items():
            if not prefs.dm_notifications:
                report.opted_out.append(user_id)
            elif prefs.dm_blocked:
                fallback.append(user_id)
            elif self.clock() - self._last_dm.get(user_id, -1e18) < self.min_interval:
                report.throttled.append(user_id)
            elif await self._dm(user_id, prefs, notice):
                report.sent.append(user_id)
            else:
                fallback.append(user_id)
        if fallback and await self._mention(fallback, notice):
            report.mentioned.extend(fallback)
        log.debug("game %s notifications: %s", notice.game_id, report)
        return report

    async def _dm(self, user_id: int, prefs: UserSettings, notice: TurnNotice) -> bool:
        lang = prefs.language or notice.language or self.catalog.default
        text = self.catalog.t(
            lang,
            "notify.dm",
            game=notice.game_id,
            what=notice.what.get(lang) or next(iter(notice.what.values()), ""),
            link=notice.link or "",
        ).strip()
        await self.bucket.acquire()
        self._last_dm[user_id] = self.clock()
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(text)
        except discord.Forbidden as exc:
            if exc.code == DM_BLOCKED_CODE:
                log.info("user %s does not accept DMs; remembered, mentioning instead", user_id)
                await self.storage.settings.update_user(user_id, dm_blocked=True)
            else:
                log.warning("DM to %s refused (%s)", user_id, exc.code)
            return False
        except discord.HTTPException as exc:
            log.warning("DM to %s failed (%s %s)", user_id, exc.status, exc.code)
            return False
        return True

    async def _mention(self, user_ids: list[int], notice: TurnNotice) -> bool:
        if notice.channel_id is None:
            return False
        lang = notice.language or self.catalog.default
        text = self.catalog.t(
            lang,
            "notify.channel",
            mentions=" ".join(f"<@{u}>" for u in user_ids),
            game=notice.game_id,
            what=notice.what.get(lang, ""),
        )
        try:
            channel = self.client.get_channel(notice.channel_id) or await self.client.fetch_channel(
                notice.channel_id
            )
            if not isinstance(channel, discord.abc.Messageable):
                return False
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in user_ids]
                ),
            )
        except discord.HTTPException as exc:
            log.warning("could not mention %s in channel %s (%s)", user_ids, notice.channel_id,
                        exc.code)
            return False
        return True
