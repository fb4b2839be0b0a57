"""Store benchmark: prints ONE JSON line.

- settlements/s (sequential ``settle_hand`` of 4-seat hands with fees; synchronous FULL and NORMAL),
- event appends/s and the median append latency (FULL and NORMAL),
- leaderboard and stats query times on a database of 100,000 players and 1,000,000 ledger rows
  (built directly with executemany in one transaction, consistent books), and ``check()`` time there.

With ``--pg`` (a throwaway PostgreSQL server started durable like SQLite's FULL: fsync, synchronous
commit and full page writes on, ``PgCluster(durable=True)``) or ``--db postgresql://…`` (an existing server; the bench creates and drops its own
databases there) the same figures on PostgreSQL are printed beside SQLite's, keys prefixed ``pg_``, plus
``pg_settlements_per_s_2_stores`` (two Store objects = two processes settling at once), the copy time of
the big database (``pg_copy_big_s``, what ``jxbot store copy`` does) and the ratios PG/SQLite.

The durability settings in force are printed as read back from the databases, not as asked for:
``sqlite_journal_mode``/``sqlite_synchronous`` (and ``…_sync_normal``) from SQLite's PRAGMAs, and
``pg_fsync``, ``pg_synchronous_commit``, ``pg_full_page_writes``, ``pg_wal_sync_method`` from
``pg_settings``; the throwaway server refuses to be measured if it is not durable. The settlements on
the big database are fresh hands (never settled before; a repeated settlement is a no-op and would be
timed as one).

Usage: ``python3 bench/store.py [--players 100000] [--rows 1000000] [--dir DIR] [--pg | --db DSN]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import namedtuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.store import Store  # noqa: E402

G, CH = 1001, 2001
Transfer = namedtuple("Transfer", "payer payee amount reason")
Settlement = namedtuple("Settlement", "transfers deltas house_delta")


def make_settlement(winner: int, amount: int, fee: int) -> Settlement:
    tr = [Transfer(s, winner, amount, "win") for s in range(4) if s != winner]
    tr += [Transfer(s, None, fee, "fee") for s in range(4)]
    deltas = [0, 0, 0, 0]
    for t in tr:
        deltas[t.payer] -= t.amount
        if t.payee is not None:
            deltas[t.payee] += t.amount
    return Settlement(tuple(tr), tuple(deltas), -sum(deltas))


async def bench_writes(path: str, sync: str, n_settle: int, n_events: int) -> dict[str, float]:
    store = await Store.open(path, synchronous=sync)  # type: ignore[arg-type]
    settings = await read_settings(store)
    for uid in (1, 2, 3, 4):
        await store.ensure_player(uid, f"p{uid}")
        await store.admin_set(G, uid, 10**12, "bench")
    seats = [1, 2, 3, 4]
    for i in range(n_settle):
        await store.create_hand(f"s{i}", G, CH, "jiaxing", seats, "c")
    result = {"winner": 0, "score": {"total_tai": 3, "total_fan": 1, "points": 30, "patterns": ["half_flush"]}}
    t0 = time.perf_counter()
    for i in range(n_settle):
        await store.settle_hand(f"s{i}", G, seats, make_settlement(i % 4, 30, 1), result)
    settle_s = time.perf_counter() - t0
    two: dict[str, float] = {}
    if "://" in path:  # two Store objects (two processes) settling different hands at once
        for i in range(n_settle):
            await store.create_hand(f"t{i}", G, CH, "jiaxing", seats, "c")
        other = await Store.open(path)

        async def run(st: Store, ks: range) -> None:
            for i in ks:
                await st.settle_hand(f"t{i}", G, seats, make_settlement(i % 4, 30, 1), result)

        t1 = time.perf_counter()
        await asyncio.gather(run(store, range(0, n_settle, 2)), run(other, range(1, n_settle, 2)))
        two["settlements_per_s_2_stores"] = round(n_settle / (time.perf_counter() - t1), 1)
        await other.close()
    await store.create_hand("ev", G, CH, "jiaxing", seats, "c")
    lat = []
    ev = {"type": "discard", "seat": 0, "tile": 5, "t": 1.5}
    t0 = time.perf_counter()
    for i in range(n_events):
        t1 = time.perf_counter()
        await store.append_event("ev", i, ev)
        lat.append(time.perf_counter() - t1)
    ev_s = time.perf_counter() - t0
    problems = await store.check()
    await store.close()
    assert not problems, problems
    return {
        "settlements_per_s": round(n_settle / settle_s, 1),
        "appends_per_s": round(n_events / ev_s, 1),
        "append_median_ms": round(statistics.median(lat) * 1000, 3),
        **two,
        **settings,
    }


SQLITE_SYNC = {0: "off", 1: "normal", 2: "full", 3: "extra"}
PG_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes", "wal_sync_method")


async def read_settings(store: Store) -> dict[str, str]:
    """The durability settings the store's write connection really runs with."""
    if store._pool is not None:  # PostgreSQL: as one of the store's own pooled connections sees them
        async with store._pool.acquire() as c:
            rows = await c.fetch("SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])",
                                 list(PG_SETTINGS))
        return {str(r["name"]): str(r["setting"]) for r in rows}
    db = store._db
    (mode,) = await (await db.execute("PRAGMA journal_mode")).fetchone()
    (sync,) = await (await db.execute("PRAGMA synchronous")).fetchone()
    return {"sqlite_journal_mode": str(mode), "sqlite_synchronous": SQLITE_SYNC.get(int(sync), str(sync))}


