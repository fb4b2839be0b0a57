"""End to end: the restart gap of an event's table (docs/table.md, "Restart windows"; issue 32, "a restart resumes
every table of the event").

Four players in a two-round Swiss event played for silver. The bot is killed (SIGKILL) once round 1's table has
dealt, and its store is left as a kill between the deal and the runner's first save leaves it (a table stored
as running with no runner state: what the bot before this fix wrote at that point). The restarted bot takes the
dealt hand over: the round ends, round 2 is played, the event ends, the first hand is the one dealt before the
kill (not voided, not dealt again), and every player's silver moved by exactly their hands' results.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import gather_players, said, start_world
from tests.e2e.test_tournament import make_admin, register_all, standings_lines, stored_hands

pytestmark = pytest.mark.e2e

NAMES = ["ann", "bo", "cy", "di"]


def _dealt(db) -> list[tuple[str, str, int]]:
    """(hand id, table id, events stored) of every hand."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("SELECT h.hand_id, h.table_id, (SELECT count(*) FROM hand_events e "
                           "WHERE e.hand_id = h.hand_id) FROM hands h").fetchall()
    finally:
        con.close()


def _leave_as_the_kill_did(db, table_id: str) -> None:
    """The table's stored state as a kill between its first deal and its runner's first save left it."""
    con = sqlite3.connect(str(db))
    try:
        (state,) = con.execute("SELECT state FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        state = json.loads(state)
        state["runner"] = None
        con.execute("UPDATE tables SET state = ? WHERE table_id = ?", (json.dumps(state), table_id))
        con.commit()
    finally:
        con.close()


async def test_an_event_table_killed_between_its_deal_and_its_first_save_plays_on(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, NAMES)
    admin = make_admin(w)
    await register_all(w, admin, "swiss", 2, stake=2)
    assert "比赛开始" in await said(await admin.slash("比赛 开始"), timeout=15)
    for _ in range(600):  # nobody plays yet: the table deals and waits for its players
        dealt = [d for d in _dealt(w.db) if d[2] > 0]
        if dealt:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(w.bot.tail())
    ((hand_id, table_id, _),) = dealt
    n = w.bot.log().count("ready: every table resumed")
    await w.bot.kill()
    _leave_as_the_kill_did(w.db, table_id)
    await w.bot.start()
    for _ in range(600):
        if w.bot.log().count("ready: every table resumed") > n:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(w.bot.tail())
    assert f"hand {hand_id} taken over" in w.bot.log()
    aps = [AutoPlayer(p, Style()).start() for p in w.players]
    await admin.wait_message(lambda m: "第 2 轮开始" in m.content, w.channel, timeout=120)
    end = await admin.wait_message(lambda m: "结束！" in m.content, w.channel, timeout=150)
    board = await admin.wait_message(lambda m: m.content.startswith("**cup**") and m.image() is not None
                                     and m.id > end.id, w.channel, timeout=20)
    await gather_players(aps)

    hands = stored_hands(w.db)
    assert [h["hand_id"] for h in hands][:1] == [hand_id] and len(hands) == 2  # resumed, not voided or dealt again
    totals = {n: 0 for n in NAMES}
    for h in hands:
        for name, d in zip(h["names"], h["deltas"], strict=True):
            totals[name] += d
    shown = standings_lines(board.content)
    assert {name: int(v[1]) for name, v in shown.items()} == totals, board.content
    assert all(len(v[2]) == 2 for v in shown.values())  # two tables each, each counted once
    from jxbot.store import Store

    store = await Store.open(str(w.db), scope=None)
    try:
        for p in w.players:
            assert await store.balance(w.guild.id, p.id) == 1000 + totals[p.name], p.name
        assert await store.check() == []
    finally:
        await store.close()
