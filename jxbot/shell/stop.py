"""Stopping: every running table of this process paused at its next safe point and saved, before the bot's
HTTP session closes (docs/bot.md, "Stopping: the graceful stop"). ``host`` is the cog hosting the tables
(cogs/tables.py ``TablesCog``: its ``manager`` and ``save``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from jxbot.shell.lobby import Table

log = logging.getLogger("jxbot.shell.stop")


async def pause_table(table: Table, timeout: float) -> bool:
    """Pause the table's runner at its next safe point (between moves: every event of the moves made is
    stored, no deal or settlement half done), at most ``timeout`` seconds. One that does not get there in
    time is cancelled where it is, which is safe too (its stored log is a prefix of the hand), but its
    in-memory state is then not saved. True when it paused cleanly."""
    runner = table.session.runner if table.session is not None else None
    if runner is None or not runner.running:
        return False
    task = runner._task
    pausing = asyncio.ensure_future(runner.pause())
    done, _ = await asyncio.wait([pausing], timeout=timeout)
    if done and pausing.exception() is None and getattr(runner, "_error", None) is None:
        return True
    pausing.cancel()  # cancels the runner's task too (pause() waits for it through a gather)
    if task is not None:
        task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 1.0)
    log.warning("table %s did not pause within %.0f s; stopped where it was (its stored events resume it)",
                table.id, timeout)
    return False


async def pause_and_save(host: Any, timeout: float) -> int:
    """Pause every running table of the process at once (bounded by ``timeout``), then save each one that
    paused: its lobby and runner state together, as the next start resumes it. Returns how many."""
    tables = [t for t in list(host.manager.tables.values()) if t.state != "ended" and t.session is not None]
    paused = await asyncio.gather(*(pause_table(t, timeout) for t in tables))
    saved = 0
    for table, ok in zip(tables, paused, strict=True):
        if ok and table.state != "ended":
            await host.save(table)
            saved += 1
    if tables:
        log.info("stopping: %d of %d running tables paused and saved", saved, len(tables))
    return saved
