"""The store settles what ``jxbot.rules.settle`` computes, silver for silver."""

from __future__ import annotations

from jxbot.rules.settle import settle

from .conftest import CH, G, win_result


async def test_engine_settlement_with_computer_seat_and_a_poor_payer(store, players):
    await store.update_guild_settings(G, fee=2)
    seats = [1, 2, None, 3]
    await store.admin_set(G, 2, 50, "poor")  # seat 1 cannot pay the whole score
    await store.create_hand("r1", G, CH, "jiaxing", seats, "c")
    balances = await store.balances_for(G, seats)
    assert balances == [1000, 50, None, 1000]
    s = settle(winner=0, points=60, self_draw=True, balances=balances, fee=2)
    house0 = await store.house_balance(G)
    res = await store.settle_hand("r1", G, seats, s, win_result(0, self_draw=True))
    assert not res.capped  # the engine already capped with the same balances
    assert res.deltas == s.deltas
    assert list(res.balances) == [b if b is None else b + d for b, d in zip(balances, s.deltas, strict=True)]
    assert res.balances[1] == 0  # paid what they had, no fee left to pay
    assert await store.balances_for(G, seats) == list(res.balances)
    # the house backed the computer seat's 60 and took the fees
    assert await store.house_balance(G) - house0 == s.house_delta + s.deltas[2]
    assert await store.check() == []
    st = await store.player_stats(G, 1)
    assert (st.wins, st.self_draws, st.net) == (1, 1, s.deltas[0])


async def test_escape_settlement_from_the_engine(store, players):
    await store.update_guild_settings(G, fee=1)
    seats = [1, 2, 3, 4]
    await store.create_hand("r2", G, CH, "jiaxing", seats, "c")
    balances = await store.balances_for(G, seats)
    s = settle(winner=2, points=40, discarder=0, escaped=[0], balances=balances, fee=1)
    res = await store.settle_hand("r2", G, seats, s, win_result(2))
    assert res.deltas == s.deltas
    reasons = await store._all(store._db, "SELECT reason, SUM(delta) FROM ledger WHERE hand_id = 'r2' AND user_id = 1 "
                               "GROUP BY reason ORDER BY reason")
    assert {r for r, _ in reasons} <= {"escape", "fee"} and sum(d for _, d in reasons) == s.deltas[0]
    assert await store.check() == []
