"""Tile sprites drawn with Pillow: 34 faces, the back, sideways (claimed) and 百搭 (wildcard) versions.

Everything is drawn at ``SS``× the target size and scaled down with LANCZOS, so edges stay smooth at
any size. Sprites are built once per (kind, width, variant) and cached.

A sprite is an RGBA image a little larger than the tile (its soft shadow spills right and down);
:func:`geometry` gives the tile's own box so layouts can step by it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter

from . import fonts

SS = 4  # supersampling factor
BACK = -1  # the kind used for a face-down tile

# Palette
IVORY_TOP = (253, 250, 240)
IVORY_BOTTOM = (238, 230, 208)
IVORY_EDGE = (205, 192, 160)
BONE = (228, 218, 190)
JADE = (24, 122, 92)
JADE_DARK = (14, 82, 61)
JADE_LIGHT = (56, 160, 122)
GOLD = (222, 168, 30)
GOLD_LIGHT = (255, 222, 120)
GOLD_FACE_TOP = (255, 247, 214)
GOLD_FACE_BOTTOM = (250, 228, 160)
BLUE = (29, 78, 160)
GREEN = (22, 128, 70)
GREEN_DARK = (12, 88, 48)
RED = (200, 36, 44)
INK = (26, 34, 60)
WHITE_FRAME = (40, 92, 176)

NUMERALS = "一二三四五六七八九"
HONOR_CHARS = {27: "東", 28: "南", 29: "西", 30: "北", 32: "發", 33: "中"}


@dataclass(frozen=True, slots=True)
class Geometry:
    w: int  # tile width
    h: int  # face height
    d: int  # visible thickness below the face
    r: int  # corner radius
    shadow: int  # shadow offset

    @property
    def box_h(self) -> int:
        return self.h + self.d

    @property
    def sprite_size(self) -> tuple[int, int]:
        return self.w + self.shadow * 2, self.box_h + self.shadow * 2


def geometry(w: int) -> Geometry:
    return Geometry(w=w, h=round(w * 1.34), d=max(3, round(w * 0.13)), r=max(3, round(w * 0.13)),
                    shadow=max(2, round(w * 0.06)))


def side_geometry(w: int) -> Geometry:
    """A tile of width ``w`` laid sideways: face ``h`` wide and ``w`` tall."""
    g = geometry(w)
    return Geometry(w=g.h, h=g.w, d=g.d, r=g.r, shadow=g.shadow)


# ---------------------------------------------------------------------------------------------------
# Tile body


def _vgradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]) -> Image.Image:
    w, h = size
    col = Image.linear_gradient("L").resize((1, h))
    r = col.point(lambda v: top[0] + (bottom[0] - top[0]) * v // 255)
    g = col.point(lambda v: top[1] + (bottom[1] - top[1]) * v // 255)
    b = col.point(lambda v: top[2] + (bottom[2] - top[2]) * v // 255)
    return Image.merge("RGB", (r, g, b)).resize((w, h))


def _rounded_mask(size: tuple[int, int], radius: int) -> Image.Image:
    m = Image.new("L", size, 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=255)
    return m


def _body(g: Geometry, face_top, face_bottom, *, back: bool = False) -> Image.Image:
    """A blank tile at SS× (RGBA, with shadow margin): body, thickness and an empty face."""
    S = SS
    W, H = g.sprite_size[0] * S, g.sprite_size[1] * S
    w, h, d, r = g.w * S, g.h * S, g.d * S, g.r * S
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    # soft shadow
    sh = Image.new("L", (W, H), 0)
    off = g.shadow * S
    ImageDraw.Draw(sh).rounded_rectangle((off, off * 2 // 1, off + w, off + h + d), radius=r, fill=120)
    sh = sh.filter(ImageFilter.GaussianBlur(off * 0.8))
    img.paste((20, 30, 25, 255), (0, 0), sh)
    dr = ImageDraw.Draw(img)
    # thickness: a back layer (jade, or ivory for a face-down tile) under a bone layer
    under, under_dark = (BONE, IVORY_EDGE) if back else (JADE, JADE_DARK)
    dr.rounded_rectangle((0, 0, w - 1, h + d - 1), radius=r, fill=under_dark)
    dr.rounded_rectangle((S, 0, w - 1 - S, h + d - 1 - S), radius=r, fill=under)
    if not back:
        dr.rounded_rectangle((0, 0, w - 1, h + d * 45 // 100), radius=r, fill=IVORY_EDGE)
        dr.rounded_rectangle((S, 0, w - 1 - S, h + d * 45 // 100 - S), radius=r, fill=BONE)
    else:
        dr.rounded_rectangle((0, 0, w - 1, h + d * 30 // 100), radius=r, fill=JADE_DARK)
    # the face with a gentle gradient and a thin rim
    face = _vgradient((w, h), face_top, face_bottom)
    img.paste(face, (0, 0), _rounded_mask((w, h), r))
    rim = (150, 140, 112) if not back else JADE_DARK
    dr.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, outline=rim, width=max(2, S))
    # highlight along the top-left
    hl = (255, 255, 255, 150) if not back else (150, 220, 190, 120)
    dr.arc((S * 2, S * 2, S * 2 + r * 2, S * 2 + r * 2), 180, 270, fill=hl, width=S)
    dr.line((S * 2 + r, S * 2, w - r - S * 2, S * 2), fill=hl, width=S)
    dr.line((S * 2, S * 2 + r, S * 2, h - r - S * 2), fill=hl, width=S)
    return img


# ---------------------------------------------------------------------------------------------------
# Face art: drawn on a transparent (w*SS, h*SS) layer


def _dot(dr: ImageDraw.ImageDraw, cx: float, cy: float, rad: float, col) -> None:
    def circ(k: float, fill) -> None:
        rr = rad * k
        dr.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill)

    circ(1.0, col)
    circ(0.74, IVORY_TOP)
    circ(0.58, col)
    circ(0.24, IVORY_TOP)
    circ(0.11, col)


def _big_dot(dr: ImageDraw.ImageDraw, cx: float, cy: float, rad: float) -> None:
    def circ(k: float, fill) -> None:
        rr = rad * k
        dr.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill)

    circ(1.0, GREEN)
    circ(0.9, IVORY_TOP)
    circ(0.82, BLUE)
    # petals in the blue ring
    for i in range(12):
        a = i * math.pi / 6
        px, py = cx + math.cos(a) * rad * 0.66, cy + math.sin(a) * rad * 0.66
        pr = rad * 0.085
        dr.ellipse((px - pr, py - pr, px + pr, py + pr), fill=IVORY_TOP)
    circ(0.5, IVORY_TOP)
    circ(0.42, RED)
    circ(0.2, IVORY_TOP)
    circ(0.1, RED)


DOT_LAYOUTS: dict[int, list[tuple[float, float, str]]] = {
    # (x, y) in the unit face box, colour code
    2: [(0.5, 0.27, "g"), (0.5, 0.73, "b")],
    3: [(0.24, 0.2, "b"), (0.5, 0.5, "r"), (0.76, 0.8, "g")],
    4: [(0.27, 0.27, "b"), (0.73, 0.27, "g"), (0.27, 0.73, "g"), (0.73, 0.73, "b")],
    5: [(0.25, 0.22, "b"), (0.75, 0.22, "g"), (0.5, 0.5, "r"), (0.25, 0.78, "g"), (0.75, 0.78, "b")],
    6: [(0.28, 0.18, "g"), (0.72, 0.18, "g"), (0.28, 0.55, "r"), (0.72, 0.55, "r"), (0.28, 0.84, "r"),
        (0.72, 0.84, "r")],
    7: [(0.2, 0.13, "g"), (0.5, 0.23, "g"), (0.8, 0.33, "g"), (0.3, 0.6, "r"), (0.7, 0.6, "r"),
        (0.3, 0.86, "r"), (0.7, 0.86, "r")],
    8: [(x, y, "b") for y in (0.13, 0.38, 0.62, 0.87) for x in (0.3, 0.7)],
    9: [(x, y, c) for y, c in ((0.17, "b"), (0.5, "r"), (0.83, "g")) for x in (0.2, 0.5, 0.8)],
}
DOT_RADIUS = {2: 0.2, 3: 0.17, 4: 0.19, 5: 0.16, 6: 0.15, 7: 0.13, 8: 0.125, 9: 0.14}
COLOURS = {"b": BLUE, "g": GREEN, "r": RED}


def _stick(dr: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, wd: float, col) -> None:
    dark = GREEN_DARK if col == GREEN else (130, 20, 26)
    light = (150, 215, 170) if col == GREEN else (245, 160, 160)
    ang = math.atan2(y1 - y0, x1 - x0)
    nx, ny = -math.sin(ang), math.cos(ang)
    dr.line((x0, y0, x1, y1), fill=dark, width=round(wd))
    for px, py in ((x0, y0), (x1, y1)):
        dr.ellipse((px - wd / 2, py - wd / 2, px + wd / 2, py + wd / 2), fill=dark)
    inner = wd * 0.62
    dr.line((x0, y0, x1, y1), fill=col, width=round(inner))
    # a highlight along the stick
    hx, hy = nx * wd * 0.12, ny * wd * 0.12
    dr.line((x0 + hx, y0 + hy, x1 + hx, y1 + hy), fill=light, width=max(1, round(wd * 0.12)))
    # nodes at both ends and the middle
    for t in (0.12, 0.5, 0.88):
        cx, cy = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        dr.line((cx - nx * wd * 0.62, cy - ny * wd * 0.62, cx + nx * wd * 0.62, cy + ny * wd * 0.62),
                fill=dark, width=max(2, round(wd * 0.22)))


BAMBOO_LAYOUTS: dict[int, list[tuple[float, float, str]]] = {
    # column x, row centre y, colour; sticks are vertical
    2: [(0.5, 0.27, "g"), (0.5, 0.73, "g")],
    3: [(0.5, 0.27, "g"), (0.3, 0.73, "g"), (0.7, 0.73, "g")],
    4: [(0.3, 0.27, "g"), (0.7, 0.27, "g"), (0.3, 0.73, "g"), (0.7, 0.73, "g")],
    5: [(0.22, 0.27, "g"), (0.78, 0.27, "g"), (0.5, 0.5, "r"), (0.22, 0.73, "g"), (0.78, 0.73, "g")],
    6: [(x, y, "g") for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17, "r")] + [(x, y, "g") for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    9: [(x, y, "r" if x == 0.5 else "g") for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


def _bird(dr: ImageDraw.ImageDraw, W: float, H: float) -> None:
    """The 1-bamboo: a little green peacock standing on a bamboo twig."""

    def P(x: float, y: float) -> tuple[float, float]:
        return (x * W, y * H)

    # tail feathers fanning down-left
    for i, (ex, ey, col) in enumerate(((0.06, 0.86, GREEN), (0.16, 0.95, BLUE), (0.3, 0.97, GREEN))):
        dr.polygon([P(0.42, 0.6), P(ex - 0.04, ey - 0.06), P(ex + 0.05, ey + 0.01)], fill=col)
        ox, oy = ex + 0.005, ey - 0.025
        r = 0.045 + 0.005 * i
        dr.ellipse((*P(ox - r, oy - r * 0.75), *P(ox + r, oy + r * 0.75)), fill=RED)
        dr.ellipse((*P(ox - r * 0.45, oy - r * 0.35), *P(ox + r * 0.45, oy + r * 0.35)), fill=IVORY_TOP)
    # legs and twig
    dr.line((*P(0.55, 0.72), *P(0.5, 0.88)), fill=INK, width=round(W * 0.03))
    dr.line((*P(0.63, 0.72), *P(0.66, 0.88)), fill=INK, width=round(W * 0.03))
    dr.line((*P(0.3, 0.9), *P(0.92, 0.86)), fill=GREEN_DARK, width=round(W * 0.06))
    # body
    dr.ellipse((*P(0.34, 0.38), *P(0.82, 0.76)), fill=GREEN)
    dr.ellipse((*P(0.52, 0.46), *P(0.8, 0.7)), fill=(240, 120, 60))  # breast
    # wing
    dr.chord((*P(0.3, 0.42), *P(0.7, 0.7)), 150, 340, fill=BLUE)
    for k in range(3):
        y = 0.5 + 0.055 * k
        dr.line((*P(0.36, y + 0.02), *P(0.6, y - 0.03)), fill=IVORY_TOP, width=max(2, round(W * 0.018)))
    # neck and head
    dr.polygon([P(0.62, 0.46), P(0.74, 0.26), P(0.82, 0.3), P(0.78, 0.5)], fill=GREEN)
    dr.ellipse((*P(0.66, 0.14), *P(0.88, 0.32)), fill=GREEN)
    # crest
    for cx in (0.7, 0.76, 0.82):
        dr.line((*P(cx, 0.16), *P(cx - 0.03, 0.05)), fill=RED, width=max(2, round(W * 0.025)))
        dr.ellipse((*P(cx - 0.055, 0.03), *P(cx - 0.005, 0.07)), fill=RED)
    # eye and beak
    dr.ellipse((*P(0.76, 0.19), *P(0.82, 0.24)), fill=IVORY_TOP)
    dr.ellipse((*P(0.775, 0.2), *P(0.805, 0.23)), fill=INK)
    dr.polygon([P(0.87, 0.2), P(0.98, 0.25), P(0.87, 0.27)], fill=(230, 150, 30))


def _text(dr: ImageDraw.ImageDraw, xy: tuple[float, float], ch: str, size: int, fill) -> None:
    dr.text(xy, ch, font=fonts.tile(size), fill=fill, anchor="mm")


def _white_frame(dr: ImageDraw.ImageDraw, W: float, H: float) -> None:
    x0, y0, x1, y1 = W * 0.17, H * 0.14, W * 0.83, H * 0.86
    dr.rounded_rectangle((x0, y0, x1, y1), radius=W * 0.05, outline=WHITE_FRAME, width=round(W * 0.07))
    k = W * 0.12
    dr.rounded_rectangle((x0 + k, y0 + k, x1 - k, y1 - k), radius=W * 0.03, outline=WHITE_FRAME,
                         width=round(W * 0.025))


def _face_art(kind: int, W: int, H: int) -> Image.Image:
    """The art of one face on a transparent layer of W×H (already supersampled)."""
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    dr = ImageDraw.Draw(layer)
    if kind < 9:  # characters: numeral over a red 萬
        _text(dr, (W * 0.5, H * 0.255), NUMERALS[kind], round(W * 0.5), INK)
        _text(dr, (W * 0.5, H * 0.69), "萬", round(W * 0.64), RED)
        return layer
    if kind < 18:  # dots
        n = kind - 8
        mx, my = W * 0.1, H * 0.07
        iw, ih = W - 2 * mx, H - 2 * my
        if n == 1:
            _big_dot(dr, W / 2, H / 2, iw * 0.48)
        else:
            rad = DOT_RADIUS[n] * iw
            for x, y, c in DOT_LAYOUTS[n]:
                _dot(dr, mx + x * iw, my + y * ih, rad, COLOURS[c])
        return layer
    if kind < 27:  # bamboo
        n = kind - 17
        mx, my = W * 0.1, H * 0.07
        iw, ih = W - 2 * mx, H - 2 * my
        if n == 1:
            bird = Image.new("RGBA", (W, H), (0, 0, 0, 0))
            _bird(ImageDraw.Draw(bird), iw, ih)
            layer.alpha_composite(bird, (round(mx), round(my)))
            return layer
        wd = iw * (0.19 if n < 5 else 0.16 if n < 8 else 0.14)
        if n == 8:
            # the classic 8: two rows, outer sticks upright, inner ones leaning into a V / Λ
            half = ih * 0.2
            for row, (yc, lean) in enumerate(((0.27, 1), (0.73, -1))):
                cy = my + yc * ih
                for x in (0.12, 0.88):
                    _stick(dr, mx + x * iw, cy - half, mx + x * iw, cy + half, wd, GREEN)
                for x, s in ((0.38, -1), (0.62, 1)):
                    dx = iw * 0.09 * s * lean
                    _stick(dr, mx + x * iw - dx, cy - half, mx + x * iw + dx, cy + half, wd, GREEN)
                del row
            return layer
        rows = 3 if n in (7, 9) else 2
        half = ih * (0.125 if rows == 3 else 0.17)
        for x, y, c in BAMBOO_LAYOUTS[n]:
            cx, cy = mx + x * iw, my + y * ih
            _stick(dr, cx, cy - half, cx, cy + half, wd, COLOURS[c])
        return layer
    if kind == 31:  # 白
        _white_frame(dr, W, H)
        return layer
    ch = HONOR_CHARS[kind]
    col = RED if kind == 33 else GREEN if kind == 32 else INK
    _text(dr, (W * 0.5, H * 0.5), ch, round(W * 0.8), col)
    return layer


def _back_art(W: int, H: int) -> Image.Image:
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    dr = ImageDraw.Draw(layer)
    k = W * 0.12
    dr.rounded_rectangle((k, k, W - k, H - k), radius=W * 0.08, outline=(120, 200, 165, 200), width=round(W * 0.025))
    cx, cy, s = W / 2, H / 2, W * 0.16
    dr.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], outline=(120, 200, 165, 200),
               width=round(W * 0.025))
    return layer


# The badge on the wildcard's face: 搭 for the Jiaxing 百搭, 財 for the caishen ruleset's 財神.
BADGES = {"wild": "搭", "caishen": "財"}
WILD_VARIANTS = frozenset(BADGES)


def _badge(dr: ImageDraw.ImageDraw, cx: float, cy: float, rad: float, char: str = "搭") -> None:
    dr.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=GOLD)
    dr.ellipse((cx - rad * 0.84, cy - rad * 0.84, cx + rad * 0.84, cy + rad * 0.84), fill=RED)
    dr.text((cx, cy + rad * 0.04), char, font=fonts.ui(round(rad * 1.2)), fill=GOLD_LIGHT, anchor="mm")


# ---------------------------------------------------------------------------------------------------
# Sprites


@functools.lru_cache(maxsize=4096)
def sprite(kind: int, w: int, variant: str = "up") -> Image.Image:
    """The tile ``kind`` (0–33, or ``BACK``) at width ``w``.

    Variants: ``up`` (standing face up), ``wild`` (the 百搭: gold face, gold edge and a 搭 badge),
    ``caishen`` (the 財神 of the caishen ruleset: the same with a 財 badge), ``side`` (laid sideways: a
    claimed tile), ``dim`` (a discard taken by a meld).
    """
    if variant == "dim":
        base = sprite(kind, w, "up")
        rgb = base.convert("RGB")
        faded = Image.blend(rgb, Image.new("RGB", rgb.size, (150, 150, 140)), 0.45)
        out = faded.convert("RGBA")
        out.putalpha(base.getchannel("A"))
        return out
    side = variant == "side"
    g = side_geometry(w) if side else geometry(w)
    wild = variant in WILD_VARIANTS
    back = kind == BACK
    if back:
        img = _body(g, JADE_LIGHT, JADE, back=True)
    elif wild:
        img = _body(g, GOLD_FACE_TOP, GOLD_FACE_BOTTOM)
    else:
        img = _body(g, IVORY_TOP, IVORY_BOTTOM)
    fw, fh = g.w * SS, g.h * SS
    if back:
        art = _back_art(fw, fh)
    elif side:
        ug = geometry(w)
        art = _face_art(kind, ug.w * SS, ug.h * SS).rotate(90, expand=True)
    else:
        art = _face_art(kind, fw, fh)
    if wild:
        k = 0.8
        small = art.resize((round(fw * k), round(fh * k)), Image.Resampling.LANCZOS)
        img.alpha_composite(small, (round(fw * 0.06), round(fh * 0.14)))
        dr = ImageDraw.Draw(img)
        bw = max(SS * 2, round(fw * 0.07))
        dr.rounded_rectangle((bw // 2, bw // 2, fw - 1 - bw // 2, fh - 1 - bw // 2), radius=g.r * SS,
                             outline=GOLD, width=bw)
        dr.rounded_rectangle((bw, bw, fw - 1 - bw, fh - 1 - bw), radius=g.r * SS, outline=GOLD_LIGHT,
                             width=max(SS, bw // 3))
        rad = fw * 0.2
        _badge(dr, fw - rad - bw * 0.6, rad + bw * 0.6, rad, BADGES[variant])
    else:
        img.alpha_composite(art, (0, 0))
    return img.resize(g.sprite_size, Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=256)
def white_as_sprite(face: int, w: int, side: bool = False) -> Image.Image:
    """A 白板 playing another kind (the caishen ruleset: the 財神's face, RULES B1): the white tile with
    a small tile of the kind it stands for inside its frame, so a meld reads 1万 2万 [白板=3万]."""
    base = sprite(WHITE_KIND, w, "side" if side else "up").copy()
    mini = sprite(face, max(8, round(w * 0.5)), "side" if side else "up")
    g = side_geometry(w) if side else geometry(w)
    x = (g.w - mini.width) // 2
    y = (g.h - mini.height) // 2
    base.alpha_composite(mini, (max(0, x), max(0, y)))
    return base


WHITE_KIND = 31  # 白


def clear_cache() -> None:
    """Forget every sprite (for the cold-start benchmark)."""
    sprite.cache_clear()
    white_as_sprite.cache_clear()
