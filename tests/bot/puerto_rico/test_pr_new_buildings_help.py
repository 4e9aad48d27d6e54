"""``/game rules`` for Puerto Rico's Exp. 1 (rules spec §10): a page for each of its 14
buildings in the groups of the base game's (their printed numbers from the engine's building
table, since a building is in a game only if drafted), a page for the module, the draft and the
forests; English and Spanish (the 2020 names), the commands as the reader's client shows
them, reachable by typing their names."""

from __future__ import annotations

import pytest

from bot.games import presenter_for
from bot.games.puerto_rico.help import EXP1_BUILDINGS, EXP1_TOPICS
from bot.help import find_topic, help_text, topic_choices
from bot.i18n import LANGUAGES
from engine.puerto_rico.data import NEW_BUILDINGS

PR = presenter_for("puerto-rico")
GAME = "puerto-rico"
SPANISH = {"aqueduct": "Acueducto", "forest_house": "Casa forestal",
           "black_market": "Mercado negro", "storehouse": "Depósito", "guest_house": "Posada",
           "church": "Iglesia", "trading_post": "Puesto de comercio",
           "small_wharf": "Embarcadero pequeño", "lighthouse": "Faro", "library": "Biblioteca",
           "specialty_factory": "Fábrica de especialidades", "union_hall": "Salón gremial",
           "cloister": "Monasterio", "statue": "Estatua"}


def page(ident: str, lang: str) -> str:
    topic = next(t for t in PR.help_topics() if t.id == ident)
    return help_text(PR, topic, lang)


def test_every_new_building_has_its_page_in_its_group() -> None:
    topics = {t.id: t for t in PR.help_topics()}
    assert set(EXP1_BUILDINGS) == {b.name for b in NEW_BUILDINGS} == set(SPANISH)
    for name in EXP1_BUILDINGS:
        group = "large" if name in ("cloister", "statue") else "building"
        assert topics[name].group == group, name
    assert topics["new_buildings"].group == topics["draft"].group == "module"
    assert PR.topic_name(topics["forest_house"], "en") == "Building · Forest house"
    assert PR.topic_name(topics["cloister"], "es") == "Edificio grande · Monasterio"
    assert PR.topic_name(topics["draft"], "en") == "Expansion · The building draft (Exp. 1)"
    assert PR.topic_name(topics["new_buildings"], "es") == (
        "Expansión · Los Nuevos Edificios (Exp. 1)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_are_written_out(lang: str) -> None:
    for ident in (*EXP1_BUILDINGS, *EXP1_TOPICS, "new_buildings"):
        text = page(ident, lang)
        assert text.startswith("**") and "{" not in text and len(text) <= 2000, (lang, ident)
    for name, spanish in SPANISH.items():
        assert page(name, "es").startswith(f"**{spanish}** · coste "), name


def test_the_building_pages_show_the_printed_numbers() -> None:
    assert page("church", "en") == (
        "**Church** · cost 5 · 2 VP · column 2 · 1 circle · violet building · Exp. 1: in the "
        "game only if drafted\nOccupied: when you build, 1 VP for a building of column 2 or 3, "
        "2 VP for a large building.")
    assert page("statue", "en").startswith(
        "**Statue** · cost 10 · 8 VP · column 4 · 0 circles · large violet building")
    assert page("guest_house", "es").startswith("**Posada** · coste 4 · 2 PV · columna 2 · "
                                                "2 círculos")


def test_the_module_draft_and_forest_pages() -> None:
    en, es = page("new_buildings", "en"), page("new_buildings", "es")
    for word in ("/pr draft", "/pr guest", "/pr settle", "/pr build", "**draft**"):
        assert word in en, word
    for word in ("/pr elegir", "/pr huesped", "/pr colonizar", "**eligen**"):
        assert word in es, word
    draft = page("draft", "en")
    assert "17: cost 1 ×1, 2 ×2" in draft and "/pr draft" in draft
    forests = page("forests", "es")
    assert "**1 doblón menos por cada 2 bosques**" in forests and "Monasterio" in forests


def test_typing_finds_them() -> None:
    assert f"{GAME}:forest_house" in [v for _, v in topic_choices("casa fore", "es", first=GAME)]
    assert f"{GAME}:draft" in [v for _, v in topic_choices("draft", "en", first=GAME)]
    assert find_topic("Monasterio", "es", first=GAME)[1].id == "cloister"
    overview = page("overview", "en")
    assert "The New Buildings (Exp. 1)" in overview
