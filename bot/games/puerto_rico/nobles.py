"""Exp. 2, the Nobles (Los Nobles), in words: its action codes as labels and descriptions, its
events as log lines, its nobles on the table (rules spec §11, rulings A19-A21, A40-A44, A54).

* ``n.noble`` / ``n.colonist`` (the Mayor's distribution, prompt ``noble_or_colonist``): "Take
  the noble", "Take a colonist", and what each means;
* ``mn.<place>``: "One noble on the Chapel", with what a noble does there where it differs from
  a colonist (the Land office, Chapel, Hunting lodge and Zoning office); their ``m.<place>``
  says what a colonist does there instead;
* ``hl.<good>`` / ``hl.forest`` (Hunting lodge): "Discard a corn plantation", and whose piece
  goes to San Juan;
* ``rs.<good>[.<good>...]`` (Royal supplier): "Trade corn and sugar — +2 VP";
* ``lo.buy``, ``lo.sell.<good>``, ``lo.sell.forest`` (Land office): "Land office: sell a corn
  plantation for 1 doubloon".

A noble counts among a player's pieces in the view (``colonists``, ``san_juan``, ``occupied``):
``nobles`` says how many of them are nobles.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.puerto_rico.nobles import LAND_OFFICE_PRICE
from engine.puerto_rico.view import PlayerEntry, PuertoRicoView

from ...gamelog import LogWriter
from ...i18n import Catalog
from .new_buildings import LogLine, target
from .words import PrWords

HEADS = ("n", "mn", "hl", "rs", "lo")
"""The heads of Exp. 2's codes."""
NOBLE_FUNCTIONS = ("land_office", "chapel", "hunting_lodge", "zoning_office")
"""The buildings that do something else with a noble than with a colonist (§11.3)."""
FOREST = "forest"
SAN_JUAN = "san_juan"
OFFERS = {"hunting_lodge": "log.declined_lodge", "royal_supplier": "log.declined_supplier"}
"""The line of each Exp. 2 offer declined (``OfferDeclined``'s ``offer``)."""


def in_play(view: PuertoRicoView) -> bool:
    """Whether the game plays with the Nobles (the view's ``nobles`` is ``None`` without)."""
    return view["nobles"] is not None


def nobles_of(player: PlayerEntry | None) -> tuple[int, int]:
    """A player's nobles on his board and in San Juan (0, 0 without the module, or for no
    player: the public view)."""
    part = None if player is None else player.get("nobles")
    if part is None:
        return 0, 0
    return part["total"], part["san_juan"]


def displaced(player: PlayerEntry | None, tile: str) -> str | None:
    """The piece that goes to San Juan when ``tile`` (a plantation kind or ``forest``) leaves
    the island, as the engine chooses: none from a forest or when an unoccupied tile of that
    kind is there, else a colonist when one works the kind, else a noble."""
    tiles = [t for t in (player["island"] if player else ()) if t["tile"] == tile]
    if tile == FOREST or not tiles or not all(t["occupied"] for t in tiles):
        return None
    return "noble" if all(t.get("noble") for t in tiles) else "colonist"


# --- labels -----------------------------------------------------------------------------------


def label(words: PrWords, code: str) -> str | None:
    """Exp. 2's code ``code`` in words (and ``m.auto`` or a raid place while nobles wait to be
    placed); ``None`` for the other codes."""
    head, _, rest = code.partition(".")
    if code == "m.auto":
        return auto_label(words)
    if head == "raid":
        raid = words.view["nobles"]
        if raid is not None and raid["raid_to_place"]:
            return words.t("act.raid_noble", slot=words.slot(rest))
        return None
    if head not in HEADS:
        return None
    if head == "n":
        return words.t("act.take_noble" if rest == "noble" else "act.take_colonist")
    if head == "mn":
        return words.t("act.place_noble", slot=words.slot(rest))
    if head == "hl":
        if rest == FOREST:
            return words.t("act.lodge_forest")
        return words.t("act.lodge_discard", plantation=words.word("plantation", rest))
    if head == "rs":
        goods = rest.split(".")
        return words.t(
            "act.supplier_trade",
            n=len(goods),
            goods=words.catalog.join(words.lang, [words.tile(g) for g in goods]),
        )
    if rest == "buy":
        return words.t("act.land_office_buy", n=LAND_OFFICE_PRICE)
    tile = rest.removeprefix("sell.")
    if tile == FOREST:
        return words.t("act.land_office_sell_forest", n=LAND_OFFICE_PRICE)
    return words.t(
        "act.land_office_sell", plantation=words.word("plantation", tile), n=LAND_OFFICE_PRICE
    )


def auto_label(words: PrWords) -> str | None:
    """``m.auto`` with nobles waiting in San Juan: "Place 2 colonists and 1 noble as
    suggested" (``None`` without: the base label)."""
    me = words.player()
    _, waiting = nobles_of(me)
    if me is None or not waiting:
        return None
    colonists = me["san_juan"] - waiting
    if colonists > 0:
        return words.t("act.auto_nobles", n=colonists, nobles=waiting)
    return words.t("act.auto_nobles_only", nobles=waiting)


def description(words: PrWords, code: str) -> str | None:
    """A second line for Exp. 2's codes (and for a colonist's place on a building with a
    noble function: what the colonist does there); ``None`` for the other codes."""
    head, _, rest = code.partition(".")
    if head == "m" and rest in NOBLE_FUNCTIONS and in_play(words.view):
        return words.t(f"effect.colonist.{rest}")
    if head == "n":
        return words.t("effect.take_noble" if rest == "noble" else "effect.take_colonist")
    if head == "mn":
        if rest in NOBLE_FUNCTIONS:
            return words.t(f"effect.noble.{rest}")
        if rest in words.market or words.catalog.has(f"building.{rest}"):
            return words.effect_of(f"effect.{rest}")
        return words.t("effect.place_quarry" if rest == "quarry" else "effect.place_plantation")
    if head == "hl":
        return removal(words, rest)
    if head == "rs":
        return words.t("effect.supplier_trade")
    if head == "lo" and rest == "buy":
        return words.t("effect.land_office_buy")
    if head == "lo":
        return removal(words, rest.removeprefix("sell."))
    return None


