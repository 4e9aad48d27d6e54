"""The Buccaneer (Exp. 3, El Bucanero) on the private panel: its chooser's one option, drawn
as the rulebook lists them (§12), and the raided colonists placed one at a time.

* **Piracy** (Piratería): one menu per loaded cargo ship, "keep how many?" (0 to 3, at most
  its load), each choice saying what goes back to the supply.
* **Plunder** (Saqueo) and **Raid** (Asalto): a button each, saying what they bring.
* **Capture** (Captura): a button per unused role card, with the doubloons on it.
* **raid_place**: one button per legal place (a menu beyond ten), and the pass that sends the
  rest to the supply.

Only the engine's legal codes are drawn (the engine is the one source of legality).  Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from discord import ui

from ...components import GameSelect
from ...panels import OPTIONS
from ..contract import PanelControls
from .choices import Chooser, clip


def _chooser(pv: PanelControls) -> Chooser:
    words = pv.chooser
    assert isinstance(words, Chooser)
    return words


def buccaneer_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The four options: Piracy menus by ship, then Plunder and Raid, then Capture."""
    words = _chooser(pv)
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t("panel.help.buccaneer"))]
    ships: dict[str, list[str]] = {}
    for code in codes:
        if code.startswith("bu.piracy."):
            ships.setdefault(code.split(".")[2], []).append(code)
    for index, choices in ships.items():
        ship, count, good, _ = words.piracy_parts(f"{index}.0")
        options = [pv.option(c) for c in choices][:OPTIONS]
        for option, code in zip(options, choices, strict=False):
            option.label = clip(words.piracy_option(code), 100)
        row: ui.ActionRow[Any] = ui.ActionRow()
        row.add_item(
            GameSelect(
                pv.game_id,
                pv.version,
                f"piracy_{index}",
                options,
                placeholder=clip(pv.t("panel.piracy", ship=ship, count=count, good=good), 150),
            )
        )
        items.append(row)
    plain = [c for c in codes if c in ("bu.plunder", "bu.raid")]
    captures = [c for c in codes if c.startswith("bu.capture.")]
    items.extend(pv.rows_of([pv.button(c) for c in plain]))
    if captures:
        items.extend(pv.rows_of([pv.button(c) for c in captures]))
    rest = [c for c in codes if c == "pass"]
    items.extend(pv.rows_of([pv.button(c) for c in rest]))
    return items


def raid_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """Where the next raided colonist goes (an empty circle of the island or the city, never
    San Juan), or the pass that sends the rest to the supply."""
    buccaneer = _chooser(pv).view["buccaneer"]
    left = 0 if buccaneer is None else buccaneer["raid_to_place"]
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t("panel.help.raid_place", n=left))]
    items.extend(pv.choice_rows(list(codes), "raid"))
    return items


__all__ = ["buccaneer_controls", "raid_controls"]
