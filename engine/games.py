"""The catalog of games: a game's registry name -> the package that implements it.

:func:`engine.core.get_game` imports a game's package the first time the game is asked for
(importing it registers the game and its policies), so nothing generic imports a specific game.
Adding a game is one line here and its package ``engine/<game>/``.
"""

from __future__ import annotations

PACKAGES: dict[str, str] = {
    "puerto-rico": "engine.puerto_rico",
    "san-juan": "engine.san_juan",
    "puerto-rico-1897": "engine.puerto_rico_1897",
}
