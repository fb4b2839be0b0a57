"""The coach's review pictures (docs/coach.md): the summary of a hand's review and one decision of it.

Views are plain data made by ``jxbot.coach.views`` (no engine object): the summary ``{"title", "subtitle",
"decisions", "agreed", "agreement", "lost", "costliest": [{"n", "played", "best", "loss", "ev_played",
"ev_best"}], "wildcard", "badge"}`` and the decision ``{"title", "n", "of", "hand", "drawn", "melds",
"wildcard", "badge", "claim": {"tile", "from"} | None, "played", "best", "agree", "loss",
"candidates": [{"action", "ev", "win", "deal_in", "played", "best"}]}``; an action is ``{"type", "tile"}``.

Drawn 720 px wide: shown 550 px wide on a phone (×0.76) the smallest text (20 px) stays ≥ 15 px and the
hand's tiles ≥ 30 px.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from jxbot.i18n import register, t
from jxbot.rules.tiles import sort_hand

from . import common as C
from . import fonts
from .tiles import geometry, sprite

WIDTH = 720
PAD = 20
HEADER_H = 70
TITLE = 28
TEXT = 22
SMALL = 20
MIN_TEXT = SMALL  # the smallest text drawn (tests/render/test_review_pictures.py)
BIG = 48
ACTION_W = 36  # the tile of an action label
HAND_W = 44
BAR_ROW = 56
MAX_BARS = 6

register({
    "render.review.agreement": {"zh": "与专家一致", "en": "Agrees with the expert"},
    "render.review.of": {"zh": "{k}/{n} 次决策", "en": "{k} of {n} decisions"},
    "render.review.no_decision": {"zh": "没有要做的决定", "en": "no decision to make"},
    "render.review.lost": {"zh": "估计少赢", "en": "Estimated loss"},
    "render.review.silver": {"zh": "{x} 银", "en": "{x} silver"},
    "render.review.costliest": {"zh": "代价最大的三步", "en": "The three costliest moments"},
    "render.review.costliest_1": {"zh": "代价最大的一步", "en": "The costliest moment"},
    "render.review.costliest_2": {"zh": "代价最大的两步", "en": "The two costliest moments"},
    "render.review.none_lost": {"zh": "没有比专家差的决策", "en": "No decision worse than the expert's"},
    "render.review.decision_n": {"zh": "第 {n} 步", "en": "Decision {n}"},
    "render.review.played": {"zh": "你", "en": "You"},
    "render.review.best": {"zh": "专家", "en": "Expert"},
    "render.review.agree": {"zh": "与专家一致", "en": "Same as the expert"},
    "render.review.as_good": {"zh": "与专家的一样好", "en": "As good as the expert's"},
    "render.review.loss": {"zh": "少赢 {x} 银", "en": "{x} silver lost"},
    "render.review.differs": {"zh": "与专家不同（差别不明显）", "en": "Not the expert's (no clear cost)"},
    "render.review.claim": {"zh": "{who} 打出", "en": "{who} discarded"},
    "render.review.rob": {"zh": "{who} 补杠", "en": "{who} added a kong with"},
    "render.review.values": {"zh": "每个选择的期望（银）", "en": "Each choice's expected silver"},
    "render.review.win": {"zh": "胡 {p}%", "en": "win {p}%"},
    "render.review.deal_in": {"zh": "铳 {p}%", "en": "deal-in {p}%"},
    "render.review.act.discard": {"zh": "打", "en": "Discard"},
    "render.review.act.tsumo": {"zh": "自摸", "en": "Self-draw"},
    "render.review.act.angang": {"zh": "暗杠", "en": "Kong"},
    "render.review.act.bugang": {"zh": "补杠", "en": "Add kong"},
    "render.review.act.hu": {"zh": "胡", "en": "Win"},
    "render.review.act.peng": {"zh": "碰", "en": "Pung"},
    "render.review.act.gang": {"zh": "杠", "en": "Kong"},
    "render.review.act.chi": {"zh": "吃", "en": "Chow"},
    "render.review.act.pass": {"zh": "过", "en": "Pass"},
    "render.review.act.persist": {"zh": "坚持", "en": "Persist"},
    "render.review.act.give_up": {"zh": "放弃", "en": "Give up"},
})

BAR_GOOD = (102, 214, 132)
BAR = (120, 150, 190)
BAR_PLAYED = (236, 110, 100)
ROW_HI = (26, 58, 48)


def costliest_title(n: int, lang: str) -> str:
    """The heading over the costliest decisions: as many as there are ("The costliest moment" for one)."""
    return t({1: "render.review.costliest_1", 2: "render.review.costliest_2"}.get(n, "render.review.costliest"), lang)


def silver(x: float, sign: bool = False) -> str:
    s = f"{x:+.2f}" if sign else f"{x:.2f}"
    return s.replace("-", "−")


def drawable_title(title: str) -> str:
    """The title as the bundled font can draw it: a player's name in it may hold characters it lacks (an emoji,
    a fancy script), which are folded or dropped rather than drawn as "?" (``fonts.display_name``)."""
    return fonts.display_name(title, title)


def _header(img: Image.Image, dr: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    title = drawable_title(title)
    dr.rectangle((0, 0, WIDTH, HEADER_H), fill=(10, 30, 24))
    dr.line((0, HEADER_H, WIDTH, HEADER_H), fill=C.GOLD, width=3)
    C.text(dr, (PAD, 8), C.fit(title, TITLE, WIDTH - 2 * PAD), TITLE, C.GOLD, shadow=True)
    if subtitle:
        C.text(dr, (PAD, 42), C.fit(subtitle, SMALL, WIDTH - 2 * PAD), SMALL, C.TEXT_DIM)


def _action_tiles(a: dict) -> list[int]:
    tile = a.get("tile")
    if not isinstance(tile, int):
        return []
    if a.get("type") == "chi":
        return [tile, tile + 1, tile + 2]
    return [tile]


def action_width(a: dict, lang: str, size: int = TEXT, w: int = ACTION_W) -> int:
    label = t(f"render.review.act.{a.get('type')}", lang)
    n = len(_action_tiles(a))
    return C.text_w(C.fonts.safe_text(label), size) + (8 + n * (w + 2) if n else 0)


def draw_action(img: Image.Image, dr: ImageDraw.ImageDraw, x: int, cy: int, a: dict, lang: str,
                wildcard: int | None, badge: str, size: int = TEXT, w: int = ACTION_W, fill=C.TEXT) -> int:
    """An action as a word and its tile(s), vertically centred on ``cy``; returns the width drawn."""
    label = t(f"render.review.act.{a.get('type')}", lang)
    tw = C.text(dr, (x, cy), label, size, fill, anchor="lm")
    x0 = x + tw
    tiles = _action_tiles(a)
    if tiles:
        g = geometry(w)
        x0 += 8
        for k in tiles:
            C.paste(img, sprite(k, w, C.tile_variant(k, wildcard, badge)), x0, cy - g.box_h // 2 - g.shadow)
            x0 += w + 2
    return x0 - x


def agreement_figure(view: dict, lang: str) -> tuple[str, str]:
    """The agreement panel's big and small words: "62%" over "8 of 13 decisions"; a hand in which the seat had
    no decision to make (every move forced) shows a dash, not "100%" of "0 of 0"."""
    n = int(view.get("decisions", 0))
    if n == 0:
        return "—", t("render.review.no_decision", lang)
    return (f"{round(100 * float(view.get('agreement', 1.0)))}%",
            t("render.review.of", lang, k=view.get("agreed", 0), n=n))


def draw_summary(view: dict, lang: str = "zh") -> Image.Image:
    wc = view.get("wildcard")
    badge = str(view.get("badge") or "wild")
    costly = list(view.get("costliest") or [])
    row_h = 64
    height = HEADER_H + 24 + 150 + 24 + 40 + max(1, len(costly)) * row_h + PAD
    img = C.felt(WIDTH, height)
    dr = ImageDraw.Draw(img)
    _header(img, dr, str(view.get("title", "")), str(view.get("subtitle", "")))
    # the two figures
    y = HEADER_H + 24
    half = (WIDTH - 3 * PAD) // 2
    for i, (label, big, small, colour) in enumerate((
        (t("render.review.agreement", lang), *agreement_figure(view, lang), C.GREEN),
        (t("render.review.lost", lang), silver(float(view.get("lost", 0.0))), t("render.review.silver", lang, x="")
         .strip(), C.RED if float(view.get("lost", 0.0)) > 0 else C.GREEN),
    )):
        x = PAD + i * (half + PAD)
        dr.rounded_rectangle((x, y, x + half, y + 150), radius=16, fill=C.PANEL, outline=C.PANEL_LINE, width=2)
        C.text(dr, (x + half // 2, y + 26), C.fit(label, TEXT, half - 20), TEXT, C.TEXT_DIM, anchor="mm")
        C.text(dr, (x + half // 2, y + 80), big, BIG + 8, colour, anchor="mm", shadow=True)
        C.text(dr, (x + half // 2, y + 128), C.fit(small, SMALL, half - 20), SMALL, C.TEXT_DIM, anchor="mm")
    y += 150 + 24
    C.text(dr, (PAD, y + 16), costliest_title(len(costly), lang), TEXT, C.GOLD, anchor="lm")
    y += 40
    if not costly:
        C.text(dr, (WIDTH // 2, y + row_h // 2), t("render.review.none_lost", lang), TEXT, C.GREEN, anchor="mm")
    for c in costly:
        dr.rounded_rectangle((PAD, y + 4, WIDTH - PAD, y + row_h - 4), radius=10, fill=ROW_HI)
        cy = y + row_h // 2
        x = PAD + 12
        x += C.text(dr, (x, cy), t("render.review.decision_n", lang, n=int(c.get("n", 0)) + 1), SMALL, C.TEXT_DIM,
                    anchor="lm") + 14
        x += draw_action(img, dr, x, cy, c.get("played") or {}, lang, wc, badge, fill=C.RED)
        x += C.text(dr, (x + 10, cy), "→", TEXT, C.TEXT_DIM, anchor="lm") + 20
        draw_action(img, dr, x, cy, c.get("best") or {}, lang, wc, badge, fill=C.GREEN)
        C.text(dr, (WIDTH - PAD - 12, cy), silver(-float(c.get("loss", 0.0)), sign=True), TEXT, C.RED, anchor="rm")
        y += row_h
    return img


def _hand_row(img: Image.Image, dr: ImageDraw.ImageDraw, view: dict, y: int) -> int:
    """The seat's tiles then (drawn tile apart, melds after); the played tile underlined red, the expert's
    green. Returns the row's height."""
    wc = view.get("wildcard")
    badge = str(view.get("badge") or "wild")
    hand = sort_hand(list(view.get("hand") or []), wc)
    drawn = view.get("drawn")
    melds = [list(m.get("tiles") or []) for m in view.get("melds") or []]
    n = len(hand) + (1 if drawn is not None else 0) + sum(len(m) for m in melds)
    gaps = (12 if drawn is not None else 0) + 12 * len(melds)
    w = max(28, min(HAND_W, (WIDTH - 2 * PAD - gaps) // max(1, n) - 2))
    g = geometry(w)
    played, best = view.get("played") or {}, view.get("best") or {}
    marks = {}
    if best.get("type") == "discard":
        marks[best.get("tile")] = C.GREEN
    if played.get("type") == "discard":
        marks[played.get("tile")] = C.RED if best.get("tile") != played.get("tile") else C.GREEN
    x = PAD
    done: set[int] = set()

    def one(k: int, variant: str) -> None:
        nonlocal x
        C.paste(img, sprite(k, w, variant), x, y)
        if k in marks and k not in done:
            done.add(k)
            dr.rectangle((x + 2, y + g.box_h + g.shadow * 2 + 2, x + w - 2, y + g.box_h + g.shadow * 2 + 7),
                         fill=marks[k])
        x += w + 2

    for k in hand:
        one(k, C.tile_variant(k, wc, badge))
    if drawn is not None:
        x += 12
        one(drawn, C.tile_variant(drawn, wc, badge))
    for m in melds:
        x += 12
        for k in m:
            C.paste(img, sprite(k, w, "up"), x, y)
            x += w + 2
    return g.box_h + g.shadow * 2 + 10


def verdict_text(view: dict, lang: str) -> str:
    """The words beside the played action: the expert's own move, another one as good (within the tie), the
    silver it lost, or a difference with no clear cost."""
    played, best = view.get("played") or {}, view.get("best") or {}
    if view.get("agree"):
        same = (played.get("type"), played.get("tile")) == (best.get("type"), best.get("tile"))
        return t("render.review.agree" if same else "render.review.as_good", lang)
    loss = float(view.get("loss", 0.0))
    return t("render.review.loss", lang, x=silver(loss)) if loss > 0 else t("render.review.differs", lang)


def draw_decision(view: dict, lang: str = "zh") -> Image.Image:
    wc = view.get("wildcard")
    badge = str(view.get("badge") or "wild")
    cands = list(view.get("candidates") or [])[:MAX_BARS + 1]
    hand_h = geometry(HAND_W).box_h + geometry(HAND_W).shadow * 2 + 10
    claim = view.get("claim")
    height = (HEADER_H + 16 + (44 if claim else 0) + hand_h + 12 + 2 * 52 + 16 + 36 + len(cands) * BAR_ROW + PAD)
    img = C.felt(WIDTH, height)
    dr = ImageDraw.Draw(img)
    _header(img, dr, str(view.get("title", "")), str(view.get("subtitle", "")))
    y = HEADER_H + 16
    if claim:
        room = WIDTH - 2 * PAD - ACTION_W - 12  # a long name is cut: the tile it answered stays in the picture
        x = PAD + C.text(dr, (PAD, y + 20), C.fit(str(claim.get("from", "")), TEXT, room), TEXT, C.TEXT_DIM,
                         anchor="lm") + 10
        tile = claim.get("tile")
        if isinstance(tile, int):
            g = geometry(ACTION_W)
            C.paste(img, sprite(tile, ACTION_W, C.tile_variant(tile, wc, badge)), x, y + 20 - g.box_h // 2 - g.shadow)
        y += 44
    y += _hand_row(img, dr, view, y) + 12
    played, best = view.get("played") or {}, view.get("best") or {}
    agree = bool(view.get("agree"))
    for label, a, colour in ((t("render.review.played", lang), played, C.GREEN if agree else C.RED),
                             (t("render.review.best", lang), best, C.GREEN)):
        cy = y + 24
        C.text(dr, (PAD, cy), label, TEXT, C.TEXT_DIM, anchor="lm")
        draw_action(img, dr, PAD + 100, cy, a, lang, wc, badge, fill=colour)
        if a is played:
            loss = float(view.get("loss", 0.0))
            verdict = verdict_text(view, lang)
            C.pill(dr, WIDTH - PAD - C.text_w(C.fonts.safe_text(verdict), SMALL) - 20, cy - 15, verdict, SMALL,
                   (40, 84, 68) if agree else (170, 44, 44) if loss > 0 else (120, 70, 20), h=30, pad=10)
        y += 52
    y += 16
    C.text(dr, (PAD, y + 16), t("render.review.values", lang), TEXT, C.GOLD, anchor="lm")
    y += 36
    if not cands:
        return img
    label_w = max(action_width(c["action"], lang, SMALL, 30) for c in cands) + 14
    right_w = 150
    x0 = PAD + label_w
    bar_w = WIDTH - PAD - right_w - x0 - 70
    evs = [float(c.get("ev", 0.0)) for c in cands]
    lo, hi = min(0.0, *evs), max(0.0, *evs)
    span = (hi - lo) or 1.0
    zero = x0 + round((0.0 - lo) / span * bar_w)
    for c, e in zip(cands, evs, strict=True):
        cy = y + BAR_ROW // 2
        if c.get("played") or c.get("best"):
            dr.rounded_rectangle((PAD - 8, y + 2, WIDTH - PAD + 8, y + BAR_ROW - 2), radius=8, fill=ROW_HI)
        fill = C.RED if c.get("played") and not agree else (C.GREEN if c.get("best") else C.TEXT)
        draw_action(img, dr, PAD, cy, c["action"], lang, wc, badge, size=SMALL, w=30, fill=fill)
        colour = BAR_PLAYED if c.get("played") and not agree else (BAR_GOOD if c.get("best") else BAR)
        end = x0 + round((e - lo) / span * bar_w)
        a, b = sorted((zero, end))
        dr.rectangle((a, cy - 11, max(b, a + 2), cy + 11), fill=colour)
        C.text(dr, (max(zero, end) + 8, cy), silver(e, sign=True), SMALL, C.TEXT, anchor="lm")
        win = round(100 * float(c.get("win", 0.0)))
        deal = round(100 * float(c.get("deal_in", 0.0)))
        C.text(dr, (WIDTH - PAD, cy - 11), t("render.review.win", lang, p=win), SMALL, C.TEXT_DIM, anchor="rm")
        C.text(dr, (WIDTH - PAD, cy + 13), t("render.review.deal_in", lang, p=deal), SMALL, C.TEXT_DIM, anchor="rm")
        y += BAR_ROW
    dr.line((zero, y - len(cands) * BAR_ROW, zero, y), fill=C.TEXT_DIM, width=1)
    return img


__all__ = ["draw_summary", "draw_decision", "verdict_text", "WIDTH", "MIN_TEXT"]
