"""Message catalogs: every word the bot shows a person comes from here.

Each language has one or more flat JSON files, ``<lang>.json`` and ``<lang>.<area>.json`` (one
area per concern, merged at load; a key defined twice is an error).  A file maps dotted keys to
``str.format`` templates.  English is the reference: every catalog must hold exactly its keys
with the same placeholders (``tests/bot/test_catalogs.py`` fails otherwise, and a missing key is
never silently shown).  The engine speaks ids (``small_market``, ``role_taken``); only this
layer turns them into words.

**Plurals follow CLDR's rules, through Babel** (``babel.Locale.plural_form``), never hand-made
singular keys.  Two forms:

* A whole message that depends on a number is an object of CLDR plural categories plus
  ``"$count"``, the field that chooses: ``{"$count": "n", "one": "{n} colonist left",
  "other": "{n} colonists left"}``.  English needs ``one`` and ``other``; Spanish ``one``,
  ``many`` and ``other`` (a missing category falls back to ``other``).
* A count inside a longer text names a unit as its format spec: ``"you have {have:doubloons}"``
  is written with the plural message ``unit.doubloons`` (``1 doubloon``, ``2 doubloons``,
  ``1 doblón``, ``2 doblones``).  A signed count uses the ``unit.<name>.signed`` form when there
  is one (``+1 doubloon``).

Lists of names use CLDR's list patterns too (:meth:`Catalog.join`: "a, b and c", "a, b y c").

Which language: channel posts use the game's language; ephemeral replies and DMs use the
reader's Discord locale (``language_of(interaction.locale)``).

**Which words.**  The generic catalog (this folder) holds the words of the bot itself: the lobby,
the table's frame, errors, replies, notices.  Each game adds its own folder
(``bot/games/<game>/i18n``: its roles, buildings, log lines, help...) and speaks through a
catalog of both (:func:`bot.games.presenter_for` ``(name).catalog``); a game's key may not
redefine a generic one.  A generic text names the game with ``{title}``, filled in from the
game's ``game.title`` when the caller does not give it.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import timedelta
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, TypeAlias

from babel import Locale
from babel.dates import format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal

REFERENCE = "en"
LANGUAGES = ("en", "es", "pt")
COUNT = "$count"
TITLE = "game.title"
"""A game's name in its own catalog (fills ``{title}`` in the generic texts)."""
CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})

Message: TypeAlias = str | dict[str, str]
"""A template, or plural variants of one (CLDR categories plus ``$count``)."""


class MissingKey(KeyError):
    """A key absent from the reference catalog: a programming error (tests catch it)."""


@lru_cache(maxsize=16)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


# CLDR's Portuguese rule puts 0 with 1 ("i = 0..1": one), but a count of nothing reads plural in
# Brazilian usage ("0 cartas", "0 dobrões"), as it does in English and Spanish
ZERO_IS_OTHER = frozenset({"pt"})


def plural_category(lang: str, count: int | float) -> str:
    """CLDR's plural category of ``count`` in ``lang`` (``one``, ``many``, ``other``...); 0 is
    ``other`` in Portuguese too (``ZERO_IS_OTHER``)."""
    if count == 0 and lang in ZERO_IS_OTHER:
        return "other"
    return str(_locale(lang).plural_form(abs(count)))


def plural_tags(lang: str) -> frozenset[str]:
    """The categories ``lang`` distinguishes, ``other`` included."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def _files(folder: Traversable, lang: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The JSON objects of ``folder``'s files in ``lang`` (``<lang>.json``, ``<lang>.*.json``)."""
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    for name in names:
        if name != f"{lang}.json" and not name.startswith(f"{lang}."):
            continue
        data = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"{name} must be an object")
        yield name, data


def _edition_words(table: dict[str, Message], generic: Traversable, edition: Traversable,
                   lang: str) -> None:
    """An edition's words over its game's ``table`` (see :meth:`Catalog.load`)."""
    shared = {key for _, data in _files(generic, lang) for key in data}
    seen: set[str] = set()
    for name, data in _files(edition, lang):
        for key, value in data.items():
            if key in shared:
                raise ValueError(f"{name}: {key} is a generic word")
            if key in seen:
                raise ValueError(f"{name}: {key} is defined twice")
            seen.add(key)
            table[key] = _checked(name, key, value)


