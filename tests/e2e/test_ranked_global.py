"""End to end, the cross-server ranked queue (issue 29, docs/ranked.md "The cross-server queue", "Tables in DMs"):
two ``jxbot run`` processes (one Discord shard each) on one PostgreSQL database; four people from two servers (one
on each process) type ``/麻将 排位 范围:全服``; one queue in the database matches them (the shard-1 process, while
the other is stopped for a moment); the table runs in their DMs, every DM press forwarded from the shard-0 process
to the one running it — each DM gets the table picture and the person's own panel, nobody's concealed tiles reach another's DM —;
they play the short ranked match and each global rating changes exactly once. A person whose DMs are closed is
refused with a message saying why. The second test: a DM table's process is killed (SIGKILL) mid-hand and
started again: the match (two hands) resumes, the DM table messages are edited again (none posted twice), the
second hand gets a new one, each rating changes once."""

from __future__ import annotations

import asyncio
import signal

import pytest

from tests.e2e.players import AutoPlayer, Player, Style, message_text
from tests.e2e.scenario import BOT_ARGV, said
from tests.e2e.test_processes import store_check_pg, two_processes
from tests.pgdb import fresh_database

pytestmark = pytest.mark.e2e

ENV = {"JXBOT_COMPUTER_DELAY": "0", "JXBOT_CLAIM_WINDOW": "1", "JXBOT_TURN_SECONDS": "4"}


def table_messages(p: Player) -> list:
    """The table messages in a player's DM: the bot's DMs with the table picture (the panel has its hand.png; a
    replay viewer, opened from a result, is an answer to the player's press)."""
    return [m for m in p.dm_messages() if any(a.filename == "table.png" for a in m.attachments)
            and m.ephemeral_for is None and m.interaction_metadata is None]


def panels(p: Player) -> list:
    return [m for m in p.dm_messages() if any(a.filename == "hand.png" for a in m.attachments)
            and m.ephemeral_for is None and m.interaction_metadata is None]


async def global_rows(dsn: str) -> tuple[list, dict[int, int], int]:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        matches = [tuple(r) for r in await conn.fetch("SELECT match_id, ladder, status FROM ladder_matches")]
        counts = {int(r[0]): int(r[1]) for r in await conn.fetch(
            "SELECT user_id, COUNT(*) FROM ladder_history WHERE ladder = 'global' GROUP BY user_id")}
        queued = int(await conn.fetchval("SELECT COUNT(*) FROM ranked_queue"))
    finally:
        await conn.close()
    return matches, counts, queued


async def queue_one(p: Player):
    act = await p.slash("麻将 排位", 范围="global")
    text = await said(act)
    assert act.ephemeral and ("跨服排位队列" in text or "匹配成功" in text), text
    assert any("跨服排位队列" in m.content for m in p.dm_messages()), "a DM says the table will come there"
    return act


async def queue_globally(double, players: list[Player]) -> list:
    acts = [await queue_one(p) for p in players]
    for act in acts:
        await double.wait_for(lambda act=act: "匹配成功" in message_text(act.message), 30, "told they were matched")
        assert "私信" in message_text(act.message)
    return acts


async def play_out(double, players: list[Player], timeout: float = 150.0) -> list:
    aps = [AutoPlayer(p, Style()).start() for p in players]
    try:
        for p in players:
            await p.wait_dm(lambda m: "牌局结束" in m.content, timeout=timeout)
    finally:
        for ap in aps:
            await ap.stop()
    for ap in aps:
        assert not [c for c in ap.clicks if c[3].failed], ap.errors
    return aps


def assert_dm_table(players: list[Player]) -> None:
    """Each DM: one table message per hand (the same text in every DM: the public view), the player's own panel."""
    shown = []
    for p in players:
        tms = table_messages(p)
        assert len(tms) == 1, (p.name, [m.content for m in tms])  # one hand: one table message, edited
        assert tms[0].edit_count >= 1, "the table message follows the play"
        assert tms[0].image() is not None
        shown.append(tms[0].content)
        mine = panels(p)
        assert mine, f"{p.name} got their panel by DM"
        for m in mine:  # a panel's buttons are the seat's own
            seats = {(b.get("custom_id") or "").split(":")[3] for b in m.buttons()
                     if (b.get("custom_id") or "").startswith("mj:") and len(b["custom_id"].split(":")) == 5}
            assert len(seats) <= 1, seats
    assert len(set(shown)) == 1, "every DM shows the same public table (nobody's concealed tiles)"


