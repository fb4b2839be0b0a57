"""The shanten tables (about a second to build) are built off the event loop at start-up, before any table
starts, so the first caishen decision at a table does not hold the loop (issue 18)."""

import asyncio
import threading
import time

from jxbot.ai.warm import warm_tables_off_loop
from jxbot.rules import shape

from .conftest import make_bot


def _spy_build(monkeypatch):
    """Forget the built tables and record which thread builds them again, and how long it takes."""
    monkeypatch.setattr(shape, "_SHANTEN", None)
    real = shape._ShantenTables
    builds: list[tuple[int, float]] = []

    def build():
        t0 = time.perf_counter()
        tabs = real()
        builds.append((threading.get_ident(), time.perf_counter() - t0))
        return tabs

    monkeypatch.setattr(shape, "_ShantenTables", build)
    return builds


async def test_the_bot_builds_the_tables_in_a_thread_before_it_connects(fake, monkeypatch, store):
    builds = _spy_build(monkeypatch)
    assert not shape.shanten_tables_ready()
    bot = await make_bot(fake, monkeypatch, store=store)  # runs setup_hook, as before the gateway connects
    try:
        assert shape.shanten_tables_ready(), "setup_hook returned before the tables were built"
        assert len(builds) == 1 and builds[0][0] != threading.get_ident(), "built on the event loop's thread"
        shape.shanten([0, 1, 2, 3])  # the first decision's shanten: nothing left to build
        assert len(builds) == 1
    finally:
        cog = bot.get_cog("TablesCog")
        assert cog is None or not cog.manager.tables


async def test_the_loop_keeps_running_while_the_tables_are_built(monkeypatch):
    builds = _spy_build(monkeypatch)
    ticks: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.005)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    t0 = time.perf_counter()
    await warm_tables_off_loop()
    t1 = time.perf_counter()
    done.set()
    await task
    (_tid, secs), = builds
    during = [t for t in ticks if t0 <= t <= t1]
    gaps = [b - a for a, b in zip(during, during[1:], strict=False)]
    # built on the loop there would be no tick at all during the build (secs is ~1 s, more under load)
    assert len(during) >= 5, (len(during), secs)
    assert max(gaps) < max(0.2, secs / 2), (max(gaps), secs)
