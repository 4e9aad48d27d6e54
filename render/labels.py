"""Words on the images.  The engine speaks English ids (``small_market``, ``captain``); only this
table turns them into text for people, so the bot can pass localized labels later.

Keys are flat and namespaced (``role.captain``, ``building.harbor``, ``ui.round``); a value may
hold ``str.format`` fields (``"Round {n}"``).  :class:`Labels` looks a key up in the overrides
first, then in :data:`ENGLISH`, and finally falls back to the id itself made readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import fonts

ENGLISH: dict[str, str] = {
    # roles
    "role.settler": "Settler",
    "role.mayor": "Mayor",
    "role.builder": "Builder",
    "role.craftsman": "Craftsman",
    "role.trader": "Trader",
    "role.captain": "Captain",
    "role.prospector": "Prospector",
    # buildings (``short.*`` is used where the full name does not fit)
    "building.small_indigo_plant": "Small indigo plant",
    "building.small_sugar_mill": "Small sugar mill",
    "building.indigo_plant": "Indigo plant",
    "building.sugar_mill": "Sugar mill",
    "building.tobacco_storage": "Tobacco storage",
    "building.coffee_roaster": "Coffee roaster",
    "building.small_market": "Small market",
    "building.hacienda": "Hacienda",
    "building.construction_hut": "Construction hut",
    "building.small_warehouse": "Small warehouse",
    "building.hospice": "Hospice",
    "building.office": "Office",
    "building.large_market": "Large market",
    "building.large_warehouse": "Large warehouse",
    "building.factory": "Factory",
    "building.university": "University",
    "building.harbor": "Harbor",
    "building.wharf": "Wharf",
    "building.guild_hall": "Guild hall",
    "building.residence": "Residence",
    "building.fortress": "Fortress",
    "building.customs_house": "Customs house",
    "building.city_hall": "City hall",
    "short.small_indigo_plant": "Sm. indigo plant",
    "short.small_sugar_mill": "Sm. sugar mill",
    "short.tobacco_storage": "Tobacco stor.",
    "short.construction_hut": "Constr. hut",
    "short.small_warehouse": "Sm. warehouse",
    "short.large_warehouse": "Lg. warehouse",
    "short.coffee_roaster": "Coffee roast.",
    # goods, their one-letter marks (colour-blind safe) and the quarry
    "good.corn": "corn",
    "good.indigo": "indigo",
    "good.sugar": "sugar",
    "good.tobacco": "tobacco",
    "good.coffee": "coffee",
    "letter.corn": "C",
    "letter.indigo": "I",
    "letter.sugar": "S",
    "letter.tobacco": "T",
    "letter.coffee": "K",
    "letter.quarry": "Q",
    "tile.quarry": "quarry",
    # phases and prompts
    "phase.role_selection": "Choosing a role",
    "phase.settler": "Settler phase",
    "phase.mayor": "Mayor phase",
    "phase.builder": "Builder phase",
    "phase.craftsman": "Craftsman phase",
    "phase.trader": "Trader phase",
    "phase.captain": "Captain phase",
    "phase.prospector": "Prospector",
    "phase.game_over": "Game over",
    "prompt.role": "choose a role",
    "prompt.settle": "take a plantation",
    "prompt.hospice": "Hospice colonist?",
    "prompt.university": "University colonist?",
    "prompt.mayor_privilege": "take the extra colonist?",
    "prompt.arrange": "place colonists",
    "prompt.build": "build",
    "prompt.craft_privilege": "take an extra good",
    "prompt.sell": "sell a good",
    "prompt.ship": "load a ship",
    "prompt.keep": "choose goods to keep",
    "end.colonists": "colonists ran out",
    "end.city_full": "a city is full",
    "end.vp_chips": "VP chips ran out",
    # the table
    "ui.title": "Puerto Rico",
    "ui.round": "Round {n}",
    "ui.seat": "Seat {n}",
    "ui.governor": "Governor",
    "ui.chosen_by": "{phase} · {name}",
    "ui.waiting": "Waiting for {names}: {what}",
    "ui.to_act": "to act",
    "ui.you": "you",
    "ui.last_round": "Last round: {reasons}",
    "ui.game_won": "Winner: {names}",
    "ui.game_shared": "Shared victory: {names}",
    "ui.cargo_ships": "Cargo ships",
    "ui.trading_house": "Trading house",
    "ui.colonist_ship": "Colonist ship",
    "ui.colonist_supply": "Colonists left",
    "ui.vp_chips_left": "VP chips left",
    "ui.plantations": "Plantations",
    "ui.quarries": "Quarries",
    "ui.stack": "Face down",
    "ui.discard": "Discarded",
    "ui.goods_supply": "Goods left",
    "ui.buildings": "Buildings: cost, VP, circles, copies left",
    "ui.sold_out": "sold out",
    "ui.copies": "×{n}",
    "ui.vp": "{n} VP",
    "ui.price": "pay {n}",
    "ui.your_vp": "VP {n}",
    "ui.san_juan": "San Juan",
    "ui.no_goods": "no goods",
    "ui.your_turn": "Your turn: {what}",
    "ui.market_price": "Buildings: your price, circles, VP, copies left",
    "ui.sells_for": "Sells for",
    # the legend
    "legend.corn": "corn",
    "legend.indigo": "indigo",
    "legend.sugar": "sugar",
    "legend.tobacco": "tobacco",
    "legend.coffee": "coffee",
    "legend.quarry": "quarry",
    "legend.doubloons": "doubloons",
    "legend.san_juan": "in San Juan",
    "legend.occupied": "occupied",
    "legend.empty": "empty",
    "legend.changed": "just changed",
    "legend.to_act": "to act",
    # the score sheet
    "score.title": "Final scores",
    "score.chips": "VP chips",
    "score.buildings": "Building VP",
    "score.bonus": "{building} bonus",
    "score.total": "Total",
    "score.tiebreak": "Tie-break",
    "score.tiebreak_note": "Tie-break: doubloons + goods left at the end",
    "score.rank": "Rank",
    "score.winner": "Winner",
    "score.winners": "Winner: {names}",
    "score.shared": "Shared victory: {names}",
    "score.ended": "Game over: {reasons}",
}


class Labels:
    """Text for the images: ``labels("ui.round", n=3)`` -> ``"Round 3"``."""

    def __init__(self, overrides: Mapping[str, str] | None = None) -> None:
        self._table: dict[str, str] = dict(ENGLISH)
        if overrides:
            self._table.update({str(k): str(v) for k, v in overrides.items()})

    def __call__(self, key: str, **fields: Any) -> str:
        text = self._table.get(key)
        if text is None:
            text = key.split(".", 1)[-1].replace("_", " ")
        return fonts.clean(text.format(**fields) if fields else text)

    def has(self, key: str) -> bool:
        return key in self._table

    def role(self, role: str) -> str:
        return self(f"role.{role}")

    def building(self, name: str) -> str:
        return self(f"building.{name}")

    def building_short(self, name: str) -> str:
        return self(f"short.{name}") if self.has(f"short.{name}") else self.building(name)

    def good(self, good: str) -> str:
        return self(f"good.{good}")

    def letter(self, tile: str) -> str:
        return self(f"letter.{tile}")


def as_labels(labels: Labels | Mapping[str, str] | None) -> Labels:
    """A :class:`Labels` from an override table (or the English one for ``None``)."""
    if isinstance(labels, Labels):
        return labels
    return Labels(labels)


def seat_names(
    count: int, names: Sequence[str] | Mapping[int, str] | None, labels: Labels
) -> list[str]:
    """Display names by seat: the given ones, cleaned; ``Seat 1``... where missing or empty."""
    out = []
    for seat in range(count):
        given: str | None = None
        if isinstance(names, Mapping):
            given = names.get(seat)
        elif names is not None and seat < len(names):
            given = names[seat]
        text = fonts.clean(str(given), bold=True) if given else ""
        out.append(text or labels("ui.seat", n=seat + 1))
    return out
