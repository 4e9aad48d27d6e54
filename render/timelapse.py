"""A finished game's boards (one PNG per phase end) -> one animated image for Discord.

Discord takes one upload per message up to the guild's ``filesize_limit``, and a phone shows it
about ``PHONE_WIDTH`` (550) pixels wide, so the boards are scaled once to ``width`` (640 by
default, a little more than a phone shows, so it stays sharp when opened) and played as one
animation: each board ``frame_ms``, the final board ``last_ms`` so the result can be read
before the loop starts again.

The frames share one palette and are written as lossless animated WebP (smaller than lossy and
pixel-exact; a GIF where Pillow lacks WebP); identical consecutive boards are shown once; an
image too big for ``limit`` steps down the same way every time (:data:`WEBP_STEPS`, then the
width by :data:`SHRINK`, then every other frame), so the same boards give the same bytes.  Why
each choice, with the sizes and times measured: docs/render.md, "The time-lapse".

Pure and synchronous: the caller runs it off the event loop (a worker thread or process).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, features

from . import theme as T

MIN_WIDTH = 320
"""The narrowest the step-down goes: there a board's smallest text (``TEXT_MIN``, 20 px) is
6 px, a thumbnail still worth opening and zooming; narrower would be a blur."""
SHRINK = 0.8
"""Each width step: about two thirds of the pixels, so about two thirds of the bytes."""


@dataclass(frozen=True)
class WebpStep:
    """One WebP encoding: ``quality`` is the effort for lossless, the fidelity for lossy."""

    lossless: bool
    quality: int
    method: int


WEBP_STEPS: tuple[WebpStep, ...] = (
    WebpStep(lossless=True, quality=0, method=2),  # higher efforts: 5% smaller, 2-100x slower
    WebpStep(lossless=False, quality=70, method=4),
    WebpStep(lossless=False, quality=40, method=4),
)
GIF_STEP = None
"""The single GIF "encoding" (a GIF has no quality to lower)."""

Step = WebpStep | None


@dataclass(frozen=True)
class Timelapse:
    """An animated image ready to upload as ``f"timelapse.{extension}"``."""

    data: bytes
    extension: str
    """"webp" or "gif"."""
    width: int
    """The pixel size of the frames (after any step-down)."""
    height: int
    frames: int
    """The frames in the file (after merging repeats and any dropped by the step-down)."""
    duration_ms: int
    """The total play time of one loop."""


def timelapse(
    frames: Sequence[bytes],
    *,
    limit: int,
    width: int = 640,
    frame_ms: int = 900,
    last_ms: int = 4000,
) -> Timelapse:
    """One animated image of ``frames`` (PNG bytes, in order), at most ``limit`` bytes.

    Each frame is scaled to ``width`` pixels wide keeping its aspect ratio and padded at the
    bottom with the theme's background to the tallest (the tops stay aligned).  Raises
    :class:`ValueError` for no frames, a bad argument, or when even :data:`MIN_WIDTH` pixels
    with the first and last frames alone exceed ``limit``."""
    if not frames:
        raise ValueError("a timelapse needs at least one frame")
    if limit <= 0 or width <= 0 or frame_ms <= 0 or last_ms <= 0:
        raise ValueError(
            f"limit, width, frame_ms and last_ms must be positive, got {limit}, {width}, "
            f"{frame_ms}, {last_ms}"
        )
    sizes = [_size(png) for png in frames]
    webp = features.check("webp")
    steps: tuple[Step, ...] = WEBP_STEPS if webp else (GIF_STEP,)
    extension = "webp" if webp else "gif"
    palette = _palette(frames, sizes, width)
    floor = min(MIN_WIDTH, width)

    current = _scaled(frames, sizes, width, palette)
    tried: list[tuple[int, int]] = []  # (bytes, index of the step)
    for index, step in enumerate(steps):
        data = _encode(current, step, frame_ms, last_ms)
        if len(data) <= limit:
            return _result(data, extension, current, frame_ms, last_ms)
        tried.append((len(data), index))
    step = steps[min(tried)[1]]

    while current[0].width > floor:
        narrower = max(floor, int(current[0].width * SHRINK))
        current = []  # let the wider frames go before scaling again
        current = _scaled(frames, sizes, narrower, palette)
        data = _encode(current, step, frame_ms, last_ms)
        if len(data) <= limit:
            return _result(data, extension, current, frame_ms, last_ms)

    while len(current) > 2:
        current = [*current[:-1:2], current[-1]]
        data = _encode(current, step, frame_ms, last_ms)
        if len(data) <= limit:
            return _result(data, extension, current, frame_ms, last_ms)

    raise ValueError(
        f"a timelapse of {len(frames)} frames does not fit in {limit} bytes: even "
        f"{current[0].width} px wide with {len(current)} frames it takes {len(data)} bytes"
    )


def _result(
    data: bytes, extension: str, frames: list[Image.Image], frame_ms: int, last_ms: int
) -> Timelapse:
    width, height = frames[0].size
    return Timelapse(
        data, extension, width, height, len(frames), sum(_durations(len(frames), frame_ms, last_ms))
    )


def _durations(count: int, frame_ms: int, last_ms: int) -> list[int]:
    return [frame_ms] * (count - 1) + [last_ms]


# --- frames -----------------------------------------------------------------------------------


def _size(png: bytes) -> tuple[int, int]:
    """The image's size, read from its header (nothing decoded)."""
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def _rgb(png: bytes) -> Image.Image:
    """The decoded frame in RGB (any transparency laid on the background)."""
    with Image.open(io.BytesIO(png)) as image:
        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            canvas = Image.new("RGBA", image.size, (*T.BACKGROUND, 255))
            canvas.alpha_composite(image.convert("RGBA"))
            return canvas.convert("RGB")
        return image.convert("RGB")


