"""The bot's reviewer (jxbot/coach/reviewer.py): fair turns between players, one computation per hand and
seat, progress, and the store's cache (a second request evaluates nothing)."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.coach.reviewer import FairQueue, Reviewer
from jxbot.store import Store
from tests.coach.review_helpers import counting_evaluator
from tests.replay.helpers import GUILD, played_hand, store_hand


async def test_the_queue_takes_turns_between_owners() -> None:
    q = FairQueue(1)
    gate = asyncio.Event()

    async def job() -> None:
        await gate.wait()

    tasks = [asyncio.create_task(q.run("greedy", job)) for _ in range(5)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(q.run("other", job)) for _ in range(2)]
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*tasks)
    # the greedy player's first job was running; then the other player's jobs alternate with the rest
    assert q.started[:5] == ["greedy", "greedy", "other", "greedy", "other"], q.started


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, point, seed: int, budget: int) -> list[dict]:
        self.calls += 1
        await asyncio.sleep(0)
        return counting_evaluator(point, seed, budget)


async def test_cached_shared_and_with_progress(tmp_path) -> None:
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    try:
        h = played_hand(3)
        await store_hand(store, h, [11, 12, None, None])
        events = await store.hand_events(h.hand_id)
        submit = Counting()
        rv = Reviewer(store, submit, slots=2)
        seen: list[tuple[int, int]] = []
        a, b = await asyncio.gather(rv.review(h.hand_id, 0, events, owner=11, progress=lambda d, n: seen.append((d, n))),
                                    rv.review(h.hand_id, 0, events, owner=11))
        n = len(a.decisions)
        assert a.to_json() == b.to_json() and submit.calls == n  # one computation for both
        assert seen[0] == (0, n) and seen[-1] == (n, n) and len(seen) == n + 1
        again = await rv.review(h.hand_id, 0, events, owner=11)
        assert again.to_json() == a.to_json() and submit.calls == n  # from the store
        st = await store.review_stats(GUILD, 11)
        assert st.hands == 1 and st.decisions == n
        assert st.agreement == pytest.approx(a.agreement) and st.lost_per_hand == pytest.approx(a.lost)
        none = await store.review_stats(GUILD, 12)
        assert none.hands == 0 and none.agreement is None
    finally:
        await store.close()


async def test_the_bots_worker_pool_review_is_the_terminals() -> None:
    """The bot (``JXBOT_REVIEW_PROCESSES`` ≥ 1, the default) evaluated each decision with the bare evaluator:
    its "expert" was the best-valued candidate, not the expert level's choice, and every gap over 0.3 silver
    was a loss (no paired standard error to test). On this hand that read 30% agreement and 366 silver lost
    where ``jxbot review`` of the same hand reads 61% and 166. Both now judge the same evaluation."""
    from jxbot.coach import CoachPool
    from jxbot.coach import review as rv
    from jxbot.coach.reviewer import pool_submit

    h = played_hand(4)
    seat, budget = 1, 25
    evs = h.events_json()
    evs = evs[: rv.decision_points(evs, seat)[7].event + 1]  # the seat's first 8 decisions (CPU: ~6 s)
    pts = rv.decision_points(evs, seat)
    pool = CoachPool(processes=1)
    try:
        bot = await Reviewer(None, pool_submit(pool), slots=1, budget_ms=budget * len(pts)).review(
            h.hand_id, seat, evs, owner=1)
    finally:
        pool.close()
    terminal = rv.review_hand(evs, seat, rv.expert, budget_ms=rv.per_decision_budget(len(pts), budget * len(pts)))
    assert [(d["best"], d["agree"], d["loss"]) for d in bot.decisions] == \
        [(d["best"], d["agree"], d["loss"]) for d in terminal.decisions]
    assert all(any(c.get("expert") for c in d["candidates"]) for d in bot.decisions)
