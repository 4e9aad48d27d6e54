"""San Juan's ``/game rules`` topics: how to play, the five roles and the 29 buildings.

The words are in the catalog (``help.overview``, ``help.role.<role>``, ``help.card.<card>``);
the numbers (cost, VP, copies) come from the engine's card table, so the help never disagrees
with the rules being enforced.  Topics are grouped: how to play, roles, production buildings,
violet buildings, monuments and the cost-6 buildings.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.san_juan.data import CARDS, KIND_INDEX, ROLES

from ...games.contract import HelpTopic
from ...i18n import Catalog

GROUPS = ("overview", "role", "production", "violet", "monument", "cost6")
"""Topic groups, in the order they are offered."""


def group_of(topic: str) -> str:
    if topic in ROLES:
        return "role"
    kind = KIND_INDEX.get(topic)
    if kind is None:
        return "overview"
    return CARDS[kind].category


@cache
def topics() -> tuple[HelpTopic, ...]:
    ids = ("overview", "hidden", *ROLES, *(card.name for card in CARDS))
    return tuple(HelpTopic(t, group_of(t)) for t in ids)


def topic_name(topic: HelpTopic, lang: str, catalog: Catalog) -> str:
    """The topic as offered: "Role · Builder", "Building · Smithy", "How to play"."""
    if topic.group == "overview":
        return catalog.t(lang, f"help.{topic.id}_name")
    ident = topic.id
    name = catalog.t(lang, f"role.{ident}" if topic.group == "role" else f"card.{ident}")
    return catalog.t(lang, "help.topic", group=catalog.t(lang, f"help.group.{topic.group}"),
                     name=name)


def help_text(topic: HelpTopic, lang: str, catalog: Catalog, commands: Mapping[str, str]) -> str:
    t = catalog.t
    ident = topic.id
    if ident in ROLES:
        return (f"**{t(lang, f'role.{ident}')}**\n{t(lang, f'help.role.{ident}')}")
    kind = KIND_INDEX.get(ident)
    if kind is not None:
        card = CARDS[kind]
        facts = t(lang, "help.card_facts", cost=card.cost, vp=card.vp, copies=card.copies,
                  kind=t(lang, f"help.group.{card.category}"))
        return f"**{t(lang, f'card.{ident}')}** · {facts}\n{t(lang, f'help.card.{ident}')}"
    if ident == "hidden":
        return t(lang, "help.hidden")
    roles = catalog.join(lang, [t(lang, f"role.{r}") for r in ROLES])
    return (f"{t(lang, 'help.overview', **commands)}\n\n"
            f"{t(lang, 'help.topics', roles=roles, option=t(lang, 'opt.topic.name'), **commands)}")
