"""The runner on the real game and computer players: escape charged, resume from stored events,
many tables, computer decision times."""

from __future__ import annotations

import asyncio

import pytest

from jxbot.game import Hand
from jxbot.table import FakeClock, MemorySink, SeatInfo, TableConfig, TableRunner

from .test_runner_clocks import Recorder

T0 = 1_700_000_000.0


def table(seed, humans=(1,), *, clock=None, sink=None, wallets=None, **cfg):
    clock = clock or FakeClock(T0)
    sink = sink if sink is not None else MemorySink()
    seats = [SeatInfo(f"p{i}") if i in humans else SeatInfo.computer(f"cpu{i}") for i in range(4)]
    recs = {i: Recorder() for i in humans}
    wallets = wallets if wallets is not None else {i: 1000 for i in humans}

    async def balances(infos):
        return [wallets.get(i) if not s.is_computer else None for i, s in enumerate(infos)]

    cfg.setdefault("table_id", f"t{seed}")
    r = TableRunner(seats, TableConfig(seed=seed, **cfg), interfaces=recs, sink=sink, clock=clock,
                    balances=balances)
    return r, clock, sink, recs


async def play_defaults(runner, seat, steps):
    """The human at ``seat`` answers every prompt with the default (what a timeout would do)."""
    for _ in range(steps):
        await runner.wait_idle()
        hand = runner.hand
        if runner.finished or hand is None or hand.phase == "ended":
            return
        if seat in hand.pending() and not runner.seats[seat].auto:
            assert await runner.submit(seat, hand.default_action(seat)) is None


async def test_escape_auto_plays_the_seat_and_the_settlement_charges_the_fee_and_loss():
    wallets = {1: 1000}
    runner, clock, sink, recs = table(11, stake=10, fee=5, max_hands=1, wallets=wallets)
    runner.start()
    await play_defaults(runner, 1, 3)
    assert runner.hand_running and runner.hand.phase != "ended"
    await runner.leave(1)
    await runner.wait_idle()
    assert runner.finished  # the rest of the hand went by without waiting for seat 1
    hid = runner.results[0]["hand_id"]
    settlement, result = sink.settlements[hid]
    assert result["escaped"] == [1]
    assert settlement.deltas[1] <= -5  # at least the service fee
    assert sum(settlement.deltas) + settlement.house_delta == 0
    assert result["payments"][1]["balance"] == 1000 + settlement.deltas[1]
    if result["winner"] == 1:
        assert settlement.deltas[1] < 0  # an escaper's winnings are not paid out
    assert any(e["type"] == "escaped" for e in sink.events[hid])
    assert recs[1].kinds("escape") == [{"kind": "escape", "seat": 1}]


async def test_a_restarted_process_resumes_the_hand_from_the_stored_events():
    sink = MemorySink()
    runner, clock, _, recs = table(21, sink=sink, max_hands=2)
    runner.start()
    await play_defaults(runner, 1, 4)
    hand = runner.hand
    hid = hand.hand_id
    before = runner.view(1)
    n_events = len(sink.events[hid])
    stored = list(sink.events[hid])
    assert hand.phase != "ended" and n_events == len(hand.events)
    await runner.pause()  # the process goes away; only the sink remains

    clock2 = FakeClock(T0 + 3600)
    rec = Recorder()
    resumed = TableRunner.resume(sink.states[runner.config.table_id], sink.events[hid], sink=sink, clock=clock2,
                                 interfaces={1: rec})
    after = resumed.view(1)
    for v in (before, after):
        v.pop("deadline")
        v.pop("step")
    assert after == before  # the same hand, the same tiles, the same legal actions
    resumed.start()
    await resumed.wait_idle()
    if resumed.hand_running and 1 in resumed.hand.pending():
        assert resumed.view(1)["deadline"] > clock2.now()  # the clock restarted
    # once the clocks ran again the seat was sent its view: with a countdown if it was awaited
    i = rec.notes.index({"kind": "resume"})
    v = rec.views[i]
    assert v["deadline"] is not None if v["actions"] else v["deadline"] is None
    await play_defaults(resumed, 1, 400)
    assert resumed.finished and resumed.hands_played == 2
    assert sink.events[hid][:n_events] == stored and len(sink.events[hid]) > n_events  # continued, not restarted
    assert Hand.replay(sink.events[hid]).settlement is not None  # settled exactly once, by the resumed runner
    assert len(sink.settlements) == 2 and sink.states[runner.config.table_id]["over"]
    assert [len(sink.events[h]) for h in sink.order] == [len(Hand.replay(sink.events[h]).events) for h in sink.order]


