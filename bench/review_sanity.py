"""Sanity of the coach's review (issue 30), figures that can fail, as JSON.

* Hands of self-play, one seat of each level (``expert``, ``hard``, ``normal``, ``easy``, rotated hand by hand),
  every seat reviewed: the agreement with the expert and the estimated silver lost per hand, per level. The
  expert's own hands must agree ≥ 95%; easy must agree less and lose more than normal, normal than hard.
* Obvious moves (``jxbot.coach.sanity.obvious_pair``): in the opening, a guest wind that is the hand's only
  honour beside a run of three lone tiles in the suit the hand plays — in those hands and ``--obvious-hands``
  more (such decisions are rare) — reviewed twice, played as "throw the wind" and as "break the run", both
  valued on the same worlds: never flagged the wrong way round (throwing the wind called a loss while breaking
  the run passes). How often the expert's own suggestion breaks the
  set is printed beside it (``obvious_expert_breaks_set``: a weakness of the expert level, not of the review).

    python bench/review_sanity.py [--hands 8] [--budget-ms 6000] [--jobs 2] [--json]

The reviews here use a smaller budget per hand than the bot (``--budget-ms``, the whole hand's) to keep the
bench short; the machine the figures come from may be shared (note it beside them).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.coach.sanity import run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=8)
    p.add_argument("--budget-ms", type=int, default=6000, help="CPU ms of one seat's whole review")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default="jiaxing")
    p.add_argument("--paired-ms", type=int, default=300,
                   help="CPU ms per decision of the same-positions comparison (0: skip it)")
    p.add_argument("--obvious-hands", type=int, default=200,
                   help="more self-play hands scanned for obvious decisions (rare: ~1 in 25 hands)")
    p.add_argument("--json", action="store_true", help="JSON only")
    args = p.parse_args(argv)
    res = run(args.hands, args.budget_ms, args.jobs, args.seed, args.ruleset, args.paired_ms,
              log=lambda part: print(json.dumps(part), file=sys.stderr, flush=True), obvious_hands=args.obvious_hands)
    print(json.dumps(res, ensure_ascii=False, indent=None if args.json else 1))
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
