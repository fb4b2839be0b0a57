"""Load test: N concurrent tables of scripted players against ONE real bot process (``jxbot run``) through
the local Discord double. Prints one JSON line.

    python3 bench/e2e_load.py                 # 100 tables, 1 scripted person + 3 computers each
    python3 bench/e2e_load.py --tables 20 --humans 4 --seconds 30
    python3 bench/e2e_load.py --tables 20 --watchers 5   # without watchers, then 5 per table: the ratio
    python3 bench/e2e_load.py --tables 20 --web-viewers 200   # without, then 200 web spectators (bench/web.py's)

Figures: click-to-response latency p50/p99/max measured at the double (the click is dispatched → the
bot's interaction callback arrives), the bot's event-loop lag p99 (its own sampler, ``JXBOT_LAG_LOG``),
resident memory per table (RSS with the tables running − RSS before, ÷ N), and errors: unanswered
clicks, the double's rejections (4xx the bot caused) and failures, players' errors and ERROR lines in
the bot's log. Targets at 100 tables: p99 ≤ 250 ms, zero errors; click → own panel p50 ≤ 150 / p99 ≤ 400 ms.

The scripted people sit down over ``--ramp`` seconds (5), as people do, not all in one instant (with
``--ramp 0`` all 100 press their first panel in the same half second: a burst no server sees). The
figures count every press of the run; they are also given split at ``--settle`` seconds (10): the start,
when every table makes its first moves (``start_own_panel_*``), and the steady state after
(``steady_own_panel_*``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.conftest import BotProcess  # noqa: E402
from tests.e2e.double import DiscordDouble  # noqa: E402
from tests.e2e.double.faults import counted  # noqa: E402
from tests.e2e.feel import Timeline, calls_by_kind, change_lags_ms, own_panel_ms, rest_calls  # noqa: E402
from tests.e2e.players import AutoPlayer, Player, Style  # noqa: E402
from tests.e2e.scenario import World, fast_env, open_table  # noqa: E402

PRESS_RE = re.compile(r"press timing \(ms\): (.*)")
FWD_RE = re.compile(r"(ack|handover|take|answer)_p50_ms=([0-9.]+)")
SHARE_RE = re.compile(r"request budget: \d+ live processes share [0-9.]+ requests/s \([0-9.]+ each\)")
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
    timeline = Timeline(double)
    guild = double.add_guild("load", locale="zh-CN")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO), **double.env(),
           "DEV_GUILD_ID": str(guild.id),
           **fast_env(tmp / "load.sqlite3", JXBOT_COMPUTER_DELAY=str(args.computer_delay),
                      JXBOT_EDIT_INTERVAL=str(args.edit_interval), JXBOT_MAX_HANDS=str(args.hands),
                      JXBOT_LAG_LOG="10", LOG_LEVEL="INFO",
                      JXBOT_TOKEN_ROUTING="0" if getattr(args, "routing", "on") == "off" else "1")}
    pace = picture_pace(args)
    if pace is not None:
        env["JXBOT_PICTURE_PACE"] = pace
    web_port = free_port() if getattr(args, "web_viewers", 0) else None
    web_proc = None
    if web_port is not None and not args.web_separate:  # the web inside the bot, every server, no address limit
        env.update(JXBOT_WEB_PORT=str(web_port), JXBOT_WEB_ALL_SERVERS="1", JXBOT_WEB_RATE="0")
    argv = [str(REPO / "bench" / "profile_bot.py"), str(Path(args.profile).resolve()), "run"] if args.profile \
        else ["-m", "jxbot.cli", "run"]
    bot = BotProcess(argv, env, tmp / "bot.log", tmp)
    await bot.start()
    out: dict = {"bench": "e2e_load", "tables": args.tables, "humans_per_table": args.humans,
                 "routing": getattr(args, "routing", "on")}
    try:
        await double.wait_commands(timeout=60)
        await double.wait_ready(timeout=60)
        await bot.wait_log("ready: every table resumed", timeout=30)  # the readiness gate open
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
                await open_table(w, seated=w.players, level=getattr(args, "level", None))

        opened = await asyncio.gather(*(open_one(w) for w in worlds), return_exceptions=True)
        open_errors = [repr(e)[:200] for e in opened if isinstance(e, BaseException)]
        out["open_s"] = round(time.monotonic() - t_open, 1)
        out["computer_level"] = getattr(args, "level", None) or "normal"
        watchers = await start_watchers(double, guild, worlds, args.watchers) if args.watchers else []
        out["watchers_per_table"] = args.watchers
        web_stop = asyncio.Event()
        web_lat: dict[str, list[float]] = {k: [] for k in ("page", "json", "image", "errors", "non200")}
        web_feed: list[float] = []
        if web_port is not None and args.web_separate:  # `jxbot web` in its own process over the bot's database
            import subprocess

            web_proc = subprocess.Popen([sys.executable, "-m", "jxbot.cli", "web", "--db", str(tmp / "load.sqlite3"),
                                         "--port", str(web_port), "--all-servers", "--env-file", str(tmp / "none.env")],
                                        env={**env, "JXBOT_WEB_RATE": "0"}, cwd=tmp, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        web_tasks, web_session = await start_web_viewers(f"http://127.0.0.1:{web_port}", guild.id,  # type: ignore[attr-defined]
                                                         args.web_viewers, web_stop, web_lat, web_feed) \
            if web_port is not None else ([], None)
        out["web_viewers"] = len(web_tasks)
        out["web_separate_process"] = bool(web_proc)

        # Discord's global limit per bot token (interaction endpoints exempt), from when the tables play: the
        # driver opens its tables --concurrency at a time, a burst of commands no server sees at once
        limit = double.enforce_global_limit(50)
        t0 = time.monotonic()
        wall0 = time.time()
        cpu0, draw0 = cpu_seconds(bot), drawing_cpu_seconds(bot)
        drv0 = time.process_time()  # the driver's own CPU (the double + the scripted players, this process)
        drv_lag: list[float] = []
        lag_task = asyncio.create_task(sample_lag(drv_lag))
        gc.freeze()  # what was built before (imports, the tables' setup) stays out of the collector's full passes
        gc_pauses = GcPauses()
        gc.callbacks.append(gc_pauses)
        if args.profile and bot.proc is not None:
            bot.proc.send_signal(signal.SIGUSR1)  # bench/profile_bot.py: the profile counts from here
        aps = [AutoPlayer(p, Style(claim="greedy"), think=args.think) for w in worlds for p in w.players]
        starts = start_spread(aps, args.ramp)  # people sit down over a few seconds, not all in one instant
        rss_peak = 0
        done = 0
        while time.monotonic() - t0 < args.seconds:
            await asyncio.sleep(1.0)
            rss_peak = max(rss_peak, bot.rss_bytes() or 0)
            done = sum(any("牌局结束" in m.content for m in w.channel.messages) for w in worlds)
            if done == len(worlds):
                break
        duration = time.monotonic() - t0
        t_end, wall_end = time.monotonic(), time.time()
        cpu_used = cpu_seconds(bot) - cpu0
        draw_used = drawing_cpu_seconds(bot) - draw0
        drv_used = time.process_time() - drv0
        lag_task.cancel()
        gc.callbacks.remove(gc_pauses)
        starts.cancel()
        for ap in aps:
            ap.stopping = True
        double.notify()
        await asyncio.gather(*(ap.stop() for ap in aps), return_exceptions=True)

        await warm_ap.stop()
        web_stop.set()
        for task in web_tasks:
            task.cancel()
        await asyncio.gather(*web_tasks, return_exceptions=True)
        if web_session is not None:
            await web_session.close()
        if web_proc is not None:
            web_proc.terminate()
            web_proc.wait(30)
        if web_tasks:
            out.update({"web_pages": len(web_lat["page"]), "web_page_p50_ms": q(web_lat["page"], 0.50),
                        "web_page_p99_ms": q(web_lat["page"], 0.99), "web_json_p99_ms": q(web_lat["json"], 0.99),
                        "web_images": len(web_lat["image"]), "web_image_p99_ms": q(web_lat["image"], 0.99),
                        "web_feed_messages": len(web_feed), "web_errors": len(web_lat["errors"]),
                        "web_non200": len(web_lat["non200"])})
        watcher_ids = {p.id for p in watchers}
        clicks = [i for i in double.interactions.values() if i.type == 3 and i.created_at >= t_warm
                  and i.user.username != "warm" and i.user.id not in watcher_ids]
        # the first --settle seconds of play (100 tables' first moves at once) are reported apart
        t_settle = t0 + min(args.settle, max(0.0, duration - 1.0))
        start_clicks = [i for i in clicks if i.created_at < t_settle]
        lat = [i.latency * 1000 for i in clicks if i.latency is not None]
        # the bot's share: from the click written to the bot's socket to its callback
        bot_lat = [(i.acked_at - i.sent_at) * 1000 for i in clicks if i.acked_at is not None and i.sent_at is not None]
        unanswered = [i for i in clicks if i.response_type is None]
        humans = {p.id for w in worlds for p in w.players}
        own = own_panel_ms(double, timeline, since=t0, users=humans)
        own_steady = own_panel_ms(double, timeline, since=t_settle, users=humans)
        own_start = own_panel_ms(double, timeline, since=t0, until=t_settle, users=humans)
        calls = rest_calls(double, since=t0, until=t_end)
        kinds = calls_by_kind(double, since=t0, until=t_end)
        moves, measured_per_hand = moves_in(tmp / "load.sqlite3", wall0, wall_end)
        offset = wall0 - t0  # wall time − monotonic time
        events = events_by_channel(tmp / "load.sqlite3", wall0, wall_end, offset)
        panels = {w.channel.id: [m.id for p in w.players for m in p.dm_messages()
                                 if any(a.filename == "hand.png" for a in m.attachments)] for w in worlds}
        lags = change_lags_ms(double, timeline, events, panels, t0, t_end)
        per_hand = engine_discards_per_hand()  # the same yardstick in every run (few hands end in a run)
        per_move = {k: round(v / moves, 2) for k, v in calls.items()} if moves else {}
        per_table_rps = sum(kinds["counted"].values()) / duration / max(1, args.tables) if duration else 0.0
        counted_n, free_n = sum(kinds["counted"].values()), sum(kinds["free"].values())
        # the steady state after --settle s (the tables' one-off costs — a DM channel and first panel per
        # person, the lobby — fall in the first seconds): what a long-running table costs per move
        steady_kinds = calls_by_kind(double, since=t_settle, until=t_end)
        steady_moves, _ = moves_in(tmp / "load.sqlite3", wall0 + (t_settle - t0), wall_end)
        steady_counted = sum(steady_kinds["counted"].values())
        steady_rps = steady_counted / max(1e-9, t_end - t_settle) / max(1, args.tables)
        out.update({
            "steady_counted_per_move": round(steady_counted / steady_moves, 3) if steady_moves else None,
            "steady_free_per_move": round(sum(steady_kinds["free"].values()) / steady_moves, 3) if steady_moves else None,
            "steady_counted_by_kind": steady_kinds["counted"], "steady_moves": steady_moves,
            "steady_tables_per_token_at_50rps": int(50 / steady_rps) if steady_rps else None,
        })
        out.update({
            # issue 28: what each request served, counted against the bot token's 50/s or free (interaction
            # endpoints), per move; tables per token from the counted ones alone
            "counted_by_kind": kinds["counted"], "free_by_kind": kinds["free"],
            "counted_by_route": counted_routes(double, t0, t_end),
            "counted_per_move": round(counted_n / moves, 3) if moves else None,
            "free_per_move": round(free_n / moves, 3) if moves else None,
            "counted_per_move_by_kind": {k: round(v / moves, 3) for k, v in kinds["counted"].items()} if moves else {},
            "counted_per_s": round(counted_n / duration, 1) if duration else None,
            # Discord's global 429s while the tables played (and in all, the tables' opening included)
            "global_429": sum(1 for at, _m, tpl, st in double.requests if t0 <= at < t_end and st == 429 and counted(tpl)),
            "global_429_all": limit.refused, "invalid_requests": len(double.invalid_requests),
            # change → visible: the table message after each hand event; a panel's version its player did
            # not press for, since the table's latest event; a claim offer likewise
            "lag_ms": {k: {"p50": q(v, 0.5), "p99": q(v, 0.99), "n": len(v)} for k, v in lags.items()},
            "_samples": {"own": own, **{f"lag_{k}": v for k, v in lags.items()}},  # pooled over --rounds
            "picture_pace": pace if pace is not None else "default",
            # the table messages' versions while the tables played, and those of them with a new picture (what
            # JXBOT_PICTURE_PACE paces: the CPU), a second
            **table_versions(double, timeline, worlds, t0, t_end),
            "steady_counted_by_route": counted_routes(double, t_settle, t_end),
        })
        log = bot.log()
        lags_loop = [float(m.group(1)) for m in LAG_RE.finditer(log)]
        lag_max = [float(m.group(2)) for m in LAG_RE.finditer(log)]
        out["press_stages_ms"] = press_stages(log)
        bot_errors = [ln for ln in log.splitlines() if " ERROR " in ln or ln.startswith("Traceback")]
        player_errors = [e for ap in aps for e in ap.errors]
        out.update({
            "seconds": round(duration, 1),
            "tables_finished": done,
            "clicks": len(clicks),
            "clicks_per_s": round(len(clicks) / duration, 1) if duration else None,
            "p50_ms": q(lat, 0.50), "p99_ms": q(lat, 0.99), "max_ms": round(max(lat), 1) if lat else None,
            "bot_p50_ms": q(bot_lat, 0.50), "bot_p99_ms": q(bot_lat, 0.99),
            # click → the clicker's own panel showing the new state (the interaction response updates it)
            "own_panel_p50_ms": q(own, 0.50), "own_panel_p99_ms": q(own, 0.99), "own_panel_n": len(own),
            # the same split at --settle s: the start (every table's first moves) and the steady state after
            "settle_s": round(t_settle - t0, 1), "start_own_panel_p50_ms": q(own_start, 0.50),
            "start_own_panel_p99_ms": q(own_start, 0.99), "start_clicks": len(start_clicks),
            "steady_own_panel_p50_ms": q(own_steady, 0.50), "steady_own_panel_p99_ms": q(own_steady, 0.99),
            # REST calls that count against the bot's ~50 requests/s (interaction responses and their
            # webhooks are "free"), per move (= a discard) and per hand (× the discards of a finished hand)
            "moves": moves, "rest_calls": calls, "rest_per_move": per_move,
            "discards_per_hand": per_hand, "discards_per_finished_hand": measured_per_hand,
            "rest_per_hand": {k: round(v * per_hand, 1) for k, v in per_move.items()} if per_hand else None,
            "rest_per_s_per_table": round(per_table_rps, 3),
            "tables_per_token_at_50rps": int(50 / per_table_rps) if per_table_rps else None,
            # the bot process's CPU time (all threads) while the tables played, per move and per second
            "bot_cpu_s": round(cpu_used, 1), "bot_cpu_ms_per_move": round(1000 * cpu_used / moves, 1) if moves else None,
            "bot_cpu_share": round(cpu_used / duration, 2) if duration else None,
            # the bot's drawing processes (jxbot/drawing.py; 0 when it draws in threads, counted above then)
            "drawing_cpu_s": round(draw_used, 1),
            "drawing_cpu_ms_per_move": round(1000 * draw_used / moves, 1) if moves else None,
            # the load driver's own CPU (this process): Discord's servers and the players' clients do this
            # work elsewhere in production; here it competes with the bot for the same cores
            "driver_cpu_s": round(drv_used, 1),
            "driver_cpu_ms_per_move": round(1000 * drv_used / moves, 1) if moves else None,
            "driver_cpu_share": round(drv_used / duration, 2) if duration else None,
            # the driver's event-loop lag: it delays every click's dispatch and stamps every answer's arrival
            "driver_loop_lag_p99_ms": q(drv_lag, 0.99), "driver_loop_lag_max_ms": round(max(drv_lag), 1) if drv_lag else None,
            "driver_gc_max_ms": round(max(gc_pauses.ms, default=0.0), 1), "driver_gc_ms": round(sum(gc_pauses.ms), 1),
            "load_avg_1m": round(os.getloadavg()[0], 2),
            "loop_lag_p99_ms": max(lags_loop) if lags_loop else None,
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
                                                                            or double.errors or bot_errors)
            and (q(own, 0.50) or 1e9) <= 150 and (q(own, 0.99) or 1e9) <= 400,
            "bot_log": str(tmp / "bot.log"),
        })
        if watchers:  # what the watchers got: their private views' edits (interaction webhooks, not the budget)
            views = [m for p in watchers for m in p.ephemerals() if "👀" in m.content]
            out["watch_views"] = len(views)
            out["watch_edits"] = sum(m.edit_count for m in views)
            out["watch_edits_per_s"] = round(out["watch_edits"] / duration, 1) if duration else None
        shown = [x * 1000 for x in double.shown_latencies(clicks)]  # click → the answer shown (as --processes)
        out["shown_p50_ms"], out["shown_p99_ms"] = q(shown, 0.50), q(shown, 0.99)
    finally:
        await bot.kill()
        await double.stop()
    return out


def table_versions(double: DiscordDouble, timeline: Timeline, worlds: list[World], since: float,
                   until: float) -> dict[str, float]:
    versions = pictures = 0
    for w in worlds:
        for m in w.channel.messages:
            if not any(a.filename == "table.png" for a in m.attachments):
                continue
            vs = timeline.versions(m.id)
            for n, v in enumerate(vs):
                if since <= v.at < until:
                    versions += 1
                    pictures += n == 0 or v.picture != vs[n - 1].picture
    span = max(1e-9, until - since)
    return {"table_versions": versions, "table_pictures": pictures,
            "table_pictures_per_s": round(pictures / span, 1), "table_versions_per_s": round(versions / span, 1)}


def counted_routes(double: DiscordDouble, since: float, until: float) -> dict[str, int]:
    """The counted requests by ``METHOD /route`` (which of them a table still spends from the bot token)."""
    out: dict[str, int] = {}
    for at, method, tpl, _st in double.requests:
        if since <= at < until and counted(tpl):
            out[f"{method} {tpl}"] = out.get(f"{method} {tpl}", 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


async def start_watchers(double: DiscordDouble, guild: object, worlds: list[World], n: int) -> list[Player]:
    """``n`` members per table press Watch (观战) on its table message: each gets a private delayed view."""
    out: list[Player] = []

    async def watch(w: World, j: int) -> None:
        p = Player.join(double, f"w{w.channel.name}-{j}", guild, w.channel)  # type: ignore[arg-type]
        out.append(p)
        msg = await p.wait_message(lambda m: any(b.get("label") == "观战" for b in m.buttons()), w.channel, timeout=60)
        await p.click(msg, label="观战")

    got = await asyncio.gather(*(watch(w, j) for w in worlds for j in range(n)), return_exceptions=True)
    failed = [repr(e)[:160] for e in got if isinstance(e, BaseException)]
    if failed:
        print(f"watchers that could not press Watch: {len(failed)}, e.g. {failed[0]}", file=sys.stderr)
    return out


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def start_web_viewers(base: str, guild_id: int, n: int, stop: asyncio.Event, lat: dict,
                            feed: list) -> tuple[list[asyncio.Task], object]:
    """``n`` web spectators spread over the running tables (bench/web.py's viewer: the page, its live feed,
    every picture announced, a reload and a JSON poll every 2-4 s)."""
    import aiohttp

    sys.path.insert(0, str(REPO / "bench"))
    from web import viewer  # bench/web.py

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                    timeout=aiohttp.ClientTimeout(total=None, sock_read=60))
    tids: list[str] = []
    for _ in range(300):  # a separate `jxbot web` may still be starting
        try:
            async with session.get(f"{base}/g/{guild_id}") as r:
                tids = re.findall(r'href="/t/([^"?]+)', await r.text()) if r.status == 200 else []
        except aiohttp.ClientConnectorError:
            tids = []
        if tids:
            break
        await asyncio.sleep(0.2)
    tasks = [asyncio.create_task(viewer(session, base, tids[i % len(tids)], stop, lat, feed)) for i in range(n)] \
        if tids else []
    return tasks, session


async def web_compare(args: argparse.Namespace) -> dict:
    """The same load without web viewers, then with ``--web-viewers``: the players' click → own panel figures
    side by side (spectators on the web must cost the players nothing measurable)."""
    ref = await main(argparse.Namespace(**{**vars(args), "web_viewers": 0}))
    out = await main(args)
    keys = ("own_panel_p50_ms", "own_panel_p99_ms", "steady_own_panel_p50_ms", "steady_own_panel_p99_ms",
            "p99_ms", "tables_finished", "errors", "load_avg_1m")
    out["no_web_viewers"] = {k: ref.get(k) for k in keys}
    for k in ("own_panel_p50_ms", "own_panel_p99_ms", "steady_own_panel_p99_ms"):
        if ref.get(k) and out.get(k):
            out[k.replace("_ms", "_ratio_vs_no_web_viewers")] = round(out[k] / ref[k], 2)
    return out


async def level_compare(args: argparse.Namespace) -> dict:
    """The same load with the computers at ``--reference-level`` first, then at ``--level`` (issue 30: a busy
    table of experts never delays another table's presses): the players' figures side by side, and ratios."""
    ref = await main(argparse.Namespace(**{**vars(args), "level": args.reference_level}))
    out = await main(args)
    keys = ("own_panel_p50_ms", "own_panel_p99_ms", "steady_own_panel_p50_ms", "steady_own_panel_p99_ms",
            "p50_ms", "p99_ms", "loop_lag_p99_ms", "tables_finished", "moves", "errors", "unanswered", "rejections",
            "player_errors", "bot_log_errors", "open_errors", "error_samples", "load_avg_1m")
    out["reference"] = {"computer_level": args.reference_level, **{k: ref.get(k) for k in keys}}
    for k in ("p99_ms", "own_panel_p50_ms", "own_panel_p99_ms", "steady_own_panel_p99_ms"):
        if ref.get(k) and out.get(k):
            out[k.replace("_ms", "_ratio_vs_reference")] = round(out[k] / ref[k], 2)
    return out


async def watch_compare(args: argparse.Namespace) -> dict:
    """The same load without watchers, then with ``--watchers`` per table: the players' click → own panel
    figures side by side (the watchers must cost them nothing measurable)."""
    ref = await main(argparse.Namespace(**{**vars(args), "watchers": 0}))
    out = await main(args)
    keys = ("own_panel_p50_ms", "own_panel_p99_ms", "steady_own_panel_p50_ms", "steady_own_panel_p99_ms",
            "p99_ms", "tables_finished", "errors", "load_avg_1m")
    out["no_watchers"] = {k: ref.get(k) for k in keys}
    for k in ("own_panel_p50_ms", "own_panel_p99_ms", "steady_own_panel_p99_ms"):
        if ref.get(k) and out.get(k):
            out[k.replace("_ms", "_ratio_vs_no_watchers")] = round(out[k] / ref[k], 2)
    return out


class GcPauses:
    """A ``gc.callbacks`` entry that keeps the length of every collection (ms)."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self._start = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.ms.append((time.perf_counter() - self._start) * 1000)


async def sample_lag(out: list[float], every: float = 0.05) -> None:
    """The event loop's lag in this process (ms): how late a ``sleep(every)`` wakes, until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        out.append((loop.time() - t - every) * 1000)


def start_spread(aps: list[AutoPlayer], ramp: float) -> asyncio.Task[None]:
    """Start the players one after another, evenly over ``ramp`` seconds."""
    async def run() -> None:
        for k, ap in enumerate(aps):
            if ramp > 0:
                await asyncio.sleep(ramp / max(1, len(aps)) if k else 0)
            if not ap.stopping:
                ap.start()

    return asyncio.create_task(run(), name="start-players")


def press_stages(log: str) -> dict:
    """The bot's own press timing (jxbot/press_timing.py): per stage, the median of the logged p50s and
    the largest logged p99."""
    p50: dict[str, list[float]] = {}
    p99: dict[str, list[float]] = {}
    for m in PRESS_RE.finditer(log):
        for part in m.group(1).split():
            k, _, v = part.partition("=")
            if k.endswith("_p50"):
                p50.setdefault(k[:-4], []).append(float(v))
            elif k.endswith("_p99"):
                p99.setdefault(k[:-4], []).append(float(v))
    return {k: {"p50": sorted(v)[len(v) // 2], "p99": max(p99.get(k) or [0.0])} for k, v in p50.items()}


def cpu_seconds(bot: BotProcess) -> float:
    """User + system CPU time of the bot process so far (Linux /proc; 0 elsewhere)."""
    if bot.proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{bot.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drawing_cpu_seconds(bot: BotProcess) -> float:
    """User + system CPU time of the bot's child processes still running (its drawing workers)."""
    if bot.proc is None:
        return 0.0
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == bot.proc.pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def moves_in(db: Path, since: float, until: float) -> tuple[int, float | None]:
    """Discards stored between two wall times, and the mean number of discards of a settled hand."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        n = con.execute("SELECT count(*) FROM hand_events WHERE at >= ? AND at < ? AND "
                        "json_extract(event, '$.type') = 'discarded'", (since, until)).fetchone()[0]
        row = con.execute("SELECT avg(n) FROM (SELECT count(*) AS n FROM hand_events e JOIN hands h USING (hand_id) "
                          "WHERE h.status = 'settled' AND json_extract(e.event, '$.type') = 'discarded' "
                          "GROUP BY e.hand_id)").fetchone()
    finally:
        con.close()
    return int(n), (round(float(row[0]), 1) if row and row[0] is not None else None)


def events_by_channel(db: Path, since: float, until: float, offset: float) -> dict[int, list[float]]:
    """Every hand event stored between two wall times, by channel, as monotonic times (wall − ``offset``)."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute("SELECT h.channel_id, e.at FROM hand_events e JOIN hands h USING (hand_id) "
                           "WHERE e.at >= ? AND e.at < ?", (since, until)).fetchall()
    finally:
        con.close()
    out: dict[int, list[float]] = {}
    for cid, at in rows:
        out.setdefault(int(cid), []).append(float(at) - offset)
    return out


