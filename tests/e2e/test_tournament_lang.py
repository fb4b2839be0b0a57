"""End to end: an event's channel texts are in its server's language (issue 32, "Everything localized";
docs/tournaments.md), and a substituted player comes back (issue 32, "No-shows and leavers").

Two servers, one bot (its own language ``JXBOT_LANG``: Chinese, the default): an English server and a Chinese
one, each creating an event by an admin whose own client speaks the other language. Each event's announcement
(and its Register button), its round and end announcements, its tables' channel texts and its standings picture
are in the server's language — also those the bot posts after a restart, from the stored event alone. The
replies to each person stay in their own language.

On the English server bo registers but does not check in: a computer plays bo's seat in round 1; bo checks in
during round 1 and is seated in person in round 2, keeping the round-1 result.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import BOT_ARGV, fast_env, gather_players, said
from tests.e2e.test_tournament import MANAGE_GUILD, standings_lines

pytestmark = pytest.mark.e2e


def admin_of(double, guild, channel, name: str, locale: str) -> Player:
    p = Player.join(double, name, guild, channel, locale=locale)
    role = st.Role(st.snowflake(), "admins", MANAGE_GUILD, 2)
    guild.roles[role.id] = role
    guild.members[p.id].roles.append(role.id)
    return p


def threads_of(double, channel) -> list:
    return sorted((c for c in double.channels.values() if c.parent_id == channel.id), key=lambda c: c.id)


async def picture_of(action) -> bytes:
    """The standings picture a ``/tournament standings`` answered with."""
    await said(action, timeout=20)
    i = action.interaction
    for m in [i.original, *i.followups]:
        if m is not None and m.image() is not None:
            return m.image()
    raise AssertionError("no picture in the answer")


async def test_each_event_speaks_its_server_s_language_and_a_substitute_comes_back(double, start_bot, tmp_path):
    ga, gb = double.add_guild("english server", locale="en-US"), double.add_guild("chinese server", locale="zh-CN")
    cha, chb = double.add_text_channel(ga, "mahjong"), double.add_text_channel(gb, "mahjong")
    admin_a = admin_of(double, ga, cha, "admin_a", "zh-CN")  # creates the English server's event, reads Chinese
    ann, bo = Player.join(double, "ann", ga, cha, locale="en-US"), Player.join(double, "bo", ga, cha)
    admin_b = admin_of(double, gb, chb, "admin_b", "en-US")  # creates the Chinese server's event, reads English
    cy, di = Player.join(double, "cy", gb, chb), Player.join(double, "di", gb, chb, locale="en-US")
    bot = await start_bot(BOT_ARGV, env=fast_env(tmp_path / "jxbot.sqlite3", JXBOT_EVENT_TICK="600"))
    await double.wait_commands(timeout=40)
    await bot.wait_log("ready: every table resumed", timeout=40)

    # the English server's event: check-in needed (open from registration on: no scheduled start)
    assert "比赛已创建" in await said(await admin_a.slash("比赛 创建", 名称="cup", 轮数=2, 每桌局数=1, 签到时长=30))
    ann_a = await admin_a.wait_message(lambda m: "🏆" in m.content, cha)
    assert "(id `" in ann_a.content and "Walls commitment" in ann_a.content and "rounds" in ann_a.content, ann_a.content
    assert [b.get("label") for b in ann_a.buttons()] == ["Register"]
    event_a = re.search(r"id `([0-9a-f]+)`", ann_a.content).group(1)
    # the Chinese server's event: registering is checking in
    assert "Event created" in await said(await admin_b.slash("tournament create", name="cup", rounds=2, hands=1))
    ann_b = await admin_b.wait_message(lambda m: "🏆" in m.content, chb)
    assert "编号 `" in ann_b.content and "牌墙承诺" in ann_b.content, ann_b.content
    assert [b.get("label") for b in ann_b.buttons()] == ["报名"]

    assert "You are registered" in await said(await ann.click(ann_a, label="Register"))
    assert "报名成功" in await said(await bo.slash("比赛 报名"))
    assert "Checked in" in await said(await ann.slash("tournament checkin"))  # bo does not check in
    assert "报名成功" in await said(await cy.click(ann_b, label="报名"))
    assert "You are registered" in await said(await di.slash("tournament join"))
    await double.wait_for(lambda: "2 registered" in ann_a.content or None, 10, "the English announcement's count")
    await double.wait_for(lambda: "已报名 2 人" in ann_b.content or None, 10, "the Chinese announcement's count")

    assert "比赛开始" in await said(await admin_a.slash("比赛 开始"), timeout=15)
    assert "has started" in await said(await admin_b.slash("tournament start"), timeout=15)
    await admin_a.wait_message(lambda m: "round 1 begins" in m.content, cha, timeout=20)
    await admin_b.wait_message(lambda m: "第 1 轮开始" in m.content, chb, timeout=20)
    # a newer event opens in the same server meanwhile (registering is checking in there)
    assert "比赛已创建" in await said(await admin_a.slash("比赛 创建", 名称="next", 轮数=1, 每桌局数=1))
    # bo turns up during round 1: a computer finishes it for them, they play round 2 in person — their check-in
    # without an id reaches the event they are registered in, not the newer open one (which said "not open")
    # first he registers in the newer one too, and thinks better of it: his leave without an id is of the open one
    # (it went to the running cup, where he never checked in, and said "the event has already started")
    assert "报名成功" in await said(await bo.slash("比赛 报名"))
    assert "已取消报名" in await said(await bo.slash("比赛 退出"))
    back = await said(await bo.slash("比赛 签到"))
    assert "签到成功" in back and "第 2 轮" in back, back
    assert "比赛已取消" in await said(await admin_a.slash("比赛 取消"))  # the newer one: the server's latest

    # the bot dies during round 1, wherever its tables are (a table killed between its deal and its runner's first
    # save plays on too: docs/table.md, "Restart windows"): all that follows is posted by a new process, from the
    # stored events
    n = bot.log().count("ready: every table resumed")
    await bot.kill()
    await bot.start()
    for _ in range(600):
        if bot.log().count("ready: every table resumed") > n:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(bot.tail())
    aps = [AutoPlayer(p, Style()).start() for p in (ann, bo, cy, di)]

    r2a = await admin_a.wait_message(lambda m: "round 2 begins" in m.content, cha, timeout=120)
    r2b = await admin_b.wait_message(lambda m: "第 2 轮开始" in m.content, chb, timeout=120)
    end_a = await admin_a.wait_message(lambda m: "is over!" in m.content and "Walls secret" in m.content, cha,
                                       timeout=120)
    end_b = await admin_b.wait_message(lambda m: "结束！" in m.content and "牌墙密钥" in m.content, chb, timeout=120)
    board_a = await admin_a.wait_message(lambda m: m.content.startswith("**cup**") and m.image() is not None
                                         and m.id > end_a.id, cha, timeout=20)
    board_b = await admin_b.wait_message(lambda m: m.content.startswith("**cup**") and m.image() is not None
                                         and m.id > end_b.id, chb, timeout=20)
    await gather_players(aps)
    assert r2a.id < end_a.id and r2b.id < end_b.id
    assert not [m for m in cha.messages if "轮开始" in m.content or "结束！" in m.content]
    assert not [m for m in chb.messages if "begins" in m.content or "is over" in m.content]

    # the tables' channel texts too; bo's seat a computer's in round 1, bo in person in round 2
    t1, t2 = threads_of(double, cha)
    opened1 = next(m for m in t1.messages if "Table opened" in m.content)
    opened2 = next(m for m in t2.messages if "Table opened" in m.content)
    assert opened1.pinged_users() == {ann.id} and opened2.pinged_users() == {ann.id, bo.id}
    assert all(any("对局开始" in m.content for m in th.messages) for th in threads_of(double, chb))
    shown = standings_lines(board_a.content)
    assert set(shown) == {"ann", "bo"} and len(shown["bo"][2]) == 2  # bo keeps the round-1 result

    # the standings picture: the one a reader of the server's language gets, not the other language's
    assert await picture_of(await ann.slash("tournament standings", event=event_a)) == board_a.image()
    assert await picture_of(await bo.slash("比赛 排名")) != board_a.image()
    assert await picture_of(await cy.slash("比赛 排名")) == board_b.image()
    assert await picture_of(await di.slash("tournament standings")) != board_b.image()
