"""``jxbot tournament simulate --players N --format swiss|duplicate|both --rounds R --seed S [--events E]
[--hands H] [--json]``: whole events of computer players through the real pairing, scoring and standings code
(jxbot/events/simulate.py). A mixed field (alternately hard and easy computers) plays each format on the same
secrets; the figure is how often a hard computer finishes above an easy one."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("tournament", help="events (tournaments): simulate one with computer players")
    tsub = p.add_subparsers(dest="action", metavar="ACTION")
    s = tsub.add_parser("simulate", help="play events of computer players through the real pairing and standings")
    s.add_argument("--players", type=int, default=8, help="players in the field (default 8)")
    s.add_argument("--format", choices=("swiss", "duplicate", "both"), default="both",
                   help="the format (default both: the same events in each)")
    s.add_argument("--rounds", type=int, default=3, help="rounds of the event (default 3)")
    s.add_argument("--hands", type=int, default=1, help="hands per table in a round (default 1)")
    s.add_argument("--events", type=int, default=10, help="events played per format (default 10)")
    s.add_argument("--seed", default="1", help="the events' secret (default 1)")
    s.add_argument("--levels", default="hard,easy",
                   help="the field's two computer levels, stronger first, registered alternately (default hard,easy)")
    s.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "action", None) != "simulate":
        print("usage: jxbot tournament simulate --players N --format swiss|duplicate|both --rounds R --seed S",
              file=sys.stderr)
        return 2
    if args.players < 4 or args.rounds < 1 or args.events < 1 or args.hands < 1:
        print("jxbot tournament simulate: --players ≥ 4, --rounds, --events and --hands ≥ 1", file=sys.stderr)
        return 2
    from jxbot.ai.strings import LEVEL_NAMES

    levels = tuple(x.strip() for x in str(args.levels).split(","))
    if len(levels) != 2 or not set(levels) <= set(LEVEL_NAMES) or levels[0] == levels[1]:
        print(f"jxbot tournament simulate: --levels is two different levels of {', '.join(LEVEL_NAMES)}",
              file=sys.stderr)
        return 2
    from jxbot.events.simulate import simulate

    formats = ("swiss", "duplicate") if args.format == "both" else (args.format,)
    out = simulate(args.players, args.rounds, str(args.seed), formats=formats, events=args.events, hands=args.hands,
                   levels=(levels[0], levels[1]))
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{args.players} players ({out['field']}), {args.rounds} rounds, "
          f"{args.hands} hand{'s' if args.hands != 1 else ''} a table, {args.events} events per format")
    for fmt in formats:
        top = ", ".join(f"{s['rank']}. {s['name']} {s['points']:+}" for s in out[fmt]["standings"][:4])
        lo, hi = out[fmt]["interval95"]
        print(f"  {fmt:9}: the {levels[0]} computers finish above the {levels[1]} ones in {out[fmt]['hard_above_easy']:.1%} "
              f"of pairs (95% interval {lo:.1%}-{hi:.1%}; last event: {top})")
    if "duplicate_minus_swiss" in out:
        d = out["duplicate_minus_swiss"]
        print(f"  duplicate minus Swiss, event by event on the same secrets: {d['mean']:+.1%} "
              f"(95% interval {d['interval95'][0]:+.1%} to {d['interval95'][1]:+.1%})")
    return 0
