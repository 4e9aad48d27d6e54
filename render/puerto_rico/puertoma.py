"""1897's Puertoma, the automated opponent (rules spec §8): its board on its panel, the shared
action board on the table, its Reserve token on the market.

The view's ``puertoma`` part (only with Puertomas; the kernel's words, :func:`part`) lists the
Puertoma ``seats``, the ``difficulty``, the action ``marker``'s role, the ``tie_breakers_left``
and each Puertoma's board (``boards[str(seat)]``): its ten ``properties`` (two per good in the
goods' order, each ``None`` or ``{good, workers, spaces}``), its ``vp_area`` (``quarries``,
``workers``), its four ``skills`` (``{level, state, skill}``: the skill is named only while
face up and ``active``; a face-down tile is hidden from everyone, the view never has its name),
its ``reserve`` (the building its Reserve token lies on, or ``None``), its buildings on each
of the ``levels`` (counts, levels 1 to 4) and on each of its eight ``spaces`` (level by level)
and (Expansions IV, V) its third properties of a good in the VP area
(``vp_area_properties``).

A Puertoma's panel (:mod:`.players`, :data:`PANEL_H` high) shows, in place of the island:

    | name [Puertoma] [Governor]                      Portrait ♟ 0  (coins) |
    | C C  F F  S S  T T  K K   (a property space: its tile, its worker     |
    | o    oo   oo   ooo  ooo    spaces; an active one framed in gold)  goods |
    | [1 Trader: +1 coin per sale] [2 Skill face down] [3 ...] [4 ...]      |
    | level 1 | level 2 | level 3 | level 4 | Reserve token: Fortress        |
    | level 1 | level 2 | level 3 | level 4 | VP area: quarries, workers     |

and the table, under the role cards, the action board (:func:`layout_action_board`): the
difficulty, which role the action marker is on, how many tie-breaker cards are left.

Regions: ``puertoma``, ``puertoma:marker``, ``puertoma:tie_breakers``;
``player:<seat>:properties`` and each ``:property:<i>`` (0-9), ``:properties:<good>`` (a good's
two spaces), ``:island:<good>`` (its newest property, as a human's newest tile) and
``:island:quarry`` (the VP area's quarries), ``:skills`` and ``:skill:<level>``, ``:reserve``,
``:vp_area`` and ``:vp_area:workers``, ``:city`` and ``:city:<building>``; ``market:<building>:
reserve``.  :func:`event_keys` frames what the Puertomas' own events changed.  Pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.core import Event
from engine.puerto_rico.view import CityBuilding, MarketEntry
from engine.puerto_rico_1897.puertoma import (
    PuertomaBoard,
    PuertomaPart,
    PuertomaProperty,
    PuertomaSkill,
)
from engine.puerto_rico_1897.view import KernelView

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..scene import Box
from . import pieces as P
from .context import Table

GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
"""The property spaces' goods, two spaces each, worst to best (PTM-GEN-2; Indigo is Fruit)."""
PER_GOOD = 2
LEVELS = 4
SKILLS: tuple[tuple[str, ...], ...] = (
    ("trader_any_good", "trader_coin", "builder_worker"),
    ("captain_keep_good", "builder_coin", "craftsman_crate"),
    ("craftsman_coins", "recruiter_worker", "planter_crate"),
    ("captain_vp_per_crate", "captain_discard", "recruiter_coins"),
)
"""The twelve skill tiles by level (§8.9)."""
SKILL_LEVEL = {name: level + 1 for level, names in enumerate(SKILLS) for name in names}
SKILL_ROLE = {
    "trader": "trader",
    "builder": "builder",
    "captain": "captain",
    "craftsman": "craftsman",
    "recruiter": "mayor",
    "planter": "settler",
}
"""A skill's role (its name's first word) as the kernel names it."""
PARTS = ("expanded_buildings", "vp_area_workers", "vp_area_quarries", "vp_area_properties",
         "full_properties", "leftovers")
"""The Puertoma's own parts of the final score (PTM-SCR), in the book's order."""

