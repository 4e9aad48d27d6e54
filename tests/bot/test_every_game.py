"""Every game the bot presents (``bot.games.presenters()``, the catalog :data:`bot.games.PACKAGES`)
gets these for free: its catalog complete in every language and holding every key the generic
code and its own code name; its decision commands named and described in every language within
Discord's limits; every legal choice of seeded random games worded within Discord's limits in
every language, and reachable by one of its decision commands; its help topics worded; and the
whole command tree, as the bot builds it, within Discord's limits (100 global commands, 25
subcommands per group, names and descriptions in every locale)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.games import PACKAGES, GamePresenter, presenter_for, presenters
from bot.help import help_text
from bot.i18n import LANGUAGES
from bot.i18n.translator import CatalogTranslator
from bot.settings import Settings
from engine import game_names, get_game
from engine.policies import make_policy
from engine.simulate import policy_seed
from tests.bot.test_catalogs import keys_named
from tests.offline_discord.validation import validate_command

ROOT = Path(__file__).resolve().parents[2]
NAMES = list(PACKAGES)
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule (and lower case)
MAX_ACTIONS = 5000
GAMES_BUDGET = 24
"""Random games per presenter in the wording test, spread over its option sets (at least one
each): a game of many sets plays one game of each, keeping the suite's time in bounds."""


def test_every_presented_game_is_walked() -> None:
    """Nothing is skipped silently: the tests below run once per presenter, and every
    presenter is the engine's game of the same name."""
    assert [p.name for p in presenters()] == NAMES and NAMES
    assert set(NAMES) <= set(game_names())


def package_folder(name: str) -> Path:
    return ROOT / Path(*PACKAGES[name].split("."))


# --- the catalog ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_catalog_is_complete_in_every_language(name: str) -> None:
    """Every key in every language with the same placeholders, the game's title, and every key
    that the generic bot or the game's own package names."""
    presenter = presenter_for(name)
    catalog = presenter.catalog
    assert set(catalog.languages) == set(LANGUAGES)
    assert catalog.problems() == []
    assert catalog.has("game.title") and catalog.has(f"cmd.{presenter.command}.name")
    games = ROOT / "bot" / "games"
    generic = keys_named([p for p in (ROOT / "bot").rglob("*.py") if games not in p.parents])
    own = keys_named(sorted(package_folder(name).rglob("*.py")))
    assert sorted(k for k in generic | own if not catalog.has(k)) == []


# --- the decision commands --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_the_decision_group_fits_discord(name: str, lang: str) -> None:
    """``/<group> <decision> <option>``: at most 25 decisions, each name and option name 1-32
    lower-case characters, distinct within the group in every language, descriptions 1-100."""
    presenter = presenter_for(name)
    catalog = presenter.catalog
    assert 1 <= len(presenter.decisions) <= 25

    def name_of(key: str) -> str:
        text = catalog.t(lang, f"{key}.name")
        assert COMMAND_NAME.match(text) and text == text.lower(), (lang, key, text)
        description = catalog.t(lang, f"{key}.description")
        assert 1 <= len(description) <= 100, (lang, key, description)
        return text

    name_of(f"cmd.{presenter.command}")
    names = [name_of(f"cmd.{d.name}") for d in presenter.decisions]
    assert len(set(names)) == len(names), (lang, names)
    assert len({d.name for d in presenter.decisions}) == len(presenter.decisions)
    for decision in presenter.decisions:
        if decision.option is not None:
            name_of(f"opt.{decision.option}")


# --- every choice of random games -------------------------------------------------------------


