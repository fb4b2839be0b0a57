"""The /rank card (render/rank.py): legible on a phone, every label in the font, what it shows follows the view."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import render
from render import fonts
from render import rank as R

VIEW = {"name": "alice 爱丽丝", "tier": "雀杰", "tier_index": 2, "tier_count": 7, "rating": 1534.2, "sigma": 88.1,
        "ladder": "jxbot e2e", "season": "S1", "matches": 14, "history": [1500, 1480, 1510, 1530, 1525, 1560, 1534],
        "placements": [5, 4, 3, 2], "rates": {"win": 0.25, "tsumo": 0.1, "dealin": 0.12},
        "biggest": "清一色 · 8台 · 96", "provisional": False}


def _img(view: dict, lang: str) -> Image.Image:
    return Image.open(io.BytesIO(render.render_rank(view, lang))).convert("RGB")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_card_is_a_phone_width_png_with_legible_text(lang: str) -> None:
    img = _img(VIEW, lang)
    assert img.width == R.WIDTH
    assert R.MIN_TEXT * 550 / R.WIDTH >= 12  # shown 550 px wide, the smallest text stays ≥ 12 px
    assert not fonts.missing_chars("".join(R.all_text(lang)))


def test_the_graph_and_the_bars_follow_the_view() -> None:
    a = _img(VIEW, "zh")
    b = _img({**VIEW, "history": [1500, 1600, 1400]}, "zh")
    c = _img({**VIEW, "placements": [0, 0, 0, 9]}, "zh")
    graph = (R.PAD, 166, R.WIDTH - R.PAD, 356)
    bars = (R.PAD, 370, R.WIDTH - R.PAD, 560)
    assert ImageChops.difference(a.crop(graph), b.crop(graph)).getbbox() is not None
    assert ImageChops.difference(a.crop(bars), b.crop(bars)).getbbox() is None
    assert ImageChops.difference(a.crop(bars), c.crop(bars)).getbbox() is not None


def test_a_newcomer_with_nothing_played_still_gets_a_card() -> None:
    img = _img({"name": "bob", "tier": "Novice", "tier_index": 0, "rating": 0, "sigma": 0, "history": [],
                "placements": [0, 0, 0, 0], "rates": {}, "biggest": None, "provisional": True}, "en")
    assert img.width == R.WIDTH
