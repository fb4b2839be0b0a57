"""An admin's view and control of a server's tables (``/admin tables`` · ``close``) and the idle-lobby
timeout (docs/bot.md, "Admin table control").

``host`` is the cog hosting the tables (cogs/tables.py ``TablesCog``: its ``manager``, ``close_table``,
``bot``). Every close runs on the table's serialized path: under ``manager.lock(table.id)``, the check that
the table is still this process's (and, for the idle timeout, still an untouched lobby) and the synchronous
``manager.end`` with no await between them.

**A running table closed by an admin** stops the way a suspended table does (jxbot/shell/suspend.py): its
runner pauses at its next safe point (every move made is stored), the table is marked suspended and closed
in the store, its seats, reservations and holds are released in one step, and the open hand is settled at
once as **void** (no transfer, no fee, no escape: leaving is not an escape) — conditionally, in the store,
only because its table is closed. The channel and each player's DM panel are told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from jxbot.i18n import register, t
from jxbot.safety import md
from jxbot.shell.lobby import Table
from jxbot.shell.stop import pause_table
from jxbot.shell.suspend import retire_panels, settle_void, stopped, tell_table

log = logging.getLogger("jxbot.shell.admin_tables")

IDLE_TICK = 5.0  # seconds between two looks at the idle lobbies
PAUSE_SECONDS = 5.0  # a running table closed by an admin: the most its runner is waited for

register({
    "bot.cmd.admin_tables.name": {"zh": "牌桌", "en": "tables"},
    "bot.cmd.admin_tables.desc": {"zh": "列出本服务器的牌桌（频道、桌主、玩家、状态、开了多久）",
                                  "en": "List this server's tables (channel, owner, players, state, age)"},
    "bot.cmd.admin_close.name": {"zh": "关桌", "en": "close"},
    "bot.cmd.admin_close.desc": {"zh": "关闭一张牌桌（对局中的一局作废，没有人输赢银子）",
                                 "en": "Close a table (a hand in play is void: no silver moves)"},
    "bot.opt.table.name": {"zh": "牌桌", "en": "table"},
    "bot.opt.table.desc": {"zh": "牌桌编号（/管理 牌桌 和开桌消息上都有）",
                           "en": "The table's id (shown by /admin tables and on the lobby)"},
    "bot.opt.idle_minutes.name": {"zh": "空闲关桌分钟", "en": "idle_minutes"},
    "bot.opt.idle_minutes.desc": {"zh": "等待中的牌桌多少分钟没人动就自动关闭（0：不关；默认 30）",
                                  "en": "Close a lobby nobody touched for this many minutes (0: never; default 30)"},
    "bot.admin.tables.none": {"zh": "这个服务器现在没有牌桌。", "en": "This server has no tables now."},
    "bot.admin.tables.head": {"zh": "这个服务器的牌桌（{n}）：", "en": "This server's tables ({n}):"},
    "bot.admin.tables.row": {
        "zh": "`{table}` · <#{channel}> · {state} · 桌主 <@{owner}> · {players} · {age} 分钟前开桌",
        "en": "`{table}` · <#{channel}> · {state} · owner <@{owner}> · {players} · opened {age} min ago",
    },
    "bot.admin.state.lobby": {"zh": "等待开始", "en": "lobby"},
    "bot.admin.state.running": {"zh": "对局中", "en": "playing"},
    "bot.admin.state.away": {"zh": "重启中（另一个进程）", "en": "restarting (another process)"},
    "bot.admin.tables.hint": {"zh": "用 /管理 关桌 牌桌:<编号> 关闭一张牌桌。",
                              "en": "/admin close table:<id> closes a table."},
    "bot.admin.close.unknown": {"zh": "这个服务器没有编号为 {table} 的牌桌（/管理 牌桌 列出所有牌桌）。",
                                "en": "This server has no table {table} (/admin tables lists them)."},
    "bot.admin.close.away": {
        "zh": "牌桌 {table} 现在由另一个进程运行或正在重启，这里不能关闭它。请几秒钟后再试。",
        "en": "Table {table} is run by another process or is restarting: it cannot be closed from here. "
              "Please try again in a few seconds.",
    },
    "bot.admin.close.done_lobby": {"zh": "牌桌 {table} 已关闭，座位和冻结的银子都已释放。",
                                   "en": "Table {table} is closed: its seats and held silver are released."},
    "bot.admin.close.done_running": {
        "zh": "牌桌 {table} 已停止：这一局作废，没有人输赢银子，座位和冻结的银子都已释放。",
        "en": "Table {table} is stopped: its hand is void, no silver moved, its seats and held silver are released.",
    },
    "bot.table.closed_by_admin": {
        "zh": "管理员关闭了牌桌 {table}。座位已经释放，可以用 /麻将 开桌 重新开一桌。",
        "en": "An admin closed table {table}. The seats are free: /mahjong create opens a new table.",
    },
    "bot.table.stopped_by_admin": {
        "zh": "管理员停止了牌桌 {table}。这一局作废：没有人输赢银子，离开也不算逃跑。"
              "座位已经释放，可以用 /麻将 开桌 重新开一桌。",
        "en": "An admin stopped table {table}. This hand is void: nobody wins or loses silver and leaving is "
              "not an escape. The seats are free: /mahjong create opens a new table.",
    },
    "bot.table.idle_closed": {
        "zh": "牌桌 {table} 已经 {minutes} 分钟没有人动，自动关闭了。可以用 /麻将 开桌 重新开一桌。",
        "en": "Table {table} was closed after {minutes} minutes without activity. /mahjong create opens a new table.",
    },
})


def _minutes(seconds: float) -> str:
    m = seconds / 60
    return str(int(m)) if m >= 1 or m == int(m) else f"{m:.2g}"


def _row(table: Table, lang: str, state: str, now: float) -> str:
    players = ", ".join(("🤖 " + md(o.name)) if o.is_computer else f"<@{o.user_id}>"
                        for o in table.seats if o is not None) or "-"
    return t("bot.admin.tables.row", lang, table=table.id, channel=table.channel_id,
             state=t(f"bot.admin.state.{state}", lang), owner=table.owner_id, players=players,
             age=int(max(0.0, now - table.opened) // 60))


def tables_text(host: Any, guild_id: int, lang: str) -> str:
    """``/admin tables``: this server's lobbies and tables (channel, state, owner, players, age), mentions
    that ping nobody (the answer is sent with ``AllowedMentions.none()``)."""
    now = time.monotonic()
    mgr = host.manager
    rows = [_row(tb, lang, tb.state, now) for tb in mgr.tables.values()
            if tb.guild_id == guild_id and tb.state in ("lobby", "running")]
    rows += [_row(tb, lang, "away", now) for tb in mgr.away.values() if tb.guild_id == guild_id]
    if not rows:
        return t("bot.admin.tables.none", lang)
    return "\n".join([t("bot.admin.tables.head", lang, n=len(rows)), *rows, t("bot.admin.tables.hint", lang)])


def table_ids(host: Any, guild_id: int) -> list[str]:
    """The ids ``/admin close``'s autocomplete offers (this server's tables here)."""
    mgr = host.manager
    return sorted(tb.id for tb in [*mgr.tables.values(), *mgr.away.values()] if tb.guild_id == guild_id)


async def close_by_admin(host: Any, guild_id: int, table_id: str, admin_id: int, lang: str) -> str:
    """``/admin close``: close the lobby or stop the running table ``table_id`` of ``guild_id``. Returns the
    admin's answer. A table another process runs (or that is restarting: ``manager.away``) is refused."""
    mgr = host.manager
    table_id = table_id.strip().lower()
    away = mgr.away.get(table_id)
    if away is not None and away.guild_id == guild_id:
        return t("bot.admin.close.away", lang, table=table_id)
    table = mgr.get(table_id)
    if table is None or table.guild_id != guild_id or table.state == "ended":
        return t("bot.admin.close.unknown", lang, table=md(table_id[:20]))
    async with mgr.lock(table.id):
        if mgr.get(table.id) is not table or table.state == "ended":
            return t("bot.admin.close.unknown", lang, table=table.id)  # closed while waiting
        if table.state == "lobby":
            await host.close_table(table)  # manager.end first: one step, seats and holds released
            log.info("table %s (lobby) closed by admin %s in guild %s", table.id, admin_id, guild_id)
            await tell_table(host.bot, table, t("bot.table.closed_by_admin", table.lang, table=table.id))
            await retire_panels(host.bot, table, "bot.table.closed_by_admin")
            return t("bot.admin.close.done_lobby", lang, table=table.id)
        await stop_running(host, table, admin_id)
        return t("bot.admin.close.done_running", lang, table=table.id)


