"""Puerto Rico's ``/game rules`` topics: how to play, the roles, the buildings (Exp. 1's and
Exp. 2's among them) and the expansions the bot presents (the New Buildings with its draft and
its forests, the Nobles, the Buccaneer, the Festival); and the pages of 1897's automated
opponent, the Puertoma (:func:`puertoma_topics`: offered by the 1897 presenter only).

The words are in the catalog (``help.overview``, ``help.role.<role>``,
``help.building.<building>``, ``help.module.<module>``); the numbers (cost, VP, circles, column,
copies) come from the engine's public view of a new game, so the help never disagrees with the
rules being enforced.  Topics are grouped: how to play, roles, production buildings, violet
buildings, large buildings, expansions.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from engine.core import get_game
from engine.puerto_rico.data import NEW_BUILDINGS, NOBLES_BUILDINGS, ROLES
from engine.puerto_rico_1897.puertoma import SKILLS

from ...games.contract import HelpTopic
from ...i18n import Catalog
from .gamelog import skill_role
from .modules import MODULES
from .new_buildings import facts
from .words import puerto_rico_view

EXP1_BUILDINGS = tuple(b.name for b in NEW_BUILDINGS)
"""Exp. 1's 14 buildings: a page each, in the groups of the base game's."""
EXP1_TOPICS = ("draft", "forests")
"""Exp. 1's rules that are no building: pages in the expansions' group."""
EXP2_BUILDINGS = tuple(b.name for b in NOBLES_BUILDINGS)
"""Exp. 2's 8 buildings: a page each, in the groups of the base game's."""
EXP2 = "nobles"
MODULE_TOPICS = MODULES if EXP2 in MODULES else (*MODULES, EXP2)
"""The expansions with a page: those the lobby offers, then the Nobles while the lobby does
not offer it yet (its words are all here)."""

PUERTOMA = "puertoma"
PUERTOMA_TOPICS = (PUERTOMA, "puertoma_roles", "puertoma_skills", "puertoma_score")
"""1897's Puertoma (rules spec §8): what it is and how it chooses a role, what it does in each
role (its Reserve token), its skills, its final score and the difficulties; a group of their
own (``help.group.puertoma``).  Each page's words are ``help.<id>``, named ``help.name.<id>``;
each stays within the 1,900 characters ``/game rules`` sends."""
PAGE_ROLES = {"planter": "settler", "recruiter": "mayor", "builder": "builder",
              "craftsman": "craftsman", "trader": "trader", "captain": "captain",
              "adventurer": "prospector"}
"""The role names a Puertoma page says (``{trader}``), each the catalog's ``role.<kernel id>``:
the game's own words, as its buttons and log say them."""

GAME = "puerto-rico"
GROUPS = ("overview", "role", "production", "building", "large", "module")
"""Topic groups, in the order they are offered."""


@cache
def market() -> dict[str, dict[str, Any]]:
    """Every building of the game with its numbers (from a new 4-player game's view)."""
    game = get_game(GAME)
    view = puerto_rico_view(game.view(game.setup({"players": 4}, 0), None))
    return {b["building"]: dict(b) for b in view["market"]}


@cache
def exp2_copies() -> dict[str, tuple[int, int]]:
    """Each Exp. 2 building's copies in the market of a game with the Nobles and without
    Exp. 1 (ruling A21), with 3 to 5 players and with 2."""
    game = get_game(GAME)
    copies: dict[str, list[int]] = {name: [] for name in EXP2_BUILDINGS}
    for players in (4, 2):
        view = puerto_rico_view(game.view(game.setup({"players": players, "modules": [EXP2]},
                                                     0), None))
        for entry in view["market"]:
            if entry["building"] in copies:
                copies[entry["building"]].append(entry["left"])
    return {name: (left[0], left[1]) for name, left in copies.items()}


def building_entry(topic: str) -> dict[str, Any] | None:
    """A building's numbers: the market's, or an expansion building's printed ones."""
    if topic in EXP1_BUILDINGS or topic in EXP2_BUILDINGS:
        return dict(facts(topic))
    return market().get(topic)


def group_of(topic: str) -> str:
    if topic in ROLES:
        return "role"
    if topic in MODULE_TOPICS or topic in EXP1_TOPICS:
        return "module"
    building = building_entry(topic)
    if building is None:
        return "overview"
    kind = str(building["kind"])
    if kind.endswith("production"):
        return "production"
    return "large" if kind.startswith("large") else "building"


@cache
def topics() -> tuple[HelpTopic, ...]:
    return tuple(HelpTopic(t, group_of(t))
                 for t in ("overview", *ROLES, *market(), *EXP1_BUILDINGS, *EXP2_BUILDINGS,
                           *MODULE_TOPICS, *EXP1_TOPICS))


