"""The subset of Discord's request validation that catches real bot bugs early.

Each check raises :class:`DiscordAPIError` 50035 (Invalid Form Body) with Discord's nested
``errors`` object, or 50006 for an empty message.  The length limits are Discord's: content
2000; embed title 256, description 4096, 25 fields of name 256 and value 1024, footer 2048,
author 256, 6000 in all; button label 80; select placeholder 150, option label, value and
description 100; media descriptions 1024; the text displays of a Components V2 message 4000
together; modal title and text input label 45.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import DiscordAPIError, empty_message, invalid_form
from .models import JSON, ComponentType, MessageFlag, OptionType, iter_components

CREATE_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS
    | MessageFlag.EPHEMERAL
    | MessageFlag.SUPPRESS_NOTIFICATIONS
    | MessageFlag.IS_VOICE_MESSAGE
    | MessageFlag.IS_COMPONENTS_V2
)
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
CHAT_INPUT_NAME = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)

# Discord's length limits (https://discord.com/developers/docs/resources/message#embed-object-
# embed-limits, .../components/reference): characters, not bytes.
CONTENT_MAX = 2000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
"""Title, description, field names and values, footer text and author name of every embed of
one message together."""
V2_TEXT_MAX = 4000
"""The text displays of one Components V2 message together."""
MEDIA_DESCRIPTION_MAX = 1024
SELECT_PLACEHOLDER_MAX = 150
SELECT_OPTION_MAX = 100
"""An option's label, value and description each."""
MENTION_TYPES = ("roles", "users", "everyone")
"""``allowed_mentions.parse``'s values (https://discord.com/developers/docs/resources/message
#allowed-mentions-object)."""
MENTION_IDS_MAX = 100
"""``allowed_mentions.users`` and ``.roles``, each."""


