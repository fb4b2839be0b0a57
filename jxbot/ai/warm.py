"""Build the tables the computer players use before the first decision needs them (issue 18).

The rules engine's shanten tables (``jxbot.rules.shape``) are built on first use, about a second of
CPU; the caishen players call ``shanten`` on their first decision. At a table that decision runs on the
event loop, so the bot builds them in a thread at start-up (``JxBot.setup_hook``, before it connects,
so before any table starts or is resumed) and ``jxbot play`` before its first prompt.
"""

from __future__ import annotations

import asyncio
import logging
import time

log = logging.getLogger(__name__)


def warm_tables() -> float:
    """Build the tables (a no-op once built); the milliseconds it took."""
    from jxbot.rules.shape import warm_shanten_tables

    t0 = time.perf_counter()
    warm_shanten_tables()
    return (time.perf_counter() - t0) * 1000.0


async def warm_tables_off_loop() -> float:
    """``warm_tables`` in a worker thread: the event loop keeps running meanwhile."""
    ms = await asyncio.to_thread(warm_tables)
    log.info("computer players' tables ready (%.0f ms)", ms)
    return ms
