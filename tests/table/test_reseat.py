"""RULES B11 at a table: after each 版 of a caishen match the players draw new seats, and the runner moves
each player (name, user id, flags, interface, computer player, match total, silver) to the new seat."""

from __future__ import annotations

import asyncio

from jxbot.ai import make_player
from jxbot.game import Match
from jxbot.rulesets.caishen.plugin import CAISHEN
from jxbot.table import FakeClock, MemorySink, SeatInfo, TableConfig, TableRunner

from .test_runner_clocks import Recorder

T0 = 1_700_000_000.0
START = 1000


class HumanSeat(Recorder):
    def __init__(self, user_id: int) -> None:
        super().__init__()
        self.user_id = user_id
        self.reseats: list[dict] = []

    async def on_reseat(self, info: dict) -> None:
        self.reseats.append(info)


class Channel(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.reseats: list[dict] = []

    async def on_reseat(self, info: dict) -> None:
        self.reseats.append(info)


class WalletSink(MemorySink):
    """Charges each hand's settlement to the users seated at its deal, as the store does."""

    def __init__(self, wallets: dict) -> None:
        super().__init__()
        self.wallets = wallets

    async def settle(self, hand_id, settlement, result_view):
        if hand_id not in self.settlements:
            for seat, d in zip(self.hands[hand_id]["seats"], settlement.deltas, strict=True):
                if seat["user_id"] is not None and not seat["is_computer"]:
                    self.wallets[seat["user_id"]] += d
        await super().settle(hand_id, settlement, result_view)


class SeatLog:
    """A computer player that notes which seat it was asked to play."""

    def __init__(self, level: str, seed: str) -> None:
        self.inner = make_player(level, seed)
        self.seats: dict[str, set[int]] = {}  # hand id -> the seats it was asked to play

    def choose(self, view: dict):
        self.seats.setdefault(view["hand_id"], set()).add(view["viewer"])
        return self.inner.choose(view)


def caishen_table(seed: str, *, rounds: int = 3, per_ban: int = 1, human=None):
    wallets = {101: START, 102: START}
    human = human or HumanSeat
    humans = {1: human(101), 2: human(102)}
    seats = [SeatInfo.computer("cpu0", "easy"),
             SeatInfo("p1", user_id=101, auto=True, autowin=True),  # auto-played: the test needs no input
             SeatInfo("p2", user_id=102, auto=True),
             SeatInfo.computer("cpu3", "easy")]
    players = {0: SeatLog("easy", f"{seed}:0"), 3: SeatLog("easy", f"{seed}:3")}

    async def balances(infos):
        return [None if s.is_computer else wallets[s.user_id] for s in infos]

    match = Match(seed, ruleset=CAISHEN.with_(cs_rounds_per_ban=per_ban), rounds=rounds, stake=2)
    channel = Channel()
    sink = WalletSink(wallets)
    runner = TableRunner(seats, TableConfig(table_id="cs", ruleset="caishen", rounds=rounds, stake=2, seed=seed),
                         interfaces=humans, observers=[channel], sink=sink, clock=FakeClock(T0),
                         balances=balances, match=match, players=players)
    return runner, humans, channel, sink, wallets, players


def player_deltas(match: Match) -> dict[int, list[int]]:
    """Per player (their seat at the start): the silver of each hand, by the game's own seating record."""
    out: dict[int, list[int]] = {p: [] for p in range(4)}
    for rec in match.results:
        for seat, d in enumerate(rec["deltas"]):
            out[rec["seating"][seat]].append(d)
    return out


async def test_players_keep_their_identity_silver_and_flags_and_see_their_new_seat_after_a_ban():
    runner, humans, channel, sink, wallets, players = caishen_table("reseat-table")
    await asyncio.wait_for(runner.run(), timeout=120)
    match = runner.match
    reseats = [r["reseat"] for r in match.results if "reseat" in r]
    assert len(reseats) == 2  # after rounds 1 and 2 of 3 (one 版 = one round here)
    assert any(m != [0, 1, 2, 3] for m in reseats)  # somebody really moved

    # the runner's seats are the game's seating: whoever the match says sits at s is named there
    start_names = ["cpu0", "p1", "p2", "cpu3"]
    assert [s.name for s in runner.seats] == [start_names[p] for p in match.seating]
    assert [s.level for s in runner.seats if s.is_computer] == ["easy", "easy"]
    me = runner.seat_of_user(101)
    assert runner.seats[me].name == "p1" and runner.seats[me].auto and runner.seats[me].autowin
    assert not runner.seats[runner.seat_of_user(102)].autowin

    # each human's interface got views of the seat where the game had seated that player
    for player, iface in ((1, humans[1]), (2, humans[2])):
        by_hand: dict[str, int] = {}
        for v in iface.views:
            by_hand.setdefault(v["hand_id"], v["viewer"])
            assert v["viewer"] == by_hand[v["hand_id"]]
            assert v["seats"][v["viewer"]]["name"] == start_names[player]
            if "hand" in v:
                assert len(v["hand"]) + (v["drawn"] is not None) == v["seats"][v["viewer"]]["concealed_count"]
        for rec in match.results:
            assert by_hand[rec["hand_id"]] == rec["seating"].index(player)
        assert len(set(by_hand.values())) > 1 or all(m[player] == player for m in reseats)
        # told once per reseat, with the seat it moved from and to
        assert [(i["old_seat"], i["seat"]) for i in iface.reseats] == [
            (match.results[k]["seating"].index(player), match.results[k + 1]["seating"].index(player))
            for k, r in enumerate(match.results) if "reseat" in r]
    assert len(channel.reseats) == 2 and channel.reseats[0]["seat"] is None

    # computer players play only for their own player, wherever they sit
    for p, log in ((0, players[0]), (3, players[3])):
        assert log.seats
        for rec in match.results:
            assert log.seats.get(rec["hand_id"], set()) <= {rec["seating"].index(p)}

    # silver: every hand is charged to the user who sat there, and match totals follow the players
    per_player = player_deltas(match)
    assert wallets == {101: START + sum(per_player[1]), 102: START + sum(per_player[2])}
    for p in range(4):
        assert runner.totals[match.seating.index(p)] == sum(per_player[p])
    for res in runner.results:  # result views show each seat's balance after the hand, by user
        rec = next(r for r in match.results if r["hand_id"] == res["hand_id"])
        for seat, pay in enumerate(res["payments"]):
            assert pay["name"] == start_names[rec["seating"][seat]]
    last = runner.results[-1]["payments"]
    for uid, player in ((101, 1), (102, 2)):
        seat = match.results[-1]["seating"].index(player)
        assert last[seat]["balance"] == wallets[uid]
    assert sink.states["cs"]["seats"][me]["name"] == "p1"  # the saved state has the new seating


async def test_views_of_the_settled_hand_are_withdrawn_at_a_reseat_and_a_resumed_table_keeps_the_seating():
    seen: list[tuple] = []
    pausing: list[asyncio.Future] = []

    class Stop(HumanSeat):
        async def on_reseat(self, info):
            await super().on_reseat(info)
            if self.user_id == 101:  # a restart right after the reseat
                seen.append((runner.view(info["seat"]), runner.public_view()))
                pausing.append(asyncio.ensure_future(runner.pause()))

    runner, humans, channel, sink, wallets, players = caishen_table("reseat-resume", rounds=2, human=Stop)
    task = runner.start()
    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), timeout=120)
    assert pausing and not task.exception()
    await pausing[0]
    assert seen == [(None, None)]  # the old hand's views are by the old seats: not offered any more
    state = sink.states["cs"]
    assert state["hand_id"] is None and state["match"]["seating"] == runner.match.seating

    # a restart between hands: the resumed table deals with the players where the draw put them
    uid_seat = {s["user_id"]: i for i, s in enumerate(state["seats"]) if s["user_id"]}
    ifaces = {uid_seat[101]: HumanSeat(101), uid_seat[102]: HumanSeat(102)}

    async def balances(infos):
        return [None if s.is_computer else wallets[s.user_id] for s in infos]

    resumed = TableRunner.resume(state, (), sink=sink, clock=FakeClock(T0), interfaces=ifaces, balances=balances)
    resumed.config.max_hands = len(resumed.match.results) + 1
    await asyncio.wait_for(resumed.run(), timeout=60)
    rec = resumed.match.results[-1]
    for seat, iface in ifaces.items():
        assert {v["viewer"] for v in iface.views} == {seat}
        assert resumed.seats[seat].user_id == iface.user_id
        assert rec["seating"][seat] == {101: 1, 102: 2}[iface.user_id]
