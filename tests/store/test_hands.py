from __future__ import annotations

import pytest

from jxbot.rules.contract import Settlement, Transfer
from jxbot.store import (
    AmountOverflow,
    EventConflict,
    EventOutOfOrder,
    HandConflict,
    InvalidAmount,
    InvalidArgument,
    UnknownHand,
    UnknownPlayer,
    UnknownTable,
)

from .conftest import CH, G, settlement, win_result

SEATS = [1, 2, 3, 4]


async def balances(store, seats=SEATS):
    return await store.balances_for(G, seats)


async def test_hand_record_and_idempotent_create(store, players):
    h = await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c0ffee")
    assert (h.status, h.seats, h.commitment, h.reveal) == ("running", (1, 2, 3, 4), "c0ffee", None)
    assert await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c0ffee") == h  # retry: same record
    with pytest.raises(HandConflict):
        await store.create_hand("h1", G, CH, "jiaxing", [2, 1, 3, 4], "c0ffee")
    with pytest.raises(UnknownPlayer):
        await store.create_hand("h2", G, CH, "jiaxing", [1, 2, 3, 99], "c")
    with pytest.raises(InvalidArgument):
        await store.create_hand("h2", G, CH, "jiaxing", [1, 1, 3, 4], "c")
    with pytest.raises(UnknownTable):
        await store.create_hand("h2", G, CH, "jiaxing", SEATS, "c", table_id="nope")
    assert [h.hand_id for h in await store.open_hands()] == ["h1"]
    assert await store.hand_result("h1") is None  # not settled yet
    with pytest.raises(UnknownHand):
        await store.hand_result("nope")


async def test_events_are_ordered_idempotent_and_replayable(store, players):
    await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c")
    evs = [{"type": "deal", "dice": [3, 4]}, {"type": "discard", "seat": 0, "tile": 5}, {"type": "pass", "seat": 1}]
    for i, e in enumerate(evs):
        assert await store.append_event("h1", i, e) is True
    assert await store.append_event("h1", 1, {"seat": 0, "tile": 5, "type": "discard"}) is False  # retry
    with pytest.raises(EventConflict):
        await store.append_event("h1", 1, {"type": "discard", "seat": 0, "tile": 6})
    with pytest.raises(EventOutOfOrder):
        await store.append_event("h1", 5, {"type": "x"})
    with pytest.raises(UnknownHand):
        await store.append_event("nope", 0, {"type": "x"})
    with pytest.raises(InvalidArgument):
        await store.append_event("h1", -1, {})
    with pytest.raises(InvalidArgument):
        await store.append_event("h1", 3, "{not json")
    assert await store.append_event("h1", 3, '{"type":"draw"}') is True  # JSON text is accepted too
    assert await store.hand_events("h1") == [*evs, {"type": "draw"}]
    with pytest.raises(UnknownHand):
        await store.hand_events("nope")


async def test_a_move_of_several_events_is_appended_in_one_go(store, players):
    await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c")
    evs = [{"type": "deal"}, {"type": "discard", "seat": 0, "tile": 5}, {"type": "draw", "seat": 1}]
    assert await store.append_events("h1", 0, evs[:1]) == 1
    assert await store.append_events("h1", 1, evs[1:]) == 2
    assert await store.append_events("h1", 1, evs[1:]) == 0  # a retry writes nothing
    assert await store.append_events("h1", 2, [evs[2], {"type": "pass"}]) == 1  # half stored: the rest
    with pytest.raises(EventConflict):
        await store.append_events("h1", 1, [{"type": "discard", "seat": 0, "tile": 6}, {"type": "x"}])
    with pytest.raises(EventOutOfOrder):
        await store.append_events("h1", 9, [{"type": "x"}])
    with pytest.raises(UnknownHand):
        await store.append_events("nope", 0, [{"type": "x"}])
    assert await store.hand_events("h1") == [*evs, {"type": "pass"}]
    assert await store.append_event("h1", 4, {"type": "y"}) is True  # both ways keep one order


