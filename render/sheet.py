"""The full tile sheet: the 34 faces, the back, and the claimed / 百搭 / taken versions."""

from __future__ import annotations

from PIL import Image, ImageDraw

from . import common as C
from .labels import L, tile_label
from .tiles import BACK, geometry, side_geometry, sprite

TILE_W = 64
GAP_X = 14
GAP_Y = 40
PAD = 30
TITLE_H = 64


def draw_sheet(lang: str = "zh") -> Image.Image:
    lang = "zh" if lang.lower().startswith("zh") else "en"
    g = geometry(TILE_W)
    cols = 9
    width = PAD * 2 + cols * TILE_W + (cols - 1) * GAP_X
    row_h = g.box_h + GAP_Y
    height = TITLE_H + 5 * row_h + PAD
    img = C.felt(width, height)
    dr = ImageDraw.Draw(img)
    C.text(dr, (PAD, TITLE_H // 2 + 4), L("sheet_title", lang), 28, C.GOLD, anchor="lm", shadow=True)
    rows = [list(range(0, 9)), list(range(9, 18)), list(range(18, 27)), list(range(27, 34)) + [BACK]]
    y = TITLE_H
    for row in rows:
        for i, t in enumerate(row):
            x = PAD + i * (TILE_W + GAP_X)
            C.paste(img, sprite(t, TILE_W), x, y)
            label = L("back", lang) if t == BACK else tile_label(t, lang)
            C.text(dr, (x + TILE_W // 2, y + g.box_h + 16), label, 16, C.TEXT_DIM, anchor="mm")
        y += row_h
    # the special versions
    x = PAD
    samples = [(13, "wild", L("wildcard", lang)), (5, "side", L("sideways", lang)),
               (22, "dim", L("taken", lang))]
    for t, variant, label in samples:
        sg = side_geometry(TILE_W) if variant == "side" else g
        C.paste(img, sprite(t, TILE_W, variant), x, y + g.box_h - sg.box_h)
        C.text(dr, (x + sg.w // 2, y + g.box_h + 16), label, 16, C.GOLD if variant == "wild" else C.TEXT_DIM,
               anchor="mm")
        x += sg.w + GAP_X * 3
    # a concealed kong, as it shows on the table
    C.draw_meld(img, {"kind": "concealed_kong", "tiles": [33] * 4, "from_seat": None, "claimed": None}, 0, x, y,
                TILE_W)
    return img
