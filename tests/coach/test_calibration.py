"""A small calibration run (bench/calibration.py is the full one): over self-play decisions of normal
players the evaluator's predicted win chance for the chosen action matches how often the seat won."""

from __future__ import annotations

from jxbot.coach.calibration import collect, reliability


def test_predicted_win_chance_matches_what_happened() -> None:
    pairs = collect(120, worlds=2, every=3, seed="calib-test")
    rel = reliability(pairs, min_bin=20)
    assert rel["decisions"] == 120 and sum(r["decisions"] for r in rel["table"]) == 120
    # the chosen actions' predicted win chances average what happened (uniformly dealt opponents'
    # hands predicted 0.62 against 0.23; the bench's full figures are in docs/ai.md)
    assert abs(rel["mean_predicted"] - rel["mean_observed"]) < 0.12, rel
    # a prediction says something: the third predicted most likely to win won more often than the third
    # predicted least likely
    ranked = sorted(pairs, key=lambda x: x[0])
    third = len(ranked) // 3
    low = sum(w for _p, w in ranked[:third]) / third
    high = sum(w for _p, w in ranked[-third:]) / third
    assert high > low + 0.1, (low, high)