def _scale(png: bytes, size: tuple[int, int], width: int, height: int) -> Image.Image:
    """The frame ``width`` pixels wide (aspect kept) on a ``width`` x ``height`` canvas of the
    background, top-aligned, in RGB."""
    image = _rgb(png)
    scaled_height = _scaled_height(size, width)
    if image.size != (width, scaled_height):
        image = image.resize((width, scaled_height), Image.Resampling.LANCZOS)
    if scaled_height == height:
        return image
    canvas = Image.new("RGB", (width, height), T.BACKGROUND)
    canvas.paste(image, (0, 0))
    return canvas


def _scaled_height(size: tuple[int, int], width: int) -> int:
    return max(1, round(size[1] * width / size[0]))


def _palette(frames: Sequence[bytes], sizes: list[tuple[int, int]], width: int) -> Image.Image:
    """The palette every frame is snapped to: the first frame's own if it has one (every board
    ``render_png`` draws shares the theme's), else an adaptive one of the first and the last
    frame (the start and the fullest board) at ``width``."""
    with Image.open(io.BytesIO(frames[0])) as first:
        colors = first.getpalette() if first.mode == "P" else None
    if colors is not None:
        palette = Image.new("P", (1, 1))
        palette.putpalette(colors)
        return palette
    ends = [(frames[0], sizes[0]), (frames[-1], sizes[-1])]
    heights = [_scaled_height(size, width) for _, size in ends]
    both = Image.new("RGB", (width, sum(heights)), T.BACKGROUND)
    both.paste(_scale(*ends[0], width, heights[0]), (0, 0))
    both.paste(_scale(*ends[1], width, heights[1]), (0, heights[0]))
    return both.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _scaled(
    frames: Sequence[bytes], sizes: list[tuple[int, int]], width: int, palette: Image.Image
) -> list[Image.Image]:
    """Every frame scaled, padded and snapped to ``palette`` (no dithering: flat areas stay
    flat, which is what compresses), decoded one at a time; a frame identical to the one
    before it is dropped."""
    height = max(_scaled_height(size, width) for size in sizes)
    out: list[Image.Image] = []
    previous = b""
    for png, size in zip(frames, sizes, strict=True):
        frame = _scale(png, size, width, height).quantize(palette=palette, dither=Image.Dither.NONE)
        pixels = frame.tobytes()
        if pixels != previous:
            out.append(frame)
            previous = pixels
    return out


# --- encoding ---------------------------------------------------------------------------------


def _encode(frames: list[Image.Image], step: Step, frame_ms: int, last_ms: int) -> bytes:
    out = io.BytesIO()
    durations = _durations(len(frames), frame_ms, last_ms)
    if step is None:
        # optimize: each frame written as the rectangle that changed; disposal 1 leaves the
        # previous frame in place under it
        frames[0].save(
            out,
            format="GIF",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            optimize=True,
            disposal=1,
        )
    else:
        frames[0].save(
            out,
            format="WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            lossless=step.lossless,
            quality=step.quality,
            method=step.method,
        )
    return out.getvalue()
