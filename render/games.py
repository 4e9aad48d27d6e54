"""The games' renderers, found by the game's registered name (``view["game"]``).

A game's package (``render/<game>/``) builds one :class:`GameRenderer` and registers it when it
is imported; :data:`PACKAGES` (the catalog: the only place in the generic code that names the
games) says which package to import for a name, so a game's images are loaded on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core import UnknownGame

from .highlights import EventLike
from .scene import Scene
from .theme import GameColors

PACKAGES: dict[str, str] = {
    "puerto-rico": "render.puerto_rico",
    "puerto-rico-1897": "render.puerto_rico_1897",
    "san-juan": "render.san_juan",
}
"""The catalog: a game's registered name -> the package that draws it."""

View = Mapping[str, Any]
Names = Sequence[str] | Mapping[int, str] | None
LabelTable = Mapping[str, str] | Any | None


class ScoreSplit(Protocol):
    """A final score's parts as the chart's bar shows them, from its breakdown and, when
    known, the points the seat took during play by source (``engine.story``'s ``gains``)."""

    def __call__(self, breakdown: Mapping[str, int], gains: Mapping[str, int] | None = None
                 ) -> list[tuple[str, int]]: ...


@dataclass(frozen=True)
class GameRenderer:
    """What the generic renderer needs of one game.

    ``layout_table(view, highlights, *, names, labels, status)``: the table (public view) or a
    seat's table; ``layout_panel(view, seat, focus, highlights, *, names, labels)``: a player's
    private panel; ``panel_focus(view, seat)``: the part of the table a panel shows by default,
    one of ``focuses``; ``layout_scoresheet(outcome, *, names, labels)``: the final sheet;
    ``english``: the game's words on images (the bot's image catalog overrides them);
    ``score_split(breakdown, gains)``: a final score's parts as the chart's bar shows them
    ((part id, points) in order: Puerto Rico's VP chips by source, buildings and bonuses), from
    its breakdown and the points the seat took during play by source (``engine.story``'s
    ``gains``, ``None`` when unknown); ``None`` for no bar; ``colors``: the colours its images
    draw besides the theme's (its goods'), for the fixed PNG palette."""

    name: str
    english: Mapping[str, str]
    layout_table: Callable[..., Scene]
    layout_panel: Callable[..., Scene]
    layout_scoresheet: Callable[..., Scene]
    panel_focus: Callable[[View, int], str]
    focuses: tuple[str, ...]
    score_split: ScoreSplit | None = None
    colors: GameColors = field(default_factory=GameColors)


_RENDERERS: dict[str, GameRenderer] = {}


def register_renderer(renderer: GameRenderer) -> GameRenderer:
    _RENDERERS[renderer.name] = renderer
    return renderer


def renderer_for(game: str) -> GameRenderer:
    """The renderer of ``game`` (imported on first use); :class:`UnknownGame` otherwise."""
    found = _RENDERERS.get(game)
    if found is None and game in PACKAGES:
        importlib.import_module(PACKAGES[game])
        found = _RENDERERS.get(game)
    if found is None:
        raise UnknownGame(name=game)
    return found


def game_of(view: View) -> str:
    """The game a view belongs to (every engine's view names it)."""
    game = view.get("game")
    if not isinstance(game, str):
        raise UnknownGame(name=repr(game))
    return game


def renderer_names() -> list[str]:
    return sorted(PACKAGES)


__all__ = ["PACKAGES", "EventLike", "GameRenderer", "ScoreSplit", "register_renderer",
           "renderer_for", "renderer_names"]
