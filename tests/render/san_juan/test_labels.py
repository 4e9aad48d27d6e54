"""San Juan's words on images: the bot's English and Spanish files hold exactly the renderer's
keys; the Spanish names are the seed's (rules §1); every word fits where it is drawn."""

from __future__ import annotations

import json
import string

import pytest

from engine.san_juan.view import SanJuanView
from render import layout_table
from render.san_juan.cards import GOODS, KINDS
from render.san_juan.labels import ENGLISH
from tests.render.san_juan import fixtures as F
from tests.render.san_juan.checks import I18N, LANGUAGES, SPANISH, card_parts, problems, words

ROLES = ("builder", "producer", "trader", "councillor", "prospector")
PHASES = ("variant_keep", "chapel", "hand_limit", "role", "builder", "producer", "trader",
          "councillor", "prospector", "over")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_english_file_is_the_renderer_s_table() -> None:
    english = json.loads((I18N / "en.images.json").read_text(encoding="utf-8"))
    assert english == ENGLISH


def test_the_spanish_file_has_the_same_keys_and_fields() -> None:
    assert list(SPANISH) == list(ENGLISH)
    for key, text in ENGLISH.items():
        assert _fields(SPANISH[key]) == _fields(text), key
        assert SPANISH[key].strip(), key


def test_every_card_role_good_and_phase_has_its_words() -> None:
    for kind in KINDS:
        assert f"card.{kind}" in ENGLISH and f"effect.{kind}" in ENGLISH
    for role in ROLES:
        assert f"role.{role}" in ENGLISH and f"privilege.{role}" in ENGLISH
    for good in GOODS:
        assert f"good.{good}" in ENGLISH
    for phase in PHASES:
        assert f"phase.{phase}" in ENGLISH


@pytest.mark.parametrize(("key", "spanish"), [
    ("card.smithy", "Herrería"),
    ("card.gold_mine", "Mina de oro"),
    ("card.indigo_plant", "Añilería"),
    ("card.market_hall", "Mercado cubierto"),
    ("card.guild_hall", "Cofradía"),
    ("role.builder", "Constructor"),
    ("role.producer", "Capataz"),
    ("role.trader", "Mercader"),
    ("role.councillor", "Alcalde"),
    ("role.prospector", "Buscador de oro"),
    ("ui.governor", "Gobernador"),
])
def test_spanish_uses_the_seed_s_names(key: str, spanish: str) -> None:
    """Rules §1.1 and §1.2: the Spanish names of the seed."""
    assert SPANISH[key] == spanish


def _every_kind_built() -> SanJuanView:
    """Three areas holding the 29 kinds between them, none covered."""
    view = F.crowded(3)
    kinds = list(KINDS)
    for seat in view["seats"]:
        mine, kinds = kinds[:12], kinds[12:]
        seat["buildings"] = [F.building(k) for k in mine]
        seat["building_count"] = len(mine)
    return view


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_name_fits_on_its_building_and_every_role_on_its_card(language: str) -> None:
    """A building in an area shows its whole name (its short name only where the whole one
    does not fit in two lines); a role card its whole name and privilege."""
    labels = LANGUAGES[language]
    lb = labels or ENGLISH
    view = _every_kind_built()
    scene = layout_table(view, labels=labels)
    assert problems(scene) == []
    for seat in view["seats"]:
        for i, building in enumerate(seat["buildings"]):
            kind = building["card"]
            name = card_parts(scene, f"player:{seat['seat']}:building:{i}")[0]
            assert name in (lb[f"card.{kind}"], lb.get(f"short.{kind}")), (kind, name)
            assert "…" not in name
    for role in ROLES:
        text = words(scene, f"role:{role}")
        assert "…" not in text
        assert " ".join(text.split()).startswith(" ".join(lb[f"role.{role}"].split()))
