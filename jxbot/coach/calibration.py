"""The evaluator's calibration: predicted win chance of the chosen action against what happened
(bench/calibration.py prints it and fits the prior; tests/coach/test_calibration.py runs a small version)."""

from __future__ import annotations

import math

from ..ai import make_player
from ..game import Hand
from .decision import WIN_PRIOR, Decision, calibrated_win, evaluate


def collect_raw(decisions: int, *, worlds: int = 4, every: int = 2, seed: str = "calib",
                ruleset: str = "jiaxing") -> list[tuple[int, int, bool]]:
    """(playouts the chosen action won, playouts, did the seat win) for ``decisions`` decisions of self-play
    (four normal players; every ``every``-th decision with a real choice)."""
    out: list[tuple[int, int, bool]] = []
    hand_no = 0
    k = 0
    while len(out) < decisions:
        h = Hand.new(f"{seed}/{hand_no}", ruleset=ruleset)
        ps = [make_player("normal", f"{seed}/{hand_no}/{i}") for i in range(4)]
        preds: list[tuple[int, int, int]] = []
        while h.phase != "ended":
            s = min(h.pending())
            view = h.view(s)
            a = ps[s].choose(view)
            if len(view["actions"]) > 1 and len(out) + len(preds) < decisions:
                k += 1
                if k % every == 0:
                    c = evaluate(Decision.from_view(view), worlds=worlds, seed=f"{seed}/{k}", budget_ms=1e9,
                                 actions=[a.to_json()])
                    preds.append((s, c[0].wins, c[0].n))
            h.apply(a)
        r = h.result
        assert r is not None
        out.extend((w, n, r.winner == s) for s, w, n in preds)
        hand_no += 1
    return out


def collect(decisions: int, *, worlds: int = 4, every: int = 2, seed: str = "calib", ruleset: str = "jiaxing",
            prior: tuple[float, float] = WIN_PRIOR) -> list[tuple[float, bool]]:
    """(predicted win chance of the chosen action, did the seat win) for ``decisions`` decisions."""
    return [(calibrated_win(w, n, prior), won)
            for w, n, won in collect_raw(decisions, worlds=worlds, every=every, seed=seed, ruleset=ruleset)]


def fit_prior(raw: list[tuple[int, int, bool]]) -> tuple[float, float]:
    """The Beta prior (a, b) whose shrunk predictions (w + a) / (n + a + b) have the least log loss on ``raw``
    (a grid: a in 0–8 by 0.25, b in 0–30 by 0.25)."""
    best: tuple[float, float, float] | None = None
    for i in range(0, 33):
        a = i * 0.25
        for j in range(0, 121):
            b = j * 0.25
            if a + b == 0:
                continue
            loss = 0.0
            for w, n, won in raw:
                p = min(1 - 1e-9, max(1e-9, (w + a) / (n + a + b)))
                loss -= math.log(p if won else 1 - p)
            if best is None or loss < best[0]:
                best = (loss, a, b)
    assert best is not None
    return best[1], best[2]


def reliability(pairs: list[tuple[float, bool]], min_bin: int = 50) -> dict:
    bins = [[0, 0.0, 0] for _ in range(10)]
    for p, won in pairs:
        b = bins[min(9, int(p * 10))]
        b[0] += 1
        b[1] += p
        b[2] += won
    table = []
    gap = 0.0
    for i, (n, sp, w) in enumerate(bins):
        row = {"bin": f"{i / 10:.1f}-{(i + 1) / 10:.1f}", "decisions": n,
               "predicted": round(sp / n, 4) if n else None, "observed": round(w / n, 4) if n else None}
        if n:
            row["gap"] = round(abs(sp / n - w / n), 4)
            # the binomial 95 % half-width of the observed frequency at the predicted one: a gap below it is
            # what a perfectly calibrated predictor shows on a bin of this size
            q = min(max(sp / n, 0.0), 1.0)
            row["noise95"] = round(1.96 * math.sqrt(q * (1 - q) / n), 4)
            if n >= min_bin:
                gap = max(gap, abs(sp / n - w / n))
        table.append(row)
    n = len(pairs)
    return {"decisions": n, "table": table, "max_gap": round(gap, 4), "min_bin": min_bin,
            "mean_predicted": round(sum(p for p, _ in pairs) / n, 4) if n else None,
            "mean_observed": round(sum(w for _, w in pairs) / n, 4) if n else None}
