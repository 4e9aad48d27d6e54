"""Fonts, loaded once: the bundled DejaVu Sans Condensed, regular and bold (files beside this
module, Bitstream Vera licence: see LICENSE here).

Text measurement lives here too, so that the layout and the rasterizer agree on every box.
Player names come from Discord and may hold anything: :func:`clean` normalizes them (NFC, so a
decomposed ``n + ~`` becomes ``ñ``) and drops characters the font cannot draw (emoji would
otherwise print as empty boxes).
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont
BBox = tuple[int, int, int, int]


_LOADED = threading.local()
"""Each thread's fonts: a FreeType face may be used by one thread at a time (FreeType's
documentation of ``FT_Face``), and the bot draws tables in several threads."""


def font(size: int, bold: bool = False) -> Font:
    """The bundled font at ``size`` pixels (cached: each thread loads a font once)."""
    loaded: dict[tuple[int, bool], Font] | None = getattr(_LOADED, "fonts", None)
    if loaded is None:
        loaded = _LOADED.fonts = {}
    found = loaded.get((size, bold))
    if found is None:
        found = loaded[size, bold] = ImageFont.truetype(str(BOLD if bold else REGULAR), size)
    return found


def _glyph_image(char: str, bold: bool) -> bytes:
    image = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(image).text((4, 4), char, font=font(32, bold), fill=255)
    return image.tobytes()


@lru_cache(maxsize=2)
def _notdef(bold: bool) -> bytes:
    # U+FFFF is a noncharacter: no font maps it, so this is the "missing glyph" box.
    return _glyph_image("\uffff", bold)


@lru_cache(maxsize=4096)
def has_glyph(char: str, bold: bool = False) -> bool:
    """Whether the font draws ``char`` (a single character) with a glyph of its own."""
    if char.isspace():
        return True
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return False
    return _glyph_image(char, bold) != _notdef(bold)


@lru_cache(maxsize=1024)
def clean(text: str, bold: bool = False) -> str:
    """``text`` ready to draw: NFC-normalized, one line, without characters the font lacks."""
    text = unicodedata.normalize("NFC", text)
    kept = [" " if ch.isspace() else ch for ch in text if ch.isspace() or has_glyph(ch, bold)]
    return " ".join("".join(kept).split())


@lru_cache(maxsize=8192)
def length(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels."""
    return float(font(size, bold).getlength(text))


@lru_cache(maxsize=8192)
def bbox(text: str, size: int, bold: bool = False, anchor: str = "la") -> BBox:
    """Ink box of ``text`` drawn at the origin with ``anchor`` (Pillow's anchor codes)."""
    left, top, right, bottom = font(size, bold).getbbox(text, anchor=anchor)
    return int(left), int(top), int(right), int(bottom)


def cap_height(size: int, bold: bool = False) -> int:
    """Height of a capital H at ``size``: the measure of "text height" used by the tests."""
    _, top, _, bottom = bbox("H", size, bold)
    return bottom - top


@dataclass(frozen=True, slots=True)
class Cut:
    """A text that did not fit: ``text`` whole, ``shown`` as drawn (lines joined by " / "),
    at ``size`` px (``bold``) in ``width`` px (a line's width: the narrowest of a wrap's).
    ``elsewhere``: the layout said the text is whole elsewhere (a player's name on a tag,
    named in full in the message the image goes with)."""

    text: str
    shown: str
    size: int
    bold: bool
    width: float
    elsewhere: bool = False


_CUTS: ContextVar[list[Cut] | None] = ContextVar("render_fonts_cuts", default=None)


@contextmanager
def recording_cuts() -> Iterator[list[Cut]]:
    """Every text :func:`fit` or :func:`wrap` shortens while the block runs (in this thread
    or task), in order: what the layout tests read to find a word cut where it should have
    wrapped, shrunk or been given room.  Drawing is the same with or without it."""
    cuts: list[Cut] = []
    token = _CUTS.set(cuts)
    try:
        yield cuts
    finally:
        _CUTS.reset(token)


def fit(text: str, size: int, bold: bool, max_width: float, *, elsewhere: bool = False) -> str:
    """``text`` itself when it fits in ``max_width`` pixels, else shortened with an ellipsis
    (``elsewhere``: the layout knows the text is whole elsewhere, see :class:`Cut`)."""
    out = _fit(text, size, bold, max_width)
    if out != text and (cuts := _CUTS.get()) is not None:
        cuts.append(Cut(text, out, size, bold, max_width, elsewhere))
    return out


def fits(text: str, size: int, bold: bool, max_width: float) -> bool:
    """Whether ``text`` fits in ``max_width`` pixels on one line (a layout's probe)."""
    return length(text, size, bold) <= max_width


@lru_cache(maxsize=4096)
def _fit(text: str, size: int, bold: bool, max_width: float) -> str:
    if length(text, size, bold) <= max_width:
        return text
    words = text
    while words and length(words.rstrip() + ELLIPSIS, size, bold) > max_width:
        words = words[:-1]
    return words.rstrip() + ELLIPSIS if words else ""


def fit_weight(text: str, size: int, max_width: float, *, elsewhere: bool = False
               ) -> tuple[str, bool]:
    """(text, bold): bold when it fits, else regular, else regular shortened."""
    if length(text, size, True) <= max_width:
        return text, True
    return fit(text, size, False, max_width, elsewhere=elsewhere), False


