"""200 settlements and payments at once over the same wallets, from two connections."""

from __future__ import annotations

import asyncio
import random

from jxbot.store import InsufficientFunds, Store

from .conftest import CH, G, settlement, win_result

USERS = (1, 2, 3, 4, 5, 6)


async def test_concurrent_settlements_and_payments_keep_the_books(db_url):
    path = db_url
    a = await Store.open(path)
    b = await Store.open(path)  # a second writer connection on the same file (on PostgreSQL: a second pool)
    for uid in USERS:
        await a.ensure_player(uid, f"p{uid}")
        await a.grant_starting(G, uid)
    await a.update_guild_settings(G, fee=1)
    rng = random.Random(6)
    hands = []
    for i in range(100):
        seats: list[int | None] = list(rng.sample(USERS, 4))
        for s in rng.sample(range(4), rng.choice((0, 0, 1, 2))):
            seats[s] = None  # computer seats
        winner = rng.randrange(4)
        amount = rng.choice((5, 20, 60, 300))
        transfers = [(s, winner, amount, "win") for s in range(4) if s != winner]
        transfers += [(s, None, 1, "fee") for s in range(4)]
        await a.create_hand(f"h{i}", G, CH, "jiaxing", seats, "c")
        hands.append((f"h{i}", seats, settlement(*transfers), win_result(winner)))
    total_before = sum([await a.balance(G, u) for u in USERS]) + await a.house_balance(G)

    expected = {u: await a.balance(G, u) for u in USERS}
    settled: dict[str, object] = {}

    async def settle(k: int, store: Store):
        hand_id, seats, s, r = hands[k]
        res = await store.settle_hand(hand_id, G, seats, s, r)
        if not res.repeated:
            assert hand_id not in settled
            settled[hand_id] = res
            for seat, uid in enumerate(seats):
                if uid is not None:
                    expected[uid] += res.deltas[seat]
        return res

    async def pay(store: Store, frm: int, to: int, amount: int):
        try:
            r = await store.pay(G, frm, to, amount)
        except InsufficientFunds:
            return None
        expected[frm] -= amount
        expected[to] += amount
        return r

    ops = []
    for k in range(100):
        ops.append(settle(k, a if k % 2 else b))
        frm, to = rng.sample(USERS, 2)
        ops.append(pay(b if k % 2 else a, frm, to, rng.choice((1, 50, 400, 2000))))
    for k in rng.sample(range(100), 20):  # repeated settlements racing the first ones
        ops.append(settle(k, b if k % 2 else a))
    rng.shuffle(ops)
    results = await asyncio.gather(*ops)
    assert len(results) == 220

    assert len(settled) == 100  # every hand paid exactly once
    for uid in USERS:
        assert await a.balance(G, uid) == expected[uid] >= 0
    total_after = sum([await a.balance(G, u) for u in USERS]) + await a.house_balance(G)
    assert total_after == total_before == 0
    assert await a.check() == []
    rows = await a._all(a._db, "SELECT COUNT(*) FROM txns WHERE kind = 'settle'")
    assert rows == [(100,)]
    await a.close()
    await b.close()
