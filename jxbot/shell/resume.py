"""Resuming at start: every running table of this process's shards rebuilt from the store (seats, holds,
panels, its hand replayed from the events), and the hands of tables that provably stopped voided first
(jxbot/shell/suspend.py). ``host`` is the cog hosting the tables (cogs/tables.py ``TablesCog``: its bot,
``manager`` and ``schedule_lobby``, and what a :class:`~jxbot.shell.session.TableHost` offers). The readiness
gate stays shut until this is done (docs/bot.md, "The readiness gate")."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord

from jxbot.i18n import register, t
from jxbot.shell.lobby import Table
from jxbot.shell.session import Session

log = logging.getLogger("jxbot.shell.resume")

register({
    "bot.table.restart_void": {
        "zh": "机器人重启了。牌桌 {table} 重启前刚发的那一局无法恢复，已作废：没有人输赢银子。牌桌继续，马上重新发牌。",
        "en": "The bot restarted. The hand table {table} had just dealt could not be restored, so it is void: nobody "
              "won or lost silver. The table goes on with a fresh deal.",
    },
})


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
    if table.state == "running":
        try:
            await _run_again(host, rec, table, runner_state)
        except Exception as exc:  # not a table that sits in the manager and never moves: stopped as a failed one
            if table.session is not None and table.session.runner is not None:
                raise  # it runs: its own failure handling (jxbot/shell/suspend.py) has it
            # only the error's class (as suspend.py): its message or traceback can quote a stored event, a tile
            log.error("table %s could not be resumed (%s): suspended", table.id, type(exc).__name__)
            from jxbot.shell.suspend import suspend_table

            await suspend_table(host, table, exc, runner_state=runner_state)
            return False
    elif table.state == "lobby":
        host.schedule_lobby(table)
    return True


async def stored_events(store: Any, hand_id: str) -> list[dict]:
    """A stored hand's events as JSON (the store gives rows or plain dicts)."""
    return [e if isinstance(e, dict) else e.event for e in await store.hand_events(hand_id)]


async def dealt_unsaved(store: Any, table: Table, runner_state: dict) -> tuple[dict, list[dict]]:
    """A runner state saved between hands (no hand in play) and the events to resume it with: if the store holds
    the match's next hand, dealt at this table before the restart came ahead of the state that names it, that
    hand is the one in play (the deal is the same: the players keep what they were dealt). Otherwise the state
    as it is, and the runner deals that hand (again: the same wall and ids, the store takes a repeat as one)."""
    from jxbot.game import Match

    match = Match.from_json(runner_state["match"])
    if runner_state.get("over") or match.over or store is None or not hasattr(store, "get_hand"):
        return runner_state, []
    hid = match.next_context().hand_id
    rec = await store.get_hand(hid)
    if rec is None or rec.status != "running" or rec.table_id != table.id or not _same_seats(table, rec):
        return runner_state, []
    events = await stored_events(store, hid)
    if not events:
        return runner_state, []
    log.warning("table %s: resuming hand %s, dealt before its runner's state named it", table.id, hid)
    return dict(runner_state, hand_id=hid), events


async def _void(store: Any, table: Table, rec: Any) -> None:
    """Settle a hand of a table resumed with no runner state as void (no transfer, no fee, no escape)."""
    from jxbot.shell.suspend import settle_void

    await settle_void(store, rec, table.guild_id, table.id, "restart")
    log.warning("table %s: hand %s settled as void (dealt before a restart, not resumable)", table.id, rec.hand_id)


def _same_seats(table: Table, rec: Any) -> bool:
    """The stored hand was dealt to the players the table seats now (a points-only table stores no player)."""
    if not any(u is not None for u in rec.seats):
        return True
    now = [None if o is None or o.is_computer else o.user_id for o in table.seats]
    return list(rec.seats) == now


