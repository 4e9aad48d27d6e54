"""The games the bot presents, each in its own package (``bot/games/<game>/``), found by the
engine's name for the game.

:data:`PACKAGES` is the catalog: the only place in the bot's generic code that names the games.
Each package builds one :class:`~bot.games.contract.GamePresenter` (its words, its panel's
controls, its decision commands, its help, its log phrasing) and registers it when imported.
Adding a game is its engine package, its renderer package, its presenter package and one line in
each layer's catalog (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

import importlib

from engine.core import UnknownGame

from .contract import Decision, GamePresenter, register_presenter, registered

PACKAGES: dict[str, str] = {
    "puerto-rico": "bot.games.puerto_rico",
    "puerto-rico-1897": "bot.games.puerto_rico_1897",
    "san-juan": "bot.games.san_juan",
}
"""The catalog: a game's registered name -> the package presenting it, in the order the lobby
offers them."""


def presenter_for(game: str) -> GamePresenter:
    """The presenter of ``game`` (imported on first use); :class:`UnknownGame` otherwise."""
    found = registered(game)
    if found is None and game in PACKAGES:
        importlib.import_module(PACKAGES[game])
        found = registered(game)
    if found is None:
        raise UnknownGame(name=game)
    return found


def presenters() -> list[GamePresenter]:
    """Every game's presenter, in the catalog's order (imports them all)."""
    return [presenter_for(name) for name in PACKAGES]


__all__ = ["PACKAGES", "Decision", "GamePresenter", "presenter_for", "presenters",
           "register_presenter"]
