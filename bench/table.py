"""Many tables in one event loop: throughput of the async runner and how long the loop is ever blocked.

Prints one JSON line. "flat out": all-computer tables with no pacing and an in-memory sink, hands per
second through the runner vs the synchronous self-play loop (ratio = runner overhead), computer
decision times. "paced": many tables whose computers take ``--delay`` s per move (as on Discord);
event-loop lag = lateness of a 5 ms ticker (p50 / p99 / max): how long any table ever holds the loop.

    python3 bench/table.py [--tables 20] [--hands 3] [--paced-tables 100] [--delay 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time


async def _bench(tables: int, hands: int, delay: float = 0.0) -> dict:
    from jxbot.table import MemorySink, SeatInfo, TableConfig, TableRunner

    runners = [TableRunner([SeatInfo.computer(f"c{i}", "normal") for i in range(4)],
                           TableConfig(table_id=f"b{k}", seed=f"bench/{k}", max_hands=hands,
                                       computer_delay=delay), sink=MemorySink())
               for k in range(tables)]
    lags: list[float] = []
    stop = False

    async def ticker() -> None:
        period = 0.005
        while not stop:
            t = time.perf_counter()
            await asyncio.sleep(period)
            lags.append(max(0.0, time.perf_counter() - t - period) * 1000)

    tick = asyncio.create_task(ticker())
    t0 = time.perf_counter()
    await asyncio.gather(*(r.run() for r in runners))
    elapsed = time.perf_counter() - t0
    stop = True
    await tick
    lags.sort()
    decisions = sorted(x for r in runners for x in r.decision_ms)
    played = sum(r.hands_played for r in runners)

    def q(xs: list[float], p: float) -> float:
        return round(xs[min(len(xs) - 1, int(p * len(xs)))], 3) if xs else 0.0

    return {"tables": tables, "hands": played, "seconds": round(elapsed, 3),
            "hands_per_second": round(played / elapsed, 1),
            "loop_lag_ms_p50": q(lags, 0.5), "loop_lag_ms_p99": q(lags, 0.99), "loop_lag_ms_max": q(lags, 1.0),
            "decision_ms_p50": q(decisions, 0.5), "decision_ms_p99": q(decisions, 0.99),
            "decisions": len(decisions)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--paced-tables", type=int, default=100)
    ap.add_argument("--delay", type=float, default=0.05)
    args = ap.parse_args()
    out = asyncio.run(_bench(args.tables, args.hands))
    paced = asyncio.run(_bench(args.paced_tables, 1, args.delay))
    out["paced"] = {k: paced[k] for k in ("tables", "hands", "seconds", "loop_lag_ms_p50", "loop_lag_ms_p99",
                                          "loop_lag_ms_max")} | {"delay_s": args.delay}
    from jxbot.ai.selfplay import simulate

    n = out["hands"]
    sync = simulate(n, ["normal"] * 4, "bench/sync", replay_every=0, census_every=0)
    out["selfplay_hands_per_second"] = round(sync["hands_per_second"], 1)
    out["runner_vs_selfplay"] = round(out["hands_per_second"] / sync["hands_per_second"], 3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
