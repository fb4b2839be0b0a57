"""The audit's picture checks (a phone player's eye): nothing drawn over another thing, English counted right."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render import common as C
from render import rank as R
from tests.render.test_rank import VIEW


def _img(view: dict, lang: str) -> Image.Image:
    return Image.open(io.BytesIO(render.render_rank(view, lang))).convert("RGB")


@pytest.mark.parametrize("counts", [[0, 0, 0, 1], [0, 0, 0, 120], [3, 0, 2, 1234]])
def test_a_full_placement_bar_stops_before_its_count(counts: list[int]) -> None:
    """A player who came 4th every time: the bar is full, and its count "1 · 100%" must not be drawn over it."""
    img = _img({**VIEW, "placements": counts}, "en")
    x0, y0, x1, y1 = R.PAD, 370, R.WIDTH - R.PAD, 560
    row_h = (y1 - y0 - 48) / 4
    for i, c in enumerate(counts):
        label = f"{c} · {c * 100 / (sum(counts) or 1):.0f}%"
        left = x1 - 16 - C.text_w(label, R.BODY)
        y = y0 + 44 + i * row_h
        if not c:
            continue
        bar = img.getpixel((x0 + 80 + 6, round(y + row_h / 2)))  # the bar's own colour (as the PNG keeps it)
        strip = img.crop((left - 4, round(y + 10), x1 - 16, round(y + row_h - 10)))
        assert bar not in set(strip.getdata()), (counts, i)


def test_one_match_is_not_1_matches() -> None:
    from jxbot.i18n import t

    assert "1 matches" not in R.matches_text(1, "en") and R.matches_text(1, "en") == "1 match"
    assert R.matches_text(2, "en") == "2 matches" and R.matches_text(1, "zh") == t("render.rank.matches", "zh", n=1)


def test_the_review_summary_counts_its_costliest_moments() -> None:
    """A hand with one costly decision: the summary does not announce "the three costliest moments"."""
    from render.review import costliest_title

    assert costliest_title(1, "en") == "The costliest moment" and costliest_title(1, "zh") == "代价最大的一步"
    assert costliest_title(2, "en") == "The two costliest moments"
    assert costliest_title(3, "en") == "The three costliest moments"


def test_a_rob_decision_does_not_say_the_kong_was_discarded() -> None:
    """A decision to rob a kong: the tile was added to a kong, not discarded (the picture said 'discarded')."""
    from cogs.review import claim_source

    rob = {"phase": "rob", "pending_kong": {"seat": 1, "tile": 4}, "last_discard": {"seat": 3, "tile": 9}}
    claim = {"phase": "claim", "pending_kong": None, "last_discard": {"seat": 3, "tile": 9}}
    who = {1: "南（Bob）", 3: "北（Dan）"}.get
    assert claim_source(rob, who, "en") == "南（Bob） added a kong with"
    assert claim_source(rob, who, "zh") == "南（Bob） 补杠"
    assert claim_source(claim, who, "en") == "北（Dan） discarded"
    assert claim_source({"phase": "turn"}, who, "en") is None
