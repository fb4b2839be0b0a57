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
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..game.actions import Action
from .warm import worker_init

_POOL: ProcessPoolExecutor | None = None


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
    """(the player's action, the player after it): computed in the worker process."""
    return await asyncio.wrap_future(executor().submit(_choose, player, view))


def shutdown() -> None:
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None
