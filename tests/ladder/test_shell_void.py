"""A ranked table found suspended at start (jxbot/shell/suspend.py's void_suspended) is recorded void by the ladder
through jxbot/shell/ranked_ladder.py: it never changes a rating; a table of friends is left alone."""

from __future__ import annotations

from jxbot.ladder import Ladder
from jxbot.shell.ranked_ladder import void_ranked_record

from .helpers import CH, G


async def test_a_suspended_ranked_table_is_recorded_void(store):
    await store.save_table("rk1", G, CH, {"ranked": str(G), "ruleset": "jiaxing"}, {"suspended": {"at": 1.0}})
    await store.save_table("fr1", G, CH + 1, {"ranked": "", "ruleset": "jiaxing"}, {"suspended": {"at": 1.0}})
    recs = {r.table_id: r for r in await store.running_tables()}
    for rec in recs.values():
        await void_ranked_record(store, rec)
    lad = Ladder(store)
    out = await lad.outcome("rk1")
    assert out is not None and out.status == "void" and out.changes == ()
    assert await lad.outcome("fr1") is None
    await void_ranked_record(store, recs["rk1"])  # again (a second start): still void, nothing else
    assert (await lad.outcome("rk1")).status == "void"
