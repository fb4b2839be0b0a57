"""Pictures drawn in worker processes (jxbot/drawing.py): the same pictures as in threads, the later lane at
a lower priority, a dead worker replaced, no worker outliving a killed bot, errors in the bot's log."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from jxbot import drawing
from jxbot.config import ConfigError, Settings
from render import demo

REPO = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped) is gone for our purpose
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


async def test_processes_draw_the_same_pictures_and_the_later_lane_yields():
    d = drawing.Drawing(1)
    drawing.report()  # (the count starts afresh)
    try:
        view = demo.seat_view()
        png_now = await d.draw("hand", view, "zh", urgent=True)
        png_later = await d.draw("table", demo.table_view(), "en", urgent=False)
        assert png_now == drawing.draw("hand", view, "zh")[0]  # byte for byte what a thread draws
        assert png_later == drawing.draw("table", demo.table_view(), "en")[0]
        now_pids = [w.pid for w in d._workers[True]]
        later_pids = [w.pid for w in d._workers[False]]
        assert now_pids and later_pids and os.getpid() not in now_pids + later_pids
        base = os.getpriority(os.PRIO_PROCESS, 0)  # (19 at most: under `nice -n 19` both lanes are at 19)
        assert os.getpriority(os.PRIO_PROCESS, later_pids[0]) == min(19, base + drawing.LATER_NICE)
        assert os.getpriority(os.PRIO_PROCESS, now_pids[0]) == os.getpriority(os.PRIO_PROCESS, 0)
        counted = dict(part.split("=") for part in drawing.report().split())  # the JXBOT_LAG_LOG line
        assert counted["hand"].startswith("1/") and counted["table"].startswith("1/")  # drawn in the workers
    finally:
        await d.aclose()


async def test_a_killed_worker_is_replaced_and_the_picture_still_arrives(caplog):
    d = drawing.Drawing(1)
    try:
        assert await d.draw("hand", demo.seat_view(), "zh", urgent=True)
        (pid,) = [w.pid for w in d._workers[True]]
        with caplog.at_level(logging.WARNING, logger="jxbot.drawing"):
            os.kill(pid, signal.SIGKILL)  # killed while idle
            for _ in range(100):
                if "a new one takes over" in caplog.text:
                    break
                await asyncio.sleep(0.05)
            png = await d.draw("hand", demo.seat_view(), "zh", urgent=True)
            assert png and png.startswith(b"\x89PNG")
            assert pid not in d.worker_pids() and d.worker_pids()
            assert f"a drawing process (pid {pid}) stopped; a new one takes over" in caplog.text
            # killed with a picture in hand: a new worker draws that picture
            (pid2,) = [w.pid for w in d._workers[True]]
            job = asyncio.create_task(d.draw("result", demo.result_view(), "zh", urgent=True))
            while not d._workers[True][0].waiting:
                await asyncio.sleep(0)
            os.kill(pid2, signal.SIGKILL)
            png = await job
            assert png and png.startswith(b"\x89PNG") and pid2 not in d.worker_pids()
        await d.aclose()  # (as at a bot's close while a coalesced edit still draws): the next picture starts afresh
        assert await d.draw("table", demo.table_view(), "zh", urgent=False) and d.in_processes
    finally:
        await d.aclose()


async def test_a_failing_picture_is_logged_by_the_bot_with_its_traceback(caplog):
    d = drawing.Drawing(1)
    try:
        with caplog.at_level(logging.ERROR, logger="jxbot.drawing"):
            png = await d.draw("hand", {"hand": "not tiles", "seats": 3}, "zh", urgent=True)
        assert png is None
        assert "rendering the hand image failed" in caplog.text and "Traceback" in caplog.text
        assert await d.draw("hand", demo.seat_view(), "zh", urgent=True)  # the worker is still there
    finally:
        await d.aclose()


@pytest.mark.parametrize("processes", [0, 1])
async def test_a_failing_pictures_error_text_is_withheld(caplog, processes):
    """Issue 24 finding 10: the text of an exception raised while drawing may quote the view (a player's
    concealed tiles); the bot's log keeps the traceback's frames and the exception's class, not its text,
    as every other log line does (jxbot/logs.py), in a drawing process and in a thread alike."""
    d = drawing.Drawing(processes)
    secret = 987654321
    view = demo.seat_view()
    view["hand"] = [secret]  # a tile the renderer cannot look up: its KeyError quotes the view
    try:
        with caplog.at_level(logging.ERROR, logger="jxbot.drawing"):
            png = await d.draw("hand", view, "zh", urgent=True)
        assert png is None
        assert "rendering the hand image failed" in caplog.text and "Traceback" in caplog.text
        assert "KeyError" in caplog.text and "withheld" in caplog.text
        assert str(secret) not in caplog.text
    finally:
        await d.aclose()


def test_no_drawing_process_outlives_a_killed_bot(tmp_path):
    """The bot SIGKILLed (as by the OOM killer or kill -9): its drawing processes end with it."""
    script = tmp_path / "bot.py"
    script.write_text(textwrap.dedent("""
        import asyncio, os, sys, time
        from jxbot import drawing
        from render import demo

        async def main():
            d = drawing.Drawing(1)
            await d.draw("hand", demo.seat_view(), "zh", urgent=True)
            await d.draw("table", demo.table_view(), "zh", urgent=False)
            print(" ".join(map(str, d.worker_pids())), flush=True)
            time.sleep(60)

        if __name__ == "__main__":
            asyncio.run(main())
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert proc.stdout is not None
        pids = [int(x) for x in proc.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 5  # (its stdin closes with the bot: it ends at once)
        while any(alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in pids if alive(p)], "drawing processes left behind by a killed bot"
    finally:
        proc.kill()


def test_the_setting_and_its_messages():
    assert Settings.from_mapping({}).draw_processes is None  # auto
    assert Settings.from_mapping({"JXBOT_DRAW_PROCESSES": "auto"}).draw_processes is None
    assert Settings.from_mapping({"JXBOT_DRAW_PROCESSES": "0"}).draw_processes == 0
    assert Settings.from_mapping({"JXBOT_DRAW_PROCESSES": " 2 "}).draw_processes == 2
    for bad in ("two", "-1", "33", "1.5"):
        with pytest.raises(ConfigError, match="JXBOT_DRAW_PROCESSES must be 'auto' or a whole number from 0 to 32"):
            Settings.from_mapping({"JXBOT_DRAW_PROCESSES": bad})
    assert drawing.auto_processes() == (1 if (os.cpu_count() or 1) >= 2 else 0)
