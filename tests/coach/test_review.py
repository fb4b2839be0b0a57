"""The review of a hand (jxbot/coach/review.py): the decisions found in the log are the seat's own, with the
action it played among its legal ones; agreement, loss and the costliest moments follow from the values."""

from __future__ import annotations

import pytest

from jxbot.coach import views
from jxbot.coach.review import Review, decision_points, judge, per_decision_budget, review_hand
from tests.coach.review_helpers import counting_evaluator
from tests.replay.helpers import played_hand


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_decision_is_the_seats_own_and_legal(seed: int) -> None:
    h = played_hand(seed)
    evs = h.events_json()
    for seat in range(4):
        pts = decision_points(evs, seat)
        assert pts, "a seat of a played hand has decisions"
        for p in pts:
            assert p.view["viewer"] == seat and p.played["seat"] == seat
            assert p.played in p.view["actions"] and len(p.view["actions"]) > 1
            others = [s for s in range(4) if s != seat]
            assert all("hand" not in p.view["seats"][s] for s in others)  # no other seat's concealed tiles
        discards = [e for e in evs if e["type"] == "discarded" and e["seat"] == seat]
        assert sum(1 for p in pts if p.played["type"] == "discard") == len(discards)


def test_judging_agreement_loss_and_ties() -> None:
    from jxbot.coach.review import Point

    p = Point(0, 5, {}, {"type": "discard", "seat": 0, "tile": 3})
    c = [{"action": {"type": "discard", "seat": 0, "tile": 3}, "ev": 0.98, "win": .1, "deal_in": 0},
         {"action": {"type": "discard", "seat": 0, "tile": 9}, "ev": 1.0, "win": .1, "deal_in": 0}]
    d = judge(p, c)
    assert d["agree"] and d["loss"] == 0 and d["best"]["tile"] == 9  # within the tie: the expert's too
    c[1]["ev"] = 2.0
    d = judge(p, c)
    assert not d["agree"] and d["loss"] == pytest.approx(1.02) and d["candidates"][0]["ev"] == 2.0


def test_review_figures_and_round_trip() -> None:
    h = played_hand(4)
    r = review_hand(h.events_json(), 1, counting_evaluator)
    n = len(r.decisions)
    assert n == len(decision_points(h.events_json(), 1))
    assert r.agreement == sum(d["agree"] for d in r.decisions) / n
    assert r.lost == pytest.approx(sum(d["loss"] for d in r.decisions), abs=1e-3)
    top = r.costliest()
    assert len(top) <= 3 and all(top[i]["loss"] >= top[i + 1]["loss"] for i in range(len(top) - 1))
    assert all(d["loss"] > 0 for d in top)
    again = Review.from_json(r.to_json())
    assert again.to_json() == r.to_json()
    text = views.summary_text(r, "en")
    assert f"{round(100 * r.agreement)}%" in text


def test_a_seed_makes_a_review_reproducible() -> None:
    h = played_hand(5)
    a = review_hand(h.events_json(), 2, counting_evaluator, seed=7)
    b = review_hand(h.events_json(), 2, counting_evaluator, seed=7)
    assert a.to_json() == b.to_json()


def test_the_hand_budget_is_kept() -> None:
    for n in (1, 10, 25, 40, 80):
        assert per_decision_budget(n) * n <= 15_000
        assert per_decision_budget(n, 2_000) * n <= max(2_000, 20 * n)
    assert per_decision_budget(25) * 25 <= 15_000


def test_terminal_line_of_a_disagreement_with_no_clear_cost_says_so() -> None:
    """``jxbot review``'s line for a move that is not the expert's but costs nothing clear: the words the
    picture uses ("no clear cost"), not a loss of "−0.00" silver; a real loss keeps its figure."""
    def dec(n: int, loss: float) -> dict:
        return {"n": n, "event": n, "played": {"type": "discard", "seat": 0, "tile": 3},
                "best": {"type": "discard", "seat": 0, "tile": 7}, "agree": False, "loss": loss, "gap": 0.9,
                "played_ev": 0.0, "candidates": []}

    r = Review("0123456789ab-1", 0, "jiaxing", [dec(0, 0.0), dec(1, 2.5)])
    for lang, words in (("en", "no clear cost"), ("zh", "差别不明显")):
        first, second = views.decision_lines(r, lang)
        assert "0.00" not in first and words in first, first
        assert "2.50" in second and words not in second, second


def test_a_chow_is_named_by_its_run_as_on_the_tables_button() -> None:
    """A chow's action carries the run's lowest tile, not the discard it claims: with 5m discarded, chowing
    3-4-5m read "chow from 3m" (a tile nobody discarded) beside the expert's "chow from 4m". It now reads as
    the table's own button did: 吃 345万 / chow 345m."""
    r = Review("0123456789ab-1", 0, "jiaxing", [{
        "n": 0, "event": 5, "played": {"type": "chi", "seat": 0, "tile": 2}, "best": {"type": "chi", "seat": 0, "tile": 3},
        "agree": False, "loss": 1.5, "gap": 1.5, "played_ev": 0.0, "candidates": []}])
    assert views.action_text({"type": "chi", "seat": 0, "tile": 2}, "zh") == "吃 345万"
    assert views.action_text({"type": "chi", "seat": 0, "tile": 20}, "en") == "chow 345s"
    (line,) = views.decision_lines(r, "en")
    assert "chow 345m" in line and "chow 456m" in line and "from" not in line, line
    assert "第 1 步：吃 345万 → 建议 吃 456万" in views.summary_text(r, "zh")
