"""Exp. 1, the New Buildings (Los Nuevos Edificios), in words: its action codes as labels and
descriptions, its events as log lines, its draft on the table (rules spec §10).

* ``d.<building>`` (the draft): "Church — cost 5, 2 VP", and its effect in a few words;
* ``f.<good>`` (Forest house): "Forest from the corn plantation"; ``o.forest`` after a
  Hacienda draw: "Make it a forest" (``pass``: keep it a plantation);
* ``bm.<building>[.c.<place>][.g.<good>][.vp]`` (Black market): what is paid, "all 5
  doubloons, a colonist from San Juan, 1 barrel of sugar, 1 VP chip";
* ``tp.<good>`` (Trading post) and ``sw.<good><n>…`` (Small wharf) with what they bring,
  measured by the presenter like the other sales and loads;
* ``g.<slot>`` (Guest house): "Move a guest to the Library".

The numbers of a building not drafted (yet) come from the engine's building table, since the
view's market lists only the buildings on the board.  Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from engine.puerto_rico.actions import CATALOG
from engine.puerto_rico.data import GOODS
from engine.puerto_rico.view import PlayerEntry, PuertoRicoView

from ...gamelog import LogWriter
from ...i18n import Catalog
from .words import PrWords

HEADS = ("d", "f", "bm", "tp", "sw", "g")
"""The heads of Exp. 1's codes (``o.forest`` is an offer like the Hospice's)."""
SAN_JUAN = "san_juan"


@cache
def buildings() -> dict[str, Any]:
    """Every building the engine knows, by name (cost, VP, column, circles, kind...)."""
    return {b.name: b for b in CATALOG}


def facts(name: str) -> Mapping[str, Any]:
    """A building's printed numbers as the view's market gives them."""
    b = buildings()[name]
    return {"building": name, "cost": b.cost, "vp": b.vp, "column": b.column,
            "circles": b.circles, "size": b.size, "kind": b.kind,
            "good": None if b.good is None else GOODS[b.good]}


def black_market_parts(code: str) -> tuple[str, str | None, str | None, bool]:
    """``bm.factory.c.san_juan.g.sugar.vp`` -> (building, colonist place, good, VP chip)."""
    parts = code.split(".")[1:]
    building, rest = (parts[0] if parts else ""), parts[1:]
    colonist = good = None
    if rest[:1] == ["c"] and len(rest) >= 2:
        colonist, rest = rest[1], rest[2:]
    if rest[:1] == ["g"] and len(rest) >= 2:
        good, rest = rest[1], rest[2:]
    return building, colonist, good, rest == ["vp"]


def counts(body: str) -> dict[str, int]:
    """``corn2.sugar1`` -> ``{"corn": 2, "sugar": 1}`` (``none`` -> ``{}``)."""
    out: dict[str, int] = {}
    if body in ("", "none"):
        return out
    for part in body.split("."):
        name = part.rstrip("0123456789")
        digits = part[len(name):]
        out[name] = int(digits) if digits else 0
    return out


def is_building(words: PrWords, slot: str) -> bool:
    return slot in buildings() or slot in words.market


# --- labels -----------------------------------------------------------------------------------


def items(words: PrWords, code: str, *, doubloons: bool = True) -> list[str]:
    """What a Black market build pays, in words: all the doubloons (the viewer's), then the
    colonist, the barrel and the VP chip returned."""
    _, colonist, good, vp = black_market_parts(code)
    out = []
    if doubloons:
        me = words.player()
        out.append(words.t("act.bm_doubloons", n=0 if me is None else me["doubloons"]))
    if colonist == SAN_JUAN:
        out.append(words.t("act.bm_san_juan"))
    elif colonist == "quarry":
        out.append(words.t("act.bm_quarry"))
    elif colonist is not None and is_building(words, colonist):
        out.append(words.t("act.bm_building", building=words.building(colonist)))
    elif colonist is not None:
        out.append(words.t("act.bm_tile", plantation=words.word("plantation", colonist)))
    if good is not None:
        out.append(words.t("act.bm_good", good=words.tile(good)))
    if vp:
        out.append(words.t("act.bm_vp"))
    return out


def payment(words: PrWords, code: str) -> str:
    """A Black market build's items without the doubloons (an option of the payment menu)."""
    return ", ".join(items(words, code, doubloons=False))


def guest_label(words: PrWords, slot: str) -> str:
    if slot == "quarry":
        return words.t("act.guest_quarry")
    if is_building(words, slot):
        return words.t("act.guest_building", building=words.building(slot))
    return words.t("act.guest_tile", plantation=words.word("plantation", slot))


def label(words: PrWords, code: str) -> str | None:
    """Exp. 1's code ``code`` in words; ``None`` for the other codes."""
    head, _, rest = code.partition(".")
    if code == "o.forest":
        return words.t("act.forest_offer")
    if head not in HEADS:
        return None
    effect = words.effects.get(code)
    if head == "d":
        entry = facts(rest)
        return words.t("act.draft", building=words.building(rest), cost=entry["cost"],
                       vp=entry["vp"])
    if head == "f":
        return words.t("act.forest", tile=words.tile(rest))
    if head == "bm":
        building = black_market_parts(code)[0]
        return words.t("act.black_market", building=words.building(building),
                       items=", ".join(items(words, code)))
    if head == "tp":
        if effect is not None:
            return words.t("act.trading_post", good=words.tile(rest), n=effect.doubloons)
        return words.t("act.trading_post_plain", good=words.tile(rest))
    if head == "sw":
        shipped = counts(rest)
        if not shipped:
            return words.t("act.small_wharf_none")
        goods = words.goods_words(shipped)
        if effect is not None:
            return words.t("act.small_wharf", goods=goods, vp=effect.vp)
        return words.t("act.small_wharf_plain", goods=goods)
    return guest_label(words, rest)


def description(words: PrWords, code: str) -> str | None:
    """A second line for Exp. 1's codes: the building's effect, or what a forest does."""
    head, _, rest = code.partition(".")
    if code == "o.forest":
        return words.effect_of("effect.offer.forest")
    if head == "d":
        effect = words.effect_of(f"effect.{rest}") or ""
        return words.t("act.build_effect", circles=int(facts(rest)["circles"]), effect=effect)
    if head == "f":
        return words.effect_of("effect.forest")
    if head == "bm":
        return None  # the label says it all (a long one)
    if head == "tp":
        return words.effect_of("effect.trading_post")
    if head == "sw":
        return words.effect_of("effect.small_wharf")
    if head == "g":
        if is_building(words, rest):
            return words.effect_of(f"effect.{rest}")
        return words.effect_of("effect.place_quarry" if rest == "quarry"
                               else "effect.place_plantation")
    return None


# --- the log ------------------------------------------------------------------------------------


def target(writer: LogWriter, slot: object) -> str:
    """Where a colonist went: a building, a plantation kind, a quarry or San Juan."""
    key = f"building.{slot}"
    if writer.catalog.has(key):
        return writer.t(key)
    if slot == SAN_JUAN:
        return writer.t("log.in_san_juan_target")
    if slot == "quarry":
        return writer.t("log.quarry_target")
    return writer.thing("plantation", slot)


LogLine = Callable[[LogWriter, Mapping[str, Any], str], str | None]
"""A line builder: the writer, the event's data and its seat's name (``None``: not its case)."""


def drafted(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    building = str(data.get("building"))
    cost = facts(building)["cost"] if building in buildings() else "?"
    return writer.t("log.drafted", name=name, building=writer.thing("building", building),
                    cost=cost)


def forest_placed(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    tile = data.get("tile")
    if data.get("source") == "hacienda":
        return writer.t("log.forest_hacienda", name=name, tile=writer.thing("good", tile))
    return writer.t("log.forest", name=name, plantation=writer.thing("plantation", tile))


def black_market_used(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    t, thing = writer.t, writer.thing
    parts = [writer.catalog.t(writer.lang, "act.bm_doubloons", n=int(data.get("doubloons") or 0))]
    colonist = data.get("colonist")
    if colonist is not None:
        parts.append(t("act.bm_san_juan") if colonist == SAN_JUAN
                     else t("act.bm_quarry") if colonist == "quarry"
                     else t("act.bm_building", building=thing("building", colonist))
                     if writer.catalog.has(f"building.{colonist}")
                     else t("act.bm_tile", plantation=thing("plantation", colonist)))
    if data.get("good"):
        parts.append(t("act.bm_good", good=thing("good", data.get("good"))))
    if data.get("vp"):
        parts.append(t("act.bm_vp"))
    return t("log.black_market", name=name, items=writer.catalog.join(writer.lang, parts))


def sold_to_post(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    if data.get("to") != "trading_post":
        return None
    price = int(data.get("price") or 0)
    return writer.counted("log.sold_post", price, name=name,
                          good=writer.thing("good", data.get("good")),
                          building=writer.thing("building", "trading_post"), price=price)


def small_wharf_load(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    if data.get("ship") != "small_wharf":
        return None
    goods = shipped_goods(writer, data.get("goods") or {})
    building = writer.thing("building", "small_wharf")
    if not goods:
        return writer.t("log.small_wharf_none", name=name, building=building)
    vp = int(data.get("vp") or 0)
    if vp:
        return writer.t("log.small_wharf_vp", name=name, goods=goods, building=building, vp=vp)
    return writer.t("log.small_wharf", name=name, goods=goods, building=building)


def aqueduct_barrels(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    if data.get("by") != "aqueduct":
        return None
    return writer.t("log.aqueduct", name=name, building=writer.thing("building", "aqueduct"),
                    goods=shipped_goods(writer, data.get("goods") or {}))


def guest_moved(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    to, house = data.get("to"), writer.thing("building", "guest_house")
    if writer.catalog.has(f"building.{to}"):
        return writer.t("log.guest_building", name=name, house=house,
                        building=writer.thing("building", to))
    return writer.t("log.guest", name=name, house=house, target=target(writer, to))


def hospice_colonist(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    if data.get("target") != SAN_JUAN or data.get("by") != "hospice":
        return None
    return writer.t("log.colonist", name=name, building=writer.thing("building", "hospice"),
                    target=target(writer, SAN_JUAN))


LOG_LINES: dict[str, LogLine] = {
    "BuildingDrafted": drafted,
    "DraftEnded": lambda writer, data, name: writer.t(
        "log.draft_ended", n=len(data.get("buildings") or ())),
    "ForestPlaced": forest_placed,
    "BlackMarketUsed": black_market_used,
    "GoodSold": sold_to_post,
    "GoodsShipped": small_wharf_load,
    "GoodsProduced": aqueduct_barrels,
    "GuestMoved": guest_moved,
    "OfferDeclined": lambda writer, data, name: writer.t("log.declined_forest", name=name)
    if data.get("offer") == "forest" else None,
    "ColonistGained": hospice_colonist,
}
"""The lines of Exp. 1's events, and its cases of the base game's (a sale to the Trading post,
a Small wharf's load...), by event kind (:data:`.gamelog.LINES` asks them first)."""


def shipped_goods(writer: LogWriter, goods: Mapping[str, Any]) -> str:
    return writer.catalog.join(writer.lang, [f"{n} {writer.thing('good', g)}"
                                             for g, n in goods.items() if n])


# --- the table ----------------------------------------------------------------------------------


def draft_text(view: PuertoRicoView, lang: str, catalog: Catalog) -> str | None:
    """The draft in words: during it, the spaces filled and those left by cost, and what was
    drafted; after it (or with random buildings), the violet buildings on the board.  ``None``
    without Exp. 1."""
    part = view["draft"]
    if part is None:
        return None
    t = catalog.t
    drafted = part["drafted"]
    names = catalog.join(lang, [t(lang, f"building.{b}") for b in drafted])
    left = part["spaces_left"]
    if not any(left.values()):
        text = t(lang, "table.draft_done", list=names or "—")
        if part["selection"] == "random":
            text = f"{t(lang, 'table.draft_random')} · {text}"
        return text
    total = len(drafted) + sum(left.values())
    spaces = ", ".join(t(lang, "table.draft_left", cost=c, n=n)
                       for c, n in sorted(left.items(), key=lambda kv: int(kv[0])) if n)
    text = t(lang, "table.draft_value", drafted=len(drafted), total=total, left=spaces)
    if drafted:
        text += "\n" + t(lang, "panel.drafted", list=names)
    return text


def forests(player: PlayerEntry) -> int:
    return sum(1 for tile in player["island"] if tile["tile"] == "forest")


def candidates(view: PuertoRicoView, codes: Sequence[str]) -> dict[int, list[str]]:
    """The draft's legal codes by printed cost (in the engine's order within a cost)."""
    out: dict[int, list[str]] = {}
    for code in codes:
        if code.startswith("d."):
            out.setdefault(int(facts(code[2:])["cost"]), []).append(code)
    return dict(sorted(out.items()))


__all__ = ["HEADS", "LOG_LINES", "black_market_parts", "buildings", "candidates", "counts",
           "description", "draft_text", "facts", "forests", "items", "label", "payment"]
