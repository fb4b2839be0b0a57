"""The ``/rank`` card (段位): a player's tier badge, rating ± uncertainty, the rating over the season as a line
graph, the placement distribution (1st–4th), win / self-draw / deal-in rates and the biggest hand.

The view is plain data made by the shell (``jxbot.shell.ranked_view.rank_view``), every text in it already
in the reader's language except the labels drawn here:

``{"name", "tier", "tier_index", "tier_count", "rating", "sigma", "ladder", "season", "matches",
"history": [float], "placements": [int ×4], "rates": {"win", "tsumo", "dealin"} (0…1, or None),
"biggest": str | None, "provisional": bool}``

Drawn 720 px wide so that shown 550 px wide on a phone every text stays ≥ 12 px (the smallest here is
18 px: 18 × 550 / 720 ≈ 13.8 px; tests/render/test_rank.py measures it).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from jxbot import i18n

from . import common as C
from . import fonts

WIDTH = 720
PAD = 24
SMALL = 18  # the smallest text size drawn
MIN_TEXT = SMALL
BODY = 22
BIG = 40

# tier colours from the lowest to the highest (a tier beyond the list takes the last)
TIER_COLOURS = [(150, 150, 150), (120, 170, 110), (80, 150, 210), (170, 110, 210), (230, 150, 60),
                (240, 196, 80), (220, 70, 70)]

STRINGS: dict[str, dict[str, str]] = {
    "render.rank.rating": {"zh": "评分", "en": "Rating"},
    "render.rank.matches": {"zh": "{n} 场", "en": "{n} matches"},
    "render.rank.matches_one": {"zh": "{n} 场", "en": "{n} match"},
    "render.rank.provisional": {"zh": "定级中", "en": "provisional"},
    "render.rank.history": {"zh": "本赛季评分走势", "en": "Rating this season"},
    "render.rank.no_history": {"zh": "本赛季还没有排位赛", "en": "No ranked match this season yet"},
    "render.rank.placements": {"zh": "名次分布", "en": "Placements"},
    "render.rank.place": {"zh": "{n}位", "en": "{n}{suffix}"},
    "render.rank.win": {"zh": "和牌率", "en": "Win"},
    "render.rank.tsumo": {"zh": "自摸率", "en": "Self-draw"},
    "render.rank.dealin": {"zh": "放铳率", "en": "Deal-in"},
    "render.rank.biggest": {"zh": "最大一手", "en": "Biggest hand"},
    "render.rank.none": {"zh": "—", "en": "—"},
}
i18n.register(STRINGS)

SUFFIX = {1: "st", 2: "nd", 3: "rd", 4: "th"}
PLACE_COLOURS = [(240, 196, 80), (180, 200, 210), (200, 140, 90), (150, 110, 110)]


def L(key: str, lang: str, **kw: object) -> str:  # noqa: N802
    return i18n.t(f"render.rank.{key}", lang, **kw)


def matches_text(n: int, lang: str) -> str:
    """"12 matches", "1 match" (zh: "12 场")."""
    return L("matches_one" if n == 1 else "matches", lang, n=n)


def tier_colour(index: int) -> tuple[int, int, int]:
    return TIER_COLOURS[max(0, min(index, len(TIER_COLOURS) - 1))]


def _pct(v: object) -> str:
    return "—" if v is None else f"{float(v) * 100:.1f}%"  # type: ignore[arg-type]


def draw_badge(dr: ImageDraw.ImageDraw, cx: float, cy: float, r: float, tier: str, index: int) -> None:
    """A tier badge: a coloured hexagon-like disc with the tier's name (also used beside names elsewhere)."""
    col = tier_colour(index)
    dr.regular_polygon((cx, cy, r), 6, rotation=30, fill=col, outline=C.TEXT)
    dr.regular_polygon((cx, cy, r * 0.8), 6, rotation=30, outline=(255, 255, 255))
    size = max(SMALL, round(r * (0.62 if len(tier) <= 2 else 0.42)))
    C.text(dr, (cx, cy + 1), C.fit(tier, size, round(r * 1.7)), size, (20, 20, 20), anchor="mm")


def _graph(dr: ImageDraw.ImageDraw, box: tuple[int, int, int, int], history: list[float], lang: str) -> None:
    x0, y0, x1, y1 = box
    dr.rounded_rectangle(box, radius=10, fill=C.PANEL, outline=C.PANEL_LINE, width=2)
    C.text(dr, (x0 + 12, y0 + 8), L("history", lang), BODY, C.TEXT_DIM)
    gx0, gy0, gx1, gy1 = x0 + 64, y0 + 56, x1 - 16, y1 - 20
    if len(history) < 1:
        C.text(dr, ((x0 + x1) / 2, (gy0 + gy1) / 2), L("no_history", lang), BODY, C.TEXT_DIM, anchor="mm")
        return
    lo, hi = min(history), max(history)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    span = hi - lo
    for v, anchor in ((hi, "rm"), (lo, "rm")):
        y = gy1 - (v - lo) / span * (gy1 - gy0)
        dr.line((gx0, y, gx1, y), fill=C.PANEL_LINE, width=1)
        C.text(dr, (gx0 - 6, y), f"{v:.0f}", SMALL, C.TEXT_DIM, anchor=anchor)
    n = len(history)
    pts = [(gx0 + (i / max(1, n - 1)) * (gx1 - gx0) if n > 1 else (gx0 + gx1) / 2,
            gy1 - (v - lo) / span * (gy1 - gy0)) for i, v in enumerate(history)]
    if len(pts) > 1:
        dr.line(pts, fill=C.GOLD, width=3, joint="curve")
    for x, y in pts[-1:] + (pts[:1] if len(pts) > 1 else []):
        dr.ellipse((x - 5, y - 5, x + 5, y + 5), fill=C.GOLD)


