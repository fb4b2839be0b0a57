"""The shared palette of every picture and the PNG encoding onto it (:func:`to_png`). It sits above the
drawers (render/hand.py, table.py, result.py): the palette is cut from their demo images."""

from __future__ import annotations

import functools
import io
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from . import fonts
from .common import (
    FELT_CENTER,
    GOLD,
    GREEN,
    MAX_WIDTH,
    PANEL,
    PNG_LEVEL,
    RED,
    SHADOW,
    TEXT,
    TEXT_DIM,
    WALL_GREEN,
    _felt_indexed,
    _felt_rgb,
    felt_ramp,
)

# Extra colours of the chrome that the demo images may not show (tags, states)
SWATCHES = ((60, 80, 130), (110, 80, 150), (110, 110, 110), (170, 60, 40), (170, 44, 44), (58, 70, 110),
            (40, 84, 68), (120, 70, 20), (255, 226, 150), (200, 40, 40), (236, 110, 100), (110, 220, 140))


PALETTE_FILE = Path(__file__).resolve().parent / "assets" / "palette.bin"  # 768 bytes: build_palette()'s


@functools.lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The palette of every image: the shipped copy of :func:`build_palette` (cutting it takes most of a
    second, in every process that draws: the bot, each drawing worker, each test worker), else cut now.
    tests/render/test_render_images.py checks the copy against a fresh cut; :func:`write_palette` writes a
    new copy after a change of the colours or the demo images."""
    try:
        flat = PALETTE_FILE.read_bytes()
    except OSError:
        return build_palette()
    if len(flat) != 768:
        return build_palette()
    pal = Image.new("P", (1, 1))
    pal.putpalette(list(flat))
    return pal


def build_palette() -> Image.Image:
    """One 256-colour palette for every image, cut (median cut) once from the demo images.

    The felt's own colours (a posterised ramp of FELT_STEPS steps, about one level apart) are reserved
    so its gradient never bands. Mapping onto a fixed palette takes about a millisecond (a per-image
    octree banded the felt); the PNGs come out at a quarter of their RGB size.
    """
    from . import demo
    from .hand import draw_hand
    from .result import draw_result
    from .table import draw_table

    parts = [draw_table(demo.table_view(), "zh"), draw_hand(demo.seat_view(), "zh"),
             draw_result(demo.result_view(), "zh"), draw_result(demo.result_view(drawn_game=True), "en")]
    sw = Image.new("RGB", (MAX_WIDTH, 60), FELT_CENTER)
    dr = ImageDraw.Draw(sw)
    for i, col in enumerate(SWATCHES):
        dr.rounded_rectangle((10 + i * 90, 10, 90 + i * 90, 50), radius=20, fill=col)
        dr.text((20 + i * 90, 18), "Ab中", font=fonts.ui(18), fill=TEXT)
    parts.append(sw)
    src = Image.new("RGB", (MAX_WIDTH, sum(p.height for p in parts)), FELT_CENTER)
    y = 0
    for p in parts:
        src.paste(p, (0, y))
        y += p.height
    from . import tiles

    fixed = felt_ramp() + list(dict.fromkeys((
        TEXT, TEXT_DIM, GOLD, RED, GREEN, WALL_GREEN, PANEL, SHADOW, *SWATCHES, (12, 34, 28), (10, 30, 24),
        (12, 32, 27), tiles.IVORY_TOP, tiles.IVORY_BOTTOM, tiles.INK, tiles.RED, tiles.GREEN, tiles.BLUE,
        tiles.GOLD, tiles.GOLD_LIGHT, tiles.JADE, tiles.JADE_DARK, tiles.JADE_LIGHT, tiles.WHITE_FRAME)))
    n = 256 - len(fixed)
    rest = (src.quantize(n, method=Image.Quantize.MEDIANCUT).getpalette() or [])[: n * 3]
    flat = [v for c in fixed for v in c] + rest
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


_UNTOUCHED = [255] + [0] * 255


def to_png(img: Image.Image) -> bytes:
    """PNG bytes: mapped onto the shared palette (no dithering) and deflated at level PNG_LEVEL.

    Pillow maps colours onto a palette through a coarse cache (5-6 bits a channel), which would
    band the felt's gentle gradient; the felt pixels nothing was drawn on therefore get their exact
    palette index back from the cached indexed felt.
    """
    buf = io.BytesIO()
    q = img.quantize(palette=palette(), dither=Image.Dither.NONE)
    untouched = ImageChops.difference(img, _felt_rgb(img.size)).convert("L").point(_UNTOUCHED)
    q.paste(_felt_indexed(img.size), (0, 0), untouched)
    q.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def write_palette() -> None:
    """Write the shipped palette afresh (after a change of the colours or the demo images):
    ``python3 -c "import render.palette as p; p.write_palette()"``."""
    PALETTE_FILE.write_bytes(bytes((build_palette().getpalette() or [])[:768]))