# a Puertoma's panel (see the module docstring); x from the panel's left edge
HEADER_H = 58
SLOT_W, SLOT_H, TILE_H = 56, 70, 44
PAIR_GAP, GOOD_GAP = 6, 10
DOT_R, DOT_STEP = 8, 18  # worker spaces: three fit under a 56-pixel tile
SKILL_H = 78
CELL_H, CELL_GAP = 56, 6
SIDE_W = 236  # the Reserve token's and the VP area's column, right of the four levels
ROW_GAP = 8
PANEL_H = HEADER_H + SLOT_H + ROW_GAP + SKILL_H + ROW_GAP + 2 * CELL_H + CELL_GAP + 14
"""A Puertoma's panel (a person's is ``players.PANEL_H``)."""
BOARD_H = 56
"""The action board's strip under the role cards."""


def part(view: KernelView) -> PuertomaPart | None:
    return view.get("puertoma")


def board(view: KernelView, seat: int) -> PuertomaBoard | None:
    """``seat``'s Puertoma board (``None``: a person's seat, or no Puertoma)."""
    found = part(view)
    return None if found is None else found["boards"].get(str(seat))


def seats(view: KernelView) -> list[int]:
    found = part(view)
    return [] if found is None else list(found["seats"])


def pill(t: Table, seat: int) -> tuple[str, T.Color, T.Color] | None:
    """The "Puertoma" pill on its panel's first line (``None`` for a person)."""
    if board(t.view, seat) is None:
        return None
    return t.labels("ui.puertoma.name"), T.VIOLET, T.WHITE


def skill_role(skill: str) -> str:
    return SKILL_ROLE[skill.split("_", 1)[0]]


# --- the action board --------------------------------------------------------------------------


