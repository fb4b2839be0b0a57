"""End to end, ranked play (issue 29, docs/ranked.md "In Discord"): an admin sets the ranked channel, four
people type ``/麻将 排位`` (each gets a private queue message with a Leave button, refreshed as the queue
fills), the fourth makes a match: a thread of the ranked channel opens with the four of them at a table with
the ladder's settings; they play the short ranked match; each rating changes exactly once; ``/段位`` shows the
picture; the season rolls over. The second test kills the bot (SIGKILL) in the middle of the ranked match and
starts it again: the match resumes and still changes each rating exactly once. The third: a person leaves the
queue with its button; where the bot may not make threads the ranked table plays in the channel itself, and an
admin who stops it leaves every rating unchanged (the match recorded void, the channel told)."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.e2e.double import state as st
from tests.e2e.players import AutoPlayer, Player, Style, message_text
from tests.e2e.scenario import check_png, gather_players, said, start_world, store_check
from tests.e2e.test_admin_tables import make_admin

pytestmark = pytest.mark.e2e

READY = "ready: every table resumed"
ENV = {"JXBOT_COMPUTER_DELAY": "0", "JXBOT_CLAIM_WINDOW": "1", "JXBOT_TURN_SECONDS": "4"}


def thread_of(w, name_part: str = "排位"):
    """The thread the bot opened in the ranked channel for a table."""
    return next((c for c in w.double.channels.values() if c.type == 11 and c.parent_id == w.channel.id
                 and name_part in (c.name or "")), None)


async def queue_four(w, admin: Player) -> list:
    """The admin sets the ranked channel; the four queue, the last one makes the match."""
    done = await said(await admin.slash("管理 设置", 排位频道=w.channel))
    assert "ranked_channel" in done and str(w.channel.id) in done, done
    acts = []
    for i, p in enumerate(w.players):
        act = await p.slash("麻将 排位")
        text = await said(act)
        assert act.ephemeral, act.texts()
        if i < 3:
            assert "排位队列" in text and f"排队 {i + 1} 人" in text, text
            assert any(b.get("label") == "离开队列" for b in act.message.buttons()), act.message.buttons()
        acts.append(act)
    # the first one's queue message was refreshed as the others came (or already says matched)
    first = acts[0]
    await w.double.wait_for(lambda: "匹配成功" in message_text(first.message) or "排队 3 人" in message_text(first.message)
                            or "排队 4 人" in message_text(first.message), 15, "the queue message refreshed")
    for act in acts:
        await w.double.wait_for(lambda act=act: "匹配成功" in message_text(act.message), 20, "told they were matched")
    return acts


def ladder_rows(db) -> tuple[list[tuple], dict[int, int]]:
    """The ladder's matches (id, status) and how many rating-history rows each person has, from the store."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        matches = con.execute("SELECT match_id, status FROM ladder_matches").fetchall()
        counts = dict(con.execute("SELECT user_id, COUNT(*) FROM ladder_history GROUP BY user_id").fetchall())
    finally:
        con.close()
    return matches, {int(k): int(v) for k, v in counts.items()}


def picture_of(act) -> bytes | None:
    i = act.interaction
    return next((m.image() for m in [i.original, *i.followups] if m is not None and m.image()), None)