def decisions(name: str, part: str = "all") -> Iterator[tuple[Any, int, str]]:
    """(state, seat, prompt kind) for every seat asked something in seeded random games of
    every option set of the game's engine (``part``: ``ends``, its first and last set, the
    fast tier's; ``rest``, the others)."""
    game = get_game(name)
    sets = game.option_sets()
    for index, options in enumerate(sets):
        end = index in (0, len(sets) - 1)
        if (part == "ends" and not end) or (part == "rest" and end):
            continue
        for k in range(max(1, GAMES_BUDGET // len(sets))):
            seed = 1000 * index + k
            state = game.setup(options, seed)
            players = int(options["players"])
            policies = [make_policy("random", name, policy_seed(seed, s)) for s in range(players)]
            for _ in range(MAX_ACTIONS):
                prompt = game.prompt(state)
                if prompt is None:
                    break
                for seat in prompt.seats:
                    yield state, seat, prompt.kind
                seat = prompt.seats[0]
                action = policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
                state, _ = game.apply(state, seat, action)
            assert game.prompt(state) is None, (name, options, seed)


def worded(text: str) -> bool:
    return bool(text.strip()) and "{" not in text and "}" not in text


@pytest.mark.parametrize(("name", "part"), [
    *((name, "ends") for name in NAMES),
    *(pytest.param(name, "rest", marks=pytest.mark.slow) for name in NAMES),
])
def test_every_legal_choice_is_worded_within_discords_limits(name: str, part: str) -> None:
    """Each legal code of every prompted seat, in every language, as the panel and the
    autocomplete word it (the presenter's words with its panel extras): a label of 1-80
    characters (buttons), a choice name of 1-100 (autocomplete), a description of at most
    100, no placeholder left; the prompt itself in words; and one decision command whose
    autocomplete offers it.  Each kind of decision is worded in every language the first times
    it comes up, then the languages take its decisions in turn: the same codes come up again
    and again over the games, so every language words them, in about a third of the time."""
    presenter = presenter_for(name)
    game = get_game(name)
    problems: list[tuple[str, ...]] = []
    kinds: set[str] = set()
    worded_in: set[tuple[str, str]] = set()  # every kind of decision in every language
    seen: dict[str, int] = {}
    codes_seen = 0
    for turn, (state, seat, kind) in enumerate(decisions(name, part)):
        view = game.view(state, seat)
        codes = [game.encode_action(a) for a in game.legal_actions(state, seat)]
        assert codes, (name, kind, seat)
        extras = presenter.panel_extras(game, state, seat, view, codes, kind)
        kinds.add(kind)
        seen[kind] = seen.get(kind, 0) + 1
        # a kind's first decisions in every language, then the languages in turn
        every = seen[kind] <= len(LANGUAGES)
        for lang in LANGUAGES if every else (LANGUAGES[turn % len(LANGUAGES)],):
            worded_in.add((lang, kind))
            words = presenter.words(view, lang, extras=extras, kind=kind)
            for code in codes:
                label, choice = words.label(code), words.choice_name(code)
                description = words.description(code)
                if not (0 < len(label) <= 80 and worded(label)):
                    problems.append((lang, kind, code, "label", label))
                if not (0 < len(choice) <= 100 and worded(choice)):
                    problems.append((lang, kind, code, "choice", choice))
                if description is not None and not (
                        0 < len(description) <= 100 and worded(description)):
                    problems.append((lang, kind, code, "description", description))
        for code in codes:
            codes_seen += 1
            if not any(d.matches(code) for d in presenter.decisions):
                problems.append((kind, code, "no decision command offers it"))
    assert problems == []
    assert codes_seen > 100
    assert {(lang, kind) for lang in LANGUAGES for kind in kinds} == worded_in, name
    own_words = type(presenter).prompt_text is not GamePresenter.prompt_text
    assert own_words or sorted(k for k in kinds if not presenter.catalog.has(f"prompt.{k}")) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_every_help_topic_is_worded(name: str, lang: str) -> None:
    """``/game rules``: topic ids distinct, each topic's name a choice of 1-100 characters,
    its text written out (no placeholder left)."""
    presenter = presenter_for(name)
    topics = presenter.help_topics()
    assert topics and len({t.id for t in topics}) == len(topics)
    for topic in topics:
        title = presenter.topic_name(topic, lang)
        assert 0 < len(title) <= 100, (lang, topic.id, title)
        text = help_text(presenter, topic, lang)
        assert worded(text), (lang, topic.id, text[:80])


# --- the whole command tree -------------------------------------------------------------------


async def command_payloads(tmp_path: Path) -> list[dict[str, Any]]:
    """The commands as the bot sends them to Discord (translated): built by ``setup_hook`` on
    a temporary database, never connected."""
    from bot.client import GovernorBot

    bot = GovernorBot(Settings(token="unused", database_url=str(tmp_path / "governor.db")),
                      renderer=None, reminder_period=None, sync_dev_guild=False)
    try:
        await bot.setup_hook()
        translator = bot.tree.translator
        assert isinstance(translator, CatalogTranslator)
        return [await command.get_translated_payload(bot.tree, translator)
                for command in bot.tree.get_commands()]
    finally:
        await bot.close()


def localized(payload: dict[str, Any], field: str) -> dict[str, str]:
    """A field in English and in each of its localizations."""
    return {"": payload.get(field) or "", **(payload.get(f"{field}_localizations") or {})}


def check_level(options: list[dict[str, Any]], path: str) -> list[str]:
    """Discord's rules on one level of the tree, in every locale: names of 1-32 lower-case
    characters distinct at their level, descriptions of 1-100, at most 25 options."""
    out = [] if len(options) <= 25 else [f"{path}: {len(options)} options"]
    seen: dict[str, set[str]] = {}
    for option in options:
        where = f"{path} {option['name']}"
        for locale, name in localized(option, "name").items():
            if not (COMMAND_NAME.match(name) and name == name.lower()):
                out.append(f"{where} [{locale}]: name {name!r}")
            if name in seen.setdefault(locale, set()):
                out.append(f"{where} [{locale}]: name {name!r} twice")
            seen[locale].add(name)
        for locale, text in localized(option, "description").items():
            if not 1 <= len(text) <= 100:
                out.append(f"{where} [{locale}]: description of {len(text)}")
        for choice in option.get("choices") or ():
            for locale, text in localized(choice, "name").items():
                if not 1 <= len(text) <= 100:
                    out.append(f"{where} [{locale}]: choice {text!r}")
        if len(option.get("choices") or ()) > 25:
            out.append(f"{where}: more than 25 choices")
        out += check_level(option.get("options") or [], where)
    return out


async def test_the_whole_command_tree_fits_discord(tmp_path: Path) -> None:
    """``/game`` plus one decision group per game: at most 100 global commands, 25
    subcommands per group, every name, description and choice within Discord's rules in every
    language (the offline Discord's validation of a sync, plus the localizations)."""
    payloads = await command_payloads(tmp_path)
    groups = {p["name"]: p for p in payloads}
    assert len(payloads) <= 100 and len(groups) == len(payloads)
    assert set(groups) == {"game"} | {presenter_for(n).command for n in NAMES}
    for payload in payloads:
        validate_command(payload, payload["name"])
        assert payload["type"] == discord.AppCommandType.chat_input.value
        subcommands = payload.get("options") or []
        assert 1 <= len(subcommands) <= 25, payload["name"]
        assert payload.get("description_localizations"), payload["name"]  # translated
        assert all(o["type"] == discord.AppCommandOptionType.subcommand.value
                   or (o["type"] == discord.AppCommandOptionType.subcommand_group.value
                       and 1 <= len(o["options"]) <= 25 and all(
                           s["type"] == discord.AppCommandOptionType.subcommand.value
                           for s in o["options"]))
                   for o in subcommands), payload["name"]
    assert check_level(payloads, "/") == []
    game = {o["name"]: o for o in groups["game"]["options"]}
    new = {o["name"]: o for o in game["new"]["options"]}
    assert [c["value"] for c in new["game"]["choices"]] == NAMES
    for name in NAMES:
        presenter = presenter_for(name)
        group = groups[presenter.command]
        assert len(group["options"]) == len(presenter.decisions)
        for decision, option in zip(presenter.decisions, group["options"], strict=True):
            arguments = option.get("options") or []
            assert len(arguments) == (decision.option is not None), (name, decision.name)
            assert all(a.get("autocomplete") for a in arguments), (name, decision.name)


def test_the_tree_check_sees_a_broken_name() -> None:
    """Negative control for :func:`check_level`."""
    command = {"name": "pr", "description": "x", "options": [
        {"name": "Build", "description": "", "name_localizations": {"es-ES": "construir"},
         "options": []},
        {"name": "ok", "description": "y", "name_localizations": {"es-ES": "construir"},
         "choices": [{"name": "z" * 101, "value": "v"}]},
    ]}
    assert check_level([command], "/") == [
        "/ pr Build []: name 'Build'",
        "/ pr Build []: description of 0",
        "/ pr ok [es-ES]: name 'construir' twice",
        "/ pr ok []: choice '" + "z" * 101 + "'",
    ]
