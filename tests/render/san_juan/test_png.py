"""San Juan's PNGs: valid palette images within the size budget, deterministic, and blind to
what the view does not hold (no card of a hand on the public table)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import layout_panel, layout_table, render_panel, render_png, render_table
from render.raster import clear_caches
from render.san_juan.cards import KINDS
from render.san_juan.labels import ENGLISH
from tests.render.san_juan import fixtures as F
from tests.render.san_juan.checks import SPANISH, all_words

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BUDGET = 400_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables_and_panels_decode_and_stay_within_budget(players: int) -> None:
    """Palette PNGs of the scene's size, under 400 KB: the crowded public table, the biggest
    seat table (19 cards) and panel."""
    scenes = [layout_table(F.crowded(players), names=F.LONG_NAMES[:players]),
              layout_table(F.crowded(players, 0)),
              layout_panel(F.crowded(players, 0), 0),
              layout_panel(F.every_kind(0), 0, labels=SPANISH)]
    for scene in scenes:
        png = render_png(scene)
        assert png.startswith(PNG_SIGNATURE)
        Image.open(io.BytesIO(png)).verify()
        image = Image.open(io.BytesIO(png))
        assert image.mode == "P" and image.size == (scene.width, scene.height)
        assert len(png) < BUDGET


def test_same_view_same_bytes_cold_or_warm() -> None:
    view = F.crowded(4)
    clear_caches()
    cold = render_table(view)
    assert render_table(view) == cold
    assert render_panel(F.crowded(4, 2)) == render_panel(F.crowded(4, 2))


def _names(labels: dict[str, str], kinds: tuple[str, ...]) -> list[str]:
    return [labels[f"card.{k}"] for k in kinds]


@pytest.mark.parametrize("labels", [ENGLISH, SPANISH])
def test_no_text_of_a_public_table_names_a_card_only_in_a_hand(labels: dict[str, str]) -> None:
    """§3.4: the contents of a hand are the owner's only.  Seat 0 holds six kinds that no
    area, Gold mine or other hand shows: its own table names every one, the public table and every
    other seat's table and panel name none (nor their effects)."""
    own = all_words(layout_table(F.crowded(4, 0), labels=labels))
    secret = _names(labels, F.HAND_ONLY)
    assert all(name in own for name in secret)
    others = [layout_table(F.crowded(4), labels=labels)]
    others += [layout_table(F.crowded(4, s), labels=labels) for s in (1, 2, 3)]
    others += [layout_panel(F.crowded(4, s), s, focus, labels=labels)
               for s in (1, 2, 3) for focus in ("hand", "roles", "gold_mine")]
    for scene in others:
        text = all_words(scene)
        for kind, name in zip(F.HAND_ONLY, secret, strict=True):
            assert name not in text, name
            assert labels[f"effect.{kind}"] not in text, kind


def test_the_public_table_draws_nothing_a_public_view_lacks() -> None:
    """A public view carries hand counts, never hands: a hand or drawn cards slipped into it
    by mistake are not drawn (only a seat's view gets a hand section)."""
    view = F.crowded(3)
    leaky = dict(view, hand=sorted(KINDS), drawn=["palace"])
    assert render_table(leaky) == render_table(view)
