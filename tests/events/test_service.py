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


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_check_in_opens_only_its_window_before_the_start_and_reminds_once(store):
    async def opener(ev, plan):
        pass

    clock = Clock(1_000_000.0)
    svc = EventService(store, opener, clock=clock)
    start = clock.now + 3600  # starts in an hour; check-in opens 30 minutes before
    ev = await svc.create(G, CH, EventConfig(name="cup", rounds=1, start_at=start, checkin_minutes=30))
    for uid in (1, 2, 3):
        await svc.join(ev.event_id, uid, f"p{uid}")
    with pytest.raises(EventError) as err:
        await svc.check_in(ev.event_id, 1)
    assert err.value.code == "checkin_closed" and err.value.at == start - 1800
    assert await svc.checkin_reminder(ev.event_id) is None  # not yet open: nobody reminded
    clock.now = start - 1800  # the window opens
    await svc.check_in(ev.event_id, 1)
    assert await svc.checkin_reminder(ev.event_id) == [2, 3]  # the registered not checked in
    assert await svc.checkin_reminder(ev.event_id) is None  # once
    # an admin starting an event before its check-in opened: every registered player plays (none could check in)
    early = await svc.create(G, CH, EventConfig(name="early", rounds=1, start_at=clock.now + 7200, checkin_minutes=30))
    for uid in (1, 2, 3):
        await svc.join(early.event_id, uid, f"p{uid}")
    early = await svc.start(early.event_id)
    assert early.state["absent"] == [] and early.state["waiting"] == []
    # a window that passed whole while the bot was down: no reminder once the start is due
    late = await svc.create(G, CH, EventConfig(name="late", rounds=1, start_at=clock.now + 60, checkin_minutes=30))
    await svc.join(late.event_id, 1, "p1")
    clock.now += 61
    assert await svc.checkin_reminder(late.event_id) == []
    # without a scheduled start there is no window to count back from: check-in is open from registration on
    free = await svc.create(G, CH, EventConfig(name="open", rounds=1, checkin_minutes=30))
    await svc.join(free.event_id, 1, "p1")
    await svc.check_in(free.event_id, 1)
    assert await svc.checkin_reminder(free.event_id) is None


async def test_a_waiting_table_waits_at_most_its_limit_then_a_computer_plays(store):
    opened = []

    async def opener(ev, plan):
        opened.append((plan.round, plan.table_no, tuple(plan.players), tuple(ev.state.get("absent") or [])))

    clock = Clock(2_000_000.0)
    svc = EventService(store, opener, clock=clock)
    ev = await svc.create(G, CH, EventConfig(name="cup", rounds=1, checkin_minutes=5, substitute=False,
                                             wait_minutes=7))
    for uid in range(1, 9):
        await svc.join(ev.event_id, uid, f"p{uid}")
        if uid != 8:
            await svc.check_in(ev.event_id, uid)
    ev = await svc.start(ev.event_id)
    assert ev.state["waiting"] == [8] and ev.state["wait_until"] == clock.now + 420  # stored with the event
    assert len(opened) == 1
    clock.now += 419
    assert await svc.expire_waits(ev.event_id) == [] and len(opened) == 1  # still within the limit
    # a restart in between: a new service on the same store knows the deadline from the store alone
    svc = EventService(store, opener, clock=clock)
    clock.now += 1
    assert await svc.expire_waits(ev.event_id) == [8]
    late = [o for o in opened if 8 in o[2]]
    assert len(late) == 1 and late[0][3] == (8,)  # p8's table opens, their seat a computer's
    ev = await svc.get(ev.event_id)
    assert ev.state["waiting"] == [] and ev.state.get("wait_until") is None and ev.state["absent"] == [8]
    n = len(opened)
    assert await svc.expire_waits(ev.event_id) == [] and len(opened) == n  # once
    with pytest.raises(EventError):
        await svc.check_in(ev.event_id, 8)  # too late: the computer plays their seats


