"""Live tables for spectators: the delayed public view of a running hand, and a hub that keeps one snapshot
per table for every viewer of this process.

:func:`delayed_step` is the whole rule (docs/web.md, "Live tables"): a spectator sees step
``n - 1 - delay`` of a hand cut into ``n`` steps (``delay`` at least 1, so never the current move), and only
its public view (``Replay.view(k, None)``: discards, melds, counts, whose turn, the 百搭 — no concealed
tile, no drawn tile, no wall). The hub reads the shared store (any number of web processes can run beside
the bot), at most once a second per table whatever the number of viewers, and hands every viewer the same
snapshot.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from jxbot.replay import Replay
from jxbot.seatnames import display_name


def delayed_step(n_steps: int, delay: int) -> int:
    """The step a spectator may see of a running hand cut into ``n_steps`` steps."""
    return max(0, n_steps - 1 - max(1, delay))


@dataclass
class Snapshot:
    table_id: str
    guild_id: int
    hand_id: str | None  # the hand on the table (running), or the last one (between hands)
    hand_number: int | None
    running: bool  # a hand is being played (else: between hands)
    step: int  # the step shown (of the running hand)
    replay: Replay | None
    names: list[str | None] = field(default_factory=lambda: [None] * 4)
    computers: list[bool] = field(default_factory=lambda: [False] * 4)
    events_seen: int = 0
    at: float = 0.0

    @property
    def version(self) -> str:
        return f"{self.hand_id}:{self.step}:{int(self.running)}"

    def seat_names(self, lang: str) -> list[str]:
        return [display_name(n or "ESWN"[i], lang, self.computers[i]) for i, n in enumerate(self.names)]

    def view(self) -> dict | None:
        """The public view of the step shown (None between hands)."""
        if not self.running or self.replay is None:
            return None
        return self.replay.view(self.step, None)

    def caption(self, lang: str) -> str:
        if not self.running or self.replay is None:
            return ""
        return self.replay.caption(self.step, lang)  # public: a drawn tile is never named


class LiveHub:
    """One snapshot per live table, refreshed at most every ``ttl`` seconds (one reader per table)."""

    def __init__(self, store: Any, *, delay: int = 2, ttl: float = 1.0) -> None:
        self.store = store
        self.delay = max(1, delay)
        self.ttl = ttl
        self._tables: tuple[float, list[Any]] = (0.0, [])
        self._tables_lock = asyncio.Lock()
        self._snaps: dict[str, Snapshot] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._refreshing: dict[str, asyncio.Task[Snapshot | None]] = {}

    async def tables(self) -> list[Any]:
        """The store's running tables (cached ``ttl``)."""
        at, rows = self._tables
        if time.monotonic() - at < self.ttl:
            return rows
        async with self._tables_lock:
            at, rows = self._tables
            if time.monotonic() - at < self.ttl:
                return rows
            rows = await self.store.running_tables()
            self._tables = (time.monotonic(), rows)
            live = {r.table_id for r in rows}
            for gone in [k for k in self._snaps if k not in live]:
                self._snaps.pop(gone, None)
                self._locks.pop(gone, None)
            return rows

    async def snapshot(self, table_id: str) -> Snapshot | None:
        """The table's snapshot, or None when it is not running (closed, unknown). A stale snapshot is
        answered at once while a fresh one is read in the background (older is only more delayed: safe), so
        no viewer waits for the store; only the first viewer of a table does."""
        snap = self._snaps.get(table_id)
        if snap is not None:
            if time.monotonic() - snap.at >= self.ttl and table_id not in self._refreshing:
                task = asyncio.get_running_loop().create_task(self._refresh(table_id), name=f"live-{table_id}")
                self._refreshing[table_id] = task
                task.add_done_callback(lambda t_: (self._refreshing.pop(table_id, None),
                                                   t_.cancelled() or t_.exception()))
            return snap
        return await self._refresh(table_id)

    async def _refresh(self, table_id: str) -> Snapshot | None:
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            snap = self._snaps.get(table_id)
            if snap is not None and time.monotonic() - snap.at < self.ttl:
                return snap
            rec = next((r for r in await self.tables() if r.table_id == table_id), None)
            if rec is None:
                self._snaps.pop(table_id, None)
                return None
            snap = await self._build(rec, snap)
            self._snaps[table_id] = snap
            return snap

    async def _build(self, rec: Any, old: Snapshot | None) -> Snapshot:
        seats = ((rec.state or {}).get("bot_table") or {}).get("seats") or [None] * 4
        names: list[str | None] = [s.get("name") if isinstance(s, dict) else None for s in seats][:4]
        computers = [bool(s.get("is_computer")) if isinstance(s, dict) else False for s in seats][:4]
        names += [None] * (4 - len(names))
        computers += [False] * (4 - len(computers))
        hand_id = rec.open_hand_id
        if hand_id is None:
            last = rec.hand_ids[-1] if rec.hand_ids else None
            return Snapshot(rec.table_id, rec.guild_id, last, None, False, 0, None, names, computers,
                            at=time.monotonic())
        events = await self.store.hand_events(hand_id)
        if old is not None and old.hand_id == hand_id and old.events_seen == len(events) and old.replay is not None:
            old.at = time.monotonic()
            return old
        try:  # a few ms of folding: off the event loop
            replay = await asyncio.to_thread(Replay, events, names=names, computers=computers)
        except ValueError:  # not dealt yet
            return Snapshot(rec.table_id, rec.guild_id, hand_id, None, False, 0, None, names, computers,
                            at=time.monotonic())
        number = replay.hand_at(0).context.hand_number
        step = delayed_step(len(replay), self.delay)
        return Snapshot(rec.table_id, rec.guild_id, hand_id, number, True, step, replay, names, computers,
                        events_seen=len(events), at=time.monotonic())
