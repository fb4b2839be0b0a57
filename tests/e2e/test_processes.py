"""Two ``jxbot run`` processes, one Discord shard each, sharing one PostgreSQL database: two servers on
different shards, DM presses forwarded to the process that runs the table, a SIGKILL of one process
mid-hand while the other's table plays on, and the silver of both servers exact (docs/bot.md, "Running
N processes")."""

from __future__ import annotations

import asyncio
import os
import sys
import time

import pytest

from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import (
    BOT_ARGV,
    REPO,
    Recorder,
    World,
    events_of,
    fast_env,
    hands_of,
    open_hand_ids,
    open_table,
    payments,
    result_messages,
    said,
)
from tests.pgdb import fresh_database

pytestmark = pytest.mark.e2e


async def store_check_pg(dsn: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "jxbot.cli", "store", "check", "--db", dsn,
                                                env=env, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, out.decode(errors="replace")


async def open_hand_ids_of(dsn: str, w: World) -> list[str]:
    from jxbot.store import Store

    store = await Store.open(dsn, scope=None)
    try:
        return [h.hand_id for h in await store.open_hands() if h.guild_id == w.guild.id]
    finally:
        await store.close()


async def balance_of(dsn: str, guild_id: int, user_id: int) -> int:
    from jxbot.store import Store

    store = await Store.open(dsn, scope=None)
    try:
        return int(await store.balance(guild_id, user_id))
    finally:
        await store.close()


async def steal_lease(dsn: str, table_id: str | None, seconds: float) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        n = await conn.execute("UPDATE jx_table_leases SET owner = 'elsewhere', expires_at = now() + "
                               "make_interval(secs => $2) WHERE table_id = $1", table_id, seconds)
    finally:
        await conn.close()
    assert n == "UPDATE 1", n


async def two_processes(double, start_bot, **extra: str):
    dsn = await fresh_database()
    double.shard_count = 2
    worlds = []
    for shard, name in ((0, "alice"), (1, "bob")):
        g = double.add_guild(f"shard {shard}", shard=shard)
        ch = double.add_text_channel(g)
        worlds.append(World(double, g, ch, [Player.join(double, name, g, ch)], None, dsn, Recorder(double)))  # type: ignore[arg-type]
    env = fast_env(dsn, **extra)
    bots = [await start_bot([*BOT_ARGV, "--shards", str(i), "--shard-count", "2"], env=env) for i in range(2)]
    await double.wait_for(lambda: len(double.gateway.live_sessions()) == 2, 40, "both processes' shards")
    await double.wait_commands(timeout=40)
    for bot in bots:
        await bot.wait_log("ready: every table resumed", timeout=40)  # the readiness gate open
    for w, bot in zip(worlds, bots, strict=True):
        w.bot = bot
    return dsn, worlds, bots


async def test_two_processes_a_table_each_dm_presses_forwarded_and_a_sigkill(double, start_bot):
    dsn, (wa, wb), (p0, p1) = await two_processes(double, start_bot, JXBOT_COMPUTER_DELAY="0.15")
    assert sorted(s.shard for s in double.gateway.live_sessions()) == [[0, 2], [1, 2]]
    assert double.command_syncs == 1, "the commands were synced once (by shard 0's process)"
    alice, bob = wa.players[0], wb.players[0]
    await open_table(wa)
    await open_table(wb)
    a_ap = AutoPlayer(alice, Style(), think=0.25).start()
    b_ap = AutoPlayer(bob, Style()).start()

    # bob's table runs in the shard-1 process; his DM presses reach shard 0's and are forwarded
    await double.wait_for(lambda: len(b_ap.clicks) >= 3, 40, "bob's first presses")
    b_ap.paused = True
    fwd = [c[3] for c in b_ap.clicks]
    await double.wait_for(lambda: all(a.interaction.shown_at for a in fwd), 10, "the owner's answers")
    assert all(a.interaction.guild is None for a in fwd), "DM presses"
    assert not [a for a in fwd if a.failed], [a.interaction.error for a in fwd]
    assert all(a.response_type == 6 and a.interaction.shown_at is not None for a in fwd), \
        "acknowledged by shard 0's process, the panel edited by the owner"
    assert "cluster: this process is" in p1.log()

    # SIGKILL the process running bob's table mid-hand; alice's table (the other process) never pauses
    bob_hands = [h for h in await open_hand_ids(dsn) if h not in await open_hand_ids_of(dsn, wa)]
    assert len(bob_hands) == 1
    before = await events_of(dsn, bob_hands[0])
    await p1.kill()
    killed = time.monotonic()
    panel = b_ap.panel()
    assert panel is not None  # any of its buttons (a tile, or the auto-win switch)
    press = await bob.click(panel.message, custom_id=next(b.get("custom_id") for b in panel.message.buttons()
                                                          if (b.get("custom_id") or "").startswith("mj:")))
    note = await press.followup(timeout=10)
    assert "正在重启" in note.content and note.ephemeral_for == bob.id, note.content
    alice_before = len(a_ap.clicks)
    await p1.start()
    resumed = await bob.wait_message(lambda m: "重启" in m.content and "继续" in m.content, wb.channel, timeout=45)
    down = time.monotonic() - killed
    alice_during = [c for c in a_ap.clicks[alice_before:] if c[3].interaction.created_at < resumed.created_at]
    a_over = any("牌局结束" in m.content for m in wa.channel.messages)
    assert alice_during or a_over, f"alice's table played on while bob's process was down ({down:.1f} s)"
    assert not [c for c in a_ap.clicks if c[3].failed], "every press of alice's was answered"

    # a lease lost (here: taken over by another owner for 8 s) stops the table in its process at once —
    # never two runners — and the process resumes it from its events when that lease lapses
    await asyncio.sleep(1.0)
    await steal_lease(dsn, wb.table_id, seconds=8)
    await p1.wait_log("another process holds its lease; stopped in this process", timeout=10)
    # stopped here while the store still runs it: its channel, bob's seat and his held silver stay the table's
    create = await bob.slash("麻将 开桌", 底分=1)
    assert "正在重启" in await said(create) and create.ephemeral, create.texts()
    balance = await balance_of(dsn, wb.guild.id, bob.id)
    pay = await bob.slash("pay", user=alice, amount=balance)
    assert "保留" in await said(pay) and pay.ephemeral, pay.texts()
    assert await balance_of(dsn, wb.guild.id, bob.id) == balance
    panel = b_ap.panel()
    assert panel is not None
    press = await bob.click(panel.message, custom_id=next(b.get("custom_id") for b in panel.message.buttons()
                                                          if (b.get("custom_id") or "").startswith("mj:")))
    note = await press.followup(timeout=10)
    assert "正在重启" in note.content, note.content
    n_notices = sum("重启" in m.content and "继续" in m.content for m in wb.channel.messages)
    await double.wait_for(lambda: sum("重启" in m.content and "继续" in m.content for m in wb.channel.messages)
                          > n_notices, 20, "the table resumed once the other lease lapsed")

    # bob plays on after the resume (forwarded again, to the new process) and both matches end
    await asyncio.sleep(1.0)
    b_ap.paused = False
    double.notify()
    for w in (wa, wb):
        await w.players[0].wait_message(lambda m: "牌局结束" in m.content, w.channel, timeout=120)
    for ap in (a_ap, b_ap):
        await ap.stop()
    after = [c[3] for c in b_ap.clicks[len(fwd):]]
    assert after and not [a for a in after if a.failed], "bob's presses work after the restart"

    # one runner at a time: bob's hand went on from where it was and was settled once
    after = await events_of(dsn, bob_hands[0])
    assert after[: len(before)] == before, "resumed where it was, no re-deal, no second runner's events"
    assert [h.hand_id for h in await hands_of(dsn, wb.guild.id, bob.id)] == bob_hands

    # silver across both servers: each result's balances, and the books
    for w in (wa, wb):
        (result,) = result_messages(w)
        name = w.players[0].name
        delta, balance = payments(result)[name]
        assert balance == 1000 + delta, (name, delta, balance)
    rc, out = await store_check_pg(dsn)
    assert rc == 0, out
    for bot in (p0, p1):
        assert "Traceback" not in bot.log(), bot.tail(80)
