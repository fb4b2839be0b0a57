"""Two ``jxbot run`` processes share one bot token's request budget (issue 28): each counts the live
processes at its heartbeat and takes its share, so together they stay within the budget and Discord's
global limit never answers 429 (docs/bot.md, "The request budget")."""

from __future__ import annotations

import time

import pytest

from tests.e2e.double.faults import counted
from tests.e2e.players import AutoPlayer, Style
from tests.e2e.scenario import gather_players, open_table, wait_match_over
from tests.e2e.test_processes import two_processes

pytestmark = pytest.mark.e2e


async def test_two_processes_share_the_budget_and_meet_no_global_429(double, start_bot):
    limit = double.enforce_global_limit(50)
    # every update a counted bot-token edit (routing off), computers as fast as they go: about 5 edits a
    # second are wanted (86 in 17 s without a budget), so the shared budget of 3 is what holds them back
    dsn, worlds, bots = await two_processes(double, start_bot, JXBOT_REQUEST_BUDGET="3", JXBOT_TOKEN_ROUTING="0",
                                            JXBOT_EDIT_INTERVAL="0.05", JXBOT_MAX_HANDS="1")
    for bot in bots:
        await bot.wait_log("request budget: 2 live processes share 3 requests/s (1.5 each)", timeout=20)
    for w in worlds:
        await open_table(w, computers=3)
    t0 = time.monotonic()
    aps = [AutoPlayer(w.players[0], Style(claim="greedy"), think=0.05).start() for w in worlds]
    for w in worlds:
        await wait_match_over(w, timeout=120)
    t1 = time.monotonic()
    for ap in aps:
        ap.stopping = True
    await gather_players(aps)
    assert limit.refused == 0 and not [r for r in double.invalid_requests if r[3] == 429]
    # every counted request of both processes (edits, sends, DM opens, the lobby's): the two shares together,
    # at most 3 in any second (a request taken at the end of one second may arrive in the next)
    reqs = [at for at, _m, tpl, _ in double.requests if t0 <= at < t1 and counted(tpl)]
    rate = len(reqs) / (t1 - t0)
    assert len(reqs) <= 3 * (t1 - t0) + 3, (len(reqs), t1 - t0)
    assert rate >= 1.2, f"the budget was used ({rate:.1f}/s)"
    assert double.errors == []
