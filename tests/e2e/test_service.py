"""Run as a service: `systemctl stop` / `restart` send SIGTERM. The bot logs out and closes its database
cleanly (exit 0, no traceback, the lock released), and the next start resumes the running table."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.scenario import open_hand_ids, open_table, start_world

pytestmark = pytest.mark.e2e


async def test_sigterm_stops_cleanly_and_the_next_start_resumes_the_table(double, start_bot, tmp_path):
    w = await start_world(double, start_bot, tmp_path, ["alice"], env={"JXBOT_COMPUTER_DELAY": "0.2"})
    alice = w.players[0]
    await open_table(w, computers=3)
    await alice.wait_dm(lambda m: m.image() is not None, timeout=20)
    assert len(await open_hand_ids(w.db)) == 1
    proc = w.bot.proc
    assert proc is not None
    if (os.cpu_count() or 1) >= 2:  # the default (JXBOT_DRAW_PROCESSES=auto): pictures drawn in processes
        await w.bot.wait_log("drawing processes ready: 1 now + 1 later", timeout=30)
    workers = children(proc.pid)
    assert len(workers) >= (2 if (os.cpu_count() or 1) >= 2 else 0), w.bot.tail()
    proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(proc.wait(), 20) == 0
    log = w.bot.log()
    assert "SIGTERM: stopping" in log and "Traceback" not in log, w.bot.tail()
    deadline = time.monotonic() + 10
    while [p for p in workers if Path(f"/proc/{p}").exists()] and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not [p for p in workers if Path(f"/proc/{p}").exists()], "drawing processes outlived the bot"
    await w.bot.start()  # the lock is free: the service restarts at once
    notice = await alice.wait_message(lambda m: "重启" in m.content, w.channel, timeout=30)
    assert "继续" in notice.content
    assert len(await open_hand_ids(w.db)) == 1  # the same hand goes on


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the bot's drawing workers, its multiprocessing tracker)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
        except (OSError, ValueError):
            continue
    return out
