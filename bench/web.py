"""Web companion benchmark: one JSON line.

``python3 bench/web.py [VIEWERS] [TABLES] [SECONDS]`` (default 200 viewers over 20 live tables for 20 s).
A SQLite store holds TABLES running tables whose hands advance move by move (this process writes their
events as the bot's sink would, one move per table every second: the bot's computer pacing, faster than people); ``jxbot web`` serves them from a separate
process, read-only, as in production; VIEWERS clients each open their table's page, follow its live feed
(server-sent events), fetch the picture of every step it announces, and reload the page and poll the JSON
every few seconds. Figures: the latency of pages (HTML), of the JSON, of pictures, how late a feed announces
a step after its move was written (beyond the spectator delay), against /healthz (the server's floor, the
same run: the ratio is what the pages cost on top). The issue's bar: page p99 <= 150 ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from jxbot.ai.players import make_player  # noqa: E402
from jxbot.ai.selfplay import play_hand  # noqa: E402
from jxbot.game import Hand, HandContext  # noqa: E402
from jxbot.store import Store  # noqa: E402

GUILD, CHANNEL = 5, 6
WARM_UP = 5.0  # seconds: every viewer arrives at once; figures after this are the steady state
WARM_UNTIL = [0.0]
MOVE_EVERY = float(os.environ.get("BENCH_MOVE_EVERY", "1.0"))  # seconds between two moves of a table


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1)


async def setup(path: str, tables: int) -> tuple[Store, list[tuple[str, str, list[dict]]]]:
    store = await Store.open(path)
    await store.update_guild_settings(GUILD, web=True, web_name="bench")
    out = []
    for i in range(tables):
        tid, hid = f"bench{i:02d}", f"{i:012x}-1"
        h = Hand.new(100 + i, context=HandContext(hand_id=hid))
        play_hand(h, [make_player("easy", i * 10 + s) for s in range(4)])
        seats = [{"user_id": None, "name": f"cpu:easy:{s}", "is_computer": True} for s in range(4)]
        await store.save_table(tid, GUILD, CHANNEL, {"stake": 5}, {"bot_table": {"id": tid, "seats": seats}})
        await store.create_hand(hid, GUILD, CHANNEL, h.ruleset.name, [None] * 4, h.commitment, table_id=tid)
        events = h.events_json()
        for j in range(12):  # dealt and a few moves already
            await store.append_event(hid, j, events[j])
        out.append((tid, hid, events))
    return store, out


async def writer(store: Store, tables: list, stop: asyncio.Event, written: dict) -> None:
    """One move per table every MOVE_EVERY seconds (two events: a draw and a discard), staggered."""
    pos = {hid: 12 for _, hid, _ in tables}
    while not stop.is_set():
        for _tid, hid, events in tables:
            n = pos[hid]
            upto = min(n + 2, len(events) - 1)
            if upto > n:
                await store.append_events(hid, n, events[n:upto])
                pos[hid] = upto
                written[hid] = (upto, time.monotonic())
            await asyncio.sleep(MOVE_EVERY / len(tables))


async def viewer(session: aiohttp.ClientSession, base: str, tid: str, stop: asyncio.Event, lat: dict,
                 feed_lag: list) -> None:
    async def timed(kind: str, path: str) -> bytes | None:
        t = time.perf_counter()
        warm = time.monotonic() < WARM_UNTIL[0]
        try:
            async with session.get(base + path) as r:
                body = await r.read()
                ok = r.status == 200
        except aiohttp.ClientError:
            lat["errors"].append(1.0)
            return None
        lat[("first_" if warm else "") + kind].append((time.perf_counter() - t) * 1000)
        if not ok:
            lat["non200"].append(1.0)
        return body if ok else None

    await timed("page", f"/t/{tid}")

    async def follow() -> None:
        try:
            async with session.get(f"{base}/api/t/{tid}/events") as r:
                async for raw in r.content:
                    if stop.is_set():
                        return
                    line = raw.decode()
                    if line.startswith("data: "):
                        state = json.loads(line[6:])
                        if state.get("image"):
                            await timed("image", state["image"])
                        feed_lag.append(time.monotonic())
        except (TimeoutError, aiohttp.ClientError):
            lat["errors"].append(1.0)

    task = asyncio.create_task(follow())
    await asyncio.sleep(random.uniform(0, 3))
    while not stop.is_set():
        await timed("page", f"/t/{tid}")
        await timed("json", f"/api/t/{tid}")
        await asyncio.sleep(random.uniform(2.0, 4.0))
    task.cancel()


async def main(viewers: int = 200, tables: int = 20, seconds: float = 20.0) -> None:
    tmp = tempfile.mkdtemp(prefix="jxbot-bench-web-")
    db = os.path.join(tmp, "bench.sqlite3")
    store, tabs = await setup(db, tables)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JXBOT_WEB_RATE": "0", "JXBOT_DRAW_PROCESSES": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "jxbot.cli", "web", "--db", db, "--port", "0",
                             "--env-file", os.path.join(tmp, "none.env")], env=env, cwd=tmp,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    base = re.search(r"(http://[\d.]+:\d+)", proc.stdout.readline())[1]  # type: ignore[index]
    lat: dict[str, list[float]] = {k: [] for k in ("page", "json", "image", "healthz", "errors", "non200",
                                                   "first_page", "first_json", "first_image")}
    feed: list[float] = []
    stop = asyncio.Event()
    written: dict = {}
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=None, sock_read=60)) as s:
        async with s.get(base + "/g/5") as r:  # warm: the first picture draws load the sprites
            await r.read()
        WARM_UNTIL[0] = time.monotonic() + WARM_UP
        w = asyncio.create_task(writer(store, tabs, stop, written))
        vs = [asyncio.create_task(viewer(s, base, tabs[i % tables][0], stop, lat, feed)) for i in range(viewers)]

        async def probe() -> None:
            while not stop.is_set():
                t = time.perf_counter()
                async with s.get(base + "/healthz") as r:
                    await r.read()
                lat["healthz"].append((time.perf_counter() - t) * 1000)
                await asyncio.sleep(0.25)

        p = asyncio.create_task(probe())
        t0 = time.monotonic()
        await asyncio.sleep(seconds + WARM_UP)
        stop.set()
        for task in [w, p, *vs]:
            task.cancel()
        await asyncio.gather(w, p, *vs, return_exceptions=True)
        elapsed = time.monotonic() - t0
    proc.terminate()
    proc.wait(30)
    await store.close()
    moves = sum(n for n, _ in written.values())
    out = {
        "bench": "web", "viewers": viewers, "tables": tables, "seconds": round(elapsed, 1),
        "requests": sum(len(lat[k]) for k in ("page", "json", "image", "healthz")),
        "warm_up_s": WARM_UP, "first_page_p99_ms": pct(lat["first_page"], 0.99),
        "pages": len(lat["page"]), "page_p50_ms": pct(lat["page"], 0.5), "page_p99_ms": pct(lat["page"], 0.99),
        "json_p50_ms": pct(lat["json"], 0.5), "json_p99_ms": pct(lat["json"], 0.99),
        "images": len(lat["image"]), "image_p50_ms": pct(lat["image"], 0.5), "image_p99_ms": pct(lat["image"], 0.99),
        "feed_messages": len(feed), "healthz_p50_ms": pct(lat["healthz"], 0.5),
        "healthz_p99_ms": pct(lat["healthz"], 0.99),
        "page_p99_over_healthz_p99": round(pct(lat["page"], 0.99) / max(0.1, pct(lat["healthz"], 0.99)), 2),
        "errors": len(lat["errors"]), "non200": len(lat["non200"]), "events_written": moves,
        "page_p99_ok": pct(lat["page"], 0.99) <= 150.0, "move_every_s": MOVE_EVERY,
        "cpus": os.cpu_count(), "load": round(os.getloadavg()[0], 1),
        "mean_page_ms": round(statistics.fmean(lat["page"]), 1) if lat["page"] else 0.0,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]] + [float(a) for a in sys.argv[3:4]]
    asyncio.run(main(*args))
