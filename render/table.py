"""The table image for the channel (a public view, docs/views.md). It never shows a concealed tile.

Seats sit around a felt: seat 0 (or the viewer of a seat view) at the bottom, then counterclockwise in
play order: right, top, left. Each seat has a name plate (seat wind, name, silver, dealer and status
tags), its melds and its concealed tiles as backs; the discard rivers sit between the seats and a
centre console in the manner of an automatic table shows the winds, whose turn it is, the wall count,
the round and the 百搭. All tiles stand upright so that they read on a phone; rivers read left to
right, top to bottom, in the order discarded.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from . import common as C
from .labels import L, wild_label, wind
from .tiles import BACK, geometry, side_geometry, sprite

W, H = 1280, 940
FRAME = 14
RIVER_W = 40
RIVER_GAP = 2
MELD_W = 30  # melds of the left and right seats
BACK_W = 17  # their concealed tiles
TOP_MELD_W = 38  # melds of the top and bottom seats
STRIP_BACK_W = 22
CONSOLE = 224
CELL_GAP = 14
PLATE_W, PLATE_H = 226, 60

def _frame(img: Image.Image) -> None:
    dr = ImageDraw.Draw(img)
    for i, col in enumerate(((58, 34, 20), (96, 60, 34), (120, 78, 44), (86, 52, 30))):
        dr.rounded_rectangle((i, i, W - 1 - i, H - 1 - i), radius=26 - i, outline=col, width=1)
    dr.rounded_rectangle((4, 4, W - 5, H - 5), radius=22, outline=(104, 66, 38), width=FRAME - 6)
    dr.rounded_rectangle((FRAME - 1, FRAME - 1, W - FRAME, H - FRAME), radius=16, outline=(8, 40, 30), width=2)


def _plate(img: Image.Image, dr: ImageDraw.ImageDraw, seat: dict, x: int, y: int, lang: str, *, active: bool,
           contract: bool) -> None:
    fill = (12, 34, 28)
    outline = C.GOLD if active else (58, 100, 82)
    if active:
        dr.rounded_rectangle((x - 4, y - 4, x + PLATE_W + 4, y + PLATE_H + 4), radius=16, outline=(150, 120, 50),
                             width=2)
    dr.rounded_rectangle((x, y, x + PLATE_W, y + PLATE_H), radius=13, fill=fill, outline=outline, width=2)
    sw = seat.get("seat_wind", 0) % 4
    cx, cy, r = x + 31, y + PLATE_H // 2, 22
    ring = (200, 50, 50) if seat.get("is_dealer") else (70, 120, 100)
    dr.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 230, 210), outline=ring, width=3)
    C.wind_char(dr, (cx, cy), sw, lang, 26, (30, 36, 60))
    if seat.get("is_dealer"):
        C.badge_circle(dr, cx + 17, cy - 17, 10, L("dealer", lang), (200, 40, 40), outline=(250, 210, 120))
    nx = x + 62
    name = C.player_name(seat, lang, 22, PLATE_W - 72)
    C.text(dr, (nx, y + 7), name, 22, C.GOLD if active else C.TEXT)
    # second line: silver and tags
    ly = y + 36
    tx = nx
    bal = seat.get("balance")
    if bal is not None:
        dr.ellipse((tx, ly + 2, tx + 14, ly + 16), fill=(226, 186, 70), outline=(150, 110, 30))
        tx += 19
        tx += C.text(dr, (tx, ly - 1), f"{bal:,}", 17, C.TEXT_DIM) + 8
    tags: list[tuple[str, tuple[int, int, int]]] = []
    if seat.get("is_computer"):
        tags.append((L("computer", lang), (60, 80, 130)))
    if seat.get("auto"):
        tags.append((L("auto", lang), (110, 80, 150)))
    if seat.get("gave_up"):
        tags.append((L("gave_up", lang), (110, 110, 110)))
    if contract:
        tags.append((L("contract", lang), (170, 60, 40)))
    for label, col in tags:
        if tx + C.text_w(label, 14) + 12 > x + PLATE_W - 4:
            break
        tx += C.pill(dr, tx, ly, label, 14, col, pad=6, h=20) + 4


def _backs(img: Image.Image, n: int, x: int, y: int, w: int) -> int:
    spr = sprite(BACK, w)
    for i in range(n):
        C.paste(img, spr, x + i * (w + 1), y)
    return n * (w + 1) - 1 if n else 0


def _melds_row(img: Image.Image, melds: list[dict], seat: int, x: int, y: int, w: int, gap: int = 10) -> int:
    cx = x
    for m in melds:
        cx += C.draw_meld(img, m, seat, cx, y, w) + gap
    return cx - x - (gap if melds else 0)


def _river(img: Image.Image, dr: ImageDraw.ImageDraw, discards: list[dict], x0: int, y0: int, cols: int,
           wildcard: int | None, last: bool, wild: str = "wild") -> None:
    g = geometry(RIVER_W)
    n = len(discards)
    for i, d in enumerate(discards):
        x = x0 + (i % cols) * (RIVER_W + RIVER_GAP)
        y = y0 + (i // cols) * (g.box_h + RIVER_GAP)
        t = d["tile"]
        variant = "dim" if d.get("claimed") else C.tile_variant(t, wildcard, wild)
        C.paste(img, sprite(t, RIVER_W, variant), x, y)
        if last and i == n - 1:
            dr.rounded_rectangle((x - 3, y - 3, x + RIVER_W + 2, y + g.box_h + 2), radius=6, outline=C.GOLD,
                                 width=3)
            tx, ty = x + RIVER_W // 2, y - 6
            dr.polygon([(tx - 7, ty - 9), (tx + 7, ty - 9), (tx, ty)], fill=C.GOLD)


def _river_shape(n: int) -> tuple[int, int]:
    cols = max(6, math.ceil(n / 4))
    rows = max(1, math.ceil(n / cols))
    return cols, rows


def _console(img: Image.Image, dr: ImageDraw.ImageDraw, view: dict, pos: dict[int, str], lang: str) -> None:
    cx, cy = W // 2, H // 2
    h = CONSOLE // 2
    x0, y0, x1, y1 = cx - h, cy - h, cx + h, cy + h
    dr.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), radius=26, fill=(10, 44, 34))
    dr.rounded_rectangle((x0, y0, x1, y1), radius=22, fill=(18, 26, 24), outline=(70, 90, 80), width=2)
    turn = view.get("turn")
    seats = view.get("seats") or []
    for s, side in pos.items():
        sw = seats[s].get("seat_wind", 0) % 4 if s < len(seats) else 0
        active = s == turn and view.get("phase") != "ended"
        col = C.GOLD if active else (150, 170, 160)
        if side == "bottom":
            p, bar = (cx, y1 - 22), (cx - 44, y1 - 5, cx + 44, y1 - 1)
        elif side == "top":
            p, bar = (cx, y0 + 22), (cx - 44, y0 + 1, cx + 44, y0 + 5)
        elif side == "left":
            p, bar = (x0 + 22, cy), (x0 + 1, cy - 44, x0 + 5, cy + 44)
        else:
            p, bar = (x1 - 22, cy), (x1 - 5, cy - 44, x1 - 1, cy + 44)
        C.wind_char(dr, p, sw, lang, 26, col)
        if active:
            dr.rounded_rectangle(bar, radius=2, fill=C.GOLD)
        if seats and s < len(seats) and seats[s].get("is_dealer"):
            dx, dy = {"bottom": (24, 0), "top": (24, 0), "left": (0, 24), "right": (0, 24)}[side]
            dr.ellipse((p[0] + dx - 4, p[1] + dy - 4, p[0] + dx + 4, p[1] + dy + 4), fill=(220, 60, 60))
    # centre: wall count, round, 百搭
    C.text(dr, (cx, cy - 52), L("round", lang, wind=wind(view.get("round_wind", 0), lang)) + " · " +
           L("hand_no", lang, n=view.get("hand_number", 1)), 15, C.TEXT_DIM, anchor="mm")
    C.text(dr, (cx - 4, cy - 14), str(view.get("wall_remaining", 0)), 42, C.WALL_GREEN, anchor="mm")
    C.text(dr, (cx, cy + 16), L("wall", lang), 14, C.TEXT_DIM, anchor="mm")
    wc = view.get("wildcard")
    if wc is not None:
        tw = 26
        g = geometry(tw)
        label = wild_label(view, lang)
        lw = C.text_w(label, 16)
        total = tw + 6 + lw
        sx = cx - total // 2
        ty = cy + 32
        C.paste(img, sprite(wc, tw, C.wild_variant(view)), sx, ty)
        C.text(dr, (sx + tw + 6, ty + g.box_h // 2), label, 16, C.GOLD, anchor="lm")
    phase = view.get("phase")
    if phase in ("claim", "rob", "contract", "ended"):
        # the corners of the felt are free: the state of a window goes top left, where it is seen first
        C.pill(dr, FRAME + 16, FRAME + 16, L(f"phase.{phase}", lang), 20, (120, 70, 20), fg=(255, 226, 150),
               pad=14, h=36, outline=C.GOLD)


def _strip_width(seat: dict) -> int:
    melds = seat.get("melds") or []
    n = int(seat.get("concealed_count") or 0)
    w = PLATE_W + 18
    if n:
        w += n * (STRIP_BACK_W + 1) - 1 + (14 if melds else 0)
    w += sum(C.meld_width(m, TOP_MELD_W) for m in melds) + 10 * max(0, len(melds) - 1)
    return w


def draw_table(view: dict, lang: str) -> Image.Image:
    lang = "zh" if lang.lower().startswith("zh") else "en"
    img = C.felt(W, H)
    _frame(img)
    dr = ImageDraw.Draw(img)
    seats = view.get("seats") or []
    order = C.seat_order(view.get("viewer"))
    sides = ("bottom", "right", "top", "left")
    pos = {s: sides[k] for k, s in enumerate(order)}
    wc = view.get("wildcard")
    contract = set(view.get("contract") or [])
    last = view.get("last_discard") or {}
    turn = view.get("turn")
    phase = view.get("phase")
    rg = geometry(RIVER_W)
    cell_w = 6 * (RIVER_W + RIVER_GAP) - RIVER_GAP
    cell_h = 4 * (rg.box_h + RIVER_GAP) - RIVER_GAP
    cx, cy = W // 2, H // 2
    half = CONSOLE // 2
    _console(img, dr, view, pos, lang)
    C.draw_voided(img, dr, view.get("voided") or [], W - FRAME - 16, FRAME + 16, L("voided", lang))  # caishen B2
    col_w = cx - half - CELL_GAP - cell_w - 12 - FRAME - 10
    for s in order:
        if s >= len(seats):
            continue
        seat = seats[s]
        side = pos[s]
        active = s == turn and phase != "ended"
        discards = seat.get("discards") or []
        cols, rows = _river_shape(len(discards))
        rw = cols * (RIVER_W + RIVER_GAP) - RIVER_GAP
        rh = rows * (rg.box_h + RIVER_GAP) - RIVER_GAP
        if side == "bottom":
            rx, ry = cx - rw // 2, cy + half + CELL_GAP
        elif side == "top":
            rx, ry = cx - rw // 2, cy - half - CELL_GAP - rh
        elif side == "left":
            rx, ry = cx - half - CELL_GAP - rw, cy - cell_h // 2
        else:
            rx, ry = cx + half + CELL_GAP, cy - cell_h // 2
        _river(img, dr, discards, rx, ry, cols, wc, last.get("seat") == s, C.wild_variant(view))
        melds = seat.get("melds") or []
        n_conc = int(seat.get("concealed_count") or 0)
        mg = geometry(TOP_MELD_W)
        bg = geometry(STRIP_BACK_W)
        if side in ("bottom", "top"):
            sw = _strip_width(seat)
            x = max(FRAME + 16, cx - sw // 2)
            py = H - FRAME - 10 - PLATE_H if side == "bottom" else FRAME + 10
            ty = py + (PLATE_H - mg.box_h) // 2
            if side == "top" and any(m.get("kind") == "added_kong" for m in melds):
                ty = max(ty, FRAME + 4 + side_geometry(TOP_MELD_W).h + 1)  # room for the tile laid on top
            _plate(img, dr, seat, x, py, lang, active=active, contract=s in contract)
            x += PLATE_W + 18
            x += _backs(img, n_conc, x, ty + mg.box_h - bg.box_h, STRIP_BACK_W)
            if n_conc and melds:
                x += 14
            _melds_row(img, melds, s, x, ty, TOP_MELD_W)
        else:
            x0 = FRAME + 10 if side == "left" else W - FRAME - 10 - col_w
            py = cy - 150
            _plate(img, dr, seat, x0 + (col_w - PLATE_W) // 2, py, lang, active=active, contract=s in contract)
            ty = py + PLATE_H + 16
            bw = n_conc * (BACK_W + 1) - 1
            _backs(img, n_conc, x0 + (col_w - bw) // 2, ty, BACK_W)
            ty += geometry(BACK_W).box_h + 16
            for i in range(0, len(melds), 2):
                pair = melds[i:i + 2]
                if any(m.get("kind") == "added_kong" for m in pair):
                    ty += MELD_W + 2  # room for the tile laid on top
                mw = sum(C.meld_width(m, MELD_W) for m in pair) + 10 * (len(pair) - 1)
                _melds_row(img, pair, s, x0 + (col_w - mw) // 2, ty, MELD_W)
                ty += geometry(MELD_W).box_h + 12
    return img
