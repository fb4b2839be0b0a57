"""A table whose runner stops on an unexpected error, and what the next start does with its hand.

**At the failure** (:func:`suspend_table`, from the session's task callback): the table is *suspended*.
Its record in the store keeps the runner's last state and every event of the hand, gains a
``suspended`` note (when, which error class, which hand) and is closed; the bot forgets the table, so
its seats are free at once (the players can sit elsewhere, ``/mahjong create`` works again in the
channel, ``/mahjong leave`` finds no table and charges no escape); the channel is told in plain words.
No silver moves: the hand was not finished.

**At the next start** (:func:`void_suspended`, before running tables are resumed): every hand still
open whose table no longer runs is **settled as void**: a settlement with no transfer (no win, no
fee, no escape), a result that says ``void``; the channel is told. Void, not resume, because by then the
seats were given back: the players may sit at other tables, a new table may play in that channel, and
the error may come back on replay. See docs/table.md ("A table that fails").
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import discord

from jxbot.i18n import register, t

log = logging.getLogger("jxbot.shell.suspend")

StopHook = Callable[[Any, Any, str], Awaitable[Any]]
_STOP_HOOKS: list[StopHook] = []


def on_stop(hook: StopHook) -> None:
    """Run ``await hook(bot, table, reason)`` whenever a table stops before its end — suspended (``"suspended"``)
    or stopped by an admin (``"closed_by_admin"``). A module above this one registers here (jxbot/shell/arranged.py:
    an event's table hands on its result) instead of being imported from here, which would be a circle."""
    if hook not in _STOP_HOOKS:
        _STOP_HOOKS.append(hook)


async def stopped(bot: Any, table: Any, reason: str) -> None:
    """Tell every hook that ``table`` stopped before its end; a hook that fails is logged, never raised."""
    for hook in list(_STOP_HOOKS):
        try:
            await hook(bot, table, reason)
        except Exception:
            log.exception("a stop hook failed for table %s", getattr(table, "id", "?"))

register({
    "bot.table.suspended": {
        "zh": "牌桌 {table} 出了错，无法继续。这一局暂停：没有人输赢银子，离开也不算逃跑。"
              "座位已经释放，可以用 /麻将 开桌 重新开一桌。",
        "en": "Table {table} stopped on an error and cannot go on. This hand is suspended: nobody wins or "
              "loses silver and leaving is not an escape. The seats are free: /mahjong create opens a new table.",
    },
    "bot.table.voided": {
        "zh": "牌桌 {table} 出错时未打完的那一局已作废：没有人输赢银子。",
        "en": "The hand table {table} was playing when it stopped on an error is void: no silver moved.",
    },
})

register({
    "bot.table.seats_mismatch": {
        "zh": "牌桌 {table} 重启后无法恢复：保存下来的座位对不上谁坐哪一家。为了不让任何人看到别人的牌，这一局作废："
              "没有人输赢银子，离开也不算逃跑。座位已经释放，可以用 /麻将 开桌 重新开一桌。",
        "en": "Table {table} could not be resumed after the restart: its saved seats disagree about who sits "
              "where. So that nobody is shown another seat's tiles, this hand is void: nobody wins or loses "
              "silver and leaving is not an escape. The seats are free: /mahjong create opens a new table.",
    },
})

VOID_SETTLEMENT = SimpleNamespace(transfers=(), deltas=(0, 0, 0, 0), house_delta=0)


def void_result(hand_id: str, table_id: str | None, reason: str) -> dict[str, Any]:
    return {"void": True, "reason": reason, "hand_id": hand_id, "table_id": table_id, "winner": None,
            "drawn_game": True, "payments": []}


async def settle_void(store: Any, rec: Any, guild_id: int, table_id: str | None, reason: str, *,
                      abandoned_only: bool = False) -> None:
    """Settle the stored hand ``rec`` as void (no transfer, no fee, no escape penalty), giving ``reason``: a
    table suspended or stopped by an admin, a hand not resumable after a restart. ``abandoned_only``: the store
    refuses (``HandLive``) a hand a running table still owns."""
    await store.settle_hand(rec.hand_id, guild_id, list(rec.seats), VOID_SETTLEMENT,
                            void_result(rec.hand_id, table_id, reason), abandoned_only=abandoned_only)


async def tell_channel(bot: Any, channel_id: int, text: str) -> None:
    from jxbot.shell.dmtable import is_dm_key

    if is_dm_key(channel_id):
        return  # a DM table's key, no channel (its players are told through tell_table)
    try:
        await bot.get_partial_messageable(channel_id).send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not post to channel %s", channel_id)


async def tell_table(bot: Any, table: Any, text: str) -> None:
    """Tell a table's channel (a DM table: each human player's DM, jxbot/shell/dmtable.py)."""
    from jxbot.shell.dmtable import channel_of

    try:
        await channel_of(bot, table).send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not post to the channel of table %s", table.id)


async def suspend_table(cog: Any, table: Any, error: BaseException, *, key: str = "bot.table.suspended",
                        runner_state: dict | None = None) -> None:
    """The table's runner died with ``error``: suspend the table (see the module docstring). ``key``: the
    message the channel and the panels get; ``runner_state``: the state to keep when no runner was built
    (a resume refused, cogs/tables.py)."""
    if cog.manager.get(table.id) is not table:
        return  # already closed or suspended
    session = table.session
    runner = session.runner if session is not None else None
    hand_id = runner_state.get("hand_id") if runner_state else None
    if runner is not None:
        try:
            runner_state = runner.state()
            hand_id = runner_state.get("hand_id")
        except Exception:  # the runner's state may be what broke
            log.exception("table %s: its state could not be read", table.id)
    # only the error's class: its message could name a tile
    log.error("table %s suspended after %s (hand %s)", table.id, type(error).__name__, hand_id)
    store = cog.bot.store
    if store is not None and hasattr(store, "save_table"):
        note = {"at": time.time(), "error": type(error).__name__, "hand_id": hand_id}
        try:
            await store.save_table(table.id, table.guild_id, table.channel_id, table.config.to_json(),
                                   {"bot_table": table.to_json(), "runner": runner_state, "suspended": note})
        except Exception:
            log.exception("table %s: marking it suspended in the store failed", table.id)
    await cog.close_table(table)  # the bot forgets it: seats free, the channel open, the store row closed
    await tell_table(cog.bot, table, t(key, table.lang, table=table.id))
    from jxbot.shell.ranked_ladder import void_ranked

    await void_ranked(cog.bot, table)  # a ranked match that stops unfinished changes no rating (and says so)
    await stopped(cog.bot, table, "suspended")  # e.g. a tournament's round does not wait for it for ever
    await retire_panels(cog.bot, table, key)


async def retire_panels(bot: Any, table: Any, key: str = "bot.table.suspended") -> None:
    """Each player's DM panel says the table stopped and loses its buttons (no edit still queued for it
    may bring them back)."""
    for seat, (channel_id, message_id) in sorted(table.panels.items()):
        bot.coalescer.forget(("panel", table.id, seat))
        occ = table.seats[seat] if 0 <= seat < len(table.seats) else None
        lang = getattr(occ, "lang", None) or table.lang
        try:
            await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(
                content=t(key, lang, table=table.id), view=None,
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("table %s: the panel of seat %d could not be edited", table.id, seat)


def over_tables(running: list[Any]) -> set[str]:
    """Ids of the store's running tables that no longer run: those marked suspended (the close after the
    mark did not reach the store). Nothing else: a table another one seems to "supersede" (a newer table
    in its channel or with one of its players) may be the live one, and a table opened during a restart
    window must never make a running table's hand void (issue 24)."""
    return {rec.table_id for rec in running if (rec.state or {}).get("suspended")}


async def void_suspended(cog: Any, default_lang: str = "zh", owns: Any = None) -> int:
    """At start: settle as void every open hand whose table is closed (suspended, or closed by a failure).
    Returns how many hands were voided. ``owns(guild_id)``: only those guilds' tables and hands (the others
    belong to other processes; jxbot.cluster).

    Each void is conditional in the store (``settle_hand(..., abandoned_only=True)``): the hand's table is
    read, locked, in the same transaction that settles the hand, and a table still running — resumed,
    saved or dealt meanwhile, here or by another process — keeps its hand (``HandLive``)."""
    store = cog.bot.store
    if store is None or not hasattr(store, "open_hands"):
        return 0
    for rec in await store.running_tables():
        if (owns is None or owns(rec.guild_id)) and (rec.state or {}).get("suspended"):
            # marked suspended but the close did not reach the store (closed only if the mark is still there)
            await store.close_table(rec.table_id, if_suspended=True)
            from jxbot.shell.ranked_ladder import void_ranked_record

            await void_ranked_record(store, rec)  # a ranked match that will never end changes no rating
    from jxbot.store import HandLive

    n = 0
    for h in await store.open_hands():
        if h.table_id is None or (owns is not None and not owns(h.guild_id)):
            continue
        try:
            await settle_void(store, h, h.guild_id, h.table_id, "table_error", abandoned_only=True)
        except HandLive:
            continue  # its table runs: not abandoned
        except Exception:
            log.exception("voiding hand %s failed", h.hand_id)
            continue
        n += 1
        log.info("hand %s of suspended table %s settled as void", h.hand_id, h.table_id)
        await tell_channel(cog.bot, h.channel_id, t("bot.table.voided", default_lang, table=h.table_id))
    return n
