"""Each person's notification settings (``/game notify``): a private panel of buttons and menus,
stored per person (``user_settings``, ``game_mutes``; docs/notifications.md).

* DMs on or off (as before);
* **quiet hours** in the person's **time zone** (``timezone:`` and ``quiet_hours:`` options, the
  zones autocompleted; the menu offers the usual nights): nothing is sent then, and what was
  held is sent in one DM when they end (:meth:`bot.reminders.Reminders.tick`);
* **digest**: one DM a day at a chosen hour listing every game waiting on them, instead of a DM
  per turn and the reminders;
* a **heads-up** when they are next (the seat before theirs is asked);
* their own **reminder spacing** (else the game's, else the server's);
* **mute** games (no turn DM, no reminder from them).

The panel's components are persistent (``nt:<toggle>``, ``ns:<menu>``) and act on whoever
clicks them, so a panel can only ever change its reader's own settings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from storage import GameNotFound, GameRecord, Storage, UserSettings

from .banks import describe_window, known_zone, quiet_window
from .components import button_look, checked_id
from .errors import UserError, send_ephemeral, send_error
from .games import presenter_for
from .i18n import CATALOG, Catalog
from .notify import Notifier

DEFAULT_DIGEST_HOUR = 9
SPACINGS = (6, 12, 24, 48, 72)
"""The reminder spacings the menu offers (hours); "the game's" besides."""
NIGHTS = ((21 * 60, 8 * 60), (22 * 60, 8 * 60), (23 * 60, 7 * 60), (0, 8 * 60),
          (22 * 60, 9 * 60))
"""The quiet hours the menu offers; any other by ``/game notify quiet_hours:``."""
MUTE_CHOICES = 25


class NotifyToggle(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"nt:(?P<field>dm|heads|digest)"):
    def __init__(self, field: str, *, label: str = "?",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=checked_id(f"nt:{field}")))
        self.field = field

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> NotifyToggle:
        label, style = button_look(item)
        return cls(match["field"], label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _clicked(interaction, self.field, [])


class NotifyMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"ns:(?P<field>hour|spacing|quiet|mute)"):
    def __init__(self, field: str, options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, min_values: int = 1,
                 max_values: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=checked_id(f"ns:{field}"),
            options=options or [discord.SelectOption(label="?", value="?")],
            placeholder=placeholder, min_values=min_values, max_values=max(1, max_values)))
        self.field = field

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> NotifyMenu:
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(match["field"], (list(select.options) if select else []) or None,
                   placeholder=select.placeholder if select else None,
                   min_values=select.min_values if select else 1,
                   max_values=select.max_values if select else 1)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _clicked(interaction, self.field, [str(v) for v in self.item.values])


async def _clicked(interaction: discord.Interaction[Any], field: str, values: list[str]
                   ) -> None:
    panel: NotifyPanel | None = getattr(interaction.client, "notify_panel", None)
    try:
        if panel is None:
            raise RuntimeError("the bot has no notification panel")
        await panel.clicked(interaction, field, values)
    except Exception as exc:  # the panel reports its own errors; this is the last net
        await send_error(interaction, exc, where=f"notification panel {field}")


NOTIFY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (NotifyToggle, NotifyMenu)


class NotifyPanel:
    def __init__(self, storage: Storage, notifier: Notifier, catalog: Catalog = CATALOG
                 ) -> None:
        self.storage = storage
        self.notifier = notifier
        self.catalog = catalog

    def lang(self, interaction: discord.Interaction[Any]) -> str:
        return self.catalog.language_of(interaction.locale)

    # --- the command ----------------------------------------------------------------------------

    async def command(self, interaction: discord.Interaction[Any], enabled: bool | None, *,
                      timezone: str | None = None, quiet_hours: str | None = None,
                      digest_hour: int | None = None, reminder_hours: int | None = None,
                      heads_up: bool | None = None) -> None:
        """``/game notify``: the options given change the caller's settings (each refusal
        says which and why, and nothing changes); the reply is the panel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        user_id = interaction.user.id
        try:
            changes: dict[str, Any] = {}
            if timezone is not None:
                changes["zone"] = known_zone(timezone)
            if quiet_hours is not None:
                changes["quiet_window"] = quiet_window(quiet_hours)
            if digest_hour is not None:
                changes.update(digest_hour=digest_hour, digest_at=self.storage.db.clock())
            if reminder_hours is not None:
                changes["reminder_hours"] = reminder_hours
            if heads_up is not None:
                changes["heads_up"] = heads_up
            lines: list[str] = []
            if enabled is not None:
                await self.notifier.set_enabled(user_id, enabled)
                lines.append(self.catalog.t(lang, "reply.notify_on" if enabled
                                            else "reply.notify_off"))
            if changes:
                await self.storage.settings.update_user(user_id, **changes)
                lines.append(self.catalog.t(lang, "reply.notify_saved"))
            content, view = await self.panel(user_id, lang, lines)
            await interaction.followup.send(content, view=view, ephemeral=True)
        except Exception as exc:
            await send_error(interaction, exc, where="/game notify")

    # --- following a game -----------------------------------------------------------------------

    async def follow(self, interaction: discord.Interaction[Any], game_id: int | None,
                     following: bool) -> None:
        """``/game follow`` and ``/game unfollow``: a person who is not seated follows the
        game (the channel's, else ``game`` of this server) and hears of each phase's end
        (:meth:`bot.notify.Notifier.follow_pings`), or stops."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        user_id = interaction.user.id
        try:
            if game_id is not None:
                record = await self.storage.games.get(game_id)
                if interaction.guild_id is None or record.guild_id != interaction.guild_id:
                    raise GameNotFound(game_id)  # another server's game is no game here
            else:
                found = await self.storage.games.find_by_channel(interaction.channel_id or 0)
                if found is None:
                    raise UserError("err.no_game_here")
                record = found
            if following:
                if record.seat_of(user_id) is not None or record.stand_in_of(user_id):
                    raise UserError("err.follow_seated", game=record.id)
                if not record.status.is_open:
                    raise UserError("err.not_active", game=record.id, status=record.status)
            changed = await self.storage.settings.follow(user_id, record.id, following)
            key = ("reply.followed" if changed else "reply.already_following") if following \
                else ("reply.unfollowed" if changed else "reply.not_following")
            await send_ephemeral(interaction, self.catalog.t(lang, key, game=record.id))
        except Exception as exc:
            await send_error(interaction, exc,
                             where="/game follow" if following else "/game unfollow")

    # --- the components -------------------------------------------------------------------------

    async def clicked(self, interaction: discord.Interaction[Any], field: str,
                      values: list[str]) -> None:
        """A button or menu of the panel: the reader's setting changes, the panel is drawn
        again in place (only ever a private panel: on any other message it is refused and
        nothing changes)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral or not is_panel(message):
            await send_error(interaction, UserError("err.wrong_message"),
                             where=f"notification panel {field} on another message")
            return
        await interaction.response.defer()
        lang = self.lang(interaction)
        user_id = interaction.user.id
        prefs = await self.storage.settings.user(user_id)
        if field == "dm":
            await self.notifier.set_enabled(user_id, not prefs.dm_notifications)
        elif field == "heads":
            await self.storage.settings.update_user(user_id, heads_up=not prefs.heads_up)
        elif field == "digest":
            hour = None if prefs.digest_hour is not None else DEFAULT_DIGEST_HOUR
            await self.storage.settings.update_user(user_id, digest_hour=hour,
                                                    digest_at=self.storage.db.clock())
        elif field == "hour":
            await self.storage.settings.update_user(
                user_id, digest_hour=_number(values, 0, 23), digest_at=self.storage.db.clock())
        elif field == "spacing":
            spacing = None if values == ["game"] else _number(values, 1, 168)
            await self.storage.settings.update_user(user_id, reminder_hours=spacing)
        elif field == "quiet":
            window = None if values == ["none"] else _window(values)
            await self.storage.settings.update_user(user_id, quiet_window=window)
        elif field == "mute":
            games = {g.id for g in await self._games(user_id)}
            chosen = {int(v) for v in values if v.isdigit()} & games
            await self.storage.settings.mute(user_id, games - chosen, False)
            await self.storage.settings.mute(user_id, chosen, True)
        else:
            raise UserError("err.unknown_action")
        content, view = await self.panel(user_id, lang, [self.catalog.t(lang,
                                                                         "reply.notify_saved")])
        await interaction.edit_original_response(content=content, view=view)

    # --- drawing --------------------------------------------------------------------------------

    async def _games(self, user_id: int) -> list[GameRecord]:
        return (await self.storage.games.list_for_user(user_id))[:MUTE_CHOICES]

    async def panel(self, user_id: int, lang: str, notes: Sequence[str] = ()
                    ) -> tuple[str, discord.ui.View]:
        """The panel's text (the settings, in words) and its components."""
        prefs = await self.storage.settings.user(user_id)
        muted = await self.storage.settings.muted(user_id)
        games = await self._games(user_id)
        t = self.catalog.t
        text = "\n".join([*notes, "", f"**{t(lang, 'notify_panel.title')}**",
                          *self.lines(prefs, muted, lang)]).strip()
        view = discord.ui.View(timeout=None)
        on, off = discord.ButtonStyle.success, discord.ButtonStyle.secondary
        view.add_item(NotifyToggle("dm", label=t(lang, "notify_panel.dm_button",
                                                 state=self._state(lang, prefs.dm_notifications)),
                                   style=on if prefs.dm_notifications else off))
        view.add_item(NotifyToggle("heads", label=t(lang, "notify_panel.heads_button",
                                                    state=self._state(lang, prefs.heads_up)),
                                   style=on if prefs.heads_up else off))
        digest = prefs.digest_hour is not None
        view.add_item(NotifyToggle("digest", label=t(lang, "notify_panel.digest_button",
                                                     state=self._state(lang, digest)),
                                   style=on if digest else off))
        view.add_item(NotifyMenu("hour", [
            discord.SelectOption(label=t(lang, "notify_panel.hour_option", hour=f"{h:02d}:00"),
                                 value=str(h), default=prefs.digest_hour == h)
            for h in range(24)], placeholder=t(lang, "notify_panel.hour_placeholder")))
        view.add_item(NotifyMenu("spacing", [
            discord.SelectOption(label=t(lang, "notify_panel.spacing_game"), value="game",
                                 default=prefs.reminder_hours is None),
            *(discord.SelectOption(label=t(lang, "notify_panel.spacing_option", hours=h),
                                   value=str(h), default=prefs.reminder_hours == h)
              for h in SPACINGS)], placeholder=t(lang, "notify_panel.spacing_placeholder")))
        nights = list(NIGHTS)
        if prefs.quiet_window is not None and prefs.quiet_window not in nights:
            nights.append(prefs.quiet_window)
        view.add_item(NotifyMenu("quiet", [
            discord.SelectOption(label=t(lang, "notify_panel.quiet_none"), value="none",
                                 default=prefs.quiet_window is None),
            *(discord.SelectOption(label=describe_window(w), value=f"{w[0]}-{w[1]}",
                                   default=prefs.quiet_window == w) for w in nights)],
            placeholder=t(lang, "notify_panel.quiet_placeholder")))
        if games:
            view.add_item(NotifyMenu("mute", [
                discord.SelectOption(label=t(lang, "notify_panel.mute_option", game=g.id,
                                             title=self._title(g, lang))[:100],
                                     value=str(g.id), default=g.id in muted) for g in games],
                placeholder=t(lang, "notify_panel.mute_placeholder"), min_values=0,
                max_values=len(games)))
        return text, view

    def lines(self, prefs: UserSettings, muted: set[int], lang: str) -> list[str]:
        t = self.catalog.t
        quiet = (describe_window(prefs.quiet_window) if prefs.quiet_window is not None
                 else t(lang, "notify_panel.quiet_none"))
        digest = (t(lang, "notify_panel.digest_at", hour=f"{prefs.digest_hour:02d}:00")
                  if prefs.digest_hour is not None else t(lang, "notify_panel.digest_off"))
        spacing = (t(lang, "notify_panel.spacing_option", hours=prefs.reminder_hours)
                   if prefs.reminder_hours is not None else t(lang, "notify_panel.spacing_game"))
        dm = self._state(lang, prefs.dm_notifications)
        if prefs.dm_notifications and prefs.dm_blocked:  # on, but Discord refuses them
            dm = t(lang, "notify_panel.dm_blocked")
        return [
            t(lang, "notify_panel.dm", state=dm),
            t(lang, "notify_panel.zone", zone=prefs.zone or "UTC"),
            t(lang, "notify_panel.quiet", quiet=quiet),
            t(lang, "notify_panel.digest", digest=digest),
            t(lang, "notify_panel.heads", state=self._state(lang, prefs.heads_up)),
            t(lang, "notify_panel.spacing", spacing=spacing),
            t(lang, "notify_panel.muted", games=self.catalog.join(
                lang, [f"#{g}" for g in sorted(muted)]) or "—"),
        ]

    def _state(self, lang: str, on: bool) -> str:
        return self.catalog.t(lang, "notify_panel.on" if on else "notify_panel.off")

    def _title(self, record: GameRecord, lang: str) -> str:
        return presenter_for(record.game).title(lang)


def is_panel(message: discord.Message) -> bool:
    """Whether ``message`` is a notification panel: its components are all the panel's
    (a panel's button on any other message changes nothing)."""
    ids = [getattr(child, "custom_id", None) for row in message.components
           for child in getattr(row, "children", (row,))]
    return bool(ids) and all(isinstance(i, str) and i.startswith(("nt:", "ns:")) for i in ids)


def _number(values: list[str], low: int, high: int) -> int:
    if len(values) != 1 or not values[0].isdigit() or not low <= int(values[0]) <= high:
        raise UserError("err.unknown_action")
    return int(values[0])


def _window(values: list[str]) -> tuple[int, int]:
    parts = values[0].split("-") if len(values) == 1 else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise UserError("err.unknown_action")
    start, end = int(parts[0]), int(parts[1])
    if not (0 <= start < 1440 and 0 <= end < 1440) or start == end:
        raise UserError("err.unknown_action")
    return start, end
