"""The per-message edit coalescer: at most one edit per message a second, the newest state wins, 429s retried,
the table messages sharing a request budget (docs/bot.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from jxbot.interactions import connection_closed

log = logging.getLogger("jxbot.bot")


class EditCoalescer:
    """At most one edit per message every ``interval`` seconds; the last submitted state wins.

    ``submit(key, fn)`` stores ``fn`` (a zero-argument coroutine function doing the edit) as the latest
    state for ``key`` (e.g. a message id) and makes sure a worker applies it. A 429 is retried after
    its ``retry_after`` with the newest state; a 404 (message gone) drops the key.

    ``submit(key, fn, urgent=True)`` skips the interval (not a 429's wait): a claim offer goes out at
    once, still in order with the key's other edits (one edit in flight per key).

    ``budget``: edits per second of the keys submitted with ``spare=True`` (the table messages in the
    channels), all together: they take turns for it (a token bucket of one second's worth; the newest
    state of a message replaces the one waiting). Discord allows a bot about 50 requests a second in
    all; the players' panels (paced by the players themselves) and the sends use the rest. When a busy
    bot would need more, the table pictures simply update less often.
    """

    def __init__(self, interval: float = 1.0, *, budget: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.budget = budget  # edits per second, all keys (0: no limit)
        self._tokens = budget
        self._filled = clock()
        self._clock = clock
        self._pending: dict[Any, Callable[[], Awaitable[Any]]] = {}
        self._tasks: dict[Any, asyncio.Task[None]] = {}
        self._last: dict[Any, float] = {}
        self.edits: dict[Any, int] = {}  # applied edits per key (observability and tests)
        self.submitted: dict[Any, int] = {}
        self._retired: set[Any] = set()
        self._hold: dict[Any, float] = {}  # no edit before this time (a 429's retry_after)
        self._urgent: set[Any] = set()
        self._spare: set[Any] = set()  # keys whose edits wait for the budget
        self._hurry: dict[Any, asyncio.Event] = {}
        self.closing = False  # the bot is stopping: an edit its closed HTTP session cannot send is not an error
        self.closed = False  # the bot stopped: nothing new is sent

    async def drain(self, timeout: float) -> int:
        """A stop: let the pending edits go out (their waits between edits skipped), at most ``timeout``
        seconds; then nothing more is sent. Returns how many keys still had an edit pending."""
        self.closing = True
        for key in list(self._pending):
            self._urgent.add(key)
            ev = self._hurry.get(key)
            if ev is not None:
                ev.set()
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        left = sum(1 for k in self._pending if self._tasks.get(k) is not None and not self._tasks[k].done())
        self.closed = True
        for task in list(self._tasks.values()):
            task.cancel()
        return left

    def submit(self, key: Any, fn: Callable[[], Awaitable[Any]], *, urgent: bool = False,
               spare: bool = False) -> None:
        if self.closed:  # stopped: the restart sends every panel and table message again
            return
        self._pending[key] = fn
        if spare:
            self._spare.add(key)
        else:
            self._spare.discard(key)
        self.submitted[key] = self.submitted.get(key, 0) + 1
        if urgent:
            self._urgent.add(key)
            ev = self._hurry.get(key)
            if ev is not None:
                ev.set()
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._worker(key))

    def _spend(self) -> float:
        """Take one edit from the budget: 0.0 if taken, else the seconds until one is there."""
        now = self._clock()
        self._tokens = min(self.budget, self._tokens + (now - self._filled) * self.budget)
        self._filled = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / self.budget

    async def flush(self, key: Any = None) -> None:
        """Wait until the pending edits (of ``key``, or all) are applied."""
        keys = [key] if key is not None else list(self._tasks)
        for k in keys:
            task = self._tasks.get(k)
            if task is not None:
                await asyncio.shield(task)

    def retire(self, key: Any) -> None:
        """The message will not be edited again: drop its bookkeeping once its pending edit is applied."""
        self._retired.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._drop(key)

    def _drop(self, key: Any) -> None:
        self._retired.discard(key)
        self._tasks.pop(key, None)
        self._last.pop(key, None)
        self._hold.pop(key, None)
        self._urgent.discard(key)
        self._spare.discard(key)
        self._hurry.pop(key, None)
        self.edits.pop(key, None)
        self.submitted.pop(key, None)

    def forget(self, key: Any) -> None:
        self._pending.pop(key, None)
        task = self._tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _worker(self, key: Any) -> None:
        while key in self._pending:
            hold = self._hold.get(key, -1e18)
            due = hold if key in self._urgent else max(hold, self._last.get(key, -1e18) + self.interval)
            wait = due - self._clock()
            if wait > 0:
                ev = self._hurry.setdefault(key, asyncio.Event())
                ev.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ev.wait(), wait)
                continue  # an urgent edit may have come meanwhile: look again
            urgent = key in self._urgent
            if self.budget > 0 and key in self._spare and not urgent:
                short = self._spend()
                if short > 0:  # over the request budget: wait a turn (a newer state may replace this one)
                    await asyncio.sleep(short)
                    continue
            fn = self._pending.pop(key, None)
            self._urgent.discard(key)
            if fn is None:
                break
            try:
                await fn()
            except discord.NotFound:
                log.info("message %s is gone; dropping its edits", key)
                self._pending.pop(key, None)
                break
            except discord.HTTPException as exc:
                if exc.status == 429:
                    retry = float(getattr(exc, "retry_after", None) or 1.0)
                    if self._pending.setdefault(key, fn) is fn and urgent:  # keep the newest state
                        self._urgent.add(key)
                    self._hold[key] = self._clock() + retry
                    continue
                log.warning("editing message %s failed: %s", key, exc)
            except Exception as exc:
                if self.closing and connection_closed(exc):  # a stop: the restart sends it again
                    log.info("editing message %s: not sent, the bot is stopping (%s)", key, type(exc).__name__)
                    self._pending.pop(key, None)
                    break
                log.exception("editing message %s failed", key)
            self._last[key] = self._clock()
            self.edits[key] = self.edits.get(key, 0) + 1
        if key in self._retired and key not in self._pending:
            self._drop(key)


class PicturePace:
    """At most ``rate`` table pictures a second across the channels (``JXBOT_PICTURE_PACE``), whichever way
    they are sent: the request budget counts requests, this paces the CPU their pictures take.

    Before issue 28 every table-message edit was a counted request, so the request budget (the channels'
    table messages take what offers and panels leave) also held back how many table pictures the bot drew;
    an edit through an interaction token is free, and without a pace the bot drew 2.3× the pictures on a
    busy machine and the presses waited for the CPU (docs/bot.md, "Requests per move"). A picture takes a
    slot in a schedule (a leaky bucket with one second's burst): :meth:`claim` says how long until this
    picture's slot; the slots go first come, first served, so every waiting table gets its turn in order.
    ``rate`` 0: no pace.
    """

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._next = -1e18  # the next free slot
        self.slots = 0  # the slots taken (observability)

    def now(self) -> float:
        return self._clock()

    def claim(self) -> float:
        """Take the next slot: 0.0 when it is now, else the seconds until it comes (the slot is held)."""
        self.slots += 1
        if self.rate <= 0:
            return 0.0
        now = self._clock()
        step = 1.0 / self.rate
        start = max(self._next, now - max(0.0, 1.0 - step))  # an idle second's worth (one at least) at once
        self._next = start + step
        return max(0.0, start - now)

    def charge(self) -> None:
        """A picture drawn out of turn (a table's first message, a hand's last picture): it takes the next
        slot, so the others wait for it as if it had waited too."""
        self.claim()
