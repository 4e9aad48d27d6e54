"""Message catalogs: complete in every language, and covering every word the bot can need.

A key missing in any catalog (the generic one, or any game's: generic plus its own words), a
translation with other placeholders than the English, a key the code uses but no catalog has,
or an engine id (phase, prompt, role, building, good, error code) without its words: each fails
here, not in front of a player."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.games import presenter_for, presenters
from bot.i18n import CATALOG, LANGUAGES, Catalog, MissingKey
from bot.i18n.translator import CatalogTranslator
from engine import get_game
from engine.policies import make_policy
from engine.puerto_rico.data import GOODS, ROLES

ROOT = Path(__file__).resolve().parents[2]
PREFIXES = (
    "cmd|opt|choice|language|level|status|lobby|button|reply|table|notify|role|good|tile|"
    "building|plantation|unit|phase|prompt|end|err|illegal|log|act|pass|panel|help|story|final|score|"
    "letter|effect|why|game|perm"
)
PR_CATALOG = presenter_for("puerto-rico").catalog
KEY_LITERAL = re.compile(rf"""["']((?:{PREFIXES})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*)["']""")
# Discord's rule for command and option names (lower case in every language).
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def test_every_catalog_has_every_key_with_the_same_placeholders() -> None:
    assert set(CATALOG.languages) == set(LANGUAGES) == {"en", "es", "pt"}
    assert CATALOG.problems() == []
    for presenter in presenters():
        assert set(presenter.catalog.languages) == set(LANGUAGES), presenter.name
        assert presenter.catalog.problems() == [], presenter.name
        assert presenter.catalog.has("game.title"), presenter.name


def test_a_game_may_not_redefine_a_generic_word(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text('{"err.generic": "mine"}', encoding="utf-8")
    with pytest.raises(ValueError, match="defined twice"):
        Catalog.load(folders=[tmp_path])


def test_the_check_catches_a_missing_key_and_a_wrong_placeholder() -> None:
    broken = Catalog({"en": {"a": "x {n}", "b": "y"}, "es": {"a": "x {m}"}})
    assert broken.problems() == ["es: missing b", "es: placeholders of a differ from en"]
    with pytest.raises(MissingKey):
        CATALOG.t("en", "no.such.key")


def keys_named(paths: list[Path]) -> set[str]:
    used: set[str] = set()
    for path in paths:
        used.update(KEY_LITERAL.findall(path.read_text(encoding="utf-8")))
    return used


def test_every_key_the_code_names_exists() -> None:
    """The generic code's keys are in every game's catalog (the generic words, plus those a
    game must say in its own: its title...); each game's code's keys in its catalog."""
    games = ROOT / "bot" / "games"
    generic = keys_named([p for p in (ROOT / "bot").rglob("*.py") if games not in p.parents])
    assert len(generic) > 40
    for presenter in presenters():
        package = games / presenter.name.replace("-", "_")
        own = keys_named(list(package.rglob("*.py")))
        missing = sorted(k for k in generic | own if not presenter.catalog.has(k))
        assert missing == [], presenter.name


def vocabulary() -> dict[str, set[str]]:
    """Every id the engine shows, collected from seeded random games of 2 to 5 players."""
    game = get_game("puerto-rico")
    seen: dict[str, set[str]] = {"phase": set(), "prompt": set(), "end": set(), "building": set()}
    for players in (2, 3, 4, 5):
        state = game.setup({"players": players}, players)
        policy = make_policy("random", "puerto-rico", players)
        while (prompt := game.prompt(state)) is not None:
            view = game.view(state, None)
            seen["phase"].add(view["phase"])
            seen["prompt"].add(prompt.kind)
            seen["end"].update(view["end_triggered"])
            seen["building"].update(b["building"] for b in view["market"])
            seat = prompt.seats[0]
            state, _ = game.apply(
                state, seat, policy.choose(game, state, seat, game.legal_actions(state, seat))
            )
        seen["phase"].add(game.view(state, None)["phase"])
    return seen


def test_every_engine_id_has_words_in_every_language() -> None:
    ids = vocabulary()
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    illegal = re.search(r"`IllegalAction` with one of: (.*?)\.\n", docs, re.S)
    assert illegal is not None
    ids["illegal"] = set(re.findall(r"`([a-z_]+)`", illegal.group(1)))
    ids["role"], ids["good"] = set(ROLES), set(GOODS)
    ids["end"] |= {"colonists", "city_full", "vp_chips"}
    assert len(ids["illegal"]) >= 20 and len(ids["building"]) == 23
    missing = [f"{k}.{v}" for k, values in ids.items() for v in values
               if not PR_CATALOG.has(f"{k}.{v}")]
    assert missing == []


async def test_translator_gives_spanish_command_names() -> None:
    translator = CatalogTranslator()
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    new = app_commands.locale_str("new", key="cmd.new.name")
    assert await translator.translate(new, discord.Locale.spain_spanish, context) == "nueva"
    assert await translator.translate(new, discord.Locale.latin_american_spanish, context) == (
        "nueva"
    )
    assert await translator.translate(new, discord.Locale.french, context) is None
    plain = app_commands.locale_str("new")
    assert await translator.translate(plain, discord.Locale.spain_spanish, context) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_command_and_option_names_follow_discord_rules(lang: str) -> None:
    every = {k: v for p in presenters() for k, v in p.catalog.tables[lang].items()}
    for key, message in every.items():
        if not isinstance(message, str):
            continue
        text = message
        if key.endswith(".name") and key.startswith(("cmd.", "opt.")):
            assert COMMAND_NAME.match(text) and text == text.lower(), (lang, key, text)
        if key.endswith(".description") and key.startswith(("cmd.", "opt.")):
            assert 1 <= len(text) <= 100, (lang, key)
        if key.startswith("choice."):
            assert 1 <= len(text) <= 100, (lang, key)


def test_every_language_is_named_in_every_language() -> None:
    """A language the bot speaks is a choice of ``/game new`` and a word of the lobby in each."""
    for lang in LANGUAGES:
        for other in LANGUAGES:
            assert CATALOG.text(other, f"language.{lang}"), (other, lang)
            assert CATALOG.text(other, f"choice.language.{lang}"), (other, lang)


def test_language_of_discord_locales() -> None:
    assert CATALOG.language_of(discord.Locale.spain_spanish) == "es"
    assert CATALOG.language_of("es-419") == "es"
    assert CATALOG.language_of(discord.Locale.brazil_portuguese) == "pt"
    assert CATALOG.language_of(discord.Locale.japanese) == "en"
    assert CATALOG.language_of(None) == "en"
    assert PR_CATALOG.t("pt", "lobby.title", game=4).endswith("4")
    assert PR_CATALOG.t("es", "lobby.title", game=4) == "Puerto Rico · partida n.º 4"
    assert PR_CATALOG.t("es", "lobby.title", game=4, title="X") == "X · partida n.º 4"


def test_the_board_image_words_are_all_in_the_catalogs() -> None:
    """Every word the renderer draws (render.labels.ENGLISH) is translated, so a Spanish game's
    image is all Spanish, the letters on the goods and tiles included (issue #9: "C I S T K"
    stayed English), five distinct letters per language."""
    from bot.rendering import image_labels
    from render import renderer_for

    for presenter in presenters():
        english = renderer_for(presenter.name).english
        needed = {k for k in english if k.startswith(presenter.image_prefixes)}
        assert needed == set(english), presenter.name
        assert sorted(k for k in needed if not presenter.catalog.has(k)) == [], presenter.name
    labels = image_labels("puerto-rico", "es")
    assert labels["ui.round"] == "Ronda {n}" and labels["building.harbor"] == "Puerto"
    assert labels["letter.corn"] == "M" and labels["letter.coffee"] == "C"
    for lang in PR_CATALOG.languages:
        letters = PR_CATALOG.section(lang, "letter.")
        assert len(set(letters.values())) == len(letters) == 6, (lang, letters)


@pytest.mark.parametrize(
    ("lang", "n", "text"),
    [("en", 1, "1 doubloon"), ("en", 0, "0 doubloons"), ("en", 2, "2 doubloons"),
     ("es", 1, "1 doblón"), ("es", 0, "0 doblones"), ("es", 5, "5 doblones"),
     ("es", 1_000_000, "1000000 doblones"),
     ("pt", 1, "1 dobrão"), ("pt", 0, "0 dobrões"), ("pt", 2, "2 dobrões")],
)
def test_counts_follow_cldr_plural_rules(lang: str, n: int, text: str) -> None:
    """Plurals come from CLDR through Babel, not hand-made singular keys (issue #9)."""
    assert PR_CATALOG.count(lang, "doubloons", n) == text


def test_counts_inside_messages_are_plural_aware() -> None:
    t = PR_CATALOG.t
    assert t("en", "table.role_bonus", role="Mayor", n=1) == "Mayor (+1 doubloon)"
    assert t("en", "table.role_bonus", role="Mayor", n=2) == "Mayor (+2 doubloons)"
    assert t("es", "table.role_bonus", role="Alcalde", n=1) == "Alcalde (+1 doblón)"
    assert t("en", "act.ship_effect", n=1, vp=1) == "1 barrel, +1 VP"
    assert "1 circle ·" in t("en", "help.building_facts", cost=1, vp=1, column=1, circles=1,
                              kind="x", copies=4)
    assert "1 círculo ·" in t("es", "help.building_facts", cost=1, vp=1, column=1, circles=1,
                               kind="x", copies=4)
    assert t("en", "log.ship_refilled", n=1) == "The colonist ship now carries 1 colonist."
    assert t("es", "log.ship_refilled", n=1) == "El barco de colonos lleva ahora 1 colono."
    assert t("es", "log.ship_refilled", n=3) == "El barco de colonos lleva ahora 3 colonos."


def test_lists_follow_the_language() -> None:
    assert CATALOG.join("en", ["alice", "bob", "carol"]) == "alice, bob, and carol"
    assert CATALOG.join("es", ["alice", "bob", "carol"]) == "alice, bob y carol"


UNCOUNTED = re.compile(
    r"\{(?!building|tile|good|role)[a-z_]+\} (doubloons?|barrels?|colonists?|circles?|hours?|"
    r"days?|votes?|seats?|players?|doblon(es)?|doblón|barril(es)?|colonos?|círculos?|horas?|días?|votos?|"
    r"asientos?|jugador(es)?|dobrão|dobrões|barris|lugar(es)?|jogador(es)?|"
    r"trabalhador(es)?|votos?)\b"
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_count_is_written_next_to_a_fixed_plural(lang: str) -> None:
    """"{n} doubloons" reads "1 doubloons": a count takes its unit (``{n:doubloons}``) or a
    plural message instead."""
    bad = []
    every = {k: v for p in presenters() for k, v in p.catalog.tables[lang].items()}
    for key, message in every.items():
        if isinstance(message, str) and UNCOUNTED.search(message):
            bad.append(key)
    assert bad == []


def test_the_check_catches_plural_mistakes() -> None:
    broken = Catalog({
        "en": {"a": {"$count": "n", "other": "{n} x"}, "b": "{n:nope}"},
        "es": {"a": {"$count": "n", "one": "{n} x", "few": "{n} y", "other": "{n} z"},
               "b": "{n:nope}"},
    })
    problems = broken.problems()
    assert "en: a lacks the plural form 'one'" in problems
    assert "es: a has plural forms es does not use: ['few']" in problems
    assert "en: b names the unknown unit nope" in problems


SECOND_PERSON = {
    "en": re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE),
    "es": re.compile(r"\b(?:tu|tus|te|ti|usted|tuyos?|tuyas?)\b|\w(?:ar|er|ir)te\b", re.IGNORECASE),
    "pt": re.compile(r"\b(?:seu|sua|seus|suas|você|voce|te|teu|tua)\b", re.IGNORECASE),
}


def test_what_a_prompt_asks_is_said_of_anyone() -> None:
    """Issue #33: a prompt's words are public ("Waiting for AI 4 (strong): move the guests"),
    shown on the table, in the story and in reminders as well as on the player's own panel, so
    they never speak in the second person, in any game or language."""
    for presenter in presenters():
        kinds = {key.removeprefix("prompt.") for table in presenter.catalog.tables.values()
                 for key in table if key.startswith("prompt.")}
        assert kinds, presenter.name
        for kind in sorted(kinds):
            for lang, pattern in SECOND_PERSON.items():
                text = presenter.prompt_text(kind, lang)
                assert not pattern.search(text), (presenter.name, kind, lang, text)
