from __future__ import annotations

import pytest

from jxbot.store import (
    MAX_AMOUNT,
    AmountOverflow,
    DailyCooldown,
    InsufficientFunds,
    InvalidAmount,
    InvalidArgument,
    SelfTransfer,
    Store,
    UnknownPlayer,
)

from .conftest import G

DAY = 86_400


async def assert_books_clean(store):
    assert await store.check() == []


async def test_starting_grant_once_per_wallet(store):
    await store.ensure_player(1, "a")
    assert await store.balance(G, 1) == 0
    assert await store.grant_starting(G, 1) == 1000
    assert await store.grant_starting(G, 1) == 0  # second seat: nothing more
    assert await store.balance(G, 1) == 1000
    assert await store.house_balance(G) == -1000  # the house put it into circulation
    # per-guild wallets by default: another guild grants again, separately
    assert await store.grant_starting(G + 1, 1) == 1000
    assert await store.balance(G, 1) == 1000 and await store.balance(G + 1, 1) == 1000
    await store.update_guild_settings(G + 2, starting_grant=50)
    assert await store.grant_starting(G + 2, 1) == 50
    with pytest.raises(UnknownPlayer):
        await store.grant_starting(G, 99)
    await assert_books_clean(store)


async def test_global_scope_shares_one_wallet(db_url):
    s = await Store.open(db_url, "global")
    await s.ensure_player(1, "a")
    assert await s.grant_starting(G, 1) == 1000
    assert await s.grant_starting(G + 1, 1) == 0  # one wallet across guilds
    assert await s.balance(G + 1, 1) == 1000
    await s.daily(G + 1, 1, now=1_000_000)
    assert await s.balance(G, 1) == 1100
    with pytest.raises(DailyCooldown):  # the cooldown is global as well
        await s.daily(G, 1, now=1_000_010)
    lb = await s.leaderboard(G, "balance")
    assert [(e.user_id, e.value) for e in lb.entries] == [(1, 1100)]
    assert await s.check() == []
    await s.close()


async def test_daily_cooldown_and_streak(store):
    await store.ensure_player(1, "a")
    t0 = 1_700_000_000
    r = await store.daily(G, 1, now=t0)
    assert (r.amount, r.streak, r.next_at, r.balance) == (100, 1, t0 + DAY, 100)
    with pytest.raises(DailyCooldown) as e:
        await store.daily(G, 1, now=t0 + DAY - 1)
    assert e.value.next_at == t0 + DAY and e.value.code == "daily_cooldown"
    assert str(t0 + DAY) in e.value.message("en")
    r = await store.daily(G, 1, now=t0 + DAY)  # exactly 24 h later: streak 2, +10
    assert (r.amount, r.streak) == (110, 2)
    r = await store.daily(G, 1, now=t0 + 2 * DAY + 3600)
    assert (r.amount, r.streak) == (120, 3)
    r = await store.daily(G, 1, now=t0 + 5 * DAY)  # more than 48 h since the last claim: streak resets
    assert (r.amount, r.streak) == (100, 1)
    assert await store.balance(G, 1) == 100 + 110 + 120 + 100
    # the bonus is capped
    await store.update_guild_settings(G, daily_streak_cap=2)
    amounts = [(await store.daily(G, 1, now=t0 + (5 + i) * DAY)).amount for i in range(1, 5)]
    assert amounts == [110, 120, 120, 120]
    with pytest.raises(UnknownPlayer):
        await store.daily(G, 42, now=t0)
    await assert_books_clean(store)


async def test_pay_moves_silver_and_rejects_bad_input(store, players):
    r = await store.pay(G, 1, 2, 300)
    assert (r.from_balance, r.to_balance) == (700, 1300)
    bad = [
        ((G, 1, 2, 0), InvalidAmount),
        ((G, 1, 2, -5), InvalidAmount),
        ((G, 1, 2, 2.5), InvalidAmount),
        ((G, 1, 2, True), InvalidAmount),
        ((G, 1, 2, 2**63), AmountOverflow),
        ((G, 1, 2, 10**30), AmountOverflow),
        ((G, 1, 1, 10), SelfTransfer),
        ((G, 1, 99, 10), UnknownPlayer),
        ((G, 99, 1, 10), UnknownPlayer),
        ((G, 1, 2, 701), InsufficientFunds),
        ((G, 1, 2, MAX_AMOUNT), InsufficientFunds),
    ]
    for args, exc in bad:
        with pytest.raises(exc):
            await store.pay(*args)
    assert [await store.balance(G, u) for u in (1, 2)] == [700, 1300]  # nothing moved
    r = await store.pay(G, 1, 2, 700)  # exactly everything
    assert (r.from_balance, r.to_balance) == (0, 2000)
    with pytest.raises(InsufficientFunds) as e:
        await store.pay(G, 1, 2, 1)
    assert "1" in e.value.message("en") and e.value.params == {"needed": 1, "balance": 0}
    # paying someone in a guild where you have no wallet yet
    with pytest.raises(InsufficientFunds):
        await store.pay(G + 5, 3, 4, 1)
    await assert_books_clean(store)


