"""Run as a service: `systemctl stop` / `restart` send SIGTERM. The bot logs out and closes its database
cleanly (exit 0, no traceback, the lock released), and the next start resumes the running table."""

from __future__ import annotations

import asyncio
import signal

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
    proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(proc.wait(), 20) == 0
    log = w.bot.log()
    assert "SIGTERM: stopping" in log and "Traceback" not in log, w.bot.tail()
    await w.bot.start()  # the lock is free: the service restarts at once
    notice = await alice.wait_message(lambda m: "重启" in m.content, w.channel, timeout=30)
    assert "继续" in notice.content
    assert len(await open_hand_ids(w.db)) == 1  # the same hand goes on
