"""``CoachPool``: the evaluator in worker processes, so that no event loop waits for a playout."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _choose(level: str, seed: int | str, view: dict) -> dict:
    from ..ai import make_player

    return make_player(level, seed).choose(view).to_json()


class CoachPool:
    """Worker processes (``spawn``: no inherited event loop or sockets) for the coach's and the expert's work.

    Work queues in arrival order (fair between callers: first come, first served)."""

    def __init__(self, processes: int = 1) -> None:
        from ..ai.warm import worker_init

        self._ex = ProcessPoolExecutor(max_workers=max(1, processes),
                                       mp_context=multiprocessing.get_context("spawn"), initializer=worker_init)

    async def choose(self, level: str, seed: int | str, view: dict) -> dict:
        """A computer player's answer (JSON action) computed in a worker (the expert level at a table)."""
        return await asyncio.wrap_future(self._ex.submit(_choose, level, seed, view))

    async def call(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker (a top-level function: the review's ``jxbot.coach.review.expert``)."""
        return await asyncio.wrap_future(self._ex.submit(fn, *args))

    def close(self) -> None:
        self._ex.shutdown(wait=False, cancel_futures=True)
