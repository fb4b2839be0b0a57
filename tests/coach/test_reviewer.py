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


async def test_a_review_cached_with_the_old_maps_win_chances_is_computed_again(tmp_path) -> None:
    """Issue 30's refit changed the shown win chances without changing the judging (VERSION): a review stored
    before it (no ``shown`` in its JSON) would show the old map's chances for ever. Opened now, it is computed
    again and stored over; /stats (agreement, loss) reads the same before and after."""
    import copy

    from jxbot.coach import review as review_mod

    store = await Store.open(str(tmp_path / "s.sqlite3"))
    try:
        h = played_hand(3)
        await store_hand(store, h, [11, 12, None, None])
        events = await store.hand_events(h.hand_id)
        submit = Counting()
        rv = Reviewer(store, submit, slots=1)
        fresh = await rv.review(h.hand_id, 0, events, owner=11)
        n = len(fresh.decisions)
        before = await store.review_stats(GUILD, 11)
        old = copy.deepcopy(fresh.to_json())
        del old["shown"]  # as stored before the refit
        for d in old["decisions"]:
            for c in d["candidates"]:
                c["win"] = 0.5  # the old map's figure
        await store.save_review(h.hand_id, 0, old, version=review_mod.VERSION, decisions=n,
                                agreed=sum(1 for d in fresh.decisions if d["agree"]), lost=fresh.lost)
        assert await rv.cached(h.hand_id, 0) is None  # not shown as it is
        again = await rv.review(h.hand_id, 0, events, owner=11)
        assert submit.calls == 2 * n and again.to_json() == fresh.to_json()
        assert (await rv.cached(h.hand_id, 0)) is not None  # stored over: the next opening is from the store
        after = await store.review_stats(GUILD, 11)
        assert (after.hands, after.decisions, after.agreement, after.lost_per_hand) == \
            (before.hands, before.decisions, before.agreement, before.lost_per_hand)
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
