"""The cross-server ranked queue's matching pass (jxbot/ladder/shared_queue.py, docs/ranked.md "The cross-server
queue"): how long one pass takes with N people waiting in the store, against the same matching on the pure in-memory
queue (``MatchQueue.form``, a server's queue) in the same run, on SQLite and (``--pg``) a throwaway PostgreSQL.

* ``idle``: three waiting (fewer than a table: the pass is one COUNT read);
* ``none``: N waiting, all out of each other's band (the pass reads and tries everyone, forms nothing);
* ``full``: N waiting, all within band (the pass forms N/4 tables and claims everyone in one transaction).

Usage: ``python3 bench/ranked_queue.py [--waiting 400] [--runs 20] [--pg]``; one JSON line (milliseconds, p50).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.ladder import MatchQueue, QueueSettings  # noqa: E402
from jxbot.ladder.queue import Ticket  # noqa: E402
from jxbot.ladder.shared_queue import SharedQueue  # noqa: E402
from jxbot.store import Store  # noqa: E402


async def fill(store: Store, n: int, spread: int) -> None:
    async def q(tx):
        await tx.execute("DELETE FROM ranked_queue")
        await tx.executemany("INSERT INTO ranked_queue (user_id, ladder, guild_id, rating, name, lang, joined_at) "
                             "VALUES (?, 'global', 7, ?, 'p', 'zh', ?)",
                             [(u + 1, u * spread, 1000.0 + u) for u in range(n)])

    await store.in_transaction(q)


def memory_pass(n: int, spread: int) -> float:
    mq = MatchQueue(QueueSettings(), clock=lambda: 2000.0)
    for u in range(n):
        mq.add(Ticket(u + 1, u * spread, 1000.0 + u, 7))
    t0 = time.perf_counter()
    mq.form(2000.0)
    return (time.perf_counter() - t0) * 1000


async def bench(store: Store, n: int, runs: int, prefix: str) -> dict:
    q = SharedQueue(store, QueueSettings(), clock=lambda: 2000.0)
    out = {}
    for case, count, spread in (("idle", 3, 0), ("none", n, 1000), ("full", n, 0)):
        times, ref = [], []
        for _ in range(runs):
            await fill(store, count, spread)
            t0 = time.perf_counter()
            groups = await q.form("global")
            times.append((time.perf_counter() - t0) * 1000)
            ref.append(memory_pass(count, spread))
        assert len(groups) == (count // 4 if case == "full" else 0)
        out[f"{prefix}{case}_pass_ms"] = round(statistics.median(times), 2)
        out[f"{prefix}{case}_memory_ms"] = round(statistics.median(ref), 3)
    return out


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--waiting", type=int, default=400)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--pg", action="store_true")
    args = ap.parse_args()
    out: dict = {"waiting": args.waiting, "runs": args.runs}
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "q.sqlite3"))
        try:
            out.update(await bench(store, args.waiting, args.runs, ""))
        finally:
            await store.close()
    if args.pg:
        from jxbot.pgcluster import PgCluster

        cluster = PgCluster()
        server = cluster.start()
        try:
            store = await Store.open(server)
            try:
                out.update(await bench(store, args.waiting, args.runs, "pg_"))
            finally:
                await store.close()
        finally:
            cluster.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