def _placements(dr: ImageDraw.ImageDraw, box: tuple[int, int, int, int], counts: list[int], lang: str) -> None:
    x0, y0, x1, y1 = box
    dr.rounded_rectangle(box, radius=10, fill=C.PANEL, outline=C.PANEL_LINE, width=2)
    C.text(dr, (x0 + 12, y0 + 8), L("placements", lang), BODY, C.TEXT_DIM)
    total = sum(counts) or 1
    counts = [counts[i] if i < len(counts) else 0 for i in range(4)]
    labels = [f"{c} · {c * 100 / total:.0f}%" for c in counts]
    bar_x0 = x0 + 80
    # the bars end before the widest count ("1 · 100%", "1234 · 97%"): a full bar never runs under its count
    bar_x1 = min(x1 - 110, x1 - 16 - max(C.text_w(C.fonts.safe_text(lb), BODY) for lb in labels) - 12)
    row_h = (y1 - y0 - 48) / 4
    for i in range(4):
        y = y0 + 44 + i * row_h
        c = counts[i]
        C.text(dr, (x0 + 16, y + row_h / 2), L("place", lang, n=i + 1, suffix=SUFFIX[i + 1]), BODY, C.TEXT, anchor="lm")
        dr.rounded_rectangle((bar_x0, y + 6, bar_x1, y + row_h - 6), radius=6, fill=(10, 30, 24))
        w = (bar_x1 - bar_x0) * c / total
        if c:
            dr.rounded_rectangle((bar_x0, y + 6, bar_x0 + max(w, 12), y + row_h - 6), radius=6, fill=PLACE_COLOURS[i])
        C.text(dr, (x1 - 16, y + row_h / 2), labels[i], BODY, C.TEXT, anchor="rm")


def draw_rank(view: dict, lang: str = "zh") -> Image.Image:
    height = 720
    img = C.felt(WIDTH, height)
    dr = ImageDraw.Draw(img)
    tier = str(view.get("tier") or "")
    index = int(view.get("tier_index") or 0)
    # header: badge, name, rating ± uncertainty
    dr.rectangle((0, 0, WIDTH, 150), fill=(10, 30, 24))
    dr.line((0, 150, WIDTH, 150), fill=tier_colour(index), width=4)
    draw_badge(dr, PAD + 60, 75, 58, tier, index)
    tx = PAD + 140
    name = C.fit(fonts.display_name(str(view.get("name") or ""), "—"), 30, WIDTH - tx - PAD)  # as the table draws it
    C.text(dr, (tx, 18), name, 30, C.TEXT, shadow=True)
    rating = float(view.get("rating") or 0.0)
    sigma = float(view.get("sigma") or 0.0)
    w = C.text(dr, (tx, 58), f"{rating:.0f}", BIG, C.GOLD, shadow=True)
    C.text(dr, (tx + w + 10, 74), f"± {sigma:.0f}", BODY, C.TEXT_DIM)
    sub = [str(view.get("ladder") or ""), str(view.get("season") or ""),
           matches_text(int(view.get("matches") or 0), lang)]
    if view.get("provisional"):
        sub.append(L("provisional", lang))
    C.text(dr, (tx, 112), C.fit(" · ".join(s for s in sub if s), SMALL + 2, WIDTH - tx - PAD), SMALL + 2, C.TEXT_DIM)
    # the season's line graph
    _graph(dr, (PAD, 166, WIDTH - PAD, 356), [float(v) for v in view.get("history") or []], lang)
    # placements
    _placements(dr, (PAD, 370, WIDTH - PAD, 560), list(view.get("placements") or [0, 0, 0, 0]), lang)
    # rates
    rates = view.get("rates") or {}
    cw = (WIDTH - 2 * PAD - 2 * 12) / 3
    for i, key in enumerate(("win", "tsumo", "dealin")):
        x = PAD + i * (cw + 12)
        dr.rounded_rectangle((x, 574, x + cw, 640), radius=10, fill=C.PANEL, outline=C.PANEL_LINE, width=2)
        C.text(dr, (x + cw / 2, 592), L(key, lang), SMALL, C.TEXT_DIM, anchor="mm")
        C.text(dr, (x + cw / 2, 620), _pct(rates.get(key)), BODY + 4, C.RED if key == "dealin" else C.GREEN, anchor="mm")
    # the biggest hand
    big = view.get("biggest")
    label = L("biggest", lang) + ": "
    lw = C.text(dr, (PAD, 666), label, BODY, C.TEXT_DIM)
    C.text(dr, (PAD + lw, 666), C.fit(str(big) if big else L("none", lang), BODY, WIDTH - 2 * PAD - lw), BODY, C.GOLD)
    return img


def all_text(lang: str) -> list[str]:
    """Every label this card draws in ``lang`` (for the font-subset check)."""
    return [i18n.t(k, lang, n=1, suffix="st") for k in STRINGS]


__all__ = ["draw_rank", "draw_badge", "tier_colour", "WIDTH", "MIN_TEXT"]
