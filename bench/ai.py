"""Computer-player strength and speed; prints ONE JSON line.

* normal vs three easy (``--hands`` hands): win share per seat; target normal ≥ 3× an easy one's share;
* four normals (``--hands`` hands): share of hands that end with a win (target ≥ 50 %), and self-play
  hands per second on one core (target ≥ 100/s), wall clock and CPU time, invariant checks on;
* decision time of the normal player (``--timing-hands`` hands of four normals, every ``choose`` timed):
  p50 / p99 / max in ms (target p99 ≤ 5 ms);
* four hard players (``--hands`` hands): hands with a contract (target ≤ 10 %; four normals ≤ 15 %), and
  the hard player's decision time (``--timing-hands`` hands of four hard players, and a quarter as many
  at caishen tables; target p99 ≤ 50 ms).

The duplicate strength figures (hard vs normal, normal vs easy) come from ``jxbot duel`` (docs/ai.md).

Usage: ``python bench/ai.py [--hands 2000] [--timing-hands 400] [--seed bench]``
"""

from __future__ import annotations

import argparse
import json
import time

from jxbot.ai import make_player
from jxbot.ai.selfplay import play_match, simulate
from jxbot.game import Match


class _Timed:
    """Times every decision twice: wall clock, and this thread's CPU time (immune to the machine's
    other processes preempting us, which on a shared 2-core box dominates the wall-clock tail)."""

    def __init__(self, inner, wall: list[float], cpu: list[float]) -> None:
        self.inner, self.wall, self.cpu, self.level = inner, wall, cpu, inner.level

    def choose(self, view):
        c0 = time.thread_time()
        t0 = time.perf_counter()
        a = self.inner.choose(view)
        self.wall.append(time.perf_counter() - t0)
        self.cpu.append(time.thread_time() - c0)
        return a


def _pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _timing(level: str, hands: int, seed: str, ruleset: str = "jiaxing") -> tuple[list[float], list[float]]:
    times: list[float] = []
    cpu_times: list[float] = []
    played = 0
    m = 0
    while played < hands:
        match = Match(f"{seed}/timing/{level}/{m}", ruleset=ruleset)
        players = [_Timed(make_player(level, f"{seed}/timing/{m}/{i}"), times, cpu_times) for i in range(4)]
        play_match(match, players, max_hands=hands - played)
        played += len(match.results)
        m += 1
    times.sort()
    cpu_times.sort()
    return times, cpu_times


def _ms(xs: list[float]) -> dict:
    return {"decisions": len(xs), "p50": round(_pct(xs, 0.5) * 1e3, 3), "p99": round(_pct(xs, 0.99) * 1e3, 3),
            "max": round(xs[-1] * 1e3, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--timing-hands", type=int, default=400)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()

    vs = simulate(args.hands, ["normal", "easy", "easy", "easy"], seed=f"{args.seed}/vs-easy")
    share = vs["win_share_by_seat"]
    easy_max, easy_mean = max(share[1:]), sum(share[1:]) / 3

    c0 = time.process_time()
    four = simulate(args.hands, ["normal"] * 4, seed=f"{args.seed}/four-normal")
    cpu = time.process_time() - c0

    times, cpu_times = _timing("normal", args.timing_hands, args.seed)
    four_hard = simulate(args.hands, ["hard"] * 4, seed=f"{args.seed}/four-hard")
    hard_wall, hard_cpu = _timing("hard", args.timing_hands, args.seed)
    from jxbot.rules.shape import shanten

    w0 = time.perf_counter()
    shanten([0, 1, 2, 3])  # the rules engine builds its shanten tables on first use (caishen players use them)
    warmup_ms = round((time.perf_counter() - w0) * 1e3, 1)
    cs_wall, cs_cpu = _timing("hard", max(1, args.timing_hands // 4), args.seed, "caishen")

    out = {
        "bench": "ai",
        "hands": args.hands,
        "normal_vs_3_easy": {
            "win_share_by_seat": [round(x, 4) for x in share],
            "normal_share": round(share[0], 4),
            "easy_share_max": round(easy_max, 4),
            "easy_share_mean": round(easy_mean, 4),
            "ratio_normal_to_best_easy": round(share[0] / easy_max, 2) if easy_max else None,
            "ratio_normal_to_mean_easy": round(share[0] / easy_mean, 2) if easy_mean else None,
            "draw_rate": round(vs["draw_rate"], 4),
            "avg_points_by_seat": [round(x, 2) for x in vs["avg_points_by_seat"]],
            "invariant_violations": vs["invariant_violations"],
        },
        "four_normal": {
            "hands_with_a_win": round(four["win_rate"], 4),
            "self_draw_rate": round(four["self_draw_rate"], 4),
            "avg_turns": round(four["avg_turns"], 1),
            "pattern_counts": four["pattern_counts"],
            "contracts": four["contracts"],
            "contract_rate": round(four["contracts"] / args.hands, 4),
            "hands_per_second_wall": round(four["hands_per_second"], 1),
            "hands_per_second_cpu": round(args.hands / cpu, 1) if cpu > 0 else None,
            "invariant_violations": four["invariant_violations"],
        },
        "decision_ms": {
            "decisions": len(times),
            "p50": round(_pct(times, 0.5) * 1e3, 3),
            "p99": round(_pct(times, 0.99) * 1e3, 3),
            "max": round(times[-1] * 1e3, 3),
            "cpu_p50": round(_pct(cpu_times, 0.5) * 1e3, 3),
            "cpu_p99": round(_pct(cpu_times, 0.99) * 1e3, 3),
            "cpu_max": round(cpu_times[-1] * 1e3, 3),
        },
        "four_hard": {
            "hands_with_a_win": round(four_hard["win_rate"], 4),
            "contracts": four_hard["contracts"],
            "contract_rate": round(four_hard["contracts"] / args.hands, 4),
            "pattern_counts": four_hard["pattern_counts"],
            "hands_per_second_wall": round(four_hard["hands_per_second"], 1),
            "invariant_violations": four_hard["invariant_violations"],
        },
        "hard_decision_ms": {**_ms(hard_wall), **{"cpu_" + k: v for k, v in _ms(hard_cpu).items() if k != "decisions"}},
        "hard_caishen_decision_ms": {**_ms(cs_wall), **{"cpu_" + k: v for k, v in _ms(cs_cpu).items()
                                                          if k != "decisions"},
                                     "rules_shanten_tables_build_ms": warmup_ms},
        "targets": {
            "normal_ge_3x_easy": bool(easy_max and share[0] >= 3 * easy_max),
            "four_normal_win_ge_50pct": four["win_rate"] >= 0.5,
            "p99_le_5ms": _pct(times, 0.99) <= 0.005,
            "cpu_p99_le_5ms": _pct(cpu_times, 0.99) <= 0.005,
            "hands_per_second_ge_100": args.hands / cpu >= 100 if cpu > 0 else False,
            "four_normal_contracts_le_15pct": four["contracts"] <= 0.15 * args.hands,
            "four_hard_contracts_le_10pct": four_hard["contracts"] <= 0.10 * args.hands,
            "hard_p99_le_50ms": _pct(hard_wall, 0.99) <= 0.050,
            "hard_cpu_p99_le_50ms": _pct(hard_cpu, 0.99) <= 0.050,
            "hard_caishen_cpu_p99_le_50ms": _pct(cs_cpu, 0.99) <= 0.050,
        },
    }
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