def build_big(path: str, n_players: int, n_rows: int, seed: int = 1) -> dict[str, float]:
    """Fill a migrated, empty store: grants, then 4-seat hands until ~n_rows ledger rows (books consistent)."""
    rng = random.Random(seed)
    t_start = time.perf_counter()
    now = time.time()
    span = 30 * 86_400.0  # hands spread over the last 30 days
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA synchronous = OFF")
    con.execute("BEGIN")
    uids = [10**6 + i for i in range(n_players)]
    con.executemany(
        "INSERT INTO players(user_id, name, lang, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)",
        [(u, f"player{u}", now - span, now - span) for u in uids],
    )
    house = 1
    wallets = {u: i + 2 for i, u in enumerate(uids)}
    grant = 1000
    bal = {u: grant for u in uids}
    house_bal = -grant * n_players
    ledger = []
    txns = []
    txn_id = 0
    entry_house_run = 0
    for u in uids:
        txn_id += 1
        txns.append((txn_id, "starting_grant", G, None, None, None, now - span))
        entry_house_run -= grant
        ledger.append((txn_id, house, G, None, -grant, entry_house_run, "starting_grant", None, now - span))
        ledger.append((txn_id, wallets[u], G, u, grant, grant, "starting_grant", None, now - span))
    stats = {u: [0, 0, 0, 0, 0, 0] for u in uids}  # hands, wins, net, biggest_win, best_points, best_tai
    hands, seats_rows = [], []
    n = 0
    while len(ledger) < n_rows:
        n += 1
        at = now - span + span * len(ledger) / n_rows
        seats = rng.sample(uids, 4)
        winner = rng.randrange(4)
        tai = rng.randint(2, 10)
        amount = 5 * tai * 2 ** rng.randint(0, 2)
        txn_id += 1
        hid = f"b{n}"
        txns.append((txn_id, "settle", G, hid, None, None, at))
        deltas = [0, 0, 0, 0]
        w = seats[winner]
        for s, u in enumerate(seats):
            if s == winner:
                continue
            pay = min(amount, bal[u])
            if pay == 0:
                continue
            bal[u] -= pay
            bal[w] += pay
            deltas[s] -= pay
            deltas[winner] += pay
            ledger.append((txn_id, wallets[u], G, u, -pay, bal[u], "loss", hid, at))
            ledger.append((txn_id, wallets[w], G, w, pay, bal[w], "win", hid, at))
        res = {"hand_id": hid, "deltas": deltas, "house_delta": 0, "balances": [bal[u] for u in seats],
               "transfers": [], "capped": False, "result": {"winner": winner}, "settled_at": at}
        hands.append((hid, G, CH, "jiaxing", json.dumps(seats), "c", "settled", json.dumps(res), 0, winner, 0,
                      tai, 0, 5 * tai, at, at))
        for s, u in enumerate(seats):
            won = s == winner
            seats_rows.append((hid, s, u, G, deltas[s], int(won), at))
            st = stats[u]
            st[0] += 1
            st[1] += won
            st[2] += deltas[s]
            st[3] = max(st[3], deltas[s])
            if won:
                st[4] = max(st[4], 5 * tai)
                st[5] = max(st[5], tai)
    con.executemany("INSERT INTO txns(txn_id, kind, guild_id, hand_id, actor, note, at) VALUES (?, ?, ?, ?, ?, ?, ?)", txns)
    con.executemany(
        "INSERT INTO hands(hand_id, guild_id, channel_id, ruleset, seats, commitment, status, result, drawn, "
        "winner_seat, self_draw, tai, fan, points, created_at, settled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        hands,
    )
    con.executemany(
        "INSERT INTO hand_seats(hand_id, seat, user_id, guild_id, delta, won, settled_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        seats_rows,
    )
    con.execute("INSERT INTO wallets(wallet_id, scope, user_id, balance, granted, created_at) VALUES (?, ?, NULL, ?, 0, ?)",
                (house, G, house_bal, now - span))
    con.executemany(
        "INSERT INTO wallets(wallet_id, scope, user_id, balance, granted, created_at) VALUES (?, ?, ?, ?, 1, ?)",
        [(wallets[u], G, u, bal[u], now - span) for u in uids],
    )
    con.executemany(
        "INSERT INTO ledger(txn_id, wallet_id, guild_id, user_id, delta, balance_after, reason, hand_id, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ledger,
    )
    con.executemany(
        "INSERT INTO members(guild_id, user_id, hands, wins, self_draws, net, biggest_win, best_points, best_tai, "
        "best_fan, first_seen, last_played) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, 0, ?, ?)",
        [(G, u, *stats[u], now - span, now) for u in uids],
    )
    con.execute("COMMIT")
    con.execute("ANALYZE")
    con.close()
    return {"build_s": round(time.perf_counter() - t_start, 1), "ledger_rows": len(ledger), "hands": n}


