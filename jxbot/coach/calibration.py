"""The evaluator's calibration: predicted win chance of the chosen action against what happened
(bench/calibration.py prints it and fits the map; tests/coach/test_calibration.py runs a small version)."""

from __future__ import annotations

import math
from typing import NamedTuple

from ..ai import make_player
from ..game import Hand
from .decision import WIN_MAP, Decision, WinMap, calibrated_win, certain_win, evaluate, wall_drawn


class Sample(NamedTuple):
    """One decision of self-play: the chosen action's playouts (``wins`` of ``n``), the share of the wall
    drawn when it was taken, and whether the seat won the hand; ``fixed``: the win chance the rules give a
    winning action (``certain_win``: 自摸, 胡), None for every other action (the map's to predict)."""

    wins: int
    n: int
    drawn: float
    won: bool
    hand: int  # the hand's number in the run (decisions of one hand share its winner)
    fixed: float | None = None


def collect_raw(decisions: int, *, worlds: int = 8, every: int = 8, seed: str = "calib",
                ruleset: str = "jiaxing") -> list[Sample]:
    """``decisions`` decisions of self-play (four normal players; every ``every``-th decision with a real
    choice), each with what the evaluator's playouts said of the chosen action and what happened."""
    out: list[Sample] = []
    hand_no = 0
    k = 0
    while len(out) < decisions:
        h = Hand.new(f"{seed}/{hand_no}", ruleset=ruleset)
        ps = [make_player("normal", f"{seed}/{hand_no}/{i}") for i in range(4)]
        preds: list[tuple[int, int, int, float, float | None]] = []
        while h.phase != "ended":
            s = min(h.pending())
            view = h.view(s)
            a = ps[s].choose(view)
            if len(view["actions"]) > 1 and len(out) + len(preds) < decisions:
                k += 1
                if k % every == 0:
                    c = evaluate(Decision.from_view(view), worlds=worlds, seed=f"{seed}/{k}", budget_ms=1e9,
                                 actions=[a.to_json()])
                    preds.append((s, c[0].wins, c[0].n, wall_drawn(view), certain_win(view, a.to_json())))
            h.apply(a)
        r = h.result
        assert r is not None
        out.extend(Sample(w, n, d, r.winner == s, hand_no, f) for s, w, n, d, f in preds)
        hand_no += 1
    return out


def predict(raw: list[Sample], cal: WinMap = WIN_MAP) -> list[tuple[float, bool]]:
    """(predicted win chance, did the seat win) per decision: the rules' chance of a winning action, the map
    ``cal``'s of any other."""
    return [(x.fixed if x.fixed is not None else calibrated_win(x.wins, x.n, x.drawn, cal), x.won) for x in raw]


def mapped(raw: list[Sample]) -> list[Sample]:
    """The decisions whose win chance the map predicts (a winning action's is the rules': never fitted)."""
    return [x for x in raw if x.fixed is None]


def collect(decisions: int, *, worlds: int = 8, every: int = 8, seed: str = "calib", ruleset: str = "jiaxing",
            cal: WinMap = WIN_MAP) -> list[tuple[float, bool]]:
    """(predicted win chance of the chosen action, did the seat win) for ``decisions`` decisions."""
    return predict(collect_raw(decisions, worlds=worlds, every=every, seed=seed, ruleset=ruleset), cal)


def log_loss(raw: list[Sample], cal: WinMap) -> float:
    """Mean log loss of the map's predictions on ``raw``."""
    loss = 0.0
    for p, won in predict(raw, cal):
        p = min(1 - 1e-9, max(1e-9, p))
        loss -= math.log(p if won else 1 - p)
    return loss / max(1, len(raw))


def _features(x: Sample, a: float, b: float) -> list[float]:
    q = (x.wins + a) / (x.n + a + b)
    lq = math.log(q / (1 - q))
    return [1.0, lq, x.drawn, lq * x.drawn]


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """``m`` x = ``v`` by Gaussian elimination with partial pivoting (a small, well-posed system)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[c][c] != 0:
                f = a[r][c] / a[c][c]
                for j in range(c, n + 1):
                    a[r][j] -= f * a[c][j]
    return [a[i][n] / a[i][i] if a[i][i] != 0 else 0.0 for i in range(n)]


def fit_logistic(raw: list[Sample], a: float, b: float, iters: int = 30) -> tuple[float, float, float, float]:
    """The coefficients of the logistic map on (1, logit q, drawn, logit q · drawn), q the prior-shrunk
    k/n, with the least log loss on ``raw``'s mapped decisions (Newton's method; a tiny ridge keeps it
    well-posed)."""
    xs = [(_features(x, a, b), 1.0 if x.won else 0.0) for x in mapped(raw)]
    beta = [0.0, 1.0, 0.0, 0.0]
    for _ in range(iters):
        g = [0.0] * 4
        hm = [[1e-6 if i == j else 0.0 for j in range(4)] for i in range(4)]
        for f, y in xs:
            z = sum(bi * fi for bi, fi in zip(beta, f, strict=True))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(4):
                g[i] += (p - y) * f[i]
                for j in range(4):
                    hm[i][j] += p * (1 - p) * f[i] * f[j]
        step = _solve(hm, g)
        beta = [bi - si for bi, si in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta[0], beta[1], beta[2], beta[3]


LOSS_TIE = 0.0005  # mean log loss: priors this close to the best fit the data as well (seed-to-seed noise is ~0.01)


def fit_map(raw: list[Sample]) -> WinMap:
    """The map fitted on ``raw``'s mapped decisions (winning actions left out): for each prior (a, b) of a grid
    (a in 0.5–4, b in 0.5–8) the logistic coefficients with the least log loss; of the priors whose log loss is
    within :data:`LOSS_TIE` of the least, the one whose reliability table on ``raw`` has the smallest
    ``max_gap`` (the log losses of the grid's priors differ in the fourth decimal, their top deciles by 0.1:
    the figure the map is for decides the tie)."""
    raw = mapped(raw)
    fits: list[tuple[float, WinMap]] = []
    for a in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0):
        for b in (0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0):
            cal = WinMap(a, b, *fit_logistic(raw, a, b))
            fits.append((log_loss(raw, cal), cal))
    least = min(loss for loss, _ in fits)
    near = [cal for loss, cal in fits if loss <= least + LOSS_TIE]
    return min(near, key=lambda cal: reliability(predict(raw, cal))["max_gap"])


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
