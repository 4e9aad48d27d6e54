"""The Puerto Rico expansions the bot presents, as the lobby's optional rules and in words on
the table: Exp. 1 the New Buildings (Los Nuevos Edificios), Exp. 2 the Nobles (Los Nobles),
Exp. 3 the Buccaneer (El Bucanero) and Exp. 4 the Festival (El Festival), all four the engine
has.  Exp. 1 comes with two optional rules of its own (:data:`VARIANTS`): its buildings drawn
at random instead of drafted (the engine's ``building_selection: random``) and the 2004 rule
keeping the Hacienda and the Forest house apart (``exclusive_forest_house``); either turns the
module on.  A game without modules keeps exactly the options it always had (``{"players":
n}``), so nothing else changes for it.  Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.puerto_rico.view import PuertoRicoView
from engine.puerto_rico_1897.view import KernelView

from ...i18n import Catalog

MODULES: tuple[str, ...] = ("new_buildings", "nobles", "buccaneer", "festival")
"""The engine's ``modules`` the presentation supports, in the engine's order."""
EDITION_MODULES: tuple[str, ...] = ("festival_activities", "achievements")
"""Modules an edition owns (1897's Expansion V), never offered by the classic lobby, named
with the others when a game plays them."""
EXP1_RULES: tuple[str, ...] = ("random_buildings", "exclusive_forest_house")
"""Exp. 1's own optional rules (each turns Exp. 1 on)."""
VARIANTS: tuple[str, ...] = ("new_buildings", *EXP1_RULES, "nobles", "buccaneer", "festival")
"""The lobby's optional rules, in the order its menu offers them."""

FESTIVAL_GOALS = ("plantation", "production", "construction")


def lobby_options(players: int, chosen: Iterable[str] = ()) -> dict[str, Any]:
    """The engine options of a table of ``players`` with the rules ``chosen`` (ids of
    :data:`VARIANTS`; unknown ids are left out, the service refuses them before), as the engine
    normalizes them: the modules in its order, and with Exp. 1 its ``building_selection``
    (``draft`` unless random buildings are chosen) and ``exclusive_forest_house`` only when
    on."""
    wanted = set(chosen)
    if wanted & set(EXP1_RULES):
        wanted.add("new_buildings")
    modules = [m for m in MODULES if m in wanted]
    if not modules:
        return {"players": players}
    options: dict[str, Any] = {"players": players, "modules": modules}
    if "new_buildings" in modules:
        random = "random_buildings" in wanted
        options["building_selection"] = "random" if random else "draft"
        if "exclusive_forest_house" in wanted:
            options["exclusive_forest_house"] = True
    return options


def modules_of(options: Mapping[str, Any]) -> list[str]:
    """The presented modules that ``options`` (stored or the view's) turn on, in order."""
    found = options.get("modules") or ()
    return [m for m in MODULES if m in found]


def variants_of(options: Mapping[str, Any]) -> list[str]:
    """The lobby's rules (:data:`VARIANTS`) that ``options`` turn on: the inverse of
    :func:`lobby_options`."""
    on = set(modules_of(options))
    if "new_buildings" in on:
        if options.get("building_selection") == "random":
            on.add("random_buildings")
        if options.get("exclusive_forest_house"):
            on.add("exclusive_forest_house")
    return [v for v in VARIANTS if v in on]


def module_names(options: Mapping[str, Any], lang: str, catalog: Catalog) -> str:
    """ "Buccaneer, Festival": the modules of a game in words (empty without any)."""
    found = options.get("modules") or ()
    named = [*modules_of(options), *(m for m in EDITION_MODULES if m in found)]
    return catalog.join(lang, [catalog.t(lang, f"module.{m}") for m in named])


def _name(names: Mapping[int, str], seat: object) -> str:
    return names.get(seat, "?") if isinstance(seat, int) else "?"


def buccaneer_text(
    view: PuertoRicoView, names: Mapping[int, str], lang: str, catalog: Catalog
) -> str | None:
    """Who holds the Buccaneer token (or that it lies on the card) and the role card captured
    this round; ``None`` without the Buccaneer."""
    part = view["buccaneer"]
    if part is None:
        return None
    t = catalog.t
    token = part["token"]
    text = (
        t(lang, "table.token_on_card")
        if token is None
        else t(lang, "table.token_held", name=_name(names, token))
    )
    captured = part["captured"]
    if captured:
        role = next(
            (r["role"] for r in view["roles"] if r["card"] == captured),
            captured.rstrip("2"),
        )
        text += " · " + t(
            lang,
            "table.captured",
            role=t(lang, f"role.{role}"),
            name=_name(names, part["captured_by"]),
        )
    return text


def festival_text(
    view: PuertoRicoView, names: Mapping[int, str], lang: str, catalog: Catalog
) -> str | None:
    """The three Festival goals and who achieved each; ``None`` without the Festival."""
    part = view["festival"]
    if part is None:
        return None
    t = catalog.t
    goals = []
    for goal in FESTIVAL_GOALS:
        done: int | None
        if goal == "plantation":
            plantation = part["plantation"]
            what = t(lang, "table.goal.plantation", tile=t(lang, f"good.{plantation['tile']}"))
            done = plantation["achieved_by"]
        elif goal == "production":
            goods = [t(lang, f"good.{g}") for g in part["production"]["goods"]]
            what = t(lang, "table.goal.production", goods=", ".join(goods))
            done = part["production"]["achieved_by"]
        else:
            building = part["construction"]["building"]  # None until an Exp. 1 draft ended
            what = t(
                lang,
                "table.goal.construction",
                building=t(lang, f"building.{building}") if building else "?",
            )
            done = part["construction"]["achieved_by"]
        goals.append(
            t(lang, "table.goal_done", goal=what, name=_name(names, done))
            if done is not None
            else t(lang, "table.goal_open", goal=what)
        )
    return " · ".join(goals)


def activities_text(
    view: KernelView, names: Mapping[int, str], lang: str, catalog: Catalog
) -> str | None:
    """The Festival Activity cards (the kernel's ``festival_activities``: 1897's Expansion V):
    each card's name, the pieces drawn onto it, and who completed it; ``None`` without."""
    part = view.get("festival_activities")
    if not part:
        return None
    t = catalog.t
    cards = []
    for card in part:
        drawn = [(e["count"], e["tile"]) for e in card["plantations"]]
        drawn += [(e["count"], e["good"]) for e in card["goods"]]
        pieces = [f"{n} {t(lang, f'good.{kind}')}" for n, kind in drawn]
        if card["building"]:
            pieces.append(t(lang, f"building.{card['building']}"))
        name = card["activity"]
        title = t(lang, f"activity.{name}") if catalog.has(f"activity.{name}") else name
        what = f"{title} ({', '.join(pieces)})" if pieces else title
        done = card["completed_by"]
        cards.append(t(lang, "table.goal_done", goal=what, name=_name(names, done))
                     if done is not None else t(lang, "table.goal_open", goal=what))
    return " · ".join(cards)


__all__ = [
    "EDITION_MODULES",
    "EXP1_RULES",
    "FESTIVAL_GOALS",
    "MODULES",
    "VARIANTS",
    "activities_text",
    "buccaneer_text",
    "festival_text",
    "lobby_options",
    "module_names",
    "modules_of",
    "variants_of",
]