def picture_pace(args: argparse.Namespace) -> str | None:
    """JXBOT_PICTURE_PACE for this run: before issue 28 (``--routing off`` in ``--routing both``) there was no
    pace (the request budget alone held the table edits back), after it the bot's default or ``--picture-pace``."""
    if getattr(args, "before_tokens", False):
        return "0"
    p = getattr(args, "picture_pace", None)
    return None if p is None else str(p)


async def before_after(args: argparse.Namespace) -> dict:
    """``--routing both`` (the default): the same load in one run, with the updates all through the bot token
    (``JXBOT_TOKEN_ROUTING=0``) and no picture pace, as before issue 28, and through the interaction tokens
    with the picture pace. ``--rounds N`` alternates them N times (before, after, after, before, …: a shared
    machine's load drifts) and pools the latencies of the rounds."""
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    order = [("off", "before"), ("on", "after")]
    for r in range(max(1, args.rounds)):
        for mode, name in (order if r % 2 == 0 else order[::-1]):
            runs[name].append(await main(argparse.Namespace(**{**vars(args), "routing": mode,
                                                               "before_tokens": mode == "off"})))
    keys = ("counted_per_move", "free_per_move", "counted_per_move_by_kind", "counted_by_route", "counted_per_s",
            "steady_counted_per_move", "steady_free_per_move", "steady_counted_by_kind", "steady_moves",
            "steady_tables_per_token_at_50rps",
            "tables_per_token_at_50rps", "own_panel_p50_ms", "own_panel_p99_ms", "lag_ms", "global_429", "global_429_all",
            "invalid_requests", "moves", "seconds", "tables_finished", "errors", "load_avg_1m",
            "table_versions", "table_pictures", "table_pictures_per_s", "steady_counted_by_route",
            "press_stages_ms", "loop_lag_p99_ms", "bot_cpu_s", "drawing_cpu_s", "p99_ms", "picture_pace")
    out: dict = {"bench": "e2e_load_routing", "tables": args.tables, "humans_per_table": args.humans,
                 "rounds": max(1, args.rounds)}
    for name, rs in runs.items():
        out[name] = pooled(rs) if len(rs) > 1 else {k: rs[0].get(k) for k in keys}
        out[name]["rounds"] = [{k: r.get(k) for k in keys} for r in rs] if len(rs) > 1 else None
    b, a = out["before"], out["after"]
    if a.get("counted_per_move") and b.get("counted_per_move"):
        out["counted_per_move_ratio"] = round(a["counted_per_move"] / b["counted_per_move"], 3)
    if a.get("own_panel_p50_ms") and b.get("own_panel_p50_ms"):
        out["own_panel_p50_ratio"] = round(a["own_panel_p50_ms"] / b["own_panel_p50_ms"], 2)
        out["own_panel_p99_ratio"] = round((a["own_panel_p99_ms"] or 0) / (b["own_panel_p99_ms"] or 1), 2)
    if a.get("table_pictures_per_s") and b.get("table_pictures_per_s"):
        out["table_pictures_ratio"] = round(a["table_pictures_per_s"] / b["table_pictures_per_s"], 2)
    for r in runs["before"] + runs["after"]:
        r.pop("_samples", None)
    out["full"] = runs
    return out


