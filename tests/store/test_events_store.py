"""The store's arranged tables and events (issue 32): a table's result is recorded once and handed on once,
an event table's result counts once, on SQLite and PostgreSQL."""

from __future__ import annotations

from tests.store.conftest import CH, G


async def test_arranged_result_is_recorded_once_and_delivered_once(store):
    tid, status, new = await store.arranged_open("ev:x/r1/t1", "tournament", "t1", {"seats": []})
    assert (tid, status, new) == ("t1", "open", True)
    # the same key again (a restart while opening): the first table, nothing new
    assert await store.arranged_open("ev:x/r1/t1", "tournament", "t2", {"seats": []}) == ("t1", "open", False)
    assert await store.arranged_pending() == []
    assert await store.arranged_end("ev:x/r1/t1", {"seats": [1]}) is True
    assert await store.arranged_end("ev:x/r1/t1", {"seats": [2]}) is False  # the first result stays
    pending = await store.arranged_pending()
    assert [(p["key"], p["result"]) for p in pending] == [("ev:x/r1/t1", {"seats": [1]})]
    assert await store.arranged_delivered("ev:x/r1/t1") is True
    assert await store.arranged_delivered("ev:x/r1/t1") is False
    assert await store.arranged_pending() == []
    assert (await store.arranged_get("ev:x/r1/t1"))["status"] == "delivered"


async def test_event_registration_and_table_results_count_once(store):
    await store.event_create("e1", G, CH, "Spring cup", {"format": "swiss"}, {"round": 0})
    assert await store.event_join("e1", 7, "alice") is True
    assert await store.event_join("e1", 7, "alice") is False
    assert await store.event_join("e1", 8, "bob") is True
    assert await store.event_check_in("e1", 8) is True
    assert [(p["user_id"], p["checked_in"]) for p in await store.event_players("e1")] == [(7, False), (8, True)]
    assert await store.event_leave("e1", 7) is True
    assert [p["user_id"] for p in await store.event_players("e1")] == [8]
    assert await store.event_table_result("e1", 1, 0, {"totals": [1, -1, 0, 0]}) is True
    assert await store.event_table_result("e1", 1, 0, {"totals": [9, -9, 0, 0]}) is False
    assert await store.event_results("e1") == [{"round": 1, "table_no": 0, "result": {"totals": [1, -1, 0, 0]}}]
    await store.event_save("e1", "running", {"round": 1})
    ev = await store.event_get("e1")
    assert ev["status"] == "running" and ev["state"] == {"round": 1} and ev["name"] == "Spring cup"
    assert [e["event_id"] for e in await store.events_live(G)] == ["e1"]
    await store.event_save("e1", "ended", {"round": 2})
    assert await store.events_live(G) == []
    assert await store.event_latest(G) == "e1" and await store.event_latest(G + 1) is None


async def test_a_duplicate_round_s_wall_stays_in_play_until_its_round_is_over(store):
    """``hand_wall_in_play``: a hand of a duplicate event's table while its event still runs that round (another
    table of the round plays, or will play, the same wall); not a Swiss table's, nor once the round has advanced,
    nor a cancelled event's."""
    await store.save_table("dup1", G, CH, {"stake": 1}, {}, now=1)
    await store.save_table("sw1", G, CH, {"stake": 1}, {}, now=1)
    await store.create_hand("dup1-1", G, CH, "jiaxing", [None] * 4, "c", table_id="dup1")
    await store.create_hand("sw1-1", G, CH, "jiaxing", [None] * 4, "c", table_id="sw1")
    await store.create_hand("free-1", G, CH, "jiaxing", [None] * 4, "c")
    data = {"event": "e1", "round": 1, "table": 0, "players": []}
    await store.arranged_open("ev:e1/r1/t0", "tournament", "dup1", {"seats": [], "data": data, "duplicate": True})
    await store.arranged_open("ev:e2/r1/t0", "tournament", "sw1", {"seats": [], "data": {**data, "event": "e2"},
                                                                    "duplicate": False})
    await store.event_create("e1", G, CH, "dup", {"format": "duplicate"}, {"round": 1})
    await store.event_create("e2", G, CH, "swiss", {"format": "swiss"}, {"round": 1})
    await store.event_save("e1", "running", {"round": 1})
    await store.event_save("e2", "running", {"round": 1})
    assert await store.hand_wall_in_play("dup1-1") is True
    assert await store.hand_wall_in_play("sw1-1") is False
    assert await store.hand_wall_in_play("free-1") is False
    await store.event_save("e1", "running", {"round": 2})  # the round is over: its walls may be shown
    assert await store.hand_wall_in_play("dup1-1") is False
    await store.event_save("e1", "cancelled", {"round": 1})
    assert await store.hand_wall_in_play("dup1-1") is False
