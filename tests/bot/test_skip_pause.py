"""TableRunner.skip_pause (the Next button): the next hand is dealt without waiting out the pause."""

from __future__ import annotations

import asyncio

from jxbot.table import FakeClock, SeatInfo, TableConfig, TableRunner


def computers_table(between: float) -> tuple[TableRunner, FakeClock]:
    clock = FakeClock()
    seats = [SeatInfo.computer(f"cpu{i}", "easy") for i in range(4)]
    cfg = TableConfig(table_id="skip", seed="skip-pause", between_hands=between, max_hands=2)
    return TableRunner(seats, cfg, clock=clock), clock


async def _wait_for(cond, tries: int = 2000) -> None:
    for _ in range(tries):
        if cond():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never met")


async def test_skip_pause_deals_the_next_hand_without_the_clock_moving():
    runner, clock = computers_table(between=600.0)
    task = runner.start()
    await _wait_for(lambda: runner.hands_played == 1 and clock.sleepers > 0)
    t_before = clock.now()
    first = runner.hand
    await asyncio.sleep(0)
    assert runner.hand is first  # still pausing: the 600 s have not passed
    runner.skip_pause()
    await asyncio.wait_for(task, timeout=30)
    assert runner.hands_played == 2 and runner.finished
    assert clock.now() == t_before  # nobody waited out the 600 s pause


async def test_without_skip_pause_the_table_waits_for_the_pause():
    runner, clock = computers_table(between=600.0)
    task = runner.start()
    await _wait_for(lambda: runner.hands_played == 1 and clock.sleepers > 0)
    for _ in range(50):
        await asyncio.sleep(0)
    assert runner.hands_played == 1 and not task.done()
    await clock.advance(600.0)
    await asyncio.wait_for(task, timeout=30)
    assert runner.hands_played == 2
