"""``CoachPool``: the evaluator in worker processes, so that no event loop waits for a playout."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from .decision import DEFAULT_BUDGET_MS, Candidate, Decision, evaluate


def _run(decision: Decision, budget_ms: float, seed: int | str, worlds: int | None,
         actions: Sequence[dict] | None) -> list[Candidate]:
    return evaluate(decision, budget_ms=budget_ms, seed=seed, worlds=worlds, actions=actions)


def _choose(level: str, seed: int | str, view: dict) -> dict:
    from ..ai import make_player

    return make_player(level, seed).choose(view).to_json()


class CoachPool:
    """Worker processes (``spawn``: no inherited event loop or sockets) that evaluate decisions.

    ``submit`` queues work in arrival order (fair between callers: first come, first served)."""

    def __init__(self, processes: int = 1) -> None:
        from ..ai.warm import worker_init

        self._ex = ProcessPoolExecutor(max_workers=max(1, processes),
                                       mp_context=multiprocessing.get_context("spawn"), initializer=worker_init)

    def submit(self, decision: Decision, *, budget_ms: float = DEFAULT_BUDGET_MS, seed: int | str = 0,
               worlds: int | None = None, actions: Sequence[dict] | None = None) -> Future[list[Candidate]]:
        return self._ex.submit(_run, decision, budget_ms, seed, worlds, actions)

    async def evaluate(self, decision: Decision, **kw: Any) -> list[Candidate]:
        return await asyncio.wrap_future(self.submit(decision, **kw))

    async def choose(self, level: str, seed: int | str, view: dict) -> dict:
        """A computer player's answer (JSON action) computed in a worker (the expert level at a table)."""
        return await asyncio.wrap_future(self._ex.submit(_choose, level, seed, view))

    async def call(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker (a top-level function: the review's ``jxbot.coach.review.expert``)."""
        return await asyncio.wrap_future(self._ex.submit(fn, *args))

    def close(self) -> None:
        self._ex.shutdown(wait=False, cancel_futures=True)
