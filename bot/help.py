"""``/game rules``: each game's rules and pieces explained in the reader's language.

Every game's presenter lists its topics (:meth:`bot.games.GamePresenter.help_topics`: how to
play, then its roles, buildings, cards...) and words them.  There are more topics than
Discord's 25 autocomplete choices, so :func:`topic_choices` filters by what is typed (any part
of the name in the reader's language, accents ignored, or the topic's id) and, with nothing
typed, offers the first topics of every group; the game of the channel comes first.  A topic's
value is ``<game>:<topic>``.  Commands named in the help are the reader's own (``/partida
nueva`` for a Spanish client), clickable when the command's id is known (:func:`command`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from .games import GamePresenter, presenters
from .games.contract import HelpTopic
from .i18n import Catalog

CHOICES = 25
GROUP = "game"
"""The id of the generic command group (``cmd.game.name``)."""
GENERIC_COMMANDS = ("new", "show", "board", "status", "log", "games", "rules", "undo", "leave",
                    "notify", "abandon", "server", "hint", "leaderboard",
                    "stats")


def folded(text: str) -> str:
    """Lower case without accents: "Añilería" -> "anileria"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def topic_name(presenter: GamePresenter, topic: HelpTopic, lang: str, *, titled: bool) -> str:
    """The topic as offered ("Building · Harbor"), after the game's name when several games
    are offered ("Puerto Rico · Building · Harbor")."""
    name = presenter.topic_name(topic, lang)
    return f"{presenter.title(lang)} · {name}" if titled else name


def _ordered(first: str | None) -> list[GamePresenter]:
    games = presenters()
    return sorted(games, key=lambda p: p.name != first)


def topic_matches(presenter: GamePresenter, topic: HelpTopic, typed: str, lang: str) -> bool:
    """Whether ``typed`` is part of the topic's name (without the game's) or of its id."""
    wanted = folded(typed.strip())
    if not wanted:
        return True
    return wanted in folded(topic_name(presenter, topic, lang, titled=False)) or wanted in folded(
        topic.id.replace("_", " ")) or wanted in topic.id


def title_matches(presenter: GamePresenter, typed: str, lang: str) -> bool:
    wanted = folded(typed.strip())
    return bool(wanted) and wanted in folded(presenter.title(lang))


def topic_choices(typed: str, lang: str, *, first: str | None = None,
                  limit: int = CHOICES) -> list[tuple[str, str]]:
    """``(name, value)`` pairs for the autocomplete: the topics matching ``typed``, the game
    ``first`` (the channel's) first; with more than ``limit``, the first of every group in turn
    (so each group shows)."""
    games = _ordered(first)
    titled = len(games) > 1
    found = [(p, t) for p in games for t in p.help_topics() if topic_matches(p, t, typed, lang)]
    if not found:  # the game's name typed: its topics
        found = [(p, t) for p in games if title_matches(p, typed, lang) for t in p.help_topics()]
    if len(found) > limit:
        groups: dict[tuple[str, str], list[tuple[GamePresenter, HelpTopic]]] = {}
        for pair in found:
            groups.setdefault((pair[0].name, pair[1].group), []).append(pair)
        kept: list[tuple[GamePresenter, HelpTopic]] = []
        depth = 0
        while len(kept) < limit:
            row = [ts[depth] for ts in groups.values() if depth < len(ts)]
            if not row:
                break
            kept.extend(row[: limit - len(kept)])
            depth += 1
        keep = {(p.name, t.id) for p, t in kept}
        found = [(p, t) for p, t in found if (p.name, t.id) in keep]
    return [(topic_name(p, t, lang, titled=titled), f"{p.name}:{t.id}") for p, t in found]


