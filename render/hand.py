"""The hand image a player gets in DMs (a seat view, docs/views.md).

Concealed tiles sorted with the 百搭 first and marked, the drawn tile set apart, a number under every
tile (the discard buttons use the same numbers: 1…len(hand) for ``hand`` in order, then the drawn
tile), the exposed melds with the claimed tile turned toward its seat, and a header with the round,
seat wind, dealer, 百搭 and wall count.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from jxbot.rules.tiles import sort_hand

from . import common as C
from .labels import L, wild_label, wind
from .tiles import geometry, side_geometry, sprite

TILE_W = 66
MELD_W = 50
PAD = 26
GAP = 3
DRAWN_GAP = 26
HEADER_H = 58
INDEX_H = 34
MIN_W = 560
PROMPT_H = 36
CLAIM_H = 66
CLAIM_W = 36


def discard_indices(view: dict) -> list[tuple[int, int]]:
    """(index shown under the tile, tile) in drawing order: the hand, then the drawn tile."""
    tiles = list(view.get("hand") or [])
    out = [(i + 1, t) for i, t in enumerate(tiles)]
    if view.get("drawn") is not None:
        out.append((len(tiles) + 1, view["drawn"]))
    return out


def _header(dr: ImageDraw.ImageDraw, view: dict, lang: str, width: int) -> None:
    seat = view.get("viewer") or 0
    me = view["seats"][seat] if view.get("seats") else {}
    x = PAD
    y = 16
    x += C.pill(dr, x, y, L("round", lang, wind=wind(view.get("round_wind", 0), lang)), 20, (40, 84, 68)) + 8
    x += C.pill(dr, x, y, L("hand_no", lang, n=view.get("hand_number", 1)), 20, (40, 84, 68)) + 8
    sw = me.get("seat_wind", (seat - view.get("dealer", 0)) % 4)
    x += C.pill(dr, x, y, L("seat_wind", lang, wind=wind(sw, lang)), 20, (58, 70, 110)) + 8
    if me.get("is_dealer", view.get("dealer") == seat):
        x += C.pill(dr, x, y, L("dealer_long", lang), 20, (170, 44, 44)) + 8
    # right side: wall count and the 百搭
    rx = width - PAD
    wall = f"{L('wall', lang)} {view.get('wall_remaining', 0)}"
    w = C.text_w(wall, 20) + 16
    C.pill(dr, rx - w, y, wall, 20, (40, 84, 68))
    rx -= w + 14
    wc = view.get("wildcard")
    if wc is not None:
        tw = 26
        g = geometry(tw)
        rx -= tw
        dr._image.paste(sprite(wc, tw, C.wild_variant(view)), (rx, y - 4), sprite(wc, tw, C.wild_variant(view)))  # type: ignore[attr-defined]
        del g
        rx -= 6
        C.text(dr, (rx, y + 15), wild_label(view, lang), 20, C.GOLD, anchor="rm")


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


def layout_size(view: dict) -> tuple[int, int]:
    g = geometry(TILE_W)
    n = len(view.get("hand") or [])
    drawn = view.get("drawn") is not None
    row = C.row_width(n, TILE_W, GAP) + (DRAWN_GAP + TILE_W if drawn else 0)
    melds = view["seats"][view.get("viewer") or 0].get("melds", []) if view.get("seats") else []
    mw = sum(C.meld_width(m, MELD_W) for m in melds) + 18 * max(0, len(melds) - 1)
    width = max(MIN_W, row + 2 * PAD, mw + 2 * PAD)
    height = HEADER_H + g.box_h + INDEX_H + 8
    if melds:
        mg = geometry(MELD_W)
        extra = round(side_geometry(MELD_W).h + 1) if any(m.get("kind") == "added_kong" for m in melds) else 0
        height += 14 + extra + mg.box_h + 8
    elif _claim(view):
        height += CLAIM_H
    elif _can_discard(view):
        height += PROMPT_H
    height += PAD - 8
    return min(width, C.MAX_WIDTH), height


def draw_hand(view: dict, lang: str) -> Image.Image:
    viewer = view.get("viewer")
    if viewer is None:
        raise ValueError("render_hand needs a seat view (viewer is null in a public view)")
    wc = view.get("wildcard")
    hand = sort_hand(view.get("hand") or [], wc)
    view = {**view, "hand": hand}
    width, height = layout_size(view)
    img = C.felt(width, height)
    dr = ImageDraw.Draw(img)
    _header(dr, view, lang, width)
    g = geometry(TILE_W)
    y = HEADER_H
    x = PAD
    items = discard_indices(view)
    n_hand = len(hand)
    can_discard = _can_discard(view)
    for idx, t in items:
        if idx == n_hand + 1:
            x += DRAWN_GAP - GAP
            # a soft glow marks the drawn tile
            dr.rounded_rectangle((x - 5, y - 5, x + TILE_W + 5, y + g.box_h + 5), radius=10,
                                 outline=(250, 220, 120), width=2)
        C.paste(img, sprite(t, TILE_W, C.tile_variant(t, wc, C.wild_variant(view))), x, y)
        ty = y + g.box_h + 8
        col = C.GOLD if t == wc else C.TEXT if can_discard else C.TEXT_DIM
        C.text(dr, (x + TILE_W / 2, ty + 12), str(idx), 20, col, anchor="mm")
        x += TILE_W + GAP
    y += g.box_h + INDEX_H + 8
    seat = view["seats"][viewer] if view.get("seats") else {}
    melds = seat.get("melds", [])
    if melds:
        mg = geometry(MELD_W)
        dr.line((PAD, y, width - PAD, y), fill=(60, 110, 90), width=1)
        y += 14
        if any(m.get("kind") == "added_kong" for m in melds):
            y += side_geometry(MELD_W).h + 1
        x = PAD
        for m in melds:
            x += C.draw_meld(img, m, viewer, x, y, MELD_W) + 18
        prompt_y = y + mg.box_h // 2
    else:
        prompt_y = y + (CLAIM_H // 2 - 4 if _claim(view) else 14)
    claim = _claim(view)
    if claim:
        tile, kinds = claim
        acts = " · ".join(L(f"act.{k}", lang) for k in kinds)
        prompt = L("claim_prompt", lang, acts=acts)
        cg = geometry(CLAIM_W)
        pw = C.text_w(prompt, 24)
        px = width - PAD - pw
        sx = px - 12 - CLAIM_W
        if sx > x + 10 or not melds:
            dr.rounded_rectangle((sx - 4, prompt_y - cg.box_h // 2 - 4, sx + CLAIM_W + 3, prompt_y + cg.box_h // 2 + 3),
                                 radius=7, outline=C.GOLD, width=2)
            C.paste(img, C.claim_sprite(view, tile, CLAIM_W), sx, prompt_y - cg.box_h // 2)
            C.text(dr, (width - PAD, prompt_y), prompt, 24, C.GOLD, anchor="rm")
    elif can_discard:
        prompt = L("your_turn", lang)
        pw = C.text_w(prompt, 22)
        px = width - PAD - pw
        if px > x + 10 or not melds:
            dr.polygon([(px - 24, prompt_y - 8), (px - 12, prompt_y), (px - 24, prompt_y + 8)], fill=C.GOLD)
            C.text(dr, (width - PAD, prompt_y), prompt, 22, C.GOLD, anchor="rm")
    return img
