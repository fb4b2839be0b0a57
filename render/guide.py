"""A page of the how-to-play guide (``/mahjong howto``): a title and rows of example tiles, each with a
caption. The view is plain data made by ``jxbot.howto.page_view``: ``{"title", "rows": [{"tiles",
"caption"}], "wildcard", "badge"}``. Drawn 720 px wide so that, shown 550 px wide on a phone, text stays ≥ 12 px
(the smallest text here is 20 px: 20 × 550 / 720 ≈ 15 px) and tiles about 30 px.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from . import common as C
from .tiles import geometry, sprite

WIDTH = 720
PAD = 24
HEADER_H = 64
TILE_W = 42
GAP = 2
CAPTION = 20
TITLE = 28
MIN_TEXT = CAPTION  # the smallest text size drawn (tests/render/test_guide.py)


def _row_tiles_w(n: int) -> int:
    return n * (TILE_W + GAP) - GAP


def draw_guide(view: dict, lang: str = "zh") -> Image.Image:
    g = geometry(TILE_W)
    rows = list(view.get("rows") or [])
    wc = view.get("wildcard")
    badge = str(view.get("badge") or "wild")  # the wildcard's sprite variant: 搭 (wild) or 財 (caishen)
    row_h = g.box_h + CAPTION + 22
    height = HEADER_H + 16 + max(1, len(rows)) * row_h + PAD
    img = C.felt(WIDTH, height)
    dr = ImageDraw.Draw(img)
    dr.rectangle((0, 0, WIDTH, HEADER_H), fill=(10, 30, 24))
    dr.line((0, HEADER_H, WIDTH, HEADER_H), fill=C.GOLD, width=3)
    C.text(dr, (PAD, HEADER_H // 2 + 2), C.fit(str(view.get("title", "")), TITLE, WIDTH - 2 * PAD), TITLE, C.GOLD,
           anchor="lm", shadow=True)
    y = HEADER_H + 16
    for row in rows:
        tiles = list(row.get("tiles") or [])
        x = (WIDTH - _row_tiles_w(len(tiles))) // 2
        for i, t in enumerate(tiles):
            C.paste(img, sprite(t, TILE_W, C.tile_variant(t, wc, badge) if i or len(tiles) > 1 else "up"), x, y)
            x += TILE_W + GAP
        cap = str(row.get("caption") or "")
        if cap:
            C.text(dr, (WIDTH // 2, y + g.box_h + 6 + CAPTION // 2), C.fit(cap, CAPTION, WIDTH - 2 * PAD), CAPTION,
                   C.TEXT, anchor="mm")
        y += row_h
    return img


__all__ = ["draw_guide", "WIDTH", "MIN_TEXT"]
