"""The real table runner on the shell's StoreSink with a ranked match: hands stored and paid as always, the match
rated once by its last settlement (the runner's own match_over flag), with the same placement the runner shows."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from jxbot.ladder import Ladder, RankedMatch
from jxbot.shell.session import StoreSink
from jxbot.table import FakeClock, SeatInfo, TableConfig, TableRunner

G, CH = 1001, 2001
U = [11, 12, 13, 14]


class FakeTable(SimpleNamespace):
    def to_json(self) -> dict:
        return {"id": self.id}


async def test_a_ranked_match_on_the_runner_is_rated_once_from_its_totals(store):
    for u in U:
        await store.ensure_player(u, f"p{u}")
        await store.grant_starting(G, u)
    table = FakeTable(id="rk1", guild_id=G, channel_id=CH, config=SimpleNamespace(ruleset="jiaxing",
                                                                                 to_json=lambda: {"ranked": True}))
    await store.save_table("rk1", G, CH, {"ranked": True}, {})  # the bot saves a table before it starts
    rm = RankedMatch("rk1", str(G), "jiaxing", G)
    sink = StoreSink(store, table, ranked=rm)
    seats = [SeatInfo(f"p{u}", user_id=u, auto=True) for u in U]  # people on auto-play: computers play for them

    async def balances(infos):
        return list(await store.balances_for(G, [s.user_id for s in infos]))

    runner = TableRunner(seats, TableConfig(table_id="rk1", seed=5, stake=2, fee=1, max_hands=3), interfaces={},
                         sink=sink, clock=FakeClock(1_700_000_000.0), balances=balances)
    results = await asyncio.wait_for(runner.run(), timeout=120)
    assert [r["match_over"] for r in results] == [False, False, True]
    out = sink.outcome
    assert out is not None and out.status == "rated" and not out.repeated
    totals = results[-1]["payments"]
    by_user = {p["name"]: p["total"] for p in totals}
    for c in out.changes:
        assert c.total == by_user[f"p{c.user_id}"]  # the store's match silver is the runner's
        ahead = sum(1 for v in by_user.values() if v > c.total)
        assert c.place == ahead + 1
    lad = Ladder(store)
    for u in U:
        rd = await lad.rank_data(rm.ladder, "jiaxing", u)
        assert rd.matches == 1 and rd.hands == 3
    # the runner's last settlement again (a resumed table): nothing more
    last = results[-1]
    await sink.settle(last["hand_id"], SimpleNamespace(transfers=(), deltas=(0, 0, 0, 0), house_delta=0), last)
    assert sink.outcome.repeated and (await lad.rank_data(rm.ladder, "jiaxing", 11)).matches == 1
    assert await store.check() == []
