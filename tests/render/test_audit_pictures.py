"""The audit's picture checks (a phone player's eye): nothing drawn over another thing, English counted right."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render import common as C
from render import rank as R
from tests.render.test_rank import VIEW


def _pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    raw = img.convert("RGB").tobytes()
    return [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]  # type: ignore[misc]


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
        assert bar not in set(_pixels(strip)), (counts, i)


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


def test_a_long_name_over_a_claim_keeps_the_claimed_tile_in_the_picture() -> None:
    """'South (a very long name…) discarded [tile]': the name was drawn whole, pushing the tile the decision
    answered off the picture's right edge; the name is cut instead, the tile stays."""
    from render.review import ACTION_W, HEADER_H, PAD, WIDTH

    base = {"title": "Decision 1 of 3 · South (Bob)", "subtitle": "Hand x · 80 tiles left", "n": 0, "of": 3,
            "hand": [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, 32], "drawn": None, "melds": [], "wildcard": None,
            "badge": "wild", "played": {"type": "pass"}, "best": {"type": "pass"}, "agree": True, "loss": 0.0,
            "candidates": [{"action": {"type": "pass"}, "ev": 0.0, "win": 0.0, "deal_in": 0.0, "played": True,
                            "best": True}]}
    long = "North (一个名字非常非常长的玩家 Carol the Magnificent of Jiaxing and Beyond) discarded"
    for who in ("North (Dan) discarded", long):
        img = Image.open(io.BytesIO(render.render_review_decision({**base, "claim": {"tile": 4, "from": who}},
                                                                 "en"))).convert("RGB")
        row = img.crop((PAD, HEADER_H + 16, WIDTH - PAD + 1, HEADER_H + 16 + 44))
        light = sum(1 for r, g, b in _pixels(row) if r > 225 and g > 225 and b > 200)
        assert light > ACTION_W * 10, (who, light)  # the tile's face is in the picture


def test_a_long_name_over_a_claim_keeps_its_verb() -> None:
    from cogs.review import CLAIM_NAME, claim_source

    long = "北（一个名字非常非常长的玩家 Carol the Magnificent of Jiaxing）"
    text = claim_source({"phase": "claim", "last_discard": {"seat": 3, "tile": 9}}, lambda s: long, "en")
    assert text is not None and text.endswith(" discarded") and len(text) <= CLAIM_NAME + len(" discarded")


def test_the_claim_words_are_words_in_the_bots_own_process() -> None:
    """The words over a claim decision ('北（Dan） discarded') are made in the bot's process, whose pictures are
    drawn in worker processes: render.review's strings were never registered there, so the picture said
    'render.review.claim'. A fresh interpreter, as the bot's."""
    import os
    import subprocess
    import sys

    code = ("from cogs.review import claim_source\n"
            "print(claim_source({'phase': 'claim', 'last_discard': {'seat': 3, 'tile': 9}}, lambda s: 'D', 'en'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": os.getcwd()}, check=True).stdout.strip()
    assert out == "D discarded"


def test_the_rank_cards_words_are_words_in_the_bots_own_process() -> None:
    """/rank's view is made in the bot's process ('1,280 · 12 tai 5 fan'; the ranked board's '12 matches'), its
    picture in a worker: without render.labels and render.rank there, the card said '12render.tai 5render.fan'."""
    import os
    import subprocess
    import sys

    code = ("import cogs.ranked\nfrom jxbot.i18n import t\n"
            "print(t('render.tai', 'en'), t('render.fan', 'en'), t('render.rank.matches', 'en', n=2), sep='|')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": os.getcwd()}, check=True).stdout.strip()
    assert "render." not in out and out.endswith("|2 matches"), out
