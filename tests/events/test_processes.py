"""Two processes sharing one PostgreSQL store run one event (a global event: its tables run wherever they were
opened, so the last two tables of a round can end in two processes at once): each process has its own store
connection and its own EventService (its own in-process lock), and the round advance and the end are a
compare-and-set in the store — the next round opens once and the end is announced once."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.events.model import EventConfig, TableRecord, placements
from jxbot.events.service import EventError, EventService
from jxbot.store import Store
from tests import pgdb
from tests.store.conftest import CH, G, db_url  # noqa: F401 - the fixture


def result_for(plan, totals):
    return TableRecord(plan.round, plan.table_no, plan.players, totals, placements(totals), [totals])


async def test_event_advance_is_a_compare_and_set(db_url):  # noqa: F811
    store = await Store.open(db_url)
    try:
        await store.event_create("e1", G, CH, "cup", {"name": "cup"}, {"round": 1, "waiting": [5, 6], "x": 1})
        assert not await store.event_advance("e1", 2, "running", "running", {"round": 3})  # not running yet
        assert not await store.event_advance("e1", 2, "open", "running", {"round": 3})  # not at round 2
        assert await store.event_advance("e1", 1, "open", "running", {"round": 2})
        assert not await store.event_advance("e1", 1, "running", "running", {"round": 2})  # already advanced
        row = await store.event_get("e1")
        assert row["status"] == "running" and row["state"] == {"round": 2, "waiting": [5, 6], "x": 1}  # kept
        # a callable sees the state under the row's lock; None changes nothing
        assert await store.event_advance("e1", None, ("open", "running"), None,
                                         lambda s: {"waiting": [u for u in s["waiting"] if u != 5]})
        assert not await store.event_advance("e1", None, "running", None, lambda s: None)
        row = await store.event_get("e1")
        assert row["status"] == "running" and row["state"]["waiting"] == [6]
        assert not await store.event_advance("nope", None, "running", "ended")
    finally:
        await store.close()


async def two_services(dsn: str, opened: list, told: list) -> tuple[list[Store], list[EventService]]:
    stores = [await Store.open(dsn, scope="global"), await Store.open(dsn, scope="global")]

    def make(name: str, store: Store) -> EventService:
        async def opener(ev, plan):
            opened.append((name, plan.round, plan.table_no))

        async def notify(ev, what):
            told.append((name, what, ev.round))

        return EventService(store, opener, notify)

    return stores, [make("a", stores[0]), make("b", stores[1])]


async def test_two_processes_recording_a_round_s_last_tables_at_once_advance_it_once():
    dsn = await pgdb.empty_database()
    opened: list = []
    told: list = []
    stores, (a, b) = await two_services(dsn, opened, told)
    try:
        n_events = 6
        for k in range(n_events):
            opened.clear()
            told.clear()
            ev = await a.create(G, CH, EventConfig(name=f"cup{k}", rounds=2, scope="global"))
            for uid in range(1, 9):
                await (a if uid % 2 else b).join(ev.event_id, uid, f"p{uid}")
            # both processes try to start it at once: one starts it, the other is told it is not open
            got = await asyncio.gather(a.start(ev.event_id), b.start(ev.event_id), return_exceptions=True)
            assert sum(isinstance(g, EventError) and g.code == "started" for g in got) == 1, got
            assert len([o for o in opened if o[1] == 1]) == 2
            for r in (1, 2):
                plans = (await a.get(ev.event_id)).plans(r)
                assert len(plans) == 2
                # the round's two tables end in the two processes at once (each result also handed on twice)
                await asyncio.gather(a.record(ev.event_id, r, result_for(plans[0], [4, -4, 0, 0])),
                                     b.record(ev.event_id, r, result_for(plans[1], [0, 0, 4, -4])),
                                     b.record(ev.event_id, r, result_for(plans[0], [4, -4, 0, 0])))
            assert len([o for o in opened if o[1] == 2]) == 2, opened  # round 2's tables opened once
            assert [w for _, w, r in told if w == "round_started" and r == 2] == ["round_started"], told
            assert [w for _, w, _r in told if w == "ended"] == ["ended"], told
            final = await b.get(ev.event_id)
            assert final.status == "ended" and final.round == 2
            assert len(await a.records(ev.event_id)) == 4
            with pytest.raises(EventError):
                await a.cancel(ev.event_id)
    finally:
        for s in stores:
            await s.close()


async def test_a_cancel_racing_a_round_advance_wins_or_loses_whole():
    dsn = await pgdb.empty_database()
    opened: list = []
    told: list = []
    stores, (a, b) = await two_services(dsn, opened, told)
    try:
        ev = await a.create(G, CH, EventConfig(name="cup", rounds=3, scope="global"))
        for uid in range(1, 5):
            await a.join(ev.event_id, uid, f"p{uid}")
        await a.start(ev.event_id)
        plan = (await a.get(ev.event_id)).plans(1)[0]
        await asyncio.gather(a.record(ev.event_id, 1, result_for(plan, [1, -1, 0, 0])), b.cancel(ev.event_id))
        final = await a.get(ev.event_id)
        assert final.status == "cancelled"  # the cancel re-read after losing to the advance, or won first
        assert final.round in (1, 2) and len([o for o in opened if o[1] == 2]) == (final.round == 2) * 1
    finally:
        for s in stores:
            await s.close()


class _Reached(Exception):
    pass


async def test_reopening_a_round_never_restarts_a_table_another_process_runs():
    """After a restart the event's owner re-opens its round: with several processes, an arranged table that is
    running in the store (another process holds it) is found, not started again here (which would save a fresh
    table over the one running); one recorded but never started still opens."""
    from types import SimpleNamespace

    from jxbot.shell import arranged

    running: list = [SimpleNamespace(table_id="t1")]

    class FakeStore:
        async def arranged_open(self, key, kind, table_id, spec):
            return "t1", "open", False

        async def running_tables(self):
            return running

    class Manager:
        away: dict = {}

        def new_id(self):
            return "t9"

        def get(self, table_id):
            return None

        def lock(self, table_id):
            raise _Reached(table_id)

    host = SimpleNamespace(manager=Manager())
    bot = SimpleNamespace(store=FakeStore(), shard_plan=object(), get_cog=lambda name: host)
    seats = [arranged.Seat(1, "a"), arranged.Seat(2, "b"), arranged.Seat(3, "c"), arranged.Seat(4, "d")]
    spec = arranged.Spec(key="ev:x/r1/t0", kind="tournament", guild_id=G, channel_id=CH, seats=seats, dm=True)
    assert await arranged.open_table(bot, spec) == "t1"  # running elsewhere: nothing started here
    running.clear()  # recorded, never started (a restart in between): it opens now, under its own id
    with pytest.raises(_Reached) as got:
        await arranged.open_table(bot, spec)
    assert got.value.args == ("t1",)


async def test_a_registration_between_the_start_s_read_and_its_compare_is_seated_or_refused():
    """Process a starts the event; process b registers a player just after a read the registrations: the start
    reads again and seats them (never a player told "registered" who is left out); a registration after the
    start is refused (not open)."""
    dsn = await pgdb.empty_database()
    opened: list = []
    told: list = []
    stores, (a, b) = await two_services(dsn, opened, told)
    try:
        ev = await a.create(G, CH, EventConfig(name="cup", rounds=1, scope="global"))
        for uid in range(1, 5):
            await a.join(ev.event_id, uid, f"p{uid}")
        read = stores[0].event_players
        late = []

        async def players_then_a_join(event_id):
            rows = await read(event_id)
            if not late:  # the first read only: b registers p5 before a's compare-and-set
                late.append(await b.join(event_id, 5, "p5"))
            return rows

        stores[0].event_players = players_then_a_join  # type: ignore[method-assign]
        started = await a.start(ev.event_id)
        assert late and 5 in {p.pid for p in started.players()}  # read again: p5 plays
        assert sorted(p for o in (await a.get(ev.event_id)).plans(1) for p in o.players) == [-3, -2, -1, 1, 2, 3, 4, 5]
        with pytest.raises(EventError) as err:
            await b.join(ev.event_id, 6, "p6")
        assert err.value.code == "started"
        assert [r["user_id"] for r in await stores[1].event_players(ev.event_id)] == [1, 2, 3, 4, 5]
        with pytest.raises(EventError) as err:
            await b.leave(ev.event_id, 5)
        assert err.value.code == "started"
    finally:
        for s in stores:
            await s.close()


async def test_a_come_back_racing_a_round_advance_seats_the_player_from_the_round_they_are_told():
    """Process b checks a substituted player in while process a records round 1's last table and opens round 2:
    just before a's compare-and-set, or just after it (before a reads the event again to open round 2's tables).
    Either way the round the player is told they play from is the first round whose table seats them in person —
    never told round 2 and left a computer's there, nor told round 3 and seated in round 2."""
    dsn = await pgdb.empty_database()
    stores = [await Store.open(dsn, scope="global"), await Store.open(dsn, scope="global")]
    seated: list = []

    async def opener(ev, plan):
        if 4 in plan.players:
            seated.append((plan.round, 4 not in ev.substitutes(plan.round)))

    a, b = EventService(stores[0], opener), EventService(stores[1], opener)
    advance = stores[0].event_advance
    try:
        for when, expect in (("before", 2), ("after", 3)):
            seated.clear()
            ev = await a.create(G, CH, EventConfig(name=f"cup {when}", rounds=3, checkin_minutes=5, scope="global"))
            for uid in range(1, 5):
                await a.join(ev.event_id, uid, f"p{uid}")
                if uid != 4:
                    await a.check_in(ev.event_id, uid)
            await a.start(ev.event_id)
            plan = (await a.get(ev.event_id)).plans(1)[0]
            back: list = []

            async def advance_with_a_check_in(event_id, expected_round, *args, when=when, back=back, **kw):
                if expected_round == 1 and when == "before" and not back:
                    back.append(await b.check_in(event_id, 4))
                ok = await advance(event_id, expected_round, *args, **kw)
                if expected_round == 1 and when == "after" and not back:
                    back.append(await b.check_in(event_id, 4))
                return ok

            stores[0].event_advance = advance_with_a_check_in  # type: ignore[method-assign]
            await a.record(ev.event_id, 1, result_for(plan, [1, -1, 0, 0]))
            stores[0].event_advance = advance  # type: ignore[method-assign]
            assert back and back[0].back_from(4) == expect, when
            assert [s for s in seated if s[0] == 2] == [(2, expect == 2)], (when, seated)
            await a.record(ev.event_id, 2, result_for((await a.get(ev.event_id)).plans(2)[0], [0, 0, 0, 0]))
            assert [s for s in seated if s[0] == 3] == [(3, True)], (when, seated)
    finally:
        for s in stores:
            await s.close()
