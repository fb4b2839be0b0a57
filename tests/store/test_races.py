"""Two Store objects on one database are two processes (on PostgreSQL: two connection pools, as two bot
processes have): racing daily claims, starting grants, transfers both ways and settlements stay exact."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.store import DailyCooldown, FundsHeld, InsufficientFunds, Store

from .conftest import CH, G, settlement, win_result


async def test_two_processes_racing_grants_transfers_and_settles_keep_exact_books(db_url):
    a = await Store.open(db_url)
    b = await Store.open(db_url)
    assert (a.backend, a.pg_pool is None) == (("postgresql", False) if "://" in db_url else ("sqlite", True))
    try:
        for uid in (1, 2, 3, 4):
            await a.ensure_player(uid, f"p{uid}")
        # the starting grant, asked by both at once for every player: paid once per wallet
        grants = await asyncio.gather(*[s.grant_starting(G, u) for u in (1, 2, 3, 4) for s in (a, b) for _ in range(3)])
        assert sorted(grants) == [0] * 20 + [1000] * 4
        # the daily claim from both processes in the same instant: one claim, one cooldown
        claims = await asyncio.gather(*[s.daily(G, 1, now=5_000_000) for s in (a, b, a, b)], return_exceptions=True)
        assert sum(not isinstance(c, BaseException) for c in claims) == 1
        assert sum(isinstance(c, DailyCooldown) for c in claims) == 3
        assert await b.balance(G, 1) == 1100
        # transfers both ways between the same two wallets (opposite lock orders would deadlock)
        moved = {1: 0, 2: 0}

        async def pay(s: Store, frm: int, to: int, n: int) -> None:
            try:
                await s.pay(G, frm, to, n)
            except InsufficientFunds:
                return
            moved[frm] -= n
            moved[to] += n

        await asyncio.gather(*[pay(a if k % 2 else b, 1 + k % 2, 2 - k % 2, 7 + k) for k in range(40)])
        assert await a.balance(G, 1) == 1100 + moved[1]
        assert await a.balance(G, 2) == 1000 + moved[2]
        # the same hand settled by both processes, four times: paid once
        seats = [1, 2, 3, 4]
        await a.create_hand("r1", G, CH, "jiaxing", seats, "c")
        s1 = settlement((1, 0, 30, "win"), (2, 0, 30, "win"), (3, 0, 30, "win"))
        before = [await a.balance(G, u) for u in seats]
        results = await asyncio.gather(*[s.settle_hand("r1", G, seats, s1, win_result(0)) for s in (a, b, b, a)])
        assert sorted(r.repeated for r in results) == [False, True, True, True]
        assert [await b.balance(G, u) for u in seats] == [before[0] + 90, before[1] - 30, before[2] - 30, before[3] - 30]
        total = sum([await a.balance(G, u) for u in seats]) + await a.house_balance(G)
        assert total == 0
        assert await a.check() == [] and await b.check() == []
    finally:
        await a.close()
        await b.close()


async def test_a_hold_and_a_payment_racing_never_leave_the_balance_below_the_holds(store, players):
    await store.hold(G, 1, "t1", 600)
    with pytest.raises(FundsHeld):
        await store.pay(G, 1, 2, 500)
    assert (await store.pay(G, 1, 2, 400)).from_balance == 600
    store.release_hold(G, 1, "t1")
    for k in range(6):  # a seat's hold and a /pay at the same instant: one of them is refused
        bal = await store.balance(G, 1)
        out = await asyncio.gather(store.hold(G, 1, f"r{k}", bal - 50), store.pay(G, 1, 2, 100),
                                   return_exceptions=True)
        assert sum(isinstance(o, InsufficientFunds) for o in out) == 1, out
        assert await store.balance(G, 1) >= store.held(G, 1)
        store.release_hold(G, 1, f"r{k}")
    assert await store.check() == []
