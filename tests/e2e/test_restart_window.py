"""Issue 24, findings 1 and 2: the window between a restarted bot's connection and the resume of its tables.

Alice plays at a table (with computers); the bot is killed mid-hand and restarted. Before the resume
(``JXBOT_TEST_RESUME_DELAY`` holds the window open a few seconds, as a slow start would), Bob types
``/麻将 开桌`` in the running table's channel and Alice pays away her held silver: both are told the bot
is starting up, and nothing happens. After the resume the table plays on, its hand is not voided, and
Alice's held silver is still held."""

from __future__ import annotations

import asyncio
import contextlib

from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import (
    gather_players,
    hands_of,
    open_hand_ids,
    open_table,
    said,
    start_world,
    store_check,
    wait_match_over,
)

READY = "ready: every table resumed"
STARTING = "机器人正在启动"


async def wait_count(bot, text: str, n: int, timeout: float = 30.0) -> None:
    """Until ``text`` is in the bot's output ``n`` times (its log spans every start of the process)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while bot.log().count(text) < n:
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"{text!r} not {n} times in the bot's output:\n{bot.tail()}")
        await asyncio.sleep(0.05)


async def test_the_restart_window_neither_voids_the_running_hand_nor_frees_held_silver(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice", "bob"],
                          env={"JXBOT_COMPUTER_DELAY": "0.2", "JXBOT_TEST_RESUME_DELAY": "4",
                               "JXBOT_START_WAIT": "0"})  # refused at once (no wait for the resume)
    alice, bob = w.players
    with contextlib.suppress(TimeoutError):  # (a bot without the gate never says so: its window is long over)
        await wait_count(w.bot, READY, 1, timeout=15)
    assert "银子" in await said(await bob.slash("银子"))  # bob is a known player (a /pay needs one)
    await open_table(w, seated=[alice], computers=3)
    ap = AutoPlayer(alice, Style())
    for _ in range(2):
        await ap.step()
    (hand_id,) = await open_hand_ids(w.db)
    held = await alice.slash("pay", user=bob, amount=1000)
    assert "949" in await said(held), held.texts()  # 51 held while she sits: at most 949

    await w.bot.kill()  # SIGKILL mid-hand
    n_logs = w.bot.log().count(READY)
    await w.bot.start()
    await double.wait_for(lambda: double.gateway.identifies >= 2, 30, "the bot to come back")
    # the window: connected, the tables not resumed yet
    create = await bob.slash("麻将 开桌", 底分=1)
    pay = await alice.slash("pay", user=bob, amount=1000)
    create_text, pay_text = await said(create), await said(pay)
    assert w.bot.log().count(READY) == n_logs, "(the window was still open when they were answered)"
    assert STARTING in create_text and create.ephemeral, create.texts()
    assert STARTING in pay_text and pay.ephemeral, pay.texts()
    rules = await bob.slash("麻将 规则")  # a read-only command stays open
    assert STARTING not in await said(rules)

    notice = await alice.wait_message(lambda m: "重启" in m.content, w.channel, timeout=30)
    assert "继续" in notice.content
    still = await alice.slash("pay", user=bob, amount=1000)
    assert "949" in await said(still), still.texts()  # the hold is back
    assert await open_hand_ids(w.db) == [hand_id], "the running hand was not voided"

    await asyncio.sleep(0.5)
    ap.start()
    await wait_match_over(w, timeout=120)
    await gather_players([ap])
    hands = await hands_of(w.db, w.guild.id, alice.id)
    assert [h.hand_id for h in hands] == [hand_id]
    assert not any("已作废" in (m.content or "") for m in w.channel.messages), "nothing said void"
    assert await hands_of(w.db, w.guild.id, bob.id) == [], "bob opened no table in the window"
    rc, out = await store_check(w.db)
    assert rc == 0, out
