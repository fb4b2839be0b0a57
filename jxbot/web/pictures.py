"""The web pages' pictures: the live game's renderer (``render``), drawn off the event loop in a drawing lane of
the web's own (``jxbot.drawing.Drawing``: a worker process at the low "later" priority when the machine has a
core to spare, else a thread), so that inside the bot they never queue with the players' pictures; one
drawing per picture however many viewers ask at once, kept in a bounded cache."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from jxbot.drawing import Drawing, auto_processes

KINDS = ("table", "hand", "result")


class NoPicture(Exception):
    """The renderer failed (logged by the lane); the page shows its text without the picture."""


class Pictures:
    def __init__(self, *, max_bytes: int = 48 << 20, processes: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.lane = Drawing(auto_processes() if processes is None else processes)
        self._cache: OrderedDict[tuple, bytes] = OrderedDict()
        self._bytes = 0
        self._pending: dict[tuple, asyncio.Future[bytes]] = {}
        self._sem = asyncio.Semaphore(4)  # asked of the lane at once (it draws one at a time)
        self.drawn = 0  # pictures drawn (the rest came from the cache or a drawing in progress)

    def cached(self, key: tuple, kind: str, lang: str) -> bytes | None:
        return self._cache.get((kind, lang, *key))

    async def png(self, key: tuple, kind: str, make_view: Callable[[], dict], lang: str) -> bytes:
        """The picture cached under ``key``; else ``make_view()`` (called here, on the loop) drawn as ``kind``."""
        full = (kind, lang, *key)
        hit = self._cache.get(full)
        if hit is not None:
            self._cache.move_to_end(full)
            return hit
        pending = self._pending.get(full)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[full] = fut
        try:
            view = make_view()
            if kind not in KINDS:
                raise NoPicture(kind)
            async with self._sem:
                png = await self.lane.draw(kind, view, lang, urgent=False)
            if png is None:
                raise NoPicture(kind)
            self.drawn += 1
            self._cache[full] = png
            self._bytes += len(png)
            while self._bytes > self.max_bytes and len(self._cache) > 1:
                _, old = self._cache.popitem(last=False)
                self._bytes -= len(old)
            fut.set_result(png)
            return png
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: a failed drawing is not "never retrieved" when nobody else waited
            raise
        finally:
            self._pending.pop(full, None)

    async def aclose(self) -> None:
        await self.lane.aclose()