async def test_four_people_from_two_servers_queue_globally_and_play_in_their_dms(double, start_bot):
    dsn, (wa, wb), (p0, p1) = await two_processes(double, start_bot, **ENV)
    alice, bob = wa.players[0], wb.players[0]
    carol = Player.join(double, "carol", wa.guild, wa.channel)
    dave = Player.join(double, "dave", wb.guild, wb.channel)
    closed = Player.join(double, "erin", wb.guild, wb.channel, dms_open=False)
    act = await closed.slash("麻将 排位", 范围="global")
    assert "私信" in await said(act) and "允许" in await said(act), act.texts()
    players = [alice, bob, carol, dave]
    # alice and carol queue through the shard-0 process; while it is stopped (SIGSTOP, a few seconds) bob and dave
    # queue through the shard-1 process, which matches the four: the table runs there, and every DM press (Discord
    # sends them all to shard 0) is forwarded to it
    acts = [await queue_one(p) for p in (alice, carol)]
    assert p0.proc is not None
    p0.proc.send_signal(signal.SIGSTOP)
    try:
        acts += [await queue_one(p) for p in (bob, dave)]
        await p1.wait_log("opened in DMs", timeout=15)
    finally:
        p0.proc.send_signal(signal.SIGCONT)
    for act in acts:
        await double.wait_for(lambda act=act: "匹配成功" in message_text(act.message), 30, "told they were matched")
        assert "私信" in message_text(act.message)
    matches, counts, _ = await global_rows(dsn)
    assert matches == [] and counts == {}
    for p in players:  # the table's messages come by DM: nothing in the servers' channels
        await p.wait_dm(lambda m: "排位赛开始了" in m.content, timeout=15)
        await p.wait_dm(lambda m: any(a.filename == "table.png" for a in m.attachments), timeout=20)
    aps = await play_out(double, players)
    from jxbot.shell.buttons import ACTION_VERBS

    # (the players' clicks on a result's replay viewer, once their hand is over, are no table's: answered by shard 0)
    moves = [c for ap in aps for c in ap.clicks if c[1] in ACTION_VERBS]
    assert len(moves) >= 4 and all(c[3].interaction.guild is None for c in moves), "DM presses"
    odd = [(c[1], c[3].response_type) for c in moves
           if not (c[3].response_type == 6 and c[3].interaction.shown_at is not None)]
    assert not odd, ("acknowledged by shard 0's process, the panel edited by the process running the table", odd)
    assert_dm_table(players)
    # the hand's Replay, pressed on the result in a player's DM, opens the replay (a DM table's result is bound to
    # its players' DMs)
    res = next(m for m in reversed(carol.dm_messages()) if any(b.get("label") == "回放" for b in m.buttons()))
    act = await carol.click(res, label="回放")
    await act.settled(timeout=15)
    shown = " ".join(act.texts())
    assert "**回放**" in shown and "过期" not in shown, act.texts()
    for w in (wa, wb):
        assert not [m for m in w.channel.messages if "排位赛开始了" in m.content or m.attachments], \
            "no table message in a server's channel"
    await double.wait_for(lambda: True, 1)
    for _ in range(20):
        matches, counts, queued = await global_rows(dsn)
        if matches:
            break
        await asyncio.sleep(0.5)
    assert [(m[1], m[2]) for m in matches] == [("global", "rated")], matches
    assert counts == {p.id: 1 for p in players}, counts  # each global rating changed exactly once
    assert queued == 0, "the queue's rows were cleared once the players were told"
    # the results say the rating changes (in each DM)
    for p in players:
        assert any("排位分" in m.content for m in p.dm_messages()), p.name
    for bot in (p0, p1):
        assert "Traceback" not in bot.log(), bot.tail(80)
    assert "opened in DMs" not in p0.log(), "one process opened the table"
    rc, out = await store_check_pg(dsn)  # the books balance, the cross-server wallets (guild id 1) included
    assert rc == 0, out


