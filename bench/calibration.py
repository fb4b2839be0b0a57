"""The evaluator's calibration (issue 30): does its predicted win chance come true?

Four normal players play (self-play, ``--seed``); at every ``--every``-th decision with a real choice the
evaluator (``jxbot.coach.evaluate``, ``--worlds`` sampled worlds, the seat's view only) predicts the win
chance of the action the player chose; when the hand ends the prediction is scored against whether that
seat won. The reliability table bins the predictions by decile (0–0.1, …, 0.9–1.0): per bin the number of
decisions, the mean prediction and the observed win frequency. ``max_gap`` is the largest |prediction −
observed| over the bins holding at least ``--min-bin`` decisions (a bin of a handful says nothing);
``target_met``: ``max_gap`` ≤ 0.05 with at least 5,000 decisions.

Usage: ``python bench/calibration.py [--decisions 5000] [--worlds 4] [--every 2] [--json]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.coach.calibration import collect, reliability  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=5000)
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--min-bin", type=int, default=50)
    ap.add_argument("--seed", default="calib")
    ap.add_argument("--ruleset", default="jiaxing")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    c0 = time.process_time()
    pairs = collect(args.decisions, worlds=args.worlds, every=args.every, seed=args.seed, ruleset=args.ruleset)
    out = {"bench": "calibration", "ruleset": args.ruleset, "worlds": args.worlds,
           **reliability(pairs, args.min_bin), "cpu_seconds": round(time.process_time() - c0, 1)}
    out["target_met"] = out["decisions"] >= 5000 and out["max_gap"] <= 0.05
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return
    for row in out["table"]:
        print(f"{row['bin']}  n={row['decisions']:5d}  predicted={row['predicted']}  observed={row['observed']}")
    print(f"max_gap={out['max_gap']} over {out['decisions']} decisions (bins of ≥ {args.min_bin})")


if __name__ == "__main__":
    main()
