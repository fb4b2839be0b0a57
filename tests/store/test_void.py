"""Issue 24: a hand is voided only when its table is provably abandoned (closed: suspended, or closed by a
failure), checked in the transaction that settles it; a settled hand takes no more events and no other
settlement; a hand voided while its table still runs is not served as a finished replay. On SQLite and
PostgreSQL (``store``/``db_url`` fixtures), with two Store objects as two processes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cogs.suspend import VOID_SETTLEMENT, void_result, void_suspended
from jxbot.replay_store import ReplayUnavailable, load_hand
from jxbot.store import HandLive, HandSettled, Store

from .conftest import CH, G, settlement, win_result

SEATS = [1, 2, 3, 4]
EV = [{"type": "deal", "n": 0}, {"type": "draw", "n": 1}]


def _cog(store: Store) -> SimpleNamespace:
    class Bot:
        def get_partial_messageable(self, _cid: int) -> object:
            class Ch:
                async def send(self, *a: object, **kw: object) -> None:
                    return None

            return Ch()

    bot = Bot()
    bot.store = store  # type: ignore[attr-defined]
    return SimpleNamespace(bot=bot)


async def _table_with_hand(store: Store, tid: str, hid: str, *, state: dict | None = None) -> None:
    await store.save_table(tid, G, CH, {"stake": 5}, state or {"bot_table": {"seats": []}, "runner": {"hand_id": hid}})
    await store.create_hand(hid, G, CH, "jiaxing", SEATS, "c0ffee", table_id=tid)
    await store.append_events(hid, 0, EV)


async def test_a_hand_is_voided_only_once_its_table_is_closed(store, players):
    await _table_with_hand(store, "t1", "h1")
    with pytest.raises(HandLive):  # its table runs: not abandoned, nothing written
        await store.settle_hand("h1", G, SEATS, VOID_SETTLEMENT, void_result("h1", "t1", "table_error"),
                                abandoned_only=True)
    assert (await store.get_hand("h1")).status == "running"
    assert await store.close_table("t1", if_suspended=True) is False  # no suspended mark: stays running
    assert [r.table_id for r in await store.running_tables()] == ["t1"]
    await store.close_table("t1")  # the table stopped (suspended)
    res = await store.settle_hand("h1", G, SEATS, VOID_SETTLEMENT, void_result("h1", "t1", "table_error"),
                                  abandoned_only=True)
    assert res.result["void"] is True and res.deltas == (0, 0, 0, 0)
    assert [await store.balance(G, u) for u in SEATS] == [1000] * 4
    assert await store.check() == []


async def test_a_table_marked_suspended_is_closed_only_while_the_mark_is_there(store, players):
    await _table_with_hand(store, "t1", "h1", state={"bot_table": {}, "suspended": {"hand_id": "h1"}})
    assert await store.close_table("t1", if_suspended=True) is True
    assert await store.running_tables() == []


async def test_no_event_goes_into_a_settled_hand_and_a_void_is_not_taken_for_a_result(store, players):
    await _table_with_hand(store, "t1", "h1")
    await store.settle_hand("h1", G, SEATS, settlement(), win_result(None))
    assert await store.append_events("h1", 0, EV) == 0  # a retry of what is stored: fine
    assert await store.append_event("h1", 1, EV[1]) is False
    with pytest.raises(HandSettled):
        await store.append_events("h1", 2, [{"type": "discard", "n": 2}])
    with pytest.raises(HandSettled):
        await store.append_event("h1", 2, {"type": "discard", "n": 2})
    assert len(await store.hand_events("h1")) == 2

    # a hand settled as void: the runner's own settlement afterwards is refused, not "repeated"
    await _table_with_hand(store, "t2", "h2")
    await store.settle_hand("h2", G, SEATS, VOID_SETTLEMENT, void_result("h2", "t2", "table_error"))
    with pytest.raises(HandSettled):
        await store.settle_hand("h2", G, SEATS, settlement((1, 0, 30, "win")), win_result(0))
    assert [await store.balance(G, u) for u in SEATS] == [1000] * 4
    assert await store.check() == []


async def test_a_hand_voided_while_its_table_runs_is_not_replayed(store, players):
    await _table_with_hand(store, "t1", "h1")
    # (as today's main did at a restart) the hand of a running table settled as void
    await store.settle_hand("h1", G, SEATS, VOID_SETTLEMENT, void_result("h1", "t1", "table_error"))
    assert await store.hand_live("h1") is True
    with pytest.raises(ReplayUnavailable) as err:
        await load_hand(store, "h1")
    assert err.value.code == "running"
    await store.close_table("t1")
    assert await store.hand_live("h1") is False  # the table is over: the (void) hand may be looked at


async def test_a_starting_process_never_voids_a_table_another_one_opens_meanwhile(db_url):
    """Finding 4: process B, starting, reads the running tables; process A then opens a table and deals
    its first hand; B then reads the open hands. That hand is A's live hand: it stays open, its events
    keep going in, and B voids only what is provably abandoned."""
    a = await Store.open(db_url)
    b = await Store.open(db_url)
    try:
        for uid in SEATS:
            await a.ensure_player(uid, f"p{uid}")
            await a.grant_starting(G, uid)
        await _table_with_hand(a, "old", "h-old", state={"bot_table": {}, "suspended": {"hand_id": "h-old"}})
        real = b.running_tables

        async def running_then_a_deals() -> list:
            rows = await real()
            await _table_with_hand(a, "new", "h-new")  # between B's two reads
            return rows

        b.running_tables = running_then_a_deals  # type: ignore[method-assign]
        assert await void_suspended(_cog(b), "en") == 1  # the suspended table's hand only
        assert (await a.get_hand("h-new")).status == "running"
        assert (await a.hand_result("h-old")).result["void"] is True
        assert await a.append_events("h-new", 2, [{"type": "discard", "n": 2}]) == 1
        assert await a.check() == []
    finally:
        await a.close()
        await b.close()


async def test_voiding_at_start_keeps_to_the_process_s_own_guilds(store, players):
    await _table_with_hand(store, "t1", "h1")
    await store.close_table("t1")
    assert await void_suspended(_cog(store), "en", owns=lambda gid: gid != G) == 0  # another process's guild
    assert (await store.get_hand("h1")).status == "running"
    assert await void_suspended(_cog(store), "en", owns=lambda gid: gid == G) == 1