async def test_balances_near_the_limit_are_exact_and_overflow_is_rejected(store, players):
    # All silver of a scope (players + house) sums to zero, so at most 2^63-1 can circulate.
    for uid in (3, 4):
        await store.admin_set(G, uid, 0, "clear")
    await store.admin_set(G, 2, 5, "small")
    big = MAX_AMOUNT - 5
    assert await store.admin_set(G, 1, big, "test limit") == big
    assert await store.balance(G, 1) == big  # stored as an exact integer, not a float
    assert await store.house_balance(G) == -MAX_AMOUNT
    with pytest.raises(AmountOverflow):
        await store.admin_grant(G, 1, 6, "beyond 2^63-1")
    with pytest.raises(AmountOverflow):
        await store.admin_grant(G, 3, 1, "the house cannot issue more")
    await store.pay(G, 2, 1, 5)
    assert await store.balance(G, 1) == MAX_AMOUNT and await store.balance(G, 2) == 0
    await store.admin_set(G, 2, 0, "no-op")
    with pytest.raises(AmountOverflow):
        await store.daily(G, 2, now=1_700_000_000)
    assert await store.balance(G, 2) == 0
    await assert_books_clean(store)


async def test_admin_grant_and_set_with_reason(store, players):
    assert await store.admin_grant(G, 1, 250, "tournament prize", actor=9) == 1250
    assert await store.admin_grant(G, 1, -1250, "penalty") == 0
    with pytest.raises(InsufficientFunds):
        await store.admin_grant(G, 1, -1, "below zero")
    for amount, exc in ((0, InvalidAmount), (2**63, AmountOverflow), ("5", InvalidAmount)):
        with pytest.raises(exc):
            await store.admin_grant(G, 1, amount, "x")
    with pytest.raises(InvalidArgument):
        await store.admin_grant(G, 1, 5, "  ")  # a reason is required
    with pytest.raises(UnknownPlayer):
        await store.admin_grant(G, 77, 5, "x")
    assert await store.admin_set(G, 2, 0, "reset") == 0
    assert await store.admin_set(G, 2, 0, "again, no change") == 0
    assert await store.admin_set(G, 3, 5000, "raise") == 5000
    with pytest.raises(InvalidAmount):
        await store.admin_set(G, 3, -1, "negative")
    assert await store.balance(G, 3) == 5000
    # every change is a ledger row with its reason and note
    rows = await store._all(
        store._db, "SELECT l.reason, l.delta, t.note, t.actor FROM ledger l JOIN txns t USING (txn_id) "
        "WHERE l.user_id = 1 ORDER BY l.entry_id")
    assert rows == [("starting_grant", 1000, None, None), ("grant", 250, "tournament prize", 9),
                    ("grant", -1250, "penalty", None)]
    await assert_books_clean(store)


async def test_can_sit_needs_stake_in_range_and_enough_silver(store, players):
    await store.update_guild_settings(G, stake_min=1, stake_max=50, fee=2, min_balance_multiplier=10)
    ok = await store.can_sit(G, 1, 5)
    assert (ok.ok, ok.required, ok.balance) == (True, 52, 1000)
    assert (await store.can_sit(G, 1, 51)).code == "stake_out_of_range"
    await store.admin_set(G, 1, 51, "poor")
    no = await store.can_sit(G, 1, 5)
    assert (no.ok, no.code, no.required) == (False, "insufficient_balance", 52)
    await store.admin_set(G, 1, 52, "just enough")
    assert (await store.can_sit(G, 1, 5)).ok
    for bad in (0, -5):
        with pytest.raises(InvalidAmount):
            await store.can_sit(G, 1, bad)
    with pytest.raises(UnknownPlayer):
        await store.can_sit(G, 99, 5)


async def test_unknown_player_balance(store):
    with pytest.raises(UnknownPlayer):
        await store.balance(G, 5)
    with pytest.raises(UnknownPlayer):
        await store.balances_for(G, [5, None, None, None])
    with pytest.raises(InvalidArgument):
        await store.balances_for(G, [1, 1, None, None])
    with pytest.raises(InvalidArgument):
        await store.balances_for(G, [None, None, None])


def test_error_messages_are_localized():
    e = InsufficientFunds(needed=30, balance=10)
    assert e.message("en") == "Not enough silver: 30 needed, you have 10."
    assert "30" in e.message("zh-CN") and "银子" in e.message("zh")
