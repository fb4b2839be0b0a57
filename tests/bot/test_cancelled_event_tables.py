"""A global event cancelled in another process: this process stops its own tables of it at its next events tick
(cogs/tournament.py ``stop_cancelled_tables``). Driven with the bot test harness (a real ``JxBot`` and store)."""

from __future__ import annotations

import asyncio
import dataclasses

from tests.bot.conftest import CHANNEL, GUILD
from tests.bot.test_play import BOB, start_table


async def test_a_cancelled_event_s_table_is_stopped_even_when_the_other_scheduled_work_fails(game, monkeypatch):
    """The tick's other work (scheduled starts, reminders, waiting limits) failing — a store hiccup, one event's
    bad state — skipped the stop as well, tick after tick: the cancelled event's table played on."""
    h = game
    bot, store = h.bot, h.bot.store
    table = await start_table(h, BOB)
    await store.event_create("ab12", GUILD, CHANNEL, "cup", {}, {})
    await store.event_save("ab12", "cancelled", {})
    table.arranged = {"key": "ev:ab12/r1/t0", "kind": "tournament"}  # its table in this process
    tour = bot.get_cog("TournamentCog")

    async def failing_tick() -> None:
        raise RuntimeError("another event's scheduled work failed")

    monkeypatch.setattr(tour, "tick", failing_tick)
    bot.settings = dataclasses.replace(bot.settings, event_tick=0.1)
    manager = bot.get_cog("TablesCog").manager
    task = asyncio.create_task(tour._scheduled_starts())
    try:
        for _ in range(100):
            if manager.get(table.id) is None:
                break
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert manager.get(table.id) is None and table.state == "ended", "the cancelled event's table played on"
