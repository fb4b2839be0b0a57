"""An event's life against a real store (SQLite and PostgreSQL), tables opened through a recording opener:
registration and check-in, rounds opened once even when two tables end together, a result handed on twice
counted once, the end with the secret kept until then."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.events.model import EventConfig, TableRecord, placements
from jxbot.events.service import EventError, EventService
from jxbot.store import Store
from tests.store.conftest import CH, G, db_url  # noqa: F401 - the fixture


@pytest.fixture
async def store(db_url):  # noqa: F811
    s = await Store.open(db_url)
    yield s
    await s.close()


def result_for(plan, totals):
    return TableRecord(plan.round, plan.table_no, plan.players, totals, placements(totals), [totals])


async def test_rounds_open_once_and_results_count_once(store):
    opened = []

    async def opener(ev, plan):
        opened.append((plan.round, plan.table_no, tuple(plan.players), plan.secret))

    svc = EventService(store, opener)
    ev = await svc.create(G, CH, EventConfig(name="cup", format="duplicate", rounds=2, checkin_minutes=5))
    assert len(ev.commitment) == 64 and "secret" not in ev.public_state()
    for uid in range(1, 8):  # seven people: one computer fills the field
        await svc.join(ev.event_id, uid, f"p{uid}")
    with pytest.raises(EventError) as err:
        await svc.join(ev.event_id, 1, "p1")
    assert err.value.code == "already_joined"
    for uid in range(1, 7):
        await svc.check_in(ev.event_id, uid)  # p7 does not check in: a computer plays for them
    ev = await svc.start(ev.event_id)
    assert ev.status == "running" and ev.state["absent"] == [7]
    r1 = [p for p in opened if p[0] == 1]
    assert len(r1) == 2 and r1[0][3] == r1[1][3]  # duplicate: both tables on the same walls
    assert sorted(p for t in r1 for p in t[2]) == [-1, 1, 2, 3, 4, 5, 6, 7]
    plans = (await svc.get(ev.event_id)).plans(1)
    # both tables end at once, and the first result is handed on twice (a restart before its delivery mark)
    a, b = result_for(plans[0], [6, -2, -2, -2]), result_for(plans[1], [-2, 6, -2, -2])
    await asyncio.gather(svc.record(ev.event_id, 1, a), svc.record(ev.event_id, 1, b), svc.record(ev.event_id, 1, a))
    assert len([p for p in opened if p[0] == 2]) == 2  # round 2 opened once
    assert len(await svc.records(ev.event_id)) == 2
    await svc.reopen(ev.event_id)  # a restart: the current round's tables asked again (keys find them)
    assert len([p for p in opened if p[0] == 2]) == 4 and {p for p in opened if p[0] == 2} == {
        p for p in opened[2:4]}
    plans2 = (await svc.get(ev.event_id)).plans(2)
    for plan in plans2:
        await svc.record(ev.event_id, 2, result_for(plan, [0, 0, 0, 0]))
    ev = await svc.get(ev.event_id)
    assert ev.status == "ended" and ev.public_state()["secret"] == ev.state["secret"]
    _ev, rows = await svc.standings(ev.event_id)
    assert len(rows) == 7 and all(r.pid > 0 for r in rows)  # the filler is not ranked
    from jxbot.events.scoring import points_by_player

    assert sum(points_by_player(ev.players(), await svc.records(ev.event_id), "duplicate").values()) == 0
    by = {r.pid: r for r in rows}
    winner_a = plans[0].players[0]
    assert by.get(winner_a) is None or by[winner_a].points == 4  # 6 minus the seat's average (6 + -2) / 2


async def test_without_substitutes_a_table_waits_for_its_late_player(store):
    opened = []

    async def opener(ev, plan):
        opened.append((plan.round, plan.table_no, tuple(plan.players)))

    svc = EventService(store, opener)
    ev = await svc.create(G, CH, EventConfig(name="cup", rounds=1, checkin_minutes=5, substitute=False))
    for uid in range(1, 9):
        await svc.join(ev.event_id, uid, f"p{uid}")
        if uid != 8:
            await svc.check_in(ev.event_id, uid)
    ev = await svc.start(ev.event_id)
    assert ev.state["waiting"] == [8] and ev.state["absent"] == []
    assert len(opened) == 1 and 8 not in opened[0][2]  # the other table plays; p8's waits
    with pytest.raises(EventError):
        await svc.check_in(ev.event_id, 3)  # checked in already, the event running: nothing to do
    await svc.check_in(ev.event_id, 8)  # late: their table opens now, once
    assert len(opened) == 2 and 8 in opened[1][2]
    await svc.reopen(ev.event_id)
    assert len(opened) == 4  # a restart asks for both (the arranged keys find them)
