"""``/pr rules``: the roles and the buildings explained in the reader's language.

The words are in the catalogs (``help.overview``, ``help.role.<role>``,
``help.building.<building>``); the numbers (cost, VP, circles, column, copies) come from the
engine's public view of a new game, so the help never disagrees with the rules being enforced.

The topics are grouped ("Role · Builder", "Building · Harbor", "How to play") and there are more
than Discord's 25 autocomplete choices, so :func:`topic_choices` filters by what is typed (any
part of the name in the reader's language, accents ignored, or the topic's id) and, with nothing
typed, offers the first topics of every group.  Commands named in the help are the reader's own
(``/pr personaje`` for a Spanish client) and clickable when the command's id is known
(:func:`command`).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from engine.core import get_game
from engine.puerto_rico.data import ROLES

from .i18n import CATALOG, Catalog

GAME = "puerto-rico"
CHOICES = 25
COMMANDS = ("new", "role", "settle", "build", "sell", "ship", "place", "keep", "take", "pass",
            "show", "board", "status", "log", "games", "rules", "undo", "leave", "notify",
            "abandon", "server")
GROUPS = ("overview", "role", "production", "building", "large")
"""Topic groups, in the order they are offered."""


@cache
def market() -> dict[str, dict[str, Any]]:
    """Every building of the game with its numbers (from a new 4-player game's view)."""
    game = get_game(GAME)
    view = game.view(game.setup({"players": 4}, 0), None)
    return {str(b["building"]): dict(b) for b in view["market"]}


HELP_TOPICS: tuple[str, ...] = ("overview", *ROLES, *market())


def group_of(topic: str) -> str:
    if topic in ROLES:
        return "role"
    building = market().get(topic)
    if building is None:
        return "overview"
    kind = str(building["kind"])
    if kind.endswith("production"):
        return "production"
    return "large" if kind.startswith("large") else "building"


def topic_name(topic: str, lang: str, catalog: Catalog = CATALOG) -> str:
    """The topic as offered: "Role · Builder", "Building · Harbor", "How to play"."""
    group = group_of(topic)
    if group == "overview":
        return catalog.t(lang, "help.overview_name")
    name = catalog.t(lang, f"role.{topic}" if group == "role" else f"building.{topic}")
    return catalog.t(lang, "help.topic", group=catalog.t(lang, f"help.group.{group}"),
                     name=name)


def folded(text: str) -> str:
    """Lower case without accents: "Añilería" -> "anileria"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def topic_matches(topic: str, typed: str, lang: str, catalog: Catalog = CATALOG) -> bool:
    wanted = folded(typed.strip())
    if not wanted:
        return True
    return wanted in folded(topic_name(topic, lang, catalog)) or wanted in folded(
        topic.replace("_", " ")) or wanted in topic


def topic_choices(typed: str, lang: str, catalog: Catalog = CATALOG,
                  limit: int = CHOICES) -> list[tuple[str, str]]:
    """``(name, topic)`` pairs for the autocomplete: the topics matching ``typed``, grouped;
    with more than ``limit``, the first of every group in turn (so each group shows)."""
    found = [t for t in HELP_TOPICS if topic_matches(t, typed, lang, catalog)]
    if len(found) > limit:
        by_group = {g: [t for t in found if group_of(t) == g] for g in GROUPS}
        kept: list[str] = []
        depth = 0
        while len(kept) < limit:
            row = [ts[depth] for ts in by_group.values() if depth < len(ts)]
            if not row:
                break
            kept.extend(row[: limit - len(kept)])
            depth += 1
        found = [t for t in found if t in set(kept)]
    return [(topic_name(t, lang, catalog), t) for t in found]


def find_topic(text: str | None, lang: str, catalog: Catalog = CATALOG) -> str:
    """The topic ``text`` names (its id, its offered name or a name alone, in the reader's
    language, accents ignored); ``overview`` when it names none or several."""
    if not text:
        return "overview"
    if text in HELP_TOPICS:
        return text
    wanted = folded(text.strip())
    exact = [t for t in HELP_TOPICS if wanted in (
        folded(topic_name(t, lang, catalog)), folded(topic_name(t, lang, catalog).split(
            " · ")[-1]), folded(t.replace("_", " ")))]
    if len(exact) == 1:
        return exact[0]
    partial = [t for t in HELP_TOPICS if topic_matches(t, text, lang, catalog)]
    return partial[0] if len(partial) == 1 else "overview"


def command(name: str, lang: str, catalog: Catalog = CATALOG, pr_id: int | None = None) -> str:
    """A command as the reader's client shows it: ``/pr personaje``; a clickable mention
    ``</pr personaje:ID>`` when the id of ``/pr`` is known."""
    text = f"{catalog.t(lang, 'cmd.pr.name')} {catalog.t(lang, f'cmd.{name}.name')}"
    return f"</{text}:{pr_id}>" if pr_id else f"/{text}"


def command_fields(lang: str, catalog: Catalog = CATALOG, pr_id: int | None = None
                   ) -> dict[str, str]:
    """``{cmd_role: "/pr personaje", ...}`` for the texts that name commands."""
    return {f"cmd_{name}": command(name, lang, catalog, pr_id) for name in COMMANDS}


def help_text(topic: str, lang: str, catalog: Catalog = CATALOG, *,
              pr_id: int | None = None) -> str:
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
    roles = catalog.join(lang, [t(lang, f"role.{r}") for r in ROLES])
    commands = command_fields(lang, catalog, pr_id)
    topic_option = t(lang, "opt.topic.name")
    return (f"{t(lang, 'help.overview', **commands)}\n\n"
            f"{t(lang, 'help.topics', roles=roles, option=topic_option, **commands)}")
