"""Issue 30: an expert computer's decisions (10²–10³ ms of playouts) run in the worker process
(jxbot.ai.offload), never on the event loop: other coroutines (other tables' presses) keep running."""

from __future__ import annotations

import asyncio
import time

from jxbot.table import FakeClock, MemorySink, SeatInfo, TableConfig, TableRunner


async def test_an_expert_table_never_holds_the_event_loop():
    seats = [SeatInfo.computer("cpu0", "expert")] + [SeatInfo.computer(f"cpu{i}", "easy") for i in (1, 2, 3)]

    async def balances(infos):
        return [None] * 4

    runner = TableRunner(seats, TableConfig(seed=3, table_id="t-expert", max_hands=1), interfaces={},
                         sink=MemorySink(), clock=FakeClock(1_700_000_000.0), balances=balances)
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:  # what another table's press needs: the loop, every few ms
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    runner.start()
    t0 = time.perf_counter()
    while sum(1 for ms in runner.decision_ms if ms > 20) < 6 and time.perf_counter() - t0 < 120:
        await asyncio.sleep(0.05)  # until the expert has made a few real decisions
    await runner.pause()
    done.set()
    await tick
    from jxbot.ai import offload

    offload.shutdown()  # the worker process ends with the test
    slow = sorted(runner.decision_ms)
    assert slow and max(slow) > 50, slow[-5:]  # real playouts were computed (the easy players' take < 1 ms)
    # the loop never waited for one: its longest stall is far below the longest expert decision
    assert max(gaps) * 1000 < 0.5 * max(slow), (max(gaps), max(slow))


async def test_a_busy_worker_makes_experts_answer_at_once_with_the_hard_choice():
    """Many expert tables at once: the worker takes QUEUE_LIMIT decisions, every further one is answered at
    once with the hard player's proposal (what the expert checks), so no table of experts waits a minute."""
    from jxbot.ai import make_player, offload
    from jxbot.game import Hand

    h = Hand.new("busy-worker")
    views = []
    while len(views) < 12 and h.phase != "ended":
        s = min(h.pending())
        v = h.view(s)
        if len(v["actions"]) > 1:
            views.append(v)
        h.apply(make_player("hard", "busy").choose(v))
    experts = [make_player("expert", f"e{i}") for i in range(len(views))]
    before = offload.quick_answers
    got = await asyncio.gather(*(offload.choose_async(p, v) for p, v in zip(experts, views, strict=True)))
    quick = offload.quick_answers - before
    assert quick == len(views) - offload.QUEUE_LIMIT, (quick, offload.QUEUE_LIMIT)
    hard = [make_player("hard", f"e{i}").choose(v) for i, v in enumerate(views)]
    # the quick answers are the hard player's proposals; the worker's are the expert's own (checked) choices
    assert [a for a, _ in got][offload.QUEUE_LIMIT:] == hard[offload.QUEUE_LIMIT:]
    assert offload._in_flight == 0
