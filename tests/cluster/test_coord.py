"""Table leases and forwarded presses against a real PostgreSQL server (jxbot.cluster.coord)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from jxbot.cluster import coord as coord_mod
from jxbot.cluster.coord import Coordinator


@pytest.fixture
async def two(pg_dsn):
    a = await Coordinator.open(pg_dsn, "node-a")
    b = await Coordinator.open(pg_dsn, "node-b")
    yield a, b
    await a.close()
    await b.close()


async def test_one_table_one_owner_even_when_both_grab_at_once(two):
    a, b = two
    for k in range(10):
        tid = f"t{k}"
        got = await asyncio.gather(a.acquire(tid, 1), b.acquire(tid, 1), a.acquire(tid, 1), b.acquire(tid, 1))
        winners = {name for name, ok in zip("abab", got, strict=True) if ok}
        assert len(winners) == 1, (tid, got)
        assert await a.owner_of(tid) == f"node-{winners.pop()}"
    # renewing keeps it; the other is refused while the lease runs
    assert await a.renew({"x": 5, "y": 5}) == {"x", "y"}
    assert await b.renew({"x": 5, "z": 5}) == {"z"}
    assert await a.renew({"x": 5, "y": 5}) == {"x", "y"}


async def test_a_lapsed_lease_changes_hands_and_the_old_owner_learns_it(two, monkeypatch):
    a, b = two
    # a lease long enough that b's refusal is not a race on a loaded machine; the lapse is waited for
    monkeypatch.setattr(coord_mod, "LEASE_SECONDS", 3.0)
    assert await a.acquire("t", 7)
    assert not await b.acquire("t", 7)
    loop = asyncio.get_running_loop()
    lapsed_by = loop.time() + 30.0
    while await a.owner_of("t") is not None:  # a stopped renewing (killed): the lease lapses
        assert loop.time() < lapsed_by, "the lease never lapsed"
        await asyncio.sleep(0.2)
    assert await b.acquire("t", 7)
    assert await a.renew({"t": 7}) == set(), "the old owner's next beat finds it lost"
    assert await a.owner_of("t") == "node-b"


async def test_a_clean_stop_frees_the_tables_at_once(two):
    a, b = two
    assert await a.renew({"t1": 1, "t2": 1}) == {"t1", "t2"}
    await a.release(["t1"])
    assert await b.acquire("t1", 1) and not await b.acquire("t2", 1)
    await a.release_all()
    assert await a.lease_known("t2") and await a.owner_of("t2") is None, "lapsed, not forgotten (restarting)"
    assert await b.acquire("t2", 1)
    assert not await a.lease_known("never-ran")


async def test_a_forwarded_press_is_taken_once_by_the_owner(two):
    a, b = two
    seen: list[int] = []
    got_note = asyncio.Event()

    def note(pid: int) -> None:
        seen.append(pid)
        got_note.set()

    a.on_press = note
    b.on_press = lambda pid: pytest.fail("the press was announced to the process that is not the owner")
    assert await b.forward("t", {"token": "secret"}) is None, "no owner: nobody to forward to"
    assert await a.acquire("t", 1)
    pid, owner = await b.forward("t", {"id": "9", "token": "secret", "data": {"custom_id": "mj:x"}})
    assert owner == "node-a"
    await asyncio.wait_for(got_note.wait(), 5)
    assert seen == [pid]
    assert await b.take(pid) is None, "only the owner takes it"
    assert (await a.take(pid))["token"] == "secret"
    assert await a.take(pid) is None, "taken once"
    assert await b.wait_taken(pid, timeout=1.0) is True
    assert not await b.withdraw(pid)


async def test_a_press_nobody_takes_is_withdrawn_so_it_is_answered_once(two):
    a, b = two
    a.on_press = lambda pid: None  # the owner hangs: it never takes the press
    assert await a.acquire("t", 1)
    pid, _ = await b.forward("t", {"token": "secret"})
    assert await b.wait_taken(pid, timeout=0.6, every=0.1) is False
    assert await a.take(pid) is None, "withdrawn: the owner can no longer answer it too"


async def test_the_owner_listens_again_after_its_connection_is_lost(two):
    a, b = two
    got = asyncio.Event()
    a.on_press = lambda pid: got.set()
    lost = asyncio.Event()
    a.on_lost = lost.set
    assert await a.acquire("t", 1)
    killer = await asyncpg.connect(a._dsn)
    await killer.execute("SELECT pg_terminate_backend($1)", a.pid)  # the database dropped the session
    await killer.close()
    await asyncio.wait_for(lost.wait(), 5)  # told at once: its tables must stop
    await a.keep_listening()
    assert await a.renew({"t": 1}) == {"t"}, "its next beat records the new session"
    assert await b.forward("t", {"token": "x"}) is not None
    await asyncio.wait_for(got.wait(), 5)


async def test_a_dead_owners_tables_are_free_at_once_a_live_ones_for_the_whole_lease(two, pg_dsn):
    a, b = two
    assert await a.renew({"t1": 1, "t2": 1}) == {"t1", "t2"}
    assert not await b.acquire("t1", 1), "alive (its session is connected), lease running: not b's"
    # a is killed: its database sessions end with the process
    a._listener.terminate()
    await a.pool.close()
    c = await Coordinator.open(pg_dsn, "node-c")
    try:
        loop = asyncio.get_running_loop()
        noticed_by = loop.time() + 10.0  # within ms when idle; well inside the 30 s lease, which must not lapse
        while loop.time() < noticed_by:
            if await c.owner_of("t1") is None:
                break
            await asyncio.sleep(0.05)
        assert await c.owner_of("t1") is None, "the dead owner's lease is not live"
        assert await c.acquire("t1", 1) and await c.renew({"t2": 1}) == {"t2"}, "taken over without waiting"
    finally:
        await c.close()


async def test_the_live_processes_share_the_request_budget(two, pg_dsn):
    """Every process counts the live ones at each beat: a new one lowers the others' shares, a killed one's
    share returns at once (its session is gone), a clean stop's at once too."""
    from jxbot.request_budget import RequestBudget

    a, b = two
    assert await a.live_processes() == 1  # b has not beaten yet
    assert await b.live_processes() == 2 and await a.live_processes() == 2
    budget = RequestBudget(45.0)
    budget.set_processes(await a.live_processes())
    assert budget.rate == 22.5
    c = await Coordinator.open(pg_dsn, "node-c")
    await c.live_processes()
    assert await a.live_processes() == 3
    c._listener.terminate()  # killed: its LISTEN session ends with it
    await c.pool.close()
    loop = asyncio.get_running_loop()
    until = loop.time() + 10.0
    while loop.time() < until and await a.live_processes() != 2:
        await asyncio.sleep(0.05)
    assert await a.live_processes() == 2
    await b.release_all()  # a clean stop
    assert await a.live_processes() == 1
