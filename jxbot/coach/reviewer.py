"""Reviews for a running bot: the decisions of a hand evaluated in the worker pool, queued fairly between
players, with progress, and cached in the store (``coach_reviews``) so a second request is instant.

Fairness: the pool runs ``slots`` evaluations at a time; whenever one ends, the next comes from the owner
after the one last served (round robin over the players who wait), so a player who asks for five hands
does not hold up another's one. Two requests for the same hand and seat share one computation.

Concurrency (docs/coach.md): everything here runs on the bot's event loop; the queue's state is changed
only between awaits (pick-and-start has no await in between); the evaluations run in worker processes
(``submit``), never on the loop; the fold of the log that finds the decisions runs in a thread.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any, TypeVar

from . import review as rv

log = logging.getLogger("jxbot.coach")

T = TypeVar("T")
Progress = Callable[[int, int], Any]  # (decisions done, decisions in all); may return an awaitable
Submit = Callable[[rv.Point, int, int], Awaitable[list[dict]]]  # (decision, seed, budget_ms) -> candidates


class FairQueue:
    """Run coroutines ``slots`` at a time, taking turns between owners (round robin)."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("slots must be ≥ 1")
        self.slots = slots
        self._waiting: OrderedDict[Hashable, deque[tuple[Callable[[], Awaitable[Any]], asyncio.Future]]] = OrderedDict()
        self._running = 0
        self.started: list[Hashable] = []  # the owners in the order their jobs started (tests read it)

    def waiting(self) -> int:
        return sum(len(q) for q in self._waiting.values())

    async def run(self, owner: Hashable, job: Callable[[], Awaitable[T]]) -> T:
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append((job, fut))
        self._pump()
        return await fut

    def _pump(self) -> None:
        # no await in here: picking the next job and starting it is one step
        while self._running < self.slots and self._waiting:
            owner, q = next(iter(self._waiting.items()))
            job, fut = q.popleft()
            del self._waiting[owner]
            if q:  # the owner goes to the back of the line
                self._waiting[owner] = q
            if fut.cancelled():
                continue
            self._running += 1
            self.started.append(owner)
            if len(self.started) > 1000:
                del self.started[:500]
            asyncio.get_running_loop().create_task(self._one(job, fut))

    async def _one(self, job: Callable[[], Awaitable[Any]], fut: asyncio.Future) -> None:
        try:
            result = await job()
        except BaseException as exc:  # handed to the waiter
            if not fut.done():
                fut.set_exception(exc)
        else:
            if not fut.done():
                fut.set_result(result)
        finally:
            self._running -= 1
            self._pump()


class _Flight:
    """One computation in progress and whoever waits for it."""

    def __init__(self) -> None:
        self.done = 0
        self.total = 0
        self.listeners: list[Progress] = []
        self.task: asyncio.Task | None = None


async def _call(cb: Progress, done: int, total: int) -> None:
    try:
        out = cb(done, total)
        if inspect.isawaitable(out):
            await out
    except Exception:  # a progress message that cannot be edited must not stop the review
        log.debug("a review's progress callback failed", exc_info=True)


class Reviewer:
    """Reviews of settled hands for the bot. ``submit`` evaluates one decision in the worker pool."""

    def __init__(self, store: Any, submit: Submit, *, slots: int = 1, seed: int = 0, tie: float = rv.TIE,
                 budget_ms: int = rv.BUDGET_HAND_MS) -> None:
        self.store = store
        self.budget_ms = budget_ms
        self.submit = submit
        self.queue = FairQueue(slots)
        self.seed = seed
        self.tie = tie
        self._flights: dict[tuple[str, int], _Flight] = {}

    async def cached(self, hand_id: str, seat: int) -> rv.Review | None:
        if self.store is None:
            return None
        d = await self.store.get_review(hand_id, seat)
        if d is None:
            return None
        r = rv.Review.from_json(d)
        # another judging, or win chances of an older map: computed again (and stored over it)
        return r if r.version == rv.VERSION and r.shown == rv.SHOWN else None

    async def review(self, hand_id: str, seat: int, events: Sequence[Any], *, owner: Hashable,
                     progress: Progress | None = None) -> rv.Review:
        """The review of ``seat`` in a settled hand (its full event log): from the cache, or computed once."""
        hit = await self.cached(hand_id, seat)
        if hit is not None:
            return hit
        key = (hand_id, seat)
        flight = self._flights.get(key)
        if flight is None:
            flight = self._flights[key] = _Flight()
            flight.task = asyncio.get_running_loop().create_task(self._compute(key, flight, events, owner))
        elif progress is not None and flight.total:
            await _call(progress, flight.done, flight.total)
        if progress is not None:
            flight.listeners.append(progress)
        assert flight.task is not None
        return await asyncio.shield(flight.task)

    async def _compute(self, key: tuple[str, int], flight: _Flight, events: Sequence[Any], owner: Hashable) -> rv.Review:
        hand_id, seat = key
        try:
            points = await asyncio.to_thread(rv.decision_points, events, seat)
            first = events[0]
            ruleset = str(first.get("ruleset") if isinstance(first, dict) else first.ruleset)
            budget = rv.per_decision_budget(len(points), self.budget_ms)
            flight.total = len(points)
            for cb in list(flight.listeners):
                await _call(cb, 0, flight.total)

            async def one(p: rv.Point) -> list[dict]:
                out = await self.queue.run(owner, lambda: self.submit(p, rv.seed_of(hand_id, seat, p.n, self.seed),
                                                                      budget))
                flight.done += 1
                for cb in list(flight.listeners):
                    await _call(cb, flight.done, flight.total)
                return out

            results = await asyncio.gather(*(one(p) for p in points))
            review = rv.review_points(hand_id, ruleset, seat, points, results, self.tie)
            if self.store is not None:
                try:
                    await self.store.save_review(hand_id, seat, review.to_json(), version=review.version,
                                                 decisions=len(review.decisions),
                                                 agreed=sum(1 for d in review.decisions if d["agree"]),
                                                 lost=review.lost)
                except Exception:  # the review is still shown; it is computed again next time
                    log.exception("keeping the review of %s seat %s failed", hand_id, seat)
            return review
        finally:
            self._flights.pop(key, None)


def executor_submit(executor: Any, evaluate: rv.Evaluator = rv.expert) -> Submit:
    """``submit`` over a ``concurrent.futures`` executor (a process pool: the evaluation never runs on the loop)."""

    async def submit(point: rv.Point, seed: int, budget_ms: int) -> list[dict]:
        return await asyncio.get_running_loop().run_in_executor(executor, evaluate, point, seed, budget_ms)

    return submit


def pool_submit(pool: Any, evaluate: rv.Evaluator = rv.expert) -> Submit:
    """``submit`` over the coach's worker pool (``jxbot.coach.CoachPool``): the very evaluation the terminal's
    ``jxbot review`` makes (the expert's own choice marked, the paired standard errors for the judging, the
    work capped in playout steps), so the bot's review of a hand is the terminal's."""

    async def submit(point: rv.Point, seed: int, budget_ms: int) -> list[dict]:
        out: list[dict] = await pool.call(evaluate, point, seed, budget_ms)
        return out

    return submit
