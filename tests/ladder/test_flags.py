"""/admin flags (jxbot/ladder/flags.py): a /pay soon after a shared rated table, and deal-ins to one opponent far
above chance, are flagged with their evidence; ordinary play and a pay to a stranger are not."""

from __future__ import annotations

import time

from jxbot.ladder.flags import binomial_tail, flags

from .helpers import G, open_match, play_hand

U = [11, 12, 13, 14]


def test_the_binomial_tail():
    assert binomial_tail(5, 0, 1 / 3) == 1.0
    assert abs(binomial_tail(5, 5, 1 / 3) - (1 / 3) ** 5) < 1e-12
    assert abs(binomial_tail(3, 1, 0.5) - 7 / 8) < 1e-12


async def test_a_pay_after_a_shared_rated_table_is_flagged(store):
    now = time.time()
    m = await open_match(store, "p1", U)
    await play_hand(store, m, 0, U, 0, 10, last=True, discarder=1, now=now - 3600)
    await store.ensure_player(99, "stranger")
    await store.grant_starting(G, 99)
    await store.pay(G, 11, 12, 25)
    await store.pay(G, 13, 99, 5)  # 99 never sat with 13: not flagged
    found = await flags(store, G, time.time())
    pays = [f for f in found if f.kind == "pay"]
    assert [(f.a, f.b) for f in pays] == [(11, 12)], pays
    ev = pays[0].evidence
    assert ev["amount"] == 25 and ev["table"] == "p1" and 0.9 <= ev["hours"] <= 1.1
    assert await flags(store, G + 1, time.time()) == []  # another server's flags are its own


async def test_dealing_in_to_one_opponent_far_above_chance_is_flagged(store):
    now = time.time()
    for k in range(5):  # 11 deals in to 12 in each of five ranked matches
        m = await open_match(store, f"f{k}", U)
        await play_hand(store, m, 0, U, 1, 10, last=True, discarder=0, now=now - 7200 + 60 * k)
    m = await open_match(store, "f9", U)  # 13 deals in to 14 once: chance
    await play_hand(store, m, 0, U, 3, 10, last=True, discarder=2, now=now - 600)
    found = [f for f in await flags(store, G, time.time()) if f.kind == "feed"]
    assert [(f.a, f.b) for f in found] == [(11, 12)], found
    ev = found[0].evidence
    assert ev["n"] == 5 and ev["deal_ins"] == 5 and ev["p"] < 0.01
    assert ev["hands"] == [f"f{k}-h0" for k in range(5)]


async def test_ordinary_play_is_not_flagged(store):
    now = time.time()
    winners = [(1, 0), (2, 0), (3, 0), (1, 0), (2, 0), (3, 0)]  # 11 deals in to each opponent alike
    for k, (w, d) in enumerate(winners):
        m = await open_match(store, f"o{k}", U)
        await play_hand(store, m, 0, U, w, 10, last=True, discarder=d, now=now - 7200 + 60 * k)
    assert await flags(store, G, time.time()) == []
