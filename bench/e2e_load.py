"""Load test: N concurrent tables of scripted players against ONE real bot process (``jxbot run``) through
the local Discord double. Prints one JSON line.

    python3 bench/e2e_load.py                 # 100 tables, 1 scripted person + 3 computers each
    python3 bench/e2e_load.py --tables 20 --humans 4 --seconds 30

Figures: click-to-response latency p50/p99/max measured at the double (the click is dispatched → the
bot's interaction callback arrives), the bot's event-loop lag p99 (its own sampler, ``JXBOT_LAG_LOG``),
resident memory per table (RSS with the tables running − RSS before, ÷ N), and errors: unanswered
clicks, the double's rejections (4xx the bot caused) and failures, players' errors and ERROR lines in
the bot's log. Targets at 100 tables: p99 ≤ 250 ms, zero errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.conftest import BotProcess  # noqa: E402
from tests.e2e.double import DiscordDouble  # noqa: E402
from tests.e2e.players import AutoPlayer, Player, Style  # noqa: E402
from tests.e2e.scenario import World, fast_env, open_table  # noqa: E402

LAG_RE = re.compile(r"event loop lag: .*?p99_ms=([0-9.]+).*?max_ms=([0-9.]+)")


def q(xs: list[float], f: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(f * len(xs)))], 1)


async def main(args: argparse.Namespace) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="jxbot-load-"))
    double = DiscordDouble()
    await double.start()
    guild = double.add_guild("load", locale="zh-CN")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO), **double.env(),
           "DEV_GUILD_ID": str(guild.id),
           **fast_env(tmp / "load.sqlite3", JXBOT_COMPUTER_DELAY=str(args.computer_delay),
                      JXBOT_EDIT_INTERVAL=str(args.edit_interval), JXBOT_MAX_HANDS=str(args.hands),
                      JXBOT_LAG_LOG="10", LOG_LEVEL="INFO")}
    bot = BotProcess(["-m", "jxbot.cli", "run"], env, tmp / "bot.log", tmp)
    await bot.start()
    out: dict = {"bench": "e2e_load", "tables": args.tables, "humans_per_table": args.humans}
    try:
        await double.wait_commands(timeout=60)
        await double.wait_ready(timeout=60)
        await bot.wait_log("logged in as", timeout=30)
        # a warm-up table (not counted): the bot's first images build the renderer's sprite caches
        wch = double.add_text_channel(guild, "warm-up")
        warm = World(double, guild, wch, [Player.join(double, "warm", guild, wch)], bot, tmp / "load.sqlite3",
                     None)  # type: ignore[arg-type]
        await open_table(warm)
        warm_ap = AutoPlayer(warm.players[0], Style()).start()
        await asyncio.sleep(args.warmup)
        rss0 = bot.rss_bytes() or 0
        t_warm = time.monotonic()

        worlds: list[World] = []
        for i in range(args.tables):
            ch = double.add_text_channel(guild, f"mahjong-{i}")
            players = [Player.join(double, f"p{i}-{j}", guild, ch) for j in range(args.humans)]
            worlds.append(World(double, guild, ch, players, bot, tmp / "load.sqlite3", None))  # type: ignore[arg-type]
        t_open = time.monotonic()
        sem = asyncio.Semaphore(args.concurrency)

        async def open_one(w: World) -> None:
            async with sem:
                await open_table(w, seated=w.players)

        opened = await asyncio.gather(*(open_one(w) for w in worlds), return_exceptions=True)
        open_errors = [repr(e)[:200] for e in opened if isinstance(e, BaseException)]
        out["open_s"] = round(time.monotonic() - t_open, 1)

        t0 = time.monotonic()
        aps = [AutoPlayer(p, Style(claim="greedy"), think=args.think).start() for w in worlds for p in w.players]
        rss_peak = 0
        done = 0
        while time.monotonic() - t0 < args.seconds:
            await asyncio.sleep(1.0)
            rss_peak = max(rss_peak, bot.rss_bytes() or 0)
            done = sum(any("牌局结束" in m.content for m in w.channel.messages) for w in worlds)
            if done == len(worlds):
                break
        duration = time.monotonic() - t0
        for ap in aps:
            ap.stopping = True
        double.notify()
        await asyncio.gather(*(ap.stop() for ap in aps), return_exceptions=True)

        await warm_ap.stop()
        clicks = [i for i in double.interactions.values() if i.type == 3 and i.created_at >= t_warm
                  and i.user.username != "warm"]
        lat = [i.latency * 1000 for i in clicks if i.latency is not None]
        # the bot's share: from the click written to the bot's socket to its callback
        bot_lat = [(i.acked_at - i.sent_at) * 1000 for i in clicks if i.acked_at is not None and i.sent_at is not None]
        unanswered = [i for i in clicks if i.response_type is None]
        log = bot.log()
        lags = [float(m.group(1)) for m in LAG_RE.finditer(log)]
        lag_max = [float(m.group(2)) for m in LAG_RE.finditer(log)]
        bot_errors = [ln for ln in log.splitlines() if " ERROR " in ln or ln.startswith("Traceback")]
        player_errors = [e for ap in aps for e in ap.errors]
        out.update({
            "seconds": round(duration, 1),
            "tables_finished": done,
            "clicks": len(clicks),
            "clicks_per_s": round(len(clicks) / duration, 1) if duration else None,
            "p50_ms": q(lat, 0.50), "p99_ms": q(lat, 0.99), "max_ms": round(max(lat), 1) if lat else None,
            "bot_p50_ms": q(bot_lat, 0.50), "bot_p99_ms": q(bot_lat, 0.99),
            "loop_lag_p99_ms": max(lags) if lags else None,
            "loop_lag_max_ms": max(lag_max) if lag_max else None,
            "rss_base_mb": round(rss0 / 2**20, 1), "rss_peak_mb": round(rss_peak / 2**20, 1),
            "mem_per_table_kb": round((rss_peak - rss0) / 1024 / max(1, args.tables), 1),
            "errors": len(unanswered) + len(double.rejections) + len(double.errors) + len(player_errors)
            + len(bot_errors) + len(open_errors),
            "unanswered": len(unanswered), "rejections": len(double.rejections), "double_errors": len(double.errors),
            "player_errors": len(player_errors), "bot_log_errors": len(bot_errors), "open_errors": len(open_errors),
            "error_samples": (open_errors + [str(r) for r in double.rejections[:3]] + player_errors[:3]
                              + bot_errors[:3])[:8],
            "targets_met": bool(lat) and (q(lat, 0.99) or 0) <= 250 and not (unanswered or double.rejections
                                                                            or double.errors or bot_errors),
            "bot_log": str(tmp / "bot.log"),
        })
    finally:
        await bot.kill()
        await double.stop()
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--humans", type=int, default=1, help="scripted people per table (the rest are computers)")
    ap.add_argument("--seconds", type=float, default=60.0, help="play for at most this long")
    ap.add_argument("--hands", type=int, default=1, help="hands per match (JXBOT_MAX_HANDS)")
    ap.add_argument("--think", type=float, default=0.5, help="a scripted person's pause before each click (s)")
    ap.add_argument("--computer-delay", type=float, default=1.0, help="JXBOT_COMPUTER_DELAY")
    ap.add_argument("--edit-interval", type=float, default=1.0, help="JXBOT_EDIT_INTERVAL")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds of one warm-up table before measuring")
    ap.add_argument("--concurrency", type=int, default=10, help="tables being opened at once")
    print(json.dumps(asyncio.run(main(ap.parse_args())), ensure_ascii=False))
