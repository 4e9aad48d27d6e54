"""One panel per player, stacked in seat order:

    | name  [Governor] [to act]        San Juan ♟ 2   (12)   VP 9 |
    | island: 12 tiles (letter + circle)     goods: barrels + counts |
    | city: 4 x 3 spaces, large buildings on two spaces              |

The VP chips appear only on the viewer's own panel in a seat image (the view hides the others).
A Puertoma (1897) has its own board in place of the island, and its buildings by level
(:mod:`.puertoma`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.puerto_rico.view import CityBuilding, PlayerEntry
from engine.puerto_rico_1897.puertoma import PuertomaBoard

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from . import nobles, puertoma
from . import pieces as P
from .context import Table
from .modules import token_pill
from .new_buildings import island_tile

PANEL_H = 298
ISLAND_SPACES = 12
TILE_W, TILE_H, TILE_STEP = 44, 52, 49
CITY_COLS, CITY_ROWS = 4, 3
CELL_H, CELL_GAP = 52, 5
LEFT = T.MARGIN + 24
RIGHT = T.MARGIN + T.INNER - 14


def city_grid(city: Sequence[CityBuilding]) -> list[tuple[int, int, int]]:
    """(row, column, spaces) for each building of ``city``: small buildings first-fit in reading
    order, then each large building on the first two free spaces side by side (or, failing
    that, one above the other)."""
    free = [[True] * CITY_COLS for _ in range(CITY_ROWS)]
    placed: dict[int, tuple[int, int, int]] = {}
    cells = [(r, c) for r in range(CITY_ROWS) for c in range(CITY_COLS)]
    order = sorted(range(len(city)), key=lambda i: city[i]["size"] == 2)
    for i in order:
        if city[i]["size"] == 2:
            spot = next(((r, c, 2) for r, c in cells if c + 1 < CITY_COLS
                         and free[r][c] and free[r][c + 1]), None)
            if spot is None:
                spot = next(((r, c, -2) for r, c in cells if r + 1 < CITY_ROWS
                             and free[r][c] and free[r + 1][c]), None)
        else:
            spot = next(((r, c, 1) for r, c in cells if free[r][c]), None)
        if spot is None:  # more than twelve spaces: cannot happen in a legal game
            continue
        r, c, span = spot
        free[r][c] = False
        if span == 2:
            free[r][c + 1] = False
        elif span == -2:
            free[r + 1][c] = False
        placed[i] = spot
    return [placed[i] for i in range(len(city)) if i in placed]


def _header(t: Table, seat: int, p: PlayerEntry, y: int) -> None:
    sk, lb = t.sk, t.labels
    base = y + 38
    rx = RIGHT
    key = f"player:{seat}"
    if p["vp"] is not None:
        vp = sk.text(rx, base, lb("ui.your_vp", n=p["vp"]), size=T.TEXT_KEY, bold=True,
                     fill=T.INK, anchor="rs", key=True)
        chip = W.vp_chip(sk, vp.x - 20, y + 28, 13)
        sk.region(f"{key}:vp", Box(chip.x, y + 12, vp.right - chip.x, 32))
        rx = chip.x - 20
    coin = W.coin(sk, rx - 22, y + 28, 44, p["doubloons"])
    sk.region(f"{key}:doubloons", coin)
    rx = coin.x - 22
    colonists, waiting = nobles.in_san_juan(p)
    end: int | None = None  # where the nobles' count ends, when there is one
    if waiting:  # Exp. 2: the nobles in San Juan, crowned, after the colonists
        n = sk.text(rx, base, str(waiting), size=T.TEXT_KEY, bold=True, fill=T.INK,
                    anchor="rs", key=True)
        noble = nobles.figure(sk, n.x - 8 - nobles.figure_width(30), y + 11, 30)
        sk.region(f"{key}:san_juan:nobles", Box(noble.x, y + 12, n.right - noble.x, 32))
        rx, end = noble.x - 10, n.right
    count = sk.text(rx, base, str(colonists), size=T.TEXT_KEY, bold=True, fill=T.INK,
                    anchor="rs", key=True)
    figure = W.pawn(sk, count.x - 28, y + 13, 28)
    caption = sk.text(figure.x - 8, base, lb("ui.san_juan"), size=T.TEXT_SMALL, fill=T.MUTED,
                      anchor="rs", static=True)
    right = count.right if end is None else end
    sk.region(f"{key}:san_juan", Box(caption.x, y + 12, right - caption.x, 32))
    rx = caption.x - 16
    pills = []
    if t.viewer == seat:
        pills.append((lb("ui.you"), T.BAND, T.BAND_TEXT))
    if p["is_governor"]:
        pills.append((lb("ui.governor"), T.GOLD, T.INK))
    prompt = t.view["prompt"]
    if prompt is not None and seat in prompt["seats"]:
        pills.append(("▶ " + lb("ui.to_act"), T.ACT, T.WHITE))
    token = token_pill(t, seat)
    if token is not None:
        pills.append(token)
    automaton = puertoma.pill(t, seat)
    if automaton is not None:
        pills.insert(0, automaton)
    pill_w = sum(int(fonts.length(text, T.TEXT_SMALL, True)) + 26 for text, _, _ in pills)
    # the whole name (it heads the area): smaller or on two lines when it must
    lines, size, bold = W.fit_lines(t.names[seat], T.TEXT_HEADING, max(rx - LEFT - pill_w, 60),
                                    2, smaller=T.TEXT_SMALL)
    boxes = [sk.text(LEFT, base if len(lines) == 1 else y + 24 + 24 * k, line, size=size,
                     bold=bold, fill=T.INK) for k, line in enumerate(lines)]
    name = Box(boxes[0].x, min(b.y for b in boxes), max(b.right for b in boxes) - boxes[0].x,
               max(b.bottom for b in boxes) - min(b.y for b in boxes))
    sk.region(f"{key}:name", name)
    px = LEFT + int(max(fonts.length(line, size, bold) for line in lines)) + 12
    px = min(px, name.right + 12)
    for text, fill, ink in pills:
        box = W.pill(sk, px, y + 29, text, fill, ink, max_width=rx - px)
        px = box.right + 10
        if fill == T.GOLD:
            sk.region(f"{key}:governor", box)
        elif token is not None and text == token[0]:
            sk.region(f"{key}:token", box)


def _island(t: Table, seat: int, p: PlayerEntry, y: int) -> int:
    sk = t.sk
    key = f"player:{seat}:island"
    for k in range(ISLAND_SPACES):
        sk.rect(Box(LEFT + k * TILE_STEP, y, TILE_W, TILE_H), T.PANEL_ALT, T.FAINT, 2, radius=6,
                static=True)
    for k, entry in enumerate(p["island"]):
        box = sk.region(f"{key}:{k}", Box(LEFT + k * TILE_STEP, y, TILE_W, TILE_H))
        island_tile(t, box, entry)
        sk.region(f"{key}:{entry['tile']}", box)  # the newest tile of its kind is the last one
    right = LEFT + ISLAND_SPACES * TILE_STEP - (TILE_STEP - TILE_W)
    sk.region(key, Box(LEFT, y, right - LEFT, TILE_H))
    return right


def _goods(t: Table, seat: int, p: PlayerEntry, x: int, y: int) -> None:
    sk, lb = t.sk, t.labels
    key = f"player:{seat}:goods"
    held = [(g, n) for g, n in p["goods"].items() if n > 0]
    if not held:
        box = sk.text(x, y + 34, lb("ui.no_goods"), size=T.TEXT_SMALL, fill=T.MUTED)
        sk.region(key, Box(x, y + 8, max(box.w, 1), 36))
        return
    gx = x
    for good, count in held:
        barrel = P.barrel(sk, Box(gx, y + 8, 30, 36), good, lb)
        num = sk.text(gx + 35, y + 37, str(count), size=T.TEXT_KEY, bold=True, fill=T.INK,
                      key=True)
        sk.region(f"{key}:{good}", Box(barrel.x, barrel.y, num.right - barrel.x, barrel.h))
        gx = num.right + 12
    sk.region(key, Box(x, y + 8, gx - 12 - x, 36))


def building_text(t: Table, name: str, first: float, second: float, bold: bool = False
                  ) -> tuple[tuple[str, ...], bool]:
    """(lines, bold) of the building's whole name on one or two lines (``first``/``second``
    pixels wide); its short name only when the whole one does not fit in two; in regular
    weight (a large building's is bold) when neither fits bold; a word hyphenated last."""
    size, widths = T.TEXT_SMALL, (first, second)
    texts = [t.labels.building(name)]
    if t.labels.has(f"short.{name}"):
        texts.append(t.labels.building_short(name))
    weights = (True, False) if bold else (False,)
    for hyphens in (False, True):
        for b in weights:
            for text in texts:
                if fonts.wraps(text, size, b, widths, hyphens=hyphens):
                    return fonts.wrap(text, size, b, widths), b
    return fonts.wrap(texts[-1], size, False, widths), False


def building_lines(t: Table, name: str, first: float, second: float, bold: bool = False
                   ) -> tuple[str, ...]:
    """The lines of :func:`building_text` (the market's tiles, regular)."""
    return building_text(t, name, first, second, bold)[0]


def city_cell(t: Table, box: Box, entry: CityBuilding) -> None:
    """A building of a city: its stripe, its whole name (two lines when needed) and its
    occupancy circles (bottom right)."""
    sk = t.sk
    large = entry["size"] == 2
    found = t.market_entry(entry["building"])
    good = found["good"] if found else None
    if good:
        fill, stripe, edge = T.PANEL, P.GOOD_COLORS[good], P.GOOD_EDGE[good]
    else:
        fill, stripe, edge = T.VIOLET_LIGHT, T.VIOLET, T.VIOLET
    sk.rect(box, fill, T.VIOLET if large else T.BORDER, 2, radius=6)
    sk.rect(Box(box.x + 3, box.y + 3, 8, box.h - 6), stripe, edge, 1, radius=4)
    circles = entry["circles"]
    cx = box.right - 8 - W.circles_width(circles)
    text_x = box.x + 18
    name = entry["building"]
    whole = t.labels.building(name)
    occupants = entry["colonists"]
    noble = nobles.on_building(entry)  # Exp. 2: its first circles hold the nobles
    if fonts.length(whole, T.TEXT_SMALL, large) <= cx - 10 - text_x:
        mid = box.y + box.h // 2
        W.occupancy(sk, cx, mid, circles, occupants, pieces=noble, piece=nobles.piece)
        sk.text(text_x, mid + 7, whole, size=T.TEXT_SMALL, bold=large, fill=T.INK)
        return
    W.occupancy(sk, cx, box.bottom - 16, circles, occupants, pieces=noble, piece=nobles.piece)
    # a noble's crown rises above its circle: the first line then stops before the circles
    first = cx - 2 - text_x if noble else box.right - 8 - text_x
    lines, bold = building_text(t, name, first, cx - 10 - text_x, bold=large)
    for k, line in enumerate(lines):
        sk.text(text_x, box.y + 22 + 22 * k, line, size=T.TEXT_SMALL, bold=bold, fill=T.INK)


def _city(t: Table, seat: int, p: PlayerEntry, y: int) -> None:
    sk = t.sk
    key = f"player:{seat}:city"
    cell_w = (RIGHT - LEFT - (CITY_COLS - 1) * 6) // CITY_COLS

    def cell(r: int, c: int, wide: int = 1, tall: int = 1) -> Box:
        return Box(
            LEFT + c * (cell_w + 6),
            y + r * (CELL_H + CELL_GAP),
            wide * cell_w + (wide - 1) * 6,
            tall * CELL_H + (tall - 1) * CELL_GAP,
        )

    for r in range(CITY_ROWS):
        for c in range(CITY_COLS):
            sk.rect(cell(r, c), T.PANEL_ALT, T.FAINT, 2, radius=6, static=True)
    city = p["city"]
    for entry, (r, c, span) in zip(city, city_grid(city), strict=False):
        box = cell(r, c, 2 if span == 2 else 1, 2 if span == -2 else 1)
        sk.region(f"{key}:{entry['building']}", box)
        city_cell(t, box, entry)
    sk.region(key, Box(LEFT, y, RIGHT - LEFT, CITY_ROWS * (CELL_H + CELL_GAP) - CELL_GAP))


def layout_panel(t: Table, seat: int, y: int) -> int:
    """``seat``'s panel from ``y`` (a Puertoma's, taller, with its own board); the ``y``
    below it."""
    sk = t.sk
    p = t.view["players"][seat]
    automaton = puertoma.board(t.view, seat)
    height = PANEL_H if automaton is None else puertoma.PANEL_H
    box = sk.region(f"player:{seat}", Box(T.MARGIN, y, T.INNER, height))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=12, static=True)
    sk.rect(Box(T.MARGIN + 5, y + 6, 9, height - 12), T.seat_color(seat), radius=4, static=True)
    _header(t, seat, p, y)
    if automaton is None:
        right = _island(t, seat, p, y + 58)
        _goods(t, seat, p, right + 20, y + 58)
        _city(t, seat, p, y + 120)
    else:
        _puertoma_board(t, seat, p, automaton, y)
    prompt = t.view["prompt"]
    if prompt is not None and seat in prompt["seats"]:
        sk.rect(box, None, T.ACT, 4, radius=12)
    return y + height


