"""San Juan's table image: an engine view -> a :class:`~render.scene.Scene` (pure, no Pillow
drawing).  The common table is at the top, the players are stacked below it:

    title band (round)          status (the phase and its chooser, Governor, who must act)
    the five role cards (each one's privilege; who took it this round; the role being played)
    trading house (the face-up tile's five prices, tiles face down, tiles turned so far)
                                draw pile and discard pile (card backs with their counts)
    the Gold mine's face-up cards, while they lie on the table
    one panel per player (see :mod:`render.san_juan.players`)
    a seat's view only: that seat's hand as readable cards, and its drawn cards apart
    legend

Everything is sized for a 1000-pixel canvas that a phone shows at about 550 pixels.  What never
changes for a player count (panels, captions, role cards' words) goes to the static layer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .. import fonts
from .. import theme as T
from .. import widgets as W
from ..context import View
from ..scene import Box, Scene, Sketch
from . import players
from .cards import GOODS
from .context import Table, player_count, san_juan_view
from .highlights import EventLike, highlight_keys
from .labels import Labels, as_labels, seat_names
from .pieces import card_back, cards_grid, good_colors, grouped, hand_card, hand_height

M = T.MARGIN
ROLE_PHASES = ("builder", "producer", "trader", "councillor", "prospector")


def make_table(view: View, highlights: Iterable[EventLike] | None,
               names: Sequence[str] | Mapping[int, str] | None,
               labels: Labels | Mapping[str, str] | None, width: int) -> Table:
    lb = as_labels(labels)
    sj = san_juan_view(view)
    return Table(
        view=sj,
        labels=lb,
        names=seat_names(player_count(sj), names, lb),
        sk=Sketch(width, T.BACKGROUND),
        marks=highlight_keys(highlights, sj["viewer"]),
    )


def phase_text(t: Table) -> str:
    """The phase, with who chose its role (and whether they use their Library)."""
    view, lb = t.view, t.labels
    phase = view["phase"]
    text = lb(f"phase.{phase}")
    role = view["role"]
    if phase in ROLE_PHASES and role is not None:
        if role["library"]:
            text = lb("ui.with_library", phase=text)
        text = lb("ui.chosen_by", phase=text, name=t.names[role["chooser"]])
    return text


def outcome_line(t: Table) -> str | None:
    """"Winner: …" once the game is over and the view carries its outcome."""
    outcome = t.view["outcome"]
    if not t.over or outcome is None:
        return None
    winners = [t.names[w] for w in outcome["winners"]]
    key = "ui.game_shared" if len(winners) > 1 else "ui.game_won"
    return t.labels(key, names=", ".join(winners))


def _header(t: Table, y: int) -> int:
    sk, lb = t.sk, t.labels
    band = sk.region("title", Box(M, y, T.INNER, 52))
    sk.rect(band, T.BAND, radius=10, static=True)
    sk.text(M + 18, y + 37, lb("ui.title"), size=T.TEXT_TITLE, bold=True, fill=T.BAND_TEXT,
            max_width=500, static=True)
    sk.text(M + T.INNER - 18, y + 37, lb("ui.round", n=t.view["round"]),
            size=T.TEXT_HEADING, bold=True, fill=T.BAND_TEXT, anchor="rs")
    return y + 52 + T.GAP


def _status(t: Table, y: int, status: str | None) -> int:
    """The phase and who must act (or the winners); ``status``, when given, is the caller's
    line about what the image shows, in their place."""
    sk, lb, view = t.sk, t.labels, t.view
    prompt = view["prompt"]
    won = outcome_line(t) if not status else None
    waiting: tuple[str, ...] = ()
    if not status and not won and prompt is not None and prompt["seats"]:
        who = ", ".join(t.names[s] for s in prompt["seats"])
        text = "▶ " + lb("ui.waiting", names=who, what=lb(f"prompt.{prompt['kind']}"))
        waiting = fonts.wrap(text, T.TEXT_KEY, True, (T.INNER - 32,) * 2, elsewhere=True)
    h = 82 + WAIT_LINE * max(len(waiting) - 1, 0)  # a second waiting line: a taller panel
    panel = sk.region("status", Box(M, y, T.INNER, h))
    sk.rect(panel, T.PANEL, T.BORDER, 2, radius=10, static=h == 82)
    right = M + T.INNER - 14
    governor = view["governor"]
    gov = W.pill(sk, right, y + 26, f"{lb('ui.governor')}: {t.names[governor]}", T.GOLD, T.INK,
                 max_width=360, align="right", elsewhere=True)
    sk.region("governor", gov)
    if status:
        widths = (gov.x - M - 32, T.INNER - 32)
        for line, base in zip(fonts.wrap(status, T.TEXT_HEADING, True, widths),
                              (y + 35, y + 70), strict=False):
            box = sk.text(M + 16, base, line, size=T.TEXT_HEADING, bold=True, fill=T.INK,
                          key=True)
            sk.region("status_line", box)
        return y + h + T.GAP
    sk.text(M + 16, y + 35, phase_text(t), size=T.TEXT_HEADING, bold=True, fill=T.INK,
            max_width=gov.x - M - 32, key=True, elsewhere=True)
    if won:
        box = sk.text(M + 16, y + 70, won, size=T.TEXT_KEY, bold=True, fill=T.INK,
                      max_width=T.INNER - 32, key=True)
        sk.region("winners", box)
    for k, line in enumerate(waiting):
        box = sk.text(M + 16, y + 70 + WAIT_LINE * k, line, size=T.TEXT_KEY, bold=True,
                      fill=T.ACT, key=True)
        sk.region("prompt" if k == 0 else f"prompt:{k}", box)
    return y + h + T.GAP


WAIT_LINE = 30


def two_lines(text: str, size: int, width: float) -> tuple[str, ...]:
    """``text`` on one line if it fits, else on two: broken after its colon when both halves
    fit ("chooser:" / "cost −1"), else between words (on a third line when two do not hold
    it: the cards grow to the longest privilege)."""
    if fonts.length(text, size) <= width:
        return (text,)
    head, colon, tail = text.partition(": ")
    if colon and max(fonts.length(head + ":", size), fonts.length(tail, size)) <= width:
        return head + ":", tail
    return fonts.wrap(text, size, False, (width,) * 3)


def role_cards(t: Table, x0: int, y: int, width: int, *, static: bool) -> int:
    """The five roles in a row: name, privilege, who took it this round; the role being
    played is framed in teal.  Returns the ``y`` below them."""
    sk, lb, view = t.sk, t.labels, t.view
    roles = view["roles"]
    n = max(len(roles), 1)
    w = (width - T.GAP * (n - 1)) // n
    titles = [W.heading_lines(lb(f"role.{r['name']}"), T.TEXT_BODY, w - 14) for r in roles]
    perks = [two_lines(lb(f"privilege.{r['name']}"), T.TEXT_SMALL, w - 14) for r in roles]
    title_lines = max((len(lines) for lines, _ in titles), default=1)
    perk_lines = max((len(lines) for lines in perks), default=1)
    top = 12 + 24 * title_lines + 22 * perk_lines + 8  # where the seat's name goes
    h = top + 54
    current = view["role"] if view["phase"] in ROLE_PHASES else None
    for i, role in enumerate(roles):
        x = x0 + i * (w + T.GAP)
        name = role["name"]
        box = sk.region(f"role:{name}", Box(x, y, w, h))
        sk.rect(box, T.PANEL, T.BORDER, 2, radius=10, static=static)
        lines, bold = titles[i]
        for k, line in enumerate(lines):
            sk.text(x + w // 2, y + 30 + 24 * k, line, size=T.TEXT_BODY, bold=bold, fill=T.INK,
                    anchor="ms", static=static)
        base = y + 30 + 24 * (len(lines) - 1) + 24
        for k, line in enumerate(perks[i]):
            sk.text(x + w // 2, base + 22 * k, line, size=T.TEXT_SMALL, fill=T.MUTED,
                    anchor="ms", static=static)
        taken = role["taken_by"]
        if taken is not None:
            sk.rect(Box(x + 4, y + top, w - 8, h - top - 4), T.PANEL_ALT, radius=8)
            W.name_tag(sk, x + w // 2, y + top + 25, t.names[taken], T.seat_color(taken),
                       T.WHITE, max_width=w - 12)
        if current is not None and current["name"] == name:
            sk.rect(box, None, T.ACT, 4, radius=10)
    return y + h


def price_cells(t: Table, x: int, y: int, width: int) -> None:
    """The five goods with the face-up tile's price on each ("–" with no tile face up)."""
    sk, lb = t.sk, t.labels
    prices = t.view["trading_house"]["prices"]
    cell = width // len(GOODS)
    for k, good in enumerate(GOODS):
        cx = x + k * cell
        fill, edge, ink = good_colors(good)
        sk.rect(Box(cx, y, 40, 40), fill, edge, 2, radius=6)
        price = "–" if prices is None else str(prices.get(good, "–"))
        sk.text(cx + 20, y + 20, price, size=T.TEXT_KEY, bold=True, fill=ink, anchor="mm",
                key=True)
        word = sk.text(cx + 45, y + 28, lb(f"good.{good}"), size=T.TEXT_SMALL, fill=T.INK,
                       max_width=cell - 47)
        sk.region(f"trading_house:{good}", Box(cx, y, word.right - cx, 40))