async def _first_hand(host: Any, rec: Any, table: Table, session: Any) -> bool:
    """A table stored as running with no runner state (a restart after its start and before its runner's first
    save; docs/table.md, "Restart windows"): its runner is started fresh here. A hand it dealt meanwhile is taken
    over (rebuilt from its events) when it is this table's first hand and was dealt to these seats; one that
    cannot be is settled as void (no silver moves) and a fresh deal follows. True when a hand was voided."""
    store = host.bot.store
    session.seed = await host.table_seed()
    if session.seed is None and table.arranged is not None:
        # its spec's secret is not in the store (it was to be kept in the runner's state): a new one, so the match
        # keeps the arranged table's form (its id, the duplicate deal) — the walls of its hands after the first
        # are not those of the other tables of its secret
        session.seed = secrets.token_hex(32)
    hands = []
    untold = False  # a hand voided by a resume that a second kill cut short: its players may not have been told
    if store is not None and hasattr(store, "get_hand"):
        for hid in getattr(rec, "hand_ids", ()) or ():
            h = await store.get_hand(hid)
            if h is not None and h.status == "running":
                hands.append(h)
            elif h is not None and hasattr(store, "hand_result"):
                res = await store.hand_result(hid)
                untold = untold or (res is not None and (res.result or {}).get("reason") == "restart")
    taken = None
    if len(hands) == 1 and _same_seats(table, hands[0]):
        events = await stored_events(store, hands[0].hand_id)
        if events:
            try:
                session.start(first_hand=events)
                taken = hands[0].hand_id
            except Exception as exc:  # not this table's first hand (or not replayable): voided below
                log.warning("table %s: hand %s not taken over after the restart (%s)", table.id,
                            hands[0].hand_id, type(exc).__name__)
    voided = [h for h in hands if h.hand_id != taken]
    for h in voided:
        try:
            await _void(store, table, h)
        except Exception:  # (left open: the table plays on under another match id, an operator sees the hand)
            log.exception("table %s: hand %s could not be voided", table.id, h.hand_id)
    if taken is None:
        if voided:  # the hand its escapers left is settled (void, no penalty): what was held for them is free
            host.manager.settled(table)
        session.start()
        runner = session.runner  # (not run yet: no await since it was built) its first hand is a fresh one
        # a hand of this table in the store keeps its id: voided here, or by a resume a second kill cut short
        # before its save (an arranged table's match id is its table id, so its fresh first hand would clash)
        known = set(getattr(rec, "hand_ids", ()) or ()) | {h.hand_id for h in voided}
        base, k = runner.match.match_id, len(known)
        while runner.match.next_context().hand_id in known:
            runner.match.match_id = f"{base}.{k}"
            k += 1
    else:
        log.warning("table %s: hand %s taken over after a restart before its runner's first save", table.id, taken)
    await host.save(table)  # its runner's state (seed, hand) from now on
    return bool(voided) or untold


async def _run_again(host: Any, rec: Any, table: Table, runner_state: dict | None) -> None:
    """Run a resumed table's runner again: from its stored state, or afresh when there is none (see above)."""
    events: list[dict] = []
    if runner_state:
        hid = runner_state.get("hand_id")
        if hid:
            events = await stored_events(host.bot.store, hid)
        else:
            runner_state, events = await dealt_unsaved(host.bot.store, table, runner_state)
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
    voided = False
    if runner_state:
        session.start(runner_state=runner_state, events=events)
    else:
        voided = await _first_hand(host, rec, table, session)
    session.refresh()  # fresh panels (countdowns); buttons from before work only if their actions still hold
    ch = session.channel()
    try:
        if voided:  # (a DM table's players too: their hand went)
            await ch.send(t("bot.table.restart_void", table.lang, table=table.id),
                          allowed_mentions=discord.AllowedMentions.none())
        elif not table.dm:  # (in DMs the panel and the table message edited again say it)
            await ch.send(t("bot.dm.resumed", table.lang))
    except discord.HTTPException:
        log.warning("could not announce the resume of table %s", table.id)
