"""The cross-server ranked queue in the store (jxbot/ladder/shared_queue.py): one entry per person, the same band
and integrity rules as a server's queue, leaving from anywhere, and — with several matchers at once, each on its
own connection (two processes) — nobody put at two tables."""

from __future__ import annotations

import asyncio

from jxbot.ladder import QueueSettings
from jxbot.ladder.shared_queue import SharedQueue
from jxbot.store import Store


def queue(store, now=1_000_000.0, **kw):
    clock = [now]
    q = SharedQueue(store, QueueSettings(**kw), clock=lambda: clock[0])
    return q, clock


async def test_four_in_band_are_claimed_once_and_told_their_table(store):
    q, clock = queue(store)
    for u, g in ((1, 11), (2, 11), (3, 22), (4, 22)):
        assert await q.join(u, "global", g, 100, f"p{u}", "zh")
    assert not await q.join(1, "global", 11, 100, "p1", "zh")  # twice: the first entry stays
    assert [e.user_id for e in await q.waiting("global")] == [1, 2, 3, 4]
    (g,) = await q.form("global")
    assert sorted(e.user_id for e in g.people) == [1, 2, 3, 4] and {e.guild_id for e in g.people} == {11, 22}
    assert await q.form("global") == [] and await q.waiting("global") == []  # claimed: never matched again
    assert not await q.leave(1)  # too late: matched
    await q.opened(g, "abc123")
    got = await q.entries([1, 2, 9])
    assert set(got) == {1, 2} and got[1].table_id == "abc123"
    await q.forget([1, 2, 3, 4])
    assert await q.entries([1, 2, 3, 4]) == {}


async def test_out_of_band_waits_then_the_band_widens_and_leaving_works(store):
    q, clock = queue(store, band=150.0, widen_per_minute=100.0)
    for u, r in ((1, 0), (2, 0), (3, 0), (4, 2000), (5, 60)):
        await q.join(u, "global", 7, r, "p", "en")
    assert await q.leave(5) and not await q.leave(5)
    assert await q.form("global") == []  # 2000 points apart
    clock[0] += 21 * 60  # 2,250 points of band after 21 minutes
    (g,) = await q.form("global")
    assert sorted(e.user_id for e in g.people) == [1, 2, 3, 4]


async def test_a_table_that_did_not_open_puts_the_others_back(store):
    q, _ = queue(store)
    for u in (1, 2, 3, 4, 5):
        await q.join(u, "global", 7, 0, "p", "zh")
    (g,) = await q.form("global")
    await q.release(g, refused=[g.people[0].user_id])
    left = [e.user_id for e in await q.waiting("global")]
    assert g.people[0].user_id not in left and len(left) == 4
    (g2,) = await q.form("global")
    assert g2.group_id != g.group_id


async def test_a_claim_whose_matcher_died_expires(store):
    q, clock = queue(store)
    for u in (1, 2, 3, 4):
        await q.join(u, "global", 7, 0, "p", "zh")
    await q.form("global")
    clock[0] += 200
    assert await q.expire() == 4
    assert len(await q.waiting("global")) == 4


async def test_the_same_four_play_at_most_n_rated_matches_a_day(store):
    q, clock = queue(store, max_together_per_day=1)

    async def rated(tx):
        await tx.execute("INSERT INTO ladder_matches (match_id, ladder, ruleset, season, guild_id, status, group_key, "
                         "entrants, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         ("m1", "global", "jiaxing", 1, 7, "rated", "1,2,3,4", "[]", clock[0] - 3600))

    await store.in_transaction(rated)
    for u in (1, 2, 3, 4):
        await q.join(u, "global", 7, 0, "p", "zh")
    assert await q.form("global") == []
    await q.join(5, "global", 7, 0, "p", "zh")
    (g,) = await q.form("global")  # four of the five, not the four who played an hour ago
    assert sorted(e.user_id for e in g.people) != [1, 2, 3, 4]


async def test_matchers_on_two_connections_never_put_anyone_at_two_tables(store, db_url):
    """Two stores on one database (two processes): 16 people, both matching at once, many passes."""
    other = await Store.open(db_url)
    try:
        a, _ = queue(store)
        b, _ = queue(other)
        for u in range(1, 17):
            await (a if u % 2 else b).join(u, "global", 7, 0, "p", "zh")
        seen: list[int] = []
        for _ in range(4):
            ga, gb = await asyncio.gather(a.form("global"), b.form("global"))
            for g in ga + gb:
                seen += [e.user_id for e in g.people]
        assert sorted(seen) == list(range(1, 17))  # each person in exactly one group
    finally:
        await other.close()