def _puertoma_board(t: Table, seat: int, p: PlayerEntry, board: PuertomaBoard,
                    y: int) -> None:
    """A Puertoma's panel under its first line: its property spaces and its crates, its skill
    tiles, then its buildings on their levels beside its Reserve token and its VP area."""
    row = y + puertoma.HEADER_H
    right = puertoma.layout_properties(t, seat, board, LEFT, row)
    _goods(t, seat, p, right + 18, row + (puertoma.SLOT_H - 52) // 2)
    row += puertoma.SLOT_H + puertoma.ROW_GAP
    puertoma.layout_skills(t, seat, board, LEFT, row, RIGHT - LEFT)
    row += puertoma.SKILL_H + puertoma.ROW_GAP
    _levels(t, seat, p, board, row)


def _levels(t: Table, seat: int, p: PlayerEntry, board: PuertomaBoard,
            y: int) -> None:
    """A Puertoma's building area: four levels of two spaces (its buildings, each on its
    level), then its Reserve token's building over its VP area."""
    sk = t.sk
    key = f"player:{seat}:city"
    gap, h, levels = puertoma.CELL_GAP, puertoma.CELL_H, puertoma.LEVELS
    cell_w = (RIGHT - LEFT - puertoma.SIDE_W - levels * gap) // levels

    def cell(r: int, c: int) -> Box:
        return Box(LEFT + c * (cell_w + gap), y + r * (h + gap), cell_w, h)

    def side(r: int) -> Box:
        return Box(RIGHT - puertoma.SIDE_W, y + r * (h + gap), puertoma.SIDE_W, h)

    for r in range(2):
        for c in range(levels):
            sk.rect(cell(r, c), T.PANEL_ALT, T.FAINT, 2, radius=6, static=True)
    city = p["city"]
    taken: set[tuple[int, int]] = set()
    for entry, (level, r) in zip(city, puertoma.level_places(t, board, city), strict=True):
        if level < 0:
            continue
        box = sk.region(f"{key}:{entry['building']}", cell(r, level))
        _level_cell(t, box, entry)
        taken.add((r, level))
    for r in range(2):
        for c in range(levels):
            if (r, c) not in taken:
                puertoma.level_caption(t, cell(r, c), c + 1)
    sk.region(key, Box(LEFT, y, cell(1, levels - 1).right - LEFT, 2 * h + gap))
    puertoma.reserve_cell(t, seat, board, side(0))
    puertoma.vp_area_cell(t, seat, board, side(1))


def _level_cell(t: Table, box: Box, entry: CityBuilding) -> None:
    """A Puertoma's building: its stripe and its whole name, on one or two lines, and no
    circles (its buildings are never occupied, PTM-GEN-3)."""
    sk = t.sk
    large = entry["size"] == 2
    sk.rect(box, T.VIOLET_LIGHT, T.VIOLET if large else T.BORDER, 2, radius=6)
    sk.rect(Box(box.x + 3, box.y + 3, 8, box.h - 6), T.VIOLET, T.VIOLET, 1, radius=4)
    width = box.right - 8 - (box.x + 18)
    name = entry["building"]
    # an expanded building's name in bold, unless a word of it would have to be cut
    bold = large and all(fonts.length(w, T.TEXT_SMALL, True) <= width
                         for w in t.labels.building(name).split())
    lines, bold = building_text(t, name, width, width, bold=bold)
    top = box.y + box.h // 2 + 7 - 11 * (len(lines) - 1)
    for k, line in enumerate(lines):
        sk.text(box.x + 18, top + 22 * k, line, size=T.TEXT_SMALL, bold=bold, fill=T.INK)


def layout_players(t: Table, y: int) -> int:
    """Every player's panel from ``y``; returns the ``y`` below them."""
    for seat in range(len(t.view["players"])):
        y = layout_panel(t, seat, y) + T.GAP
    return y
