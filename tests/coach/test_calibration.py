"""The evaluator's calibration (issue 30; bench/calibration.py is the full run, docs/ai.md the figures):
the map from the playouts' wins to the win chance shown is fitted faithfully, and on held-out self-play its
predictions come closer to what happened than the playouts' bare k/n."""

from __future__ import annotations

import random

from jxbot.ai import make_player
from jxbot.coach import review as rv
from jxbot.coach.calibration import Sample, collect_raw, fit_logistic, fit_map, predict, reliability
from jxbot.coach.decision import HU_KEPT, Decision, WinMap, calibrated_win, certain_win, evaluate
from jxbot.game import Hand


def _winning_views() -> dict[str, dict]:
    """From self-play of four normal players: a view offering 自摸, one offering 胡 to the first seat after the
    discarder, and one offering it to the third (two seats that may claim before it)."""
    found: dict[str, dict] = {}
    for hn in range(400):
        h = Hand.new(f"calib-win/{hn}", ruleset="jiaxing")
        ps = [make_player("normal", f"calib-win/{hn}/{i}") for i in range(4)]
        while h.phase != "ended":
            s = min(h.pending())
            view = h.view(s)
            types = {a["type"] for a in view["actions"]}
            if "tsumo" in types:
                found.setdefault("tsumo", view)
            if "hu" in types and view["last_discard"] and not view["pending_kong"]:
                found.setdefault(f"hu{(s - view['last_discard']['seat']) % 4}", view)
            if {"tsumo", "hu1", "hu3"} <= found.keys():
                return found
            h.apply(ps[s].choose(view))
    raise AssertionError(f"only {sorted(found)} in 400 hands")


def test_a_winning_action_shows_the_win_chance_the_rules_give_it() -> None:
    """自摸 wins at once and a 胡 with no seat before it in play order wins for certain: the coach shows 1, not
    the playouts' mapped 8 of 8 (below 1 at any share of the wall); a 胡 two seats that may also claim 胡
    could beat (RULES A3) shows the share of such claims that won in self-play, below 1."""
    vs = _winning_views()
    win = {k: next(a for a in v["actions"] if a["type"] in ("tsumo", "hu")) for k, v in vs.items()}
    assert certain_win(vs["tsumo"], win["tsumo"]) == 1.0
    assert certain_win(vs["hu1"], win["hu1"]) == 1.0
    assert certain_win(vs["hu3"], win["hu3"]) == HU_KEPT[2] < 1.0
    assert all(certain_win(v, a) is None for v in vs.values() for a in v["actions"] if a["type"] not in ("tsumo", "hu"))
    assert calibrated_win(8, 8, 0.5) < 0.99
    # the evaluator's candidates and the review's candidates show it
    for k in ("tsumo", "hu1"):
        v = vs[k]
        other = next(a for a in v["actions"] if a["type"] in ("discard", "pass"))
        cands = {c.action["type"]: c for c in evaluate(Decision.from_view(v), worlds=2, seed=30,
                                                       actions=[win[k], other])}
        assert cands[win[k]["type"]].win == 1.0 and cands[other["type"]].win < 1.0, (k, cands)
    point = rv.Point(0, 0, vs["tsumo"], win["tsumo"])
    shown = {c["action"]["type"]: c["win"] for c in rv.expert(point, 30, 40)}
    assert shown["tsumo"] == 1.0, shown


def test_the_map_is_fitted_without_the_winning_actions() -> None:
    """A winning action is predicted by the rules' chance and does not move the map's fit: adding 8-of-8
    certain wins to the data leaves the fitted map as it was."""
    rng = random.Random(31)
    raw = []
    for i in range(400):
        w, d = rng.randrange(9), rng.random()
        raw.append(Sample(w, 8, d, rng.random() < calibrated_win(w, 8, d), i))
    wins = [Sample(8, 8, rng.random(), True, 2000 + i, 1.0) for i in range(100)]
    assert fit_logistic(raw + wins, 2.0, 3.0) == fit_logistic(raw, 2.0, 3.0)
    assert fit_map(raw + wins) == fit_map(raw)
    assert [p for p, _ in predict(wins)] == [1.0] * 100


def test_the_fit_recovers_a_known_map() -> None:
    """Outcomes drawn from a known map: the least-log-loss fit gives back its predictions (within 0.03)."""
    true = WinMap(1.0, 3.0, -0.6, 0.8, 0.5, -0.9)
    rng = random.Random(30)
    raw = []
    for i in range(3000):
        w, d = rng.randrange(9), rng.random()
        raw.append(Sample(w, 8, d, rng.random() < calibrated_win(w, 8, d, true), i))
    got = WinMap(1.0, 3.0, *fit_logistic(raw, 1.0, 3.0))
    worst = max(abs(calibrated_win(w, 8, d, got) - calibrated_win(w, 8, d, true))
                for w in range(9) for d in (0.0, 0.5, 1.0))
    assert worst < 0.03, (got, worst)


def test_the_shown_win_chance_rises_with_the_playouts_wins() -> None:
    for d in (0.0, 0.5, 1.0):
        ps = [calibrated_win(w, 8, d) for w in range(9)]
        assert all(0 < p < 1 for p in ps) and ps == sorted(ps) and ps[-1] - ps[0] > 0.5, ps


def test_predicted_win_chance_matches_what_happened() -> None:
    """A small held-out run (seed ``calib-test``, not one the map was fitted on; 120 decisions of 31 hands)."""
    raw = collect_raw(120, worlds=8, every=16, seed="calib-test")
    pairs = predict(raw)
    bare = [(x.wins / x.n, x.won) for x in raw]
    rel = reliability(pairs, min_bin=20)
    assert rel["decisions"] == 120 and sum(r["decisions"] for r in rel["table"]) == 120

    def brier(ps: list[tuple[float, bool]]) -> float:
        return sum((p - w) ** 2 for p, w in ps) / len(ps)

    # the mapped predictions average what happened, and are nearer the outcomes than the bare k/n (which
    # over-rates a good position: 7 of 8 playouts won came true 0.65 of the time on the fitting seeds)
    assert abs(rel["mean_predicted"] - rel["mean_observed"]) < 0.04, rel
    assert brier(pairs) < brier(bare), (brier(pairs), brier(bare))
    # a prediction says something: the third predicted most likely to win won more often than the third
    # predicted least likely
    ranked = sorted(pairs, key=lambda x: x[0])
    third = len(ranked) // 3
    low = sum(w for _p, w in ranked[:third]) / third
    high = sum(w for _p, w in ranked[-third:]) / third
    assert high > low + 0.1, (low, high)