async def test_four_people_queue_play_a_ranked_match_and_each_rating_changes_once(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "carol", "dave"], env=ENV)
    admin = make_admin(w)
    # leaving the queue works and is said
    act = await w.players[0].slash("麻将 排位")
    assert "排位频道" in await said(act), act.texts()  # no ranked channel yet: told to ask an admin
    await queue_four(w, admin)
    thread = await w.double.wait_for(lambda: thread_of(w), 15, "a thread for the ranked table")
    intro = await w.players[0].wait_message(lambda m: "排位赛开始了" in m.content, thread, timeout=15)
    for p in w.players:
        assert f"<@{p.id}>" in intro.content
    aps = [AutoPlayer(p, Style()) for p in w.players]
    for ap in aps:
        ap.start()
    over = await w.players[0].wait_message(lambda m: "牌局结束" in m.content, thread, timeout=120)
    await gather_players(aps)
    assert over is not None
    # each rating changed exactly once, and the result said so with each person's tier and change
    matches, counts = ladder_rows(w.db)
    assert matches == [(matches[0][0], "rated")], matches
    assert counts == {p.id: 1 for p in w.players}, counts
    rated = await w.players[0].wait_message(lambda m: "排位分变化：" in m.content, thread, timeout=10)
    for p in w.players:
        assert re.search(rf"<@{p.id}> \S+ \d+ \([+-]\d+\)", rated.content), rated.content
    # the tier badge beside each name at the table (the result names them so; the pictures draw the same names)
    results = "\n".join(m.content or "" for m in thread.messages)
    assert all(f"{p.name} · 新人" in results for p in w.players), results[-600:]
    # /段位 shows the picture
    rank = await w.players[1].slash("段位")
    text = await said(rank)
    assert "排位分" in text and f"<@{w.players[1].id}>" in text, text
    await w.double.wait_for(lambda: picture_of(rank) is not None, 10, "the rank picture")
    assert check_png(picture_of(rank))[0] == 720
    # the board by rating, then the season rolls over: the new season's board is empty, the old one kept
    board = await said(await w.players[2].slash("排行榜", 类别="rating"))
    assert "第 1 赛季" in board and all(f"<@{p.id}>" in board for p in w.players), board
    rolled = await said(await admin.slash("管理 赛季", 操作="start"))
    assert "第 2 赛季开始了" in rolled, rolled
    assert "还没有人打过排位赛" in await said(await w.players[2].slash("排行榜", 类别="rating"))
    old = await said(await w.players[2].slash("排行榜", 类别="rating", 赛季=1))
    assert "第 1 赛季" in old and all(f"<@{p.id}>" in old for p in w.players), old
    # seasons on a schedule: the answer says when this one ends (a Discord timestamp); without days, what to give
    assert "1 到 365" in await said(await admin.slash("管理 赛季", 操作="schedule"))
    planned = await said(await admin.slash("管理 赛季", 操作="schedule", 天数=30))
    assert "每个赛季 30 天" in planned and "<t:" in planned, planned
    assert "不再定期换季" in await said(await admin.slash("管理 赛季", 操作="schedule", 天数=0))
    rc, out = await store_check(w.db)
    assert rc == 0, out


async def test_a_ranked_match_killed_in_the_middle_resumes_and_rates_each_person_once(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "carol", "dave"], env=ENV)
    admin = make_admin(w)
    await queue_four(w, admin)
    thread = await w.double.wait_for(lambda: thread_of(w), 15, "a thread for the ranked table")
    await w.players[0].wait_message(lambda m: "排位赛开始了" in m.content, thread, timeout=15)
    aps = [AutoPlayer(p, Style()) for p in w.players]
    for _ in range(2):  # a few moves into the hand
        for ap in aps:
            await ap.step()
    await w.bot.kill()  # SIGKILL in the middle of the ranked match
    assert ladder_rows(w.db) == ([], {}), "nothing rated before the match ends"
    await w.bot.start()
    await w.bot.wait_log("resumed 1 table", timeout=60)
    await w.players[0].wait_message(lambda m: "重启" in m.content, thread, timeout=30)
    for ap in aps:
        ap.start()
    await w.players[0].wait_message(lambda m: "牌局结束" in m.content, thread, timeout=120)
    await gather_players(aps)
    matches, counts = ladder_rows(w.db)
    assert len(matches) == 1 and matches[0][1] == "rated", matches
    assert counts == {p.id: 1 for p in w.players}, counts
    rated = [m for m in thread.messages if "排位分变化：" in (m.content or "")]
    assert len(rated) == 1, [m.content for m in rated]
    rc, out = await store_check(w.db)
    assert rc == 0, out


async def test_leaving_the_queue_and_a_ranked_table_stopped_by_an_admin_in_the_channel_changes_no_rating(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob", "carol", "dave", "erin"], env=ENV)
    admin = make_admin(w)
    await said(await admin.slash("管理 设置", 排位频道=w.channel))
    erin = w.players[4]
    act = await erin.slash("麻将 排位")
    assert "新人 0" in await said(act)  # their tier badge and rating
    left = await erin.click(act.message, label="离开队列")
    await w.double.wait_for(lambda: "已离开排位队列" in message_text(act.message), 10, "the queue message says left")
    assert left.response_type == 7, left.response_type
    w.players = w.players[:4]
    # the bot may not make threads in the ranked channel: the table plays in the channel itself
    double.deny_permissions(w.channel, perms=st.CREATE_PUBLIC_THREADS)
    await asyncio.sleep(0.5)
    await queue_four(w, admin)
    thread = w.channel
    intro = await w.players[0].wait_message(lambda m: "排位赛开始了" in m.content, thread, timeout=15)
    assert thread_of(w) is None
    assert f"<@{erin.id}>" not in intro.content
    table_id = re.search(r"牌桌 ([0-9a-z]+)", intro.content).group(1)
    done = await said(await admin.slash("管理 关桌", 牌桌=table_id))
    assert "已" in done, done
    await w.players[0].wait_message(lambda m: "所有人的排位分都不变" in m.content, thread, timeout=15)
    matches, counts = ladder_rows(w.db)
    assert matches == [(table_id, "void")] and counts == {}, (matches, counts)
