"""``/pr rules``: the roles and the buildings explained in the reader's language.

The words are in the catalogs (``help.overview``, ``help.role.<role>``,
``help.building.<building>``); the numbers (cost, VP, circles, column, copies) come from the
engine's public view of a new game, so the help never disagrees with the rules being enforced.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core import get_game
from engine.puerto_rico.data import ROLES

from .i18n import CATALOG, Catalog

GAME = "puerto-rico"


@cache
def market() -> dict[str, dict[str, Any]]:
    """Every building of the game with its numbers (from a new 4-player game's view)."""
    game = get_game(GAME)
    view = game.view(game.setup({"players": 4}, 0), None)
    return {str(b["building"]): dict(b) for b in view["market"]}


HELP_TOPICS: tuple[str, ...] = ("overview", *ROLES, *market())


def topic_name(topic: str, lang: str, catalog: Catalog = CATALOG) -> str:
    if topic in ROLES:
        return catalog.t(lang, f"role.{topic}")
    if topic in market():
        return catalog.t(lang, f"building.{topic}")
    return catalog.t(lang, "help.overview_name")


def help_text(topic: str, lang: str, catalog: Catalog = CATALOG) -> str:
    """The help on ``topic`` (a role, a building or ``overview``); an unknown topic gets the
    overview with the list of topics."""
    t = catalog.t
    if topic in ROLES:
        return f"**{t(lang, f'role.{topic}')}**\n{t(lang, f'help.role.{topic}')}"
    building = market().get(topic)
    if building is not None:
        kind = t(lang, f"help.kind.{building['kind']}")
        facts = t(lang, "help.building_facts", cost=building["cost"], vp=building["vp"],
                  column=building["column"], circles=building["circles"], kind=kind,
                  copies=building["left"])
        return (f"**{t(lang, f'building.{topic}')}** · {facts}\n"
                f"{t(lang, f'help.building.{topic}')}")
    roles = ", ".join(t(lang, f"role.{r}") for r in ROLES)
    return f"{t(lang, 'help.overview')}\n\n{t(lang, 'help.topics', roles=roles)}"
