"""Issue #9: ``/game rules`` offers every topic although there are more than Discord's 25
choices (filtered by what is typed, grouped, the channel's game first), and every command the
texts name is named as the reader's client shows it (``/pr personaje`` in Spanish), clickable
when its id is known."""

from __future__ import annotations

import re

import pytest

from bot.games import presenter_for, presenters
from bot.games.puerto_rico.catalog import CATALOG
from bot.help import command, find_topic, help_text, topic_choices, topic_name
from bot.i18n import LANGUAGES

COMMAND = re.compile(r"<?/(?:pr|partida|game) (\w+)")
PR = presenter_for("puerto-rico")
GAME = "puerto-rico"


def name(ident: str, lang: str) -> str:
    found = next(t for t in PR.help_topics() if t.id == ident)
    return topic_name(PR, found, lang, titled=len(presenters()) > 1)


def test_typing_har_offers_the_harbor() -> None:
    assert (name("harbor", "en"), f"{GAME}:harbor") in topic_choices("har", "en", first=GAME)
    assert (name("harbor", "es"), f"{GAME}:harbor") in topic_choices("puer", "es", first=GAME)
    assert (name("builder", "en"), f"{GAME}:builder") in topic_choices("role", "en", first=GAME)
    assert name("harbor", "en").endswith("Building · Harbor")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_empty_input_offers_the_first_topics_of_every_group(lang: str) -> None:
    offered = [value for _, value in topic_choices("", lang, first=GAME)]
    assert len(PR.help_topics()) > 25 and len(offered) == 25
    for first in ("overview", "settler", "small_indigo_plant", "small_market", "guild_hall"):
        assert f"{GAME}:{first}" in offered
    assert offered[0] == f"{GAME}:overview" and offered[1] == f"{GAME}:settler"  # in order


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_is_reachable_by_typing_its_name(lang: str) -> None:
    for found in PR.help_topics():
        full = name(found.id, lang)
        assert len(full) <= 100
        typed = full.split(" · ")[-1]
        offered = topic_choices(typed, lang, first=GAME)
        assert (full, f"{GAME}:{found.id}") in offered and len(offered) <= 25, (lang, found)
        _, topic, named = find_topic(typed, lang, first=GAME)
        assert named and (topic.id == found.id or len(offered) > 1), (lang, found)
        assert find_topic(f"{GAME}:{found.id}", lang)[1] == found


def test_accents_and_hand_typed_names() -> None:
    assert (name("small_indigo_plant", "es"), f"{GAME}:small_indigo_plant") in topic_choices(
        "anileria peq", "es", first=GAME)
    assert find_topic("Puerto", "es", first=GAME)[1].id == "harbor"
    assert find_topic("city hall", "en", first=GAME)[1].id == "city_hall"
    assert find_topic("nonsense", "en", first=GAME)[1:] == (PR.help_topics()[0], False)
    assert find_topic(None, "en", first=GAME)[1].id == "overview"


def spanish_names() -> set[str]:
    return {str(CATALOG.t("es", k)) for k in CATALOG.tables["es"]
            if k.startswith("cmd.") and k.endswith(".name")}


def test_every_command_named_in_spanish_is_the_spanish_name() -> None:
    names = spanish_names()
    english = {str(CATALOG.t("en", k)) for k in CATALOG.tables["en"]
               if k.startswith("cmd.") and k.endswith(".name")} - names
    assert {"personaje", "construir", "reglas"} <= names and "role" in english
    texts = [v for v in CATALOG.tables["es"].values() if isinstance(v, str)]
    texts += [help_text(PR, found, "es") for found in PR.help_topics()]
    named = [n for text in texts for n in COMMAND.findall(text)]
    assert len(named) >= 10
    assert [n for n in named if n not in names] == []
    overview = help_text(PR, PR.help_topics()[0], "es")
    assert "/pr personaje" in overview and "/partida reglas tema:" in overview
    assert "/pr role" not in overview
    assert "/pr role" in help_text(PR, PR.help_topics()[0], "en")


def test_command_mentions_are_clickable_when_the_id_is_known() -> None:
    assert command("pr", "role", "es", CATALOG) == "/pr personaje"
    assert command("pr", "role", "es", CATALOG, 42) == "</pr personaje:42>"
    assert "</game rules:42>" in help_text(PR, PR.help_topics()[0], "en", {"game": 42})
    assert "</pr build:7>" in help_text(PR, PR.help_topics()[0], "en", {"pr": 7})