async def test_a_substituted_player_who_checks_in_plays_the_next_round_in_person(store):
    """Issue 32: a player a computer played for (not checked in at the start) who checks in during round 1 sits in
    person from round 2, keeping the round-1 result the computer earned for them; one who never checks in stays
    a computer's; a check-in after a round advanced is for the round after; in the last round there is none."""
    opened = []

    async def opener(ev, plan):  # who a computer plays for at this table (what the cog seats from)
        opened.append((plan.round, plan.table_no, tuple(plan.players), ev.substitutes(plan.round) & set(plan.players)))

    svc = EventService(store, opener)
    ev = await svc.create(G, CH, EventConfig(name="cup", rounds=3, checkin_minutes=5))
    for uid in range(1, 9):
        await svc.join(ev.event_id, uid, f"p{uid}")
        if uid < 6:
            await svc.check_in(ev.event_id, uid)  # p6, p7 and p8 do not check in: computers play for them
    ev = await svc.start(ev.event_id)
    assert sorted(ev.state["absent"]) == [6, 7, 8]
    assert set().union(*(o[3] for o in opened)) == {6, 7, 8}  # round 1: their seats a computer's
    back = await svc.check_in(ev.event_id, 7)  # p7 turns up during round 1
    assert back.back_from(7) == 2 and back.back_from(6) is None
    again = await svc.check_in(ev.event_id, 7)  # twice: nothing more
    assert again.back_from(7) == 2 and again.state["returned"] == back.state["returned"]
    with pytest.raises(EventError):
        await svc.check_in(ev.event_id, 3)  # checked in at the start: nothing to do
    for plan in (await svc.get(ev.event_id)).plans(1):
        # the table seating p7 is won by p7's seat (the computer's play counts for p7)
        totals = [6 if p == 7 else -2 for p in plan.players] if 7 in plan.players else [0, 0, 0, 0]
        await svc.record(ev.event_id, 1, result_for(plan, totals))
    r2 = [o for o in opened if o[0] == 2]
    assert len(r2) == 2 and sorted(p for o in r2 for p in o[2]) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert set().union(*(o[3] for o in r2)) == {6, 8}  # p7 in person in round 2; p6 and p8 still computers'
    _ev, rows = await svc.standings(ev.event_id)
    by = {r.pid: r for r in rows}
    assert by[7].points == 6 and by[7].placements == [1]  # the round-1 result stays p7's
    # p8 checks in once round 2 has begun: they come back for round 3, not round 2 (its tables already sat)
    assert (await svc.check_in(ev.event_id, 8)).back_from(8) == 3
    for plan in (await svc.get(ev.event_id)).plans(2):
        await svc.record(ev.event_id, 2, result_for(plan, [1, -1, 0, 0]))
    r3 = [o for o in opened if o[0] == 3]
    assert set().union(*(o[3] for o in r3)) == {6}  # p8 back in round 3; p6 never checked in
    n = len(opened)
    await svc.reopen(ev.event_id)  # a restart asks for round 3's tables again: the same seats
    assert {(o[1], frozenset(o[3])) for o in opened[n:]} == {(o[1], frozenset(o[3])) for o in r3}
    with pytest.raises(EventError) as err:
        await svc.check_in(ev.event_id, 6)  # the last round: no round left to come back for
    assert err.value.code == "last_round"
    _ev, rows = await svc.standings(ev.event_id)
    assert all(len(r.placements) == 2 for r in rows)  # everyone's two recorded rounds, p6's played by a computer


async def test_a_player_whose_waiting_limit_passed_comes_back_for_the_next_round(store):
    opened = []

    async def opener(ev, plan):
        opened.append((plan.round, tuple(plan.players), ev.substitutes(plan.round) & set(plan.players)))

    clock = Clock(3_000_000.0)
    svc = EventService(store, opener, clock=clock)
    ev = await svc.create(G, CH, EventConfig(name="cup", rounds=2, checkin_minutes=5, substitute=False,
                                             wait_minutes=3))
    for uid in range(1, 5):
        await svc.join(ev.event_id, uid, f"p{uid}")
        if uid != 4:
            await svc.check_in(ev.event_id, uid)
    await svc.start(ev.event_id)
    assert opened == []  # the table waits for p4
    clock.now += 181
    assert await svc.expire_waits(ev.event_id) == [4]
    assert opened == [(1, opened[0][1], {4})]  # the table opens, p4's seat a computer's
    assert (await svc.check_in(ev.event_id, 4)).back_from(4) == 2  # p4 turns up during round 1
    await svc.record(ev.event_id, 1, result_for((await svc.get(ev.event_id)).plans(1)[0], [3, -1, -1, -1]))
    assert [o[2] for o in opened if o[0] == 2] == [set()]  # round 2: all four in person


