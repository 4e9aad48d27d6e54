"""Every role and building a game's engine can name in a player's favourites (``/game
stats``: ``engine.story.choices`` counts ``RoleChosen`` and ``BuildingBuilt`` by the engine's
ids) is worded by that game's presenter in every language, never shown as its id (issue #33:
1897's ``large_fruit_depot`` was shown as "large fruit depot" in Portuguese and Spanish).

The ids come from each engine's own tables, in the words its events speak (1897's through its
names at the contract's edge); every registered game has its list here."""

from __future__ import annotations

import pytest

from bot.games import PACKAGES, presenter_for
from bot.i18n import LANGUAGES
from engine.puerto_rico import data as classic
from engine.puerto_rico_1897 import names as edition
from engine.san_juan import data as san_juan

CLASSIC_BUILDINGS = [b.name for b in classic.BASE_BUILDINGS] + [
    b.name for group in classic.MODULE_BUILDINGS.values() for b in group]

CHOICES: dict[str, dict[str, list[str]]] = {
    "puerto-rico": {"role": list(classic.ALL_ROLES), "building": CLASSIC_BUILDINGS},
    "puerto-rico-1897": {"role": [edition.word(r) for r in classic.ALL_ROLES],
                         "building": [edition.word(b) for b in CLASSIC_BUILDINGS]},
    "san-juan": {"role": list(san_juan.ROLES), "building": [c.name for c in san_juan.CARDS]},
}


def test_every_registered_game_has_its_choices_listed() -> None:
    assert set(CHOICES) == set(PACKAGES)


@pytest.mark.parametrize("game", sorted(CHOICES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_choice_is_worded_by_its_game(game: str, lang: str) -> None:
    presenter = presenter_for(game)
    unworded = [(kind, name) for kind, names in CHOICES[game].items() for name in names
                if presenter.choice_name(kind, name, lang) == name.replace("_", " ")]
    assert not unworded, unworded


def test_1897_names_its_buildings_in_its_own_words() -> None:
    """1897's engine says ``large_fruit_depot`` for the kernel's ``indigo_plant``: the
    edition's catalog words it (Exp. I's ``park_administration`` too)."""
    presenter = presenter_for("puerto-rico-1897")
    assert presenter.choice_name("building", "large_fruit_depot", "pt") == (
        "Estoque grande de fruta")
    assert presenter.choice_name("building", "large_fruit_depot", "es") == (
        "Depósito grande de fruta")
    assert presenter.choice_name("building", "park_administration", "en") == (
        "Park administration")
    assert presenter.choice_name("role", "recruiter", "pt") == "Recrutador"
