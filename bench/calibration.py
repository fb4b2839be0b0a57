"""The evaluator's calibration (issue 30): does its predicted win chance come true?

Four normal players play (self-play, ``--seed``); at every ``--every``-th decision with a real choice the
evaluator (``jxbot.coach.evaluate``, ``--worlds`` sampled worlds, the seat's view only) predicts the win
chance of the action the player chose; when the hand ends the prediction is scored against whether that
seat won. The prediction is the playouts' wins shrunk by the fitted Beta prior
(``jxbot.coach.decision.WIN_PRIOR``; ``raw`` beside it: the playouts' bare k/n). The reliability table
bins the predictions by decile (0–0.1, …, 0.9–1.0): per bin the number of decisions, the mean prediction,
the observed win frequency, and ``noise95``, the binomial 95 % half-width a perfectly calibrated predictor
shows on a bin that size. ``max_gap`` is the largest |prediction − observed| over the bins holding at least
``--min-bin`` decisions; ``target_met``: ``max_gap`` ≤ 0.05 with at least 5,000 decisions.

``--fit`` fits the prior instead (least log loss) on its seed — use another seed than the measurement's
(the defaults: ``calib-fit`` to fit, ``calib`` to measure) — and prints it.

Usage: ``python bench/calibration.py [--decisions 5000] [--worlds 8] [--every 2] [--json] [--fit --seed calib-fit]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.coach.calibration import collect_raw, fit_prior, reliability  # noqa: E402
from jxbot.coach.decision import WIN_PRIOR, calibrated_win  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=5000)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--min-bin", type=int, default=50)
    ap.add_argument("--seed", default=None, help="default: calib (measure), calib-fit (--fit)")
    ap.add_argument("--ruleset", default="jiaxing")
    ap.add_argument("--fit", action="store_true", help="fit the prior on this run instead of measuring")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seed = args.seed or ("calib-fit" if args.fit else "calib")
    c0 = time.process_time()
    raw = collect_raw(args.decisions, worlds=args.worlds, every=args.every, seed=seed, ruleset=args.ruleset)
    prior = fit_prior(raw) if args.fit else WIN_PRIOR
    pairs = [(calibrated_win(w, n, prior), won) for w, n, won in raw]
    out = {"bench": "calibration", "ruleset": args.ruleset, "worlds": args.worlds, "seed": seed,
           "prior": list(prior), "fitted_here": args.fit, **reliability(pairs, args.min_bin),
           "raw": reliability([(w / n, won) for w, n, won in raw], args.min_bin),
           "cpu_seconds": round(time.process_time() - c0, 1)}
    out["target_met"] = (not args.fit) and out["decisions"] >= 5000 and out["max_gap"] <= 0.05
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return
    for row in out["table"]:
        print(f"{row['bin']}  n={row['decisions']:5d}  predicted={row['predicted']}  observed={row['observed']}"
              f"  noise95={row.get('noise95')}")
    print(f"max_gap={out['max_gap']} over {out['decisions']} decisions (bins of ≥ {args.min_bin}); prior {prior}"
          f"; raw k/n max_gap={out['raw']['max_gap']}")


if __name__ == "__main__":
    main()
