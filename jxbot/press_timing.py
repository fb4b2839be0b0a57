"""Where a button press's time goes, for operators and the load benchmark: with ``JXBOT_LAG_LOG=N`` the
bot logs, every N seconds, the p50/p99 of each stage of the presses answered with the updated panel:

- ``queue``: from the press (the interaction's snowflake time) to the bot's handler starting (the
  gateway, discord.py's parsing, the event loop's backlog);
- ``submit``: the table taking the move (its lock, the store's commit, the views handed out);
- ``lock``: waiting for the seat's panel (an edit of the same panel in flight);
- ``draw``: building the panel, the hand picture included (a worker thread);
- ``send``: the interaction response reaching Discord;
- ``total``: the press to the response sent.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord

log = logging.getLogger("jxbot.press")

STAGES = ("queue", "submit", "lock", "draw", "send", "total")


class PressTimes:
    def __init__(self, every: float) -> None:
        self.every = every
        self._rows: list[dict[str, float]] = []
        self._last = time.monotonic()
        self.listener: Callable[[dict[str, float]], None] | None = None  # every row too (jxbot/metrics.py)

    def record(self, row: dict[str, float]) -> None:
        if self.listener is not None:
            self.listener(row)
        if self.every <= 0:
            return
        self._rows.append(row)
        now = time.monotonic()
        if now - self._last < self.every:
            return
        self._last = now
        rows, self._rows = self._rows, []
        parts = [f"n={len(rows)}"]
        for k in STAGES:
            xs = sorted(r[k] for r in rows if k in r)
            if xs:
                parts.append(f"{k}_p50={xs[len(xs) // 2]:.0f} {k}_p99={xs[min(len(xs) - 1, int(0.99 * len(xs)))]:.0f}")
        log.info("press timing (ms): %s", " ".join(parts))


def press_age_ms(interaction: discord.Interaction) -> float:
    """Milliseconds since the press (the interaction id's timestamp)."""
    return max(0.0, time.time() * 1000.0 - discord.utils.snowflake_time(interaction.id).timestamp() * 1000.0)
