"""Discord's length limits, and the one way text is made to fit them.

Discord refuses a whole message (400, code 50035 Invalid Form Body) when one part of it is too
long, and an interaction whose reply is refused stays on "thinking…" forever.  So every text
the bot sends goes through here on its way out:

* :func:`fit` cuts one text to a limit, at a word boundary, ending with "…";
* :func:`quote` shortens what a user typed before it is echoed (at most :data:`QUOTE`
  characters, on one line);
* :func:`fit_embed`, :func:`fit_view`, :func:`fit_modal` fit every text of an embed, of a view's
  components (buttons, selects, text displays, media) and of a modal, in place;
* :func:`fit_message` fits the keyword arguments of any ``send``/``edit``/``followup`` call:
  ``channel.send(**fit_message(content=..., embed=..., view=...))``.

Characters are counted as Python counts them (code points), as Discord counts message lengths.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

import discord
from discord import ui

ELLIPSIS = "…"

CONTENT = 2000
"""Message content."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
"""Title, description, field names and values, footer and author of all of a message's embeds."""
UPLOAD = 10 * 1024 * 1024
"""The files of one message, in bytes, in a server without boosts (``Guild.filesize_limit``
gives a server's own, never less)."""
UPLOAD_MARGIN = 64 * 1024
"""Kept free under the limit for the rest of the message (its form, the text)."""
BUTTON_LABEL = 80
SELECT_PLACEHOLDER = 150
SELECT_OPTION = 100
"""A select option's label, value and description, each."""
TEXT_DISPLAY_TOTAL = 4000
"""All the text displays of one Components V2 message together."""
MEDIA_DESCRIPTION = 1024
"""A media gallery item's or a thumbnail's description (its alt text)."""
MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45
TEXT_INPUT_PLACEHOLDER = 100
TEXT_INPUT_VALUE = 4000
QUOTE = 100
"""What a user typed, echoed back: at most this many characters."""

MIN_KEEP = 2 / 3
"""A cut goes back to the last space only when it keeps at least this share of the limit."""

T = TypeVar("T")


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with "…" (labels: no word boundary needed)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(text: str, limit: int) -> str:
    """``text`` when it fits in ``limit`` characters, else cut at a word boundary with "…"
    (the result always fits, "…" included)."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    cut = text[: limit - len(ELLIPSIS)]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if space >= limit * MIN_KEEP:
        cut = cut[:space]
    return cut.rstrip() + ELLIPSIS


def quote(text: str, limit: int = QUOTE) -> str:
    """What a user typed, ready to be echoed: on one line, at most ``limit`` characters."""
    return fit(" ".join(str(text).split()), limit)


# --- embeds ---------------------------------------------------------------------------------


def _embed_size(embed: discord.Embed) -> int:
    size = len(embed.title or "") + len(embed.description or "")
    size += sum(len(f.name or "") + len(f.value or "") for f in embed.fields)
    return size + len(embed.footer.text or "") + len(embed.author.name or "")


def fit_embed(embed: discord.Embed, budget: int = EMBED_TOTAL) -> discord.Embed:
    """Every part of ``embed`` within its limit, and all of it within ``budget`` characters
    (the description is shortened first, then the fields from the last).  In place."""
    if embed.title:
        embed.title = fit(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = fit(embed.description, EMBED_DESCRIPTION)
    fields = embed.fields[:EMBED_FIELDS]
    if len(embed.fields) > EMBED_FIELDS or any(
        len(f.name or "") > EMBED_FIELD_NAME or len(f.value or "") > EMBED_FIELD_VALUE
        for f in fields
    ):
        embed.clear_fields()
        for f in fields:
            embed.add_field(name=fit(f.name or "", EMBED_FIELD_NAME),
                            value=fit(f.value or "", EMBED_FIELD_VALUE), inline=bool(f.inline))
    if embed.footer.text and len(embed.footer.text) > EMBED_FOOTER:
        embed.set_footer(text=fit(embed.footer.text, EMBED_FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name and len(embed.author.name) > EMBED_AUTHOR:
        embed.set_author(name=fit(embed.author.name, EMBED_AUTHOR), url=embed.author.url,
                         icon_url=embed.author.icon_url)
    excess = _embed_size(embed) - budget
    if excess > 0 and embed.description:
        embed.description = fit(embed.description, max(len(embed.description) - excess, 1))
        excess = _embed_size(embed) - budget
    for index in reversed(range(len(embed.fields))):
        if excess <= 0:
            break
        field = embed.fields[index]
        value = field.value or ""
        shorter = fit(value, max(len(value) - excess, 1))
        embed.set_field_at(index, name=field.name, value=shorter, inline=bool(field.inline))
        excess -= len(value) - len(shorter)
    while excess > 0 and embed.fields:  # the last resort: the last fields go
        embed.remove_field(len(embed.fields) - 1)
        excess = _embed_size(embed) - budget
    if excess > 0 and embed.footer.text:
        embed.set_footer(text=fit(embed.footer.text, max(len(embed.footer.text) - excess, 0))
                         or None, icon_url=embed.footer.icon_url)
        excess = _embed_size(embed) - budget
    if excess > 0 and embed.title:
        embed.title = fit(embed.title, max(len(embed.title) - excess, 1))
    return embed


def fit_embeds(embeds: Iterable[discord.Embed]) -> list[discord.Embed]:
    """Several embeds of one message: each fitted, and together within 6000 characters."""
    out: list[discord.Embed] = []
    left = EMBED_TOTAL
    for embed in embeds:
        fit_embed(embed, max(left, 0))
        left -= _embed_size(embed)
        out.append(embed)
    return out


# --- components -----------------------------------------------------------------------------


def _items(view: ui.View | ui.LayoutView | ui.Modal) -> list[ui.Item[Any]]:
    out: list[ui.Item[Any]] = []
    for item in view.walk_children():
        inner = getattr(item, "item", None)  # a DynamicItem wraps the real component
        out.append(inner if isinstance(inner, ui.Item) else item)
    return out


def fit_item(item: ui.Item[Any]) -> None:
    """Every text of one component within Discord's limits, in place."""
    if isinstance(item, ui.Button):
        if item.label and len(item.label) > BUTTON_LABEL:
            item.label = fit(item.label, BUTTON_LABEL)
    elif isinstance(item, ui.TextInput):
        if item.label:
            item.label = fit(item.label, TEXT_INPUT_LABEL)
        if item.placeholder:
            item.placeholder = fit(item.placeholder, TEXT_INPUT_PLACEHOLDER)
        if item.default:
            item.default = fit(item.default, TEXT_INPUT_VALUE)
    elif isinstance(item, ui.Select):
        if item.placeholder:
            item.placeholder = fit(item.placeholder, SELECT_PLACEHOLDER)
        for option in item.options:
            option.label = fit(option.label, SELECT_OPTION)
            option.value = option.value[:SELECT_OPTION]
            if option.description:
                option.description = fit(option.description, SELECT_OPTION)
    elif isinstance(item, ui.UserSelect | ui.RoleSelect | ui.MentionableSelect | ui.ChannelSelect
                    ) and item.placeholder:
        item.placeholder = fit(item.placeholder, SELECT_PLACEHOLDER)
    elif isinstance(item, ui.MediaGallery):
        for media in item.items:
            if media.description and len(media.description) > MEDIA_DESCRIPTION:
                media.description = fit(media.description, MEDIA_DESCRIPTION)
    elif (isinstance(item, ui.Thumbnail) and item.description
          and len(item.description) > MEDIA_DESCRIPTION):
        item.description = fit(item.description, MEDIA_DESCRIPTION)


