"""``jxbot simulate``: computer players against each other, many hands, figures at the end.

The hands are cut into chunks of ``--chunk`` hands; chunk i is played by ``jxbot.ai.selfplay.simulate``
with the seed ``"<seed>/<i>"``. ``--jobs K`` spreads the chunks over K processes; the figures are the
same whatever K (only hands_per_second changes). ``cpu_seconds`` is CPU time (``time.process_time`` of
each chunk, in whichever process plays it, summed); ``wall_seconds`` (and ``seconds``, the older name)
the wall clock of the whole run, so ``cpu_seconds <= wall_seconds * jobs``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from jxbot.i18n import add_lang_argument

LEVELS = ("easy", "normal", "hard", "expert")  # jxbot.ai.LEVELS (kept literal: start-up stays fast)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("simulate", help="self-play between computer players, with statistics",
                       description="Play many hands between computer players and print statistics.")
    p.add_argument("--hands", type=int, default=1000, help="number of hands (default 1000)")
    p.add_argument("--players", default="normal,easy,easy,easy",
                   help="four levels, comma-separated, seat 0 first (default normal,easy,easy,easy)")
    p.add_argument("--seed", default="0", help="seed (default 0)")
    p.add_argument("--ruleset", default="jiaxing", help="ruleset (default jiaxing)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--chunk", type=int, default=25, help="hands per work unit (default 25)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    add_lang_argument(p)
    return p


def parse_players(text: str) -> list[str]:
    players = [p.strip().lower() for p in text.split(",") if p.strip()]
    if len(players) != 4:
        raise ValueError(f"--players needs four levels, got {len(players)}: {text!r}")
    bad = [p for p in players if p not in LEVELS]
    if bad:
        raise ValueError(f"unknown level {bad[0]!r}; levels: {', '.join(LEVELS)}")
    return players


def chunks(hands: int, size: int) -> list[int]:
    size = max(1, size)
    out = [size] * (hands // size)
    if hands % size:
        out.append(hands % size)
    return out


def _work(job: tuple[int, int, list[str], str, str]) -> tuple[int, dict, float]:
    """One chunk: its index, its figures and the CPU seconds this process spent on it."""
    index, n, players, seed, ruleset = job
    from jxbot.ai import selfplay

    c0 = time.process_time()
    res = selfplay.simulate(n, players, f"{seed}/{index}", ruleset=ruleset)
    return index, res, time.process_time() - c0


def run_sim(hands: int, players: list[str], seed: str, ruleset: str = "jiaxing", jobs: int = 1, chunk: int = 25,
            progress: Callable[[int, int], None] | None = None) -> dict:
    sizes = chunks(hands, chunk)
    work = [(i, n, players, seed, ruleset) for i, n in enumerate(sizes)]
    parts: dict[int, dict] = {}
    cpu = 0.0
    done = 0
    t0 = time.perf_counter()

    def collect(results: Iterable[tuple[int, dict, float]]) -> None:
        nonlocal done, cpu
        for i, r, c in results:
            parts[i] = r
            cpu += c
            done += sizes[i]
            if progress:
                progress(done, hands)

    if jobs <= 1 or len(work) <= 1:
        collect(map(_work, work))
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn") if sys.platform == "darwin" else mp.get_context()
        with ctx.Pool(min(jobs, len(work))) as pool:
            collect(pool.imap_unordered(_work, work))
    elapsed = time.perf_counter() - t0
    from jxbot.ai.selfplay import merge_results

    out = merge_results([parts[i] for i in sorted(parts)])
    out["hands"] = hands
    out["players"] = players
    out["seed"] = seed
    out["ruleset"] = ruleset
    out["jobs"] = jobs
    out["cpu_seconds"] = round(cpu, 3)  # CPU time summed over the chunks (and so over the worker processes)
    out["wall_seconds"] = round(elapsed, 3)  # wall time, all jobs together
    out["seconds"] = out["wall_seconds"]  # the older name of the wall time
    out["hands_per_second"] = round(hands / elapsed, 1) if elapsed > 0 else None
    return out


class ProgressBar:
    """A one-line progress bar on a terminal stream (redrawn at most ~10 times a second)."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.t0 = time.perf_counter()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / total if total else 1.0
        fill = int(frac * self.width)
        rate = done / (now - self.t0) if now > self.t0 else 0.0
        self.stream.write(f"\r[{'#' * fill}{'.' * (self.width - fill)}] {done}/{total} hands  {rate:,.0f}/s")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def render(stats: dict, lang: str = "en") -> str:
    hands = stats.get("hands") or 0
    zh = lang == "zh"
    lines = []
    players = stats.get("players") or ["?"] * 4
    wins_by = stats.get("wins_by_seat") or [0] * 4
    points_by = stats.get("points_by_seat") or [0] * 4
    lines.append(("牌局" if zh else "hands") + f": {hands}   " + ("玩家" if zh else "players") + ": "
                 + ",".join(players) + f"   seed {stats.get('seed')}")
    lines.append("座位  级别      胡牌率   平均得分" if zh else "seat  level     win share  avg points")
    for i in range(4):
        share = wins_by[i] / hands if hands else 0.0
        avg = points_by[i] / hands if hands else 0.0
        lines.append(f"{i:>4}  {players[i]:<8}  {_pct(share):>9}  {avg:>+10.2f}")
    wins, draws = stats.get("wins", 0), stats.get("draws", 0)
    selfd = stats.get("self_draws", 0)
    lines.append(("胡牌率" if zh else "hands won") + f": {_pct(wins / hands if hands else 0)}   "
                 + ("荒庄率" if zh else "draw rate") + f": {_pct(draws / hands if hands else 0)}   "
                 + ("自摸（占胡牌）" if zh else "self-draws (of wins)") + f": {_pct(selfd / wins if wins else 0)}")
    lines.append(("抢杠胡" if zh else "robbed kongs") + f": {stats.get('robbed_kongs', 0)}   "
                 + ("承包" if zh else "contracts") + f": {stats.get('contracts', 0)}")
    pats = stats.get("pattern_counts") or {}
    if pats:
        import jxbot.rules.names  # noqa: F401  (the item labels)
        from jxbot.i18n import t

        lines.append(("牌型" if zh else "patterns") + ": " + "  ".join(
            f"{t('item.' + k, lang) if t('item.' + k, lang) != 'item.' + k else k} {_pct(v / wins if wins else 0).strip()}"
            for k, v in sorted(pats.items(), key=lambda kv: -kv[1])))
    if stats.get("avg_turns") is not None:
        lines.append(("平均每局打牌数" if zh else "average hand length (discards)") + f": {stats['avg_turns']:.1f}")
    lines.append(("每秒局数" if zh else "hands per second") + f": {stats.get('hands_per_second')}  "
                 + f"(jobs {stats.get('jobs')}, {stats.get('seconds')} s)")
    lines.append(("不变量违例" if zh else "invariant violations") + f": {stats.get('invariant_violations', 0)}")
    lines.extend(f"  ! {v}" for v in (stats.get("violations") or [])[:10])
    return "\n".join(lines)


