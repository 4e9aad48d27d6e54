"""The Puerto Rico expansions the bot presents, as the lobby's optional rules and in words on
the table: Exp. 3 the Buccaneer (El Bucanero) and Exp. 4 the Festival (El Festival).

The engine knows more modules (``new_buildings`` and ``nobles`` are being built): only those in
:data:`MODULES` are offered, because only they have their words, panels and images.  A game
without modules keeps exactly the options it always had (``{"players": n}``), so nothing else
changes for it.  Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...i18n import Catalog

MODULES: tuple[str, ...] = ("buccaneer", "festival")
"""The engine's ``modules`` the presentation supports, in the engine's order."""

FESTIVAL_GOALS = ("plantation", "production", "construction")


def lobby_options(players: int, chosen: Iterable[str] = ()) -> dict[str, Any]:
    """The engine options of a table of ``players`` with the modules ``chosen`` (unknown ids
    are left out; the service refuses them before)."""
    wanted = set(chosen)
    modules = [m for m in MODULES if m in wanted]
    return {"players": players, "modules": modules} if modules else {"players": players}


def modules_of(options: Mapping[str, Any]) -> list[str]:
    """The presented modules that ``options`` (stored or the view's) turn on, in order."""
    found = options.get("modules") or ()
    return [m for m in MODULES if m in found]


def module_names(options: Mapping[str, Any], lang: str, catalog: Catalog) -> str:
    """ "Buccaneer, Festival": the modules of a game in words (empty without any)."""
    return catalog.join(lang, [catalog.t(lang, f"module.{m}") for m in modules_of(options)])


def _name(names: Mapping[int, str], seat: object) -> str:
    return names.get(seat, "?") if isinstance(seat, int) else "?"


def buccaneer_text(
    view: Mapping[str, Any], names: Mapping[int, str], lang: str, catalog: Catalog
) -> str | None:
    """Who holds the Buccaneer token (or that it lies on the card) and the role card captured
    this round; ``None`` without the Buccaneer."""
    part = view.get("buccaneer")
    if not isinstance(part, Mapping):
        return None
    t = catalog.t
    token = part.get("token")
    text = (
        t(lang, "table.token_on_card")
        if token is None
        else t(lang, "table.token_held", name=_name(names, token))
    )
    captured = part.get("captured")
    if captured:
        role = next(
            (str(r.get("role")) for r in view.get("roles", ()) if r.get("card") == captured),
            str(captured).rstrip("2"),
        )
        text += " · " + t(
            lang,
            "table.captured",
            role=t(lang, f"role.{role}"),
            name=_name(names, part.get("captured_by")),
        )
    return text


def festival_text(
    view: Mapping[str, Any], names: Mapping[int, str], lang: str, catalog: Catalog
) -> str | None:
    """The three Festival goals and who achieved each; ``None`` without the Festival."""
    part = view.get("festival")
    if not isinstance(part, Mapping):
        return None
    t = catalog.t
    goals = []
    for goal in FESTIVAL_GOALS:
        entry = part.get(goal) or {}
        if goal == "plantation":
            what = t(lang, "table.goal.plantation", tile=t(lang, f"good.{entry.get('tile')}"))
        elif goal == "production":
            goods = [t(lang, f"good.{g}") for g in entry.get("goods") or ()]
            what = t(lang, "table.goal.production", goods=", ".join(goods))
        else:
            building = entry.get("building")  # None until an Exp. 1 draft has ended
            what = t(
                lang,
                "table.goal.construction",
                building=t(lang, f"building.{building}") if building else "?",
            )
        done = entry.get("achieved_by")
        goals.append(
            t(lang, "table.goal_done", goal=what, name=_name(names, done))
            if done is not None
            else t(lang, "table.goal_open", goal=what)
        )
    return " · ".join(goals)


__all__ = [
    "FESTIVAL_GOALS",
    "MODULES",
    "buccaneer_text",
    "festival_text",
    "lobby_options",
    "module_names",
    "modules_of",
]