async def test_many_tables_play_in_one_event_loop():
    clock = FakeClock(T0)
    runners = [table(100 + k, humans=(k % 4,), clock=clock, max_hands=1)[0] for k in range(12)]
    for r in runners:
        r.start()
    for _ in range(300):
        await asyncio.gather(*(r.wait_idle() for r in runners))
        if all(r.finished for r in runners):
            break
        await clock.advance(20.0)  # every human sleeps through its turns and claims
    assert all(r.finished for r in runners)
    assert len({r.results[0]["hand_id"] for r in runners}) == 12
    # the humans timed out twice and were put on auto-play
    assert all(r.seats[k % 4].auto for k, r in enumerate(runners) if r.results[0]["hand_id"])
    stats = runners[0].decision_stats()
    assert stats["decisions"] > 20 and stats["p99_ms"] < 200


async def test_computer_seats_and_auto_win_never_wait_for_a_clock():
    runner, clock, sink, _ = table(31, humans=(), max_hands=2)
    results = await asyncio.wait_for(runner.run(), timeout=60)
    assert len(results) == 2 and clock.now() == T0
    for r in results:
        assert r["drawn_game"] or r["winner"] in range(4)
        assert sum(p["delta"] for p in r["payments"]) + sink.settlements[r["hand_id"]][0].house_delta == 0


class HistorySink(MemorySink):
    def __init__(self) -> None:
        super().__init__()
        self.history: list[dict] = []
        self.settle_calls: list[str] = []

    async def table_state(self, table_id, state):
        self.history.append(state)
        await super().table_state(table_id, state)

    async def settle(self, hand_id, settlement, result_view):
        self.settle_calls.append(hand_id)
        await super().settle(hand_id, settlement, result_view)


async def test_a_crash_between_settlement_and_the_next_deal_does_not_pay_twice():
    sink = HistorySink()
    wallets = {1: 500}
    runner, clock, _, recs = table(41, sink=sink, max_hands=1, wallets=wallets)
    runner.start()
    await play_defaults(runner, 1, 400)
    assert runner.finished
    hid = sink.order[0]
    # the state saved when hand 1 was dealt (after the one saved before it): the process "crashed" after that
    at_deal = next(st for st in sink.history if st["hand_id"] == hid)
    assert at_deal["hand_id"] == hid and Hand.replay(sink.events[hid]).settlement is not None
    # one more hand, to see the table go on after finishing hand 1
    state = {**at_deal, "config": {**at_deal["config"], "max_hands": 2}, "match": {**at_deal["match"], "max_hands": 2}}
    resumed = TableRunner.resume(state, sink.events[hid], sink=sink, clock=FakeClock(T0),
                                 interfaces={1: Recorder()}, balances=runner._balances_fn)
    resumed.start()
    await play_defaults(resumed, 1, 400)
    assert resumed.finished and resumed.hands_played == 2
    assert resumed.results[0]["hand_id"] == hid and resumed.results[0] == runner.results[0] | {
        "payments": resumed.results[0]["payments"], "match_over": False}  # the match was made longer
    # hand 1 was settled once by the hand (one hand_settled event), the sink's settle is idempotent
    assert sum(e["type"] == "hand_settled" for e in sink.events[hid]) == 1
    assert sink.settlements[hid][1]["payments"] == runner.results[0]["payments"]
    assert len(sink.order) == 2 and sink.order[1] != hid


