"""The runner's clocks, on the fake game (exact situations): claim windows, turn limits, auto-play,
auto-win, contract decisions, escape, pause, many tables."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.game.actions import Action, ActionType
from jxbot.table import FakeClock, MemorySink, SeatInfo, TableConfig, TableRunner

from .fakegame import FakeHand, FakeMatch, FirstLegal

P = ActionType


class Recorder:
    def __init__(self) -> None:
        self.views: list[dict] = []
        self.notes: list[dict | None] = []
        self.results: list[dict] = []
        self.ended: list[dict] = []

    async def notify(self, view: dict, note: dict | None) -> None:
        self.views.append(view)
        self.notes.append(note)

    async def on_result(self, result_view: dict) -> None:
        self.results.append(result_view)

    async def on_match_end(self, summary: dict) -> None:
        self.ended.append(summary)

    def kinds(self, kind: str) -> list[dict]:
        return [n for n in self.notes if n and n["kind"] == kind]


def claim_hand(hid: str = "h1", **kw) -> FakeHand:
    # The dealer (seat 0, computer) draws 20 and discards it; seats 1 and 2 each hold a pair of 20.
    hands = [list(range(0, 13)), [20, 20] + list(range(0, 11)), [20, 20] + list(range(1, 12)), list(range(2, 15))]
    wall = [20, 30, 31, 32, 33, 27, 28, 29, 30, 31, 32, 33, 27, 28]
    return FakeHand(hid, hands, wall, **kw)


def make(factories, humans=(1, 2), *, clock=None, delay=0.0, sink=None, **cfg):
    clock = clock or FakeClock()
    seats = [SeatInfo(f"p{i}") if i in humans else SeatInfo.computer(f"cpu{i}") for i in range(4)]
    recs = {i: Recorder() for i in humans}
    channel = Recorder()
    runner = TableRunner(seats, TableConfig(table_id="t1", seed=1, computer_delay=delay, **cfg),
                         interfaces=recs, observers=[channel], sink=sink or MemorySink(), clock=clock,
                         match=FakeMatch(factories), players={i: FirstLegal() for i in range(4)})
    return runner, clock, recs, channel


async def started(runner):
    runner.start()
    await runner.wait_idle()


async def test_claim_window_closes_as_soon_as_every_eligible_seat_answered():
    runner, clock, recs, channel = make([claim_hand])
    await started(runner)
    hand = runner.hand
    assert hand.phase == "claim" and hand.pending() == {1, 2}
    t0 = clock.now()
    deadline = runner.view(1)["deadline"]
    assert deadline == pytest.approx(t0 + 5.0)
    assert await runner.submit(1, Action(P.PASS, 1)) is None
    await runner.wait_idle()
    assert hand.phase == "claim" and hand.pending() == {2}
    assert runner.view(2)["deadline"] == deadline  # an answer does not restart the window
    assert await runner.submit(2, Action(P.PASS, 2)) is None
    await runner.wait_idle()
    # closed without any time passing: seat 1 has drawn and it is its turn, with a fresh 20 s clock
    assert clock.now() == t0
    assert hand.phase == "turn" and hand.turn == 1 and hand.drawn == 30
    assert runner.view(1)["deadline"] == pytest.approx(t0 + 20.0)
    await runner.pause()


async def test_unanswered_claim_window_times_out_as_pass_after_5_seconds():
    runner, clock, recs, channel = make([claim_hand])
    await started(runner)
    hand = runner.hand
    await clock.advance(4.9)
    await runner.wait_idle()
    assert hand.phase == "claim" and hand.pending() == {1, 2}
    await clock.advance(0.2)
    await runner.wait_idle()
    assert hand.phase == "turn" and hand.turn == 1
    assert [(n["seat"], n["type"]) for n in recs[1].kinds("timeout")] == [(1, "pass")]
    assert [(n["seat"], n["type"]) for n in recs[2].kinds("timeout")] == [(2, "pass")]
    # nobody else learns who could have claimed: no pass notes; the public claim clock is the nominal
    # one (from the discard), the same whoever may claim
    assert channel.kinds("timeout") == [] and not any(n["seat"] == 2 for n in recs[1].kinds("timeout"))
    claim_views = [v for v in channel.views if v["phase"] == "claim"]
    assert claim_views and all(v["deadline"] == pytest.approx(claim_views[0]["deadline"]) for v in claim_views)
    assert hand.hands[1].count(20) == 2  # nobody punged
    await runner.pause()


async def test_turn_timeout_discards_the_drawn_tile():
    runner, clock, recs, channel = make([claim_hand])
    await started(runner)
    await runner.submit(1, Action(P.PASS, 1))
    await runner.submit(2, Action(P.PASS, 2))
    await runner.wait_idle()
    hand = runner.hand
    assert hand.turn == 1 and hand.drawn == 30
    await clock.advance(19.5)
    await runner.wait_idle()
    assert hand.discards[1] == []
    await clock.advance(0.6)
    await runner.wait_idle()
    assert hand.discards[1] == [30]
    assert runner.seats[1].timeouts == 1 and not runner.seats[1].auto
    assert recs[1].kinds("timeout")[-1] == {"kind": "timeout", "seat": 1, "type": "discard", "tile": 30}
    await runner.pause()


def quiet_hand(hid: str = "q1") -> FakeHand:
    # No pairs anywhere: no claim windows, only turns. Seat 1 is the human.
    hands = [list(range(0, 13)), list(range(13, 26)), list(range(0, 13)), list(range(13, 26))]
    wall = [27, 28, 29, 30, 31, 32, 33] * 3
    return FakeHand(hid, hands, wall)


async def test_two_turn_timeouts_in_a_row_put_the_seat_on_auto_play_until_taken_back():
    runner, clock, recs, channel = make([quiet_hand], humans=(1,))
    await started(runner)
    hand = runner.hand
    assert hand.turn == 1
    await clock.advance(20.0)
    await runner.wait_idle()
    assert hand.turn == 1 and not runner.seats[1].auto  # one timeout: its next turn waits again
    t1 = clock.now()
    await clock.advance(20.0)
    await runner.wait_idle()
    assert runner.seats[1].auto
    assert recs[1].kinds("auto")[-1] == {"kind": "auto", "seat": 1, "on": True, "reason": "timeouts"}
    # on auto-play its turns go by without waiting for the clock: the hand plays out at once
    await runner.wait_idle()
    assert runner.finished and clock.now() == t1 + 20.0
    assert len(hand.discards[1]) > 2


async def test_auto_play_is_taken_back_and_the_seat_waits_again():
    runner, clock, recs, channel = make([quiet_hand], humans=(1,), delay=1.0)
    await started(runner)
    await clock.advance(1.0)  # the dealer (a computer, at its 1 s pace) discards
    await runner.wait_idle()
    assert runner.hand.turn == 1
    await runner.set_auto(1, True)
    await clock.advance(1.0)  # the computer's pace: seat 1 is played for
    await runner.wait_idle()
    hand = runner.hand
    assert len(hand.discards[1]) == 1
    await runner.set_auto(1, False)
    for _ in range(3):  # seats 2, 3, 0 play, then seat 1's turn waits for its player
        await clock.advance(1.0)
        await runner.wait_idle()
    assert hand.turn == 1 and hand.phase == "turn"
    await clock.advance(10.0)
    await runner.wait_idle()
    assert hand.turn == 1 and len(hand.discards[1]) == 1
    await runner.pause()


async def test_acting_while_on_auto_play_switches_auto_play_off():
    runner, clock, recs, channel = make([quiet_hand], humans=(1,), delay=1.0)
    await started(runner)
    await clock.advance(1.0)
    await runner.wait_idle()
    await runner.set_auto(1, True)
    assert runner.seats[1].auto and runner.hand.turn == 1
    drawn = runner.hand.drawn
    assert await runner.submit(1, Action(P.DISCARD, 1, drawn)) is None  # before the computer's pace
    assert not runner.seats[1].auto
    assert recs[1].kinds("auto")[-1] == {"kind": "auto", "seat": 1, "on": False}
    await runner.pause()


async def test_submit_rejects_bad_input_with_a_reason_and_changes_nothing():
    runner, clock, recs, channel = make([claim_hand])
    await started(runner)
    hand = runner.hand
    n = len(hand.events)
    assert await runner.submit(1, Action(P.DISCARD, 1, 5)) is not None  # a discard in a claim window
    assert await runner.submit(1, Action(P.PASS, 2)) == "not_your_seat"
    assert await runner.submit(0, Action(P.PASS, 0)) == "not_your_seat"  # a computer's seat
    assert await runner.submit(1, {"type": "nonsense", "seat": 1}) == "bad_action"
    assert await runner.submit(3, Action(P.PUNG, 3)) == "not_your_seat"
    assert len(hand.events) == n and hand.pending() == {1, 2}
    await runner.pause()
    assert await runner.submit(1, Action(P.PASS, 1)) == "paused"


async def test_auto_win_declares_hu_for_the_seat():
    runner, clock, recs, channel = make([lambda: claim_hand(hu_on={2: 20})])
    await runner.set_autowin(2, True)
    await started(runner)
    hand = runner.hand
    assert hand.phase == "ended" and hand.winner == 2
    assert clock.now() == 1_700_000_000.0
    assert recs[2].results and recs[2].results[0]["winner"] == 2


async def test_contract_decision_waits_15_seconds_then_persists():
    runner, clock, recs, channel = make([lambda: claim_hand(contract_after=1)], humans=(1, 2, 3))
    await started(runner)
    await runner.submit(2, Action(P.PASS, 2))
    assert await runner.submit(1, Action(P.PUNG, 1)) is None
    await runner.wait_idle()
    hand = runner.hand
    assert hand.phase == "contract" and hand.pending() == {2, 3}
    assert runner.view(3)["deadline"] == pytest.approx(clock.now() + 15.0)
    assert await runner.submit(2, Action(P.GIVE_UP, 2)) is None
    await clock.advance(14.9)
    await runner.wait_idle()
    assert hand.phase == "contract"
    await clock.advance(0.2)
    await runner.wait_idle()
    assert hand.phase == "turn" and hand.gave_up == {2}
    assert [(n["seat"], n["type"]) for n in channel.kinds("timeout")] == [(3, "persist")]
    await runner.pause()


async def test_escape_auto_plays_the_seat_and_settlement_charges_it():
    sink = MemorySink()
    runner, clock, recs, channel = make([quiet_hand, lambda: quiet_hand("q2")], humans=(1,), sink=sink)
    await started(runner)
    assert runner.hand.turn == 1
    await runner.leave(1)
    await runner.wait_idle()
    assert channel.kinds("escape") == [{"kind": "escape", "seat": 1}]
    # the escaped seat was played to the end of both hands without any clock running
    assert runner.finished and clock.now() == 1_700_000_000.0
    settlement, result = sink.settlements["q1"]
    assert settlement.deltas[1] < 0
    assert {"type": "escape", "data": [1]} in sink.events["q1"]
    assert result["payments"][1]["name"] == "p1"
    # from the next hand on a computer plays the seat and the player gets no more updates
    assert runner.seats[1].is_computer and runner.interfaces[1] is None
    assert sink.settlements["q2"][0].deltas[1] == 0


async def test_every_event_reaches_the_sink_once_and_in_order_and_public_views_hide_hands():
    sink = MemorySink()
    runner, clock, recs, channel = make([claim_hand], sink=sink)
    await started(runner)
    await runner.submit(1, Action(P.PASS, 1))
    await runner.submit(2, Action(P.PASS, 2))
    while not runner.finished:
        await clock.advance(20.0)
        await runner.wait_idle()
    hand = runner.hand
    assert sink.events["h1"] == [e.to_json() for e in hand.events]
    assert "h1" in sink.settlements and sink.states["t1"]["over"]
    for v in channel.views:
        assert v["viewer"] is None and "hand" not in v and "drawn" not in v and "actions" not in v
    assert all(v["seats"][1]["name"] == "p1" and v["seats"][0]["is_computer"] for v in recs[1].views)
    assert channel.ended and channel.ended[0]["hands"] == 1


async def test_pause_and_continue_restarts_the_clock():
    runner, clock, recs, channel = make([claim_hand])
    await started(runner)
    await clock.advance(3.0)
    await runner.pause()
    assert not runner.running
    await clock.advance(30.0)
    assert runner.hand.phase == "claim"  # paused: no clock ran
    await started(runner)
    assert runner.view(1)["deadline"] == pytest.approx(clock.now() + 5.0)
    await runner.pause()


async def test_many_tables_share_one_loop_and_one_clock():
    clock = FakeClock()
    runners = []
    for k in range(30):
        def fac(k=k):
            return claim_hand(f"h{k}")
        r, *_ = make([fac], clock=clock)
        runners.append(r)
    for r in runners:
        r.start()
    for _ in range(40):
        await clock.advance(5.0)
        await asyncio.gather(*(r.wait_idle() for r in runners))
        if all(r.finished for r in runners):
            break
    assert all(r.finished for r in runners)
    assert len({r.hand.hand_id for r in runners}) == 30


class BrokenSink(MemorySink):
    def __init__(self, fail_after: int) -> None:
        super().__init__()
        self.fail_after = fail_after

    async def append(self, hand_id, index, event_json):
        if index >= self.fail_after:
            raise OSError("disk full")
        await super().append(hand_id, index, event_json)


async def test_a_failing_store_stops_the_table_and_the_player_gets_a_reason_not_a_traceback():
    sink = BrokenSink(fail_after=3)  # deal, draw, discard are stored; then the first claim answer cannot be stored
    runner, clock, recs, channel = make([claim_hand], sink=sink)
    task = runner.start()
    await runner.wait_idle()
    assert await runner.submit(1, Action(P.PASS, 1)) == "table_error"
    await asyncio.gather(task, return_exceptions=True)
    assert isinstance(task.exception(), Exception) and not runner.running
    assert await runner.submit(2, Action(P.PASS, 2)) == "table_error"
    assert len(sink.events["h1"]) == 3


async def test_leaving_wakes_the_table_even_if_the_caller_is_cancelled_meanwhile():
    runner, clock, recs, channel = make([quiet_hand], humans=(1,))
    await started(runner)
    assert runner.hand.turn == 1
    leaving = asyncio.create_task(runner.leave(1))
    await asyncio.sleep(0)
    leaving.cancel()  # e.g. the UI task that called leave() is torn down by the update it receives
    await asyncio.gather(leaving, return_exceptions=True)
    await runner.wait_idle()
    assert runner.finished and clock.now() == 1_700_000_000.0  # no 20 s turn clock was waited for


async def test_between_hands_pause_and_the_real_clock():
    from jxbot.table import RealClock

    runner, clock, recs, channel = make([claim_hand, lambda: claim_hand("h2")], clock=RealClock(),
                                        claim_window=0.05, turn_seconds=0.05, between_hands=0.05)
    results = await asyncio.wait_for(runner.run(), timeout=20)  # every human prompt times out for real
    assert [r["hand_id"] for r in results] == ["h1", "h2"]
    assert runner.seats[1].auto and runner.seats[2].auto  # two turn timeouts each: on auto-play


async def test_wait_idle_returns_during_the_pause_between_hands():
    runner, clock, recs, channel = make([quiet_hand, lambda: quiet_hand("q2")], humans=(), between_hands=30.0)
    await started(runner)
    assert runner.hands_played == 1 and runner.hand.hand_id == "q1"
    await clock.advance(30.0)
    await runner.wait_idle()
    assert runner.finished and runner.hands_played == 2


class DeliveringRecorder(Recorder):
    """A seat whose offers reach the player only when the test says so (Discord accepted the edit)."""

    confirms_delivery = True


def make_delivering(**cfg):
    clock = FakeClock()
    seats = [SeatInfo(f"p{i}") if i in (1, 2) else SeatInfo.computer(f"cpu{i}") for i in range(4)]
    recs = {1: DeliveringRecorder(), 2: Recorder()}
    runner = TableRunner(seats, TableConfig(table_id="t1", seed=1, **cfg), interfaces=recs, observers=[Recorder()],
                         sink=MemorySink(), clock=clock, match=FakeMatch([claim_hand]),
                         players={i: FirstLegal() for i in range(4)})
    return runner, clock, recs


async def test_a_claim_window_counts_from_the_delivery_of_the_offer():
    runner, clock, recs = make_delivering()
    await started(runner)
    hand = runner.hand
    t0 = clock.now()
    assert hand.phase == "claim" and runner.offer_pending(1) and not runner.offer_pending(2)
    step = recs[1].views[-1]["step"]
    assert recs[1].views[-1]["deadline"] == pytest.approx(t0 + 5.0)  # shown: a full window from now
    await clock.advance(0.8)  # the edit took 0.8 s to reach the player
    assert not runner.offer_delivered(1, step - 1)  # a confirmation of an older step changes nothing
    assert runner.offer_delivered(1, step) and not runner.offer_delivered(1, step)
    assert runner.view(1)["deadline"] == pytest.approx(t0 + 5.8)
    assert runner.view(2)["deadline"] == pytest.approx(t0 + 5.0)  # a seat without delivery reports: at once
    await clock.advance(4.3)  # t0 + 5.1: seat 2 timed out, seat 1 still has 0.7 s
    await runner.wait_idle()
    assert hand.phase == "claim" and hand.pending() == {1}
    await clock.advance(0.75)  # t0 + 5.85: past the deadline shown, within the grace for a press in flight
    await runner.wait_idle()
    assert hand.phase == "claim"
    assert await runner.submit(1, Action(P.PUNG, 1)) is None  # a press in the last moment is taken
    await runner.wait_idle()
    assert hand.hands[1].count(20) == 0 and hand.turn == 1
    await runner.pause()


async def test_an_offer_never_delivered_still_ends():
    runner, clock, recs = make_delivering()
    await started(runner)
    hand = runner.hand
    t0 = clock.now()
    await clock.advance(8.0)
    await runner.wait_idle()
    assert runner.seat_deadline(1) == pytest.approx(t0 + 10.0)  # what it shows is never past its real end
    await clock.advance(1.9)
    await runner.wait_idle()
    assert hand.phase == "claim" and hand.pending() == {1}
    await clock.advance(0.2)
    await runner.wait_idle()
    assert hand.phase == "turn"
    assert [(n["seat"], n["type"]) for n in recs[1].kinds("timeout")] == [(1, "pass")]


async def test_turn_timeout_on_a_winning_draw_declares_the_win():
    """RULES C: a timed-out turn never discards a winning self-draw (it used to throw the 30 away)."""
    runner, clock, recs, channel = make([lambda: claim_hand(hu_on={1: 30})])
    await started(runner)
    await runner.submit(1, Action(P.PASS, 1))
    await runner.submit(2, Action(P.PASS, 2))
    await runner.wait_idle()
    hand = runner.hand
    assert hand.turn == 1 and hand.drawn == 30
    await clock.advance(20.1)
    await runner.wait_idle()
    assert hand.discards[1] == [] and hand.winner == 1
    assert recs[1].kinds("timeout")[-1]["type"] == "tsumo"
    assert recs[1].results and recs[2].results  # the hand ended with seat 1's win
    await runner.pause()
