"""Shared drawing helpers: backgrounds, text, badges, tile rows (the palette and PNG encoding: render/palette.py)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from . import fonts
from .tiles import BACK, WHITE_KIND, geometry, side_geometry, sprite, white_as_sprite

MAX_WIDTH = 1280
PNG_LEVEL = 1  # zlib level on the palette image: level 6 takes 2-3x as long (table 7.5 ms vs 3.4) for a 15% smaller file

# Colours of the chrome around the tiles
FELT_STEPS = 48
FELT_CENTER = (30, 104, 78)
FELT_EDGE = (14, 58, 44)
PANEL = (16, 38, 32)
PANEL_LINE = (64, 112, 92)
TEXT = (240, 236, 222)
TEXT_DIM = (168, 196, 182)
GOLD = (240, 196, 80)
RED = (214, 64, 64)
GREEN = (102, 214, 132)
SHADOW = (6, 20, 15)
WALL_GREEN = (120, 230, 170)


@functools.lru_cache(maxsize=32)
def _felt_steps(size: tuple[int, int]) -> Image.Image:
    """The felt of a canvas as step numbers 0…FELT_STEPS-1 (0 = centre colour, last = edge colour)."""
    w, h = size
    g = Image.radial_gradient("L").resize((max(1, w * 3 // 4), max(1, h * 3 // 4)))
    g = g.resize((w, h), Image.Resampling.BILINEAR)
    # the edge colour only near the corners
    return g.point(lambda v: round(min(255, v * 255 // 200) * (FELT_STEPS - 1) / 255))


def felt_ramp() -> list[tuple[int, int, int]]:
    """The felt's colours by step; they open the shared palette, so step n is palette index n."""
    out = []
    for n in range(FELT_STEPS):
        a = n / (FELT_STEPS - 1)
        out.append(tuple(round(c * (1 - a) + e * a) for c, e in zip(FELT_CENTER, FELT_EDGE, strict=True)))
    return out  # type: ignore[return-value]


@functools.lru_cache(maxsize=32)
def _felt_rgb(size: tuple[int, int]) -> Image.Image:
    steps = _felt_steps(size)
    ramp = felt_ramp()
    bands = [steps.point([ramp[min(v, FELT_STEPS - 1)][ch] for v in range(256)]) for ch in range(3)]
    return Image.merge("RGB", bands)


@functools.lru_cache(maxsize=32)
def _felt_indexed(size: tuple[int, int]) -> Image.Image:
    return _felt_steps(size).convert("P")  # pixel values are the step numbers = palette indices


def felt(w: int, h: int) -> Image.Image:
    """A radial felt gradient filling the canvas (a fresh copy of a cached image)."""
    return _felt_rgb((w, h)).copy()


def font(size: int):
    return fonts.ui(size)


@functools.lru_cache(maxsize=4096)
def text_w(s: str, size: int) -> int:
    return round(fonts.ui(size).getlength(s))


def fit(s: str, size: int, max_w: int) -> str:
    """``s`` (made drawable) cut with an ellipsis to fit ``max_w`` pixels."""
    s = fonts.safe_text(s)
    if text_w(s, size) <= max_w:
        return s
    while s and text_w(s + "…", size) > max_w:
        s = s[:-1]
    return s.rstrip() + "…"


def player_name(seat: dict, lang: str, size: int, max_w: int) -> str:
    from jxbot.seatnames import seat_name

    from .labels import L

    fallback = L("seat", lang, n=int(seat.get("seat", 0)) + 1)
    name = seat_name(seat, lang) if seat.get("name") else None  # a computer's key in the viewer's words
    return fit(fonts.display_name(name, fallback), size, max_w)


@functools.lru_cache(maxsize=2048)
def _text_mask(f: ImageFont.FreeTypeFont, s: str, anchor: str, start: tuple[float, float]):  # noqa: ANN202
    return f.getmask2(s, "L", anchor=anchor, start=start)


