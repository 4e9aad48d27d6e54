"""San Juan's words: the generic catalog plus this game's folder (``i18n/``)."""

from __future__ import annotations

from importlib import resources

from ...i18n import Catalog

FOLDER = resources.files(__package__ or "bot.games.san_juan").joinpath("i18n")
CATALOG = Catalog.load(folders=[FOLDER])
"""Every word a San Juan game shows (loaded once at import)."""