class Catalog:
    """Every language's table.  ``catalog.t("es", "lobby.title", game=3)``."""

    def __init__(self, tables: Mapping[str, Mapping[str, Message]],
                 default: str = REFERENCE) -> None:
        if REFERENCE not in tables:
            raise ValueError("the reference catalog (en) is required")
        self.tables: dict[str, dict[str, Message]] = {k: dict(v) for k, v in tables.items()}
        self.default = default if default in self.tables else REFERENCE
        self._formatters = {lang: _Formatter(self, lang) for lang in self.tables}

    @classmethod
    def load(cls, default: str = REFERENCE, languages: Iterable[str] = LANGUAGES,
             folders: Sequence[Traversable] = (), edition: Traversable | None = None
             ) -> Catalog:
        """The catalog of this folder plus ``folders`` (a game's words), in that order; a key
        is defined once.  ``edition``: the words of an edition of the game in ``folders`` (its
        folder's files are read last and may say otherwise any of the game's keys, never a
        generic one; its other keys are its own)."""
        tables: dict[str, dict[str, Message]] = {}
        generic = resources.files(__name__)
        for lang in languages:
            table: dict[str, Message] = {}
            for folder in (generic, *folders):
                for name, data in _files(folder, lang):
                    for key, value in data.items():
                        if key in table:
                            raise ValueError(f"{name}: {key} is defined twice")
                        table[key] = _checked(name, key, value)
            if edition is not None:
                _edition_words(table, generic, edition, lang)
            if not table:
                raise ValueError(f"no catalog for {lang}")
            tables[lang] = table
        return cls(tables, default)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self.tables)

    def has(self, key: str) -> bool:
        return key in self.tables[REFERENCE]

    def template(self, lang: str | None, key: str, fields: Mapping[str, Any] | None = None) -> str:
        """The template of ``key`` in ``lang``, its plural variant chosen by ``fields``."""
        table = self.tables.get(lang or self.default) or self.tables[self.default]
        message = table.get(key)
        if message is None:
            message = self.tables[REFERENCE].get(key)
            if message is None:
                raise MissingKey(key)
            lang = REFERENCE
        if isinstance(message, str):
            return message
        count = (fields or {}).get(message[COUNT], 0)
        try:
            category = plural_category(lang or self.default, count)
        except (TypeError, ValueError):
            category = "other"
        return message.get(category) or message["other"]

    def t(self, lang: str | None, key: str, /, **fields: Any) -> str:
        """The text of ``key`` in ``lang`` (the default language when ``None`` or unknown).

        A key missing from a translation falls back to English (tests keep that from happening);
        a key missing from English raises :class:`MissingKey`."""
        lang = lang if lang in self.tables else self.default
        template = self.template(lang, key, fields)
        if "{title}" in template and "title" not in fields and self.has(TITLE):
            fields = {**fields, "title": self.t(lang, TITLE)}
        if not fields:
            return template
        if ":" in template:
            return self._formatters[lang].vformat(template, (), fields)
        return template.format_map(_Fields(fields))

    def count(self, lang: str | None, unit: str, n: int) -> str:
        """``n`` with its unit in words: ``count("en", "doubloons", 1) == "1 doubloon"``."""
        return self.t(lang, f"unit.{unit}", n=n)

    def join(self, lang: str | None, items: Sequence[str], style: str = "standard") -> str:
        """Items as a list in ``lang``: "alice, bob and carol", "alice, bob y carol";
        ``style="or"`` for alternatives."""
        if not items:
            return ""
        return str(format_list(list(items), style=style,  # type: ignore[arg-type]
                               locale=_locale(lang if lang in self.tables else self.default)))

    def decimal(self, lang: str | None, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals as ``lang`` writes it: "28.7", "28,7"."""
        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        return str(format_decimal(value, format=pattern, locale=self._babel(lang)))

    def duration(self, lang: str | None, seconds: float, *, short: bool = False) -> str:
        """A length of time in ``lang``'s words, to the minute under an hour ("7 minutes"),
        then hours and minutes ("3 hours and 12 minutes"), then days and hours ("2 días y 5
        horas"); at least a minute.  Each part is CLDR's unit (Babel), the parts a list.
        ``short``: CLDR's narrow units side by side, for a line of figures ("2d 5h")."""
        minutes = max(1, round(seconds / 60))
        if minutes < 60:
            parts = [("minute", minutes)]
        elif minutes < 24 * 60:
            parts = [("hour", minutes // 60), ("minute", minutes % 60)]
        else:
            hours = round(minutes / 60)
            parts = [("day", hours // 24), ("hour", hours % 24)]
        locale = self._babel(lang)
        # threshold 1: "23 hours" stays hours (Babel's default would round it up to a day)
        words = [str(format_timedelta(timedelta(**{f"{unit}s": n}), threshold=1,
                                      granularity=unit,  # type: ignore[arg-type]
                                      format="narrow" if short else "long", locale=locale))
                 for unit, n in parts if n]
        return " ".join(words) if short else self.join(lang, words)

    def _babel(self, lang: str | None) -> Locale:
        return _locale(lang if lang in self.tables else self.default)

    def language_of(self, locale: object | None) -> str:
        """Our language for a Discord locale (``discord.Locale`` or its value such as ``es-ES``,
        ``es-419``); the default language for anything we do not translate."""
        if locale is None:
            return self.default
        value = str(getattr(locale, "value", locale)).lower()
        base = value.split("-", 1)[0]
        return base if base in self.tables else self.default

    def text(self, lang: str, key: str) -> str | None:
        """The plain text of ``key`` in ``lang`` (None when it is missing or a plural)."""
        message = self.tables.get(lang, {}).get(key)
        return message if isinstance(message, str) else None

    def placeholders(self, lang: str, key: str) -> set[str]:
        message = self.tables[lang][key]
        variants = [message] if isinstance(message, str) else [
            v for k, v in message.items() if k != COUNT]
        return {
            name
            for variant in variants
            for _, name, _, _ in string.Formatter().parse(variant)
            if name is not None
        }

    def units(self, lang: str, key: str) -> set[str]:
        """The units a message's counts name (``{have:doubloons}`` -> ``doubloons``)."""
        message = self.tables[lang][key]
        variants = [message] if isinstance(message, str) else [
            v for k, v in message.items() if k != COUNT]
        return {
            spec
            for variant in variants
            for _, name, spec, _ in string.Formatter().parse(variant)
            if name is not None and spec and _is_unit(spec)
        }

    def problems(self) -> list[str]:
        """Every way a catalog differs from the reference: missing or extra keys, different
        placeholders, empty texts, plural variants a language lacks or does not have, units
        that are not in the catalog.  Empty when all is well."""
        out: list[str] = []
        ref = self.tables[REFERENCE]
        for lang, table in self.tables.items():
            out.extend(f"{lang}: missing {k}" for k in sorted(set(ref) - set(table)))
            out.extend(f"{lang}: extra {k}" for k in sorted(set(table) - set(ref)))
            tags = plural_tags(lang)
            for key in sorted(set(ref) & set(table)):
                message = table[key]
                texts = [message] if isinstance(message, str) else [
                    v for k, v in message.items() if k != COUNT]
                if not all(t.strip() for t in texts):
                    out.append(f"{lang}: empty {key}")
                elif self.placeholders(lang, key) != self.placeholders(REFERENCE, key):
                    out.append(f"{lang}: placeholders of {key} differ from en")
                if isinstance(message, dict):
                    variants = set(message) - {COUNT}
                    if variants - tags:
                        out.append(f"{lang}: {key} has plural forms {lang} does not use: "
                                   f"{sorted(variants - tags)}")
                    if "one" in tags and "one" not in variants:
                        out.append(f"{lang}: {key} lacks the plural form 'one'")
                    if message[COUNT] not in self.placeholders(REFERENCE, key) and not (
                        key.startswith("unit.")
                    ):
                        out.append(f"{lang}: {key} chooses by {message[COUNT]}, not a field")
                out.extend(f"{lang}: {key} names the unknown unit {unit}"
                           for unit in sorted(self.units(lang, key))
                           if f"unit.{unit}" not in table)
        return out

    def section(self, lang: str, *prefixes: str) -> dict[str, str]:
        """Every text of ``lang`` whose key starts with one of ``prefixes`` (for the image
        labels: ``role.``, ``building.``...).  Plural messages are left out."""
        table = {**self.tables[REFERENCE], **self.tables.get(lang, {})}
        return {k: v for k, v in table.items()
                if k.startswith(prefixes) and isinstance(v, str)}


def _is_unit(spec: str) -> bool:
    return spec[:1].isalpha() and spec.replace("_", "").replace(".", "").isalnum()


def _checked(name: str, key: str, value: object) -> Message:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        if COUNT not in value or "other" not in value:
            raise ValueError(f"{name}: plural {key} needs '$count' and 'other'")
        unknown = set(value) - CATEGORIES - {COUNT}
        if unknown:
            raise ValueError(f"{name}: {key} has unknown plural categories {sorted(unknown)}")
        return {str(k): str(v) for k, v in value.items()}
    raise ValueError(f"{name}: {key} must be a string or plural variants")


class _Fields(dict[str, Any]):
    """Format fields; a missing one shows as ``{name}`` instead of failing the whole message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class _Formatter(string.Formatter):
    """``str.format`` plus counts with units: ``{have:doubloons}`` -> ``5 doubloons``."""

    def __init__(self, catalog: Catalog, lang: str) -> None:
        self.catalog = catalog
        self.lang = lang

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str):
            return kwargs[key] if key in kwargs else "{" + key + "}"
        return super().get_value(key, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec and _is_unit(format_spec):
            if isinstance(value, bool) or not isinstance(value, int | float):
                return str(value)
            unit = f"unit.{format_spec}"
            if format_spec.endswith(".signed") and value < 0:
                unit = unit.removesuffix(".signed")
            if not self.catalog.has(unit):
                return str(value)
            return self.catalog.t(self.lang, unit, n=value)
        return str(super().format_field(value, format_spec))


CATALOG = Catalog.load()
"""The catalogs shipped with the bot (loaded once at import)."""