def _walk_keys(obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            _walk_keys(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _walk_keys(v, out)
    return out


async def test_random_humans_and_timeouts_keep_the_log_complete_and_hidden_tiles_private():
    import random

    for seed in (51, 52, 53):
        rng = random.Random(seed)
        channel = Recorder()
        runner, clock, sink, recs = table(seed, humans=(0, 2), max_hands=1)
        runner.observers.append(channel)
        runner.start()
        for _ in range(2000):
            await runner.wait_idle()
            if runner.finished:
                break
            hand = runner.hand
            waiting = [s for s in (0, 2) if s in hand.pending() and not runner.seats[s].auto]
            if not waiting or rng.random() < 0.15:
                await clock.advance(20.0)  # let the clocks run out
                continue
            s = rng.choice(waiting)
            assert await runner.submit(s, rng.choice(hand.legal_actions(s))) is None
        assert runner.finished
        hid = runner.results[0]["hand_id"]
        replayed = Hand.replay(sink.events[hid])
        assert replayed.result_view()["winner"] == runner.results[0]["winner"]
        settlement = sink.settlements[hid][0]
        assert sum(settlement.deltas) + settlement.house_delta == 0
        for v in channel.views:
            keys = _walk_keys(v, set())
            assert not keys & {"hand", "drawn", "actions", "wall", "salt"}
        assert not [n for n in channel.notes if n and n.get("type") == "pass"]
        for seat, rec in recs.items():
            for v in rec.views:
                assert v["viewer"] == seat and "wall" not in _walk_keys(v, set())
            assert all(n["seat"] == seat for n in rec.notes if n and n.get("type") == "pass")


def _to_contract():
    """A real hand driven to a contract (seat 1 chows the dealer three times): seats 2 and 3 decide."""
    from jxbot.game import Action, ActionType
    from jxbot.game.scripted import scripted_hand
    from jxbot.rules.tiles import parse_tile

    h = scripted_hand({0: "1m23568s1234567z3m", 1: "124578m5p123z147s", 2: "1112345678999p", 3: "369m1234z567z567z"},
                      indicator="9s", draws="6s4z6m5s6z9m3p", hand_id="contract-hand")

    def do(kind, seat, tile=None):
        h.apply(Action(ActionType(kind), seat, parse_tile(tile) if tile else None))

    def pass_all():
        while h.phase == "claim":
            do("pass", min(h.pending()))

    def discard_drawn(seat):
        h.apply(Action(ActionType.DISCARD, seat, h.drawn))

    for mine, theirs, own in (("3m", "1m", "1z"), ("6m", "4m", "2z")):
        do("discard", 0, mine)
        do("chi", 1, theirs)
        do("discard", 1, own)
        pass_all()
        discard_drawn(2)
        discard_drawn(3)
    do("discard", 0, "9m")
    do("chi", 1, "7m")
    assert h.phase == "contract" and h.pending() == {2, 3}
    return h


async def test_contract_decision_on_the_real_game_waits_15_seconds_and_defaults_to_persist():
    from jxbot.game import Action, ActionType

    from .fakegame import FakeMatch

    hand = _to_contract()
    clock = FakeClock(T0)
    seats = [SeatInfo.computer("c0"), SeatInfo.computer("c1"), SeatInfo("p2"), SeatInfo("p3")]
    recs = {2: Recorder(), 3: Recorder()}
    runner = TableRunner(seats, TableConfig(seed=1, max_hands=1), interfaces=recs, clock=clock,
                         match=FakeMatch([lambda: hand]))
    runner.start()
    await runner.wait_idle()
    assert hand.phase == "contract" and runner.view(2)["deadline"] == T0 + 15.0
    assert runner.public_view()["deadline"] == T0 + 15.0 and runner.public_view()["contract"] == [1, 0]
    assert await runner.submit(2, Action(ActionType.GIVE_UP, 2)) is None
    await clock.advance(14.0)
    await runner.wait_idle()
    assert hand.phase == "contract" and hand.pending() == {3}
    await clock.advance(1.0)
    await runner.wait_idle()
    assert hand.phase != "contract" and hand.gave_up == {2}
    assert recs[3].kinds("timeout") == [{"kind": "timeout", "seat": 3, "type": "persist", "tile": None}]
    assert recs[2].views[-1]["seats"][2]["gave_up"]
    await runner.pause()


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
async def test_an_escape_during_a_contract_vote_persists_and_the_escaper_pays_its_share(level):
    """Issue 24 finding 14 (RULES A10): seat 3, far from ready, leaves while it is asked 放弃 / 坚持. The
    computer that plays it on for the hand (at any auto-play level) answers 坚持, so the escaper is
    charged the fee and the loss its seat owes, not the fee alone (a 放弃 would have paid nothing)."""
    from .fakegame import FakeMatch

    hand = _to_contract()
    sink = MemorySink()
    seats = [SeatInfo.computer("c0"), SeatInfo.computer("c1"), SeatInfo.computer("c2"), SeatInfo("p3")]

    async def balances(infos):
        return [1000 if not s.is_computer else None for s in infos]

    runner = TableRunner(seats, TableConfig(seed=1, max_hands=1, stake=10, fee=5, auto_level=level),
                         interfaces={3: Recorder()}, sink=sink, clock=FakeClock(T0),
                         match=FakeMatch([lambda: hand]), balances=balances)
    runner.start()
    await runner.wait_idle()
    assert hand.phase == "contract" and hand.pending() == {3}
    await runner.leave(3)
    await runner.wait_idle()
    assert runner.finished
    answers = [e for e in sink.events[hand.hand_id] if e["type"] == "contract_answered" and e["seat"] == 3]
    assert [a["give_up"] for a in answers] == [False] and 3 not in hand.gave_up
    settlement, result = sink.settlements[hand.hand_id]
    assert result["escaped"] == [3] and result["gave_up"] == []
    winner = result["winner"]
    assert winner is not None and winner != 3  # this hand: seat 2, ready from the deal, wins
    owed = [t for t in settlement.transfers if t.payer == 3 and t.payee == winner]
    assert owed and all(t.reason == "escape" and t.amount > 0 for t in owed)
    assert settlement.deltas[3] == -(5 + sum(t.amount for t in owed)) < -5  # the fee and its loss


class BatchSink(MemorySink):
    """A sink that takes a move's events in one go (as the bot's store does); counts both kinds of write."""

    def __init__(self):
        super().__init__()
        self.single, self.batches = 0, []

    @property
    def writes(self):
        return self.single + len(self.batches)

    async def append(self, hand_id, index, event_json):
        self.single += 1
        await super().append(hand_id, index, event_json)

    async def append_many(self, hand_id, start, events_json):
        self.batches.append(len(events_json))
        for i, e in enumerate(events_json):
            await super().append(hand_id, start + i, e)


async def test_a_sink_that_takes_a_move_in_one_go_stores_the_same_log_in_fewer_writes():
    sink = BatchSink()
    runner, *_ = table(33, humans=(), sink=sink, max_hands=1)
    runner.start()
    await asyncio.wait_for(runner._task, 30)
    hid = sink.order[0]
    assert [e for e in sink.events[hid]] == [e.to_json() for e in Hand.replay(sink.events[hid]).events]
    assert sink.writes < len(sink.events[hid]) * 0.8, (sink.writes, len(sink.events[hid]))
    # the bot's store batches append_many calls of all tables (group commit); a lone append is a
    # transaction of its own, so a one-event move (a discard into a claim window, a pass) goes the same way
    assert sink.single == 0 and 1 in sink.batches, (sink.single, sink.batches)
    assert sum(sink.batches) == len(sink.events[hid])


async def test_the_match_state_is_stored_before_its_first_hand():
    """A restart at any point of the first deal finds the match (its secret seed) stored: the state is saved
    before the hand is (docs/table.md, "Restart windows"); the same hand is then resumed or dealt again."""
    calls: list[tuple[str, object]] = []

    class Ordered(MemorySink):
        async def table_state(self, table_id, state):
            calls.append(("state", state["hand_id"]))
            await super().table_state(table_id, state)

        async def hand_started(self, hand_id, info):
            calls.append(("hand", hand_id))
            await super().hand_started(hand_id, info)

    runner, _, sink, _ = table(None, sink=Ordered())
    runner.start()
    await runner.wait_idle()
    hid = runner.state()["hand_id"]
    assert calls[:3] == [("state", None), ("hand", hid), ("state", hid)]
    stored = sink.states["tNone"]  # (the seed of a fresh match is a new secret: kept only in this state)
    redealt = TableRunner.resume(dict(stored, hand_id=None)).match.next_hand()
    assert redealt.hand_id == hid and redealt.events[0] == runner.hand.events[0]  # the secret was stored
    await runner.pause()
