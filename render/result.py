"""The result image at the end of a hand (a result view, docs/views.md).

A win shows the winning hand (the winning tile set apart), every 台 and 番 item with its value, the
formula stake × 台 × 2^番 = points, each seat's payment and new balance. A drawn hand (荒) shows the
cumulative 番 carried on to the next hands and the settlement.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from jxbot.i18n import t as _t
from jxbot.rules.explain import explain
from jxbot.rules.tiles import sort_hand
from jxbot.rulesets import of_view

from . import common as C
from .labels import L, item_label, wild_label, wind
from .tiles import geometry, side_geometry, sprite

WIDTH = 980
PAD = 32
TILE_W = 52
MELD_W = 44
ROW_H = 46
HEADER_H = 92

PANEL = (12, 32, 27)
PANEL_LINE = (52, 92, 76)
POS = (110, 220, 140)
NEG = (236, 110, 100)


def _panel(dr: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int) -> None:
    dr.rounded_rectangle((x0, y0, x1, y1), radius=16, fill=PANEL, outline=PANEL_LINE, width=2)


def _hand_tiles(view: dict) -> tuple[list[int], int | None]:
    """The concealed tiles to draw and the winning tile shown apart."""
    hand = list(view.get("hand") or [])
    win = view.get("win_tile")
    melds = view.get("melds") or []
    if win is not None and len(hand) + 3 * len(melds) == 14 and win in hand:
        hand.remove(win)
    return sort_hand(hand, view.get("wildcard")), win


def _headline(view: dict, lang: str) -> str:
    seats = {p["seat"]: p for p in view.get("payments") or []}

    def name(s: int | None) -> str:
        if s is None:
            return "?"
        p = seats.get(s, {"seat": s})
        return C.player_name(p, lang, 32, 360)

    if view.get("drawn_game") or view.get("winner") is None:
        return L("drawn_game", lang)
    w = view["winner"]
    if view.get("robbed_from") is not None:
        return L("win_rob", lang, name=name(w), who=name(view["robbed_from"]))
    if view.get("self_draw"):
        return L("win_self", lang, name=name(w))
    return L("win_discard", lang, name=name(w), who=name(view.get("discarder")))


# room for a payment row's name and its tags, left of the 输赢 column
NAME_TAGS_W = 230
# the same colours as the seat tags on the table picture (render/table.py)
TAG_CONTRACT = (170, 60, 40)
TAG_GAVE_UP = (110, 110, 110)
TAG_ESCAPED = (150, 90, 30)


def _seat_tags(view: dict, seat: int, lang: str) -> list[tuple[str, tuple[int, int, int]]]:
    """The tags of a payment row: 承包 for the two seats bound by the contract, 放弃 for a seat
    that gave up, 逃跑 for a seat that escaped."""
    tags: list[tuple[str, tuple[int, int, int]]] = []
    if seat in (view.get("contract") or ()):
        tags.append((L("contract", lang), TAG_CONTRACT))
    if seat in (view.get("gave_up") or ()):
        tags.append((L("gave_up", lang), TAG_GAVE_UP))
    if seat in (view.get("escaped") or ()):
        tags.append((L("escaped", lang), TAG_ESCAPED))
    return tags


WHY_SIZE = 22  # a row's "why" line: 12 px when the picture is shown 550 px wide (a phone)
WHY_H = 30


def _why(view: dict, p: dict, lang: str) -> str:
    """Why this seat paid what it paid (承包 ×5, 放弃 ×0, 抢杠 ×3, 逃跑, 庄家 底 ×2, 放铳 ×2, a cap),
    with the arithmetic (points × multiplier = owed); the fee has its own column."""
    return explain(p, int((view.get("score") or {}).get("points") or 0), lang, fee=False)


def _rows_h(view: dict) -> int:
    pays = view.get("payments") or []
    return sum(ROW_H + (WHY_H if _why(view, p, "en") else 0) for p in pays)


def _items_height(score: dict) -> int:
    n = max(len(score.get("tai") or []), len(score.get("fan") or []), 1)
    return 54 + n * 38 + 14


LEGEND_SIZE = 22  # the formula's legend: 12 px when the picture is shown 550 px wide (a phone)
LEGEND_H = 30  # its line under the formula


def _formula_h(view: dict) -> int:
    """The formula panel: the formula, and (台/番 rulesets) the legend on a line of its own under it."""
    return 92 + (0 if of_view(view).multiplier_scoring else LEGEND_H)


def _layout_height(view: dict) -> int:
    h = HEADER_H + 18
    score = view.get("score")
    won = not view.get("drawn_game") and view.get("winner") is not None
    if won:
        g = geometry(TILE_W)
        extra = side_geometry(MELD_W).h if any(m.get("kind") == "added_kong" for m in view.get("melds") or []) else 0
        h += g.box_h + 40 + extra + 18
        if score:
            h += _items_height(score) + 18 + _formula_h(view) + 18
    h += 50 + _rows_h(view) + 16 + 18
    h += 70 + PAD - 18
    return h


def _superscript_formula(dr: ImageDraw.ImageDraw, cx: int, y: int, score: dict, lang: str) -> None:
    stake, tai, fan, pts = score.get("stake", 1), score.get("total_tai", 0), score.get("total_fan", 0), \
        score.get("points", 0)
    tai_u, fan_u = L("tai", lang), L("fan", lang)
    sep = "" if lang == "zh" else " "
    parts = [(f"{stake}", 40, C.TEXT, 0), (" × ", 34, C.TEXT_DIM, 0), (f"{tai}{sep}{tai_u}", 40, C.TEXT, 0),
             (" × ", 34, C.TEXT_DIM, 0), ("2", 40, C.TEXT, 0), (f"{fan}", 24, C.GOLD, -18),
             (f"{sep}{fan_u}" if lang == "en" else fan_u, 24, C.GOLD, -18), (" = ", 34, C.TEXT_DIM, 0),
             (f"{pts:,}", 46, C.GOLD, 0)]
    total = sum(C.text_w(t, s) for t, s, _, _ in parts)
    x = cx - total // 2
    for t, s, col, dy in parts:
        x += C.text(dr, (x, y + dy), t, s, col, anchor="ls")


def draw_result(view: dict, lang: str) -> Image.Image:
    lang = "zh" if lang.lower().startswith("zh") else "en"
    height = _layout_height(view)
    img = C.felt(WIDTH, height)
    dr = ImageDraw.Draw(img)
    wc = view.get("wildcard")
    won = not view.get("drawn_game") and view.get("winner") is not None
    score = view.get("score") if won else None
    # header band
    dr.rectangle((0, 0, WIDTH, HEADER_H), fill=(10, 30, 24))
    dr.line((0, HEADER_H, WIDTH, HEADER_H), fill=C.GOLD if won else (120, 130, 125), width=3)
    title = C.fit(_headline(view, lang), 32, WIDTH - 2 * PAD - 260)
    C.text(dr, (PAD, HEADER_H // 2 + 2), title, 32, C.GOLD if won else C.TEXT, anchor="lm", shadow=True)
    meta = L("round", lang, wind=wind(view.get("round_wind", 0), lang)) + " · " + \
        L("hand_no", lang, n=view.get("hand_number", 1))
    rx = WIDTH - PAD
    if wc is not None:
        tw = 28
        g = geometry(tw)
        rx -= tw
        C.paste(img, sprite(wc, tw, C.wild_variant(view)), rx, HEADER_H // 2 - g.box_h // 2)
        rx -= 8
        rx -= C.text(dr, (rx, HEADER_H // 2), wild_label(view, lang), 18, C.GOLD, anchor="rm") + 18
    C.text(dr, (rx, HEADER_H // 2), meta, 18, C.TEXT_DIM, anchor="rm")
    y = HEADER_H + 18
    if won:
        hand, win = _hand_tiles(view)
        g = geometry(TILE_W)
        melds = view.get("melds") or []
        if any(m.get("kind") == "added_kong" for m in melds):
            y += side_geometry(MELD_W).h
        x = PAD
        for t in hand:
            C.paste(img, sprite(t, TILE_W, C.tile_variant(t, wc, C.wild_variant(view))), x, y)
            x += TILE_W + 2
        if win is not None:
            x += 16
            dr.rounded_rectangle((x - 5, y - 5, x + TILE_W + 5, y + g.box_h + 5), radius=10, outline=C.GOLD,
                                 width=3)
            C.paste(img, sprite(win, TILE_W, C.tile_variant(win, wc, C.wild_variant(view))), x, y)
            C.text(dr, (x + TILE_W // 2, y + g.box_h + 20), L("win_tile", lang), 17, C.GOLD, anchor="mm")
            x += TILE_W + 26
        mg = geometry(MELD_W)
        for m in melds:
            x += C.draw_meld(img, m, view["winner"], x, y + g.box_h - mg.box_h, MELD_W) + 14
        y += g.box_h + 40 + 18
        if score:
            ih = _items_height(score)
            colw = (WIDTH - 2 * PAD - 18) // 2
            caishen = of_view(view).multiplier_scoring  # RULES B: one column of multipliers
            mult = 1
            for it in score.get("fan") or []:
                mult *= it["value"]
            columns = ((("mult", "x", score.get("fan") or []),) if caishen else
                       (("tai_items", "tai", score.get("tai") or []), ("fan_items", "fan", score.get("fan") or [])))
            if caishen:
                colw = WIDTH - 2 * PAD
            for k, (key, unit, items) in enumerate(columns):
                x0 = PAD + k * (colw + 18)
                _panel(dr, x0, y, x0 + colw, y + ih)
                total = score.get("total_tai" if unit == "tai" else "total_fan", 0)
                head = _t("score.multiplier", lang) if caishen else L(key, lang)
                C.text(dr, (x0 + 20, y + 28), head, 22, C.TEXT, anchor="lm")
                C.text(dr, (x0 + colw - 20, y + 28), f"×{mult}" if caishen else f"{total} {L(unit, lang)}", 22,
                       C.GOLD, anchor="rm")
                dr.line((x0 + 16, y + 50, x0 + colw - 16, y + 50), fill=PANEL_LINE, width=1)
                iy = y + 54 + 19
                if not items:
                    C.text(dr, (x0 + 20, iy), L("none", lang), 20, C.TEXT_DIM, anchor="lm")
                for it in items:
                    label = C.fit(item_label(it["name"], lang), 20, colw - 120)
                    C.text(dr, (x0 + 20, iy), label, 20, C.TEXT, anchor="lm")
                    C.text(dr, (x0 + colw - 20, iy), f"×{it['value']}" if caishen else f"+{it['value']} {L(unit, lang)}",
                           20, C.TEXT_DIM, anchor="rm")
                    iy += 38
            y += ih + 18
            fh = _formula_h(view)
            _panel(dr, PAD, y, WIDTH - PAD, y + fh)
            if caishen:
                formula = _t("score.caishen_formula", lang, stake=score.get("stake", 1), mult=mult,
                             points=score.get("points", 0))
                C.text(dr, (WIDTH // 2, y + 60), formula, 40, C.GOLD, anchor="ms")
            else:
                _superscript_formula(dr, WIDTH // 2, y + 60, score, lang)
                cap = f"{L('stake', lang)} × {L('tai', lang)} × 2^{L('fan', lang)}"
                C.text(dr, (WIDTH // 2, y + fh - 18), cap, LEGEND_SIZE, C.TEXT_DIM, anchor="ms")
            y += fh + 18
    # settlement table
    pays = view.get("payments") or []
    th = 50 + _rows_h(view) + 16
    _panel(dr, PAD, y, WIDTH - PAD, y + th)
    cols = (PAD + 20, PAD + 400, PAD + 590, WIDTH - PAD - 20)
    C.text(dr, (cols[0], y + 26), L("settlement", lang), 22, C.TEXT, anchor="lm")
    C.text(dr, (cols[1], y + 26), L("col.delta", lang), 18, C.TEXT_DIM, anchor="rm")
    C.text(dr, (cols[2], y + 26), L("col.fee", lang), 18, C.TEXT_DIM, anchor="rm")
    C.text(dr, (cols[3], y + 26), L("col.balance", lang), 18, C.TEXT_DIM, anchor="rm")
    dr.line((PAD + 16, y + 50, WIDTH - PAD - 16, y + 50), fill=PANEL_LINE, width=1)
    ry = y + 50 + ROW_H // 2 + 4
    dealer = view.get("dealer", 0)
    for p in pays:
        s = p.get("seat", 0)
        is_winner = won and s == view.get("winner")
        if is_winner:
            dr.rounded_rectangle((PAD + 8, ry - ROW_H // 2 + 2, WIDTH - PAD - 8, ry + ROW_H // 2 - 2), radius=10,
                                 fill=(40, 60, 30))
        cx = cols[0] + 16
        dr.ellipse((cx - 16, ry - 16, cx + 16, ry + 16), fill=(236, 230, 210),
                   outline=(200, 50, 50) if s == dealer else (70, 120, 100), width=2)
        C.wind_char(dr, (cx, ry), (s - dealer) % 4, lang, 20, (30, 36, 60))
        tags = _seat_tags(view, s, lang)
        tags_w = sum(C.text_w(lab, 14) + 12 + 6 for lab, _ in tags)
        name_w = max(70, NAME_TAGS_W - 10 - tags_w) if tags else cols[1] - cols[0] - 190
        name = C.player_name(p, lang, 22, name_w)
        nx = cols[0] + 44
        nx += C.text(dr, (nx, ry), name, 22, C.GOLD if is_winner else C.TEXT, anchor="lm") + 10
        for lab, col in tags:  # why this seat paid what it paid (×2 / ×5 / 0 under a contract)
            if nx + C.text_w(lab, 14) + 12 > cols[0] + 44 + NAME_TAGS_W:
                break
            nx += C.pill(dr, nx, ry - 10, lab, 14, col, pad=6, h=20) + 6
        # "delta" is the whole balance change, the fee included (docs/views.md): the 输赢 column shows the
        # win or loss at the table, the 服务费 column the fee, and together they make the balance change
        fee = int(p.get("fee") or 0)
        delta = int(p.get("delta") or 0) + fee
        dcol = POS if delta > 0 else NEG if delta < 0 else C.TEXT_DIM
        C.text(dr, (cols[1], ry), f"{delta:+,}".replace("-", "−") if delta else "0", 24, dcol, anchor="rm")
        C.text(dr, (cols[2], ry), f"−{fee:,}" if fee else "—", 20, C.TEXT_DIM, anchor="rm")
        bal = p.get("balance")
        C.text(dr, (cols[3], ry), "—" if bal is None else f"{bal:,}", 24, C.TEXT, anchor="rm")
        why = _why(view, p, lang)
        if why:
            C.text(dr, (cols[0] + 44, ry + WHY_H), C.fit(why, WHY_SIZE, cols[3] - cols[0] - 44), WHY_SIZE,
                   C.TEXT_DIM, anchor="lm")
        ry += ROW_H + (WHY_H if why else 0)
    y += th + 18
    # cumulative 番 carried on to the next hand, or dropped with the match's last hand (RULES A7)
    queue = view.get("cumulative_queue") or []
    over = bool(view.get("match_over"))
    x = PAD
    caption = L(("dropped" if over else "carried") if queue else ("dropped_none" if over else "carried_none"), lang)
    C.text(dr, (x, y + 22), caption, 20, C.GOLD if queue and not won and not over else C.TEXT_DIM, anchor="lm")
    x += C.text_w(caption, 20) + 16
    for code in queue:
        label = f"{item_label(code, lang)} +1 {L('fan', lang)}"
        w = C.text_w(label, 18) + 24
        if x + w > WIDTH - PAD:
            break
        if over:  # struck out: they go nowhere
            x += C.pill(dr, x, y + 6, label, 18, (60, 60, 60), fg=(170, 170, 170), pad=12, h=32) + 10
        else:
            x += C.pill(dr, x, y + 6, label, 18, (120, 70, 20), fg=(255, 226, 150), pad=12, h=32,
                        outline=C.GOLD) + 10
    return img


__all__ = ["draw_result", "Image"]
