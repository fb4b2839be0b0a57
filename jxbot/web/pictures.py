"""The web pages' pictures: the live game's renderer (``render``), drawn in worker threads off the event loop,
one drawing per picture however many viewers ask at once, kept in a bounded cache."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

import render

KINDS: dict[str, Callable[[dict, str], bytes]] = {
    "table": render.render_table,
    "hand": render.render_hand,
    "result": render.render_result,
}


class Pictures:
    def __init__(self, *, max_bytes: int = 48 << 20, threads: int = 2) -> None:
        self.max_bytes = max_bytes
        self._cache: OrderedDict[tuple, bytes] = OrderedDict()
        self._bytes = 0
        self._pending: dict[tuple, asyncio.Future[bytes]] = {}
        self._sem = asyncio.Semaphore(threads)
        self.drawn = 0  # pictures drawn (the rest came from the cache or a drawing in progress)

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
            async with self._sem:
                png = await asyncio.to_thread(KINDS[kind], view, lang)
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