def _too_long(path: str, limit: int) -> DiscordAPIError:
    return invalid_form(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_length(value: Any, limit: int, path: str) -> int:
    """The length of ``value`` (0 for none); 50035 when it is longer than ``limit``."""
    if value is None:
        return 0
    length = len(str(value))
    if length > limit:
        raise _too_long(path, limit)
    return length


def validate_embeds(embeds: list[Any], prefix: str = "embeds") -> None:
    """Each part of each embed within its limit, and all of them within 6000 characters."""
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            raise invalid_form(f"{prefix}.{i}", "MODEL_TYPE_CONVERT", "Only dictionaries allowed.")
        p = f"{prefix}.{i}"
        total += _check_length(embed.get("title"), EMBED_TITLE_MAX, f"{p}.title")
        total += _check_length(embed.get("description"), EMBED_DESCRIPTION_MAX,
                               f"{p}.description")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            raise _too_long(f"{p}.fields", EMBED_FIELDS_MAX)
        for j, field in enumerate(fields):
            total += _check_length(field.get("name"), EMBED_FIELD_NAME_MAX,
                                   f"{p}.fields.{j}.name")
            total += _check_length(field.get("value"), EMBED_FIELD_VALUE_MAX,
                                   f"{p}.fields.{j}.value")
        footer = embed.get("footer") or {}
        total += _check_length(footer.get("text"), EMBED_FOOTER_MAX, f"{p}.footer.text")
        author = embed.get("author") or {}
        total += _check_length(author.get("name"), EMBED_AUTHOR_MAX, f"{p}.author.name")
    if total > EMBED_TOTAL_MAX:
        raise invalid_form(prefix, "BASE_TYPE_MAX_LENGTH",
                           f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


def validate_message(message: JSON, *, file_count: int, creating: bool, prefix: str = "") -> None:
    """``message`` is the resulting message state: content, embeds, components, flags."""
    content = message.get("content") or ""
    embeds = message.get("embeds") or []
    components = message.get("components") or []
    flags = int(message.get("flags") or 0)
    if not isinstance(content, str):
        raise invalid_form(prefix + "content", "BASE_TYPE_STRING", "Must be a string.")
    if len(content) > CONTENT_MAX:
        raise _too_long(prefix + "content", CONTENT_MAX)
    if len(embeds) > 10:
        raise invalid_form(
            prefix + "embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
        )
    validate_embeds(embeds, prefix + "embeds")
    v2 = bool(flags & MessageFlag.IS_COMPONENTS_V2)
    if v2 and (content or embeds):
        field = "content" if content else "embeds"
        raise invalid_form(
            prefix + field,
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
    validate_components(components, v2=v2, prefix=prefix + "components")
    validate_allowed_mentions(message.get("allowed_mentions"), prefix + "allowed_mentions")
    has_sticker = bool(message.get("sticker_ids"))
    has_poll = bool(message.get("poll"))
    if creating and not (content or embeds or components or file_count or has_sticker or has_poll):
        raise empty_message()


def validate_allowed_mentions(allowed: Any, path: str = "allowed_mentions") -> None:
    """Discord's rules for ``allowed_mentions``: an object whose ``parse`` lists known types,
    ``users`` and ``roles`` at most 100 ids each, and never both a type parsed and ids of that
    type listed (they are mutually exclusive)."""
    if allowed is None:
        return
    if not isinstance(allowed, dict):
        raise invalid_form(path, "MODEL_TYPE_CONVERT", "Only dictionaries allowed.")
    parse = allowed.get("parse") or []
    if not isinstance(parse, list) or any(kind not in MENTION_TYPES for kind in parse):
        raise invalid_form(f"{path}.parse", "BASE_TYPE_CHOICES",
                           "Value must be one of ('roles', 'users', 'everyone').")
    for kind in ("users", "roles"):
        ids = allowed.get(kind)
        if ids is None:
            continue
        if not isinstance(ids, list):
            raise invalid_form(f"{path}.{kind}", "BASE_TYPE_ARRAY", "Must be an array.")
        if len(ids) > MENTION_IDS_MAX:
            raise _too_long(f"{path}.{kind}", MENTION_IDS_MAX)
        if ids and kind in parse:
            raise invalid_form(path, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                               f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')


def validate_components(components: list[Any], *, v2: bool, prefix: str = "components") -> None:
    seen: set[str] = set()
    if not isinstance(components, list):
        raise invalid_form(prefix, "BASE_TYPE_ARRAY", "Must be an array.")
    if v2:
        total = sum(1 for _ in iter_components(components))
        if total > 40:
            raise invalid_form(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
        for i, comp in enumerate(components):
            if comp.get("type") not in V2_TOP_LEVEL:
                raise invalid_form(
                    f"{prefix}.{i}.type",
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1, 9, 10, 12, 13, 14, 17).',
                )
        text = 0
        for comp in iter_components(components):
            ctype = comp.get("type")
            if ctype == ComponentType.ACTION_ROW:
                _validate_row(comp, f"{prefix}.?", seen)
            elif ctype == ComponentType.TEXT_DISPLAY:
                text += len(str(comp.get("content") or ""))
            elif ctype == ComponentType.MEDIA_GALLERY:
                for j, item in enumerate(comp.get("items") or []):
                    _check_length(item.get("description"), MEDIA_DESCRIPTION_MAX,
                                  f"{prefix}.?.items.{j}.description")
            elif ctype == ComponentType.THUMBNAIL:
                _check_length(comp.get("description"), MEDIA_DESCRIPTION_MAX,
                              f"{prefix}.?.description")
            elif ctype == ComponentType.SECTION and isinstance(comp.get("accessory"), dict):
                validate_interactive(comp["accessory"], f"{prefix}.?.accessory", seen)
        if text > V2_TEXT_MAX:
            raise invalid_form(
                prefix, "BASE_TYPE_MAX_LENGTH",
                f"The total length of text displays must be {V2_TEXT_MAX} or fewer.",
            )
        return
    if len(components) > 5:
        raise invalid_form(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    for i, row in enumerate(components):
        if not isinstance(row, dict) or row.get("type") != ComponentType.ACTION_ROW:
            raise invalid_form(
                f"{prefix}.{i}.type",
                "COMPONENT_TYPE_INVALID",
                "Top-level components must be action rows without the IS_COMPONENTS_V2 flag.",
            )
        _validate_row(row, f"{prefix}.{i}", seen)


def _validate_row(row: JSON, path: str, seen: set[str]) -> None:
    children = row.get("components") or []
    if not 1 <= len(children) <= 5:
        raise invalid_form(
            f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    if any(c.get("type") in ComponentType.SELECTS for c in children) and len(children) != 1:
        raise invalid_form(
            f"{path}.components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        validate_interactive(child, f"{path}.components.{j}", seen)


def validate_interactive(comp: JSON, path: str, seen: set[str]) -> None:
    ctype = comp.get("type")
    custom_id = comp.get("custom_id")
    if ctype == ComponentType.BUTTON:
        style = comp.get("style")
        if style == 5:
            if not comp.get("url"):
                raise invalid_form(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
        elif style == 6:
            if not comp.get("sku_id"):
                raise invalid_form(f"{path}.sku_id", "BASE_TYPE_REQUIRED", "This field is required")
        elif not custom_id:
            raise invalid_form(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
        label = comp.get("label")
        if label is not None and len(str(label)) > 80:
            raise invalid_form(
                f"{path}.label", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."
            )
        if label is None and comp.get("emoji") is None and style != 6:
            raise invalid_form(
                f"{path}.label", "BASE_TYPE_REQUIRED", "A button needs a label or an emoji."
            )
    elif ctype in ComponentType.SELECTS or ctype == ComponentType.TEXT_INPUT:
        if not custom_id:
            raise invalid_form(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
        if ctype == ComponentType.STRING_SELECT:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                raise invalid_form(
                    f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
                )
            for k, option in enumerate(options):
                for part in ("label", "value", "description"):
                    _check_length(option.get(part), SELECT_OPTION_MAX,
                                  f"{path}.options.{k}.{part}")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                raise invalid_form(
                    f"{path}.options",
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Option values must be unique.",
                )
        if ctype in ComponentType.SELECTS:
            _check_length(comp.get("placeholder"), SELECT_PLACEHOLDER_MAX, f"{path}.placeholder")
            min_v = int(comp.get("min_values", 1))
            max_v = int(comp.get("max_values", 1))
            if not 0 <= min_v <= max_v <= 25:
                raise invalid_form(
                    f"{path}.max_values",
                    "BASE_TYPE_BAD_INT",
                    "min_values/max_values are inconsistent.",
                )
    else:
        return
    if custom_id is not None:
        if len(str(custom_id)) > 100:
            raise invalid_form(
                f"{path}.custom_id", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."
            )
        if custom_id in seen:
            raise invalid_form(
                f"{path}.custom_id",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(str(custom_id))


def validate_modal(data: JSON) -> None:
    custom_id = data.get("custom_id")
    if not custom_id or len(str(custom_id)) > 100:
        raise invalid_form(
            "data.custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    title = data.get("title")
    if not title or len(str(title)) > 45:
        raise invalid_form(
            "data.title", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."
        )
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        raise invalid_form(
            "data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    seen: set[str] = set()
    for comp in iter_components(components):
        if comp.get("type") in (ComponentType.TEXT_INPUT, *ComponentType.SELECTS):
            validate_interactive(comp, "data.components.?", seen)
        if comp.get("type") == ComponentType.TEXT_INPUT:
            label = comp.get("label")
            if label is not None and len(str(label)) > 45:
                raise invalid_form(
                    "data.components.?.label",
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 45 or fewer in length.",
                )


def validate_choices(data: JSON) -> None:
    choices = data.get("choices") or []
    if len(choices) > 25:
        raise invalid_form("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not name or len(str(name)) > 100:
            raise invalid_form(
                f"data.choices.{i}.name",
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        if "value" not in choice:
            raise invalid_form(
                f"data.choices.{i}.value", "BASE_TYPE_REQUIRED", "This field is required"
            )


def validate_command(cmd: JSON, path: str) -> None:
    ctype = int(cmd.get("type", 1))
    name = cmd.get("name")
    if not isinstance(name, str):
        raise invalid_form(f"{path}.name", "BASE_TYPE_REQUIRED", "This field is required")
    if ctype == 1:
        if not CHAT_INPUT_NAME.match(name) or name != name.lower():
            raise invalid_form(
                f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        desc = cmd.get("description") or ""
        if not 1 <= len(desc) <= 100:
            raise invalid_form(
                f"{path}.description",
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
    elif not 1 <= len(name) <= 32:
        raise invalid_form(
            f"{path}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length."
        )
    _validate_options(cmd.get("options") or [], f"{path}.options", depth=0)


def _validate_options(options: list[JSON], path: str, depth: int) -> None:
    if len(options) > 25:
        raise invalid_form(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names: set[str] = set()
    optional_seen = False
    for i, opt in enumerate(options):
        p = f"{path}.{i}"
        name = opt.get("name")
        if not isinstance(name, str) or not CHAT_INPUT_NAME.match(name) or name != name.lower():
            raise invalid_form(
                f"{p}.name", "APPLICATION_COMMAND_INVALID_NAME", "Option name is invalid"
            )
        if name in names:
            raise invalid_form(
                f"{p}.name",
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(name)
        desc = opt.get("description") or ""
        if not 1 <= len(desc) <= 100:
            raise invalid_form(
                f"{p}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        otype = opt.get("type")
        if otype in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP):
            if depth >= 2 or (otype == OptionType.SUB_COMMAND_GROUP and depth >= 1):
                raise invalid_form(
                    f"{p}.type",
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command nesting too deep",
                )
            _validate_options(opt.get("options") or [], f"{p}.options", depth + 1)
            continue
        if opt.get("required"):
            if optional_seen:
                raise invalid_form(
                    f"{p}.required",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            raise invalid_form(
                f"{p}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
            )
        if choices and opt.get("autocomplete"):
            raise invalid_form(
                f"{p}.autocomplete",
                "AUTOCOMPLETE_AND_CHOICES",
                "Autocomplete and choices are exclusive",
            )