def puertoma_topics() -> tuple[HelpTopic, ...]:
    """The Puertoma's pages (1897: its presenter adds them to the classic topics)."""
    return tuple(HelpTopic(t, PUERTOMA) for t in PUERTOMA_TOPICS)


def puertoma_page(ident: str, lang: str, catalog: Catalog, commands: Mapping[str, str]) -> str:
    """A Puertoma page: its title, its text with the roles in the game's words; the skills
    page lists the 12 skill tiles by level (their words are the log's: ``ptm_skill.<id>``,
    ``ptm_effect.<id>``)."""
    t = catalog.t
    roles = {word: t(lang, f"role.{role}") for word, role in PAGE_ROLES.items()}
    title = t(lang, "help.topic", group=t(lang, f"help.group.{PUERTOMA}"),
              name=t(lang, f"help.name.{ident}"))
    lines = [f"**{title}**", t(lang, f"help.{ident}", **commands, **roles)]
    if ident == "puertoma_skills":
        for level, skills in enumerate(SKILLS, start=1):
            lines.append(f"**{t(lang, 'help.puertoma_level', level=level)}**")
            lines.extend(
                f"• **{t(lang, f'ptm_skill.{skill}')}** — "
                f"{t(lang, f'ptm_effect.{skill}', role=t(lang, f'role.{skill_role(skill)}'))}"
                for skill in skills)
    return "\n".join(lines)


def topic_name(topic: HelpTopic, lang: str, catalog: Catalog) -> str:
    """The topic as offered: "Role · Builder", "Building · Harbor", "How to play"."""
    group = topic.group
    if group == "overview":
        return catalog.t(lang, "help.overview_name")
    ident = topic.id
    key = {"role": f"role.{ident}", "module": f"variant.{ident}"}.get(group,
                                                                      f"building.{ident}")
    if ident in EXP1_TOPICS or ident in PUERTOMA_TOPICS:
        key = f"help.name.{ident}"
    name = catalog.t(lang, key)
    return catalog.t(lang, "help.topic", group=catalog.t(lang, f"help.group.{group}"),
                     name=name)


def help_text(topic: HelpTopic, lang: str, catalog: Catalog, commands: Mapping[str, str]) -> str:
    """The help on ``topic`` (a role, a building or ``overview``: how to play and the list of
    topics)."""
    t = catalog.t
    ident = topic.id
    if ident in ROLES:
        return f"**{t(lang, f'role.{ident}')}**\n{t(lang, f'help.role.{ident}')}"
    if ident in MODULE_TOPICS:
        return (f"**{t(lang, f'variant.{ident}')}**\n"
                f"{t(lang, f'help.module.{ident}', **commands)}")
    if ident in PUERTOMA_TOPICS:
        return puertoma_page(ident, lang, catalog, commands)
    if ident in EXP1_TOPICS:
        return (f"**{t(lang, f'help.name.{ident}')}**\n"
                f"{t(lang, f'help.exp1.{ident}', **commands)}")
    building = building_entry(ident)
    if building is not None:
        kind = t(lang, f"help.kind.{building['kind']}")
        numbers = {"cost": building["cost"], "vp": building["vp"],
                   "column": building["column"], "circles": building["circles"], "kind": kind}
        if ident in EXP2_BUILDINGS:
            return exp2_page(ident, lang, catalog, commands, numbers)
        line = (t(lang, "help.building_facts_exp1", **numbers) if ident in EXP1_BUILDINGS
                else t(lang, "help.building_facts", copies=building["left"], **numbers))
        return (f"**{t(lang, f'building.{ident}')}** · {line}\n"
                f"{t(lang, f'help.building.{ident}')}")
    roles = catalog.join(lang, [t(lang, f"role.{r}") for r in ROLES])
    topic_option = t(lang, "opt.topic.name")
    modules = catalog.join(lang, [t(lang, f"variant.{m}") for m in MODULES])
    return (f"{t(lang, 'help.overview', **commands)}\n\n"
            f"{t(lang, 'help.topics', roles=roles, option=topic_option, **commands)}\n"
            f"{t(lang, 'help.modules', modules=modules)}")


def exp2_page(ident: str, lang: str, catalog: Catalog, commands: Mapping[str, str],
              numbers: Mapping[str, Any]) -> str:
    """An Exp. 2 building's page: its numbers and copies (A21: 1 of a violet small one with 2
    players), its effect, then its timing and how it is played on Discord."""
    t = catalog.t
    copies, two = exp2_copies()[ident]
    line = (t(lang, "help.building_facts_exp2_same", copies=copies, **numbers) if copies == two
            else t(lang, "help.building_facts_exp2", copies=copies, two=two, **numbers))
    return (f"**{t(lang, f'building.{ident}')}** · {line}\n"
            f"{t(lang, f'help.building.{ident}')}\n{t(lang, f'help.exp2.{ident}', **commands)}")
