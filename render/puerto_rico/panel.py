"""A player's private panel image, drawn around the decision: a narrower canvas than the table
(so the same type sizes read larger on a phone), the player's own board first, then only the
part of the table the decision needs:

    band: name, Governor, round                 the decision (or who is awaited)
    own board: doubloons, VP chips, San Juan, goods; island; city (whole building names)
    the focus: role cards (and the Festival board) | plantations | colonist ship and supply |
               market (your prices) | goods supply | trading house (and what each good sells
               for) | cargo ships | the Buccaneer's targets (role cards, ships, trading house,
               colonist ship)
    legend: the goods' letters in the game's language (and Exp. 2's noble piece)

``layout_panel(view, seat, focus)`` is pure like ``layout_table``; the focus defaults to the
seat's decision (``panel_focus``), or to the phase being played when the seat waits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.puerto_rico.view import MarketEntry, PlayerEntry

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..context import View
from ..scene import Box, Scene, Sketch
from . import new_buildings as nb
from . import nobles, puertoma
from . import pieces as P
from .achievements import layout_achievements
from .activities import layout_activities
from .context import Table, ends_after, puerto_rico_view
from .highlights import EventLike, highlight_keys
from .labels import Labels, as_labels, seat_names
from .market import market_tile
from .modules import layout_festival, role_area
from .players import city_cell, city_grid

PANEL_WIDTH = 800
M = 12
INNER = PANEL_WIDTH - 2 * M
PAD = 14

FOCUSES = ("roles", "plantations", "colonists", "market", "goods", "trading_house", "ships",
           "buccaneer", "none")
FOCUS_OF_PROMPT = {
    "role": "roles",
    "settle": "plantations",
    "hospice": "plantations",
    "university": "market",
    "mayor_privilege": "colonists",
    "arrange": "colonists",
    "build": "market",
    "craft_privilege": "goods",
    "sell": "trading_house",
    "ship": "ships",
    "keep": "ships",
    "buccaneer": "buccaneer",
    "raid_place": "colonists",
    "draft": "market",  # Exp. 1: the board's violet spaces, drafted or empty
    "forest": "plantations",
    "interlude": "none",  # the Guest house's guests and the empty circles: the own board
    "noble_or_colonist": "colonists",  # Exp. 2: what the ship still holds of each kind
    "hunting_lodge": "none",  # the plantation to discard: the own island
    "royal_supplier": "ships",  # barrels traded for VP instead of shipped
}
FOCUS_OF_PHASE = {
    "role_selection": "roles",
    "settler": "plantations",
    "mayor": "colonists",
    "builder": "market",
    "craftsman": "goods",
    "trader": "trading_house",
    "captain": "ships",
    "prospector": "roles",
    "buccaneer": "buccaneer",
    "draft": "market",
    "game_over": "none",
}
SELL_PRICE = {"corn": 0, "indigo": 1, "sugar": 2, "tobacco": 3, "coffee": 4}
NOBLE = "noble"  # the legend's entry for Exp. 2's piece

TILE_W, TILE_H, TILE_STEP = 56, 58, 62
CELL_H, CELL_GAP = 54, 6
CITY_COLS, CITY_ROWS = 4, 3


def panel_focus(view: View, seat: int) -> str:
    """The part of the table ``seat``'s panel shows: what its decision needs, or the current
    phase's part while it waits."""
    pr = puerto_rico_view(view)
    prompt = pr["prompt"]
    if prompt is not None and seat in prompt["seats"]:
        return FOCUS_OF_PROMPT.get(prompt["kind"], "roles")
    if pr["game_over"]:
        return "none"
    return FOCUS_OF_PHASE.get(pr["phase"], "roles")


def _section(sk: Sketch, y: int, h: int, key: str | None = None) -> Box:
    box = Box(M, y, INNER, h)
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=10)
    if key:
        sk.region(key, box)
    return box


def _caption(sk: Sketch, x: int, y: int, text: str, max_width: float) -> Box:
    """A section's caption on one line: bold, else regular, else smaller."""
    return W.text_block(sk, x, y, text, size=T.TEXT_BODY, width=max_width, most=1, fill=T.INK,
                        smaller=T.TEXT_SMALL)


# --- band and decision ------------------------------------------------------------------------


