"""The coach's review pictures (render/review.py): drawn from plain view data, 720 px wide (550 px on a
phone keeps the smallest text ≥ 15 px), in zh and en; a decision's picture holds the reviewed seat's own tiles
at that moment and nothing of another seat's."""

from __future__ import annotations

import io

from PIL import Image

import render
from jxbot.coach import views
from jxbot.coach.review import decision_points, review_hand
from jxbot.game.hand import Hand
from render.review import MIN_TEXT, WIDTH
from tests.coach.review_helpers import counting_evaluator
from tests.replay.helpers import played_hand


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_summary_and_decision_pictures() -> None:
    h = played_hand(6)
    evs = h.events_json()
    seat = 2
    r = review_hand(evs, seat, counting_evaluator)
    pts = decision_points(evs, seat)
    wc, badge = views.wildcard_of(pts)
    assert MIN_TEXT * 550 / WIDTH >= 15
    seen = set()
    for lang in ("zh", "en"):
        sv = views.summary_view(r, "West (Carol)", lang, wildcard=wc, badge=badge)
        assert len(sv["costliest"]) == min(3, sum(1 for d in r.decisions if d["loss"] > 0))
        png = render.render_review_summary(sv, lang)
        assert size(png)[0] == WIDTH
        seen.add(png)
        for p in pts[:4]:
            dv = views.decision_view(r, p, "West (Carol)", lang)
            # the seat's own concealed tiles at that moment, from the game's fold (and no other seat's)
            state = Hand.replay(evs[:p.event])
            mine = sorted(dv["hand"] + ([dv["drawn"]] if dv["drawn"] is not None else []))
            assert mine == sorted(state.concealed[seat])
            assert sum(c["played"] for c in dv["candidates"]) == 1
            png = render.render_review_decision(dv, lang)
            assert size(png)[0] == WIDTH and size(png)[1] < 1000
            seen.add(png)
    assert len(seen) == 10  # every picture its own


def test_the_verdict_beside_the_played_move_says_what_happened() -> None:
    """A move that agrees only by being valued within the tie of the expert's is not "Same as the expert" —
    the picture shows two different moves under it; it is "as good as" the expert's."""
    from render.review import verdict_text

    def view(played: int, best: int, agree: bool, loss: float = 0.0) -> dict:
        return {"played": {"type": "discard", "tile": played}, "best": {"type": "discard", "tile": best},
                "agree": agree, "loss": loss}

    assert verdict_text(view(3, 3, True), "en") == "Same as the expert"
    assert verdict_text(view(3, 7, True), "en") == "As good as the expert's"
    assert verdict_text(view(3, 7, True), "zh") == "与专家的一样好"
    assert verdict_text(view(3, 7, False, 2.5), "en") == "2.50 silver lost"
    assert verdict_text(view(3, 7, False), "zh") == "与专家不同（差别不明显）"


def test_a_hand_with_no_decision_shows_a_dash_not_100_percent() -> None:
    """A seat whose every move was forced had nothing to agree with: the summary picture said "100%" over
    "0 of 0 decisions"."""
    from jxbot.coach.review import Review
    from render.review import agreement_figure

    empty = Review("c811af0a9799-1", 0, "jiaxing", [])
    for lang, words in (("zh", "没有要做的决定"), ("en", "no decision to make")):
        sv = views.summary_view(empty, "East (Ann)", lang)
        assert agreement_figure(sv, lang) == ("—", words)
        assert size(render.render_review_summary(sv, lang))[0] == WIDTH
    h = played_hand(6)
    r = review_hand(h.events_json(), 2, counting_evaluator)
    sv = views.summary_view(r, "West (Carol)", "en")
    agreed = sum(1 for d in r.decisions if d["agree"])
    assert agreement_figure(sv, "en") == (f"{round(100 * agreed / len(r.decisions))}%",
                                          f"{agreed} of {len(r.decisions)} decisions")


def test_a_name_the_font_cannot_draw_is_folded_or_dropped_in_the_title() -> None:
    """A player called "𝓐𝓵𝓲𝓬𝓮🀄" or "꧁Ｋｉｍ꧂" sees his name in the review's title, not question marks."""
    from jxbot.i18n import t
    from render.fonts import missing_chars
    from render.review import drawable_title

    for raw, name in (("𝓐𝓵𝓲𝓬𝓮🀄", "Alice"), ("꧁༺Ｋｉｍ༻꧂", "Kim"), ("小林", "小林")):
        for lang in ("zh", "en"):
            title = drawable_title(t("coach.title", lang, who=raw))
            assert name in title and "?" not in title and not missing_chars(title), title
