"""Season schedules (docs/ranked.md, "Seasons"): a ladder whose seasons last a fixed number of days.

``set_schedule(store, ladder, days, now)`` (``days=0``: off) stores the schedule with the moment the open season
ends: ``days`` after it started, or ``days`` from now if that moment has already passed (setting a schedule never
ends a season at once). ``roll_due(store, ladder, now)`` ends the open season at that moment and opens the next one
there, so the seasons follow each other with no gap; a ladder nobody played on for several periods skips the empty
ones (the next season opens at the last boundary before ``now``). It returns the ended season (``Rolled``) only to
the caller whose transaction made the change, so a roll is announced once whichever processes race for it: the
schedule's row is read with a row lock (PostgreSQL; SQLite has one writer) and the check and the change are in the
one transaction. ``roll_due_tx`` is the same step inside a caller's transaction: a ranked match's last settlement
runs it first, so a match rated after the boundary counts in the new season even before the periodic roll ran.
``due_ladders(store, now)`` lists the ladders to roll; ``/admin season start`` restarts the period
(``restart``).
"""

from __future__ import annotations

from dataclasses import dataclass

from jxbot.store import Store, Tx

DAY = 86400.0


@dataclass(frozen=True)
class Rolled:
    ladder: str
    ended: int | None  # the season that ended (None: none was open; a new one opened on schedule)
    started: int  # the season that opened
    at: float  # the boundary


async def set_schedule(store: Store, ladder: str, days: int, now: float) -> float | None:
    """Seasons of ``days`` days from now on (0: no schedule). Returns when the open season ends (None: off)."""
    async def op(tx: Tx) -> float | None:
        if days <= 0:
            await tx.execute("DELETE FROM ladder_schedules WHERE ladder = ?", (ladder,))
            return None
        row = await tx.one("SELECT season, started_at FROM ladder_seasons WHERE ladder = ? AND ended_at IS NULL",
                           (ladder,))
        end = now + days * DAY
        if row is not None and float(row[1]) + days * DAY > now:
            end = float(row[1]) + days * DAY
        await tx.execute("DELETE FROM ladder_schedules WHERE ladder = ?", (ladder,))
        await tx.execute("INSERT INTO ladder_schedules(ladder, days, next_end) VALUES (?, ?, ?)", (ladder, days, end))
        return end

    return await store.in_transaction(op)


async def schedule_of(store: Store, ladder: str) -> tuple[int, float] | None:
    """``(days, next_end)`` of the ladder's schedule, or None."""
    async def q(tx: Tx) -> tuple[int, float] | None:
        row = await tx.one("SELECT days, next_end FROM ladder_schedules WHERE ladder = ?", (ladder,))
        return None if row is None else (int(row[0]), float(row[1]))

    return await store.in_snapshot(q)


async def restart(store: Store, ladder: str, now: float) -> None:
    """A season started by hand: a scheduled one lasts its full period from now."""
    async def op(tx: Tx) -> None:
        await tx.execute("UPDATE ladder_schedules SET next_end = ? + days * ? WHERE ladder = ?", (now, DAY, ladder))

    await store.in_transaction(op)


async def roll_due_tx(tx: Tx, ladder: str, now: float) -> Rolled | None:
    """Inside a transaction: if the ladder's scheduled boundary has passed, end its open season there and open
    the next one (see the module). None: nothing was due."""
    row = await tx.one("SELECT days, next_end FROM ladder_schedules WHERE ladder = ?" + tx.lock, (ladder,))
    if row is None or float(row[1]) > now:
        return None
    period, end = int(row[0]) * DAY, float(row[1])
    start = end + ((now - end) // period) * period  # the last boundary at or before now (empty periods skipped)
    last = await tx.one("SELECT season, ended_at FROM ladder_seasons WHERE ladder = ? ORDER BY season DESC LIMIT 1"
                        + tx.lock, (ladder,))
    ended = None
    if last is not None and last[1] is None:
        ended = int(last[0])
        await tx.execute("UPDATE ladder_seasons SET ended_at = ? WHERE ladder = ? AND season = ?", (end, ladder, ended))
    season = 1 if last is None else int(last[0]) + 1
    await tx.execute("INSERT INTO ladder_seasons(ladder, season, started_at) VALUES (?, ?, ?)", (ladder, season, start))
    await tx.execute("UPDATE ladder_schedules SET next_end = ? WHERE ladder = ?", (start + period, ladder))
    return Rolled(ladder, ended, season, end)


async def roll_due(store: Store, ladder: str, now: float) -> Rolled | None:
    return await store.in_transaction(lambda tx: roll_due_tx(tx, ladder, now))


async def due_ladders(store: Store, now: float) -> list[str]:
    async def q(tx: Tx) -> list[str]:
        rows = await tx.all("SELECT ladder FROM ladder_schedules WHERE next_end <= ? ORDER BY ladder", (now,))
        return [str(r[0]) for r in rows]

    return await store.in_snapshot(q)
