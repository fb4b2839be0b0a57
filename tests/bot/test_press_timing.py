"""Operators see where a press's time goes: with JXBOT_LAG_LOG the bot logs each stage's p50/p99."""

import logging

from jxbot.press_timing import PressTimes


def test_press_timing_logs_each_stage_every_period(caplog, monkeypatch):
    now = [100.0]
    monkeypatch.setattr("jxbot.press_timing.time.monotonic", lambda: now[0])
    times = PressTimes(10.0)
    caplog.set_level(logging.INFO, logger="jxbot.press")
    for ms in (10.0, 20.0, 30.0):
        times.record({"queue": ms, "submit": 2 * ms, "draw": 5.0, "send": 1.0, "total": 3 * ms})
    assert not [r for r in caplog.records if "press timing" in r.getMessage()]  # not before the period
    now[0] += 10.0
    times.record({"queue": 40.0, "submit": 80.0, "draw": 5.0, "send": 1.0, "total": 120.0})
    (line,) = [r.getMessage() for r in caplog.records if "press timing" in r.getMessage()]
    assert "n=4" in line and "queue_p50=30" in line and "submit_p99=80" in line and "total_p50=90" in line


def test_press_timing_is_off_without_the_setting(caplog):
    times = PressTimes(0)
    caplog.set_level(logging.INFO, logger="jxbot.press")
    times.record({"queue": 1.0})
    assert not caplog.records
