"""Colours, sizes and the fixed PNG palette: every number the drawing code shares.

The canvas is ``WIDTH`` pixels wide.  Discord shows an image about ``PHONE_WIDTH`` pixels wide on a
phone, so text is sized for that scale: no text is smaller than ``TEXT_MIN`` pixels here (11 px on
the phone) and the figures a player reads every turn (doubloons, goods, colonists, ship and
trading-house contents) use at least ``TEXT_KEY``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Color = tuple[int, int, int]
Rgba = tuple[int, int, int, int]  # a translucent paint (a veil over what is below)

WIDTH = 1000
PHONE_WIDTH = 550
MARGIN = 16
INNER = WIDTH - 2 * MARGIN
GAP = 8

# Text sizes (pixels, em square).  0.55 x 20 = 11 px on the phone.
TEXT_MIN = 20
TEXT_SMALL = 20
TEXT_BODY = 22
TEXT_KEY = 24
TEXT_LETTER = 22  # the letter on a good or a tile
TEXT_HEADING = 26
TEXT_TITLE = 30

# --- colours --------------------------------------------------------------------------------

BACKGROUND: Color = (241, 232, 211)
PANEL: Color = (252, 248, 238)
PANEL_ALT: Color = (247, 240, 224)
BORDER: Color = (196, 176, 138)
INK: Color = (43, 33, 24)
MUTED: Color = (112, 96, 76)
FAINT: Color = (219, 205, 178)
WHITE: Color = (255, 255, 255)
BAND: Color = (58, 44, 32)
BAND_TEXT: Color = (250, 240, 215)
SEA: Color = (200, 224, 230)
SEA_DARK: Color = (120, 165, 180)
HULL: Color = (140, 94, 58)
HULL_DARK: Color = (96, 62, 38)
SLOT: Color = (236, 225, 200)
GOLD: Color = (240, 190, 60)
GOLD_DARK: Color = (168, 120, 20)
CHIP: Color = (120, 60, 60)
COLONIST: Color = (120, 72, 44)
QUARRY: Color = (150, 150, 146)
QUARRY_DARK: Color = (96, 96, 92)
FOREST: Color = (46, 96, 52)
FOREST_DARK: Color = (24, 58, 30)
FOREST_LIGHT: Color = (120, 176, 104)
VIOLET: Color = (142, 98, 168)
VIOLET_LIGHT: Color = (232, 220, 240)
SOLD_OUT: Color = (214, 208, 196)
SOLD_OUT_VEIL: Rgba = (206, 198, 184, 190)
HIGHLIGHT: Color = (226, 60, 40)
ACT: Color = (20, 120, 110)
ACT_LIGHT: Color = (214, 238, 232)
WINNER: Color = (250, 226, 140)

PART_COLORS: tuple[tuple[Color, Color], ...] = (
    (ACT, WHITE),
    (GOLD, INK),
    (HULL, WHITE),
    (SEA_DARK, INK),
    (FOREST_LIGHT, INK),
    (CHIP, WHITE),
    (QUARRY, INK),
    ((44, 78, 168), WHITE),  # a deep blue
)
"""(fill, ink) of the parts of the end chart's split, by the part's index (none a seat's)."""

SEAT_COLORS: tuple[Color, ...] = (
    (196, 58, 48),
    (40, 110, 180),
    (40, 140, 80),
    (150, 80, 170),
    (220, 130, 20),
)


def seat_color(seat: int) -> Color:
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


@dataclass(frozen=True)
class GameColors:
    """The colours a game's images draw besides the theme's (its goods', its edition's), given
    by its renderer (``render.games.GameRenderer.colors``) so that the fixed PNG palette holds
    each of them exactly: the theme names no game's things."""

    named: Mapping[str, Color] = field(default_factory=dict)
    """Colours by name (``FRUIT``): the palette orders them by name among the theme's."""
    tables: tuple[Mapping[str, Color], ...] = ()
    """Colours of the game's own things by id (its goods' fills, then their edges): after every
    named colour, table by table."""


def base_colors(games: Iterable[GameColors] = ()) -> list[Color]:
    """Every colour the drawing code uses, in a stable order: the theme's named colours and the
    games' by name, then the games' tables, then the chart's parts' and the seats'.  The order
    is part of every PNG's bytes: a colour moved between modules keeps its place."""
    games = list(games)
    named = {
        name: value
        for name, value in globals().items()
        if name.isupper() and isinstance(value, tuple) and len(value) == 3
        and all(isinstance(c, int) for c in value)
    }
    for game in games:
        named.update({name: color for name, color in game.named.items() if name not in named})
    tables = [color for game in games for table in game.tables for color in table.values()]
    parts = [fill for fill, _ in PART_COLORS]
    out: list[Color] = []
    for color in [*(named[name] for name in sorted(named)), *tables, *parts, *SEAT_COLORS]:
        if color not in out:
            out.append(color)
    return out


def blend(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