def removal(words: PrWords, tile: str) -> str:
    """What removing a tile of ``tile``'s kind does to the viewer's island."""
    if tile == FOREST:
        return words.t("effect.discard_forest")
    piece = displaced(words.player(), tile)
    return words.t("effect.discard_empty" if piece is None else f"effect.discard_{piece}")


# --- the log ------------------------------------------------------------------------------------


def noble_gained(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    t, thing = writer.t, writer.thing
    by = data.get("by")
    if by == "villa":
        return t("log.noble_villa", name=name, building=thing("building", "villa"))
    if by == "raid":
        place = data.get("target")
        if writer.catalog.has(f"building.{place}"):
            return t("log.noble_raid_building", name=name, building=thing("building", place))
        return t("log.noble_raid", name=name, target=target(writer, place))
    return t("log.noble_ship", name=name)


def ship_raided(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    if not (data.get("nobles") and data.get("removed")):
        return None
    return writer.t("log.raided_nobles", name=name, n=int(data.get("removed") or 0),
                    kept=int(data.get("kept") or 0), nobles=int(data.get("nobles") or 0))


def land_office_buy(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    if data.get("source") != "land_office":
        return None
    return writer.t("log.land_office_buy", name=name,
                    plantation=writer.thing("plantation", data.get("tile")),
                    building=writer.thing("building", "land_office"),
                    price=int(data.get("price") or LAND_OFFICE_PRICE))


def plantation_sold(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    line = writer.t("log.land_office_sell", name=name, plantation=removed(writer, data),
                    building=writer.thing("building", "land_office"),
                    price=int(data.get("price") or LAND_OFFICE_PRICE))
    return with_displaced(writer, line, data)


def plantation_discarded(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    line = writer.t("log.lodge_discard", name=name, plantation=removed(writer, data),
                    building=writer.thing("building", str(data.get("by") or "hunting_lodge")))
    return with_displaced(writer, line, data)


def goods_traded(writer: LogWriter, data: Mapping[str, Any], name: str) -> str:
    goods = [writer.thing("good", g) for g in data.get("goods") or ()]
    return writer.t("log.goods_traded", name=name, goods=writer.catalog.join(writer.lang, goods),
                    building=writer.thing("building", str(data.get("by") or "royal_supplier")))


def offer_declined(writer: LogWriter, data: Mapping[str, Any], name: str) -> str | None:
    offer = str(data.get("offer"))
    if offer not in OFFERS:
        return None
    return writer.t(OFFERS[offer], name=name, building=writer.thing("building", offer))


LOG_LINES: dict[str, LogLine] = {
    "NobleGained": noble_gained,
    "ColonistGained": lambda writer, data, name: writer.t(
        "log.villa_colonist", name=name, building=writer.thing("building", "villa"))
    if data.get("by") == "villa" else None,
    "ColonistShipRefilled": lambda writer, data, name: writer.t(
        "log.ship_refilled_noble", n=int(data.get("count") or 0)) if data.get("nobles") else None,
    "ColonistShipRaided": ship_raided,
    "PlantationTaken": land_office_buy,
    "PlantationSold": plantation_sold,
    "PlantationDiscarded": plantation_discarded,
    "GoodsTraded": goods_traded,
    "OfferDeclined": offer_declined,
}
"""The lines of Exp. 2's events and its cases of the base game's, by event kind (none for
those whose generic line says it all: the Chapel's, Jeweler's, Hunting lodge's and Royal
supplier's doubloons and VP chips have their reasons' keys)."""


def removed(writer: LogWriter, data: Mapping[str, Any]) -> str:
    """The tile a Land office sold or a Hunting lodge discarded: "a corn plantation"."""
    tile = data.get("tile")
    return writer.t("log.a_forest") if tile == FOREST else writer.thing("plantation", tile)


def with_displaced(writer: LogWriter, line: str, data: Mapping[str, Any]) -> str:
    """``line``, then the piece that went to San Juan when the tile was occupied."""
    piece = data.get("displaced")
    if piece in ("colonist", "noble"):
        return f"{line} {writer.t(f'log.displaced.{piece}')}"
    return line


# --- the table ----------------------------------------------------------------------------------


def table_text(view: PuertoRicoView, lang: str, catalog: Catalog) -> str | None:
    """The nobles on the colonist ship and in the supply (and those of a Raid still to place);
    ``None`` without the Nobles."""
    part = view["nobles"]
    if part is None:
        return None
    text = catalog.t(lang, "table.nobles_value", ship=part["ship"], supply=part["supply"])
    raid = part["raid_to_place"]
    if raid:
        text += " · " + catalog.t(lang, "table.nobles_raid", n=raid)
    return text


def player_text(player: PlayerEntry, lang: str, catalog: Catalog) -> str | None:
    """A player's nobles among his pieces ("nobles among the colonists: 3 (San Juan 1)");
    ``None`` without the Nobles."""
    if player.get("nobles") is None:
        return None
    total, waiting = nobles_of(player)
    return catalog.t(lang, "table.player_nobles", total=total, san_juan=waiting)


__all__ = [
    "HEADS",
    "LOG_LINES",
    "NOBLE_FUNCTIONS",
    "auto_label",
    "description",
    "displaced",
    "in_play",
    "label",
    "nobles_of",
    "player_text",
    "removal",
    "table_text",
]
