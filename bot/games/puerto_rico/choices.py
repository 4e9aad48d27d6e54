"""Puerto Rico's action codes in words: the labels of buttons, select options and autocomplete
choices.

Pure: an engine action code (``b.harbor``, ``ship.corn.1``...) plus the view the chooser sees
(a seat view carries that seat's building prices, doubloons and goods) and the effects the
service measured by trying each action on a copy of the game (doubloons earned by a sale, VP and
barrels of a load) become a short label and a description, in one language.  Every choice says
what it costs and what it brings: "Small indigo plant — costs 1 doubloon, 1 VP", "1 circle:
turns indigo into barrels"; "Load 3 corn on ship 1 (3/4) — +3 VP"; "Sell indigo — +2
doubloons".  The engine stays the one source of legality: this module only words codes it was
given.
"""

from __future__ import annotations

from engine.puerto_rico.view import Ship

from ...limits import clip as _clip
from ...words import CHOICE_LIMIT, DESCRIPTION_LIMIT, LABEL_LIMIT
from . import new_buildings, nobles
from .words import Effect, PrWords

__all__ = ["CHOICE_LIMIT", "Chooser", "Effect", "clip", "family", "keep_counts"]
FAMILIES = {
    "r": "role", "s": "settle", "o": "offer", "m": "mayor", "b": "build", "c": "craft",
    "t": "sell", "ship": "ship", "wharf": "ship", "keep": "keep", "pass": "pass",
    "bu": "buccaneer", "raid": "raid",
    # Exp. 1: the draft, forests, Black market builds, Trading post sales, Small wharf loads,
    # Guest house moves
    "d": "draft", "f": "settle", "bm": "build", "tp": "sell", "sw": "ship", "g": "guest",
    # Exp. 2: the noble or a colonist from the ship, a noble's place, the Hunting lodge, the
    # Royal supplier, the Land office (with the sales)
    "n": "offer", "mn": "mayor", "hl": "offer", "rs": "offer", "lo": "sell",
    # the kernel's points of the 1897 edition: production decided, the Festival's
    # reward workers placed at once (X4)
    "produce": "craft", "fw": "mayor",
    # 1897's Expansion VI: an Achievement card announced (any moment), kept in the draft
    "ach": "achievement", "ad": "achievement",
}
RAID_KEEP_MAX = 3  # §12 Raid: the Buccaneer keeps up to 3 of the removed colonists
PIRACY_KEEP_MAX = 3  # §12 Piracy: he keeps up to 3 of the barrels


def family(code: str) -> str:
    """``role``, ``settle``, ``offer``, ``mayor``, ``build``, ``craft``, ``sell``, ``ship``,
    ``keep``, ``buccaneer`` (Exp. 3's options), ``raid`` (placing raided colonists), ``draft``
    and ``guest`` (Exp. 1's draft and Guest house moves) or ``pass``.  Exp. 2's codes join the
    families of their moments: the noble-or-colonist take, the Hunting lodge and the Royal
    supplier are offers, a noble's place is the Mayor's, the Land office sells."""
    return FAMILIES.get(code.split(".", 1)[0], "other")


def clip(text: str, limit: int = LABEL_LIMIT) -> str:
    return _clip(text, limit)


def keep_counts(body: str) -> dict[str, int]:
    """``indigo1.tobacco4`` -> ``{"indigo": 1, "tobacco": 4}`` (``none`` -> ``{}``)."""
    out: dict[str, int] = {}
    if body == "none":
        return out
    for part in body.split("."):
        name = part.rstrip("0123456789")
        digits = part[len(name):]
        out[name] = int(digits) if digits else 0
    return out


