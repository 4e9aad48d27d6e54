"""Localized command, option and choice names through discord.py's :class:`Translator`.

Commands are declared with :func:`ls` (``locale_str`` carrying a catalog key); at sync time the
tree asks :class:`CatalogTranslator` for each Discord locale, and Discord shows every user the
names in their own client language.
"""

from __future__ import annotations

import discord
from discord import app_commands

from . import CATALOG, REFERENCE, Catalog

# Discord locales we translate into, by catalog language (Spanish: Spain and Latin America;
# Portuguese: Brazil's, the only Portuguese Discord has).
DISCORD_LOCALES: dict[str, tuple[discord.Locale, ...]] = {
    "es": (discord.Locale.spain_spanish, discord.Locale.latin_american_spanish),
    "pt": (discord.Locale.brazil_portuguese,),
}


def ls(key: str, catalog: Catalog = CATALOG) -> app_commands.locale_str:
    """A translatable command string: the English text, with its catalog key attached (and
    the catalog, for a game's own commands: its words are in its catalog)."""
    return app_commands.locale_str(catalog.t(REFERENCE, key), key=key, catalog=catalog)


class CatalogTranslator(app_commands.Translator):
    def __init__(self, catalog: Catalog = CATALOG) -> None:
        self.catalog = catalog

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str):
            return None
        found = string.extras.get("catalog")
        catalog = found if isinstance(found, Catalog) else self.catalog
        for lang, locales in DISCORD_LOCALES.items():
            if locale in locales and lang in catalog.tables:
                text = catalog.text(lang, key)
                return text if text and text != string.message else None
        return None
