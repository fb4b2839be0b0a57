"""The audit's watch checks: what a watcher notices when a table goes away by another road than its last hand."""

from __future__ import annotations

import asyncio
import time

from jxbot.shell.watch import WatchLane
from tests.bot.test_watch_lane import drawn, table_with_watchers  # noqa: F401 (a fixture)
from tests.replay.helpers import played_hand


async def test_an_admin_stop_tells_the_watchers_the_table_is_gone(drawn):  # noqa: F811
    """/admin close of a running table (or a suspension) ends it without a match end: the watchers' views must
    say so and lose their buttons, not stay frozen with no word until their token runs out 14 minutes later."""
    hand = played_hand(3)
    lane = WatchLane(budget=0.0, token_seconds=600.0, every=0.05)
    lane.check_every = 0.1
    log: list = []
    events = list(hand.events[:30])
    tw = table_with_watchers(2, lane, events, log)
    tw.session.table.state = "playing"
    for _ in range(100):
        if len(log) >= 2:
            break
        await asyncio.sleep(0.02)
    assert len(log) == 2 and all(kw["view"] is not None for _, _, kw in log)
    tw.session.table.state = "ended"  # what manager.end(table) does (cogs/tables.py close_table)
    t0 = time.monotonic()
    while tw.watchers and time.monotonic() - t0 < 3:
        await asyncio.sleep(0.05)
    assert not tw.watchers
    last = log[-2:]
    for _, _, kw in last:
        assert kw["view"] is None and "不在进行" in kw["content"]