async def test_a_dm_table_survives_a_sigkill_without_posting_its_messages_twice(double, start_bot):
    dsn = await fresh_database()
    from tests.e2e.scenario import fast_env

    g = double.add_guild("one", locale="zh-CN")
    ch = double.add_text_channel(g, "mahjong")
    players = [Player.join(double, n, g, ch) for n in ("alice", "bob", "carol", "dave")]
    env = fast_env(dsn, **{**ENV, "JXBOT_MAX_HANDS": "2"})  # two hands: a new table message for the second
    bot = await start_bot(BOT_ARGV, env={"DEV_GUILD_ID": str(g.id), **env})
    await double.wait_commands(timeout=30)
    await bot.wait_log("ready: every table resumed", timeout=30)
    await queue_globally(double, players)
    aps = [AutoPlayer(p, Style()).start() for p in players]
    await double.wait_for(lambda: sum(len(ap.clicks) for ap in aps) >= 6, 60, "a few moves")
    for ap in aps:
        ap.paused = True
    before = {p.id: [m.id for m in table_messages(p)] for p in players}
    assert all(len(v) == 1 for v in before.values()), before
    await bot.kill()
    await bot.start()
    await bot.wait_log("ready: every table resumed", timeout=40)
    for ap in aps:
        ap.paused = False
    double.notify()
    try:
        for p in players:
            await p.wait_dm(lambda m: "牌局结束" in m.content, timeout=150)
    finally:
        for ap in aps:
            await ap.stop()
    after = {p.id: [m.id for m in table_messages(p)] for p in players}
    # the first hand's table message from before the restart was edited, none posted again; the second hand got
    # its own below the first hand's result
    assert {u: ids[:1] for u, ids in after.items()} == before and all(len(ids) == 2 for ids in after.values()), after
    for _ in range(20):
        matches, counts, _ = await global_rows(dsn)
        if matches:
            break
        await asyncio.sleep(0.5)
    assert [(m[1], m[2]) for m in matches] == [("global", "rated")], matches
    assert counts == {p.id: 1 for p in players}, counts
    assert "Traceback" not in bot.log(), bot.tail(80)


async def test_leave_typed_in_a_server_whose_process_does_not_run_the_table_escapes_it(double, start_bot):
    """Alice's server is served by the shard-0 process; her cross-server table runs in the shard-1 process. Her
    ``/麻将 离开`` reached shard 0, which had no table of hers and answered "你不在这张牌桌上" while she sat at
    one: she could not escape. It is forwarded to the process that runs the table: she escapes (a computer plays
    her seat), the others play on, and the match is rated once with her in it."""
    dsn, (wa, wb), (p0, p1) = await two_processes(double, start_bot, **ENV)
    alice, bob = wa.players[0], wb.players[0]
    carol = Player.join(double, "carol", wa.guild, wa.channel)
    dave = Player.join(double, "dave", wb.guild, wb.channel)
    players = [alice, bob, carol, dave]
    acts = [await queue_one(p) for p in (alice, carol)]
    assert p0.proc is not None
    p0.proc.send_signal(signal.SIGSTOP)  # bob and dave queue through the shard-1 process, which matches the four
    try:
        acts += [await queue_one(p) for p in (bob, dave)]
        await p1.wait_log("opened in DMs", timeout=15)
    finally:
        p0.proc.send_signal(signal.SIGCONT)
    for p in players:
        await p.wait_dm(lambda m: any(a.filename == "table.png" for a in m.attachments), timeout=20)
    others = [AutoPlayer(p, Style()).start() for p in (bob, carol, dave)]
    try:
        act = await alice.slash("麻将 离开")
        await act.settled(timeout=15)
        await double.wait_for(lambda: any("逃跑" in x for x in act.texts()), 15, "alice told she escaped")
        assert act.ephemeral and not any("不在" in x for x in act.texts()), act.texts()
        for p in (bob, carol, dave):
            await p.wait_dm(lambda m: "牌局结束" in m.content, timeout=150)
    finally:
        for ap in others:
            await ap.stop()
    for _ in range(20):
        matches, counts, _ = await global_rows(dsn)
        if matches:
            break
        await asyncio.sleep(0.5)
    assert [(m[1], m[2]) for m in matches] == [("global", "rated")], matches
    assert counts == {p.id: 1 for p in players}, counts  # her rating changed once, as the others'
    act = await alice.slash("麻将 离开")  # the match is over: now she sits nowhere, and is told so
    assert "不在" in await said(act), act.texts()
    for bot in (p0, p1):
        assert "Traceback" not in bot.log(), bot.tail(80)
