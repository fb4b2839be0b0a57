"""Clocks for the table runner: the real one (asyncio + wall time) and a manual one for tests.

Every timer of a table (claim window, turn limit, contract decision, computer pacing) goes through
a :class:`Clock`, so tests drive time by hand and never sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Unix time in seconds (the ``deadline`` fields of views use it)."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class RealClock:
    """Wall time and ``asyncio.sleep``."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that only moves when a test calls :meth:`advance`.

    ``sleep`` parks the caller until the fake time reaches its end; ``advance`` wakes sleepers in
    deadline order and lets the event loop run after each wake-up.
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (self._now + seconds, next(self._seq), fut))
        await fut

    @property
    def sleepers(self) -> int:
        return sum(1 for _, _, f in self._heap if not f.done())

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, waking every sleeper whose time has come."""
        target = self._now + seconds
        await settle()
        while self._heap and self._heap[0][0] <= target:
            when, _, fut = heapq.heappop(self._heap)
            if fut.done():
                continue
            self._now = max(self._now, when)
            fut.set_result(None)
            await settle()
        self._now = target
        await settle()


async def settle(rounds: int = 30) -> None:
    """Let ready tasks run (a few passes of the event loop)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
