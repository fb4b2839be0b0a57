"""End to end: a global event run by two ``jxbot run`` processes (one Discord shard each) sharing one PostgreSQL
store (docs/tournaments.md, "Events across servers"). Server a is shard 0's, server b shard 1's. The event waits
for late players (no substitutes): at the start one table opens in shard 0's process; server b's late player
checks in there (process 1), which opens their table — in process 1, in DMs. Both tables end, one in each
process, and the event ends once: one end announcement, one end DM for each player, the standings the stored
hands' sums."""

from __future__ import annotations

import re

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import BOT_ARGV, fast_env, gather_players, said
from tests.e2e.test_tournament import MANAGE_GUILD, standings_lines
from tests.e2e.test_tournament_global import stored_totals
from tests.pgdb import fresh_database

pytestmark = pytest.mark.e2e


async def two_servers(double, start_bot, **env: str):
    """Server a (shard 0's process) with ann, bo, eve and an admin; server b (shard 1's) with cy and di; both
    processes on one fresh PostgreSQL store, ready. Returns (dsn, bots, cha, b_people, people, admin)."""
    dsn = await fresh_database()
    double.shard_count = 2
    ga, gb = double.add_guild("server a", shard=0), double.add_guild("server b", shard=1)
    cha, chb = double.add_text_channel(ga, "mahjong"), double.add_text_channel(gb, "mahjong")
    a_people = [Player.join(double, n, ga, cha) for n in ("ann", "bo", "eve")]
    b_people = [Player.join(double, n, gb, chb) for n in ("cy", "di")]
    people = a_people + b_people
    admin = Player.join(double, "admin", ga, cha)
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    ga.roles[role.id] = role
    ga.members[admin.id].roles.append(role.id)
    # several processes keep silver per server (cogs/cluster.py): a points-only global event needs only the shared store
    env = fast_env(dsn, **env)
    bots = [await start_bot([*BOT_ARGV, "--shards", str(i), "--shard-count", "2"], env=env) for i in range(2)]
    await double.wait_for(lambda: len(double.gateway.live_sessions()) == 2, 40, "both processes' shards")
    await double.wait_commands(timeout=40)
    for bot in bots:
        await bot.wait_log("ready: every table resumed", timeout=40)
    return dsn, bots, cha, b_people, people, admin


async def test_a_global_event_s_tables_end_in_two_processes_and_it_ends_once(double, start_bot):
    dsn, bots, cha, b_people, people, admin = await two_servers(double, start_bot, JXBOT_COMPUTER_DELAY="0.05")
    cy = b_people[0]

    staked = await admin.slash("tournament create", name="duo", stake=5, scope="global")
    assert "SILVER_SCOPE=global" in await said(staked)  # for silver: one wallet everywhere is needed
    act = await admin.slash("tournament create", name="duo", rounds=1, hands=1, checkin=30, substitute=False,
                            scope="global")
    await act.settled()
    ann_msg = await admin.wait_message(lambda m: "🏆" in m.content, cha)
    event_id = re.search(r"编号 `([0-9a-f]+)`", ann_msg.content).group(1)
    for p in people:  # server b's registrations are answered by process 1, from the same store
        assert "报名成功" in await said(await p.slash("比赛 报名", 比赛=event_id)), p.name
    for p in people[:-2] + [b_people[1]]:  # everyone checks in but cy
        assert "签到成功" in await said(await p.slash("比赛 签到", 比赛=event_id)), p.name
    aps = [AutoPlayer(p, Style()).start() for p in people]
    assert "比赛开始" in await said(await admin.slash("比赛 开始", 比赛=event_id), timeout=15)
    await cy.wait_dm(lambda m: "第 1 轮开始" in m.content, timeout=20)
    # cy's table waits for them (the other opened in process 0, the start's)
    assert not any(a.filename == "table.png" for m in cy.dm().messages for a in m.attachments)
    assert "签到成功" in await said(await cy.slash("比赛 签到", 比赛=event_id), timeout=15)  # process 1
    await cy.wait_dm(lambda m: any(a.filename == "table.png" for a in m.attachments), timeout=30)
    await cy.wait_dm(lambda m: any(a.filename == "hand.png" for a in m.attachments), timeout=30)

    end = await admin.wait_message(lambda m: "结束！" in m.content, cha, timeout=150)
    board = await admin.wait_message(lambda m: m.content.startswith("**duo**") and m.image() is not None
                                     and m.id > end.id, cha, timeout=20)
    await gather_players(aps)
    totals, n_hands = await stored_totals(dsn)
    assert n_hands == 2
    shown = standings_lines(board.content)
    assert set(shown) == {p.name for p in people}
    assert {n: int(v[1]) for n, v in shown.items()} == {n: totals[n] for n in shown}
    assert sum("结束！" in m.content for m in cha.messages) == 1, "the end announced once"
    for p in people:
        dm = await p.wait_dm(lambda m: "结束！" in m.content, timeout=20)
        assert standings_lines(dm.content) == shown
        assert sum("结束！" in m.content for m in p.dm().messages) == 1, p.name
    assert "Traceback" not in bots[0].log() + bots[1].log()
    # each process opened (and so ran) one of the two tables: the start's in process 0, cy's in process 1
    for bot in bots:
        assert len(re.findall(rf"event {event_id}: round 1 table \d is table \S+ \(in DMs\)", bot.log())) == 1


