"""Slow computer players (the ``expert``) answered in a worker process, so no event loop waits for them.

``choose_async(player, view)`` sends the player (its state: seed, random stream, target) and the view
to the worker, which asks ``player.choose(view)`` and sends back the action and the player as it is
after the decision; the caller keeps the returned player, so the sequence of decisions is exactly the one
a synchronous run makes (the same seed gives the same play). One worker process (``spawn``: no inherited
event loop or sockets), started on first use: decisions queue in arrival order, first come first served,
and the machine's other core stays with the bot. ``JXBOT_TABLE_PROCESSES``-style tuning is not needed
at this size (docs/ai.md "The expert at a table").
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..game.actions import Action
from .warm import worker_init

_POOL: ProcessPoolExecutor | None = None
log = logging.getLogger(__name__)

# Decisions the worker may have queued before a slow player answers at once with its quick choice (the expert:
# the proposer's move, unchecked). One core answers ~5 expert decisions a second: 100 tables of experts
# would queue a decision for a minute, and every table of experts would crawl. At 4 the wait stays about a
# second — what a person waits for a computer anyway. The bot sets it from JXBOT_EXPERT_QUEUE (0: never wait).
QUEUE_LIMIT = 4
_in_flight = 0
quick_answers = 0  # decisions answered quickly because the worker was busy (since start)
_last_note = 0.0


def executor() -> ProcessPoolExecutor:
    global _POOL
    if _POOL is None:
        # the worker builds the rules engine's shanten tables when it starts (about a second of CPU), not
        # inside the first decision that needs them (measured: a caishen expert's first decision took 1.2 s)
        _POOL = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=worker_init)
    return _POOL


def _choose(player: Any, view: dict) -> tuple[Action, Any]:
    return player.choose(view), player


async def choose_async(player: Any, view: dict) -> tuple[Action, Any]:
    """(the player's action, the player after it): computed in the worker process — or, when the worker already
    has :data:`QUEUE_LIMIT` decisions queued and the player has a quick choice (``quick_choose``), that choice at
    once, here (milliseconds: the hard player's)."""
    global _in_flight, quick_answers, _last_note
    quick = getattr(player, "quick_choose", None)
    if quick is not None and _in_flight >= QUEUE_LIMIT:
        quick_answers += 1
        now = time.monotonic()
        if now - _last_note > 60:
            _last_note = now
            log.info("expert worker busy (%d decisions queued): %d decisions answered at hard level so far",
                     _in_flight, quick_answers)
        return quick(view), player
    _in_flight += 1
    try:
        return await asyncio.wrap_future(executor().submit(_choose, player, view))
    finally:
        _in_flight -= 1


def shutdown() -> None:
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None