async def stop_running(host: Any, table: Table, admin_id: int) -> None:
    """Stop a running table as a suspended one stops, and void its open hand at once (module docstring).
    Called under the table's lock."""
    session = table.session
    runner = session.runner if session is not None else None
    state: dict | None = None
    if runner is not None:
        await pause_table(table, PAUSE_SECONDS)  # every move made is stored; nothing half done
        with contextlib.suppress(Exception):
            state = runner.state()
    if host.manager.get(table.id) is not table or table.state == "ended":
        return  # the match ended meanwhile (closed by its own last hand)
    hand_id = (state or {}).get("hand_id")
    store = host.bot.store
    if store is not None and hasattr(store, "save_table"):
        note = {"at": time.time(), "error": "closed_by_admin", "hand_id": hand_id, "by": admin_id}
        try:
            await store.save_table(table.id, table.guild_id, table.channel_id, table.config.to_json(),
                                   {"bot_table": table.to_json(), "runner": state, "suspended": note})
        except Exception:
            log.exception("table %s: marking it suspended in the store failed", table.id)
    await host.close_table(table)  # seats, reservations, holds released in one step; the store row closed
    voided = await _void(store, table, hand_id)
    log.info("table %s (running) stopped by admin %s in guild %s; hand %s %s", table.id, admin_id,
             table.guild_id, hand_id, "void" if voided else "not open")
    await tell_table(host.bot, table, t("bot.table.stopped_by_admin", table.lang, table=table.id))
    from jxbot.shell.ranked_ladder import void_ranked

    await void_ranked(host.bot, table)  # a ranked match stopped: no rating changes (docs/ranked.md)
    await stopped(host.bot, table, "closed_by_admin")  # e.g. its event's round goes on with what was played
    await retire_panels(host.bot, table, "bot.table.stopped_by_admin")