def pooled(rs: list[dict]) -> dict:
    """The figures of several runs of one mode together: latencies from the pooled samples, counts summed."""
    own = [x for r in rs for x in r["_samples"]["own"]]
    lag_kinds = [k for k in rs[0]["_samples"] if k.startswith("lag_")]
    moves = sum(r.get("moves") or 0 for r in rs)
    counted = sum(sum((r.get("counted_by_kind") or {}).values()) for r in rs)
    free = sum(sum((r.get("free_by_kind") or {}).values()) for r in rs)
    secs = sum(r.get("seconds") or 0 for r in rs)
    by_route: dict[str, int] = {}
    for r in rs:
        for k, v in (r.get("counted_by_route") or {}).items():
            by_route[k] = by_route.get(k, 0) + v
    return {
        "moves": moves, "seconds": round(secs, 1),
        "counted_per_move": round(counted / moves, 3) if moves else None,
        "free_per_move": round(free / moves, 3) if moves else None,
        "counted_by_route": by_route,
        "tables_per_token_at_50rps_min": min((r.get("tables_per_token_at_50rps") or 0) for r in rs),
        "own_panel_p50_ms": q(own, 0.50), "own_panel_p99_ms": q(own, 0.99), "own_panel_n": len(own),
        "lag_ms": {k[4:]: {"p50": q(v, 0.5), "p99": q(v, 0.99), "n": len(v)}
                   for k in lag_kinds for v in [[x for r in rs for x in r["_samples"][k]]]},
        "table_pictures_per_s": round(sum(r.get("table_pictures") or 0 for r in rs) / max(1e-9, secs), 1),
        "table_versions_per_s": round(sum(r.get("table_versions") or 0 for r in rs) / max(1e-9, secs), 1),
        "global_429": sum(r.get("global_429") or 0 for r in rs),
        "invalid_requests": sum(r.get("invalid_requests") or 0 for r in rs),
        "errors": sum(r.get("errors") or 0 for r in rs),
        "load_avg_1m": [r.get("load_avg_1m") for r in rs],
    }


