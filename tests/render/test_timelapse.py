"""The timelapse: a game's boards as one animated image that Discord takes (valid, animated,
padded not stretched, within the upload limit, deterministic), as WebP and as the GIF fallback.

Most frames are small synthetic ones (palette PNGs written like the boards, or RGB noise that
no encoder can shrink, to force the step-down); one test uses real boards."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pytest
from PIL import Image, ImageChops, ImageStat, features

from render import render_table
from render import theme as T
from render.raster import to_png
from render.timelapse import MIN_WIDTH, Timelapse, timelapse
from tests.render.helpers import played

BIG = 10_485_760  # Discord's default upload limit (10 MiB)
Pixel = tuple[int, ...]


def _board(height: int, stripe: tuple[int, int], width: int = 400) -> bytes:
    """A palette PNG (as ``render_png`` writes them): a panel of ``height`` rows with an ink
    stripe across the rows ``stripe``."""
    image = Image.new("RGB", (width, height), T.PANEL)
    image.paste(T.INK, (0, stripe[0], width, stripe[1]))
    image.paste(T.seat_color(height), (10, 10, 60, 40))  # each board a little different
    return to_png(image)


def _noise(index: int, width: int = 320, height: int = 60) -> bytes:
    """An RGB PNG of random pixels (incompressible) under a band of a colour of its own."""
    data = random.Random(index).randbytes(width * height * 3)
    image = Image.frombytes("RGB", (width, height), data)
    image.paste(_band(index), (0, 0, width, 12))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _band(index: int) -> tuple[int, int, int]:
    return (index * 16 % 256, 255 - index * 16 % 256, 128)


@dataclass(frozen=True)
class Decoded:
    """What a viewer gets from the file: its format, size, whether it animates, and each frame
    (in RGB) with its duration."""

    format: str | None
    size: tuple[int, int]
    is_animated: bool
    n_frames: int
    frames: list[Image.Image]
    durations: list[int]


def _decoded(result: Timelapse) -> Decoded:
    with Image.open(io.BytesIO(result.data)) as image:
        n_frames = int(getattr(image, "n_frames", 1))
        animated = bool(getattr(image, "is_animated", False))
        frames, durations = [], []
        for index in range(n_frames):
            image.seek(index)
            image.load()
            frames.append(image.convert("RGB"))
            durations.append(int(image.info["duration"]))
        return Decoded(image.format, image.size, animated, n_frames, frames, durations)


def _close(a: Pixel, b: Pixel, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b[:3], strict=True))


def _mean(image: Image.Image, box: tuple[int, int, int, int]) -> Pixel:
    return tuple(round(v) for v in ImageStat.Stat(image.crop(box)).mean[:3])


@pytest.fixture
def no_webp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow as if built without WebP."""
    real = features.check
    monkeypatch.setattr(features, "check", lambda name: name != "webp" and real(name))


def test_an_animated_webp_of_the_requested_width() -> None:
    """Every board becomes a frame of the requested width, the tallest's height scaled; each
    shows ``frame_ms`` and the last ``last_ms``."""
    frames = [_board(200, (20, 30)), _board(300, (40, 50)), _board(250, (60, 70))]
    result = timelapse(frames, limit=BIG, width=200)
    image = _decoded(result)
    assert image.format == "WEBP" and result.extension == "webp"
    assert image.is_animated and image.n_frames == result.frames == 3
    assert image.size == (result.width, result.height) == (200, 150)
    assert image.durations == [900, 900, 4000] and result.duration_ms == 5800
    assert len(result.data) <= BIG


def test_shorter_frames_are_padded_at_the_bottom_not_stretched() -> None:
    """A board shorter than the tallest keeps its proportions at the top of the frame; the
    rows below it are the theme's background."""
    frames = [_board(200, (100, 120)), _board(300, (20, 30))]
    result = timelapse(frames, limit=BIG, width=200)
    short, tall = _decoded(result).frames
    assert short.size == tall.size == (200, 150)
    assert _close(_mean(short, (80, 52, 120, 58)), T.INK)  # the stripe, halved: rows 50-60
    assert _close(_mean(short, (80, 70, 120, 95)), T.PANEL)  # the board goes on to row 100
    assert _close(_mean(short, (0, 102, 200, 150)), T.BACKGROUND)  # then the padding
    assert _close(_mean(tall, (80, 11, 120, 14)), T.INK)
    assert _close(_mean(tall, (0, 102, 200, 150)), T.PANEL)


def test_repeated_boards_are_shown_once() -> None:
    """Two identical boards in a row make one frame (nothing changed, nothing to watch)."""
    first, second = _board(200, (20, 30)), _board(200, (40, 50))
    result = timelapse([first, first, second], limit=BIG, width=200)
    image = _decoded(result)
    assert result.frames == image.n_frames == 2 and image.durations == [900, 4000]


