"""The table image's layout: an engine view -> a :class:`~render.scene.Scene` (pure, no Pillow
drawing).  The common board is at the top, the players are stacked below it:

    title band (round; the expansions played)   status (phase, governor, who must act, last round)
    role cards (doubloons on them, who took which; the Buccaneer's token, the captured card)
    the Puertomas' action board (1897: the difficulty, the action marker, tie-breakers left)
    cargo ships                 trading house, goods left, colonists, VP chips left
    face-up plantations, quarries, face-down and discarded counts
    the Festival board (Exp. 4: its three goals, their rewards, who achieved them)
    buildings (four columns as on the board: cost, VP, circles, copies left)
    one panel per player (see ``render.players``)
    legend

Everything is sized for a 1000-pixel canvas that a phone shows at about 550 pixels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial

from engine.puerto_rico.view import NoblesPart, PuertoRicoView, RoleCard

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..context import View
from ..scene import Box, Scene, Sketch
from . import market, nobles, players, puertoma
from . import new_buildings as nb
from . import pieces as P
from .achievements import layout_achievements
from .activities import layout_activities
from .context import Table, ends_after, puerto_rico_view
from .highlights import EventLike, highlight_keys
from .labels import Labels, as_labels, seat_names
from .modules import layout_festival, modules_text, role_area

M = T.MARGIN


def _header(t: Table, y: int) -> int:
    sk, lb = t.sk, t.labels
    band = sk.region("title", Box(M, y, T.INNER, 52))
    sk.rect(band, T.BAND, radius=10, static=True)
    title = sk.text(M + 18, y + 37, lb("ui.title"), size=T.TEXT_TITLE, bold=True,
                    fill=T.BAND_TEXT, max_width=500, static=True)
    rounds = sk.text(M + T.INNER - 18, y + 37, lb("ui.round", n=t.view["round"]),
                     size=T.TEXT_HEADING, bold=True, fill=T.BAND_TEXT, anchor="rs")
    modules = modules_text(t)
    if modules:  # bold when it fits (four modules' Spanish names do not)
        room = rounds.x - title.right - 40
        modules, bold = fonts.fit_weight(modules, T.TEXT_BODY, room)
        box = sk.text(title.right + 14, y + 35, modules, size=T.TEXT_BODY, bold=bold,
                      fill=T.GOLD, max_width=room, static=True)
        sk.region("modules", box)
    return y + 52 + T.GAP


def _phase_text(t: Table) -> str:
    view, lb = t.view, t.labels
    phase = view["phase"]
    text = lb(f"phase.{phase}")
    chooser = view["chooser"]
    if phase not in ("role_selection", "game_over") and chooser is not None:
        text = lb("ui.chosen_by", phase=text, name=t.names[chooser])
    return text


def _status(t: Table, y: int, status: str | None = None) -> int:
    """The phase, the Governor, who must act (or the winners); ``status``, when given, is the
    caller's line about what the image shows, in place of the phase and who must act."""
    sk, lb, view = t.sk, t.labels, t.view
    right = M + T.INNER - 14
    prompt = view["prompt"]
    outcome = view.get("outcome")
    ended = view["end_triggered"]
    last = None
    note_left = right
    if ended and not view["game_over"]:
        reasons = ", ".join(lb(f"end.{r}") for r in ended)
        last = lb(f"ui.last_{ends_after(view)}", reasons=reasons)
        shown = fonts.fit(last, T.TEXT_BODY, True, T.INNER // 2)
        note_left = right + fonts.bbox(shown, T.TEXT_BODY, True, "rs")[0]
    waiting: tuple[str, ...] = ()
    if not status and not (view["game_over"] and outcome is not None) and (
            prompt and prompt["seats"]):
        who = ", ".join(t.names[s] for s in prompt["seats"])
        text = "▶ " + lb("ui.waiting", names=who, what=lb(f"prompt.{prompt['kind']}"))
        first = note_left - M - 40
        waiting = (text,) if fonts.fits(text, T.TEXT_KEY, True, first) else fonts.wrap(
            text, T.TEXT_KEY, True, (first, T.INNER - 32), elsewhere=True)
    h = 82 + WAIT_LINE * (len(waiting) - 1 if waiting else 0)  # a second line when needed
    panel = sk.region("status", Box(M, y, T.INNER, h))
    sk.rect(panel, T.PANEL, T.BORDER, 2, radius=10, static=h == 82)
    governor = view["governor"]
    gov = W.pill(sk, right, y + 26, f"{lb('ui.governor')}: {t.names[governor]}", T.GOLD, T.INK,
                 max_width=360, align="right", elsewhere=True)
    sk.region("governor", gov)
    if not status:
        sk.text(M + 16, y + 35, _phase_text(t), size=T.TEXT_HEADING, bold=True, fill=T.INK,
                max_width=gov.x - M - 32, key=True, elsewhere=True)
    if last is not None:
        note = sk.text(right, y + 70, last, size=T.TEXT_BODY, bold=True, fill=T.HIGHLIGHT,
                       anchor="rs", max_width=T.INNER // 2)
        sk.region("last_round", note)
    if status:  # on the first line, and the second when it needs it
        widths = (gov.x - M - 32, note_left - M - 40)
        for line, base in zip(fonts.wrap(status, T.TEXT_HEADING, True, widths),
                              (y + 35, y + 70), strict=False):
            box = sk.text(M + 16, base, line, size=T.TEXT_HEADING, bold=True, fill=T.INK,
                          key=True)
            sk.region("status_line", box)
    elif view["game_over"] and outcome is not None:
        winners = [t.names[w] for w in outcome["winners"]]
        key = "ui.game_shared" if len(winners) > 1 else "ui.game_won"
        box = sk.text(M + 16, y + 70, lb(key, names=", ".join(winners)), size=T.TEXT_KEY,
                      bold=True, fill=T.INK, max_width=T.INNER - 32, key=True)
        sk.region("winners", box)
    for k, line in enumerate(waiting):
        box = sk.text(M + 16, y + 70 + WAIT_LINE * k, line, size=T.TEXT_KEY, bold=True,
                      fill=T.ACT, key=True)
        sk.region("prompt" if k == 0 else f"prompt:{k}", box)
    return y + h + T.GAP


WAIT_LINE = 30  # a second line of "▶ Waiting for …" makes the status panel taller


ROLES_PER_ROW = 8  # more cards (5 players with the Buccaneer: 9) go on two rows


def _card_width(n: int) -> int:
    return (T.INNER - T.GAP * (n - 1)) // n


def _role_rows(t: Table, roles: list[RoleCard]) -> int:
    """One row of cards, or two when there are more than eight or when a word of a role's
    name would have to be cut on one ("Colonizador" on eight cards)."""
    if len(roles) > ROLES_PER_ROW:
        return 2
    width = _card_width(len(roles)) - 12
    words = {w for r in roles for w in t.labels.role(r["role"]).split()}
    return 1 if all(fonts.length(w, T.TEXT_SMALL) <= width for w in words) else 2


def _roles(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    roles = view["roles"]
    rows = _role_rows(t, roles)
    n = -(-len(roles) // rows)  # cards per row
    w = _card_width(n)
    titles = [W.heading_lines(lb.role(r["role"]), T.TEXT_SMALL, w - 12) for r in roles]
    top = 14 + 22 * max(len(lines) for lines, _ in titles)  # where the seat's name goes
    h = top + 60
    for i, role in enumerate(roles):
        x = M + (i % n) * (w + T.GAP)
        ry = y + (i // n) * (h + T.GAP)
        box = sk.region(f"role:{role['card']}", Box(x, ry, w, h))
        sk.rect(box, T.PANEL, T.BORDER, 2, radius=10, static=True)
        lines, bold = titles[i]
        for k, line in enumerate(lines):
            sk.text(x + w // 2, ry + 27 + 22 * k, line, size=T.TEXT_SMALL, bold=bold,
                    fill=T.INK, anchor="ms", static=True)
        role_area(t, role, Box(x + 4, ry + top, w - 8, h - top - 4))
        taken = role["taken_by"]
        if (
            taken is not None
            and view["active_role"] == role["role"]
            and taken == view["chooser"]
            and view["phase"] != "role_selection"
        ):
            sk.rect(box, None, T.ACT, 4, radius=10)
    return y + rows * (h + T.GAP)


def _ships(t: Table, x: int, y: int, w: int) -> int:
    """Cargo ships: one hold square per capacity, filled with the loaded good."""
    sk, lb = t.sk, t.labels
    sk.text(x + 16, y + 32, lb("ui.cargo_ships"), size=T.TEXT_BODY, bold=True, fill=T.INK,
            static=True)
    ry = y + 46
    step, slot = 38, 34
    for i, ship in enumerate(t.view["ships"]):
        cap, count, good = ship["capacity"], ship["count"], ship["good"]
        hull = Box(x + 16, ry, 12 + cap * step + 34, 48)
        W.ship_hull(sk, hull, T.HULL, T.HULL_DARK, static=True)
        for k in range(cap):
            slot_box = sk.region(f"ship:{i}:{k}", Box(hull.x + 12 + k * step, ry + 7, slot, slot))
            P.good_slot(sk, slot_box, None, lb, static=True)
            if k < count and good:
                P.good_slot(sk, slot_box, good, lb)
        label = sk.text(hull.right + 12, ry + 33, f"{count}/{cap}", size=T.TEXT_KEY, bold=True,
                        fill=T.INK, key=True, max_width=x + w - hull.right - 20)
        sk.region(f"ship:{i}", Box(hull.x, hull.y, label.right - hull.x, hull.h))
        ry += 48 + 10
    private = _private_ships(t.view)
    if private:  # 1897 (B-18, B-31): the Wharves' crates, on their ships until the phase ends
        caption = sk.text(x + 16, ry + 30, lb("ui.private_ships"), size=T.TEXT_BODY, bold=True,
                          fill=T.INK, max_width=150)
        bx = start = caption.right + 14
        for good, count in private:
            P.barrel(sk, Box(bx, ry + 3, 30, 36), good, lb)
            num = sk.text(bx + 35, ry + 31, str(count), size=T.TEXT_KEY, bold=True, fill=T.INK,
                          key=True)
            bx = num.right + 12
        sk.region("private_ships", Box(start, ry + 3, bx - start - 12, 36))
        ry += PRIVATE_ROW
    return ry


PRIVATE_ROW = 48  # 1897: the row of the Wharves' private ships under the cargo ships


def _private_ships(view: PuertoRicoView) -> list[tuple[str, int]]:
    """1897: the crates on the Wharves' private ships now (none outside a Captain phase)."""
    return [(g, n) for g, n in view.get("private_ships", {}).items() if n > 0]


def _caption(sk: Sketch, x: int, y: int, text: str) -> Box:
    """A row's caption at the left of the supply (``y``: its baseline): on two lines, or
    smaller, when one does not hold it ("Caixotes restantes")."""
    return W.text_block(sk, x, y, text, size=T.TEXT_BODY, width=160, fill=T.INK,
                        smaller=T.TEXT_SMALL, step=22, static=True)


def _supply(t: Table, x: int, y: int, w: int) -> int:
    """Trading house, goods left, colonist ship and supply, VP chips left."""
    sk, lb, view = t.sk, t.labels, t.view
    cx = x + 184  # where the contents start, right of the captions
    # trading house
    ry = y + 12
    _caption(sk, x + 16, ry + 30, lb("ui.trading_house"))
    house = list(view["trading_house"])
    cap = int(view["trading_house_capacity"])
    last: dict[str, Box] = {}
    for k in range(cap):
        slot_box = sk.region(f"trading_house:{k}", Box(cx + k * 44, ry + 2, 38, 38))
        P.good_slot(sk, slot_box, None, lb, static=True)
        if k < len(house):
            P.good_slot(sk, slot_box, house[k], lb)
            last[house[k]] = slot_box
    for good, box in last.items():
        sk.region(f"trading_house:last:{good}", box)
    sk.region("trading_house", Box(cx, ry + 2, cap * 44 - 6, 38))
    # goods left in the supply
    ry += 52
    caption = _caption(sk, x + 16, ry + 30, lb("ui.goods_supply"))
    start = bx = min(cx, caption.right + 18)
    for good, count in view["goods_supply"].items():
        P.barrel(sk, Box(bx, ry + 3, 30, 36), good, lb)
        num = sk.text(bx + 35, ry + 31, str(count), size=T.TEXT_KEY, bold=True, fill=T.INK,
                      key=True)
        sk.region(f"goods_supply:{good}", Box(bx, ry + 3, num.right - bx, 36))
        bx = num.right + 12
    sk.region("goods_supply", Box(start, ry + 3, bx - start - 12, 36))
    # colonists
    ry += 52
    colonists = view["colonists"]
    _caption(sk, x + 16, ry + 30, lb("ui.colonist_ship"))
    W.pawn(sk, cx + 2, ry + 6, 30, static=True)
    num = sk.text(cx + 30, ry + 32, str(colonists["ship"]), size=T.TEXT_HEADING, bold=True,
                  fill=T.INK, key=True)
    sk.region("colonist_ship", Box(cx, ry + 4, num.right - cx, 34))
    noble_part = nobles.part(view)
    if noble_part is not None:
        ry = _noble_supply(t, x, cx, ry, noble_part)
    else:
        W.text_block(sk, cx + 100, ry + 30, lb("ui.colonist_supply"), size=T.TEXT_BODY,
                     width=w - 184 - 100 - 60, fill=T.INK, bold=False, smaller=T.TEXT_SMALL,
                     step=22, static=True)
        num = sk.text(x + w - 16, ry + 32, str(colonists["supply"]), size=T.TEXT_HEADING,
                      bold=True, fill=T.INK, anchor="rs", key=True)
        sk.region("colonist_supply", num)
    # VP chips left
    ry += 52
    _caption(sk, x + 16, ry + 30, lb("ui.vp_chips_left"))
    W.vp_chip(sk, cx + 16, ry + 22, 14, static=True)
    num = sk.text(cx + 38, ry + 32, str(view["vp_chips_left"]), size=T.TEXT_HEADING, bold=True,
                  fill=T.INK, key=True)
    sk.region("vp_chips", Box(cx, ry + 6, num.right - cx, 32))
    return ry + 52


NOBLES_X = 110  # Exp. 2: the nobles' column in the colonists' rows, right of the colonists'


def _noble_supply(t: Table, x: int, cx: int, ry: int, part: NoblesPart) -> int:
    """Exp. 2: the colonists' rows as a grid, the ship's row then the supply's, colonists then
    nobles (``cx``: where the contents start).  Returns the supply row's ``y``."""
    sk, lb = t.sk, t.labels
    figure = nobles.figure(sk, cx + NOBLES_X, ry + 2, 34, static=True)
    num = sk.text(figure.right + 8, ry + 32, str(part["ship"]), size=T.TEXT_HEADING, bold=True,
                  fill=T.INK, key=True)
    sk.region("noble_ship", Box(figure.x, ry + 2, num.right - figure.x, 36))
    ry += 52
    _caption(sk, x + 16, ry + 30, lb("ui.colonist_supply"))
    W.pawn(sk, cx + 2, ry + 6, 30, static=True)
    num = sk.text(cx + 30, ry + 32, str(t.view["colonists"]["supply"]), size=T.TEXT_HEADING,
                  bold=True, fill=T.INK, key=True)
    sk.region("colonist_supply", Box(cx, ry + 4, num.right - cx, 34))
    figure = nobles.figure(sk, cx + NOBLES_X, ry + 2, 34, static=True)
    num = sk.text(figure.right + 8, ry + 32, str(part["supply"]), size=T.TEXT_HEADING,
                  bold=True, fill=T.INK, key=True)
    sk.region("noble_supply", Box(figure.x, ry + 2, num.right - figure.x, 36))
    return ry


def _board(t: Table, y: int) -> int:
    sk = t.sk
    left_w = 440
    right_x = M + left_w + T.GAP
    right_w = T.INNER - left_w - T.GAP
    n_ships = len(t.view["ships"])
    rows = 5 if nobles.has_module(t.view) else 4  # Exp. 2: the supply's own row
    private = PRIVATE_ROW if _private_ships(t.view) else 0
    h = max(46 + n_ships * 58 + private + 4, 12 + rows * 52 + 4)
    sk.rect(Box(M, y, left_w, h), T.SEA, T.SEA_DARK, 2, radius=10, static=True)
    sk.rect(Box(right_x, y, right_w, h), T.PANEL, T.BORDER, 2, radius=10, static=True)
    _ships(t, M, y, left_w)
    _supply(t, right_x, y, right_w)
    return y + h + T.GAP


def _plantations(t: Table, y: int) -> int:
    sk, lb, view = t.sk, t.labels, t.view
    h = 76
    sk.rect(Box(M, y, T.INNER, h), T.PANEL, T.BORDER, 2, radius=10, static=True)
    W.text_block(sk, M + 16, y + 46, lb("ui.plantations"), size=T.TEXT_BODY, width=130,
                 fill=T.INK, smaller=T.TEXT_SMALL, step=22, static=True)
    x0 = M + 150
    slots = view["players_count"] + 1
    for k in range(slots):
        sk.rect(Box(x0 + k * 58, y + 12, 52, 52), T.PANEL_ALT, T.FAINT, 2, radius=6, static=True)
    face_up = view["face_up"]
    for k, kind in enumerate(face_up):
        P.tile(sk, Box(x0 + k * 58, y + 12, 52, 52), kind, lb)
    sk.region("face_up", Box(x0, y + 12, max(slots, len(face_up)) * 58 - 6, 52))
    qx = x0 + 6 * 58 + 14
    P.tile(sk, Box(qx, y + 12, 52, 52), "quarry", lb, static=True)
    num = sk.text(qx + 60, y + 48, f"×{view['quarries_left']}", size=T.TEXT_KEY, bold=True,
                  fill=T.INK, key=True)
    sk.region("quarries", Box(qx, y + 12, num.right - qx, 52))
    tx = qx + 130
    for row, (word, value) in enumerate(
        (("ui.stack", view["plantation_stack"]), ("ui.discard", view["plantation_discard"]))
    ):
        base = y + 32 + row * 30
        sk.text(tx, base, lb(word), size=T.TEXT_BODY, fill=T.INK, max_width=150, static=True)
        num = sk.text(M + T.INNER - 16, base, str(value), size=T.TEXT_BODY, bold=True,
                      fill=T.INK, anchor="rs", key=True)
        sk.region("plantation_stack" if row == 0 else "plantation_discard", num)
    return y + h + T.GAP


def _festival(t: Table, y: int) -> int:
    """The Festival board, then the Festival Activity cards (1897's Expansion V) and the
    Achievements (its Expansion VI)."""
    y = layout_activities(t, M, layout_festival(t, M, y, T.INNER), T.INNER)
    return layout_achievements(t, M, y, T.INNER)


def _legend(t: Table, y: int) -> int:
    """Two lines that explain the letters and symbols (drawn with the real pieces); with
    Exp. 2 a third one for the noble, with Puertomas (1897) one for their pieces."""
    sk, lb = t.sk, t.labels
    noble = nobles.has_module(t.view)
    automata = puertoma.part(t.view) is not None
    h = 90 + 38 * (int(noble) + int(automata))
    sk.rect(Box(M, y, T.INNER, h), T.PANEL_ALT, radius=10, static=True)
    x, limit = M + 16, M + T.INNER - 16
    kinds = (*P.GOOD_COLORS, "quarry", *((nb.FOREST,) if nb.has_module(t.view) else ()))
    for kind in kinds:
        if kind == nb.FOREST:
            nb.forest_tile(sk, Box(x, y + 10, 28, 30))
        else:
            P.tile(sk, Box(x, y + 10, 28, 30), kind, lb, key=False, static=True)
        word = sk.text(x + 34, y + 32, lb(f"legend.{kind}"), size=T.TEXT_SMALL, fill=T.MUTED,
                       max_width=limit - x - 34, static=True)
        x = word.right + 18
    x = M + 16
    cy = y + 64
    entries = (
        ("coin", "legend.doubloons"),
        ("pawn", "legend.san_juan"),
        ("full", "legend.occupied"),
        ("empty", "legend.empty"),
        ("changed", "legend.changed"),
        ("act", "legend.to_act"),
    )
    for symbol, word_key in entries:
        if symbol == "coin":
            icon = W.coin(sk, x + 14, cy, 28, 3, size=T.TEXT_SMALL, key=False, static=True)
        elif symbol == "pawn":
            icon = W.pawn(sk, x, cy - 14, 28, static=True)
        elif symbol in ("full", "empty"):
            icon = W.occupancy(sk, x, cy, 1, int(symbol == "full"), static=True)
        else:
            color = T.HIGHLIGHT if symbol == "changed" else T.ACT
            icon = sk.rect(Box(x, cy - 12, 30, 24), None, color, 4, radius=6, static=True)
        word = sk.text(icon.right + 6, cy + 8, lb(word_key), size=T.TEXT_SMALL, fill=T.MUTED,
                       max_width=max(limit - icon.right - 6, 0), static=True)
        x = word.right + 20
        if x > limit - 60:
            break
    if noble:
        _noble_legend(t, y + 102, limit)
    if automata:
        puertoma.legend_line(t, M + 16, y + h - 26, limit)
    return y + h + T.MARGIN


def _noble_legend(t: Table, cy: int, limit: int) -> None:
    """Exp. 2: the noble on a circle, and waiting in San Juan (a line centred on ``cy``)."""
    sk, lb = t.sk, t.labels
    x = M + 16
    icon = nobles.piece(sk, x + W.CIRCLE_R + 1, cy + 3, static=True)
    word = sk.text(icon.right + 6, cy + 8, lb("legend.noble"), size=T.TEXT_SMALL, fill=T.MUTED,
                   max_width=limit - icon.right - 6, static=True)
    icon = nobles.figure(sk, word.right + 20, cy - 16, 32, static=True)
    sk.text(icon.right + 6, cy + 8, lb("legend.noble_san_juan"), size=T.TEXT_SMALL,
            fill=T.MUTED, max_width=max(limit - icon.right - 6, 0), static=True)


def _marks(t: Table) -> None:
    for key in sorted(t.marks):
        box = t.sk.regions.get(key)
        if box is not None:
            W.highlight(t.sk, box)


def layout_table(
    view: View,
    highlights: Iterable[EventLike] | None = None,
    *,
    names: Sequence[str] | Mapping[int, str] | None = None,
    labels: Labels | Mapping[str, str] | None = None,
    status: str | None = None,
) -> Scene:
    """The table image's scene for ``view`` (public, or a seat's view).  ``status``: a line
    saying what the image shows ("Round 3 · the Builder phase ended"), drawn in place of the
    phase and whose turn it is (a board kept for the record, where nobody is awaited)."""
    lb = as_labels(labels)
    pr = puerto_rico_view(view)
    t = Table(
        view=pr,
        labels=lb,
        names=seat_names(pr["players_count"], names, lb),
        sk=Sketch(T.WIDTH, T.BACKGROUND),
        marks=highlight_keys(highlights, pr["viewer"]),
    )
    y = T.MARGIN
    for section in (_header, partial(_status, status=status), _roles,
                    puertoma.layout_action_board, _board, _plantations, _festival,
                    market.layout_market):
        y = section(t, y)
    y = players.layout_players(t, y)
    y = _legend(t, y)
    _marks(t)
    return t.sk.scene(y)
