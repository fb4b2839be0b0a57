"""The evaluator's calibration (issue 30): does its predicted win chance come true?

Four normal players play (self-play, ``--seed``); at every ``--every``-th decision with a real choice the
evaluator (``jxbot.coach.evaluate``, ``--worlds`` sampled worlds, the seat's view only) predicts the win
chance of the action the player chose; when the hand ends the prediction is scored against whether that
seat won. The prediction is the playouts' wins mapped by the fitted calibration map
(``jxbot.coach.decision.WIN_MAP``: a Beta prior's shrinkage, then a logistic map on it and the share of the
wall drawn; ``raw`` beside it: the playouts' bare k/n). A winning action (自摸, 胡) is predicted by the chance
the rules give it (``jxbot.coach.decision.certain_win``), as the coach shows it, and left out of ``--fit``. Every 8th decision by default: the decisions of one
hand share its one winner, so a run should draw its decisions from many hands (5,000 decisions every 8th
are ~700 hands). The reliability table bins the predictions by decile (0–0.1, …, 0.9–1.0): per bin the
number of decisions, the mean prediction, the observed win frequency, and ``noise95``, the binomial 95 %
half-width a perfectly calibrated predictor shows on a bin that size. ``max_gap`` is the largest
|prediction − observed| over the bins holding at least ``--min-bin`` decisions; ``target_met``:
``max_gap`` ≤ 0.05 with at least 5,000 decisions.

``--fit`` fits the map instead (least log loss) on its seed — use other seeds than the measurement's (the
defaults: ``calib-fit`` to fit, ``calib`` to measure) — and prints it with the table it gives on its own
data. ``--dump FILE`` writes the run's decisions (JSON lines); ``--load FILE …`` reads dumped runs instead of
playing (e.g. to fit on several seeds' runs at once).

Usage: ``python bench/calibration.py [--decisions 5000] [--worlds 8] [--every 8] [--json] [--fit --seed calib-fit]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.coach.calibration import Sample, collect_raw, fit_map, log_loss, predict, reliability  # noqa: E402
from jxbot.coach.decision import WIN_MAP  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=5000)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--min-bin", type=int, default=50)
    ap.add_argument("--seed", default=None, help="default: calib (measure), calib-fit (--fit)")
    ap.add_argument("--ruleset", default="jiaxing")
    ap.add_argument("--fit", action="store_true", help="fit the map on this run instead of measuring")
    ap.add_argument("--dump", default=None, help="write the run's decisions here (JSON lines)")
    ap.add_argument("--load", nargs="*", default=None, help="read dumped runs instead of playing")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seed = args.seed or ("calib-fit" if args.fit else "calib")
    c0 = time.process_time()
    if args.load:
        raw = []
        for i, f in enumerate(args.load):  # the hands of each run apart
            for line in Path(f).read_text().splitlines():
                x = Sample(*json.loads(line))
                raw.append(x._replace(hand=i * 1_000_000 + x.hand))
        seed = "+".join(args.load)
    else:
        raw = collect_raw(args.decisions, worlds=args.worlds, every=args.every, seed=seed, ruleset=args.ruleset)
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(list(x)) + "\n" for x in raw))
    cal = fit_map(raw) if args.fit else WIN_MAP
    out = {"bench": "calibration", "ruleset": args.ruleset, "worlds": args.worlds, "every": args.every,
           "seed": seed, "hands": len({x.hand for x in raw}), "map": list(cal), "fitted_here": args.fit,
           **reliability(predict(raw, cal), args.min_bin), "log_loss": round(log_loss(raw, cal), 4),
           "raw": reliability([(x.wins / x.n, x.won) for x in raw], args.min_bin),
           "cpu_seconds": round(time.process_time() - c0, 1)}
    out["target_met"] = (not args.fit) and out["decisions"] >= 5000 and out["max_gap"] <= 0.05
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return
    for row in out["table"]:
        print(f"{row['bin']}  n={row['decisions']:5d}  predicted={row['predicted']}  observed={row['observed']}"
              f"  noise95={row.get('noise95')}")
    print(f"max_gap={out['max_gap']} over {out['decisions']} decisions of {out['hands']} hands (bins of "
          f"≥ {args.min_bin}); map {tuple(round(c, 4) for c in cal)}; log loss {out['log_loss']}"
          f"; raw k/n max_gap={out['raw']['max_gap']}")


if __name__ == "__main__":
    main()
