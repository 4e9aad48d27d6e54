"""Scripted users: build interaction payloads as Discord would and dispatch them to the bot.

Commands are resolved against the definitions the bot synced (``PUT .../commands``), so option
names and types are checked and converted the way the Discord client does; anything a real user
could not do (unknown command, missing required option, disabled button, no permission) raises
:class:`ScriptError` instead of producing an impossible payload.
"""

from __future__ import annotations

import re
import secrets
import shlex
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .interactions import WAIT_TIMEOUT, CallbackType, InteractionHandle, InteractionType
from .models import (
    JSON,
    Channel,
    ComponentType,
    Guild,
    Member,
    OptionType,
    Perm,
    Role,
    StoredAttachment,
    StoredMessage,
    User,
    iter_components,
)

if TYPE_CHECKING:
    from .server import OfflineDiscordServer

AttachmentSpec = tuple[str, bytes] | tuple[str, bytes, str]


class ScriptError(AssertionError):
    """The scripted action is impossible for a real Discord user."""


def parse_command_line(line: str) -> tuple[str, dict[str, str]]:
    """Split a typed slash command.

    ``"/game new players:3 note:'two words'"``
    -> ``("game new", {"players": "3", "note": "two words"})``
    """
    tokens = shlex.split(line.strip())
    if not tokens:
        raise ScriptError("empty command line")
    path = [tokens[0].lstrip("/")]
    options: dict[str, str] = {}
    for tok in tokens[1:]:
        name, sep, value = tok.partition(":")
        if sep and re.fullmatch(r"[-_'\w]+", name):
            options[name] = value
        elif options:
            raise ScriptError(f"unexpected token {tok!r} after the options in {line!r}")
        else:
            path.append(tok)
    return " ".join(path), options


