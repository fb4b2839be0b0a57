"""Run as a service: `systemctl stop` / `restart` send SIGTERM. The bot logs out and closes its database
cleanly (exit 0, no traceback, the lock released), and the next start resumes the running table.

A start that fails exits as the systemd unit expects (docs/bot.md, "Running it as a service"): 2 for what the
admin must fix (a rejected or malformed token, a bad setting, the database: ``RestartPreventExitStatus=2``
keeps it down), 1 for what may pass (the network, DNS, a Discord outage: restarted after ``RestartSec``);
one line each, no traceback, the token never shown."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import BotProcess
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


RUN = ["-m", "jxbot.cli", "run", "--no-sync"]
WRONG_TOKEN = "MTIzNDU2Nzg5.wrong-token.never-shown-anywhere"


async def ended(bot: BotProcess, timeout: float = 30) -> tuple[int, str]:
    """The exit code and the output of a bot process that must stop on its own."""
    assert bot.proc is not None
    code = await asyncio.wait_for(bot.proc.wait(), timeout)
    return code, bot.log()


def one_refusal(log: str, secret: str) -> str:
    """The one line saying why the start failed: no traceback, nothing of the token, no voice warnings."""
    assert "Traceback" not in log, log
    assert secret not in log and secret.split(".")[-1] not in log, log
    assert "PyNaCl" not in log and "davey" not in log, log  # the voice warnings are silenced
    lines = [line for line in log.splitlines() if " ERROR " in line or line.startswith("jxbot:")]
    assert len(lines) == 1, log
    return lines[0]


async def test_a_rejected_token_exits_2_in_one_line(double, start_bot):
    bot = await start_bot(RUN, env={"DISCORD_TOKEN": WRONG_TOKEN})
    code, log = await ended(bot)
    assert code == 2, log
    assert "rejected the token" in one_refusal(log, WRONG_TOKEN)
    assert double.request_count("GET /users/@me", status=401) >= 1  # it asked Discord, which said 401


async def test_a_malformed_token_exits_2_before_asking_discord(double, start_bot):
    token = "Bot " + WRONG_TOKEN  # pasted with the header's prefix
    bot = await start_bot(RUN, env={"DISCORD_TOKEN": token})
    code, log = await ended(bot)
    assert code == 2, log
    assert "malformed" in one_refusal(log, WRONG_TOKEN)
    assert double.requests == []


async def test_a_bad_setting_exits_2(double, start_bot):
    bot = await start_bot(RUN, env={"JXBOT_FEE": "lots"})
    code, log = await ended(bot)
    assert code == 2, log
    assert "JXBOT_FEE" in one_refusal(log, double.token)
    assert double.requests == []


async def test_an_unreachable_discord_exits_1_in_one_line(double, start_bot):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bot = await start_bot(RUN, env={"DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10"})
    code, log = await ended(bot)
    assert code == 1, log
    assert "cannot reach Discord" in one_refusal(log, double.token)


async def test_a_dns_failure_exits_1_in_one_line(double, start_bot):
    bot = await start_bot(RUN, env={"DISCORD_API_BASE": "http://discord.invalid/api/v10"})
    code, log = await ended(bot)
    assert code == 1, log
    line = one_refusal(log, double.token)
    assert "cannot reach Discord" in line and "discord.invalid" in line
