"""Fonts, names and labels: accented letters render, emoji degrade gracefully, words come from
a label table that the bot can override."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import fonts, layout_table
from render.labels import Labels, seat_names
from render.puerto_rico.labels import ENGLISH
from tests.render.helpers import positions

ACCENTS = "áéíóúñçãÁÉÍÓÚÑÇÃüöëïâêôàèÿ"


def _ink(text: str, bold: bool) -> bytes:
    image = Image.new("L", (80, 60), 0)
    ImageDraw.Draw(image).text((10, 10), text, font=fonts.font(32, bold), fill=255)
    return image.tobytes()


@pytest.mark.parametrize("bold", [False, True])
def test_the_bundled_font_has_every_accented_letter(bold: bool) -> None:
    """á é í ó ú ñ ç ã (and their capitals) are real glyphs, each drawn differently from its
    bare letter, in both weights."""
    for char in ACCENTS:
        assert fonts.has_glyph(char, bold), char
    for accented, bare in zip("áéíóúñçã", "aeiouncа"[:7] + "a", strict=True):
        assert _ink(accented, bold) != _ink(bare, bold), accented


def test_the_fonts_are_bundled_with_their_licence() -> None:
    assert fonts.REGULAR.is_file() and fonts.BOLD.is_file()
    assert "Bitstream" in (fonts.FONT_DIR / "LICENSE").read_text(encoding="utf-8")


def test_names_are_normalized_and_emoji_dropped() -> None:
    """Decomposed accents are composed (NFC); characters the font lacks are dropped; an empty
    result falls back to "Seat N"."""
    assert fonts.clean("N\u0303un\u0303ez") == "Ñuñez"
    assert fonts.clean("Ana 🎲  la\tgrande") == "Ana la grande"
    assert not fonts.has_glyph("🎲")
    names = seat_names(4, ["Zoë", "🎲🎲", "", "  Çã  "], Labels())
    assert names == ["Zoë", "Seat 2", "Seat 3", "Çã"]
    assert seat_names(3, {1: "Bea"}, Labels()) == ["Seat 1", "Bea", "Seat 3"]


def test_long_text_is_shortened_with_an_ellipsis() -> None:
    text = fonts.fit("Maximilian von Habsburg-Lothringen", 26, True, 150)
    assert text.endswith("…") and fonts.length(text, 26, True) <= 150


def test_labels_can_be_localized() -> None:
    """The bot passes its own words (Spanish here); unknown keys fall back to English, then to
    the id made readable."""
    spanish = {
        "role.captain": "Capitán",
        "role.settler": "Colono",
        "building.harbor": "Puerto",
        "phase.role_selection": "Elección de rol",
        "ui.round": "Ronda {n}",
    }
    labels = Labels(spanish, ENGLISH)
    assert labels.role("captain") == "Capitán"
    assert labels.role("mayor") == "Mayor"
    assert labels("nothing.like_this") == "like this"
    game = positions(4)[1][1]
    scene = layout_table(game.view(), labels=spanish, names=["Núñez", "Çelik", "Ñandú", "Ana"])
    words = {t.text for t in scene.texts}
    assert {"Capitán", "Colono", "Puerto", "Núñez"} <= words
    assert any(w.startswith("Ronda ") for w in words)
    for word in words:
        assert all(fonts.has_glyph(c) or c.isspace() for c in word), word


def test_every_english_label_is_drawable() -> None:
    for key, text in ENGLISH.items():
        assert all(fonts.has_glyph(c) or c.isspace() or c in "{}" for c in text), key
