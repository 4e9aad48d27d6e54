"""Issue #9: ``/pr rules`` offers every topic although there are more than Discord's 25
choices (filtered by what is typed, grouped), and every command the texts name is named as the
reader's client shows it (``/pr personaje`` in Spanish), clickable when its id is known."""

from __future__ import annotations

import re

import pytest

from bot.help import HELP_TOPICS, command, find_topic, help_text, topic_choices, topic_name
from bot.i18n import CATALOG, LANGUAGES

COMMAND = re.compile(r"<?/pr ([^\W_]+|[a-z_]+)")


def test_typing_har_offers_the_harbor() -> None:
    assert ("Building · Harbor", "harbor") in topic_choices("har", "en")
    assert ("Edificio · Puerto", "harbor") in topic_choices("puer", "es")
    assert ("Role · Builder", "builder") in topic_choices("role", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_empty_input_offers_the_first_topics_of_every_group(lang: str) -> None:
    offered = [topic for _, topic in topic_choices("", lang)]
    assert len(HELP_TOPICS) > 25 and len(offered) == 25
    for first in ("overview", "settler", "small_indigo_plant", "small_market", "guild_hall"):
        assert first in offered
    assert offered[0] == "overview" and offered[1] == "settler"  # grouped, in order


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_is_reachable_by_typing_its_name(lang: str) -> None:
    for topic in HELP_TOPICS:
        name = topic_name(topic, lang)
        assert len(name) <= 100
        typed = name.split(" · ")[-1]
        offered = topic_choices(typed, lang)
        assert (name, topic) in offered and len(offered) <= 25, (lang, topic, offered)
        assert find_topic(typed, lang) == topic or len(offered) > 1, (lang, topic)
        assert find_topic(topic, lang) == topic


def test_accents_and_hand_typed_names() -> None:
    assert ("Producción · Añilería pequeña", "small_indigo_plant") in topic_choices(
        "anileria peq", "es")
    assert find_topic("Puerto", "es") == "harbor"
    assert find_topic("city hall", "en") == "city_hall"
    assert find_topic("nonsense", "en") == "overview"
    assert find_topic(None, "en") == "overview"


def spanish_names() -> set[str]:
    return {str(CATALOG.t("es", k)) for k in CATALOG.tables["es"]
            if k.startswith("cmd.") and k.endswith(".name")}


def test_every_command_named_in_spanish_is_the_spanish_name() -> None:
    names = spanish_names()
    english = {str(CATALOG.t("en", k)) for k in CATALOG.tables["en"]
               if k.startswith("cmd.") and k.endswith(".name")} - names
    assert {"personaje", "construir", "reglas"} <= names and "role" in english
    texts = [v for v in CATALOG.tables["es"].values() if isinstance(v, str)]
    texts += [help_text(topic, "es") for topic in HELP_TOPICS]
    named = [n for text in texts for n in COMMAND.findall(text)]
    assert len(named) >= 10
    assert [n for n in named if n not in names] == []
    overview = help_text("overview", "es")
    assert "/pr personaje" in overview and "/pr reglas tema:" in overview
    assert "/pr role" not in overview
    assert "/pr role" in help_text("overview", "en")


def test_command_mentions_are_clickable_when_the_id_is_known() -> None:
    assert command("role", "es") == "/pr personaje"
    assert command("role", "es", pr_id=42) == "</pr personaje:42>"
    assert "</pr build:42>" in help_text("overview", "en", pr_id=42)