def wrap(text: str, size: int, bold: bool, widths: tuple[float, ...], *,
         elsewhere: bool = False) -> tuple[str, ...]:
    """``text`` on at most ``len(widths)`` lines, line ``i`` at most ``widths[i]`` pixels wide:
    broken between words (a word too long for its line is cut), the last line shortened with
    an ellipsis when the whole text does not fit.  Fewer lines when fewer are needed."""
    lines = _wrap(text, size, bold, widths)
    if not whole(lines, text) and (cuts := _CUTS.get()) is not None:
        cuts.append(Cut(text, " / ".join(lines), size, bold, min(widths, default=0.0),
                        elsewhere))
    return lines


def wraps(text: str, size: int, bold: bool, widths: tuple[float, ...], *,
          hyphens: bool = True) -> bool:
    """Whether ``text`` goes whole on lines of ``widths`` (a layout's probe); ``hyphens``
    false: without hyphenating a word."""
    lines = _wrap(text, size, bold, widths)
    if not hyphens:
        return " ".join(lines) == " ".join(text.split())
    return whole(lines, text)


def whole(lines: tuple[str, ...] | list[str], text: str) -> bool:
    """Whether ``lines`` (from :func:`wrap`) hold every letter of ``text``: no ellipsis, no
    word clipped (a word hyphenated across two lines is whole)."""
    joined = ""
    for line in lines:
        joined += line if not joined or joined.endswith("-") else f" {line}"
    return joined.replace("-", "") == " ".join(text.split()).replace("-", "")


def _vowel(char: str) -> bool:
    return unicodedata.normalize("NFD", char)[:1].lower() in ("a", "e", "i", "o", "u")


_CLUSTERS = ("ch", "lh", "nh", "ll", "rr", "qu", "gu")
"""Consonant pairs that begin a syllable together (besides a consonant before l or r)."""


def _syllable_break(word: str, i: int) -> bool:
    """Whether ``word`` may be hyphenated before ``word[i]``: after a hyphen of its own, or
    between syllables by the Spanish and Portuguese rule (V-CV, VC-CV, V-CCV with the pair
    starting a syllable); English words break at the same places well enough."""
    if i < 2 or i > len(word) - 2:
        return False
    before, at, after = word[i - 1], word[i], word[i + 1]
    if before == "-":
        return True
    if not (before.isalpha() and at.isalpha() and after.isalpha()) or _vowel(at):
        return False
    pair = (at + after).lower()
    starts_syllable = pair in _CLUSTERS or (after.lower() in "lr" and at.lower() in "bcdfgkptv")
    if _vowel(before):  # V-CV, or V-CCV when the two consonants start the syllable
        return _vowel(after) or (starts_syllable and i + 2 < len(word) and _vowel(word[i + 2]))
    pair_before = (before + at).lower()
    return (_vowel(word[i - 2]) and _vowel(after) and pair_before not in _CLUSTERS
            and not (at.lower() in "lr" and before.lower() in "bcdfgkptv"))


def _syllables(word: str, size: int, bold: bool, width: float) -> tuple[str, str] | None:
    """(head, rest) of ``word`` broken between syllables with a hyphen, the latest break whose
    head fits in ``width``; ``None`` when none does."""
    for i in range(len(word) - 2, 1, -1):
        if _syllable_break(word, i):
            head = word[:i] if word[i - 1] == "-" else word[:i] + "-"
            if length(head, size, bold) <= width:
                return head, word[i:]
    return None


def _hyphenate(word: str, size: int, bold: bool, width: float) -> tuple[str, str]:
    """(head, rest) of a word wider than its line: broken between syllables with a hyphen,
    else cut where the line ends."""
    broken = _syllables(word, size, bold, width)
    if broken is not None:
        return broken
    cut = word
    while len(cut) > 1 and length(cut, size, bold) > width:
        cut = cut[:-1]
    return cut, word[len(cut):]


@lru_cache(maxsize=4096)
def _wrap(text: str, size: int, bold: bool, widths: tuple[float, ...]) -> tuple[str, ...]:
    words = text.split()
    lines: list[str] = []
    for index, width in enumerate(widths):
        if not words:
            break
        if index == len(widths) - 1:
            lines.append(_fit(" ".join(words), size, bold, width))
            words = []
            break
        line = words[0]
        taken = 1
        while taken < len(words) and length(f"{line} {words[taken]}", size, bold) <= width:
            line = f"{line} {words[taken]}"
            taken += 1
        if taken < len(words) and length(words[taken], size, bold) > widths[index + 1]:
            # the next word is wider than the next line too: its first syllables end this one
            room = width - length(f"{line} ", size, bold)
            broken = _syllables(words[taken], size, bold, room)
            if broken is not None:
                line = f"{line} {broken[0]}"
                words[taken] = broken[1]
        if length(line, size, bold) > width:  # one word longer than the line: hyphenate it
            head, rest = _hyphenate(line, size, bold, width)
            words[0] = rest
            lines.append(head)
            continue
        lines.append(line)
        words = words[taken:]
    return tuple(line for line in lines if line)
