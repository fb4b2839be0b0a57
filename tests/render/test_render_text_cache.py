"""The cached text drawing (render.common.draw_text) puts exactly the pixels Pillow's own text drawing
does, at whole and fractional positions, for every anchor the pictures use, and the pictures that use it
come out the same each time (a cache hit draws what a miss drew)."""

import pytest
from PIL import Image, ImageDraw

from render import common, demo, fonts, render_table


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ls"])
@pytest.mark.parametrize("xy", [(20, 30), (20.5, 30.5), (33.25, 12.75)])
def test_cached_text_is_pillows_text(anchor, xy):
    for s, f, fill in (("東風 · 第3局", fonts.ui(20), (240, 196, 80)), ("Wall 83", fonts.ui(18), (168, 196, 182)),
                       ("東", fonts.tile(22), (30, 36, 60)), ("小林 ×13", fonts.ui(15), (255, 255, 255))):
        want = Image.new("RGB", (240, 60), (12, 34, 28))
        ImageDraw.Draw(want).text(xy, s, font=f, fill=fill, anchor=anchor)
        for _ in range(2):  # a miss, then a hit
            got = Image.new("RGB", (240, 60), (12, 34, 28))
            common.draw_text(ImageDraw.Draw(got), xy, s, f, fill, anchor)
            assert got.tobytes() == want.tobytes(), (s, xy, anchor)


def test_a_table_picture_is_the_same_with_a_cold_and_a_warm_text_cache():
    common._text_mask.cache_clear()
    cold = render_table(demo.table_view(), "zh")
    assert render_table(demo.table_view(), "zh") == cold
