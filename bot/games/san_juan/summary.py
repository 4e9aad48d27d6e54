"""San Juan's table in words: the lines under the title (the phase and who chose it) and the
public board as text fields (roles, trading house, piles, each player's buildings, hand size and
goods).  Only what the public view holds: counts for hands, piles and Chapels.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.san_juan.view import SanJuanView

from ...i18n import Catalog

FIELD_LIMIT = 1024


def _clip(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def _word(catalog: Catalog, lang: str, prefix: str, value: object) -> str:
    key = f"{prefix}.{value}"
    return catalog.t(lang, key) if catalog.has(key) else str(value).replace("_", " ")


def header_lines(view: SanJuanView, names: Mapping[int, str], lang: str,
                 catalog: Catalog) -> list[str]:
    """The phase (and who chose its role), and who is Governor this round."""
    t = catalog.t
    phase = _word(catalog, lang, "phase", view["phase"])
    role = view["role"]
    lines = [t(lang, "table.phase_by", phase=phase, name=names.get(role["chooser"], "?"))
             if role is not None else t(lang, "table.phase", phase=phase)]
    if not view["game_over"]:
        governor = view["governor"]
        lines.append(t(lang, "table.governor", name=names.get(governor, f"#{governor + 1}")))
    return lines


def summary_fields(view: SanJuanView, names: Mapping[int, str], lang: str,
                   catalog: Catalog) -> list[tuple[str, str]]:
    """The public board as (name, value) fields."""
    t = catalog.t
    fields: list[tuple[str, str]] = []
    roles = []
    for role in view["roles"]:
        name = _word(catalog, lang, "role", role["name"])
        taken = role["taken_by"]
        if taken is not None:
            roles.append(t(lang, "table.role_taken", role=name, name=names.get(taken, "?")))
        else:
            roles.append(t(lang, "table.role_free", role=name))
    fields.append((t(lang, "table.roles"), _clip(" · ".join(roles))))
    prices = view["trading_house"]["prices"]
    if prices:
        value = ", ".join(f"{_word(catalog, lang, 'good', g)} {n}" for g, n in prices.items())
    else:
        value = t(lang, "table.no_tile")
    fields.append((t(lang, "table.trading_house"), value))
    fields.append((t(lang, "table.piles"), t(lang, "table.piles_value",
                                             pile=view["draw_pile"],
                                             discard=view["discard_pile"])))
    for seat in view["seats"]:
        index = seat["seat"]
        buildings = []
        for building in seat["buildings"]:
            text = _word(catalog, lang, "card", building["card"])
            if building["good"]:
                text += " ●"
            buildings.append(text)
        value = t(lang, "table.seat_value", hand=seat["hand"],
                  buildings=seat["building_count"], goods=seat["goods"], vp=seat["vp"])
        value += "\n" + (", ".join(buildings) if buildings else t(lang, "table.no_buildings"))
        marker = t(lang, "table.governor_marker") if index == view["governor"] else ""
        fields.append((t(lang, "table.player", marker=marker,
                         name=names.get(index, f"#{index + 1}")), _clip(value)))
    return fields