async def test_a_global_event_cancelled_in_one_process_stops_its_table_in_the_other(double, start_bot):
    """The same two processes: cy's table runs in process 1 (in DMs), the admin cancels the event in server a
    (process 0). Process 0 stopped only its own tables and cy's played on for an event that was gone. Now
    process 1 sees the cancel at its next tick: cy's table is stopped, its hand void, cy told; the other table
    stopped at once."""
    dsn, bots, cha, b_people, people, admin = await two_servers(double, start_bot, JXBOT_COMPUTER_DELAY="0.3",
                                                                 JXBOT_EVENT_TICK="1", JXBOT_TURN_SECONDS="60")
    cy = b_people[0]
    act = await admin.slash("tournament create", name="duo", rounds=1, hands=4, checkin=30, substitute=False,
                            scope="global")
    await act.settled()
    ann_msg = await admin.wait_message(lambda m: "🏆" in m.content, cha)
    event_id = re.search(r"编号 `([0-9a-f]+)`", ann_msg.content).group(1)
    for p in people:
        assert "报名成功" in await said(await p.slash("比赛 报名", 比赛=event_id)), p.name
    for p in people[:-2] + [b_people[1]]:
        assert "签到成功" in await said(await p.slash("比赛 签到", 比赛=event_id)), p.name
    assert "比赛开始" in await said(await admin.slash("比赛 开始", 比赛=event_id), timeout=15)
    await cy.wait_dm(lambda m: "第 1 轮开始" in m.content, timeout=20)
    assert "签到成功" in await said(await cy.slash("比赛 签到", 比赛=event_id), timeout=15)  # process 1 opens it
    await cy.wait_dm(lambda m: any(a.filename == "hand.png" for a in m.attachments), timeout=30)
    await bots[1].wait_log("(in DMs)", timeout=10)
    # nobody presses: the tables wait for their people (60 s turns), the admin cancels in server a
    assert "取消" in await said(await admin.slash("比赛 取消", 比赛=event_id), timeout=15)
    stop = await cy.wait_dm(lambda m: "管理员停止了牌桌" in m.content, timeout=20)
    assert "作废" in stop.content
    for p in people:  # every player told by DM (server b's do not see the event's channel)
        told = await p.wait_dm(lambda m: "已被管理员取消" in m.content, timeout=10)
        assert "**duo**" in told.content and not told.pinged_users()
    await bots[1].wait_log(f"event {event_id} was cancelled elsewhere: 1 table(s) of it stopped here", timeout=5)
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        running = await conn.fetchval("SELECT COUNT(*) FROM tables WHERE status = 'running'")
        open_hands = await conn.fetchval("SELECT COUNT(*) FROM hands WHERE status <> 'settled'")
    finally:
        await conn.close()
    assert (running, open_hands) == (0, 0), "every table of the event stopped, every hand settled (void)"
    assert "Traceback" not in bots[0].log() + bots[1].log()