async def test_settlement_pays_once_and_a_repeat_is_a_noop(store, players):
    await store.update_guild_settings(G, fee=2)
    await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c")
    s = settlement((1, 0, 60, "win"), (2, 0, 60, "win"), (3, 0, 60, "win"),
                   (0, None, 2, "fee"), (1, None, 2, "fee"), (2, None, 2, "fee"), (3, None, 2, "fee"))
    res = await store.settle_hand("h1", G, SEATS, s, win_result(0, tai=3, fan=2), now=1000.0)
    assert res.deltas == (178, -62, -62, -62)
    assert res.balances == (1178, 938, 938, 938)
    assert res.house_delta == 8 and not res.capped and not res.repeated
    assert await balances(store) == [1178, 938, 938, 938]
    assert await store.house_balance(G) == -4000 + 8

    again = await store.settle_hand("h1", G, SEATS, s, win_result(1), now=2000.0)
    assert again.repeated and again.deltas == res.deltas and again.result == res.result
    assert again.settled_at == 1000.0
    assert await balances(store) == [1178, 938, 938, 938]  # nothing paid twice
    h = await store.get_hand("h1")
    assert h.status == "settled" and h.reveal == {"wall": [1, 2, 3], "salt": "s", "commitment": "c"}
    assert await store.hand_result("h1") == res
    assert await store.open_hands() == []
    assert await store.check() == []


async def test_computer_seats_are_backed_by_the_house(store, players):
    seats = [1, None, 2, None]
    await store.create_hand("h1", G, CH, "jiaxing", seats, "c")
    assert await store.balances_for(G, seats) == [1000, None, 1000, None]
    # a computer wins: everybody pays it, the house receives for it; fees from computers are a wash
    s = settlement((0, 1, 40, "win"), (2, 1, 40, "win"), (3, 1, 40, "win"),
                   (0, None, 1, "fee"), (1, None, 1, "fee"), (2, None, 1, "fee"), (3, None, 1, "fee"))
    house0 = await store.house_balance(G)
    res = await store.settle_hand("h1", G, seats, s, win_result(1))
    assert res.balances == (959, None, 959, None)
    assert res.deltas == (-41, 119, -41, -41)
    assert await store.house_balance(G) - house0 == 82 == res.house_delta
    assert await store.check() == []
    # players' stats count the hand, the computer has none
    st = await store.player_stats(G, 1)
    assert (st.hands, st.wins, st.net) == (1, 0, -41)


async def test_a_short_payer_pays_what_they_have(store, players):
    await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c")
    s = settlement((1, 0, 300, "win"), (2, 0, 300, "win"), (3, 0, 300, "win"))
    await store.admin_set(G, 3, 100, "poor")  # seat 2  # balances changed after the engine computed the settlement
    res = await store.settle_hand("h1", G, SEATS, s, win_result(0))
    assert res.capped
    assert res.balances == (1000 + 300 + 100 + 300, 700, 0, 700)
    assert [t.amount for t in res.transfers] == [300, 100, 300]
    assert [t.asked for t in res.transfers] == [300, 300, 300]
    assert await store.check() == []


async def test_bad_settlements_are_rejected_and_write_nothing(store, players):
    await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c")
    cases = [
        (settlement((1, 0, -5, "win")), InvalidAmount),
        (settlement((1, 0, 2**63, "win")), AmountOverflow),
        (Settlement(transfers=(Transfer(1, 7, 5, "win"),), deltas=(0, -5, 0, 0), house_delta=5), InvalidArgument),
        (settlement((1, 1, 5, "win")), InvalidArgument),
        (settlement((1, 0, 5, "bribe")), InvalidArgument),
        (Settlement(transfers=(Transfer(1, 0, 5, "win"),), deltas=(9, -5, 0, 0), house_delta=-4), InvalidArgument),
        ("not a settlement", InvalidArgument),
    ]
    for s, exc in cases:
        with pytest.raises(exc):
            await store.settle_hand("h1", G, SEATS, s, win_result(0))
    with pytest.raises(UnknownHand):
        await store.settle_hand("nope", G, SEATS, settlement((1, 0, 5, "win")), win_result(0))
    with pytest.raises(HandConflict):
        await store.settle_hand("h1", G, [2, 1, 3, 4], settlement((1, 0, 5, "win")), win_result(0))
    with pytest.raises(HandConflict):
        await store.settle_hand("h1", G + 1, SEATS, settlement((1, 0, 5, "win")), win_result(0))
    assert (await store.get_hand("h1")).status == "running"
    assert await balances(store) == [1000] * 4
    res = await store.settle_hand("h1", G, SEATS, settlement((1, 0, 5, "win")), win_result(0))
    assert res.balances == (1005, 995, 1000, 1000)


