"""``jxbot ladder simulate``: rated matches among computer players through the ranked queue and the rating update
(jxbot/ladder/simulate.py, docs/ranked.md "Simulation"); one JSON line with the players and the separation
figures."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("ladder", help="ranked ladder tools: simulate rated matches among computers",
                       description="Ranked ladder tools (docs/ranked.md).")
    lsub = p.add_subparsers(dest="ladder_command", metavar="ACTION")
    s = lsub.add_parser("simulate", help="rated matches among computer players; the rating figures",
                        description="Rated matches among computer players through the real queue and rating code.")
    s.add_argument("--players", default="easy:8,normal:8,hard:8",
                   help="levels and how many of each, e.g. easy:8,normal:8,hard:8 (the default)")
    s.add_argument("--matches", type=int, default=600, help="rated matches to play (default 600)")
    s.add_argument("--seed", default="0", help="seed (default 0)")
    s.add_argument("--ruleset", default="jiaxing", help="ruleset (default jiaxing)")
    s.add_argument("--jobs", type=int, default=1, help="processes playing the tables (default 1; same figures)")
    s.add_argument("--db", default=":memory:", help="the store to rate into (default: in memory)")
    s.add_argument("--json", action="store_true", help="print one JSON line (the default output as well)")
    return p


def run(args: argparse.Namespace) -> int:
    if getattr(args, "ladder_command", None) != "simulate":
        print("usage: jxbot ladder simulate [--players …] [--matches N] [--seed S] [--json]", file=sys.stderr)
        return 2
    from jxbot.ladder.simulate import run as simulate

    if args.matches < 1:
        print("--matches must be at least 1", file=sys.stderr)
        return 2
    try:
        out = asyncio.run(simulate(args.players, args.matches, args.seed, ruleset=args.ruleset,
                                   jobs=max(1, args.jobs), db=args.db))
    except ValueError as exc:
        print(f"jxbot ladder simulate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False, separators=(",", ":")))
    return 0