def layout_action_board(t: Table, y: int, x: int = T.MARGIN, w: int = T.INNER) -> int:
    """The strip under the role cards (``w`` wide from ``x``): the difficulty, the role the
    action marker is on, the tie-breaker cards left.  The ``y`` below it (``y`` itself
    without Puertomas)."""
    found = part(t.view)
    if found is None:
        return y
    sk, lb = t.sk, t.labels
    box = sk.region("puertoma", Box(x, y, w, BOARD_H))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=10, static=True)
    base = y + 36
    difficulty = lb(f"ui.puertoma.{found['difficulty'] or 'standard'}")
    role = lb.role(found["marker"])
    title = lb("ui.puertoma.board", difficulty=difficulty)
    words_needed = sum(fonts.length(lb(k), T.TEXT_SMALL) for k in
                       ("ui.puertoma.marker", "ui.puertoma.tie_breakers"))
    needed = (fonts.length(title, T.TEXT_BODY, True) + words_needed
              + fonts.length(role, T.TEXT_SMALL, True) + 250)
    if needed > w:  # a narrow image (a panel): the difficulty gives way first
        title = lb("ui.puertoma.name")
    caption = sk.text(box.x + 16, base, title, size=T.TEXT_BODY, bold=True, fill=T.VIOLET,
                      max_width=w // 4)
    # the tie-breaker cards, at the right
    right = box.right - 16
    count = sk.text(right, base + 1, str(found["tie_breakers_left"]), size=T.TEXT_KEY,
                    bold=True, fill=T.INK, anchor="rs", key=True)
    cards = _card_backs(t, count.x - 34, y + 12)
    words = sk.text(cards.x - 10, base, lb("ui.puertoma.tie_breakers"), size=T.TEXT_SMALL,
                    fill=T.INK, anchor="rs", max_width=w // 4)
    sk.region("puertoma:tie_breakers", Box(words.x, y + 8, right - words.x, BOARD_H - 16))
    # the action marker, between them: its words give way to the role's name
    role_w = min(fonts.length(role, T.TEXT_SMALL, True) + 16, 200)
    token = marker_token(t, caption.right + 28, y + BOARD_H // 2)
    room = words.x - 16 - role_w - 10 - token.right - 8
    text = W.text_block(sk, token.right + 8, base, lb("ui.puertoma.marker"), size=T.TEXT_SMALL,
                        width=max(room, 20), fill=T.INK, bold=False, step=21)  # two lines
    tag = W.pill(sk, text.right + 10, y + BOARD_H // 2, role, T.BAND, T.BAND_TEXT,
                 max_width=max(words.x - 16 - text.right - 10, 60))
    sk.region("puertoma:marker", Box(token.x, y + 8, tag.right - token.x, BOARD_H - 16))
    return y + BOARD_H + T.GAP


def marker_token(t: Table, cx: int, cy: int) -> Box:
    """The action marker: a dark disc in a gold ring."""
    return t.sk.circle(cx, cy, 12, T.INK, T.GOLD, 4)


def _card_backs(t: Table, x: int, y: int) -> Box:
    """Two tie-breaker cards' backs, one on the other (``x, y``: the top left corner)."""
    sk = t.sk
    for dx, dy in ((0, 4), (6, 0)):
        sk.rect(Box(x + dx, y + dy, 20, 28), T.VIOLET, T.BAND, 2, radius=3)
    return Box(x, y, 26, 32)


# --- a Puertoma's board on its panel -----------------------------------------------------------


def properties_width() -> int:
    pair = 2 * SLOT_W + PAIR_GAP
    return len(GOODS) * pair + (len(GOODS) - 1) * GOOD_GAP


def _slot_box(x: int, y: int, index: int) -> Box:
    good, k = divmod(index, PER_GOOD)
    left = x + good * (2 * SLOT_W + PAIR_GAP + GOOD_GAP) + k * (SLOT_W + PAIR_GAP)
    return Box(left, y, SLOT_W, SLOT_H)


def worker_spaces(good: str) -> int:
    return (1, 2, 2, 3, 3)[GOODS.index(good)]


def _dots(t: Table, box: Box, spaces: int, filled: int, *, static: bool = False,
          faint: bool = False) -> Box:
    """A property space's worker spaces, centred under its tile: the first ``filled`` hold a
    worker."""
    sk = t.sk
    width = 2 * DOT_R + (spaces - 1) * DOT_STEP
    x0 = box.x + (box.w - width) // 2
    cy = box.y + TILE_H + (box.h - TILE_H) // 2
    for i in range(spaces):
        cx = x0 + DOT_R + i * DOT_STEP
        if faint:
            sk.circle(cx, cy, DOT_R, T.PANEL_ALT, T.FAINT, 2, static=static)
        elif i < filled:
            sk.circle(cx, cy, DOT_R, T.COLONIST, T.HULL_DARK, 1, static=static)
        else:
            sk.circle(cx, cy, DOT_R, T.WHITE, T.MUTED, 2, static=static)
    return Box(x0, cy - DOT_R, width, 2 * DOT_R)


def property_slot(t: Table, box: Box, good: str, entry: PuertomaProperty | None,
                  *, static_base: bool = True) -> bool:
    """One property space: an empty space (the good's colour along its top, its worker spaces
    faint), or its property tile with the workers on their spaces; an active property (every
    space filled) on a gold ground in a gold frame.  Whether it is active."""
    sk = t.sk
    sk.rect(box, T.PANEL_ALT, T.FAINT, 2, radius=6, static=static_base)
    sk.rect(Box(box.x + 4, box.y + 4, box.w - 8, 6), P.GOOD_COLORS[good], P.GOOD_EDGE[good], 1,
            radius=3, static=static_base)
    spaces = worker_spaces(good)
    _dots(t, box, spaces, 0, static=static_base, faint=True)
    if entry is None:
        return False
    spaces = entry["spaces"] or spaces
    workers = entry["workers"]
    active = workers >= spaces
    if active:
        sk.rect(box, T.WINNER, T.GOLD_DARK, 4, radius=6)
    P.tile(sk, Box(box.x + 4, box.y + 4, box.w - 8, TILE_H - 4), good, t.labels)
    _dots(t, box, spaces, workers)
    if active:
        star(t, box.right - 10, box.y + 10, 10)
    return active


def star(t: Table, cx: int, cy: int, r: int = 11, *, static: bool = False) -> Box:
    """The mark of an active property: a gold star (a shape, so it reads in any colours)."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 2 // 5
        angle = math.pi / 2 + k * math.pi / 5
        points.append((cx + round(radius * math.cos(angle)), cy - round(radius * math.sin(angle))))
    t.sk.polygon(points, T.GOLD, T.INK, 1, static=static)
    return Box(cx - r, cy - r, 2 * r, 2 * r)


def layout_properties(t: Table, seat: int, b: PuertomaBoard, x: int, y: int) -> int:
    """The ten property spaces from ``(x, y)``; the ``x`` right of them."""
    sk = t.sk
    key = f"player:{seat}"
    entries = list(b["properties"])
    entries += [None] * (len(GOODS) * PER_GOOD - len(entries))
    for index, entry in enumerate(entries[: len(GOODS) * PER_GOOD]):
        good = GOODS[index // PER_GOOD]
        box = sk.region(f"{key}:property:{index}", _slot_box(x, y, index))
        property_slot(t, box, good, entry)
        if entry is not None:  # the newest of its good is the rightmost (PTM-PLN: left first)
            sk.region(f"{key}:island:{good}", box)
    for g, good in enumerate(GOODS):
        first, second = _slot_box(x, y, g * PER_GOOD), _slot_box(x, y, g * PER_GOOD + 1)
        sk.region(f"{key}:properties:{good}", Box(first.x, y, second.right - first.x, SLOT_H))
    width = properties_width()
    sk.region(f"{key}:properties", Box(x, y, width, SLOT_H))
    return x + width


def layout_skills(t: Table, seat: int, b: PuertomaBoard, x: int, y: int, w: int) -> None:
    """The four skill tiles side by side, ``w`` wide from ``x``."""
    sk = t.sk
    gap = 8
    tile_w = (w - (LEVELS - 1) * gap) // LEVELS
    skills = b["skills"]
    for k in range(LEVELS):
        entry: PuertomaSkill = skills[k] if k < len(skills) else {
            "level": k + 1, "state": "face_down", "skill": None}
        box = sk.region(f"player:{seat}:skill:{k + 1}", Box(x + k * (tile_w + gap), y, tile_w,
                                                             SKILL_H))
        skill_tile(t, box, entry)
    sk.region(f"player:{seat}:skills", Box(x, y, w, SKILL_H))


def skill_tile(t: Table, box: Box, entry: PuertomaSkill) -> None:
    """A skill tile: its level on a badge, then (face up, active) its role and its effect in a
    few words; face down, a dark back that names nothing; discarded, greyed."""
    sk, lb = t.sk, t.labels
    state = entry["state"] or "face_down"
    level = entry["level"]
    skill = entry["skill"]
    if state == "active" and skill is not None:
        fill, edge, ink, title = T.ACT_LIGHT, T.ACT, T.INK, lb.role(skill_role(skill))
        lines = fonts.wrap(lb(f"ui.puertoma.skill.{skill}"), T.TEXT_SMALL, False,
                           (box.w - 20, box.w - 20))
        sk.rect(box, fill, edge, 3, radius=8)
    elif state == "discarded":
        fill, edge, ink, title = T.SOLD_OUT, T.FAINT, T.MUTED, lb("ui.puertoma.skill")
        lines = (lb("ui.puertoma.discarded"),)
        sk.rect(box, fill, edge, 2, radius=8)
        sk.line([(box.x + 8, box.bottom - 8), (box.right - 8, box.y + 8)], T.FAINT, 3)
    else:  # face down: nothing of the tile shows (its name is not in the view either)
        fill, edge, ink, title = T.BAND, T.BAND, T.BAND_TEXT, lb("ui.puertoma.skill")
        lines = (lb("ui.puertoma.face_down"),)
        sk.rect(box, fill, edge, 2, radius=8)
    badge = sk.circle(box.x + 22, box.y + 19, 13, T.GOLD, T.GOLD_DARK, 2)
    sk.text(badge.x + 13, badge.y + 13, str(level), size=T.TEXT_SMALL, bold=True, fill=T.INK,
            anchor="mm")
    sk.text(badge.right + 8, box.y + 26, title, size=T.TEXT_SMALL, bold=True, fill=ink,
            max_width=box.right - 10 - badge.right - 8)
    for k, line in enumerate(lines[:2]):
        sk.text(box.x + 10, box.y + 48 + 21 * k, line, size=T.TEXT_SMALL, fill=ink,
                max_width=box.w - 20)


def reserve_cell(t: Table, seat: int, b: PuertomaBoard, box: Box) -> None:
    """Where its Reserve token lies: a token in the seat's colour and the building's name."""
    sk, lb = t.sk, t.labels
    sk.region(f"player:{seat}:reserve", box)
    sk.rect(box, T.PANEL_ALT, T.FAINT, 2, radius=6, static=True)
    sk.text(box.x + 10, box.y + 21, lb("ui.puertoma.reserve"), size=T.TEXT_SMALL, fill=T.MUTED,
            max_width=box.w - 20, static=True)
    building = b["reserve"]
    token = reserve_token(t, seat, box.x + 20, box.y + 40)
    if building is not None:
        room = box.right - 8 - token.right - 6
        texts = (lb.building(building), lb.building_short(building))
        name = next((x for x in texts if fonts.fits(x, T.TEXT_SMALL, False, room)), None)
        if name is not None:  # on one line, bold when it fits
            name, bold = fonts.fit_weight(name, T.TEXT_SMALL, room)
            sk.text(token.right + 6, box.y + 47, name, size=T.TEXT_SMALL, bold=bold,
                    fill=T.INK, max_width=room)
        else:  # else on two: the whole name, or the short one
            whole = fonts.wraps(texts[0], T.TEXT_SMALL, False, (room, room))
            W.text_block(sk, token.right + 6, box.y + 47, texts[0] if whole else texts[1],
                         size=T.TEXT_SMALL, width=room, fill=T.INK, bold=False, step=20)
    else:
        sk.text(token.right + 6, box.y + 47, lb("ui.puertoma.no_reserve"), size=T.TEXT_SMALL,
                fill=T.MUTED, max_width=box.right - 8 - token.right - 6)


def reserve_token(t: Table, seat: int, cx: int, cy: int, *, static: bool = False) -> Box:
    """A Puertoma's Reserve token: a disc in its seat's colour with its letter."""
    box = t.sk.circle(cx, cy, 11, T.seat_color(seat), T.INK, 1, static=static)
    t.sk.text(cx, cy, t.labels("ui.puertoma.reserve_letter"), size=T.TEXT_SMALL, bold=True,
              fill=T.WHITE, anchor="mm", static=static)
    return box


def vp_area_cell(t: Table, seat: int, b: PuertomaBoard, box: Box) -> None:
    """The VP area: its quarries (a quarry tile, ×n) and its surplus workers (a figure, n)."""
    sk, lb = t.sk, t.labels
    key = f"player:{seat}:vp_area"
    sk.region(key, box)
    sk.rect(box, T.PANEL_ALT, T.FAINT, 2, radius=6, static=True)
    area = b["vp_area"]
    sk.text(box.x + 10, box.y + 21, lb("ui.puertoma.vp_area"), size=T.TEXT_SMALL,
            fill=T.MUTED, max_width=box.w - 20, static=True)
    row = box.y + 27
    quarry = P.tile(sk, Box(box.x + 10, row, 24, 25), "quarry", lb, key=False)
    count = sk.text(quarry.right + 4, box.y + 49, f"×{area['quarries']}",
                    size=T.TEXT_KEY, bold=True, fill=T.INK, key=True)
    sk.region(f"player:{seat}:island:quarry", Box(quarry.x, row, count.right - quarry.x, 25))
    figure = W.pawn(sk, count.right + 14, row, 25)
    workers = sk.text(figure.right + 4, box.y + 49, str(area["workers"]),
                      size=T.TEXT_KEY, bold=True, fill=T.INK, key=True)
    sk.region(f"{key}:workers", Box(figure.x, row, workers.right - figure.x, 25))
    x = workers.right + 14
    thirds = b["vp_area_properties"]
    for good in GOODS:  # Expansions IV, V: a third property of a good scores as a quarry
        n = thirds.get(good, 0)
        if n <= 0 or x + 24 > box.right - 6:
            continue
        tile = P.tile(sk, Box(x, row, 24, 25), good, lb, key=False)
        right = tile.right
        if n > 1 and tile.right + 34 <= box.right - 6:
            right = sk.text(tile.right + 3, box.y + 49, f"×{n}", size=T.TEXT_KEY, bold=True,
                            fill=T.INK, key=True).right
        sk.region(f"player:{seat}:island:{good}:vp_area", Box(x, row, right - x, 25))
        x = right + 10


def level_places(t: Table, b: PuertomaBoard, city: Sequence[CityBuilding]
                 ) -> list[tuple[int, int]]:
    """(level 0-3, row 0-1) of each building of a Puertoma's ``city``: where the board's
    ``spaces`` (the building on each of its eight spaces, level by level) put it; without them,
    on the lowest level at least its own with a space the board's counts (``levels``) still
    hold (a Festival building may sit above its level, §8.13), the second of a level on the
    second row."""
    spaces = b.get("spaces")  # a board without them: from its counts (tests draw both ways)
    if spaces is not None and len(spaces) == LEVELS * 2:
        where = {name: (k // 2, k % 2) for k, name in enumerate(spaces) if name}
        return [where.get(entry["building"], (-1, -1)) for entry in city]
    counts = list(b.get("levels") or ())[:LEVELS]
    counts += [0] * (LEVELS - len(counts))
    used = [0] * LEVELS

    def own(i: int) -> int:
        entry = t.market_entry(city[i]["building"])
        return (entry["column"] if entry else 1) - 1

    places: dict[int, tuple[int, int]] = {}
    for i in sorted(range(len(city)), key=own):
        spot = next((v for v in range(max(own(i), 0), LEVELS) if used[v] < min(counts[v], 2)),
                    None)
        if spot is None:  # counts and city disagree: any free space
            spot = next((v for v in range(LEVELS) if used[v] < 2), None)
        if spot is None:
            continue
        places[i] = (spot, used[spot])
        used[spot] += 1
    return [places.get(i, (-1, -1)) for i in range(len(city))]


def level_caption(t: Table, box: Box, level: int) -> None:
    """An empty space of the building area: its level."""
    t.sk.text(box.x + box.w // 2, box.y + box.h // 2 + 7, t.labels("ui.puertoma.level", n=level),
              size=T.TEXT_SMALL, fill=T.MUTED, anchor="ms", max_width=box.w - 12)


# --- the market and the legend -----------------------------------------------------------------


def reserve_marks(t: Table, box: Box, entry: MarketEntry) -> None:
    """The Reserve tokens on a building for sale (in its row, left of the copies left)."""
    name = entry["building"]
    holders = [s for s in seats(t.view) if _reserve(board(t.view, s)) == name]
    for k, seat in enumerate(holders):
        token = reserve_token(t, seat, box.right - 56 - 26 * k, box.bottom - 19)
        t.sk.region(f"market:{name}:reserve", token)


def _reserve(b: PuertomaBoard | None) -> str | None:
    return None if b is None else b["reserve"]


def legend_line(t: Table, x: int, cy: int, limit: int) -> None:
    """The legend's line for the Puertoma (centred on ``cy``): an active property and a
    Reserve token."""
    sk, lb = t.sk, t.labels
    box = Box(x, cy - 15, 30, 30)
    sk.rect(box, T.WINNER, T.GOLD_DARK, 3, radius=6, static=True)
    sk.rect(Box(x + 5, cy - 10, 20, 20), P.GOOD_COLORS["sugar"], P.GOOD_EDGE["sugar"], 2,
            radius=4, static=True)
    star(t, box.right - 2, box.y + 2, 9, static=True)
    word = sk.text(box.right + 6, cy + 8, lb("legend.puertoma.active"), size=T.TEXT_SMALL,
                   fill=T.MUTED, max_width=limit - box.right - 6, static=True)
    token = reserve_token(t, seats(t.view)[0] if seats(t.view) else 1, word.right + 32, cy,
                          static=True)
    sk.text(token.right + 6, cy + 8, lb("legend.puertoma.reserve"), size=T.TEXT_SMALL,
            fill=T.MUTED, max_width=max(limit - token.right - 6, 0), static=True)


# --- what changed ------------------------------------------------------------------------------


def event_keys(event: Event) -> list[str] | None:
    """The Puertomas' own events (in the kernel's words); ``None`` for the others."""
    data, kind = event.data, event.type
    player = f"player:{event.seat}"
    if kind == "PuertomaWorkersPlaced":
        placed = data.get("placed") or {}
        return [f"{player}:vp_area:workers" if where == "vp_area"
                else f"{player}:properties:{where}" for where in placed]
    if kind == "PuertomaSkillUnlocked":  # 1897's "level" is the kernel's "column", read back
        return [f"{player}:skill:{data.get('level', data.get('column'))}"]
    if kind == "PuertomaSkillUsed":
        level = SKILL_LEVEL.get(str(data.get("skill")))
        return [f"{player}:skill:{level}"] if level else []
    if kind == "PuertomaSkillsDiscarded":
        return [f"{player}:skills"]
    if kind in ("ReserveTokenPlaced", "ReserveTokenRemoved"):
        return [f"{player}:reserve"]
    if kind == "MarkerMoved":
        return ["puertoma:marker"]
    if kind in ("TieBreakerDrawn", "TieBreakerShuffled"):
        return ["puertoma:tie_breakers"]
    if kind == "PuertomaChoseRole":
        return []
    return None


__all__ = [
    "BOARD_H",
    "GOODS",
    "PANEL_H",
    "PARTS",
    "SKILLS",
    "SKILL_LEVEL",
    "board",
    "event_keys",
    "layout_action_board",
    "layout_properties",
    "layout_skills",
    "legend_line",
    "level_caption",
    "level_places",
    "part",
    "pill",
    "reserve_cell",
    "reserve_marks",
    "seats",
    "skill_tile",
    "vp_area_cell",
]