class Chooser(PrWords):
    """Words for the Puerto Rico codes one viewer may choose now."""

    def achievement_vp(self, card: str) -> int | str:
        """The VP of one of the viewer's Achievement cards (his own view shows them)."""
        part = self.view.get("achievements")
        mine = [] if part is None else [*(part["hand"] or ()), *(part["to_pick"] or ())]
        return next((c["vp"] for c in mine if c["achievement"] == card), "?")

    def price(self, building: str) -> int:
        entry = self.market.get(building)
        return 0 if entry is None else entry.get("price", entry["cost"])

    def role_of(self, card: str) -> str:
        """The role of a role card (``prospector2`` -> ``prospector``) in words."""
        role = self.roles.get(card)
        return self.word("role", card.rstrip("2") if role is None else role["role"])

    def free_circles(self) -> int:
        """The viewer's empty circles: unoccupied island tiles and empty building circles."""
        me = self.player()
        if me is None:
            return 0
        island = sum(1 for t in me["island"] if not t["occupied"])
        city = sum(b["circles"] - b["colonists"] for b in me["city"])
        return island + max(city, 0)

    def raid_numbers(self) -> tuple[int, int, int]:
        """(N, removed, kept) of a Raid now: the ship is reduced to N (the player count), the
        Buccaneer keeps at most 3 and no more than his empty circles (ruling A34)."""
        players = self.view["players_count"]
        ship = self.view["colonists"]["ship"]
        nobles = self.view["nobles"]  # Exp. 2 (A34): a noble on the ship is a piece too
        if nobles is not None:
            ship += nobles["ship"]
        removed = max(0, ship - players)
        return players, removed, min(RAID_KEEP_MAX, removed, self.free_circles())

    def piracy_parts(self, rest: str) -> tuple[int, int, str, int]:
        """(ship number from 1, barrels on it, its good in words, barrels kept) of
        ``bu.piracy.<ship>.<kept>``'s tail."""
        index, _, kept = rest.partition(".")
        ship = self._ship(index)
        good = None if ship is None else ship["good"]
        return (int(index) + 1 if index.isdigit() else 0, 0 if ship is None else ship["count"],
                self.tile(good) if good else "?", int(kept) if kept.isdigit() else 0)

    def piracy_option(self, code: str) -> str:
        """A Piracy choice inside its ship's menu: "Keep 2 corn — 2 barrels to the supply"."""
        _, count, good, kept = self.piracy_parts(code.removeprefix("bu.piracy."))
        lost = max(count - kept, 0)
        if lost:
            return self.t("act.piracy_keep_lose", n=kept, good=good, lost=lost)
        return self.t("act.piracy_keep_all", n=kept, good=good)

    def buccaneer_label(self, rest: str) -> str:
        """``bu.<rest>`` in words: one of the Buccaneer's four options (§12)."""
        option, _, tail = rest.partition(".")
        if option == "piracy":
            ship, count, good, kept = self.piracy_parts(tail)
            return self.t("act.piracy", ship=ship, count=count, good=good, n=kept)
        if option == "plunder":
            return self.t("act.plunder", n=len(self.view["trading_house"]))
        if option == "raid":
            players, removed, kept = self.raid_numbers()
            if not removed:
                return self.t("act.raid_nothing", n=players)
            if not kept:
                return self.t("act.raid_lose", n=players, lost=removed)
            return self.t("act.raid", n=players, kept=kept)
        if option == "capture":
            card = self.roles.get(tail)
            coins = 0 if card is None else card["doubloons"]
            role = self.role_of(tail)
            if coins:
                return self.t("act.capture_coins", role=role, n=coins)
            return self.t("act.capture", role=role)
        return f"bu.{rest}"

    # --- labels ---------------------------------------------------------------------------

    def plain_label(self, code: str) -> str:
        head, _, rest = code.partition(".")
        effect = self.effects.get(code)
        exp1 = new_buildings.label(self, code)
        if exp1 is not None:
            return exp1
        exp2 = nobles.label(self, code)
        if exp2 is not None:
            return exp2
        if code == "pass":
            key = f"pass.{self.prompt_kind}"
            return self.t(key) if self.catalog.has(key) else self.t("pass.default")
        if head == "r":
            card = self.roles.get(rest)
            name = self.role_of(rest)
            coins = 0 if card is None else card["doubloons"]
            if rest == self.captured:
                return self.t("act.role_captured", role=name)
            return self.t("act.role_coins", role=name, n=coins) if coins else name
        if head == "s":
            if rest == "hacienda":
                return self.t("act.hacienda")
            if rest == "quarry":
                return self.t("act.quarry")
            return self.t("act.plantation", tile=self.tile(rest))
        if head == "o":
            return self.t("act.accept_colonist")
        if head == "m":
            if rest == "privilege":
                return self.t("act.mayor_privilege")
            if rest == "auto":
                me = self.player()
                n = 0 if me is None else me["san_juan"]
                return self.t("act.auto_count", n=n) if n else self.t("act.auto")
            return self.t("act.place", slot=self.slot(rest))
        if head == "b":
            entry = self.market.get(rest)
            price, cost = self.price(rest), 0 if entry is None else entry["cost"]
            vp = 0 if entry is None else entry["vp"]
            building = self.building(rest)
            if price != cost:
                return self.t("act.build_discount", building=building, price=price, cost=cost,
                              vp=vp)
            return self.t("act.build_costs", building=building, price=price, vp=vp)
        if head == "c":
            return self.t("act.craft_extra", good=self.tile(rest))
        if code == "produce":  # the kernel's production decided (1897, A-28)
            made = effect.made if effect is not None else ()
            if made:
                return self.t("act.produce_goods", goods=self.goods_words(dict(made)))
            return self.t("act.produce")
        if head == "fw":  # the Festival's reward workers placed at once (1897, X4)
            return self.t("act.place", slot=self.slot(rest))
        if head in ("ach", "ad"):  # an Achievement card announced, or kept in the draft
            key = "act.announce" if head == "ach" else "act.keep_achievement"
            if head == "ach" and self.view.get("puertoma") is not None:
                key = "act.announce_vs_puertomas"  # §8.13: people's cards deny Puertomas VP
            return self.t(key, achievement=self.word("achievement", rest),
                          vp=self.achievement_vp(rest))
        if head == "t":
            if effect is not None:
                return self.t("act.sell_for", good=self.tile(rest), n=effect.doubloons)
            return self.t("act.sell_plain", good=self.tile(rest))
        if head == "ship":
            good, _, index = rest.partition(".")
            ship = self._ship(index)
            count, capacity = (0, 0) if ship is None else (ship["count"], ship["capacity"])
            if effect is not None:
                return self.t("act.load", n=effect.barrels, good=self.tile(good),
                              ship=int(index) + 1, count=count + effect.barrels,
                              capacity=capacity, vp=effect.vp)
            return self.t("act.load_plain", good=self.tile(good), ship=int(index) + 1,
                          count=count, capacity=capacity)
        if head == "wharf":
            if effect is not None:
                return self.t("act.wharf_load", n=effect.barrels, good=self.tile(rest),
                              vp=effect.vp)
            return self.t("act.wharf", good=self.tile(rest))
        if head == "keep":
            return self.keep_words(rest)
        if head == "bu":
            return self.buccaneer_label(rest)
        if head == "raid":
            return self.t("act.raid_place", slot=self.slot(rest))
        return code

    def _ship(self, index: str) -> Ship | None:
        ships = self.view["ships"]
        return ships[int(index)] if index.isdigit() and int(index) < len(ships) else None

    def keep_words(self, body: str) -> str:
        kept = keep_counts(body)
        me = self.player()
        have = {g: n for g, n in (me["goods"] if me else {}).items() if n}
        lost = {g: n - kept.get(g, 0) for g, n in have.items() if n > kept.get(g, 0)}
        if not kept:
            if lost:
                return self.t("act.keep_none_lose", lost=self.goods_words(lost))
            return self.t("act.keep_none")
        goods = self.goods_words(kept)
        if lost:
            return self.t("act.keep_lose", goods=goods, lost=self.goods_words(lost))
        return self.t("act.keep", goods=goods)

    def description(self, code: str) -> str | None:
        """A second line (select options, autocomplete): what the choice brings, in a few
        words (a building's effect, a role's, a tile's)."""
        head, _, rest = code.partition(".")
        text = nobles.description(self, code)
        if text is not None:
            return clip(text, DESCRIPTION_LIMIT)
        if head in new_buildings.HEADS or code == "o.forest":
            text = new_buildings.description(self, code)
        elif head == "r" and rest == self.captured:
            text = self.effect_of("effect.role_captured")
        elif head == "r":
            card = self.roles.get(rest)
            role = rest.rstrip("2") if card is None else card["role"]
            text = self.effect_of(f"effect.role.{role}")
        elif head == "bu":
            text = self.effect_of(f"effect.{rest.partition('.')[0]}")
        elif head == "raid":
            if rest in self.market or self.catalog.has(f"building.{rest}"):
                text = self.effect_of(f"effect.{rest}")
            else:
                text = self.effect_of("effect.place_quarry" if rest == "quarry"
                                      else "effect.place_plantation")
        elif head == "s":
            text = self.effect_of(f"effect.tile.{rest}")
        elif head == "b" and rest in self.market:
            entry = self.market[rest]
            effect = self.effect_of(f"effect.{rest}") or ""
            text = self.t("act.build_effect", circles=entry["circles"], effect=effect)
        elif (head == "m" and rest not in ("privilege", "auto")) or head == "fw":
            if rest in self.market or self.catalog.has(f"building.{rest}"):
                text = self.effect_of(f"effect.{rest}")
            else:
                text = self.effect_of("effect.place_quarry" if rest == "quarry"
                                      else "effect.place_plantation")
        elif head == "m" and rest == "privilege":
            text = self.effect_of("effect.mayor_privilege")
        elif head == "m" and rest == "auto":
            text = self.effect_of("effect.auto")
        elif head == "o":
            text = self.effect_of(f"effect.offer.{rest}")
        elif head == "c":
            text = self.effect_of("effect.craft")
        elif head in ("ach", "ad"):
            text = self.effect_of(f"objective.{rest}")
        return clip(text, DESCRIPTION_LIMIT) if text else None

    def joiner(self, code: str) -> str:
        return ", " if code.startswith(("b.", "d.")) else " — "
