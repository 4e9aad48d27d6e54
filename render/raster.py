"""Scene -> Pillow image -> PNG bytes.

Speed comes from three caches, all bounded and safe to share between worker threads (a lost race
only computes the same value twice):

* the static layer: everything in ``scene.static`` is drawn once per distinct static list (in
  practice once per player count and label table: names and game data are all dynamic) and
  copied for each image (about 7 MB each, at most eight kept);
* sprites: rounded boxes, circles and polygons are drawn 4x larger and reduced, which smooths
  their edges, and kept by shape and size, so a barrel or a coin is drawn once;
* text masks: each (text, size, weight) is rendered once as an 8-bit mask and pasted in colour.

The PNG is written in palette mode against one fixed 256-colour palette (every theme colour
exactly, plus anti-aliasing shades), which makes it about a third of the RGB size and quick
to encode.  The PNG container is written here and its pixels deflated by ISA-L (``isal``),
several times faster than zlib at the same size (figures: docs/render.md).  The output is
deterministic: the same scene always gives the same bytes.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from functools import lru_cache
from threading import Lock
from typing import Generic, TypeVar

from isal import isal_zlib
from PIL import Image, ImageDraw

from . import fonts
from .games import renderer_for, renderer_names
from .scene import Box, Ellipse, Line, Polygon, Rect, Scene, Shape, Text
from .theme import Color, base_colors, blend

SUPERSAMPLE = 4
SPRITE_MAX_AREA = 160 * 160  # larger shapes are drawn in place (they live in the static layer)
PNG_COMPRESS_LEVEL = 1
"""ISA-L's level (0-3): 1 and 2 give zlib level 3's size; 3 is as slow as zlib."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A small least-recently-used cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


_LAYERS: LRU[tuple[int, int, Color, tuple[Shape, ...]], Image.Image] = LRU(8)
_SPRITES: LRU[tuple[object, ...], Image.Image] = LRU(4096)
_LARGE: LRU[tuple[object, ...], Image.Image] = LRU(16)
_MASKS: LRU[tuple[str, int, bool, str], tuple[Image.Image, int, int]] = LRU(8192)


def clear_caches() -> None:
    """Forget every cached layer, sprite and mask (for cold-start measurements)."""
    _LAYERS.clear()
    _SPRITES.clear()
    _LARGE.clear()
    _MASKS.clear()


# --- shapes -----------------------------------------------------------------------------------


def _draw_shape(draw: ImageDraw.ImageDraw, shape: Shape, dx: int, dy: int, k: int) -> None:
    """Draw ``shape`` shifted by ``(dx, dy)`` and scaled by ``k`` (for supersampled sprites)."""
    if isinstance(shape, Rect):
        b = shape.box
        xy = ((b.x + dx) * k, (b.y + dy) * k, (b.right + dx) * k - 1, (b.bottom + dy) * k - 1)
        if shape.radius:
            draw.rounded_rectangle(
                xy, shape.radius * k, fill=shape.fill, outline=shape.outline, width=shape.width * k
            )
        else:
            draw.rectangle(xy, fill=shape.fill, outline=shape.outline, width=shape.width * k)
    elif isinstance(shape, Ellipse):
        b = shape.box
        xy = ((b.x + dx) * k, (b.y + dy) * k, (b.right + dx) * k - 1, (b.bottom + dy) * k - 1)
        draw.ellipse(xy, fill=shape.fill, outline=shape.outline, width=shape.width * k)
    elif isinstance(shape, Polygon):
        points = [((x + dx) * k, (y + dy) * k) for x, y in shape.points]
        draw.polygon(points, fill=shape.fill, outline=shape.outline, width=shape.width * k)
    elif isinstance(shape, Line):
        points = [((x + dx) * k, (y + dy) * k) for x, y in shape.points]
        draw.line(points, fill=shape.fill, width=shape.width * k)