def _trading_house(t: Table, x: int, y: int, w: int, h: int) -> None:
    sk, lb = t.sk, t.labels
    house = t.view["trading_house"]
    sk.rect(Box(x, y, w, h), T.PANEL, T.BORDER, 2, radius=10, static=True)
    caption = sk.text(x + 16, y + 32, lb("ui.trading_house"), size=T.TEXT_BODY, bold=True,
                      fill=T.INK, max_width=w // 2, static=True)
    face = house["face_up"]
    parts = [lb("ui.tile", n=face)] if face is not None else []
    parts.append(lb("ui.face_down", n=house["stack"]))
    info = sk.text(x + w - 16, y + 32, " · ".join(parts), size=T.TEXT_BODY, bold=True,
                   fill=T.INK, anchor="rs", max_width=x + w - 16 - caption.right - 20, key=True)
    sk.region("trading_house:tile", info)
    price_cells(t, x + 16, y + 46, w - 32)
    sk.region("trading_house", Box(x + 16, y + 46, w - 32, 40))
    seen = [str(n) for n in house["revealed"]]
    if seen:
        box = sk.text(x + 16, y + h - 14, lb("ui.seen", tiles=", ".join(seen)),
                      size=T.TEXT_SMALL, fill=T.MUTED, max_width=w - 32)
        sk.region("trading_house:seen", box)


def pile(t: Table, x: int, y: int, w: int, key: str, word: str, count: int, *,
         static: bool) -> None:
    """A face-down pile: a card back, its count, and its name below."""
    sk = t.sk
    card_back(sk, Box(x, y, 36, 50), static=static)
    num = sk.text(x + 46, y + 36, str(count), size=T.TEXT_HEADING, bold=True, fill=T.INK,
                  key=True)
    sk.region(key, Box(x, y, num.right - x, 50))
    sk.text(x, y + 78, word, size=T.TEXT_SMALL, fill=T.MUTED, max_width=w, static=static)


def _board(t: Table, y: int) -> int:
    house_w = 640
    h = 128
    _trading_house(t, M, y, house_w, h)
    x = M + house_w + T.GAP
    w = T.INNER - house_w - T.GAP
    t.sk.rect(Box(x, y, w, h), T.PANEL, T.BORDER, 2, radius=10, static=True)
    half = w // 2
    lb = t.labels
    pile(t, x + 16, y + 16, half - 24, "draw_pile", lb("ui.draw_pile"),
         t.view["draw_pile"], static=True)
    pile(t, x + half + 8, y + 16, half - 24, "discard_pile", lb("ui.discard_pile"),
         t.view["discard_pile"], static=True)
    return y + h + T.GAP


def cards_height(t: Table, width: int, columns: int, cards: Sequence[tuple[str, int]]
                 ) -> tuple[int, int, int]:
    """(card width, card height, rows' total height) of cards to read in ``width``."""
    w = cards_grid(width - 32, columns)
    h = hand_height(t.labels, list(cards), w)
    rows = (len(cards) + columns - 1) // columns
    return w, h, rows * (h + T.GAP) - T.GAP if rows else 0


def _section(t: Table, x: int, y: int, width: int, caption: str, cards: list[tuple[str, int]],
             keys: list[str], columns: int, *, key: str, fill: T.Color, edge: T.Color,
             line: int, ink: T.Color = T.INK, marked: bool = False) -> int:
    """A box with a caption and cards to read (kind, copies), each card's region named by
    ``keys``, ``columns`` a row; returns the ``y`` below it."""
    sk = t.sk
    w, h, total = cards_height(t, width, columns, cards)
    box = sk.region(key, Box(x, y, width, 46 + max(total, 0) + (14 if total else 0)))
    sk.rect(box, fill, edge, line, radius=10)
    sk.text(x + 16, y + 32, caption, size=T.TEXT_BODY, bold=True, fill=ink,
            max_width=width - 32, key=True)
    for i, ((kind, count), name) in enumerate(zip(cards, keys, strict=True)):
        r, c = divmod(i, columns)
        card = sk.region(name, Box(x + 16 + c * (w + T.GAP), y + 46 + r * (h + T.GAP), w, h))
        hand_card(sk, t.labels, card, kind, count=count, marked=marked)
    return box.bottom + T.GAP


def gold_mine(t: Table, x: int, y: int, width: int, columns: int) -> int:
    """The Gold mine's four face-up cards, when the view has them; returns the ``y`` below."""
    mine = t.view["gold_mine"]
    if mine is None:
        return y
    kinds = mine["cards"]
    caption = t.labels("ui.gold_mine", name=t.names[mine["seat"]])
    return _section(t, x, y, width, caption, [(k, 1) for k in kinds],
                    [f"gold_mine:{i}" for i in range(len(kinds))], columns, key="gold_mine",
                    fill=T.PANEL, edge=T.GOLD_DARK, line=3)


def hand_section(t: Table, x: int, y: int, width: int, columns: int, *,
                 framed: bool = False) -> int:
    """A seat's own hand (kinds sorted; copies of a kind as one card with ``×n``) and, when it
    is paying for a building, what it builds and pays.  Returns the ``y`` below."""
    sk, lb = t.sk, t.labels
    hand = t.view.get("hand") or []
    groups = grouped(hand)
    caption = lb("ui.your_hand", n=len(hand))
    below = _section(t, x, y, width, caption, groups, [f"hand:{k}" for k, _ in groups],
                     columns, key="hand", fill=T.PANEL, edge=T.ACT if framed else T.BORDER,
                     line=4 if framed else 2)
    if not groups:
        empty = sk.text(x + 16 + int(fonts.length(caption, T.TEXT_BODY, True)) + 20, y + 32,
                        lb("ui.hand_empty"), size=T.TEXT_SMALL, fill=T.MUTED,
                        max_width=max(width // 2, 60))
        sk.region("hand:empty", empty)
    line = pending_line(t)
    if line:
        room = width - 32 - fonts.length(caption, T.TEXT_BODY, True) - 24
        if room > 80:
            text = sk.text(x + width - 16, y + 32, line, size=T.TEXT_BODY, bold=True,
                           fill=T.ACT, anchor="rs", max_width=room, key=True)
            sk.region("pending", text)
    return below


def pending_line(t: Table) -> str | None:
    """What the seat's pending decision asks of its hand: the building it pays for and how
    many cards, or how many cards over the hand limit it discards."""
    pending = t.view.get("pending")
    if pending is None:
        return None
    lb = t.labels
    decision = pending["decision"]
    if decision == "pay" and "building" in pending:
        return lb("ui.pending", card=lb(f"card.{pending['building']}"),
                  n=pending.get("cost", "?"))
    if decision == "hand_limit" and "limit" in pending:
        return lb("ui.hand_limit", limit=pending["limit"], n=pending.get("discard", "?"))
    return None


def drawn_section(t: Table, x: int, y: int, width: int, columns: int, *,
                  framed: bool = False) -> int:
    """The cards a seat drew and has not yet kept (the Councillor's, the variant start's),
    apart from its hand and in teal; nothing when there are none.  Returns the ``y`` below."""
    drawn = t.view.get("drawn") or []
    if not drawn:
        return y
    pending = t.view.get("pending")
    caption = t.labels("ui.drawn", n=len(drawn))
    if pending is not None and pending.get("archive"):
        caption = t.labels("ui.drawn_discard", n=len(drawn), discard=pending.get("discard", "?"))
    elif pending is not None and "keep" in pending:
        caption = t.labels("ui.drawn_keep", n=len(drawn), keep=pending["keep"])
    return _section(t, x, y, width, caption,
                    [(k, 1) for k in drawn], [f"drawn:{i}" for i in range(len(drawn))],
                    columns, key="drawn", fill=T.ACT_LIGHT, edge=T.ACT,
                    line=4 if framed else 3, ink=T.ACT, marked=True)


def legend(t: Table, x: int, y: int, width: int, *, static: bool) -> int:
    """The symbols explained, drawn with the real pieces, wrapping onto more rows."""
    sk, lb = t.sk, t.labels
    entries = ("cost", "vp", "bonus", "good", "inactive", "hand", "changed", "to_act")
    icon_w = {"cost": 28, "vp": 30, "bonus": 30, "good": 26, "inactive": 34, "hand": 20,
              "changed": 30, "to_act": 30}
    limit = x + width - 16
    rows: list[list[tuple[str, str]]] = [[]]
    cx = x + 16
    for entry in entries:
        word = lb(f"legend.{entry}")
        need = icon_w[entry] + 6 + int(fonts.length(word, T.TEXT_SMALL)) + 20
        if rows[-1] and cx + need > limit:
            rows.append([])
            cx = x + 16
        rows[-1].append((entry, word))
        cx += need
    h = 12 + 40 * len(rows)
    sk.rect(Box(x, y, width, h), T.PANEL_ALT, radius=10, static=static)
    for r, row in enumerate(rows):
        cx = x + 16
        cy = y + 26 + 40 * r
        for entry, word in row:
            w = icon_w[entry]
            if entry == "cost":
                W.coin(sk, cx + 14, cy, 28, 3, size=T.TEXT_SMALL, key=False, static=static)
            elif entry in ("vp", "bonus"):
                W.vp_badge(sk, cx, cy, 2 if entry == "vp" else "★", static=static)
            elif entry == "good":
                fill, edge, _ = good_colors("coffee")
                sk.rect(Box(cx, cy - 13, 26, 26), fill, edge, 2, radius=5, static=static)
            elif entry == "inactive":
                sk.rect(Box(cx, cy - 14, 34, 28), T.SOLD_OUT, T.BORDER, 2, radius=5,
                        static=static)
            elif entry == "hand":
                card_back(sk, Box(cx, cy - 14, 20, 28), static=static)
            else:
                color = T.HIGHLIGHT if entry == "changed" else T.ACT
                sk.rect(Box(cx, cy - 12, 30, 24), None, color, 4, radius=6, static=static)
            text = sk.text(cx + w + 6, cy + 7, word, size=T.TEXT_SMALL, fill=T.MUTED,
                           max_width=max(limit - cx - w - 6, 0), static=static)
            cx = text.right + 20
    return y + h


def draw_marks(t: Table) -> None:
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
    """The table image's scene for ``view`` (public, or a seat's view, which adds that seat's
    hand).  ``status``: a line saying what the image shows ("Round 3 · the Builder phase
    ended"), drawn in place of the phase and whose turn it is."""
    t = make_table(view, highlights, names, labels, T.WIDTH)
    y = _header(t, M)
    y = _status(t, y, status)
    y = role_cards(t, M, y, T.INNER, static=True) + T.GAP
    y = _board(t, y)
    y = gold_mine(t, M, y, T.INNER, 4)
    y = players.layout_players(t, y)
    if t.viewer is not None:
        y = hand_section(t, M, y, T.INNER, 4)
        y = drawn_section(t, M, y, T.INNER, 4)
    y = legend(t, M, y, T.INNER, static=True) + M
    draw_marks(t)
    return t.sk.scene(y)