def find_topic(text: str | None, lang: str, *, first: str | None = None
               ) -> tuple[GamePresenter, HelpTopic, bool]:
    """The game and topic ``text`` names (a ``game:topic`` value, a topic's id, its offered
    name or a name alone, in the reader's language, accents ignored) and whether it named one;
    otherwise how to play the game ``first`` (the channel's)."""
    games = _ordered(first)
    default = (games[0], games[0].help_topics()[0], False)
    if not text:
        return default[0], default[1], True
    pairs = [(p, t) for p in games for t in p.help_topics()]
    game, _, ident = text.partition(":")
    for p, t in pairs:
        if (p.name, t.id) == (game, ident) or t.id == text:
            return p, t, True
    wanted = folded(text.strip())
    exact = []
    for p, t in pairs:
        full = topic_name(p, t, lang, titled=True)
        names = {folded(full), folded(topic_name(p, t, lang, titled=False)),
                 folded(full.split(" · ")[-1]), folded(t.id.replace("_", " "))}
        if wanted in names:
            exact.append((p, t))
    if exact:
        return exact[0][0], exact[0][1], True
    partial = [(p, t) for p, t in pairs if topic_matches(p, t, text, lang)]
    if len(partial) == 1:
        return partial[0][0], partial[0][1], True
    return default


def command(group: str, name: str, lang: str, catalog: Catalog, group_id: int | None = None
            ) -> str:
    """A command as the reader's client shows it: ``/partida nueva``; a clickable mention
    ``</partida nueva:ID>`` when the id of its group is known."""
    text = f"{catalog.t(lang, f'cmd.{group}.name')} {catalog.t(lang, f'cmd.{name}.name')}"
    return f"</{text}:{group_id}>" if group_id else f"/{text}"


def command_fields(presenter: GamePresenter, lang: str, ids: Mapping[str, int] | None = None
                   ) -> dict[str, str]:
    """``{cmd_new: "/game new", cmd_role: "/pr role", ...}`` for the texts that name commands:
    the generic ones and the game's decisions (``ids``: known group ids by group)."""
    catalog = presenter.catalog
    ids = ids or {}
    fields = {f"cmd_{name}": command(GROUP, name, lang, catalog, ids.get(GROUP))
              for name in GENERIC_COMMANDS}
    fields.update({f"cmd_{d.name}": command(presenter.command, d.name, lang, catalog,
                                            ids.get(presenter.command))
                   for d in presenter.decisions})
    return fields


def help_text(presenter: GamePresenter, topic: HelpTopic, lang: str,
              ids: Mapping[str, int] | None = None) -> str:
    """The page on ``topic``; how to play a game ends with what each AI level does."""
    text = presenter.help_text(topic, lang, command_fields(presenter, lang, ids))
    if topic == presenter.help_topics()[0]:
        text += "\n\n" + presenter.catalog.t(lang, "help.ai_levels")
    return text


def games_text(lang: str, catalog: Catalog, ids: Mapping[str, int] | None = None) -> str:
    """``/game rules`` where the channel has no game: every game the bot offers, each with its
    players, its expansions and the topic that opens its rules (its first topic, as the
    autocomplete offers it), in the reader's language."""
    t = catalog.t
    ids = ids or {}
    rules = command(GROUP, "rules", lang, catalog, ids.get(GROUP))
    option = t(lang, "opt.topic.name")
    lines = [t(lang, "help.games_title")]
    for presenter in presenters():
        words = presenter.catalog
        low, high = presenter.players
        expansions = [words.t(lang, f"variant.{v}") for v in presenter.expansions]
        lines.append(t(lang, "help.games_line", title=presenter.title(lang),
                       players=t(lang, "help.games_players", low=low, high=high),
                       expansions=t(lang, "help.games_expansions",
                                    expansions=catalog.join(lang, expansions))
                       if expansions else t(lang, "help.games_base")))
        first = topic_name(presenter, presenter.help_topics()[0], lang, titled=True)
        lines.append(t(lang, "help.games_rules", command=rules, option=option, topic=first))
    lines.append(t(lang, "help.games_more", cmd_new=command(GROUP, "new", lang, catalog,
                                                            ids.get(GROUP)), option=option))
    return "\n".join(lines)


__all__ = ["CHOICES", "GENERIC_COMMANDS", "GROUP", "command", "command_fields",
           "find_topic", "folded", "games_text", "help_text", "topic_choices", "topic_name"]
