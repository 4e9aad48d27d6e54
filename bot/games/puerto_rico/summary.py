"""Puerto Rico's table in words: the lines under the title (the phase and who chose it, the last
round coming) and the board as text fields (roles, supply, the expansions' parts: the Buccaneer,
the Festival, the draft, the nobles; plantations, ships, trading house, players).  The text is
the table without its image and the image's description for screen readers.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.puerto_rico.view import PlayerEntry
from engine.puerto_rico_1897.puertoma import PuertomaBoard
from engine.puerto_rico_1897.view import KernelView

from ...i18n import Catalog
from .modules import activities_text, buccaneer_text, festival_text, module_names
from .new_buildings import draft_text, forests
from .nobles import player_text, table_text

FIELD_LIMIT = 1024


def _join(items: Sequence[str], empty: str) -> str:
    return ", ".join(items) if items else empty


def _clip(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def _role(role: str, lang: str, catalog: Catalog) -> str:
    return catalog.t(lang, f"role.{role}")


def _good(good: str, lang: str, catalog: Catalog) -> str:
    key = "tile.quarry" if good == "quarry" else f"good.{good}"
    return catalog.t(lang, key)


def ends_after(view: KernelView) -> str:
    """``phase`` when the game ends as soon as the phase that triggers its end is done (the
    kernel's ``end_timing`` option: 1897's END-2), else ``round``."""
    return "phase" if view["options"].get("end_timing") == "phase" else "round"


def header_lines(view: KernelView, names: Mapping[int, str], lang: str,
                 catalog: Catalog) -> list[str]:
    """The phase (and who chose it), the last round when the end is coming, and the
    expansions the game plays with ("Expansions: Buccaneer and Festival")."""
    t = catalog.t
    phase_key = f"phase.{view['phase']}"
    phase = t(lang, phase_key) if catalog.has(phase_key) else view["phase"]
    chooser = view["chooser"]
    lines = [
        t(lang, "table.phase_by", phase=phase, name=names.get(chooser, "?"))
        if chooser is not None and view["phase"] != "role_selection"
        else t(lang, "table.phase", phase=phase)
    ]
    if view["end_triggered"] and not view["game_over"]:
        reasons = ", ".join(t(lang, f"end.{r}") for r in view["end_triggered"])
        lines.append(t(lang, f"table.last_{ends_after(view)}", reasons=reasons))
    modules = module_names(view["options"], lang, catalog)
    if modules:
        lines.append(t(lang, "table.modules", list=modules))
    return lines


def summary_fields(view: KernelView, names: Mapping[int, str], lang: str,
                   catalog: Catalog) -> list[tuple[str, str]]:
    """The public board as (name, value) fields."""
    t = catalog.t
    fields: list[tuple[str, str]] = []
    roles = []
    for role in view["roles"]:
        name = _role(role["role"], lang, catalog)
        taken = role["taken_by"]
        if taken is not None:
            roles.append(t(lang, "table.role_taken", role=name, name=names.get(taken, "?")))
        elif role["doubloons"]:
            roles.append(t(lang, "table.role_bonus", role=name, n=role["doubloons"]))
        else:
            roles.append(t(lang, "table.role_free", role=name))
    if roles:
        fields.append((t(lang, "table.roles"), _clip(" · ".join(roles))))
    buccaneer = buccaneer_text(view, names, lang, catalog)
    if buccaneer:
        fields.append((t(lang, "role.buccaneer"), _clip(buccaneer)))
    festival = festival_text(view, names, lang, catalog)
    if festival:
        fields.append((t(lang, "table.festival"), _clip(festival)))
    activities = activities_text(view, names, lang, catalog)
    if activities:
        fields.append((t(lang, "table.activities"), _clip(activities)))
    draft = draft_text(view, lang, catalog)
    if draft:
        fields.append((t(lang, "table.draft"), _clip(draft)))
    colonists = view["colonists"]
    fields.append((t(lang, "table.supply"),
                   t(lang, "table.supply_value", ship=colonists["ship"],
                     supply=colonists["supply"], vp=view["vp_chips_left"],
                     quarries=view["quarries_left"])))
    nobles = table_text(view, lang, catalog)
    if nobles:
        fields.append((t(lang, "table.nobles"), _clip(nobles)))
    tiles = [_good(x, lang, catalog) for x in view["face_up"]]
    fields.append((t(lang, "table.plantations"), _join(tiles, t(lang, "table.empty"))))
    ships = [
        t(lang, "table.ship_loaded", good=_good(str(s["good"]), lang, catalog), count=s["count"],
          capacity=s["capacity"]) if s["good"] else
        t(lang, "table.ship_empty", capacity=s["capacity"])
        for s in view["ships"]
    ]
    fields.append((t(lang, "table.ships"), _join(ships, t(lang, "table.empty"))))
    house = [_good(g, lang, catalog) for g in view["trading_house"]]
    capacity = view["trading_house_capacity"]
    fields.append((t(lang, "table.trading_house"),
                   f"{_join(house, t(lang, 'table.empty'))} ({len(house)}/{capacity})"))
    action_board = view.get("puertoma")
    if action_board:  # 1897's Puertomas' action board
        fields.append((t(lang, "table.puertoma_board"), t(
            lang, "table.puertoma_marker", role=t(lang, f"role.{action_board['marker']}"),
            n=action_board["tie_breakers_left"])))
    for player in view["players"]:
        seat = player["seat"]
        goods = [f"{_good(g, lang, catalog)} {n}" for g, n in player["goods"].items() if n]
        buildings = [t(lang, f"building.{b['building']}") for b in player["city"]]
        board = None if action_board is None else action_board["boards"].get(str(seat))
        if board is not None:  # 1897's Puertoma: its own board instead of a field
            value = _puertoma_value(board, player, _join(goods, "—"), lang, catalog)
        else:
            value = t(lang, "table.player_value", doubloons=player["doubloons"],
                      island=player["island_used"], city=player["city_used"],
                      colonists=player["colonists"], san_juan=player["san_juan"],
                      goods=_join(goods, "—"))
        if forests(player):
            value += f" · {t(lang, 'table.forests')}: {forests(player)}"
        nobles = player_text(player, lang, catalog)
        if nobles:
            value += f" · {nobles}"
        value += "\n" + (t(lang, "table.buildings", list=", ".join(buildings)) if buildings
                         else t(lang, "table.no_buildings"))
        marker = t(lang, "table.governor_marker") if player["is_governor"] else ""
        fields.append((t(lang, "table.player", marker=marker,
                         name=names.get(seat, f"#{seat + 1}")), _clip(value)))
    return fields


def _puertoma_value(board: PuertomaBoard, player: PlayerEntry, goods: str, lang: str,
                    catalog: Catalog) -> str:
    """A Puertoma in words: its coins and crates, its properties with their workers (active
    ones marked), its VP area, its skills (a face-down one only counted) and Reserve token."""
    t = catalog.t
    props = [t(lang, "table.puertoma_property", good=_good(p["good"], lang, catalog),
               workers=p["workers"], spaces=p["spaces"])
             + (" ✓" if p["workers"] == p["spaces"] else "")
             for p in board["properties"] if p]
    area = board["vp_area"]
    skills = [t(lang, f"ptm_skill.{k['skill']}") for k in board["skills"]
              if k["state"] == "active" and k["skill"]]
    hidden = sum(1 for k in board["skills"] if k["state"] == "face_down")
    reserve = board["reserve"]
    return t(lang, "table.puertoma_value", doubloons=player["doubloons"], goods=goods,
             properties=_join(props, "—"), quarries=area["quarries"],
             workers=area["workers"], skills=_join(skills, "—"), hidden=hidden,
             reserve=t(lang, f"building.{reserve}") if reserve else "—")
