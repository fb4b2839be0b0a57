"""The table image for the channel (a public view, docs/views.md). It never shows a concealed tile.

Drawn for a phone first: Discord shows a picture about 550 px wide there, so the image is 640 px wide
(0.86 at 550) with no text under 15 px, and as tall as the hand needs (no empty felt). A header bar gives
the round and hand, whose move it is, the tiles left in the wall and the 百搭 / 財神. Then one panel per
seat in play order, starting at the dealer (東) — or at the viewer of a seat view: seat wind and
dealer mark, name, silver, tags (computer, auto-play or escaped, gave up, contract), the number of concealed
tiles, the melds, and the discards in the order played (claimed ones dimmed, the latest one framed).
The seat whose move it is has a gold frame.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from . import common as C
from .labels import L, wild_label, wind
from .tiles import BACK, geometry, side_geometry, sprite

W = 640
MARGIN = 10
PAD = 10  # inside a panel
GAP = 8  # between panels
HEADER_H = 62
NAME_ROW_H = 44
MELD_W = 30
RIVER_W = 34
RIVER_GAP = 2
BACK_W = 16
WILD_W = 34  # the 百搭 / 財神 in the header
DISC_R = 17
NAME_X = 2 * DISC_R + 18  # the name starts clear of the disc and its dealer badge
PANEL = (12, 34, 28)
PANEL_ACTIVE = (28, 46, 30)
OUTLINE = (58, 100, 82)
TAG_COLOURS = {
    "computer": (60, 80, 130), "auto": (110, 80, 150), "gave_up": (110, 110, 110), "contract": (170, 60, 40),
    "escaped": (150, 90, 30),  # the result picture's colours (render/result.py)
}


VOID_W = 28  # tiles voided by kong replacements (caishen, RULES B2)


def _voided_h(view: dict) -> int:
    return GAP + geometry(VOID_W).box_h if view.get("voided") else 0


def _voided(img: Image.Image, dr: ImageDraw.ImageDraw, tiles: list[int], y: int, lang: str) -> None:
    """The tiles voided by kong replacements (caishen): out of play, shown to everyone, on one strip."""
    g = geometry(VOID_W)
    x = MARGIN + PAD
    x += C.text(dr, (x, y + g.box_h // 2), L("voided", lang), 16, C.TEXT_DIM, anchor="lm") + 10
    for t in tiles:
        if x + VOID_W > W - MARGIN:
            break
        C.paste(img, sprite(t, VOID_W, "dim"), x, y)
        x += VOID_W + 2


def _river_cols() -> int:
    inner = W - 2 * MARGIN - 2 * PAD
    return (inner + RIVER_GAP) // (RIVER_W + RIVER_GAP)


def _melds_h(melds: list[dict]) -> int:
    if not melds:
        return 0
    h = geometry(MELD_W).box_h
    if any(m.get("kind") == "added_kong" for m in melds):
        h += side_geometry(MELD_W).h + 1  # the added tile lies on top of the claimed one
    return h


def _river_h(n: int) -> int:
    if not n:
        return 0
    rows = -(-n // _river_cols())
    return rows * (geometry(RIVER_W).box_h + RIVER_GAP) - RIVER_GAP


def _tags(seat: dict, contract: bool) -> list[str]:
    tags: list[str] = []
    if seat.get("is_computer"):
        tags.append("computer")
    if seat.get("escaped"):
        tags.append("escaped")  # left during this hand: a computer plays it out (RULES A10)
    elif seat.get("auto"):
        tags.append("auto")
    if seat.get("gave_up"):
        tags.append("gave_up")
    if contract:
        tags.append("contract")
    return tags


def _row_geometry(seat: dict, lang: str, contract: bool) -> tuple[str, int, int]:
    """The name as drawn, where the name row's left part (disc, name, silver, tags) ends and where
    its right part (the concealed count) starts, relative to the panel's inner left edge."""
    iw = W - 2 * MARGIN - 2 * PAD
    count = f"×{int(seat.get('concealed_count') or 0)}"
    limit = iw - C.text_w(count, 18) - BACK_W - 14
    tx = NAME_X
    name = C.player_name(seat, lang, 22, max(80, min(240, limit - tx - 90)))
    tx += C.text_w(name, 22) + 12
    bal = seat.get("balance")
    if bal is not None and tx + 20 + C.text_w(f"{bal:,}", 18) <= limit:
        tx += 19 + C.text_w(f"{bal:,}", 18) + 10
    for tag in _tags(seat, contract):
        w = C.text_w(L(tag, lang), 15) + 12
        if tx + w > limit:
            break
        tx += w + 5
    return name, tx, limit


