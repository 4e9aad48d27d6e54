"""Puerto Rico 1897's words: Puerto Rico's catalog with the edition's words over it.

The classic presentation's code looks its words up by the kernel's ids (``role.mayor``,
``building.hospice``); the edition's folder (``i18n/``) says those keys in 1897's words
(the Recruiter, the Hospital) and adds its own.  The generic bot looks some words up by the
ids the engine speaks (``role.recruiter`` in a story's title, ``end.vp_tokens`` in a score
sheet's reasons, ``prompt.plant`` in a waiting
line): each of those is the same message as its kernel key (:data:`ALIASED`)."""

from __future__ import annotations

from importlib import resources

from engine.puerto_rico_1897.names import WORDS

from ...i18n import Catalog
from ..puerto_rico.catalog import FOLDER as CLASSIC

FOLDER = resources.files(__package__ or "bot.games.puerto_rico_1897").joinpath("i18n")

ALIASED = ("role.", "prompt.", "phase.", "end.")
"""The prefixes of the keys the generic bot looks up by an engine id."""


def load() -> Catalog:
    loaded = Catalog.load(folders=[CLASSIC], edition=FOLDER)
    tables = {}
    for lang, loaded_table in loaded.tables.items():
        table = dict(loaded_table)
        for old, new in WORDS.items():
            for prefix in ALIASED:
                if f"{prefix}{old}" in table and f"{prefix}{new}" not in table:
                    table[f"{prefix}{new}"] = table[f"{prefix}{old}"]
        tables[lang] = table
    return Catalog(tables, loaded.default)


CATALOG = load()
"""Every word a Puerto Rico 1897 game shows (loaded once at import)."""