def draw_text(dr: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, f, fill, anchor: str = "la") -> None:
    """``dr.text(xy, s, font=f, fill=fill, anchor=anchor)``, the same pixels, with the glyphs' coverage
    mask cached: rasterising CJK text with FreeType was most of a picture's drawing time, and the same
    labels, names and numbers come back in every picture. One line of text on an RGB/RGBA/L image;
    anything else goes to Pillow as it is."""
    if "\n" in s or not isinstance(f, ImageFont.FreeTypeFont) or dr.fontmode != "L":
        dr.text(xy, s, font=f, fill=fill, anchor=anchor)
        return
    ink, fill_ink = dr._getink(fill)
    ink = fill_ink if ink is None else ink
    if ink is None:
        return
    x, y = xy
    mask, (ox, oy) = _text_mask(f, s, anchor, (math.modf(x)[0], math.modf(y)[0]))
    dr.draw.draw_bitmap((int(x) + ox, int(y) + oy), mask, ink)


def wind_char(dr: ImageDraw.ImageDraw, xy: tuple[float, float], wind: int, lang: str, size: int, fill) -> None:
    """A seat or round wind as one character: the serif 東南西北 of the tiles in zh, E S W N in en."""
    if lang == "zh":
        draw_text(dr, xy, "東南西北"[wind % 4], fonts.tile(size), fill, "mm")
    else:
        draw_text(dr, xy, "ESWN"[wind % 4], fonts.ui(round(size * 0.9)), fill, "mm")


def text(dr: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill=TEXT, anchor: str = "la",
         shadow: bool = False) -> int:
    """Draw ``s`` (only characters of the bundled font) and return its width."""
    s = fonts.safe_text(s)
    f = fonts.ui(size)
    if shadow:
        draw_text(dr, (xy[0] + 1, xy[1] + 2), s, f, SHADOW, anchor)
    draw_text(dr, xy, s, f, fill, anchor)
    return text_w(s, size)


def pill(dr: ImageDraw.ImageDraw, x: float, y: float, s: str, size: int, fill, fg=TEXT, pad: int = 8,
         h: int | None = None, outline=None) -> int:
    """A rounded label starting at (x, y) (top-left); returns its width."""
    s = fonts.safe_text(s)
    tw = text_w(s, size)
    h = h or round(size * 1.5)
    w = tw + pad * 2
    dr.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=fill, outline=outline,
                         width=2 if outline else 0)
    draw_text(dr, (x + w / 2, y + h / 2), s, fonts.ui(size), fg, "mm")
    return w


def badge_circle(dr: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: str, fill, fg=TEXT,
                 outline=None) -> None:
    dr.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2 if outline else 0)
    draw_text(dr, (cx, cy + 1), fonts.safe_text(s), fonts.ui(round(r * 1.15)), fg, "mm")


def paste(img: Image.Image, spr: Image.Image, x: int, y: int) -> None:
    img.paste(spr, (x, y), spr)


def wild_variant(view: dict) -> str:
    """The sprite variant of the view's wildcard: ``caishen`` (財 badge) in the caishen ruleset, else
    ``wild`` (搭 badge)."""
    from jxbot.rulesets import of_view

    return of_view(view).badge


def tile_variant(t: int, wildcard: int | None, wild: str = "wild") -> str:
    return wild if wildcard is not None and t == wildcard else "up"


def meld_width(meld: dict, w: int, gap: int = 1) -> int:
    """Width of a meld drawn at tile width ``w``."""
    n = len(meld["tiles"])
    if meld.get("kind") == "added_kong":
        n = 3  # the added tile lies on top of the claimed one
    sideways = 1 if meld.get("from_seat") is not None else 0
    sg = side_geometry(w)
    return (n - sideways) * (w + gap) + sideways * (sg.w + gap) - gap


def claim_position(kind: str, n: int, from_seat: int | None, seat: int) -> int | None:
    """Index of the sideways tile: from the previous seat (上家) on the left, across in the middle,
    from the next seat (下家) on the right. ``None`` for a concealed kong."""
    if from_seat is None or kind == "concealed_kong":
        return None
    rel = (from_seat - seat) % 4  # 1 = next seat, 2 = across, 3 = previous seat
    if kind == "added_kong":
        n = 3
    return {3: 0, 2: 1, 1: n - 1}.get(rel, 0)