def _bounds(shape: Rect | Ellipse | Polygon) -> Box:
    if isinstance(shape, Polygon):
        xs = [x for x, _ in shape.points]
        ys = [y for _, y in shape.points]
        return Box(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    return shape.box


def _sprite(shape: Rect | Ellipse | Polygon, box: Box) -> Image.Image:
    """The shape drawn alone on a transparent tile of ``box`` size, with smooth edges."""
    if isinstance(shape, Polygon):
        key: tuple[object, ...] = (
            "polygon",
            tuple((x - box.x, y - box.y) for x, y in shape.points),
            shape.fill,
            shape.outline,
            shape.width,
        )
    elif isinstance(shape, Rect):
        key = ("rect", box.w, box.h, shape.fill, shape.outline, shape.width, shape.radius)
    else:
        key = ("ellipse", box.w, box.h, shape.fill, shape.outline, shape.width)
    cached = _SPRITES.get(key)
    if cached is not None:
        return cached
    k = SUPERSAMPLE
    big = Image.new("RGBA", (box.w * k, box.h * k), (0, 0, 0, 0))
    _draw_shape(ImageDraw.Draw(big), shape, -box.x, -box.y, k)
    sprite = big.resize((box.w, box.h), Image.Resampling.BOX)
    _SPRITES.put(key, sprite)
    return sprite


def _text_mask(text: Text) -> tuple[Image.Image, int, int]:
    key = (text.text, text.size, text.bold, text.anchor)
    cached = _MASKS.get(key)
    if cached is not None:
        return cached
    font = fonts.font(text.size, text.bold)
    left, top, right, bottom = font.getbbox(text.text, anchor=text.anchor)
    left, top = int(left), int(top)
    mask = Image.new("L", (max(int(right) - left, 1), max(int(bottom) - top, 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text.text, font=font, fill=255, anchor=text.anchor)
    value = (mask, left, top)
    _MASKS.put(key, value)
    return value


def draw_shapes(image: Image.Image, shapes: tuple[Shape, ...]) -> None:
    """Draw ``shapes`` in order onto the RGB ``image``."""
    draw = ImageDraw.Draw(image)
    for shape in shapes:
        if isinstance(shape, Text):
            mask, left, top = _text_mask(shape)
            x, y = shape.x + left, shape.y + top
            image.paste(shape.fill, (x, y, x + mask.width, y + mask.height), mask)
        elif isinstance(shape, Line) or (isinstance(shape, Rect) and not shape.radius):
            _draw_shape(draw, shape, 0, 0, 1)
        else:
            box = _bounds(shape)
            if box.w * box.h > SPRITE_MAX_AREA:
                _draw_large(image, shape, box)
            else:
                sprite = _sprite(shape, box)
                image.paste(sprite, (box.x, box.y), sprite)


def _draw_large(image: Image.Image, shape: Rect | Ellipse | Polygon, box: Box) -> None:
    """A big shape (a panel, or the frame around one), supersampled; kept in a smaller cache."""
    key = (
        (shape, box.w, box.h)
        if isinstance(shape, Polygon)
        else (
            shape.__class__,
            box.w,
            box.h,
            shape.fill,
            shape.outline,
            shape.width,
            getattr(shape, "radius", 0),
        )
    )
    small = _LARGE.get(key)
    if small is None:
        k = SUPERSAMPLE
        big = Image.new("RGBA", (box.w * k, box.h * k), (0, 0, 0, 0))
        _draw_shape(ImageDraw.Draw(big), shape, -box.x, -box.y, k)
        small = big.resize((box.w, box.h), Image.Resampling.BOX)
        _LARGE.put(key, small)
    image.paste(small, (box.x, box.y), small)


# --- layers and PNG ---------------------------------------------------------------------------


def _static_layer(scene: Scene) -> Image.Image:
    if not scene.static:  # a panel: drawn whole each time, nothing to keep (nor to evict)
        return Image.new("RGB", (scene.width, scene.height), scene.background)
    key = (scene.width, scene.height, scene.background, scene.static)
    layer = _LAYERS.get(key)
    if layer is None:
        layer = Image.new("RGB", (scene.width, scene.height), scene.background)
        draw_shapes(layer, scene.static)
        _LAYERS.put(key, layer)
    return layer


def rasterize(scene: Scene) -> Image.Image:
    """The scene as an RGB image (the cached static layer with the dynamic shapes on top)."""
    image = _static_layer(scene)
    if scene.static:
        image = image.copy()
    draw_shapes(image, scene.dynamic)
    return image


_PALETTES = threading.local()


def palette_image() -> Image.Image:
    """The fixed palette (:func:`_palette`), this thread's copy: quantizing against it fills
    and frees a lookup cache on the palette itself, which threads must not share."""
    image: Image.Image | None = getattr(_PALETTES, "image", None)
    if image is None:
        image = _PALETTES.image = _palette().copy()
    return image


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The fixed palette: every theme colour and every game's (its renderer's ``colors``)
    exactly, then shades between them for the anti-aliased edges (the blends reduced by an
    octree to the entries that are left)."""
    base = base_colors(renderer_for(name).colors for name in renderer_names())
    blends: list[Color] = []
    for i, a in enumerate(base):
        for b in base[i + 1 :]:
            blends.extend(blend(a, b, t) for t in (0.2, 0.4, 0.6, 0.8))
    swatch = Image.new("RGB", (len(blends), 1))
    swatch.putdata(blends)
    room = 256 - len(base)
    flat = swatch.quantize(colors=room, method=Image.Quantize.FASTOCTREE).getpalette() or []
    colors = list(base)
    for k in range(min(room, len(flat) // 3)):
        color = (flat[3 * k], flat[3 * k + 1], flat[3 * k + 2])
        if color not in colors:
            colors.append(color)
    colors = colors[:256]
    while len(colors) < 256:
        colors.append(colors[-1])
    image = Image.new("P", (1, 1))
    image.putpalette([c for color in colors for c in color])
    return image


def _chunk(tag: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(tag))
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


@lru_cache(maxsize=1)
def _palette_chunk() -> bytes:
    return _chunk(b"PLTE", bytes((_palette().getpalette() or [])[: 3 * 256]))


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of an RGB image, in palette mode against the fixed theme palette.

    8-bit indexed colour, every row with filter type 0 (none: the filters help photographs,
    not flat boards), one IDAT chunk."""
    indexed = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    width, height = indexed.size
    # Each scanline starts with its filter byte (0): the image one pixel wider, with the
    # first column at index 0, is exactly the filtered data.
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(indexed, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    pixels = isal_zlib.compress(framed.tobytes(), PNG_COMPRESS_LEVEL)
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _palette_chunk(),
            _chunk(b"IDAT", pixels),
            _chunk(b"IEND", b""),
        )
    )


def render_png(scene: Scene) -> bytes:
    return to_png(rasterize(scene))
