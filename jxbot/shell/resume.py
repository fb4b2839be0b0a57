"""Resuming at start: every running table of this process's shards rebuilt from the store (seats, holds,
panels, its hand replayed from the events), and the hands of tables that provably stopped voided first
(jxbot/shell/suspend.py). ``host`` is the cog hosting the tables (cogs/tables.py ``TablesCog``: its bot,
``manager`` and ``schedule_lobby``, and what a :class:`~jxbot.shell.session.TableHost` offers). The readiness
gate stays shut until this is done (docs/bot.md, "The readiness gate")."""

from __future__ import annotations

import logging
from typing import Any

import discord

from jxbot.i18n import t
from jxbot.shell.lobby import Table
from jxbot.shell.session import Session

log = logging.getLogger("jxbot.shell.resume")


class SeatsDisagree(Exception):
    """A stored table whose lobby seats and runner seats name different players (docs/table.md)."""


async def seats_agree(host: Any, table: Table, runner_state: Any) -> bool:
    """Before a running table is resumed: every human the lobby seats must be the player the runner
    holds at that seat. If not, the table is suspended (jxbot/shell/suspend.py) with a message saying so,
    instead of binding anyone to another seat's hand. True when they agree."""
    if table.state != "running" or not isinstance(runner_state, dict):
        return True
    bad = table.seats_differ(list(runner_state.get("seats") or []))
    if not bad:
        return True
    log.error("table %s not resumed: its lobby and runner seats disagree at seats %s", table.id, bad)
    from jxbot.shell.suspend import suspend_table

    await suspend_table(host, table, SeatsDisagree(), key="bot.table.seats_mismatch", runner_state=runner_state)
    return False



async def resume_all(host: Any) -> int:
    """Rebuild every running table from the store and tell its channel. Returns how many."""
    store = host.bot.store
    if store is None or not hasattr(store, "running_tables"):
        return 0
    from jxbot.shell.suspend import void_suspended

    try:  # hands left open by a table that failed: void (docs/table.md, "A table that fails")
        await void_suspended(host, host.bot.settings.lang, owns=host.bot.owns_guild)
    except Exception:
        log.exception("voiding the hands of suspended tables failed")
    n = 0
    # newest first: of two that clash (clash below) the one opened after the other stopped runs
    for rec in reversed(await store.running_tables()):  # (the suspended ones were closed just above)
        if not host.bot.owns_guild(rec.guild_id):
            continue  # another process holds this guild's shard: its table is that process's
        try:
            n += bool(await resume_table(host, rec))
        except Exception:
            log.exception("could not resume table %s", getattr(rec, "table_id", rec))
    return n

def clashing(host: Any, table: Table) -> tuple[str, str] | None:
    """(what, other table id) when a table being resumed would share its channel or a player with a
    table already here. The store can hold such a pair only when a table's suspension could not be
    recorded (and its channel and seats were reused): which one is abandoned is not provable, so the
    other is simply not resumed (nothing is voided on a guess)."""
    other = host.manager.in_channel(table.channel_id)
    if other is not None and other.id != table.id:
        return "its channel", other.id
    for _, occ in table.humans:
        other = host.manager.of_user(occ.user_id) if occ.user_id is not None else None
        if other is not None and other.id != table.id:
            return f"its player {occ.user_id}", other.id
    return None

async def resume_table(host: Any, rec: Any) -> bool:
    state = rec.state or {}
    tj = state.get("bot_table")
    if not tj:
        return False
    table = Table.from_json(tj)
    if host.manager.get(table.id) is not None:
        return False  # opened in this process before on_ready: live, not a leftover of a restart
    if state.get("suspended"):
        return False  # stopped on an error (jxbot/shell/suspend.py): never run again
    clash = clashing(host, table)
    if clash is not None:  # two running tables in one channel or with one player: neither is voided
        log.error("table %s not resumed: %s also runs table %s (left running in the store for an operator)",
                  table.id, clash[0], clash[1])
        return False
    claim = host.bot.table_claimer
    if claim is not None and not await claim(rec):
        return False  # another process still holds its lease: resumed here once it lapses (cogs/cluster.py)
    host.manager.add(table)
    if not await seats_agree(host, table, state.get("runner")):
        return False
    store = host.bot.store
    if table.hold and store is not None and hasattr(store, "hold"):  # holds live in memory: re-install
        for uid in [o.user_id for _, o in table.humans if o.user_id is not None] + sorted(table.escapers):
            try:
                await store.hold(table.guild_id, uid, table.id, table.hold, check=False)
            except Exception:
                log.exception("could not hold silver for a player of table %s", table.id)
    runner_state = state.get("runner")
    if table.state == "running" and runner_state:
        events: list[dict] = []
        hid = runner_state.get("hand_id")
        if hid:
            events = [e if isinstance(e, dict) else e.event for e in await host.bot.store.hand_events(hid)]
        from jxbot.shell.panel_nonce import restore_panel_nonces

        await restore_panel_nonces(host.bot, table)  # a panel whose actions still hold keeps its buttons
        session_cls = Session
        if table.arranged is not None:  # an arranged table (a tournament's, a ranked match): its result goes on
            from jxbot.shell.arranged import ArrangedSession

            session_cls = ArrangedSession
        session = session_cls(host.bot, host, table)
        if not table.dm:
            # the table message from before the restart is retired once a new one is posted below the notice
            session.observer.retire, table.table_message_id = table.table_message_id, None
        # (a DM table's messages in each DM, saved in table.dm_messages, are edited again: nothing is re-posted)
        session.start(runner_state=runner_state, events=events)
        session.refresh()  # fresh panels (countdowns); buttons from before work only if their actions still hold
        ch = session.channel()
        try:
            if not table.dm:  # (in DMs the panel and the table message edited again say it)
                await ch.send(t("bot.dm.resumed", table.lang))
        except discord.HTTPException:
            log.warning("could not announce the resume of table %s", table.id)
    elif table.state == "lobby":
        host.schedule_lobby(table)
    return True
