"""An event's standings (``/tournament standings``): rank, player, points, placements by round.

Drawn 720 px wide with 26 px text, so it stays legible when Discord shows it at 550 px. The view::

    {"title": str, "subtitle": str, "rows": [{"rank", "name", "points", "placements": [1, 3, …]}], "format"}
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from .common import GOLD, PANEL, PANEL_LINE, TEXT, TEXT_DIM, felt, fit, text
from .fonts import display_name

WIDTH = 720
ROW = 44
SIZE = 26
HEAD = 96
MAX_ROWS = 32

LABELS = {
    "zh": {"rank": "名次", "player": "选手", "points": "积分", "places": "各轮名次", "more": "另有 {n} 人",
           "anon": "选手 {n}"},
    "en": {"rank": "#", "player": "Player", "points": "Points", "places": "Placements", "more": "{n} more",
           "anon": "Player {n}"},
}


def _points(v: float) -> str:
    return f"{v:+.1f}" if v != int(v) else f"{int(v):+d}"


def draw_standings(view: dict, lang: str = "zh") -> Image.Image:
    lab = LABELS["zh" if lang == "zh" else "en"]
    rows = list(view.get("rows") or [])
    shown = rows[:MAX_ROWS]
    extra = len(rows) - len(shown)
    h = HEAD + ROW * (len(shown) + 1) + (ROW if extra else 0) + 20
    img = felt(WIDTH, h)
    dr = ImageDraw.Draw(img)
    text(dr, (24, 18), fit(str(view.get("title") or ""), 32, WIDTH - 48), 32, GOLD, shadow=True)
    text(dr, (24, 60), fit(str(view.get("subtitle") or ""), 20, WIDTH - 48), 20, TEXT_DIM)
    cols = (24, 100, 430, 560)
    y = HEAD
    for x, key in zip(cols, ("rank", "player", "points", "places"), strict=True):
        text(dr, (x, y + 8), lab[key], 22, TEXT_DIM)
    y += ROW
    for i, r in enumerate(shown):
        if i % 2 == 0:
            dr.rectangle((12, y, WIDTH - 12, y + ROW - 4), fill=PANEL, outline=PANEL_LINE)
        rank = int(r.get("rank") or i + 1)
        text(dr, (cols[0] + 8, y + 8), str(rank), SIZE, GOLD if rank <= 3 else TEXT)
        # a name as every other picture draws it: characters the font lacks dropped, not "?" (docs/render.md)
        name = display_name(str(r.get("name") or ""), lab["anon"].format(n=rank))
        text(dr, (cols[1], y + 8), fit(name, SIZE, cols[2] - cols[1] - 16), SIZE, TEXT)
        text(dr, (cols[2], y + 8), _points(float(r.get("points") or 0)), SIZE, TEXT)
        places = " ".join(str(p) if p else "-" for p in r.get("placements") or []) or "-"  # 0: not placed
        text(dr, (cols[3], y + 8), fit(places, SIZE, WIDTH - cols[3] - 20), SIZE, TEXT)
        y += ROW
    if extra:
        text(dr, (cols[1], y + 8), lab["more"].format(n=extra), 22, TEXT_DIM)
    return img