async def timed(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 2)


async def bench_queries(path: str, n_players: int) -> dict[str, float]:
    store = await Store.open(path)
    u = 10**6 + n_players // 2
    last_page = -(-n_players // 10)
    out = {
        "lb_balance_p1_ms": await timed(lambda: store.leaderboard(G, "balance")),
        "lb_balance_last_page_ms": await timed(lambda: store.leaderboard(G, "balance", page=last_page)),
        "lb_net_all_ms": await timed(lambda: store.leaderboard(G, "net", "all")),
        "lb_net_week_ms": await timed(lambda: store.leaderboard(G, "net", "week")),
        "lb_net_day_ms": await timed(lambda: store.leaderboard(G, "net", "day")),
        "lb_wins_ms": await timed(lambda: store.leaderboard(G, "wins")),
        "lb_points_ms": await timed(lambda: store.leaderboard(G, "points")),
        "player_stats_ms": await timed(lambda: store.player_stats(G, u)),
        "recent_hands_ms": await timed(lambda: store.recent_hands(G, u, 10)),
    }
    # settlements on the big database: fresh hands (ids no earlier run or copied database has), each
    # really settled (a repeated settle_hand writes nothing and would time a no-op)
    seats = [10**6 + i for i in (1, 2, 3, 4)]
    tag = f"big{os.getpid()}_{time.time_ns()}_"
    for i in range(200):
        await store.create_hand(f"{tag}{i}", G, CH, "jiaxing", seats, "c")
    t0 = time.perf_counter()
    repeated = 0
    for i in range(200):
        r = await store.settle_hand(f"{tag}{i}", G, seats, make_settlement(i % 4, 5, 1), {"winner": i % 4})
        repeated += r.repeated
    out["settlements_per_s_big_db"] = round(200 / (time.perf_counter() - t0), 1)
    out["settlements_big_db_repeated"] = repeated
    t0 = time.perf_counter()
    problems = await store.check()
    out["check_s"] = round(time.perf_counter() - t0, 2)
    out["check_problems"] = len(problems)
    await store.close()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--settle", type=int, default=1000)
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--dir", default=None, help="where to put the temporary databases")
    ap.add_argument("--pg", action="store_true", help="also on a throwaway PostgreSQL server (durable settings)")
    ap.add_argument("--db", default=None, help="also on this PostgreSQL server (postgresql://…)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        full = await bench_writes(os.path.join(d, "w_full.sqlite3"), "full", args.settle, args.events)
        normal = await bench_writes(os.path.join(d, "w_normal.sqlite3"), "normal", args.settle, args.events)
        big = os.path.join(d, "big.sqlite3")
        await (await Store.open(big)).close()
        built = build_big(big, args.players, args.rows)
        queries = await bench_queries(big, args.players)
        out = {
            "bench": "store",
            "players": args.players,
            **built,
            "settlements_per_s": full["settlements_per_s"],
            "appends_per_s": full["appends_per_s"],
            "append_median_ms": full["append_median_ms"],
            "settlements_per_s_sync_normal": normal["settlements_per_s"],
            "appends_per_s_sync_normal": normal["appends_per_s"],
            "append_median_ms_sync_normal": normal["append_median_ms"],
            "sqlite_journal_mode": full["sqlite_journal_mode"],
            "sqlite_synchronous": full["sqlite_synchronous"],
            "sqlite_synchronous_sync_normal": normal["sqlite_synchronous"],
            "db_mb": round(os.path.getsize(big) / 2**20, 1),
            **queries,
        }
        if args.pg or args.db:
            out.update(await bench_pg(args, big, out))
    print(json.dumps(out))


async def bench_pg(args: argparse.Namespace, big_sqlite: str, sq: dict) -> dict:
    """The write and query figures on PostgreSQL (keys ``pg_…``) and the ratios to SQLite's."""
    import asyncpg

    from jxbot.pgcluster import PgCluster
    from jxbot.store.copying import sqlite_to_pg

    cluster = None
    if args.db:
        server = args.db
    else:
        cluster = PgCluster(durable=True)  # fsync etc. on at start: the command line beats ALTER SYSTEM
        server = cluster.start()
    made: list[str] = []
    try:
        admin = await asyncpg.connect(server)
        settings = {str(r["name"]): str(r["setting"]) for r in await admin.fetch(
            "SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])", list(PG_SETTINGS))}
        if cluster is not None and not all(settings[k] == "on" for k in ("fsync", "synchronous_commit")):
            raise SystemExit(f"the throwaway server is not durable: {settings}")
        version = await admin.fetchval("SHOW server_version")

        async def new_db(name: str) -> str:
            name = f"{name}_{os.getpid()}"
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            made.append(name)
            base, _, _ = server.rpartition("/")
            return f"{base}/{name}"

        w = await bench_writes(await new_db("jxbench_w"), "full", args.settle, args.events)
        big = await new_db("jxbench_big")
        await (await Store.open(big)).close()
        conn = await asyncpg.connect(big)
        t0 = time.perf_counter()
        await sqlite_to_pg(big_sqlite, conn)
        copy_s = time.perf_counter() - t0
        await conn.close()
        q = await bench_queries(big, args.players)
        out = {"pg_server": version, **{f"pg_{k}": v for k, v in {**settings, **w, **q}.items()},
               "pg_copy_big_s": round(copy_s, 1)}
        for k in ("settlements_per_s", "appends_per_s", "append_median_ms", "lb_balance_p1_ms", "lb_net_week_ms",
                  "lb_points_ms", "player_stats_ms", "settlements_per_s_big_db", "check_s"):
            if sq.get(k):
                out[f"ratio_pg_sqlite_{k}"] = round(out[f"pg_{k}"] / sq[k], 2)
        return out
    finally:
        for name in made:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    asyncio.run(main())