def engine_discards_per_hand(n: int = 40) -> float:
    """Mean discards of a hand played by four normal computers on the pure engine (used when no hand
    finished during the run; the scripted people play about as the computers do)."""
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Match

    stats: dict = {}
    for k in range(n):
        play_hand(Match(f"bench:{k}").next_hand(), [make_player("normal", f"{k}:{i}") for i in range(4)], stats=stats)
    return round(stats["discards"] / n, 1)


async def sweep(args: argparse.Namespace) -> dict:
    """The request budget with 1, 2 and 4 people per table (one run each, ``--sweep-tables`` tables)."""
    out: dict = {"bench": "e2e_load_budget", "tables": args.sweep_tables, "seconds": args.sweep_seconds, "by_humans": {}}
    for h in [int(x) for x in args.sweep.split(",")]:
        sub = argparse.Namespace(**{**vars(args), "humans": h, "tables": args.sweep_tables,
                                    "seconds": args.sweep_seconds})
        r = await main(sub)
        out["by_humans"][h] = {k: r.get(k) for k in (
            "rest_per_move", "rest_per_hand", "discards_per_hand", "rest_per_s_per_table", "tables_per_token_at_50rps",
            "own_panel_p50_ms", "own_panel_p99_ms", "p99_ms", "errors", "error_samples",
            "bot_cpu_share", "driver_cpu_share", "driver_cpu_ms_per_move")}
    return out


