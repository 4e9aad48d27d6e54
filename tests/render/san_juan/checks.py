"""The geometric checks of tests/render/helpers.py, plus San Juan's own regions: sibling cards
(buildings in an area, cards to read) must not overlap, and no text may straddle the edge of a
card, a role or a player's panel."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from render import theme as T
from render.scene import Box, Scene, Text
from tests.render.helpers import problems as generic_problems

I18N = Path(__file__).resolve().parents[3] / "bot" / "games" / "san_juan" / "i18n"
SPANISH: dict[str, str] = json.loads((I18N / "es.images.json").read_text(encoding="utf-8"))
LANGUAGES: dict[str, dict[str, str] | None] = {"en": None, "es": SPANISH}

SIBLINGS = [
    r"role:[a-z]+",
    r"player:\d+",
    r"player:(\d+):building:\d+",
    r"player:(\d+):(hand|drawn|vp|buildings|name|governor|to_act|done|you)",
    r"hand:[a-z_]+",
    r"drawn:\d+",
    r"gold_mine:\d+",
    r"trading_house:(indigo|sugar|tobacco|coffee|silver)",
    r"(draw_pile|discard_pile)",
    r"(title|status|trading_house|gold_mine|hand|drawn)",
]
CONTAINERS = [
    r"title", r"status", r"role:[a-z]+", r"player:\d+", r"player:\d+:building:\d+",
    r"hand:[a-z_]+", r"drawn:\d+", r"gold_mine:\d+", r"gold_mine", r"hand", r"drawn",
]


def problems(scene: Scene) -> list[str]:
    """Every layout rule the scene breaks (an empty list when it is clean): the generic
    checks (canvas, overlapping texts, sizes on a phone) and San Juan's regions."""
    out = generic_problems(scene)
    for pattern in SIBLINGS:
        group: dict[str, list[tuple[str, Box]]] = {}
        for key, box in scene.regions.items():
            match = re.fullmatch(pattern, key)
            if match:
                group.setdefault(match.group(1) if match.groups() else "", []).append((key, box))
        for members in group.values():
            for (ka, ra), (kb, rb) in itertools.combinations(members, 2):
                if ra.overlaps(rb):
                    out.append(f"regions overlap: {ka} {ra} / {kb} {rb}")
    for key, box in scene.regions.items():
        if any(re.fullmatch(p, key) for p in CONTAINERS):
            for text in scene.texts:
                if text.box.overlaps(box) and not box.contains(text.box):
                    out.append(f"text {text.text!r} {text.box} straddles {key} {box}")
    floor = 11 * scene.width / T.PHONE_WIDTH
    out += [f"under 11 px on a phone: {t.text!r}" for t in scene.texts if t.size < floor]
    return out


def texts_in(scene: Scene, key: str) -> list[Text]:
    box = scene.regions[key]
    return sorted((t for t in scene.texts if box.contains(t.box)),
                  key=lambda t: (t.box.y, t.box.x))


def words(scene: Scene, key: str) -> str:
    """The texts inside region ``key``, in reading order, joined by spaces."""
    return " ".join(t.text for t in texts_in(scene, key))


def all_words(scene: Scene) -> str:
    return " ".join(t.text for t in scene.texts)


def card_parts(scene: Scene, key: str) -> tuple[str, str, str, str]:
    """(name, cost, VP, the rest) of the card drawn in region ``key``: the cost and VP are the
    figures centred on the coin and the chip (left to right), the name the dark lines, the rest
    the muted ones (an effect, what a pile covers) and any other mark."""
    texts = texts_in(scene, key)
    figures = sorted((t for t in texts if t.anchor == "mm"), key=lambda t: t.box.x)
    lines = [t for t in texts if t.anchor != "mm"]
    name = " ".join(t.text for t in lines if t.fill == T.INK and t.anchor == "ls")
    rest = " ".join(t.text for t in lines if not (t.fill == T.INK and t.anchor == "ls"))
    cost, vp = (figures[0].text, figures[1].text) if len(figures) >= 2 else ("", "")
    return name, cost, vp, rest