def _meld_sprite(meld: dict, t: int, w: int, variant: str = "up") -> Image.Image:
    """A meld's tile: a 白板 playing the 財神's face (``white_as``, caishen) shows the kind it stands for."""
    wa = meld.get("white_as")
    if wa is not None and t == WHITE_KIND:
        return white_as_sprite(wa, w, variant == "side")
    return sprite(t, w, variant)


def claim_sprite(view: dict, t: int, w: int) -> Image.Image:
    """The tile on offer in a claim prompt; a 白板 at a caishen table shows the face it plays (RULES B1)."""
    wa = view.get("white_as")
    if wa is not None and t == WHITE_KIND:
        return white_as_sprite(wa, w)
    return sprite(t, w, tile_variant(t, view.get("wildcard"), wild_variant(view)))


def draw_voided(img: Image.Image, dr: ImageDraw.ImageDraw, tiles: list[int], right: int, top: int, label: str,
                w: int = 30) -> None:
    """The tiles voided by kong replacements (caishen, RULES B2): out of play and shown to everyone, in
    a row ending at ``right`` under a small label. Nothing is drawn when there are none."""
    if not tiles:
        return
    rw = row_width(len(tiles), w, 2)
    x0 = right - rw
    text(dr, (right, top), label, 15, TEXT_DIM, anchor="ra")
    for i, t in enumerate(tiles):
        paste(img, sprite(t, w, "dim"), x0 + i * (w + 2), top + 20)


def draw_meld(img: Image.Image, meld: dict, seat: int, x: int, y: int, w: int, gap: int = 1) -> int:
    """Draw a meld with its top-left at (x, y), tiles of width ``w``; returns the width used.

    The claimed tile lies sideways, turned toward the seat it came from; an added kong's fourth tile
    lies on top of the sideways one; a concealed kong shows its two end tiles face down.
    """
    g = geometry(w)
    sg = side_geometry(w)
    kind = meld.get("kind", "pung")
    tiles = list(meld["tiles"])
    claimed = meld.get("claimed")
    if kind == "chow" and claimed in tiles:
        # the claimed tile goes sideways; the rest keep their order
        tiles.remove(claimed)
        order = tiles
    else:
        claimed = tiles[0] if claimed is None else claimed
        order = tiles[1:]
    n_side = 3 if kind == "added_kong" else len(meld["tiles"])
    pos = claim_position(kind, n_side, meld.get("from_seat"), seat)
    cx = x
    if kind == "concealed_kong":
        for i, t in enumerate(meld["tiles"]):
            paste(img, sprite(BACK, w) if i in (0, 3) else _meld_sprite(meld, t, w), cx, y)
            cx += w + gap
        return cx - gap - x
    seq: list[tuple[int, bool]] = [(t, False) for t in order[: n_side - 1]]
    side_tile: int = claimed if isinstance(claimed, int) else tiles[0]
    seq.insert(pos if pos is not None else 0, (side_tile, True))
    for t, is_side in seq:
        if is_side:
            sy = y + g.box_h - sg.box_h
            if kind == "added_kong":
                paste(img, _meld_sprite(meld, t, w, "side"), cx, sy)
                paste(img, _meld_sprite(meld, t, w, "side"), cx, sy - sg.h - 1)
            else:
                paste(img, _meld_sprite(meld, t, w, "side"), cx, sy)
            cx += sg.w + gap
        else:
            paste(img, _meld_sprite(meld, t, w), cx, y)
            cx += w + gap
    return cx - gap - x


def row_width(n: int, w: int, gap: int) -> int:
    return n * w + max(0, n - 1) * gap


def seat_order(viewer: int | None) -> Sequence[int]:
    """Seats at the bottom, right, top and left of the table (play runs counterclockwise)."""
    base = viewer if viewer is not None else 0
    return [(base + k) % 4 for k in range(4)]