async def test_escape_and_drawn_hand(store, players):
    await store.create_hand("h1", G, CH, "jiaxing", SEATS, "c")
    s = settlement((2, 0, 30, "escape"), (2, 1, 30, "escape"), (2, 3, 30, "escape"), (2, None, 1, "escape"))
    res = await store.settle_hand("h1", G, SEATS, s, win_result(None))
    assert res.balances == (1030, 1030, 909, 1030)
    rows = await store._all(store._db, "SELECT DISTINCT reason FROM ledger WHERE hand_id = 'h1'")
    assert rows == [("escape",)]
    st = await store.player_stats(G, 2 + 1)
    assert (st.hands, st.wins, st.net) == (1, 0, -91)
    assert await store.check() == []


async def test_running_tables_for_resume(store, players):
    assert await store.save_table("t1", G, CH, {"stake": 5}, {"hand_number": 1}, now=10)
    assert await store.save_table("t2", G, CH + 1, '{"stake": 1}', "{}", now=11)
    await store.create_hand("t1-1", G, CH, "jiaxing", SEATS, "c", table_id="t1", now=12)
    await store.settle_hand("t1-1", G, SEATS, settlement((1, 0, 5, "win")), win_result(0), now=13)
    await store.create_hand("t1-2", G, CH, "jiaxing", SEATS, "c", table_id="t1", now=14)
    await store.append_event("t1-2", 0, {"type": "deal"})
    assert await store.save_table("t1", G, CH, {"stake": 5}, {"hand_number": 2}, now=15)
    tables = await store.running_tables()
    assert [t.table_id for t in tables] == ["t1", "t2"]
    t1 = tables[0]
    assert (t1.config, t1.state, t1.hand_ids, t1.open_hand_id) == ({"stake": 5}, {"hand_number": 2},
                                                                   ("t1-1", "t1-2"), "t1-2")
    assert await store.hand_events(t1.open_hand_id) == [{"type": "deal"}]
    assert tables[1].hand_ids == () and tables[1].open_hand_id is None
    assert await store.close_table("t2") is True
    assert await store.close_table("t2") is False
    assert await store.save_table("t2", G, CH, {}, {}) is False  # a closed table stays closed
    assert [t.table_id for t in await store.running_tables()] == ["t1"]
    with pytest.raises(UnknownTable):
        await store.close_table("t9")
    with pytest.raises(InvalidArgument):
        await store.save_table("t1", G + 1, CH, {}, {})


async def test_the_running_table_a_person_sits_at(store, players):
    """``/mahjong leave`` in a process that does not run the person's table looks it up here (docs/bot.md)."""
    def state(*seats):
        return {"bot_table": {"seats": list(seats)}, "runner": None}

    human = {"user_id": 7, "name": "a", "is_computer": False}
    bot = {"user_id": None, "name": "#1", "is_computer": True}
    assert await store.save_table("t1", G, CH, {}, state(bot, {"user_id": 8, "name": "b"}, None, bot), now=10)
    assert await store.save_table("t2", G, CH + 1, {}, state(bot, human, bot, bot), now=11)
    assert await store.running_table_of(7) == "t2" and await store.running_table_of(8) == "t1"
    assert await store.running_table_of(9) is None
    assert await store.close_table("t2") is True
    assert await store.running_table_of(7) is None  # an ended table seats nobody


async def test_the_running_table_a_person_sits_at_is_not_a_suspended_one(store, players):
    """A table suspended (or stopped by an admin) is marked in the store, then closed; a close that did not reach
    the store leaves it 'running' until a start voids it. Its saved seats still name its players: the forwarded
    ``/mahjong leave`` of one of them, now at another table, went to that dead table ("this table is restarting",
    again and again) instead of the table they sit at."""
    def state(*seats, suspended=False):
        return {"bot_table": {"seats": list(seats)}, "runner": None,
                **({"suspended": {"at": 1, "error": "closed_by_admin"}} if suspended else {})}

    human = {"user_id": 7, "name": "a", "is_computer": False}
    bot = {"user_id": None, "name": "#1", "is_computer": True}
    assert await store.save_table("dead", G, CH, {}, state(human, bot, bot, bot, suspended=True), now=10)
    assert await store.save_table("live", G, CH + 1, {}, state(bot, human, bot, bot), now=11)
    assert await store.running_table_of(7) == "live"
