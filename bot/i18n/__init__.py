"""Message catalogs: every word the bot shows a person comes from here.

One flat JSON file per language (``en.json``, ``es.json``) maps dotted keys to ``str.format``
templates.  English is the reference: every catalog must hold exactly its keys with the same
placeholders (``tests/bot/test_catalogs.py`` fails otherwise, and a missing key is never
silently shown).  The engine speaks ids (``small_market``, ``role_taken``); only this layer turns
them into words.

Which language: channel posts use the game's language; ephemeral replies and DMs use the
reader's Discord locale (``language_of(interaction.locale)``).
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

REFERENCE = "en"
LANGUAGES = ("en", "es")


class MissingKey(KeyError):
    """A key absent from the reference catalog: a programming error (tests catch it)."""


class Catalog:
    """Every language's table.  ``catalog.t("es", "lobby.title", game=3)``."""

    def __init__(self, tables: Mapping[str, Mapping[str, str]], default: str = REFERENCE) -> None:
        if REFERENCE not in tables:
            raise ValueError("the reference catalog (en) is required")
        self.tables: dict[str, dict[str, str]] = {k: dict(v) for k, v in tables.items()}
        self.default = default if default in self.tables else REFERENCE

    @classmethod
    def load(cls, default: str = REFERENCE, languages: Iterable[str] = LANGUAGES) -> Catalog:
        tables: dict[str, dict[str, str]] = {}
        folder = resources.files(__name__)
        for lang in languages:
            data = json.loads(folder.joinpath(f"{lang}.json").read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in data.items()
            ):
                raise ValueError(f"{lang}.json must be an object of strings")
            tables[lang] = data
        return cls(tables, default)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self.tables)

    def has(self, key: str) -> bool:
        return key in self.tables[REFERENCE]

    def t(self, lang: str | None, key: str, /, **fields: Any) -> str:
        """The text of ``key`` in ``lang`` (the default language when ``None`` or unknown).

        A key missing from a translation falls back to English (tests keep that from happening);
        a key missing from English raises :class:`MissingKey`."""
        table = self.tables.get(lang or self.default) or self.tables[self.default]
        template = table.get(key)
        if template is None:
            template = self.tables[REFERENCE].get(key)
            if template is None:
                raise MissingKey(key)
        return template.format_map(_Fields(fields)) if fields else template

    def language_of(self, locale: object | None) -> str:
        """Our language for a Discord locale (``discord.Locale`` or its value such as ``es-ES``,
        ``es-419``); the default language for anything we do not translate."""
        if locale is None:
            return self.default
        value = str(getattr(locale, "value", locale)).lower()
        base = value.split("-", 1)[0]
        return base if base in self.tables else self.default

    def placeholders(self, lang: str, key: str) -> set[str]:
        return {
            name
            for _, name, _, _ in string.Formatter().parse(self.tables[lang][key])
            if name is not None
        }

    def problems(self) -> list[str]:
        """Every way a catalog differs from the reference: missing or extra keys, different
        placeholders, empty texts.  Empty when all is well."""
        out: list[str] = []
        ref = self.tables[REFERENCE]
        for lang, table in self.tables.items():
            out.extend(f"{lang}: missing {k}" for k in sorted(set(ref) - set(table)))
            out.extend(f"{lang}: extra {k}" for k in sorted(set(table) - set(ref)))
            for key in sorted(set(ref) & set(table)):
                if not table[key].strip():
                    out.append(f"{lang}: empty {key}")
                elif self.placeholders(lang, key) != self.placeholders(REFERENCE, key):
                    out.append(f"{lang}: placeholders of {key} differ from en")
        return out

    def section(self, lang: str, *prefixes: str) -> dict[str, str]:
        """Every text of ``lang`` whose key starts with one of ``prefixes`` (for the image
        labels: ``role.``, ``building.``...)."""
        table = {**self.tables[REFERENCE], **self.tables.get(lang, {})}
        return {k: v for k, v in table.items() if k.startswith(prefixes)}


class _Fields(dict[str, Any]):
    """Format fields; a missing one shows as ``{name}`` instead of failing the whole message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


CATALOG = Catalog.load()
"""The catalogs shipped with the bot (loaded once at import)."""
