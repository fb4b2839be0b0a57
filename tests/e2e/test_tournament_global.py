"""End to end: a global event (issue 32, "across servers"; docs/tournaments.md, "Events across servers") on a
PostgreSQL store with ``SILVER_SCOPE=global``. Players of two servers register in one event by its id (the
Register button on its own server, ``/比赛 报名 比赛:<id>`` on the other; one whose DMs are closed is refused), the
round's table opens in the four players' DMs (each gets the table message and their panel by DM, and a DM
saying the round began with their table), the round ends, the standings are the stored hands' sums, in the
event's channel and in each player's DM."""

from __future__ import annotations

import re
from fractions import Fraction

import asyncpg
import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import BOT_ARGV, fast_env, gather_players, said
from tests.e2e.test_tournament import MANAGE_GUILD, standings_lines
from tests.pgdb import fresh_database

pytestmark = pytest.mark.e2e


async def stored_totals(dsn: str) -> tuple[dict[str, int], int]:
    """Each seat name's sum of deltas over the settled hands (from the stored results alone)."""
    import json

    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT result FROM hands WHERE status = 'settled'")
    finally:
        await conn.close()
    out: dict[str, int] = {}
    for r in rows:
        res = json.loads(r["result"])
        view = res.get("result") if isinstance(res.get("result"), dict) else res
        for p in view["payments"]:
            out[p["name"]] = out.get(p["name"], 0) + int(p["delta"])
    return out, len(rows)


