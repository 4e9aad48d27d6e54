"""``/game rules`` for Puerto Rico's Exp. 2, the Nobles (rules spec §11, rulings A19-A21,
A40-A44, A54): a page for the module (what a noble is, where it goes, the Villa, the changed end
and scoring, the 2-player setup of A20) and one for each of its 8 buildings in the groups of the
base game's, with their printed numbers and copies from the engine (A21), their timing and how
they are played on Discord; English and Spanish (the 2020 names), the commands as the reader's
client shows them, reachable by typing their names, within Discord's limits."""

from __future__ import annotations

import pytest

from bot.games import presenter_for
from bot.games.puerto_rico.help import EXP2_BUILDINGS, MODULE_TOPICS
from bot.help import find_topic, help_text, topic_choices
from bot.i18n import LANGUAGES
from engine.puerto_rico.data import NOBLES_BUILDINGS

PR = presenter_for("puerto-rico")
GAME = "puerto-rico"
SPANISH = {
    "land_office": "Registro",
    "chapel": "Capilla",
    "hunting_lodge": "Refugio de caza",
    "zoning_office": "Oficina de zonificación",
    "royal_supplier": "Proveedor real",
    "villa": "Villa",
    "jeweler": "Joyero",
    "royal_garden": "Jardín real",
}
DISCORD_MESSAGE = 2000


def page(ident: str, lang: str) -> str:
    topic = next(t for t in PR.help_topics() if t.id == ident)
    return help_text(PR, topic, lang)


def test_every_nobles_building_has_its_page_in_its_group() -> None:
    topics = {t.id: t for t in PR.help_topics()}
    assert set(EXP2_BUILDINGS) == {b.name for b in NOBLES_BUILDINGS} == set(SPANISH)
    assert "nobles" in MODULE_TOPICS and topics["nobles"].group == "module"
    groups = {name: topics[name].group for name in EXP2_BUILDINGS}
    assert groups == {
        "land_office": "building",
        "chapel": "building",
        "hunting_lodge": "building",
        "zoning_office": "building",
        "royal_supplier": "building",
        "villa": "building",
        "jeweler": "production",  # a production building, large for the Guild hall
        "royal_garden": "large",
    }
    assert PR.topic_name(topics["nobles"], "en") == "Expansion · The Nobles (Exp. 2)"
    assert PR.topic_name(topics["nobles"], "es") == "Expansión · Los Nobles (Exp. 2)"
    assert PR.topic_name(topics["land_office"], "es") == "Edificio · Registro"
    assert PR.topic_name(topics["royal_garden"], "en") == "Large building · Royal garden"
    assert [t.id for t in PR.help_topics()].count("nobles") == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_are_written_out(lang: str) -> None:
    for ident in (*EXP2_BUILDINGS, "nobles"):
        text = page(ident, lang)
        assert text.startswith("**") and "{" not in text and "}" not in text, (lang, ident)
        assert len(text) <= DISCORD_MESSAGE, (lang, ident, len(text))
        assert "_" not in text.replace("**", ""), (lang, ident)  # no id leaks
    for name, spanish in SPANISH.items():
        assert page(name, "es").startswith(f"**{spanish}** · coste "), name


def test_the_building_pages_show_the_printed_numbers_and_copies() -> None:
    """A21 without Exp. 1: 2 copies of each small building (1 with 2 players), 2 Jewelers at
    any count (a production building), 1 Royal garden."""
    assert page("land_office", "en").startswith(
        "**Land office** · cost 2 · 1 VP · column 1 · 1 circle · violet building · Exp. 2: "
        "2 copies in the market (1 with 2 players)\nIn the Trader phase, on your turn: with a "
        "colonist, pay 1 doubloon for the top face-down plantation"
    )
    assert page("jeweler", "en").startswith(
        "**Jeweler** · cost 8 · 3 VP · column 3 · 1 circle · large production building · "
        "Exp. 2: 2 copies in the market\n"
    )
    assert page("royal_garden", "es").startswith(
        "**Jardín real** · coste 10 · 4 PV · columna 4 · 1 círculo · edificio violeta grande "
        "(2 espacios de ciudad) · Exp. 2: 1 copia en el mercado\n"
    )
    villa = page("villa", "es")
    assert "**Villa** · coste 7 · 3 PV · columna 3" in villa
    assert "tras el privilegio del Alcalde y antes de repartir las piezas del barco" in villa


def test_each_building_page_says_its_moment_and_how_to_play_it() -> None:
    """A40-A44: the Hunting lodge after the Settler phase (a tie gives nothing), the Land
    office on the Trader turn before the sale, the Royal supplier before the first Captain
    turn with no other bonus; and the command that answers each."""
    lodge = page("hunting_lodge", "en")
    assert "a tie for the most gives nobody anything" in lodge and "/pr take" in lodge
    office = page("land_office", "en")
    assert "Once per Trader phase, on your Trader turn and before your sale" in office
    assert "/pr sell" in office and "no Market bonus" in office
    supplier = page("royal_supplier", "es")
    assert "ni Puerto, ni Faro, ni privilegio del Capitán" in supplier and "/pr tomar" in supplier
    assert "Discord" in page("chapel", "en") and "noble or a colonist" in page("chapel", "en")


def test_the_module_page() -> None:
    """§11.1: what a noble is and where it goes (A19), the ship's noble, the 2-player setup
    (A20), the Villa, no end by colonists, 1 VP per noble with San Juan (A54), the buildings on
    the board (A21), and the commands."""
    en, es = page("nobles", "en"), page("nobles", "es")
    assert en.startswith("**The Nobles (Exp. 2)**\n**20 nobles** join the colonists")
    for words in (
        "N − 1 colonists and 1 noble",
        "**2 players**: 40 colonists in the supply, the ship starts with 1 colonist and 1 noble",
        "each taker chooses the noble or a colonist",
        "The Mayor's privilege, the Hospice and the University give colonists only",
        "**Villa**",
        "running out of colonists no longer ends the game",
        "San Juan included, is worth **1 VP**",
        "red spaces",
        "/pr take",
        "/pr place",
        "/pr sell",
    ):
        assert words in en, words
    for words in (
        "**2 jugadores**",
        "/pr tomar",
        "/pr colocar",
        "/pr vender",
        "**1 PV**",
        "Registro, Capilla, Refugio de caza, Oficina de zonificación",
    ):
        assert words in es, words


def test_typing_finds_them() -> None:
    assert f"{GAME}:land_office" in [v for _, v in topic_choices("registro", "es", first=GAME)]
    assert f"{GAME}:nobles" in [v for _, v in topic_choices("nobles", "en", first=GAME)]
    assert find_topic("Jardín real", "es", first=GAME)[1].id == "royal_garden"
    assert find_topic("Hunting lodge", "en", first=GAME)[1].id == "hunting_lodge"
    assert find_topic("Los Nobles (Exp. 2)", "es", first=GAME)[1].id == "nobles"
