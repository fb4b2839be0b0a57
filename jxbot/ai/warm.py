"""Build the tables the computer players use before the first decision needs them (issue 18).

The rules engine's shanten tables (``jxbot.rules.shape``) are built on first use, about a second of
CPU; the caishen players call ``shanten`` on their first decision. At a table that decision runs on the
event loop, so the bot builds them in a thread at start-up (``JxBot.setup_hook``, before it connects,
so before any table starts or is resumed) and ``jxbot play`` before its first prompt.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
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


def exit_with_parent(poll_s: float = 1.0) -> None:
    """In a worker process: exit as soon as the process that started it is gone. A pool's worker waits on its
    queue forever, so a bot killed with SIGKILL (or crashed) would leave it behind, holding ~90 MB, after
    every restart (seen: an expert worker alive half an hour after its bot). Polls the parent's pid from a
    daemon thread; a dead parent makes the worker a child of init (or of a subreaper): another pid."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_init() -> None:
    """A computer players' worker process starts here: it leaves with its parent and builds its tables."""
    exit_with_parent()
    warm_tables()