async def test_what_a_press_after_the_start_end_or_cancel_is_told(store):
    """Pressing things at the wrong time: a second start, a check-in by a player already playing or by someone
    never registered, a check-in or start once the event is over or cancelled — each told what is the matter
    (before, all of them read "the event is no longer open for registration", to an admin starting an event
    and to a player checking in alike)."""
    opened = []

    async def opener(ev, plan):
        opened.append(plan)

    svc = EventService(store, opener)
    ev = await svc.create(G, CH, EventConfig(name="cup", rounds=1))
    for uid in range(1, 5):
        await svc.join(ev.event_id, uid, f"p{uid}")
    got = await asyncio.gather(svc.start(ev.event_id), svc.start(ev.event_id), return_exceptions=True)
    assert [g.code for g in got if isinstance(g, EventError)] == ["started"] and len(opened) == 1  # one table

    async def code(call):
        with pytest.raises(EventError) as err:
            await call
        return err.value.code

    assert await code(svc.check_in(ev.event_id, 2)) == "playing"  # seated in person: nothing to do
    assert await code(svc.check_in(ev.event_id, 99)) == "not_joined"  # never registered
    assert await code(svc.join(ev.event_id, 99, "late")) == "started"
    assert await code(svc.leave(ev.event_id, 1)) == "started"
    await svc.record(ev.event_id, 1, result_for(opened[0], [3, -1, -1, -1]))
    assert (await svc.get(ev.event_id)).status == "ended"
    assert await code(svc.check_in(ev.event_id, 2)) == "ended"
    assert await code(svc.start(ev.event_id)) == "ended"
    assert await code(svc.cancel(ev.event_id)) == "ended"

    other = await svc.create(G, CH, EventConfig(name="cup2"))
    await svc.join(other.event_id, 1, "p1")
    await svc.cancel(other.event_id)
    for call in (svc.check_in(other.event_id, 1), svc.start(other.event_id), svc.cancel(other.event_id),
                 svc.join(other.event_id, 2, "p2"), svc.leave(other.event_id, 1)):
        assert await code(call) == "cancelled"


async def test_a_scheduled_start_with_nobody_to_play_cancels_the_event_once(store):
    """A scheduled event whose time comes with nobody registered, or nobody checked in: it is cancelled (the cog
    tells the channel) instead of being tried again at every tick for ever, open and silent."""
    async def opener(ev, plan):
        pass

    clock = Clock(2_000_000.0)
    svc = EventService(store, opener, clock=clock)
    empty = await svc.create(G, CH, EventConfig(name="empty", rounds=1, start_at=clock.now + 600))
    absent = await svc.create(G, CH, EventConfig(name="absent", rounds=1, start_at=clock.now + 600,
                                                 checkin_minutes=5))
    await svc.join(absent.event_id, 1, "p1")  # registers, never checks in
    ok = await svc.create(G, CH, EventConfig(name="ok", rounds=1, start_at=clock.now + 600))
    await svc.join(ok.event_id, 1, "p1")
    assert await svc.start_due(empty.event_id) is None  # not due yet
    clock.now += 600
    for ev in (empty, absent):
        got = await svc.start_due(ev.event_id)
        assert got is not None and got.status == "cancelled"
        assert (await svc.get(ev.event_id)).status == "cancelled"
        assert await svc.start_due(ev.event_id) is None  # once: the next tick finds nothing to do
    assert (await svc.start_due(ok.event_id)).status == "running"