class ScriptedUser:
    """A user the test controls. Every action returns an :class:`InteractionHandle`."""

    def __init__(self, server: OfflineDiscordServer, user: User) -> None:
        self.server = server
        self.user = user

    def __repr__(self) -> str:
        return f"<ScriptedUser {self.user.username} id={self.user.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def username(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def dm_channel(self) -> Channel:
        """The DM channel between this user and the bot (created on first use)."""
        return self.server.dm_channel_for(self.user)

    @property
    def dms(self) -> list[StoredMessage]:
        return self.server.dms(self.user)

    async def wait_for_dm(
        self, predicate: Any = None, *, timeout: float = WAIT_TIMEOUT, since: int | None = None
    ) -> StoredMessage:
        return await self.server.wait_for_dm(self.user, predicate, timeout=timeout, since=since)

    def member(self, guild: Guild) -> Member | None:
        return guild.members.get(self.user.id)

    # ------------------------------------------------------------------------------------------
    # slash commands
    # ------------------------------------------------------------------------------------------

    async def run(
        self, command_line: str, *, channel: Channel | int, **kwargs: Any
    ) -> InteractionHandle:
        """Type a slash command as text: ``await alice.run("/game new players:3", channel=ch)``."""
        name, options = parse_command_line(command_line)
        return await self.slash(name, options, channel=channel, **kwargs)

    async def slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Channel | int,
        attachments: Mapping[str, AttachmentSpec] | None = None,
        locale: str | None = None,
        reject_callback_with: int | None = None,
    ) -> InteractionHandle:
        """Run ``command`` (``"pr new"``: command, group, subcommand) with typed option values.

        Values may be Python values or strings as typed; users/channels/roles may be objects,
        ids, mentions or names. ``reject_callback_with=10062`` makes the callback fail with
        Unknown interaction.
        """
        ch = self.server.resolve_channel(channel)
        return await self._command(
            command,
            dict(options or {}),
            ch,
            itype=InteractionType.APPLICATION_COMMAND,
            focused=None,
            attachments=attachments or {},
            locale=locale,
            reject_callback_with=reject_callback_with,
        )

    async def autocomplete(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        channel: Channel | int,
        locale: str | None = None,
        reject_callback_with: int | None = None,
    ) -> InteractionHandle:
        """The user is typing into option ``focused``; ``await handle.choices()`` for the result.
        ``reject_callback_with=10062``: the choices come too late (Unknown interaction)."""
        ch = self.server.resolve_channel(channel)
        opts = dict(options or {})
        opts.setdefault(focused, "")
        return await self._command(
            command,
            opts,
            ch,
            itype=InteractionType.AUTOCOMPLETE,
            focused=focused,
            attachments={},
            locale=locale,
            reject_callback_with=reject_callback_with,
        )

    async def _command(
        self,
        command: str,
        options: dict[str, Any],
        channel: Channel,
        *,
        itype: int,
        focused: str | None,
        attachments: Mapping[str, AttachmentSpec],
        locale: str | None,
        reject_callback_with: int | None,
    ) -> InteractionHandle:
        guild = self.server.guild_of(channel)
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise ScriptError("no command name given")
        cmd = self._available_command(parts[0], channel, guild, command_type=1)
        node: JSON = cmd
        path: list[JSON] = []
        for name in parts[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["name"] == name
                    and o["type"] in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)
                ),
                None,
            )
            if sub is None:
                raise ScriptError(
                    f"/{cmd['name']} has no subcommand (group) {name!r} under {node['name']!r}"
                )
            path.append(sub)
            node = sub
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            subs = [o["name"] for o in node.get("options") or []]
            raise ScriptError(f"/{command} needs a subcommand: one of {subs}")
        resolved: dict[str, dict[str, JSON]] = {}
        built = self._build_options(node, options, guild, channel, resolved, attachments, focused)
        for sub in reversed(path):
            built = [{"name": sub["name"], "type": sub["type"], "options": built}]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if built:
            data["options"] = built
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._dispatch(
            itype, channel, data, reject_callback_with=reject_callback_with, locale=locale
        )

    def _available_command(
        self, name: str, channel: Channel, guild: Guild | None, *, command_type: int
    ) -> JSON:
        cmd = self.server.find_command(name, guild.id if guild else None, command_type)
        if cmd is None:
            known = [c["name"] for c in self.server.commands_for(guild.id if guild else None)]
            known += [c["name"] for c in self.server.global_commands if guild is not None]
            raise ScriptError(
                f"command {name!r} (type {command_type}) is not synced here; "
                f"known: {sorted(set(known))}"
            )
        context = 0 if guild is not None else 1
        contexts = cmd.get("contexts")
        if contexts is not None and context not in contexts:
            raise ScriptError(
                f"/{name} is not available in this context ({context}); contexts={contexts}"
            )
        if guild is not None and not self.server.has_bot(guild):
            # a server without the bot: only a command its user install allows
            if not self.user.app_installed or 1 not in (cmd.get("integration_types") or [0]):
                raise ScriptError(f"/{name} is not available in {guild.name!r}: the bot is not "
                                  "there and the user has not installed the app")
            return cmd
        if guild is None and cmd.get("dm_permission") is False:
            raise ScriptError(f"/{name} is not available in DMs")
        if guild is not None:
            self._check_view(guild, channel, Perm.USE_APPLICATION_COMMANDS)
            required = cmd.get("default_member_permissions")
            if required is not None:
                have = guild.permissions_for(self.user.id, channel)
                need = int(required)
                if (need == 0 and have != Perm.ALL) or need & ~have:
                    raise ScriptError(
                        f"{self.username} cannot see /{name}: it needs permissions {need} "
                        f"(default_member_permissions) and the member has {have}"
                    )
        return cmd

    def _check_view(self, guild: Guild, channel: Channel, extra: int = 0) -> int:
        if self.user.id not in guild.members:
            raise ScriptError(f"{self.username} is not a member of {guild.name!r}")
        perms = guild.permissions_for(self.user.id, channel)
        if not perms & Perm.VIEW_CHANNEL or extra & ~perms:
            raise ScriptError(f"{self.username} lacks permissions in #{channel.name} (has {perms})")
        return perms

    def _build_options(
        self,
        node: JSON,
        given: dict[str, Any],
        guild: Guild | None,
        channel: Channel,
        resolved: dict[str, dict[str, JSON]],
        attachments: Mapping[str, AttachmentSpec],
        focused: str | None,
    ) -> list[JSON]:
        defs: list[JSON] = list(node.get("options") or [])
        names = {d["name"] for d in defs}
        unknown = set(given) - names
        if unknown:
            raise ScriptError(
                f"unknown option(s) {sorted(unknown)} for {node['name']!r}; known: {sorted(names)}"
            )
        out: list[JSON] = []
        for d in defs:
            name = d["name"]
            if name not in given:
                if d.get("required") and focused is None:
                    raise ScriptError(f"option {name!r} of {node['name']!r} is required")
                continue
            if name == focused:
                if not d.get("autocomplete"):
                    raise ScriptError(f"option {name!r} has no autocomplete")
                out.append(
                    {
                        "name": name,
                        "type": d["type"],
                        "value": _typed_text(given[name]),
                        "focused": True,
                    }
                )
                continue
            value = self._convert(d, given[name], guild, channel, resolved, attachments)
            out.append({"name": name, "type": d["type"], "value": value})
        return out

    def _convert(
        self,
        d: JSON,
        raw: Any,
        guild: Guild | None,
        channel: Channel,
        resolved: dict[str, dict[str, JSON]],
        attachments: Mapping[str, AttachmentSpec],
    ) -> Any:
        otype = d["type"]
        name = d["name"]
        choices: list[JSON] = d.get("choices") or []
        try:
            if otype == OptionType.STRING:
                value: Any = str(raw)
            elif otype == OptionType.INTEGER:
                if isinstance(raw, bool):
                    raise ValueError("bool is not an integer")
                value = int(raw) if not (choices and _choice_by_name(choices, raw)) else raw
            elif otype == OptionType.NUMBER:
                value = float(raw) if not (choices and _choice_by_name(choices, raw)) else raw
            elif otype == OptionType.BOOLEAN:
                value = _to_bool(raw)
            elif otype == OptionType.USER:
                user = self._resolve_user(raw)
                self._add_resolved_user(user, guild, channel, resolved)
                return str(user.id)
            elif otype == OptionType.CHANNEL:
                target = self._resolve_channel(raw, guild)
                types = d.get("channel_types")
                if types and target.type not in types:
                    raise ScriptError(
                        f"option {name!r} accepts channel types {types}, not {target.type}"
                    )
                resolved.setdefault("channels", {})[str(target.id)] = self._partial_channel(
                    target, guild
                )
                return str(target.id)
            elif otype == OptionType.ROLE:
                role = self._resolve_role(raw, guild)
                resolved.setdefault("roles", {})[str(role.id)] = role.to_payload()
                return str(role.id)
            elif otype == OptionType.MENTIONABLE:
                try:
                    role = self._resolve_role(raw, guild)
                except ScriptError:
                    user = self._resolve_user(raw)
                    self._add_resolved_user(user, guild, channel, resolved)
                    return str(user.id)
                resolved.setdefault("roles", {})[str(role.id)] = role.to_payload()
                return str(role.id)
            elif otype == OptionType.ATTACHMENT:
                spec = attachments.get(raw) if isinstance(raw, str) else raw
                if not isinstance(spec, tuple):
                    raise ScriptError(
                        f"attachment option {name!r}: "
                        "pass (filename, bytes) or a key of attachments="
                    )
                att = self._upload(spec, channel)
                resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
                return str(att.id)
            else:
                raise ScriptError(f"option type {otype} cannot take a value")
        except ValueError as exc:
            raise ScriptError(f"option {name!r}: cannot convert {raw!r}: {exc}") from None
        if choices:
            by_name = _choice_by_name(choices, raw)
            if by_name is not None:
                return by_name["value"]
            if all(c["value"] != value for c in choices):
                raise ScriptError(
                    f"option {name!r}: {raw!r} is not one of {[c['name'] for c in choices]}"
                )
        if otype in (OptionType.INTEGER, OptionType.NUMBER):
            if d.get("min_value") is not None and value < d["min_value"]:
                raise ScriptError(f"option {name!r}: {value} < min_value {d['min_value']}")
            if d.get("max_value") is not None and value > d["max_value"]:
                raise ScriptError(f"option {name!r}: {value} > max_value {d['max_value']}")
        if otype == OptionType.STRING:
            if d.get("min_length") is not None and len(value) < d["min_length"]:
                raise ScriptError(f"option {name!r}: shorter than min_length {d['min_length']}")
            if d.get("max_length") is not None and len(value) > d["max_length"]:
                raise ScriptError(f"option {name!r}: longer than max_length {d['max_length']}")
        return value

    # -- resolution of users, channels, roles ---------------------------------------------------

    def _resolve_user(self, raw: Any) -> User:
        if isinstance(raw, ScriptedUser):
            return raw.user
        if isinstance(raw, User):
            return raw
        if isinstance(raw, Member):
            return raw.user
        text = str(raw).strip()
        m = re.fullmatch(r"<@!?(\d+)>|(\d{6,})", text)
        if m:
            user = self.server.get_user(int(m.group(1) or m.group(2)))
            if user is not None:
                return user
        name = text.removeprefix("@")
        for user in self.server.users.values():
            if name in (user.username, user.global_name):
                return user
        raise ScriptError(f"no user {raw!r}")

    def _resolve_channel(self, raw: Any, guild: Guild | None) -> Channel:
        if isinstance(raw, Channel):
            return raw
        text = str(raw).strip()
        m = re.fullmatch(r"<#(\d+)>|(\d{6,})", text)
        if m:
            channel = self.server.channels.get(int(m.group(1) or m.group(2)))
            if channel is not None:
                return channel
        if guild is not None:
            try:
                return guild.channel_named(text.removeprefix("#"))
            except KeyError:
                pass
        raise ScriptError(f"no channel {raw!r}")

    def _resolve_role(self, raw: Any, guild: Guild | None) -> Role:
        if isinstance(raw, Role):
            return raw
        if guild is None:
            raise ScriptError("roles only exist in guilds")
        text = str(raw).strip()
        m = re.fullmatch(r"<@&(\d+)>|(\d{6,})", text)
        if m:
            role = guild.roles.get(int(m.group(1) or m.group(2)))
            if role is not None:
                return role
        try:
            return guild.role_named(text.removeprefix("@&").removeprefix("@"))
        except KeyError:
            raise ScriptError(f"no role {raw!r}") from None

    def _add_resolved_user(
        self,
        user: User,
        guild: Guild | None,
        channel: Channel,
        resolved: dict[str, dict[str, JSON]],
    ) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
        if guild is not None and user.id in guild.members:
            perms = guild.permissions_for(user.id, channel)
            resolved.setdefault("members", {})[str(user.id)] = guild.members[user.id].to_payload(
                include_user=False, permissions=perms
            )

    def _partial_channel(self, target: Channel, guild: Guild | None) -> JSON:
        perms = guild.permissions_for(self.user.id, target) if guild is not None else Perm.DM_APP
        full = target.to_payload(permissions=perms)
        keep = {
            "id",
            "name",
            "type",
            "permissions",
            "last_message_id",
            "last_pin_timestamp",
            "nsfw",
            "parent_id",
            "guild_id",
            "flags",
            "rate_limit_per_user",
            "topic",
            "position",
            "thread_metadata",
        }
        return {k: v for k, v in full.items() if k in keep}

    def _upload(self, spec: AttachmentSpec, channel: Channel) -> StoredAttachment:
        filename, data = spec[0], spec[1]
        content_type = spec[2] if len(spec) > 2 else None
        return self.server.store_attachment(channel.id, filename, data, content_type, None)

    # ------------------------------------------------------------------------------------------
    # context menus
    # ------------------------------------------------------------------------------------------

    async def user_command(
        self, name: str, target: Any, *, channel: Channel | int
    ) -> InteractionHandle:
        ch = self.server.resolve_channel(channel)
        guild = self.server.guild_of(ch)
        cmd = self._available_command(name, ch, guild, command_type=2)
        user = self._resolve_user(target)
        resolved: dict[str, dict[str, JSON]] = {}
        self._add_resolved_user(user, guild, ch, resolved)
        data: JSON = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 2,
            "target_id": str(user.id),
            "resolved": resolved,
        }
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._dispatch(InteractionType.APPLICATION_COMMAND, ch, data)

    async def message_command(self, name: str, target: StoredMessage | int) -> InteractionHandle:
        msg = self._message(target)
        ch = self.server.resolve_channel(msg.channel_id)
        guild = self.server.guild_of(ch)
        cmd = self._available_command(name, ch, guild, command_type=3)
        data: JSON = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 3,
            "target_id": str(msg.id),
            "resolved": {"messages": {str(msg.id): msg.to_payload()}},
        }
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._dispatch(InteractionType.APPLICATION_COMMAND, ch, data)

    # ------------------------------------------------------------------------------------------
    # components
    # ------------------------------------------------------------------------------------------

    def _message(self, message: StoredMessage | int) -> StoredMessage:
        mid = message if isinstance(message, int) else message.id
        msg = self.server.get_message(mid)
        if msg is None or msg.deleted:
            raise ScriptError(f"message {mid} does not exist (or was deleted)")
        if msg.ephemeral:
            owner = (msg.interaction_metadata or {}).get("user", {}).get("id")
            if owner is not None and owner != str(self.user.id):
                raise ScriptError(f"message {mid} is ephemeral and not visible to {self.username}")
        return msg

    async def click(
        self,
        message: StoredMessage | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        reject_callback_with: int | None = None,
    ) -> InteractionHandle:
        """Click the button with this label / custom_id (or prefix).

        The message's current state (with edits) is used, whatever ``message`` object is passed.
        """
        msg = self._message(message)
        if label is None and custom_id is None and custom_id_prefix is None:
            raise ScriptError("say which button: label=, custom_id= or custom_id_prefix=")
        comp = msg.find_component(
            type=ComponentType.BUTTON,
            label=label,
            custom_id=custom_id,
            custom_id_prefix=custom_id_prefix,
        )
        if comp is None:
            have = [(b.get("label"), b.get("custom_id")) for b in msg.buttons()]
            raise ScriptError(
                f"no button label={label!r} custom_id={custom_id or custom_id_prefix!r} "
                f"in message {msg.id}; buttons: {have}"
            )
        if comp.get("disabled"):
            raise ScriptError(f"button {comp.get('label') or comp.get('custom_id')!r} is disabled")
        if comp.get("style") in (5, 6):
            raise ScriptError("link and premium buttons do not send interactions")
        channel = self.server.resolve_channel(msg.channel_id)
        self._check_component_access(channel)
        data: JSON = {"custom_id": comp["custom_id"], "component_type": ComponentType.BUTTON}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._dispatch(
            InteractionType.MESSAGE_COMPONENT,
            channel,
            data,
            source=msg,
            reject_callback_with=reject_callback_with,
        )

    async def select(
        self,
        message: StoredMessage | int,
        values: Sequence[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        reject_callback_with: int | None = None,
    ) -> InteractionHandle:
        """Pick ``values`` in a select menu (option values or labels; users/roles/channels)."""
        msg = self._message(message)
        selects = [
            c
            for c in msg.selects()
            if (custom_id is None or c.get("custom_id") == custom_id)
            and (placeholder is None or c.get("placeholder") == placeholder)
        ]
        if len(selects) != 1:
            have = [(c.get("custom_id"), c.get("placeholder")) for c in msg.selects()]
            raise ScriptError(
                f"expected exactly one matching select in message {msg.id}, "
                f"found {len(selects)}; selects: {have}"
            )
        comp = selects[0]
        if comp.get("disabled"):
            raise ScriptError(f"select {comp.get('custom_id')!r} is disabled")
        channel = self.server.resolve_channel(msg.channel_id)
        guild = self.server.guild_of(channel)
        self._check_component_access(channel)
        resolved: dict[str, dict[str, JSON]] = {}
        chosen = self._select_values(comp, list(values), guild, channel, resolved)
        data: JSON = {
            "custom_id": comp["custom_id"],
            "component_type": comp["type"],
            "values": chosen,
        }
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(
            InteractionType.MESSAGE_COMPONENT,
            channel,
            data,
            source=msg,
            reject_callback_with=reject_callback_with,
        )

    def _select_values(
        self,
        comp: JSON,
        values: list[Any],
        guild: Guild | None,
        channel: Channel,
        resolved: dict[str, dict[str, JSON]],
    ) -> list[str]:
        ctype = comp["type"]
        min_v, max_v = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not min_v <= len(values) <= max_v:
            raise ScriptError(
                f"select {comp.get('custom_id')!r} takes {min_v}..{max_v} values, got {len(values)}"
            )
        out: list[str] = []
        for raw in values:
            if ctype == ComponentType.STRING_SELECT:
                option = next(
                    (
                        o
                        for o in comp.get("options") or []
                        if raw in (o.get("value"), o.get("label"))
                    ),
                    None,
                )
                if option is None:
                    have = [o.get("value") for o in comp.get("options") or []]
                    raise ScriptError(
                        f"{raw!r} is not an option of {comp.get('custom_id')!r}: {have}"
                    )
                out.append(str(option["value"]))
            elif ctype == ComponentType.USER_SELECT:
                user = self._resolve_user(raw)
                self._add_resolved_user(user, guild, channel, resolved)
                out.append(str(user.id))
            elif ctype == ComponentType.ROLE_SELECT:
                role = self._resolve_role(raw, guild)
                resolved.setdefault("roles", {})[str(role.id)] = role.to_payload()
                out.append(str(role.id))
            elif ctype == ComponentType.MENTIONABLE_SELECT:
                try:
                    role = self._resolve_role(raw, guild)
                    resolved.setdefault("roles", {})[str(role.id)] = role.to_payload()
                    out.append(str(role.id))
                except ScriptError:
                    user = self._resolve_user(raw)
                    self._add_resolved_user(user, guild, channel, resolved)
                    out.append(str(user.id))
            elif ctype == ComponentType.CHANNEL_SELECT:
                target = self._resolve_channel(raw, guild)
                types = comp.get("channel_types")
                if types and target.type not in types:
                    raise ScriptError(
                        f"channel type {target.type} not allowed in {comp.get('custom_id')!r}"
                    )
                resolved.setdefault("channels", {})[str(target.id)] = self._partial_channel(
                    target, guild
                )
                out.append(str(target.id))
        return out

    def _check_component_access(self, channel: Channel) -> None:
        guild = self.server.guild_of(channel)
        if guild is not None:
            self._check_view(guild, channel)
        elif channel.is_dm and self.user not in channel.recipients:
            raise ScriptError(f"{self.username} cannot see DM channel {channel.id}")

    # ------------------------------------------------------------------------------------------
    # modals
    # ------------------------------------------------------------------------------------------

    async def submit_modal(
        self,
        source: InteractionHandle,
        values: Mapping[str, Any],
        *,
        reject_callback_with: int | None = None,
    ) -> InteractionHandle:
        """Fill and submit the modal the bot opened in response to ``source``.

        ``values`` are keyed by component custom_id or by label; text inputs take strings,
        selects take sequences.
        """
        if source.callback is None or source.callback.type != CallbackType.MODAL:
            raise ScriptError(f"{source!r} did not open a modal")
        modal = source.callback.data
        remaining = dict(values)
        resolved: dict[str, dict[str, JSON]] = {}
        guild = source.guild
        channel = source.channel

        def take(comp: JSON, label: str | None) -> tuple[bool, Any]:
            for key in (comp.get("custom_id"), label):
                if key is not None and key in remaining:
                    return True, remaining.pop(key)
            return False, None

        def submit_item(comp: JSON, label: str | None) -> JSON:
            ctype = comp.get("type")
            found, value = take(comp, label)
            out: JSON = {"type": ctype}
            if "id" in comp:
                out["id"] = comp["id"]
            if comp.get("custom_id") is not None:
                out["custom_id"] = comp["custom_id"]
            if ctype == ComponentType.TEXT_INPUT:
                text = "" if not found else str(value)
                if not text and comp.get("value") and not found:
                    text = str(comp["value"])
                if comp.get("required", True) and not text:
                    raise ScriptError(
                        f"text input {comp.get('custom_id')!r} "
                        f"({label or comp.get('label')!r}) is required"
                    )
                if comp.get("min_length") is not None and text and len(text) < comp["min_length"]:
                    raise ScriptError(
                        f"text input {comp.get('custom_id')!r}: shorter than {comp['min_length']}"
                    )
                if comp.get("max_length") is not None and len(text) > comp["max_length"]:
                    raise ScriptError(
                        f"text input {comp.get('custom_id')!r}: longer than {comp['max_length']}"
                    )
                out["value"] = text
            elif ctype in ComponentType.SELECTS:
                chosen = list(value) if found else []
                if chosen or comp.get("required", True):
                    out["values"] = self._select_values(comp, chosen, guild, channel, resolved)
                else:
                    out["values"] = []
            elif ctype == 19:  # file upload
                specs = list(value) if found else []
                ids = []
                for spec in specs:
                    att = self._upload(spec, channel)
                    resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
                    ids.append(str(att.id))
                out["values"] = ids
            elif ctype == 21:  # radio group
                out["value"] = None if not found else str(value)
            elif ctype == 22:  # checkbox group
                out["values"] = [str(v) for v in value] if found else []
            elif ctype == 23:  # checkbox
                out["value"] = bool(value) if found else False
            return out

        components: list[JSON] = []
        for comp in modal.get("components") or []:
            ctype = comp.get("type")
            if ctype == ComponentType.ACTION_ROW:
                components.append(
                    {
                        "type": 1,
                        "components": [
                            submit_item(c, c.get("label")) for c in comp.get("components") or []
                        ],
                    }
                )
            elif ctype == ComponentType.LABEL:
                item: JSON = {
                    "type": ComponentType.LABEL,
                    "component": submit_item(comp["component"], comp.get("label")),
                }
                if "id" in comp:
                    item["id"] = comp["id"]
                components.append(item)
            elif ctype == ComponentType.TEXT_DISPLAY:
                item = {"type": ComponentType.TEXT_DISPLAY}
                if "id" in comp:
                    item["id"] = comp["id"]
                components.append(item)
        if remaining:
            known = [
                c.get("custom_id")
                for c in iter_components(modal.get("components") or [])
                if c.get("custom_id")
            ]
            raise ScriptError(
                f"modal {modal.get('custom_id')!r} has no fields {sorted(remaining)}; "
                f"fields: {known}"
            )
        data: JSON = {"custom_id": modal["custom_id"], "components": components}
        if resolved:
            data["resolved"] = resolved
        source_msg = source.source_message
        if source_msg is not None:
            source_msg = self.server.get_message(source_msg.id)
        return await self._dispatch(
            InteractionType.MODAL_SUBMIT,
            channel,
            data,
            source=source_msg,
            reject_callback_with=reject_callback_with,
        )

    # ------------------------------------------------------------------------------------------
    # plain messages
    # ------------------------------------------------------------------------------------------

    async def send(self, channel: Channel | int, content: str) -> StoredMessage:
        """Post a normal message as this user (the bot gets MESSAGE_CREATE)."""
        ch = self.server.resolve_channel(channel)
        guild = self.server.guild_of(ch)
        if guild is not None:
            self._check_view(guild, ch, Perm.SEND_MESSAGES)
        return self.server.create_message(ch, self.user, content=content)

    # ------------------------------------------------------------------------------------------
    # dispatch
    # ------------------------------------------------------------------------------------------

    def _owners(self, guild: Guild | None) -> JSON:
        """``authorizing_integration_owners``: the guild install where the bot is (``"0"``: the
        guild, or ``"0"`` in the bot's DMs), the user's own install when they made one."""
        owners: JSON = {}
        if guild is None:
            owners["0"] = "0"
        elif self.server.has_bot(guild):
            owners["0"] = str(guild.id)
        if self.user.app_installed:
            owners["1"] = str(self.user.id)
        return owners

    async def _dispatch(
        self,
        itype: int,
        channel: Channel,
        data: JSON,
        *,
        source: StoredMessage | None = None,
        reject_callback_with: int | None = None,
        locale: str | None = None,
    ) -> InteractionHandle:
        server = self.server
        if not server._live_sessions():
            raise ScriptError("no bot is connected to the offline gateway")
        guild = server.guild_of(channel)
        iid = server.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(64)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(server.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale or self.user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": server.attachment_size_limit,
            "channel_id": str(channel.id),
        }
        if guild is not None:
            member = guild.members.get(self.user.id)
            if member is None:
                raise ScriptError(f"{self.username} is not a member of {guild.name!r}")
            perms = guild.permissions_for(self.user.id, channel)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": guild.features},
                guild_locale=guild.locale,
                member=member.to_payload(permissions=perms),
                app_permissions=str(guild.permissions_for(server.bot_user.id, channel)
                                    if server.has_bot(guild) else Perm.DM_APP),
                context=0,
                authorizing_integration_owners=self._owners(guild),
                channel=channel.to_payload(permissions=perms),
            )
        else:
            payload.update(
                user=self.user.to_payload(),
                app_permissions=str(Perm.DM_APP),
                context=1,
                authorizing_integration_owners=self._owners(None),
                channel=channel.to_payload(permissions=Perm.DM_APP),
            )
        if source is not None:
            payload["message"] = source.to_payload()
        handle = InteractionHandle(
            server,
            id=iid,
            token=token,
            type=itype,
            payload=payload,
            user=self.user,
            channel=channel,
            guild=guild,
            source_message=source,
            reject_callback_with=reject_callback_with,
        )
        server.register_interaction(handle)
        server.dispatch("INTERACTION_CREATE", payload, guild_id=guild.id if guild else None)
        return handle


def _typed_text(raw: Any) -> str:
    return raw if isinstance(raw, str) else str(raw)


def _to_bool(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"not a boolean: {raw!r}")


def _choice_by_name(choices: list[JSON], raw: Any) -> JSON | None:
    if not isinstance(raw, str):
        return None
    for choice in choices:
        if choice.get("name") == raw:
            return choice
    return None