async def main_processes(args: argparse.Namespace) -> dict:
    """``--processes N --db postgresql[://…]``: the tables spread over N bot processes (``jxbot run --shards i
    --shard-count N``, one server per shard) sharing one PostgreSQL database, beside the same load on one
    process with SQLite (measured first, in the same run). Every DM press reaches shard 0's process; the
    presses at the other processes' tables are forwarded to their owner (LISTEN/NOTIFY), acknowledged at
    once and answered by the owner's webhook edit. Figures: click → the answer shown (the response, or the
    edit of a deferred press), p50/p99 for the presses answered in place and for the forwarded ones."""
    from jxbot.pgcluster import PgCluster

    single: dict | None = None
    if args.reference:
        ref = argparse.Namespace(**{**vars(args), "processes": 1})
        single = await main(ref)
    cluster = None
    dsn = args.db
    if dsn in ("postgresql", "postgres"):
        cluster = PgCluster()
        dsn = cluster.start()
    n = args.processes
    tmp = Path(tempfile.mkdtemp(prefix="jxbot-load-procs-"))
    double = DiscordDouble()
    await double.start()
    limit = double.enforce_global_limit(50)  # one bot token: every process's counted requests together
    double.shard_count = n
    guilds = [double.add_guild(f"load-{i}", locale="zh-CN", shard=i) for i in range(n)]
    bots: list[BotProcess] = []
    out: dict = {"bench": "e2e_load_processes", "processes": n, "tables": args.tables, "routing": args.routing,
                 "humans_per_table": args.humans, "db": "postgresql"}
    try:
        for i in range(n):
            env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO), **double.env(),
                   **fast_env(dsn, JXBOT_COMPUTER_DELAY=str(args.computer_delay),
                              JXBOT_EDIT_INTERVAL=str(args.edit_interval), JXBOT_MAX_HANDS=str(args.hands),
                              JXBOT_LAG_LOG="10", LOG_LEVEL="INFO",
                              JXBOT_TOKEN_ROUTING="0" if args.routing == "off" else "1")}
            env.pop("DEV_GUILD_ID", None)
            bot = BotProcess(["-m", "jxbot.cli", "run", "--shards", str(i), "--shard-count", str(n)], env,
                             tmp / f"bot{i}.log", tmp)
            await bot.start()
            bots.append(bot)
        await double.wait_commands(timeout=90)
        for bot in bots:
            await bot.wait_log("ready: every table resumed", timeout=90)  # the readiness gate open
        worlds: list[World] = []
        for i in range(args.tables):
            g = guilds[i % n]
            ch = double.add_text_channel(g, f"mahjong-{i}")
            players = [Player.join(double, f"p{i}-{j}", g, ch) for j in range(args.humans)]
            worlds.append(World(double, g, ch, players, bots[i % n], tmp, None))  # type: ignore[arg-type]
        sem = asyncio.Semaphore(args.concurrency)

        async def open_one(w: World) -> None:
            async with sem:
                await open_table(w, seated=w.players)

        t_open = time.monotonic()
        opened = await asyncio.gather(*(open_one(w) for w in worlds), return_exceptions=True)
        open_errors = [repr(e)[:200] for e in opened if isinstance(e, BaseException)]
        out["open_s"] = round(time.monotonic() - t_open, 1)
        t0 = time.monotonic()
        drv0 = time.process_time()  # the driver's own CPU, as in main()
        aps = [AutoPlayer(p, Style(claim="greedy"), think=args.think).start() for w in worlds for p in w.players]
        done = 0
        while time.monotonic() - t0 < args.seconds:
            await asyncio.sleep(1.0)
            done = sum(any("牌局结束" in m.content for m in w.channel.messages) for w in worlds)
            if done == len(worlds):
                break
        duration = time.monotonic() - t0
        out["driver_cpu_share"] = round((time.process_time() - drv0) / duration, 2) if duration else None
        kinds = calls_by_kind(double, since=t0, until=t0 + duration)
        per_s = [0] * (int(duration) + 1)  # counted requests of all processes, second by second
        for at, _m, tpl, _st in double.requests:
            if t0 <= at < t0 + duration and counted(tpl):
                per_s[int(at - t0)] += 1
        peak = per_s.index(max(per_s))
        busiest: dict[str, int] = {}  # what the busiest second's counted requests were (status 429 apart)
        for at, m_, tpl, st in double.requests:
            if int(at - t0) == peak and t0 <= at and counted(tpl):
                key = f"{m_} {tpl}" + (" 429" if st == 429 else "")
                busiest[key] = busiest.get(key, 0) + 1
        out["counted_busiest_second"] = {"second": peak, **busiest}
        out.update({"counted_by_kind": kinds["counted"], "free_by_kind": kinds["free"],
                    "counted_per_s": round(sum(kinds["counted"].values()) / duration, 1) if duration else None,
                    "counted_max_in_a_second": max(per_s), "global_429": limit.refused,
                    "invalid_requests": len(double.invalid_requests)})
        for ap in aps:
            ap.stopping = True
        double.notify()
        await asyncio.gather(*(ap.stop() for ap in aps), return_exceptions=True)
        await asyncio.gather(*(b.stop(timeout=15) for b in bots))  # SIGTERM: each logs its last forwarding figures
        presses = [i for i in double.interactions.values() if i.type == 3 and i.created_at >= t0 and i.guild is None]
        by_shard0 = {p.id for w in worlds if w.guild is guilds[0] for p in w.players}
        local = [i.shown_latency * 1000 for i in presses if i.user.id in by_shard0 and i.shown_latency is not None]
        fwd = [i.shown_latency * 1000 for i in presses if i.user.id not in by_shard0 and i.shown_latency is not None]
        unanswered = [i for i in presses if i.response_type is None]
        logs = [b.log() for b in bots]
        bot_errors = [ln for log in logs for ln in log.splitlines() if " ERROR " in ln or ln.startswith("Traceback")]
        player_errors = [e for ap in aps for e in ap.errors]
        lags = [float(m.group(1)) for log in logs for m in LAG_RE.finditer(log)]
        parts: dict[str, list[float]] = {}  # the processes' own per-minute figures of forwarding's parts
        for log in logs:
            for m in FWD_RE.finditer(log):
                parts.setdefault(m.group(1), []).append(float(m.group(2)))
        out["forwarding_parts_p50_ms"] = {k: round(sorted(v)[len(v) // 2], 1) for k, v in parts.items()}
        out["budget_shares"] = [m.group(0) for log in logs for m in SHARE_RE.finditer(log)]
        out.update({
            "seconds": round(duration, 1), "tables_finished": done, "dm_presses": len(presses),
            "p50_ms": q(local + fwd, 0.50), "p99_ms": q(local + fwd, 0.99),
            "local_p50_ms": q(local, 0.50), "local_p99_ms": q(local, 0.99), "local_n": len(local),
            "forwarded_p50_ms": q(fwd, 0.50), "forwarded_p99_ms": q(fwd, 0.99), "forwarded_n": len(fwd),
            "forwarding_overhead_p50_ms": round((q(fwd, 0.5) or 0) - (q(local, 0.5) or 0), 1) if fwd and local else None,
            "loop_lag_p99_ms": max(lags) if lags else None,
            "errors": len(unanswered) + len(double.rejections) + len(double.errors) + len(player_errors)
            + len(bot_errors) + len(open_errors),
            "unanswered": len(unanswered), "rejections": len(double.rejections), "player_errors": len(player_errors),
            "bot_log_errors": len(bot_errors), "open_errors": len(open_errors),
            "error_samples": (open_errors + [str(r) for r in double.rejections[:3]] + player_errors[:3]
                              + bot_errors[:3])[:8],
            "bot_logs": [str(b.log_path) for b in bots],
        })
        if single is not None:
            out["single_sqlite"] = {k: single.get(k) for k in ("shown_p50_ms", "shown_p99_ms", "own_panel_p50_ms",
                                                               "own_panel_p99_ms", "tables_finished", "errors")}
            if single.get("shown_p99_ms") and out["p99_ms"]:  # the same measure: click → the answer shown
                out["p99_ratio_vs_single"] = round(out["p99_ms"] / single["shown_p99_ms"], 2)
    finally:
        for bot in bots:
            await bot.kill()
        await double.stop()
        if cluster is not None:
            cluster.stop()
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--humans", type=int, default=1, help="scripted people per table (the rest are computers)")
    ap.add_argument("--seconds", type=float, default=60.0, help="play for at most this long")
    ap.add_argument("--hands", type=int, default=1, help="hands per match (JXBOT_MAX_HANDS)")
    ap.add_argument("--think", type=float, default=0.5, help="a scripted person's pause before each click (s)")
    ap.add_argument("--ramp", type=float, default=5.0, help="the scripted people start over this many seconds")
    ap.add_argument("--settle", type=float, default=10.0,
                    help="the own-panel figures are also given for the first SETTLE s of play and after it")
    ap.add_argument("--computer-delay", type=float, default=1.0, help="JXBOT_COMPUTER_DELAY")
    ap.add_argument("--edit-interval", type=float, default=1.0, help="JXBOT_EDIT_INTERVAL")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds of one warm-up table before measuring")
    ap.add_argument("--concurrency", type=int, default=10, help="tables being opened at once")
    ap.add_argument("--profile", default="", help="write a CPU profile of the bot process to this file "
                    "(bench/profile_bot.py; every thread with yappi installed)")
    ap.add_argument("--sweep", default="", help="e.g. 1,2,4: the request budget per number of people per table")
    ap.add_argument("--sweep-tables", type=int, default=20)
    ap.add_argument("--sweep-seconds", type=float, default=40.0)
    ap.add_argument("--routing", choices=("both", "on", "off"), default="both",
                    help="updates through interaction tokens (issue 28): both = before (off) and after (on) in one run")
    ap.add_argument("--rounds", type=int, default=1, help="with --routing both: alternate before and after this "
                    "many times (before, after, after, before, …), latencies pooled")
    ap.add_argument("--picture-pace", type=float, default=None, help="JXBOT_PICTURE_PACE of the runs with the "
                    "tokens (default: the bot's); the runs before them have none, as before issue 28")
    ap.add_argument("--processes", type=int, default=1, help="bot processes, one shard each (needs --db postgresql)")
    ap.add_argument("--db", default="", help="with --processes: postgresql://… or 'postgresql' (a throwaway server)")
    ap.add_argument("--watchers", type=int, default=0, help="members watching each table (观战); the same load "
                    "without watchers is measured first, for the ratio")
    ap.add_argument("--web-viewers", type=int, default=0, help="web spectators over the tables (the bot serves "
                    "the web companion); the same load without them is measured first, for the ratio")
    ap.add_argument("--web-separate", action="store_true", help="with --web-viewers: serve them from `jxbot web` "
                    "in its own process over the bot's database instead of inside the bot")
    ap.add_argument("--level", default=None, help="the computers' level (/mahjong create level:); with "
                    "--reference-level the same load at that level is measured first, for the ratio")
    ap.add_argument("--reference-level", default=None, help="with --level: the reference run's computer level")
    ap.add_argument("--no-reference", dest="reference", action="store_false",
                    help="with --processes: skip the single-process SQLite run measured first")
    a = ap.parse_args()
    if a.processes > 1 and not a.db.startswith("postgres"):
        ap.error("--processes needs --db postgresql://… (or --db postgresql for a throwaway server)")
    run = (main_processes(a) if a.processes > 1 else sweep(a) if a.sweep else watch_compare(a) if a.watchers
           else web_compare(a) if a.web_viewers else level_compare(a) if a.level and a.reference_level
           else before_after(a) if a.routing == "both" else main(a))
    result = asyncio.run(run)
    result.pop("_samples", None)  # (the raw latencies: pooled by --rounds, not printed)
    print(json.dumps(result, ensure_ascii=False))