def fit_texts(texts: list[str], total: int) -> list[str]:
    """``texts`` shortened so that together they fit in ``total`` characters: the longest give
    way first, down to a common length (short texts are kept whole)."""
    lengths = [len(t) for t in texts]
    if sum(lengths) <= total:
        return texts
    cap, left = 0, total
    ordered = sorted(lengths)
    for done, length in enumerate(ordered):
        share = left // (len(ordered) - done)
        if length > share:
            cap = share
            break
        left -= length
    return [fit(t, cap) if len(t) > cap else t for t in texts]


def fit_view(view: T) -> T:
    """Every text of the view's components within its limit, and the text displays of a
    Components V2 layout within 4000 characters together.  In place; returns ``view``."""
    if not isinstance(view, ui.View | ui.LayoutView | ui.Modal):
        return view
    items = _items(view)
    for item in items:
        fit_item(item)
    displays = [i for i in items if isinstance(i, ui.TextDisplay)]
    texts = fit_texts([d.content for d in displays], TEXT_DISPLAY_TOTAL)
    for display, text in zip(displays, texts, strict=True):
        display.content = text
    if isinstance(view, ui.Modal):
        view.title = fit(view.title, MODAL_TITLE)
    return view


def fit_modal(modal: ui.Modal) -> ui.Modal:
    """The modal's title (45) and its inputs' texts within their limits.  In place."""
    return fit_view(modal)


# --- a whole message ------------------------------------------------------------------------


def fit_message(**fields: Any) -> dict[str, Any]:
    """The keyword arguments of a ``send``/``edit``/``followup.send`` call, every text in them
    within Discord's limits: ``content``, ``embed``/``embeds``, ``view``."""
    content = fields.get("content")
    if isinstance(content, str):
        fields["content"] = fit(content, CONTENT)
    embed = fields.get("embed")
    if isinstance(embed, discord.Embed):
        fit_embed(embed)
    embeds = fields.get("embeds")
    if isinstance(embeds, list | tuple):
        fields["embeds"] = fit_embeds(e for e in embeds if isinstance(e, discord.Embed))
    view = fields.get("view")
    if view is not None:
        fit_view(view)
    return fields