async def _void(store: Any, table: Table, hand_id: str | None) -> bool:
    """Settle the stopped table's open hand as void (only because its table is closed: ``abandoned_only``)."""
    if store is None or hand_id is None or not hasattr(store, "get_hand"):
        return False
    from jxbot.store import HandLive

    rec = await store.get_hand(hand_id)
    if rec is None or getattr(rec, "status", "open") == "settled":
        return False
    try:
        await settle_void(store, rec, rec.guild_id, table.id, "closed_by_admin", abandoned_only=True)
    except HandLive:
        return False
    return True


# ---------------------------------------------------------------------------------------- idle lobbies
async def close_idle(host: Any, table: Table, limit: float) -> bool:
    """Close ``table`` if it is still a lobby of this process untouched for ``limit`` seconds: the check
    and ``manager.end`` in one step under its lock. True when it closed."""
    mgr = host.manager
    async with mgr.lock(table.id):
        if mgr.get(table.id) is not table or table.state != "lobby" or time.monotonic() - table.touched < limit:
            return False
        await host.close_table(table)
    log.info("table %s (lobby) closed: idle for %s min (guild %s)", table.id, _minutes(limit), table.guild_id)
    await tell_table(host.bot, table, t("bot.table.idle_closed", table.lang, table=table.id,
                                              minutes=_minutes(limit)))
    await retire_panels(host.bot, table, "bot.table.closed_by_admin")
    return True


async def idle_once(host: Any) -> int:
    """One look at every lobby of this process: each untouched for longer than its server's
    ``idle_lobby_minutes`` (0: never) is closed. Returns how many."""
    store = host.bot.store
    if store is None or not hasattr(store, "get_guild_settings"):
        return 0
    now = time.monotonic()
    limits: dict[int, float] = {}
    n = 0
    for table in [tb for tb in host.manager.tables.values() if tb.state == "lobby"]:
        if table.guild_id not in limits:
            gs = await store.get_guild_settings(table.guild_id)
            limits[table.guild_id] = float(getattr(gs, "idle_lobby_minutes", 30)) * 60
        limit = limits[table.guild_id]
        if limit > 0 and now - table.touched >= limit and await close_idle(host, table, limit):
            n += 1
    return n


async def idle_loop(host: Any, tick: float = IDLE_TICK) -> None:
    """Runs from the end of the start-up resume (the readiness gate open) until the cog unloads."""
    while True:
        await asyncio.sleep(tick)
        try:
            await idle_once(host)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the idle-lobby check failed")

