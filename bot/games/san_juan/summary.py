"""San Juan's table in words: the lines under the title (the phase and who chose it) and the
public board as text fields (roles, trading house, piles, each player's buildings, hand size and
goods).  Only what the public view holds: counts for hands, piles and Chapels.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...i18n import Catalog

FIELD_LIMIT = 1024


def _clip(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def _word(catalog: Catalog, lang: str, prefix: str, value: object) -> str:
    key = f"{prefix}.{value}"
    return catalog.t(lang, key) if catalog.has(key) else str(value).replace("_", " ")


def header_lines(view: Mapping[str, Any], names: Mapping[int, str], lang: str,
                 catalog: Catalog) -> list[str]:
    """The phase (and who chose its role), and who is Governor this round."""
    t = catalog.t
    phase = _word(catalog, lang, "phase", view.get("phase", "role"))
    role = view.get("role") or {}
    chooser = role.get("chooser")
    lines = [t(lang, "table.phase_by", phase=phase, name=names.get(int(chooser), "?"))
             if chooser is not None else t(lang, "table.phase", phase=phase)]
    if not view.get("game_over"):
        governor = int(view.get("governor", 0))
        lines.append(t(lang, "table.governor", name=names.get(governor, f"#{governor + 1}")))
    return lines


def summary_fields(view: Mapping[str, Any], names: Mapping[int, str], lang: str,
                   catalog: Catalog) -> list[tuple[str, str]]:
    """The public board as (name, value) fields."""
    t = catalog.t
    fields: list[tuple[str, str]] = []
    roles = []
    for role in view.get("roles", ()):
        name = _word(catalog, lang, "role", role["name"])
        if role.get("taken_by") is not None:
            roles.append(t(lang, "table.role_taken", role=name,
                           name=names.get(int(role["taken_by"]), "?")))
        else:
            roles.append(t(lang, "table.role_free", role=name))
    fields.append((t(lang, "table.roles"), _clip(" · ".join(roles))))
    house = view.get("trading_house") or {}
    prices = house.get("prices")
    if prices:
        value = ", ".join(f"{_word(catalog, lang, 'good', g)} {n}" for g, n in prices.items())
    else:
        value = t(lang, "table.no_tile")
    fields.append((t(lang, "table.trading_house"), value))
    fields.append((t(lang, "table.piles"), t(lang, "table.piles_value",
                                             pile=view.get("draw_pile", 0),
                                             discard=view.get("discard_pile", 0))))
    for seat in view.get("seats", ()):
        index = int(seat["seat"])
        buildings = []
        for building in seat.get("buildings", ()):
            text = _word(catalog, lang, "card", building["card"])
            if building.get("good"):
                text += " ●"
            buildings.append(text)
        value = t(lang, "table.seat_value", hand=seat.get("hand", 0),
                  buildings=seat.get("building_count", 0), goods=seat.get("goods", 0),
                  vp=seat.get("vp", 0))
        value += "\n" + (", ".join(buildings) if buildings else t(lang, "table.no_buildings"))
        marker = t(lang, "table.governor_marker") if index == view.get("governor") else ""
        fields.append((t(lang, "table.player", marker=marker,
                         name=names.get(index, f"#{index + 1}")), _clip(value)))
    return fields