def _band(t: Table, seat: int, y: int) -> int:
    lb, view = t.labels, t.view
    governor = lb("ui.governor") if view["players"][seat]["is_governor"] else None
    W.seat_band(t.sk, Box(M, y, INNER, 50), seat, t.names[seat],
                lb("ui.round", n=view["round"]), governor, 200)
    return y + 50 + T.GAP


def _decision(t: Table, seat: int, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    prompt = view["prompt"]
    outcome = view.get("outcome")
    width = INNER - 8
    if view["game_over"] and outcome is not None:
        winners = [t.names[w] for w in outcome["winners"]]
        key = "ui.game_shared" if len(winners) > 1 else "ui.game_won"
        text, fill = lb(key, names=", ".join(winners)), T.INK
    elif prompt is not None and seat in prompt["seats"]:
        text = "▶ " + lb("ui.your_turn", what=lb(f"prompt.{prompt['kind']}"))
        fill = T.ACT
    elif prompt is not None and prompt["seats"]:
        who = ", ".join(t.names[s] for s in prompt["seats"])
        text, fill = lb("ui.waiting", names=who, what=lb(f"prompt.{prompt['kind']}")), T.MUTED
    else:
        text, fill = lb(f"phase.{view['phase']}"), T.MUTED
    lines = fonts.wrap(text, T.TEXT_KEY, True, (width,) * 3)  # long names: a third line
    for k, line in enumerate(lines):
        box = sk.text(M + 4, y + 26 + 30 * k, line, size=T.TEXT_KEY, bold=True, fill=fill,
                      key=True)
        sk.region("prompt" if k == 0 else f"prompt:{k}", box)
    y += 30 * len(lines) + 8
    ended = view["end_triggered"]
    if ended and not view["game_over"]:
        reasons = ", ".join(lb(f"end.{r}") for r in ended)
        last = lb(f"ui.last_{ends_after(view)}", reasons=reasons)
        box = sk.text(M + 4, y + 22, last, size=T.TEXT_BODY, bold=True, fill=T.HIGHLIGHT,
                      max_width=width)
        sk.region("last_round", box)
        y += 32
    return y


# --- the player's own board -------------------------------------------------------------------


def _goods_width(t: Table, held: Sequence[tuple[str, int]]) -> int:
    return sum(30 + 5 + int(fonts.length(str(n), T.TEXT_KEY, True)) + 12 for _, n in held) - 12


def _stats(t: Table, seat: int, p: PlayerEntry, x: int, y: int, right: int) -> None:
    sk, lb = t.sk, t.labels
    key = f"player:{seat}"
    mid = y + 22
    coin = W.coin(sk, x + 22, mid, 44, p["doubloons"])
    sk.region(f"{key}:doubloons", coin)
    x = coin.right + 16
    if p["vp"] is not None:
        chip = W.vp_chip(sk, x + 13, mid, 13)
        vp = sk.text(chip.right + 6, mid + 9, lb("ui.your_vp", n=p["vp"]), size=T.TEXT_KEY,
                     bold=True, fill=T.INK, key=True)
        sk.region(f"{key}:vp", Box(chip.x, y, vp.right - chip.x, 44))
        x = vp.right + 18
    caption = sk.text(x, mid + 8, lb("ui.san_juan"), size=T.TEXT_SMALL, fill=T.MUTED)
    figure = W.pawn(sk, caption.right + 6, mid - 14, 28)
    colonists, waiting = nobles.in_san_juan(p)
    count = sk.text(figure.right + 6, mid + 9, str(colonists), size=T.TEXT_KEY, bold=True,
                    fill=T.INK, key=True)
    if waiting:  # Exp. 2: the nobles in San Juan, crowned, after the colonists
        noble = nobles.figure(sk, count.right + 10, mid - 17, 32)
        count = sk.text(noble.right + 6, mid + 9, str(waiting), size=T.TEXT_KEY, bold=True,
                        fill=T.INK, key=True)
        sk.region(f"{key}:san_juan:nobles", Box(noble.x, y, count.right - noble.x, 44))
    sk.region(f"{key}:san_juan", Box(caption.x, y, count.right - caption.x, 44))
    left = count.right + 16
    held = [(g, n) for g, n in p["goods"].items() if n > 0]
    gkey = f"{key}:goods"
    if not held:
        box = sk.text(right, mid + 8, lb("ui.no_goods"), size=T.TEXT_SMALL, fill=T.MUTED,
                      anchor="rs", max_width=right - left)
        sk.region(gkey, Box(box.x, y, max(box.w, 1), 44))
        return
    gx = start = max(left, right - _goods_width(t, held))
    for good, count_ in held:
        barrel = P.barrel(sk, Box(gx, y + 4, 30, 36), good, t.labels)
        num = sk.text(gx + 35, y + 33, str(count_), size=T.TEXT_KEY, bold=True, fill=T.INK,
                      key=True)
        sk.region(f"{gkey}:{good}", Box(barrel.x, barrel.y, num.right - barrel.x, barrel.h))
        gx = num.right + 12
    sk.region(gkey, Box(start, y + 4, gx - 12 - start, 36))


def _island(t: Table, seat: int, p: PlayerEntry, x: int, y: int) -> None:
    sk = t.sk
    key = f"player:{seat}:island"
    for k in range(12):
        sk.rect(Box(x + k * TILE_STEP, y, TILE_W, TILE_H), T.PANEL_ALT, T.FAINT, 2, radius=6)
    for k, entry in enumerate(p["island"][:12]):
        box = sk.region(f"{key}:{k}", Box(x + k * TILE_STEP, y, TILE_W, TILE_H))
        nb.island_tile(t, box, entry)
        sk.region(f"{key}:{entry['tile']}", box)
    sk.region(key, Box(x, y, 12 * TILE_STEP - (TILE_STEP - TILE_W), TILE_H))


def _city(t: Table, seat: int, p: PlayerEntry, x: int, y: int, width: int) -> int:
    sk = t.sk
    key = f"player:{seat}:city"
    cell_w = (width - (CITY_COLS - 1) * 6) // CITY_COLS

    def cell(r: int, c: int, wide: int = 1, tall: int = 1) -> Box:
        return Box(x + c * (cell_w + 6), y + r * (CELL_H + CELL_GAP),
                   wide * cell_w + (wide - 1) * 6, tall * CELL_H + (tall - 1) * CELL_GAP)

    for r in range(CITY_ROWS):
        for c in range(CITY_COLS):
            sk.rect(cell(r, c), T.PANEL_ALT, T.FAINT, 2, radius=6)
    city = p["city"]
    for entry, (r, c, span) in zip(city, city_grid(city), strict=False):
        box = cell(r, c, 2 if span == 2 else 1, 2 if span == -2 else 1)
        sk.region(f"{key}:{entry['building']}", box)
        city_cell(t, box, entry)
    h = CITY_ROWS * (CELL_H + CELL_GAP) - CELL_GAP
    sk.region(key, Box(x, y, CITY_COLS * (cell_w + 6) - 6, h))
    return y + h


BOARD_H = 8 + 44 + 8 + TILE_H + 10 + CITY_ROWS * (CELL_H + CELL_GAP) - CELL_GAP + 12


def _board(t: Table, seat: int, y: int) -> int:
    sk = t.sk
    p = t.view["players"][seat]
    x, right = M + PAD, M + INNER - PAD
    box = sk.region(f"player:{seat}", Box(M, y, INNER, BOARD_H))
    sk.rect(box, T.PANEL, T.BORDER, 2, radius=12)
    _stats(t, seat, p, x, y + 8, right)
    island_w = 12 * TILE_STEP - (TILE_STEP - TILE_W)
    _island(t, seat, p, x + (right - x - island_w) // 2, y + 60)
    _city(t, seat, p, x, y + 60 + TILE_H + 10, right - x)
    prompt = t.view["prompt"]
    if prompt is not None and seat in prompt["seats"]:
        sk.rect(box, None, T.ACT, 4, radius=12)
    return y + BOARD_H + T.GAP


# --- the part of the table the decision needs -------------------------------------------------


def _roles(t: Table, y: int) -> int:
    """The role cards (with Puertomas, their action board: the role their marker is on), then
    the Festival board and its Activity cards (their goals are what a role may serve)."""
    y = puertoma.layout_action_board(t, _role_cards(t, y), M, INNER)
    return layout_activities(t, M, layout_festival(t, M, y, INNER), INNER)


def _role_cards(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    roles = view["roles"]
    cols = 4
    w = (INNER - (cols - 1) * T.GAP) // cols
    h = 92
    for i, role in enumerate(roles):
        x = M + (i % cols) * (w + T.GAP)
        top = y + (i // cols) * (h + T.GAP)
        box = sk.region(f"role:{role['card']}", Box(x, top, w, h))
        sk.rect(box, T.PANEL, T.BORDER, 2, radius=10)
        lines, bold = W.heading_lines(lb.role(role["role"]), T.TEXT_BODY, w - 14)
        sk.text(x + w // 2, top + 27, fonts.fit(" ".join(lines), T.TEXT_BODY, bold, w - 14),
                size=T.TEXT_BODY, bold=bold, fill=T.INK, anchor="ms")
        role_area(t, role, Box(x + 4, top + 34, w - 8, h - 38), w - 12)
        taken = role["taken_by"]
        if (taken is not None and view["active_role"] == role["role"]
                and taken == view["chooser"] and view["phase"] != "role_selection"):
            sk.rect(box, None, T.ACT, 4, radius=10)
    rows = (len(roles) + cols - 1) // cols
    return y + rows * (h + T.GAP)


def _plantations(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    h = 28 + 12 + TILE_H + 12 + 34
    _section(sk, y, h)
    x = M + PAD
    _caption(sk, x, y + 28, lb("ui.plantations"), INNER - 2 * PAD)
    ty = y + 40
    slots = view["players_count"] + 1
    face_up = view["face_up"]
    for k in range(max(slots, len(face_up))):
        sk.rect(Box(x + k * TILE_STEP, ty, TILE_W, TILE_H), T.PANEL_ALT, T.FAINT, 2, radius=6)
    for k, kind in enumerate(face_up):
        P.tile(sk, Box(x + k * TILE_STEP, ty, TILE_W, TILE_H), kind, lb)
    sk.region("face_up", Box(x, ty, max(slots, len(face_up)) * TILE_STEP - 6, TILE_H))
    qx = x + max(slots, len(face_up)) * TILE_STEP + 24
    P.tile(sk, Box(qx, ty, TILE_W, TILE_H), "quarry", lb)
    num = sk.text(qx + TILE_W + 8, ty + 38, f"×{view['quarries_left']}", size=T.TEXT_KEY,
                  bold=True, fill=T.INK, key=True)
    sk.region("quarries", Box(qx, ty, num.right - qx, TILE_H))
    base = ty + TILE_H + 32
    tx = x
    for key, word, value in (("plantation_stack", "ui.stack", view["plantation_stack"]),
                             ("plantation_discard", "ui.discard", view["plantation_discard"])):
        caption = sk.text(tx, base, lb(word), size=T.TEXT_BODY, fill=T.INK, max_width=220)
        num = sk.text(caption.right + 10, base, str(value), size=T.TEXT_KEY, bold=True,
                      fill=T.INK, key=True)
        sk.region(key, num)
        tx = num.right + 36
    return y + h + T.GAP


def _colonists(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    h = 64
    _section(sk, y, h)
    colonists = view["colonists"]
    x = M + PAD
    base = y + 41
    caption = _caption(sk, x, base, lb("ui.colonist_ship"), 260)
    figure = W.pawn(sk, caption.right + 10, y + 18, 30)
    num = sk.text(figure.right + 6, base + 1, str(colonists["ship"]), size=T.TEXT_HEADING,
                  bold=True, fill=T.INK, key=True)
    sk.region("colonist_ship", Box(figure.x, y + 16, num.right - figure.x, 34))
    right = M + INNER - PAD
    part = nobles.part(view)
    if part is not None:  # Exp. 2: the nobles on the ship and in the supply, crowned
        noble = nobles.figure(sk, num.right + 14, y + 14, 34)
        num = sk.text(noble.right + 6, base + 1, str(part["ship"]), size=T.TEXT_HEADING,
                      bold=True, fill=T.INK, key=True)
        sk.region("noble_ship", Box(noble.x, y + 14, num.right - noble.x, 36))
        count = sk.text(right, base + 1, str(part["supply"]), size=T.TEXT_HEADING, bold=True,
                        fill=T.INK, anchor="rs", key=True)
        noble = nobles.figure(sk, count.x - 6 - nobles.figure_width(34), y + 14, 34)
        sk.region("noble_supply", Box(noble.x, y + 14, count.right - noble.x, 36))
        right = noble.x - 14
    supply = sk.text(right, base + 1, str(colonists["supply"]), size=T.TEXT_HEADING,
                     bold=True, fill=T.INK, anchor="rs", key=True)
    sk.region("colonist_supply", supply)
    sk.text(supply.x - 10, base, lb("ui.colonist_supply"), size=T.TEXT_BODY, fill=T.INK,
            anchor="rs", max_width=supply.x - 10 - num.right - 30)
    return y + h + T.GAP


MARKET_TILE_H = 86


def _market(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    key = "ui.market_price" if view["viewer"] is not None else "ui.buildings"
    drafting = nb.caption(t)
    if drafting is not None:
        sk.region("draft", W.text_block(sk, M + 4, y + 24, drafting, size=T.TEXT_BODY,
                                        width=INNER - 8, most=1, fill=T.VIOLET,
                                        smaller=T.TEXT_SMALL))
    else:
        _caption(sk, M + 4, y + 24, lb(key), INNER - 8)
    top = y + 36
    cols = 4
    col_w = (INNER - (cols - 1) * 6) // cols
    columns: dict[int, list[MarketEntry]] = {c: [] for c in nb.spaces(view)}
    for building in view["market"]:
        columns.setdefault(building["column"], []).append(building)
    rows = 0
    for ci, column in enumerate(sorted(columns)[:cols]):
        x = M + ci * (col_w + 6)
        entries = nb.entries(view, column, columns[column])
        rows = max(rows, len(entries))
        for ri, entry in enumerate(entries):
            box = Box(x, top + ri * (MARKET_TILE_H + 6), col_w, MARKET_TILE_H)
            if isinstance(entry, int):
                nb.space_tile(t, box, entry, f"draft:{entry}:{ri}")
                continue
            sk.region(f"market:{entry['building']}", box)
            market_tile(t, box, entry, lines=2, static=False)
    return top + rows * (MARKET_TILE_H + 6) - 6 + T.GAP


def _goods_supply(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    h = 60
    _section(sk, y, h)
    x = M + PAD
    caption = _caption(sk, x, y + 39, lb("ui.goods_supply"), 240)
    bx = start = caption.right + 20
    for good, count in view["goods_supply"].items():
        P.barrel(sk, Box(bx, y + 12, 30, 36), good, lb)
        num = sk.text(bx + 35, y + 40, str(count), size=T.TEXT_KEY, bold=True, fill=T.INK,
                      key=True)
        sk.region(f"goods_supply:{good}", Box(bx, y + 12, num.right - bx, 36))
        bx = num.right + 16
    sk.region("goods_supply", Box(start, y + 12, bx - start - 16, 36))
    return y + h + T.GAP


def _trading_house(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    h = 136
    _section(sk, y, h)
    x = M + PAD
    caption = _caption(sk, x, y + 42, lb("ui.trading_house"), 260)
    house = view["trading_house"]
    cap = view["trading_house_capacity"]
    sx = caption.right + 20
    last: dict[str, Box] = {}
    for k in range(cap):
        slot = sk.region(f"trading_house:{k}", Box(sx + k * 54, y + 10, 48, 48))
        P.good_slot(sk, slot, house[k] if k < len(house) else None, lb)
        if k < len(house):
            last[house[k]] = slot
    for good, box in last.items():
        sk.region(f"trading_house:last:{good}", box)
    sk.region("trading_house", Box(sx, y + 10, cap * 54 - 6, 48))
    py = y + 72
    caption = _caption(sk, x, py + 32, lb("ui.sells_for"), 260)
    bx = caption.right + 20
    for good, price in SELL_PRICE.items():
        P.barrel(sk, Box(bx, py + 6, 30, 36), good, lb)
        coin = W.coin(sk, bx + 54, py + 24, 34, price, size=T.TEXT_SMALL, key=False)
        bx = coin.right + 18
    return y + h + T.GAP


def _ships(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    ships = view["ships"]
    h = 44 + len(ships) * 60 + 4
    box = Box(M, y, INNER, h)
    sk.rect(box, T.SEA, T.SEA_DARK, 2, radius=10)
    x = M + PAD
    _caption(sk, x, y + 30, lb("ui.cargo_ships"), INNER - 2 * PAD)
    ry = y + 42
    step, slot = 46, 42
    for i, ship in enumerate(ships):
        cap, count, good = ship["capacity"], ship["count"], ship["good"]
        hull = Box(x, ry, 12 + cap * step + 36, 54)
        W.ship_hull(sk, hull, T.HULL, T.HULL_DARK)
        for k in range(cap):
            slot_box = sk.region(f"ship:{i}:{k}", Box(hull.x + 12 + k * step, ry + 6, slot, slot))
            P.good_slot(sk, slot_box, good if k < count and good else None, lb)
        label = sk.text(hull.right + 14, ry + 37, f"{count}/{cap}", size=T.TEXT_KEY, bold=True,
                        fill=T.INK, key=True)
        sk.region(f"ship:{i}", Box(hull.x, hull.y, label.right - hull.x, hull.h))
        ry += 60
    return y + h + T.GAP


def _buccaneer(t: Table, y: int) -> int:
    """The Buccaneer's four options need the role cards (Capture), the cargo ships (Piracy),
    the trading house (Plunder) and the colonist ship (Raid)."""
    for section in (_role_cards, _ships, _trading_house, _colonists):
        y = section(t, y)
    return y


SECTIONS = {
    "roles": _roles,
    "plantations": _plantations,
    "colonists": _colonists,
    "market": _market,
    "goods": _goods_supply,
    "trading_house": _trading_house,
    "ships": _ships,
    "buccaneer": _buccaneer,
}


def _legend(t: Table, y: int) -> int:
    """The goods' letters and words, in the game's language (wrapping onto a second row)."""
    sk, lb = t.sk, t.labels
    kinds = (*P.GOOD_COLORS, "quarry", *((nb.FOREST,) if nb.has_module(t.view) else ()),
             *((NOBLE,) if nobles.has_module(t.view) else ()))
    entries = [(kind, lb(f"legend.{kind}")) for kind in kinds]
    limit = M + INNER - PAD
    rows: list[list[tuple[str, str]]] = [[]]
    x = M + PAD
    for kind, word in entries:
        w = 28 + 6 + int(fonts.length(word, T.TEXT_SMALL)) + 18
        if rows[-1] and x + w > limit:
            rows.append([])
            x = M + PAD
        rows[-1].append((kind, word))
        x += w
    h = 12 + 40 * len(rows)
    sk.rect(Box(M, y, INNER, h), T.PANEL_ALT, radius=10)
    for r, row in enumerate(rows):
        x = M + PAD
        top = y + 8 + 40 * r
        for kind, word in row:
            if kind == nb.FOREST:
                nb.forest_tile(sk, Box(x, top, 28, 30))
            elif kind == NOBLE:  # Exp. 2: the noble on a circle, where the tiles have letters
                nobles.piece(sk, x + 14, top + 18)
            else:
                P.tile(sk, Box(x, top, 28, 30), kind, lb, key=False)
            text = sk.text(x + 34, top + 22, word, size=T.TEXT_SMALL, fill=T.MUTED,
                           max_width=limit - x - 34)
            x = text.right + 18
    return y + h + T.GAP


def layout_panel(
    view: View,
    seat: int | None = None,
    focus: str | None = None,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
) -> Scene:
    """The private panel's image for ``seat`` (default: the view's viewer): its own board,
    then the part of the table ``focus`` names (default: :func:`panel_focus`)."""
    pr = puerto_rico_view(view)
    if seat is None:
        if pr["viewer"] is None:
            raise ValueError("a panel is drawn for a seat: pass seat or a seat's view")
        seat = pr["viewer"]
    if focus is None:
        focus = panel_focus(view, seat)
    if focus not in FOCUSES:
        raise ValueError(f"unknown focus {focus!r}; one of {', '.join(FOCUSES)}")
    lb = as_labels(labels)
    t = Table(
        view=pr,
        labels=lb,
        names=seat_names(pr["players_count"], names, lb),
        sk=Sketch(PANEL_WIDTH, T.BACKGROUND),
        marks=highlight_keys(highlights, pr["viewer"]),
    )
    y = _band(t, seat, M)
    y = _decision(t, seat, y)
    y = _board(t, seat, y)
    y = layout_achievements(t, M, y, INNER)  # 1897's Expansion VI: the cards, yours with VP
    section = SECTIONS.get(focus)
    if section is not None:
        y = section(t, y)
    y = _legend(t, y)
    for key in sorted(t.marks):
        box = t.sk.regions.get(key)
        if box is not None:
            W.highlight(t.sk, box)
    return t.sk.scene(y - T.GAP + M)
