"""``jxbot duel``: one computer level against a field of another, in duplicate format.

Every wall is played four times with the challenger rotating through the seats (``jxbot.ai.duel``).
The walls are cut into chunks of ``--chunk``; ``--jobs K`` spreads the chunks over K processes. The
figures do not depend on K or the chunk size (each wall's seed is ``<seed>/wall/<i>``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("duel", help="duplicate match: a challenger level against a field level",
                       description="Play each wall four times, the challenger in each seat against three field "
                                   "players, and report the challenger's silver per hand with a 95% interval "
                                   "clustered by wall, and its win, deal-in, call and contract rates.")
    p.add_argument("--challenger", default="hard", help="the level measured (default hard)")
    p.add_argument("--field", default="normal", help="the level of the three other seats (default normal)")
    p.add_argument("--hands", type=int, default=200, help="walls to play, each four times (default 200)")
    p.add_argument("--seed", default="0", help="seed (default 0)")
    p.add_argument("--ruleset", default="jiaxing", help="ruleset (default jiaxing)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--chunk", type=int, default=10, help="walls per work unit (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON line instead of a table")
    return p


def _work(job: tuple[list[int], str, str, str, str]) -> dict:
    walls, challenger, field, seed, ruleset = job
    from jxbot.ai.duel import duel

    return duel(challenger, field, walls, seed, ruleset)


def run_duel(challenger: str, field: str, walls: int, seed: str, ruleset: str = "jiaxing", jobs: int = 1,
             chunk: int = 10, progress: Callable[[int, int], None] | None = None) -> dict:
    """Play ``walls`` walls × 4; the summary figures plus the run's own (levels, seconds, jobs)."""
    from jxbot.ai.duel import merge, summary

    size = max(1, chunk)
    work = [(list(range(i, min(walls, i + size))), challenger, field, seed, ruleset) for i in range(0, walls, size)]
    parts: list[dict] = []
    t0 = time.perf_counter()

    def collect(results: Iterable[dict]) -> None:
        for r in results:
            parts.append(r)
            if progress:
                progress(sum(p["hands"] for p in parts), walls * 4)

    if jobs <= 1 or len(work) <= 1:
        collect(map(_work, work))
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn") if sys.platform == "darwin" else mp.get_context()
        with ctx.Pool(min(jobs, len(work))) as pool:
            collect(pool.imap_unordered(_work, work))
    res = merge(parts)
    out = summary(res)
    out.update({"challenger": challenger, "field": field, "seed": seed, "ruleset": ruleset, "jobs": jobs,
                "seconds": round(time.perf_counter() - t0, 2),  # wall clock, all jobs together
                "cpu_seconds": round(res["seconds"], 2)})  # CPU time summed over the jobs
    return out


def render(s: dict) -> str:
    def pct(x: float) -> str:
        return f"{100 * x:.1f}%"

    lo, hi = s["ci95"]
    return "\n".join([
        f"duel {s['challenger']} vs field {s['field']} ({s['ruleset']}), {s['walls']} walls × 4 = {s['hands']} hands,"
        f" seed {s['seed']}",
        f"silver per hand: {s['silver_per_hand']:+.3f}   95% CI (clustered by wall): [{lo:+.3f}, {hi:+.3f}]",
        f"win rate: {pct(s['win_rate'])}   self-draw share of wins: {pct(s['self_draw_share'])}"
        f"   deal-in rate: {pct(s['deal_in_rate'])}   call rate: {pct(s['call_rate'])}",
        f"contract rate: {pct(s['contract_rate'])} (fed another seat {pct(s['contract_fed_rate'])},"
        f" fed by another seat {pct(s['contract_fed_by_rate'])})",
        f"per win: {s['avg_tai']:.2f} 台, {s['avg_fan']:.2f} 番, {s['avg_points']:.2f} points"
        f"   draw rate: {pct(s['draw_rate'])}",
        f"{s['seconds']} s (jobs {s['jobs']})",
    ])


def run(args: argparse.Namespace) -> int:
    from jxbot.ai import LEVELS

    for name, lv in (("--challenger", args.challenger), ("--field", args.field)):
        if lv not in LEVELS:
            sys.stderr.write(f"jxbot duel: unknown {name} level {lv!r}; levels: {', '.join(LEVELS)}\n")
            return 2
    from .simulate import ProgressBar, bad_run_args

    if bad_run_args("duel", args.hands, args.ruleset, args.jobs, args.chunk):
        return 2

    bar = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    s = run_duel(args.challenger, args.field, args.hands, str(args.seed), args.ruleset, jobs=args.jobs,
                 chunk=args.chunk, progress=bar)
    if args.json:
        sys.stdout.write(json.dumps(s, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(s) + "\n")
    return 0