async def test_a_global_event_across_two_servers_plays_its_tables_in_dms(double, start_bot):
    dsn = await fresh_database()
    ga, gb = double.add_guild("server a"), double.add_guild("server b")
    cha, chb = double.add_text_channel(ga, "mahjong"), double.add_text_channel(gb, "mahjong")
    ann, bo = (Player.join(double, n, ga, cha) for n in ("ann", "bo"))
    cy = Player.join(double, "cy", gb, chb)
    di = Player.join(double, "di", gb, chb, locale="en-US")  # told in English: the DMs, the panel
    shut = Player.join(double, "ed", gb, chb, dms_open=False)
    admin, badmin = Player.join(double, "admin", ga, cha), Player.join(double, "badmin", gb, chb)
    for g, p in ((ga, admin), (gb, badmin)):
        role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
        g.roles[role.id] = role
        g.members[p.id].roles.append(role.id)
    bot = await start_bot(BOT_ARGV, env=fast_env(dsn, SILVER_SCOPE="global", JXBOT_COMPUTER_DELAY="0.05",
                                                 JXBOT_OWNER_IDS=str(badmin.id)))
    await double.wait_commands(timeout=40)
    await bot.wait_log("ready: every table resumed", timeout=40)

    # a global event played for silver is the bot owner's; a points-only one a server manager's
    refused = await admin.slash("tournament create", name="world", rounds=1, hands=1, stake=5, scope="global")
    assert "所有者" in await said(refused)
    staked = await badmin.slash("tournament create", name="silver", rounds=1, hands=1, stake=5, scope="global")
    assert "比赛已创建" in await said(staked)  # the bot's owner (JXBOT_OWNER_IDS), here a manager of server b
    silver = await badmin.wait_message(lambda m: "**silver**" in m.content, chb)
    assert "🌐" in silver.content and "底分 5" in silver.content
    assert "已取消" in await said(await badmin.slash("比赛 取消", 比赛=re.search(r"编号 `([0-9a-f]+)`", silver.content).group(1)))
    act = await admin.slash("tournament create", name="world", rounds=1, hands=1, scope="global")
    await act.settled()
    ann_msg = await admin.wait_message(lambda m: "🏆" in m.content, cha)
    assert "🌐" in ann_msg.content
    event_id = re.search(r"编号 `([0-9a-f]+)`", ann_msg.content).group(1)
    # a server's own event stays invisible to the other server
    local = await admin.slash("tournament create", name="local", rounds=1, hands=1)
    await local.settled()
    loc = await admin.wait_message(lambda m: "**local**" in m.content, cha)
    local_id = re.search(r"编号 `([0-9a-f]+)`", loc.content).group(1)
    assert "没有这场比赛" in await said(await cy.slash("比赛 报名", 比赛=local_id))
    assert "已取消" in await said(await admin.slash("比赛 取消", 比赛=local_id))

    # server a: the Register button; server b: by the event's id
    assert "报名成功" in await said(await ann.click(ann_msg, label="报名"))
    assert "报名成功" in await said(await bo.slash("比赛 报名", 比赛=event_id))
    assert "报名成功" in await said(await cy.slash("比赛 报名", 比赛=event_id))
    assert "You are registered" in await said(await di.slash("tournament join", event=event_id))
    for p in (ann, bo, cy):  # the registration is confirmed by DM (its tables will be there)
        await p.wait_dm(lambda m: event_id in m.content and "私信" in m.content)
    await di.wait_dm(lambda m: event_id in m.content and "played in DMs" in m.content)
    assert "无法私信" in await said(await shut.slash("比赛 报名", 比赛=event_id))  # DMs closed: refused
    # withdrawing, registering again and checking in work from the other server too
    assert "withdrawn" in await said(await di.slash("tournament leave", event=event_id))
    assert "You are registered" in await said(await di.slash("tournament join", event=event_id))
    assert "Checked in" in await said(await di.slash("tournament checkin", event=event_id))
    # the announcement on server a counts the registrations of both servers
    await double.wait_for(lambda: "已报名 4 人" in ann_msg.content or None, 10, "the announcement's count")
    # only the event's own server starts or cancels it (not the other server's managers)
    assert "创建它的服务器" in await said(await badmin.slash("比赛 取消", 比赛=event_id))
    assert "创建它的服务器" in await said(await badmin.slash("比赛 开始", 比赛=event_id))

    aps = [AutoPlayer(p, Style()).start() for p in (ann, bo, cy, di)]
    assert "比赛开始" in await said(await admin.slash("比赛 开始", 比赛=event_id), timeout=15)
    for p, begins, table in [(ann, "第 1 轮开始", "第 1 桌"), (bo, "第 1 轮开始", "第 1 桌"),
                             (cy, "第 1 轮开始", "第 1 桌"), (di, "round 1 begins", "table 1")]:
        told = await p.wait_dm(lambda m, begins=begins: begins in m.content, timeout=20)
        assert table in told.content and all(n in told.content for n in ("ann", "bo", "cy", "di"))
    for p in (ann, bo, cy, di):
        # the table message (the table's picture) and the player's own panel, both in their DM
        await p.wait_dm(lambda m: any(a.filename == "table.png" for a in m.attachments), timeout=30)
        pm = await p.wait_dm(lambda m: any(a.filename == "hand.png" for a in m.attachments), timeout=30)
        assert pm.content.startswith("Your hand" if p is di else "你的手牌"), pm.content  # in their language
    assert not [m for m in chb.messages if m.attachments], "nothing of the table in server b's channel"

    end = await admin.wait_message(lambda m: "结束！" in m.content, cha, timeout=120)
    board = await admin.wait_message(lambda m: m.content.startswith("**world**") and m.image() is not None
                                     and m.id > end.id, cha, timeout=20)
    await gather_players(aps)
    totals, n_hands = await stored_totals(dsn)
    assert n_hands == 1
    shown = standings_lines(board.content)
    assert {n: int(v[1]) for n, v in shown.items()} == totals and set(totals) == {"ann", "bo", "cy", "di"}
    assert sum(totals.values()) == 0
    ranks = sorted(shown.values(), key=lambda v: v[0])
    assert all(a[1] >= b[1] for a, b in zip(ranks, ranks[1:], strict=False))
    assert all(v[2] and len(v[2]) == 1 for v in shown.values())
    for p, over in [(ann, "结束！"), (bo, "结束！"), (cy, "结束！"), (di, "is over!")]:  # the end and final standings
        dm = await p.wait_dm(lambda m, over=over: over in m.content, timeout=20)
        assert standings_lines(dm.content) == shown, dm.content
    # the standings from the other server, by the event's id
    again = await said(await di.slash("比赛 排名", 比赛=event_id), timeout=20)
    assert standings_lines(again) == shown, again
    assert Fraction(0) == sum(v[1] for v in shown.values())
