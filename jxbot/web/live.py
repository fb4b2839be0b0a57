"""Live tables for spectators: the delayed public view of a running hand, and a hub that keeps one snapshot
per table for every viewer of this process.

The view is the one Discord's Watch shows (``jxbot.watch_view``, the same ``JXBOT_WATCH_DELAY``): the table
as it stood ``delay`` moves ago (a discard, a claim, a kong, a win; at least one, so never the live move),
public information only (discards, melds, counts, whose turn, the 百搭 — no concealed tile, no drawn tile, no
wall, a running concealed kong without its tile), the final state once the hand has ended. The hub reads the
shared store (any number of web processes can run beside the bot), at most once a ``ttl`` per table
whatever the number of viewers, folds only the new events, and hands every viewer the same snapshot.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from jxbot.game import events as ev
from jxbot.seatnames import display_name
from jxbot.watch_view import DelayedPublic, caption, delay_for, effective_delay

log = logging.getLogger("jxbot.web")


@dataclass
class Snapshot:
    table_id: str
    guild_id: int
    hand_id: str | None  # the hand on the table (running), or the last one (between hands)
    hand_number: int | None
    view: dict | None  # the delayed public view (None between hands or before the deal)
    names: list[str | None] = field(default_factory=lambda: [None] * 4)
    computers: list[bool] = field(default_factory=lambda: [False] * 4)
    at: float = 0.0

    @property
    def delay(self) -> int | None:
        """The moves the view is behind (the server's own watch delay), None when nothing is shown."""
        d = (self.view or {}).get("delayed") or {}
        return d.get("delay")

    @property
    def running(self) -> bool:
        return self.view is not None

    @property
    def step(self) -> int:
        """The moves shown (the number in the picture's address)."""
        return int(((self.view or {}).get("delayed") or {}).get("shown") or 0)

    @property
    def ended(self) -> bool:
        return bool(((self.view or {}).get("delayed") or {}).get("ended"))

    @property
    def version(self) -> str:
        return f"{self.hand_id}:{self.step}:{int(self.ended)}:{int(self.running)}"

    def seat_names(self, lang: str) -> list[str]:
        return [display_name(n or "ESWN"[i], lang, self.computers[i]) for i, n in enumerate(self.names)]

    def caption(self, lang: str) -> str:
        return caption(self.view, lang) if self.view is not None else ""


@dataclass
class _Follow:
    """One table's hand followed incrementally: its parsed events and the watch view's fold."""

    hand_id: str
    events: list[ev.Event] = field(default_factory=list)
    delayed: DelayedPublic | None = None


class LiveHub:
    """One snapshot per live table, refreshed at most every ``ttl`` seconds (one reader per table).

    ``delay`` is the bot's ``JXBOT_WATCH_DELAY``; a server whose admin set its own (``/admin settings
    watch_delay``) gets that one, as Discord's Watch does (``jxbot.watch_view.delay_for``), read through
    ``settings(guild_id)`` (the web's cached guild settings)."""

    def __init__(self, store: Any, *, delay: int = 2, ttl: float = 1.0,
                 settings: Callable[[int], Awaitable[Any]] | None = None) -> None:
        self.store = store
        self.delay = effective_delay(delay)
        self.ttl = ttl
        self._settings = settings
        self._delays: dict[int, int] = {}  # per server: the delay last read
        self._tables: tuple[float, list[Any]] = (0.0, [])
        self._tables_lock = asyncio.Lock()
        self._snaps: dict[str, Snapshot] = {}
        self._follow: dict[str, _Follow] = {}
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
            # a table in a channel @everyone cannot see (or in DMs) is not the server's to show (docs/web.md)
            rows = [r for r in await self.store.running_tables() if not (r.config or {}).get("private")]
            self._tables = (time.monotonic(), rows)
            live = {r.table_id for r in rows}
            for gone in [k for k in self._snaps if k not in live]:
                self._snaps.pop(gone, None)
                self._follow.pop(gone, None)
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
        if not any(r.table_id == table_id for r in await self.tables()):  # (cached): an unknown id keeps nothing
            self._snaps.pop(table_id, None)
            return None
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            snap = self._snaps.get(table_id)
            if snap is not None and time.monotonic() - snap.at < self.ttl:
                return snap
            rec = next((r for r in await self.tables() if r.table_id == table_id), None)
            if rec is None:  # it ended meanwhile
                self._snaps.pop(table_id, None)
                self._follow.pop(table_id, None)
                self._locks.pop(table_id, None)
                return None
            snap = await self._build(rec)
            self._snaps[table_id] = snap
            return snap

    async def _build(self, rec: Any) -> Snapshot:
        seats = ((rec.state or {}).get("bot_table") or {}).get("seats") or [None] * 4
        names: list[str | None] = [s.get("name") if isinstance(s, dict) else None for s in seats][:4]
        computers = [bool(s.get("is_computer")) if isinstance(s, dict) else False for s in seats][:4]
        names += [None] * (4 - len(names))
        computers += [False] * (4 - len(computers))
        hand_id = rec.open_hand_id
        now = time.monotonic()
        if hand_id is None:
            last = rec.hand_ids[-1] if rec.hand_ids else None
            return Snapshot(rec.table_id, rec.guild_id, last, None, None, names, computers, at=now)
        follow = self._follow.get(rec.table_id)
        if follow is None or follow.hand_id != hand_id:
            follow = self._follow[rec.table_id] = _Follow(hand_id)
        stored = await self.store.hand_events(hand_id)
        if len(stored) < len(follow.events):  # never expected (a log only grows): start over
            follow.events, follow.delayed = [], None
        follow.events.extend(ev.event_from_json(e) for e in stored[len(follow.events):])
        delay = await self.delay_at(rec.guild_id)
        if follow.delayed is None:
            follow.delayed = DelayedPublic(delay)
        follow.delayed.delay = delay  # an admin's change reaches the spectators at the next read
        seat_fields = [{"name": n, "is_computer": c} for n, c in zip(names, computers, strict=True)]
        # the fold of the new events only (the watch view keeps the hand): small enough for the loop
        view = follow.delayed.update(follow.events, seats=seat_fields) if follow.events else None
        number = view.get("hand_number") if view is not None else None
        return Snapshot(rec.table_id, rec.guild_id, hand_id, number, view, names, computers, at=now)

    async def delay_at(self, guild_id: int) -> int:
        """The delay applied at a server: its own when an admin set one, else the bot's (at least one move)."""
        if self._settings is None:
            return self.delay
        try:
            gs = await self._settings(guild_id)
        except Exception:  # the delay it had stays (an admin's larger one is never undercut by a failed read)
            known = self._delays.get(guild_id)
            log.warning("the settings of server %s could not be read; the watch delay stays %s", guild_id,
                        known if known is not None else self.delay)
            return known if known is not None else self.delay
        d = effective_delay(delay_for(SimpleNamespace(watch_delay=self.delay), gs))
        self._delays[guild_id] = d
        if len(self._delays) > 10_000:
            self._delays.clear()
        return d
