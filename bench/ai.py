"""Computer-player strength and speed; prints ONE JSON line.

* normal vs three easy (``--hands`` hands): win share per seat; target normal ≥ 3× an easy one's share;
* four normals (``--hands`` hands): share of hands that end with a win (target ≥ 50 %), and self-play
  hands per second on one core (target ≥ 100/s), wall clock and CPU time, invariant checks on;
* decision time of the normal player (``--timing-hands`` hands of four normals, every ``choose`` timed):
  p50 / p99 / max in ms (target p99 ≤ 5 ms);
* four hard players (``--hands`` hands): hands with a contract (target ≤ 10 %; four normals ≤ 15 %), and
  the hard player's decision time (``--timing-hands`` hands of four hard players, and a quarter as many
  at caishen tables; target p99 ≤ 50 ms).

* the rules engine's hot path (issue 30): ``is_complete`` and the Jiaxing win test (``pattern_wins``, what
  ``Hand._can_win`` asks) on ``--checks`` random 14-tile hands, against the ``mahjong`` library's
  ``Agari.is_agari`` on the same hands in the same run (ratio);
* the evaluator (issue 30): playouts per CPU second, and the ``expert`` player's decision time (CPU, one
  core; ``--expert-hands`` hands of one expert and three hard players per ruleset; target mean ≤ 300 ms,
  p99 ≤ 1 s). ``--coach-only`` runs just these two parts.

The duplicate strength figures (hard vs normal, normal vs easy) come from ``jxbot duel`` (docs/ai.md).

Usage: ``python bench/ai.py [--hands 2000] [--timing-hands 400] [--seed bench] [--coach-only]``
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


def _checks(n: int, seed: str) -> dict:
    """is_complete / pattern_wins vs mahjong's Agari on the same random 14-tile hands (no wildcard)."""
    import random

    from jxbot.rules.ruleset import get_ruleset
    from jxbot.rules.shape import is_complete, pattern_wins

    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    hands = []
    for _ in range(n):
        rng.shuffle(wall)
        hands.append(sorted(wall[:14]))
    out: dict = {"hands": n}
    t0 = time.perf_counter()
    ours = sum(1 for h in hands if is_complete(h))
    out["is_complete_per_s"] = round(n / (time.perf_counter() - t0))
    rs = get_ruleset("jiaxing")
    t0 = time.perf_counter()
    for h in hands:
        pattern_wins(h, (), None, rs)
    out["pattern_wins_per_s"] = round(n / (time.perf_counter() - t0))
    try:
        from mahjong.agari import Agari
    except ImportError:  # pragma: no cover - the reference is a test dependency
        return out
    arrays = []
    for h in hands:
        a = [0] * 34
        for k in h:
            a[k] += 1
        arrays.append(a)
    ag = Agari()
    t0 = time.perf_counter()
    theirs = sum(1 for a in arrays if ag.is_agari(a))
    out["mahjong_agari_per_s"] = round(n / (time.perf_counter() - t0))
    out["ratio_is_complete_to_mahjong"] = round(out["is_complete_per_s"] / out["mahjong_agari_per_s"], 2)
    out["complete_hands"] = ours
    out["mahjong_agari_hands"] = theirs  # seven pairs count there, not in is_complete
    return out


def _coach(seed: str, expert_hands: int) -> dict:
    """Playouts per CPU second, and the expert's decision times (CPU) at jiaxing and caishen tables."""
    from jxbot.ai.montecarlo import evaluate_view
    from jxbot.game import Hand

    views = []
    for i in range(6):
        h = Hand.new(f"{seed}/playout/{i}")
        ps = [make_player("normal", f"{seed}/p/{i}/{s}") for s in range(4)]
        for _ in range(8 + 6 * i):
            s = min(h.pending())
            h.apply(ps[s].choose(h.view(s)))
        s = min(h.pending())
        views.append(h.view(s))
    c0 = time.thread_time()
    n = sum(e.n for v in views for e in evaluate_view(v, seed=seed, worlds=4))
    rate = n / (time.thread_time() - c0)
    out: dict = {"playouts": n, "playouts_per_cpu_s": round(rate, 1)}
    from jxbot.ai.warm import warm_tables

    # the tables a worker process builds when it starts (jxbot.ai.offload), not inside a timed decision
    out["warm_tables_ms"] = round(warm_tables(), 1)
    for rs in ("jiaxing", "caishen") if expert_hands > 0 else ():
        wall: list[float] = []
        cpu: list[float] = []
        for m in range(expert_hands):
            match = Match(f"{seed}/expert/{rs}/{m}", ruleset=rs)
            players = [_Timed(make_player("expert", f"{seed}/e/{m}"), wall, cpu)] + [
                make_player("hard", f"{seed}/h/{m}/{i}") for i in (1, 2, 3)]
            play_match(match, players, max_hands=1)
        cpu.sort()
        out[f"expert_{rs}_decision_cpu_ms"] = {
            "decisions": len(cpu), "mean": round(sum(cpu) / len(cpu) * 1e3, 1),
            "p50": round(_pct(cpu, 0.5) * 1e3, 1), "p99": round(_pct(cpu, 0.99) * 1e3, 1),
            "max": round(cpu[-1] * 1e3, 1), "wall_mean": round(sum(wall) / len(wall) * 1e3, 1)}
        out[f"expert_{rs}_mean_le_300ms"] = sum(cpu) / len(cpu) <= 0.3
        out[f"expert_{rs}_p99_le_1s"] = _pct(cpu, 0.99) <= 1.0
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--timing-hands", type=int, default=400)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--checks", type=int, default=100_000)
    ap.add_argument("--expert-hands", type=int, default=6)
    ap.add_argument("--coach-only", action="store_true")
    args = ap.parse_args()
    coach = {"rules_checks": _checks(args.checks, args.seed), "coach": _coach(args.seed, args.expert_hands)}
    if args.coach_only:
        print(json.dumps({"bench": "ai", **coach}, ensure_ascii=False))
        return

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
        **coach,
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
