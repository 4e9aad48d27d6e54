"""Colours, sizes and the fixed PNG palette: every number the drawing code shares.

The canvas is ``WIDTH`` pixels wide.  Discord shows an image about ``PHONE_WIDTH`` pixels wide on a
phone, so text is sized for that scale: no text is smaller than ``TEXT_MIN`` pixels here (11 px on
the phone) and the figures a player reads every turn (doubloons, goods, colonists, ship and
trading-house contents) use at least ``TEXT_KEY``.
"""

from __future__ import annotations

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

GOOD_COLORS: dict[str, Color] = {
    "corn": (242, 200, 48),
    "indigo": (44, 78, 168),
    "sugar": (250, 250, 246),
    "tobacco": (186, 120, 60),
    "coffee": (62, 38, 26),
}
# Ink on top of each good's colour (chosen for contrast, so the letter reads in any colour vision).
GOOD_INK: dict[str, Color] = {
    "corn": INK,
    "indigo": WHITE,
    "sugar": INK,
    "tobacco": INK,
    "coffee": WHITE,
}
GOOD_EDGE: dict[str, Color] = {
    "corn": (170, 130, 20),
    "indigo": (24, 44, 110),
    "sugar": (150, 150, 140),
    "tobacco": (120, 72, 30),
    "coffee": (30, 18, 10),
}

# Puerto Rico 1897's Fruit (rules D-2: green), drawn where the kernel draws Indigo
FRUIT: Color = (58, 138, 62)
FRUIT_EDGE: Color = (30, 84, 34)

SEAT_COLORS: tuple[Color, ...] = (
    (196, 58, 48),
    (40, 110, 180),
    (40, 140, 80),
    (150, 80, 170),
    (220, 130, 20),
)


def seat_color(seat: int) -> Color:
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def tile_colors(tile: str) -> tuple[Color, Color, Color]:
    """Fill, edge and ink of an island tile (a plantation of a good, or a quarry)."""
    if tile == "quarry":
        return QUARRY, QUARRY_DARK, WHITE
    return GOOD_COLORS[tile], GOOD_EDGE[tile], GOOD_INK[tile]


def base_colors() -> list[Color]:
    """Every colour the drawing code uses, in a stable order."""
    named = [
        value
        for name, value in sorted(globals().items())
        if name.isupper() and isinstance(value, tuple) and len(value) == 3
        and all(isinstance(c, int) for c in value)
    ]
    extra = [*GOOD_COLORS.values(), *GOOD_EDGE.values(), *SEAT_COLORS]
    out: list[Color] = []
    for color in [*named, *extra]:
        if color not in out:
            out.append(color)
    return out


def blend(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
