"""End to end: an event's clock (issue 32; docs/tournaments.md "No-shows, leavers, restarts").

* Check-in opens only ``checkin`` minutes before the scheduled start: earlier, ``/比赛 签到`` is refused with the
  time it opens (a Discord timestamp); when it opens, one post in the event's channel reminds the registered
  players who have not checked in — and pings only them.
* Without substitutes a table waits for its no-show at most ``wait`` minutes; then a computer plays the seat,
  the channel is told, and the table opens and plays to the end.

The bot checks its events once at start and then every ``JXBOT_EVENT_TICK`` seconds (here 600: only at start), so
every step here happens after a restart, from the stored times alone; time passes by moving the stored times
(the bot is stopped while they are moved).
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import gather_players, said, start_world
from tests.e2e.test_tournament import make_admin

pytestmark = pytest.mark.e2e

NAMES = ["ann", "bo", "cy", "di"]


def event_row(db, event_id: str) -> tuple[dict, dict]:
    con = sqlite3.connect(str(db))
    try:
        config, state = con.execute("SELECT config, state FROM events WHERE event_id = ?", (event_id,)).fetchone()
    finally:
        con.close()
    return json.loads(config), json.loads(state)


def move_times(db, event_id: str, *, start_at: float | None = None, wait_until: float | None = None) -> None:
    config, state = event_row(db, event_id)
    if start_at is not None:
        config["start_at"] = start_at
    if wait_until is not None:
        state["wait_until"] = wait_until
    con = sqlite3.connect(str(db))
    try:
        con.execute("UPDATE events SET config = ?, state = ? WHERE event_id = ?",
                    (json.dumps(config), json.dumps(state), event_id))
        con.commit()
    finally:
        con.close()


async def restart(w) -> None:
    """Kill the bot and start it again; back once it has resumed its tables (and looked at its events)."""
    n = w.bot.log().count("ready: every table resumed")
    await w.bot.kill()
    await w.bot.start()
    for _ in range(600):
        if w.bot.log().count("ready: every table resumed") > n:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(w.bot.tail())


async def test_check_in_window_reminder_and_a_waiting_tables_limit(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, NAMES, env={"JXBOT_EVENT_TICK": "600"})
    admin = make_admin(w)
    ann, bo, cy, di = w.players
    act = await admin.slash("tournament create", name="cup", rounds=1, hands=1, start_in=120, checkin=30,
                            substitute=False, **{"等待时长": 5})  # ``wait`` (slash's own keyword)
    await act.settled()
    ann_msg = await admin.wait_message(lambda m: "🏆" in m.content, w.channel)
    event_id = re.search(r"编号 `([0-9a-f]+)`", ann_msg.content).group(1)
    config, _ = event_row(w.db, event_id)
    opens = int(config["start_at"] - 30 * 60)
    assert f"签到开放：<t:{opens}:f>" in ann_msg.content  # the announcement says when check-in opens
    for p in w.players:
        assert "报名成功" in await said(await p.slash("比赛 报名"))

    # an hour and a half before the start: check-in is not open, and the answer says when it opens
    early = await said(await ann.slash("比赛 签到"))
    assert "签到尚未开放" in early and f"<t:{opens}:f>" in early and f"<t:{opens}:R>" in early, early

    # time passes: the window opened a moment ago; ann checks in before the bot looks at its events again
    move_times(w.db, event_id, start_at=time.time() + 30 * 60 - 5)
    assert "签到成功" in await said(await ann.slash("比赛 签到"))
    assert not [m for m in w.channel.messages if "⏰" in m.content]  # not yet reminded
    await restart(w)  # the bot looks at its events at start: the reminder is due
    reminder = await admin.wait_message(lambda m: "⏰" in m.content, w.channel, timeout=20)
    assert "签到已开放" in reminder.content
    # it names, and pings, exactly the registered players not checked in
    assert reminder.pinged_users() == {bo.id, cy.id, di.id}, (reminder.content, reminder.allowed_mentions)
    assert f"<@{ann.id}>" not in reminder.content

    # bo and cy check in; di never does. The start comes (substitute off: the table waits for di)
    for p in (bo, cy):
        assert "签到成功" in await said(await p.slash("比赛 签到"))
    aps = [AutoPlayer(p, Style()).start() for p in (ann, bo, cy)]
    move_times(w.db, event_id, start_at=time.time() - 1)
    await restart(w)
    await admin.wait_message(lambda m: "第 1 轮开始" in m.content, w.channel, timeout=20)
    _, state = event_row(w.db, event_id)
    assert state["waiting"] == [di.id]
    assert abs(state["wait_until"] - (time.time() + 5 * 60)) < 60  # the limit, stored with the event
    await asyncio.sleep(1.0)
    assert not [c for c in double.channels.values() if c.parent_id == w.channel.id]  # no table yet: it waits

    # the limit passes while the bot is down; back up, it gives di's seat to a computer and says so
    move_times(w.db, event_id, wait_until=time.time() - 1)
    await restart(w)
    told = await admin.wait_message(lambda m: "⌛" in m.content, w.channel, timeout=20)
    assert "di" in told.content and "电脑代打" in told.content and "5 分钟" in told.content, told.content
    assert not told.pinged_users()
    end = await admin.wait_message(lambda m: "结束！" in m.content, w.channel, timeout=120)
    await gather_players(aps)
    threads = [c for c in double.channels.values() if c.parent_id == w.channel.id]
    assert len(threads) == 1
    opened = next(m for m in threads[0].messages if "对局开始" in m.content)
    assert opened.pinged_users() == {ann.id, bo.id, cy.id}  # di's seat: a computer
    board = await admin.wait_message(lambda m: m.content.startswith("**cup**") and m.id > end.id, w.channel,
                                     timeout=20)
    assert "di" in board.content  # di keeps the result the computer played for them
    _, state = event_row(w.db, event_id)
    assert state["waiting"] == [] and state["absent"] == [di.id]
