"""Ranked ladder benchmark (issue 29): prints ONE JSON line.

- ``rate_update_us``: one four-player rating update (``jxbot.ladder.rate``, openskill Plackett–Luce), mean and
  p99 over 5,000 updates (the budget: 1 ms);
- ``settle_last_hand_ms`` vs ``settle_hand_ms``: a ranked match's last settlement carrying the rating update in
  its transaction (placement read from the match's 8 settled hands, 4 ratings and 4 history rows written) against
  a plain hand settlement, on the same SQLite store; the ratio is the update's cost inside the transaction;
- with 100,000 rated players (one ladder, ruleset and season; 300,000 history rows; the players of the rank
  queries have 40 rated matches each), the p50/p99 of ``leaderboard`` (page 1 and a random page) and of
  ``rank_data`` (rating, position, placements, rates, the season's history) — the budget: 20 ms p99 — beside the
  store's own ``leaderboard(kind="wins")`` on 100,000 members as a reference (ratios);
- with ``--pg`` the same queries on a throwaway PostgreSQL server (keys ``pg_…``).

Usage: ``python3 bench/ladder.py [--players 100000] [--queries 300] [--pg]``. The figures were measured on a
machine shared with other work (2 cores); re-run for clean numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import namedtuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.ladder import Ladder, RankedMatch, Rating, rate, settle_ranked_hand  # noqa: E402
from jxbot.ladder.model import bucket, score  # noqa: E402
from jxbot.store import Store  # noqa: E402

G, CH = 1001, 2001
LADDER, RULESET, SEASON = "1001", "jiaxing", 1
Transfer = namedtuple("Transfer", "payer payee amount reason")
Settlement = namedtuple("Settlement", "transfers deltas house_delta")


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def bench_rate(n: int) -> dict:
    rnd = random.Random(1)
    times = []
    for _ in range(n):
        rs = [Rating(rnd.uniform(15, 35), rnd.uniform(1, 8)) for _ in range(4)]
        places = [1, 2, 3, 4]
        rnd.shuffle(places)
        t0 = time.perf_counter()
        rate(rs, places)
        times.append(time.perf_counter() - t0)
    return {"rate_update_us_mean": round(1e6 * statistics.fmean(times), 1),
            "rate_update_us_p99": round(1e6 * pct(times, 0.99), 1)}


def settlement(winner: int, amount: int) -> Settlement:
    tr = tuple(Transfer(s, winner, amount, "win") for s in range(4) if s != winner)
    deltas = [-amount] * 4
    deltas[winner] = 3 * amount
    return Settlement(tr, tuple(deltas), 0)


async def bench_settle(path: str, matches: int) -> dict:
    store = await Store.open(path, synchronous="normal")
    users = list(range(1, 41))
    for u in users:
        await store.ensure_player(u, f"p{u}")
        await store.admin_set(G, u, 10**9, "bench")
    plain, last = [], []
    rnd = random.Random(2)
    for m in range(matches):
        seats = rnd.sample(users, 4)
        mid = f"m{m}"
        await store.save_table(mid, G, CH, {}, {})
        rm = RankedMatch(mid, LADDER, RULESET, G)
        for h in range(8):
            hid = f"{mid}-{h}"
            await store.create_hand(hid, G, CH, RULESET, seats, "c", table_id=mid)
            w = rnd.randrange(4)
            view = {"winner": w, "drawn_game": False, "self_draw": True, "match_over": h == 7,
                    "score": {"points": 8, "total_tai": 1, "total_fan": 1, "stake": 1}}
            t0 = time.perf_counter()
            await settle_ranked_hand(store, rm, hid, G, seats, settlement(w, 2), view, now=1000.0 + m)
            (last if h == 7 else plain).append(time.perf_counter() - t0)
    await store.close()
    a, b = statistics.median(plain), statistics.median(last)
    return {"settle_hand_ms": round(1e3 * a, 3), "settle_last_hand_ms": round(1e3 * b, 3),
            "settle_last_hand_ms_p99": round(1e3 * pct(last, 0.99), 3), "ratio_last_to_plain": round(b / a, 2)}


def rows(n_players: int, heavy: list[int]) -> tuple[list, list, list, list]:
    """ladder_ratings, ladder_history and members rows, and the player rows."""
    rnd = random.Random(3)
    ratings, history, members, players = [], [], [], []
    heavy_set = set(heavy)
    for u in range(1, n_players + 1):
        mu, sigma = rnd.gauss(25, 3), rnd.uniform(1.0, 8.0)
        n = 40 if u in heavy_set else 3
        p = [rnd.randrange(n + 1) for _ in range(3)]
        ratings.append((LADDER, RULESET, SEASON, u, mu, sigma, score(mu, sigma), bucket(mu, sigma), n, p[0], p[1],
                        p[2], 0, 8 * n, 2 * n, n // 2, n, 96, f"h{u}", 1000.0))
        for k in range(n):
            history.append((f"m{u}-{k}", u, LADDER, RULESET, SEASON, 1 + k % 4, 10, 0, mu, sigma, mu, sigma, 100, 110,
                            1000.0 + k))
        members.append((G, u, 8 * n, rnd.randrange(1000), 0, 0, 0, 0, 0, 0, 1000.0, 1000.0))
        players.append((u, f"player{u}", None, 1000.0, 1000.0))
    return ratings, history, members, players


def bucket_rows(ratings: list) -> list:
    counts: dict[int, int] = {}
    for r in ratings:
        counts[r[7]] = counts.get(r[7], 0) + 1
    return [(LADDER, RULESET, SEASON, b, n) for b, n in counts.items()]


MATCH_ROWS = "INSERT INTO ladder_matches VALUES (?, ?, ?, ?, ?, 'rated', '', '[]', NULL, 1000.0)"
INSERTS = {
    "players": "INSERT INTO players(user_id, name, lang, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    "members": "INSERT INTO members(guild_id, user_id, hands, wins, self_draws, net, biggest_win, best_points, "
               "best_tai, best_fan, first_seen, last_played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "ladder_ratings": "INSERT INTO ladder_ratings VALUES (" + ", ".join("?" * 20) + ")",
    "ladder_history": "INSERT INTO ladder_history VALUES (" + ", ".join("?" * 15) + ")",
}


async def queries(store: Store, n_players: int, heavy: list[int], n: int, prefix: str) -> dict:
    lad = Ladder(store)
    rnd = random.Random(4)
    out: dict[str, float] = {}
    pages = max(1, n_players // 10)
    cases = {
        "leaderboard_p1": lambda: lad.leaderboard(LADDER, RULESET),
        "leaderboard_page": lambda: lad.leaderboard(LADDER, RULESET, page=rnd.randrange(1, pages + 1)),
        "rank_data": lambda: lad.rank_data(LADDER, RULESET, rnd.choice(heavy)),
        "reference_store_leaderboard_wins": lambda: store.leaderboard(G, "wins"),
    }
    first = await lad.leaderboard(LADDER, RULESET)
    rd = await lad.rank_data(LADDER, RULESET, heavy[0])
    assert first.total == n_players and len(first.entries) == 10, "the board is not built"
    assert rd.matches == 40 and len(rd.history) == 41 and rd.rank is not None, "the rank data is not built"
    for name, fn in cases.items():
        await fn()  # warm
        ts = []
        for _ in range(n):
            t0 = time.perf_counter()
            await fn()
            ts.append(time.perf_counter() - t0)
        out[f"{prefix}{name}_ms_p50"] = round(1e3 * statistics.median(ts), 3)
        out[f"{prefix}{name}_ms_p99"] = round(1e3 * pct(ts, 0.99), 3)
    ref = out[f"{prefix}reference_store_leaderboard_wins_ms_p50"]
    for name in ("leaderboard_p1", "leaderboard_page", "rank_data"):
        out[f"{prefix}ratio_{name}_to_reference"] = round(out[f"{prefix}{name}_ms_p50"] / ref, 2) if ref else 0.0
    return out


async def build_sqlite(path: str, data: tuple) -> None:
    import sqlite3

    await (await Store.open(path)).close()
    ratings, history, members, players = data
    con = sqlite3.connect(path)
    with con:
        con.executemany(INSERTS["players"], players)
        con.executemany(INSERTS["members"], members)
        con.executemany(MATCH_ROWS, {(h[0], LADDER, RULESET, SEASON, G) for h in history})
        con.executemany(INSERTS["ladder_ratings"], ratings)
        con.executemany(INSERTS["ladder_history"], history)
        con.execute("INSERT INTO ladder_seasons VALUES (?, ?, 1000.0, NULL)", (LADDER, SEASON))
        con.executemany("INSERT INTO ladder_buckets VALUES (?, ?, ?, ?, ?)", bucket_rows(ratings))
    con.execute("ANALYZE")
    con.close()


async def build_pg(dsn: str, data: tuple) -> None:
    import asyncpg

    await (await Store.open(dsn)).close()
    ratings, history, members, players = data
    conn = await asyncpg.connect(dsn)
    try:
        async with conn.transaction():
            await conn.copy_records_to_table("players", records=players,
                                             columns=["user_id", "name", "lang", "created_at", "updated_at"])
            await conn.copy_records_to_table("members", records=members, columns=[
                "guild_id", "user_id", "hands", "wins", "self_draws", "net", "biggest_win", "best_points", "best_tai",
                "best_fan", "first_seen", "last_played"])
            await conn.copy_records_to_table("ladder_matches", records=[
                (m, LADDER, RULESET, SEASON, G, "rated", "", "[]", None, 1000.0)
                for m in sorted({h[0] for h in history})])
            await conn.copy_records_to_table("ladder_ratings", records=ratings)
            await conn.copy_records_to_table("ladder_history", records=history)
            await conn.execute("INSERT INTO ladder_seasons VALUES ($1, $2, 1000.0, NULL)", LADDER, SEASON)
            await conn.copy_records_to_table("ladder_buckets", records=bucket_rows(ratings))
        await conn.execute("VACUUM ANALYZE")  # as autovacuum leaves a live database
    finally:
        await conn.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--matches", type=int, default=100, help="ranked matches settled for the settle figures")
    ap.add_argument("--pg", action="store_true", help="also on a throwaway PostgreSQL server")
    args = ap.parse_args()
    out: dict = {"players": args.players, "cpus": os.cpu_count(), "shared_machine": True}
    out.update(bench_rate(5000))
    rnd = random.Random(5)
    heavy = rnd.sample(range(1, args.players + 1), min(200, args.players))
    data = rows(args.players, heavy)
    with tempfile.TemporaryDirectory() as d:
        out.update(await bench_settle(str(Path(d) / "settle.sqlite3"), args.matches))
        big = str(Path(d) / "big.sqlite3")
        t0 = time.perf_counter()
        await build_sqlite(big, data)
        out["sqlite_build_s"] = round(time.perf_counter() - t0, 1)
        store = await Store.open(big)
        try:
            out.update(await queries(store, args.players, heavy, args.queries, ""))
        finally:
            await store.close()
    if args.pg:
        from jxbot.pgcluster import PgCluster

        cluster = PgCluster()
        server = cluster.start()
        try:
            import asyncpg

            admin = await asyncpg.connect(server)
            await admin.execute('CREATE DATABASE "jxbench_ladder" TEMPLATE template0')
            await admin.close()
            dsn = server.rpartition("/")[0] + "/jxbench_ladder"
            await build_pg(dsn, data)
            store = await Store.open(dsn)
            try:
                out.update(await queries(store, args.players, heavy, args.queries, "pg_"))
            finally:
                await store.close()
        finally:
            cluster.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
