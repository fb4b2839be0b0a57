"""The hand image a player gets in DMs (a seat view, docs/views.md).

Concealed tiles sorted with the 百搭 first and marked, the drawn tile set apart, a number under every
tile (the discard buttons use the same numbers: 1…len(hand) for ``hand`` in order, then the drawn
tile), the exposed melds with the claimed tile turned toward its seat, and a header with the round,
seat wind, dealer, 百搭 and wall count.

Drawn for a phone first: Discord shows a picture about 550 px wide there, so the picture is at most
``MAX_W`` (760) px wide, which keeps every tile at least 40 px and every text at least 12 px at that
width. A hand too wide for one row (more than 10 tiles) is wrapped into balanced rows, the melds wrap
too, and the header takes a second line when it must. ``layout(view, lang)`` computes every box and font
size; ``draw_hand`` only paints it (tests/render/test_render_hand_phone.py measures the layout).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from jxbot.rules.tiles import sort_hand

from . import common as C
from .labels import L, wild_label, wind
from .tiles import geometry, side_geometry, sprite

TILE_W = 66
MELD_W = 56
WILD_W = 56  # the 百搭 indicator in the header: 40 px at 550 even on the widest picture
PAD = 24
GAP = 3
DRAWN_GAP = 22
MELD_GAP = 18
ROW_GAP = 10
HEADER_TOP = 14
PILL = 20
INDEX = 20
INDEX_H = 34
MIN_W = 560
MAX_W = 760  # 550/760 = 0.72: tiles 66 → 48 px, melds and the indicator 56 → 40 px, text 20 → 14.5 px
PROMPT_H = 36
CLAIM_H = 66
CLAIM_W = 56
PROMPT = 22
CLAIM_TEXT = 24


@dataclass
class Layout:
    """Where everything goes. ``ops`` are drawing steps: ``("pill", x, y, text, size, fill)``,
    ``("text", x, y, text, size, fill, anchor)``, ``("tile", x, y, w, kind, variant)``,
    ``("claim", x, y, w, kind)``, ``("meld", x, y, w, meld)``, ``("glow", box)``, ``("frame", box)``,
    ``("line", box)``, ``("arrow", x, y)``."""

    width: int
    height: int
    ops: list[tuple] = field(default_factory=list)

    def text_sizes(self) -> list[int]:
        return [op[4] for op in self.ops if op[0] in ("pill", "text")]

    def tile_widths(self) -> list[int]:
        return [op[3] for op in self.ops if op[0] in ("tile", "claim", "meld")]


def discard_indices(view: dict) -> list[tuple[int, int]]:
    """(index shown under the tile, tile) in drawing order: the hand, then the drawn tile."""
    tiles = list(view.get("hand") or [])
    out = [(i + 1, t) for i, t in enumerate(tiles)]
    if view.get("drawn") is not None:
        out.append((len(tiles) + 1, view["drawn"]))
    return out


def _can_discard(view: dict) -> bool:
    return any(a.get("type") == "discard" for a in view.get("actions") or [])


CLAIM_ORDER = ("hu", "gang", "peng", "chi")


def _claim(view: dict) -> tuple[int, list[str]] | None:
    """The tile this seat may claim now and the claim kinds offered (胡 first), if any."""
    kinds = {a.get("type") for a in view.get("actions") or []}
    offered = [k for k in CLAIM_ORDER if k in kinds]
    if not offered:
        return None
    pk = view.get("pending_kong")
    if view.get("phase") == "rob" and pk:
        return int(pk["tile"]), offered
    last = view.get("last_discard")
    if not last:
        return None
    return int(last["tile"]), offered


def _rows(n: int, drawn: bool) -> list[int]:
    """How many concealed tiles go on each row: one row when it fits ``MAX_W``, else balanced rows
    (the drawn tile ends the last one)."""
    extra = DRAWN_GAP + TILE_W if drawn else 0
    k = 1
    while C.row_width(math.ceil(n / k), TILE_W, GAP) + (extra if k == 1 else 0) > MAX_W - 2 * PAD and k < 4:
        k += 1
    size = math.ceil(n / k) if n else 0
    out = [min(size, n - i * size) for i in range(k)] if n else [0]
    if drawn and C.row_width(out[-1], TILE_W, GAP) + extra > MAX_W - 2 * PAD:
        out.append(0)
    return out


def _melds(view: dict) -> list[dict]:
    return view["seats"][view.get("viewer") or 0].get("melds", []) if view.get("seats") else []


def layout(view: dict, lang: str) -> Layout:
    """Every box and font size of the hand picture of ``view`` (its ``hand`` sorted as drawn)."""
    wc = view.get("wildcard")
    hand = list(view.get("hand") or [])
    drawn = view.get("drawn")
    melds = _melds(view)
    g = geometry(TILE_W)
    rows = _rows(len(hand), drawn is not None)
    row_ws = [C.row_width(n, TILE_W, GAP) + (DRAWN_GAP + TILE_W if drawn is not None and i == len(rows) - 1 else 0)
              - (DRAWN_GAP if n == 0 and drawn is not None and i == len(rows) - 1 else 0)
              for i, n in enumerate(rows)]
    width = min(MAX_W, max(MIN_W, max(row_ws) + 2 * PAD))
    inner = width - 2 * PAD
    ops: list[tuple] = []
    # header: the round, hand, seat wind and dealer on the left; the 百搭 and the wall on the right,
    # or on a second line when both do not fit
    seat = view.get("viewer") or 0
    me = view["seats"][seat] if view.get("seats") else {}
    pills = [(L("round", lang, wind=wind(view.get("round_wind", 0), lang)), (40, 84, 68)),
             (L("hand_no", lang, n=view.get("hand_number", 1)), (40, 84, 68))]
    sw = me.get("seat_wind", (seat - view.get("dealer", 0)) % 4)
    pills.append((L("seat_wind", lang, wind=wind(sw, lang)), (58, 70, 110)))
    if me.get("is_dealer", view.get("dealer") == seat):
        pills.append((L("dealer_long", lang), (170, 44, 44)))
    ph = round(PILL * 1.5)
    x = PAD
    for s, col in pills:
        ops.append(("pill", x, HEADER_TOP, s, PILL, col))
        x += C.text_w(s, PILL) + 16 + 8
    left_end = x
    wall = f"{L('wall', lang)} {view.get('wall_remaining', 0)}"
    wall_w = C.text_w(wall, PILL) + 16
    wg = geometry(WILD_W)
    right_w = wall_w
    wl = wild_label(view, lang) if wc is not None else ""
    if wc is not None:
        right_w += 14 + WILD_W + 6 + C.text_w(wl, PILL)
    one_line = left_end + right_w <= width - PAD
    ry = HEADER_TOP if one_line else HEADER_TOP + ph + 8
    box_h = max(ph, wg.box_h if wc is not None else 0)
    mid = ry + box_h // 2 if wc is not None else ry + ph // 2
    rx = width - PAD
    ops.append(("pill", rx - wall_w, mid - ph // 2, wall, PILL, (40, 84, 68)))
    rx -= wall_w + 14
    if wc is not None:
        rx -= WILD_W
        ops.append(("tile", rx, mid - wg.box_h // 2, WILD_W, wc, C.wild_variant(view)))
        ops.append(("text", rx - 6, mid, wl, PILL, C.GOLD, "rm"))
    y = max(HEADER_TOP + ph, ry + box_h) + 14
    # the concealed tiles, in rows, the drawn one apart at the end of the last row
    can_discard = _can_discard(view)
    items = discard_indices({**view, "hand": hand})
    k = 0
    for r, n in enumerate(rows):
        x = PAD
        row_items = items[k:k + n]
        k += n
        if r == len(rows) - 1 and drawn is not None:
            row_items = [*row_items, items[-1]]
        for idx, t in row_items:
            if idx == len(hand) + 1:
                if n:
                    x += DRAWN_GAP - GAP
                ops.append(("glow", (x - 5, y - 5, x + TILE_W + 5, y + g.box_h + 5)))
            ops.append(("tile", x, y, TILE_W, t, C.tile_variant(t, wc, C.wild_variant(view))))
            col = C.GOLD if t == wc else C.TEXT if can_discard else C.TEXT_DIM
            ops.append(("text", x + TILE_W / 2, y + g.box_h + 20, str(idx), INDEX, col, "mm"))
            x += TILE_W + GAP
        y += g.box_h + INDEX_H + (ROW_GAP if r < len(rows) - 1 else 8)
    # the melds, wrapped to the width
    claim = _claim(view)
    if claim:
        acts = " · ".join(L(f"act.{kk}", lang) for kk in claim[1])
        prompt, psize = L("claim_prompt", lang, acts=acts), CLAIM_TEXT
        pw = C.text_w(prompt, psize) + 12 + CLAIM_W + 10
        line_h = CLAIM_H
    elif can_discard:
        prompt, psize = L("your_turn", lang), PROMPT
        pw = C.text_w(prompt, psize) + 24 + 10
        line_h = PROMPT_H
    else:
        prompt, psize, pw, line_h = "", 0, 0, 0
    mg = geometry(MELD_W)
    prompt_y = None
    if melds:
        ops.append(("line", (PAD, y, width - PAD, y)))
        y += 14
        lift = round(side_geometry(MELD_W).h + 1)
        meld_rows: list[list[tuple[dict, int]]] = [[]]
        used = 0
        for m in melds:
            mw = C.meld_width(m, MELD_W)
            if meld_rows[-1] and used + MELD_GAP + mw > inner:
                meld_rows.append([])
                used = 0
            used += (MELD_GAP if meld_rows[-1] else 0) + mw
            meld_rows[-1].append((m, mw))
        for i, mr in enumerate(meld_rows):
            if any(m.get("kind") == "added_kong" for m, _ in mr):
                y += lift
            x = PAD
            for m, mw in mr:
                ops.append(("meld", x, y, MELD_W, m))
                x += mw + MELD_GAP
            if i == len(meld_rows) - 1 and prompt and x - MELD_GAP + 10 + pw <= width - PAD:
                prompt_y = y + mg.box_h // 2
            y += mg.box_h + 8
        if prompt and prompt_y is None:
            prompt_y = y + line_h // 2 - 4
            y += line_h
    elif prompt:
        prompt_y = y + (line_h // 2 - 4 if claim else 14)
        y += line_h
    if prompt and prompt_y is not None:
        if claim:
            cg = geometry(CLAIM_W)
            sx = width - PAD - C.text_w(prompt, psize) - 12 - CLAIM_W
            ops.append(("frame", (sx - 4, prompt_y - cg.box_h // 2 - 4, sx + CLAIM_W + 3, prompt_y + cg.box_h // 2 + 3)))
            ops.append(("claim", sx, prompt_y - cg.box_h // 2, CLAIM_W, claim[0]))
        else:
            ops.append(("arrow", width - PAD - C.text_w(prompt, psize), prompt_y))
        ops.append(("text", width - PAD, prompt_y, prompt, psize, C.GOLD, "rm"))
    height = y + PAD - 8
    return Layout(width, height, ops)


def layout_size(view: dict, lang: str = "zh") -> tuple[int, int]:
    lay = layout({**view, "hand": sort_hand(view.get("hand") or [], view.get("wildcard"))}, lang)
    return lay.width, lay.height


def draw_hand(view: dict, lang: str) -> Image.Image:
    viewer = view.get("viewer")
    if viewer is None:
        raise ValueError("render_hand needs a seat view (viewer is null in a public view)")
    view = {**view, "hand": sort_hand(view.get("hand") or [], view.get("wildcard"))}
    lay = layout(view, lang)
    img = C.felt(lay.width, lay.height)
    dr = ImageDraw.Draw(img)
    for op in lay.ops:
        kind = op[0]
        if kind == "pill":
            C.pill(dr, op[1], op[2], op[3], op[4], op[5])
        elif kind == "text":
            C.text(dr, (op[1], op[2]), op[3], op[4], op[5], anchor=op[6])
        elif kind == "tile":
            C.paste(img, sprite(op[4], op[3], op[5]), op[1], op[2])
        elif kind == "claim":
            C.paste(img, C.claim_sprite(view, op[4], op[3]), op[1], op[2])
        elif kind == "meld":
            C.draw_meld(img, op[4], viewer, op[1], op[2], op[3])
        elif kind == "glow":
            dr.rounded_rectangle(op[1], radius=10, outline=(250, 220, 120), width=2)
        elif kind == "frame":
            dr.rounded_rectangle(op[1], radius=7, outline=C.GOLD, width=2)
        elif kind == "line":
            dr.line(op[1], fill=(60, 110, 90), width=1)
        elif kind == "arrow":
            px, py = op[1], op[2]
            dr.polygon([(px - 24, py - 8), (px - 12, py), (px - 24, py + 8)], fill=C.GOLD)
    return img
