"""``/game rules`` for Puerto Rico's expansions: a page for the Buccaneer (§12) and one for the
Festival (§13), in English and Spanish (the 2020 names: Piratería, Saqueo, Asalto, Captura;
Objetivo de Plantación, de Producción, de Construcción), reachable by typing their names, the
commands they name as the reader's client shows them; the overview points to them."""

from __future__ import annotations

import pytest

from bot.games import presenter_for
from bot.help import find_topic, help_text, topic_choices
from bot.i18n import LANGUAGES

PR = presenter_for("puerto-rico")
GAME = "puerto-rico"


def page(ident: str, lang: str) -> str:
    topic = next(t for t in PR.help_topics() if t.id == ident)
    return help_text(PR, topic, lang)


def test_the_expansions_have_their_topics_in_their_group() -> None:
    topics = {t.id: t for t in PR.help_topics()}
    assert topics["buccaneer"].group == topics["festival"].group == "module"
    assert PR.topic_name(topics["buccaneer"], "en") == "Expansion · The Buccaneer (Exp. 3)"
    assert PR.topic_name(topics["festival"], "es") == "Expansión · El Festival (Exp. 4)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_are_written_out(lang: str) -> None:
    for ident in ("buccaneer", "festival"):
        text = page(ident, lang)
        assert text.startswith("**") and "{" not in text and len(text) <= 2000, (lang, ident)


def test_the_buccaneer_page() -> None:
    en, es = page("buccaneer", "en"), page("buccaneer", "es")
    for word in (
        "**Piracy**",
        "**Plunder**",
        "**Raid**",
        "**Capture**",
        "up to 3",
        "3 doubloons",
        "/pr role",
        "/pr buccaneer",
        "/pr raid",
    ):
        assert word in en, word
    for word in (
        "**Piratería**",
        "**Saqueo**",
        "**Asalto**",
        "**Captura**",
        "ficha del Bucanero",
        "/pr personaje",
        "/pr bucanero",
        "/pr asalto",
    ):
        assert word in es, word
    assert "/pr buccaneer" not in es


def test_the_festival_page() -> None:
    en, es = page("festival", "en"), page("festival", "es")
    assert "**Plantation goal**" in en and "3 colonists" in en and "3 doubloons" in en
    assert "3 VP" in en
    for word in (
        "**Objetivo de Plantación**",
        "**Objetivo de Producción**",
        "**Objetivo de Construcción**",
        "3 colonos",
        "3 doblones",
        "3 PV",
    ):
        assert word in es, word


def test_typing_finds_them_and_the_overview_points_to_them() -> None:
    assert f"{GAME}:buccaneer" in [v for _, v in topic_choices("bucan", "es", first=GAME)]
    assert f"{GAME}:festival" in [v for _, v in topic_choices("festival", "en", first=GAME)]
    assert find_topic("El Festival (Exp. 4)", "es", first=GAME)[1].id == "festival"
    # nothing typed: the expansions' group shows among the others
    assert f"{GAME}:new_buildings" in [v for _, v in topic_choices("", "en", first=GAME)]
    overview = page("overview", "en")
    assert ("The New Buildings (Exp. 1), The Nobles (Exp. 2), The Buccaneer (Exp. 3), and "
            "The Festival (Exp. 4)") in overview
    assert ("Los Nuevos Edificios (Exp. 1), Los Nobles (Exp. 2), El Bucanero (Exp. 3) y "
            "El Festival (Exp. 4)") in page("overview", "es")