def bad_run_args(command: str, hands: int, ruleset: str, jobs: int = 1, chunk: int = 1) -> bool:
    """The checks ``jxbot simulate`` and ``jxbot duel`` share: says what is wrong on stderr (True) or nothing.
    A count below 1 is refused, never taken as 1 in silence."""
    problem = next((f"{opt} must be at least 1" for opt, n in (("--hands", hands), ("--jobs", jobs), ("--chunk", chunk))
                    if n < 1), None)
    if problem is None:
        from jxbot.rules import get_ruleset

        try:
            get_ruleset(ruleset)
        except ValueError as exc:
            problem = str(exc)
    if problem is not None:
        sys.stderr.write(f"jxbot {command}: {problem}\n")
    return problem is not None


def run(args: argparse.Namespace) -> int:
    try:
        players = parse_players(args.players)
    except ValueError as exc:
        sys.stderr.write(f"jxbot simulate: {exc}\n")
        return 2
    if bad_run_args("simulate", args.hands, args.ruleset, args.jobs, args.chunk):
        return 2
    bar = ProgressBar(sys.stderr)
    stats = run_sim(args.hands, players, str(args.seed), args.ruleset, jobs=args.jobs,
                    chunk=args.chunk, progress=bar)
    if args.json:
        sys.stdout.write(json.dumps(stats, ensure_ascii=False, sort_keys=True) + "\n")
    else:
        sys.stdout.write(render(stats, args.lang) + "\n")
    return 1 if stats.get("invariant_violations") else 0
