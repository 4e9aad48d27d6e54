"""Puerto Rico's words: the generic catalog plus this game's folder (``i18n/``)."""

from __future__ import annotations

from importlib import resources

from ...i18n import Catalog

FOLDER = resources.files(__package__ or "bot.games.puerto_rico").joinpath("i18n")
CATALOG = Catalog.load(folders=[FOLDER])
"""Every word a Puerto Rico game shows (loaded once at import)."""