def test_a_small_limit_narrows_the_frames_until_they_fit() -> None:
    """Frames too big for the limit even at a lower quality are scaled narrower (all of them
    kept) until they fit; the height follows the width."""
    frames = [_noise(k, width=400) for k in range(6)]
    full = timelapse(frames, limit=BIG, width=400)
    small = timelapse(frames, limit=45_000, width=400)
    assert len(small.data) <= 45_000 < len(full.data)
    assert (full.width, full.frames) == (400, 6) and (small.width, small.frames) == (320, 6)
    image = _decoded(small)
    assert image.size == (small.width, small.height) == (320, 48)
    assert image.n_frames == 6 and image.durations[-1] == 4000


def test_the_last_resort_drops_middle_frames_keeping_the_first_and_last() -> None:
    """At the narrowest width every other frame goes; the first and the last boards stay."""
    frames = [_noise(k) for k in range(16)]
    result = timelapse(frames, limit=60_000, width=MIN_WIDTH)
    assert len(result.data) <= 60_000 and 2 <= result.frames < 16
    image = _decoded(result)
    decoded, durations = image.frames, image.durations
    assert len(decoded) == result.frames
    assert _close(_mean(decoded[0], (0, 2, MIN_WIDTH, 10)), _band(0), 30)
    assert _close(_mean(decoded[-1], (0, 2, MIN_WIDTH, 10)), _band(15), 30)
    assert durations == [900] * (result.frames - 1) + [4000]


def test_too_small_a_limit_raises() -> None:
    """When even the narrowest width with the first and last frames alone is too big, the
    error says so (nothing is uploaded that Discord would refuse)."""
    with pytest.raises(ValueError, match="does not fit in 500 bytes"):
        timelapse([_noise(k) for k in range(4)], limit=500)


def test_no_frames_raises() -> None:
    """An empty game has nothing to animate."""
    with pytest.raises(ValueError, match="at least one frame"):
        timelapse([], limit=BIG)


def test_same_boards_same_bytes() -> None:
    """Deterministic: the same boards give the same bytes (after a step-down too)."""
    boards = [_board(200 + 20 * k, (10 * k, 10 * k + 8)) for k in range(4)]
    assert timelapse(boards, limit=BIG, width=200) == timelapse(boards, limit=BIG, width=200)
    noisy = [_noise(k) for k in range(4)]
    stepped = timelapse(noisy, limit=30_000, width=MIN_WIDTH)
    assert stepped.frames < 4 and stepped == timelapse(noisy, limit=30_000, width=MIN_WIDTH)


@pytest.mark.usefixtures("no_webp")
def test_a_gif_without_webp() -> None:
    """Without WebP in Pillow the timelapse is an animated GIF, with the same frames, sizes
    and durations, deterministic too."""
    frames = [_board(200, (100, 120)), _board(300, (20, 30)), _board(250, (60, 70))]
    result = timelapse(frames, limit=BIG, width=200)
    image = _decoded(result)
    decoded, durations = image.frames, image.durations
    assert image.format == "GIF" and result.extension == "gif"
    assert image.is_animated and image.n_frames == result.frames == 3
    assert image.size == (result.width, result.height) == (200, 150)
    assert durations == [900, 900, 4000]
    assert _close(_mean(decoded[0], (80, 52, 120, 58)), T.INK)
    assert _close(_mean(decoded[0], (0, 102, 200, 150)), T.BACKGROUND)
    assert result == timelapse(frames, limit=BIG, width=200)


@pytest.mark.usefixtures("no_webp")
def test_a_gif_fits_a_small_limit() -> None:
    """The GIF steps down too (width, then frames) and fits."""
    frames = [_noise(k) for k in range(16)]
    result = timelapse(frames, limit=150_000)
    assert result.extension == "gif" and len(result.data) <= 150_000
    image = _decoded(result)
    assert image.n_frames == result.frames < 16
    assert _close(_mean(image.frames[-1], (0, 2, MIN_WIDTH, 10)), _band(15), 30)
    with pytest.raises(ValueError, match="does not fit"):
        timelapse(frames, limit=500)


def test_real_boards_stay_close_to_the_boards_scaled() -> None:
    """Real tables of a played game: one frame each, 640 px wide, each frame the board scaled
    (the palette costs a little, the lossless WebP nothing more)."""
    games = [played(4, 5, 0), played(4, 5, 130), played(4, 5, 0, True)]
    boards = [render_table(p.view(), p.highlights()) for p in games]
    result = timelapse(boards, limit=BIG)
    image = _decoded(result)
    decoded, durations = image.frames, image.durations
    sizes = [Image.open(io.BytesIO(b)).size for b in boards]
    assert image.size == (640, round(max(h for _, h in sizes) * 640 / T.WIDTH))
    assert image.n_frames == 3 and durations == [900, 900, 4000]
    with Image.open(io.BytesIO(boards[-1])) as last:
        height = round(last.height * 640 / last.width)
        expected = last.convert("RGB").resize((640, height), Image.Resampling.LANCZOS)
    got = decoded[-1].crop((0, 0, 640, height))
    assert max(ImageStat.Stat(ImageChops.difference(got, expected)).mean) < 3