def _melds_w(melds: list[dict]) -> int:
    return sum(C.meld_width(m, MELD_W) for m in melds) + 10 * max(0, len(melds) - 1)


def _melds_inline(seat: dict, lang: str, contract: bool) -> bool:
    """The melds fit on the name row (between the tags and the concealed count): no row of their own."""
    melds = seat.get("melds") or []
    if not melds or any(m.get("kind") == "added_kong" for m in melds):
        return False
    _, left, limit = _row_geometry(seat, lang, contract)
    return left + 8 + _melds_w(melds) <= limit


def _panel_h(seat: dict, lang: str = "zh", contract: bool = False) -> int:
    h = PAD + NAME_ROW_H
    mh = _melds_h(seat.get("melds") or [])
    if mh and not _melds_inline(seat, lang, contract):
        h += 6 + mh
    rh = _river_h(len(seat.get("discards") or []))
    if rh:
        h += 8 + rh
    return h + PAD


def _header(img: Image.Image, dr: ImageDraw.ImageDraw, view: dict, lang: str, names: dict[int, str]) -> None:
    x0, y0, x1, y1 = MARGIN, MARGIN, W - MARGIN, MARGIN + HEADER_H
    dr.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=(16, 26, 24), outline=(70, 90, 80), width=2)
    # left: round and hand, then whose move it is
    top = L("round", lang, wind=wind(view.get("round_wind", 0), lang)) + " · " + \
        L("hand_no", lang, n=view.get("hand_number", 1))
    C.text(dr, (x0 + 14, y0 + 8), top, 20, C.TEXT)
    phase = view.get("phase")
    turn = view.get("turn")
    if phase == "turn" and turn is not None:
        status, col = L("turn_of", lang, name=names.get(turn, "?")), C.GOLD
    else:
        status, col = L(f"phase.{phase}", lang), (255, 206, 120)
    # right: the 百搭 / 財神, then the wall
    wc = view.get("wildcard")
    right = x1 - 12
    if wc is not None:
        g = geometry(WILD_W)
        C.paste(img, sprite(wc, WILD_W, C.wild_variant(view)), right - g.w - 2, y0 + (HEADER_H - g.box_h) // 2 - 1)
        right -= g.w + 10
        right -= C.text(dr, (right, y0 + HEADER_H // 2), wild_label(view, lang), 20, C.GOLD, anchor="rm") + 22
    num = str(view.get("wall_remaining", 0))
    nw = C.text(dr, (right, y0 + HEADER_H // 2 + 1), num, 34, C.WALL_GREEN, anchor="rm")
    C.text(dr, (right - nw - 8, y0 + HEADER_H // 2 + 2), L("wall", lang), 18, C.TEXT_DIM, anchor="rm")
    left_room = right - nw - 8 - C.text_w(L("wall", lang), 18) - 16 - (x0 + 14)
    C.text(dr, (x0 + 14, y0 + 35), C.fit(status, 18, max(60, left_room)), 18, col)


def _name_row(img: Image.Image, dr: ImageDraw.ImageDraw, seat: dict, x: int, y: int, w: int, lang: str, *,
              active: bool, contract: bool, inline: bool) -> None:
    cy = y + NAME_ROW_H // 2
    cx = x + DISC_R + 2
    ring = (200, 50, 50) if seat.get("is_dealer") else (70, 120, 100)
    dr.ellipse((cx - DISC_R, cy - DISC_R, cx + DISC_R, cy + DISC_R), fill=(236, 230, 210), outline=ring, width=3)
    C.wind_char(dr, (cx, cy), seat.get("seat_wind", 0) % 4, lang, 22, (30, 36, 60))
    if seat.get("is_dealer"):
        C.badge_circle(dr, cx + 14, cy - 13, 12, L("dealer", lang), (200, 40, 40), outline=(250, 210, 120))
    # right: the concealed tiles, as one back and a count
    n = int(seat.get("concealed_count") or 0)
    bg = geometry(BACK_W)
    count = f"×{n}"
    cw = C.text_w(count, 18)
    rx = x + w - cw
    C.text(dr, (rx, cy + 1), count, 18, C.TEXT_DIM, anchor="lm")
    C.paste(img, sprite(BACK, BACK_W), rx - BACK_W - 6, cy - bg.box_h // 2)
    name, _, rel_limit = _row_geometry(seat, lang, contract)
    limit = x + rel_limit
    if inline:  # the melds, right-aligned before the count
        melds = seat.get("melds") or []
        mx = limit - _melds_w(melds)
        my = cy - geometry(MELD_W).box_h // 2
        for m in melds:
            mx += C.draw_meld(img, m, int(seat.get("seat", 0)), mx, my, MELD_W) + 10
    # name, silver, tags
    tx = x + NAME_X
    tx += C.text(dr, (tx, cy), name, 22, C.GOLD if active else C.TEXT, anchor="lm") + 12
    bal = seat.get("balance")
    if bal is not None:
        label = f"{bal:,}"
        if tx + 20 + C.text_w(label, 18) <= limit:
            dr.ellipse((tx, cy - 7, tx + 14, cy + 7), fill=(226, 186, 70), outline=(150, 110, 30))
            tx += 19
            tx += C.text(dr, (tx, cy + 1), label, 18, C.TEXT_DIM, anchor="lm") + 10
    for tag in _tags(seat, contract):
        label = L(tag, lang)
        if tx + C.text_w(label, 15) + 12 > limit:
            break
        tx += C.pill(dr, tx, cy - 11, label, 15, TAG_COLOURS[tag], pad=6, h=22) + 5


def _river(img: Image.Image, dr: ImageDraw.ImageDraw, discards: list[dict], x0: int, y0: int,
           wildcard: int | None, last: bool, wild: str) -> None:
    g = geometry(RIVER_W)
    cols = _river_cols()
    n = len(discards)
    for i, d in enumerate(discards):
        x = x0 + (i % cols) * (RIVER_W + RIVER_GAP)
        y = y0 + (i // cols) * (g.box_h + RIVER_GAP)
        t = d["tile"]
        variant = "dim" if d.get("claimed") else C.tile_variant(t, wildcard, wild)
        C.paste(img, sprite(t, RIVER_W, variant), x, y)
        if last and i == n - 1:
            dr.rounded_rectangle((x - 2, y - 2, x + RIVER_W + 1, y + g.box_h + 1), radius=5, outline=C.GOLD, width=3)


def _panel(img: Image.Image, dr: ImageDraw.ImageDraw, view: dict, s: int, y: int, lang: str) -> int:
    seat = view["seats"][s]
    contract = s in (view.get("contract") or ())
    inline = _melds_inline(seat, lang, contract)
    h = _panel_h(seat, lang, contract)
    x0, x1 = MARGIN, W - MARGIN
    active = s == view.get("turn") and view.get("phase") != "ended"
    if active:
        dr.rounded_rectangle((x0, y, x1, y + h), radius=14, fill=PANEL_ACTIVE, outline=C.GOLD, width=3)
    else:
        dr.rounded_rectangle((x0, y, x1, y + h), radius=14, fill=PANEL, outline=OUTLINE, width=2)
    ix, iw = x0 + PAD, x1 - x0 - 2 * PAD
    _name_row(img, dr, seat, ix, y + PAD, iw, lang, active=active, contract=contract, inline=inline)
    cy = y + PAD + NAME_ROW_H
    melds = seat.get("melds") or []
    mh = _melds_h(melds)
    if mh and not inline:
        cy += 6
        my = cy + mh - geometry(MELD_W).box_h  # room above for an added kong's top tile
        mx = ix
        for m in melds:
            mx += C.draw_meld(img, m, s, mx, my, MELD_W) + 10
        cy += mh
    discards = seat.get("discards") or []
    if discards:
        cy += 8
        last = view.get("last_discard") or {}
        _river(img, dr, discards, ix, cy, view.get("wildcard"), last.get("seat") == s, C.wild_variant(view))
    return h


def _order(view: dict) -> list[int]:
    """Play order from the viewer of a seat view, else from the dealer (東 first)."""
    viewer = view.get("viewer")
    start = viewer if viewer is not None else view.get("dealer")
    return list(C.seat_order(start if isinstance(start, int) else 0))


def draw_table(view: dict, lang: str) -> Image.Image:
    lang = "zh" if lang.lower().startswith("zh") else "en"
    seats = view.get("seats") or []
    order = [s for s in _order(view) if s < len(seats)]
    contract = set(view.get("contract") or ())
    height = MARGIN + HEADER_H + _voided_h(view) + sum(GAP + _panel_h(seats[s], lang, s in contract) for s in order) \
        + MARGIN
    img = C.felt(W, height)
    dr = ImageDraw.Draw(img)
    names = {s: C.player_name(seats[s], lang, 18, 200) for s in order}
    _header(img, dr, view, lang, names)
    y = MARGIN + HEADER_H
    if view.get("voided"):
        _voided(img, dr, list(view["voided"]), y + GAP, lang)
        y += _voided_h(view)
    for s in order:
        y += GAP
        y += _panel(img, dr, view, s, y, lang)
    return img
