"""The evaluator's calibration: predicted win chance of the chosen action against what happened
(bench/calibration.py prints it; tests/coach/test_calibration.py runs a small version)."""

from __future__ import annotations

from ..ai import make_player
from ..game import Hand
from .decision import Decision, evaluate


def collect(decisions: int, *, worlds: int = 4, every: int = 2, seed: str = "calib",
            ruleset: str = "jiaxing") -> list[tuple[float, bool]]:
    """(predicted win chance of the chosen action, did the seat win) for ``decisions`` decisions."""
    out: list[tuple[float, bool]] = []
    hand_no = 0
    k = 0
    while len(out) < decisions:
        h = Hand.new(f"{seed}/{hand_no}", ruleset=ruleset)
        ps = [make_player("normal", f"{seed}/{hand_no}/{i}") for i in range(4)]
        preds: list[tuple[int, float]] = []
        while h.phase != "ended":
            s = min(h.pending())
            view = h.view(s)
            a = ps[s].choose(view)
            if len(view["actions"]) > 1 and len(out) + len(preds) < decisions:
                k += 1
                if k % every == 0:
                    c = evaluate(Decision.from_view(view), worlds=worlds, seed=f"{seed}/{k}", budget_ms=1e9,
                                 actions=[a.to_json()])
                    preds.append((s, c[0].win))
            h.apply(a)
        r = h.result
        assert r is not None
        out.extend((p, r.winner == s) for s, p in preds)
        hand_no += 1
    return out


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
            if n >= min_bin:
                gap = max(gap, abs(sp / n - w / n))
        table.append(row)
    n = len(pairs)
    return {"decisions": n, "table": table, "max_gap": round(gap, 4), "min_bin": min_bin,
            "mean_predicted": round(sum(p for p, _ in pairs) / n, 4) if n else None,
            "mean_observed": round(sum(w for _, w in pairs) / n, 4) if n else None}


