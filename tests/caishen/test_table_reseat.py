"""A caishen table with the default 版 (four rounds): a five-round match reseats the players once, after
the fourth round, and the table runner follows them (RULES B11)."""

from __future__ import annotations

from jxbot.table import FakeClock, MemorySink, SeatInfo, TableConfig, TableRunner


class Human:
    def __init__(self) -> None:
        self.viewers: dict[str, set[int]] = {}
        self.reseats: list[dict] = []
        self.results: list[dict] = []

    async def notify(self, view, note):
        self.viewers.setdefault(view["hand_id"], set()).add(view["viewer"])

    async def on_result(self, result):
        self.results.append(result)

    async def on_reseat(self, info):
        self.reseats.append(info)


async def test_a_five_round_caishen_match_reseats_once_after_the_fourth_round():
    me = Human()
    seats = [SeatInfo("me", user_id=7, auto=True)] + [SeatInfo.computer(f"cpu{i}", "easy") for i in (1, 2, 3)]
    config = TableConfig(table_id="cs5", ruleset="caishen", rounds=5, seed="cs-five", auto_level="easy")
    runner = TableRunner(seats, config, interfaces={0: me}, sink=MemorySink(), clock=FakeClock())
    await runner.run()
    results = runner.match.results
    at = [i for i, r in enumerate(results) if "reseat" in r]
    assert len(at) == 1 and runner.match.rounds_done == 5
    k = at[0]
    # the reseat came when the deal passed back to East for the fourth time: after round 4
    assert sum(1 for r in results[:k + 1] if r["dealer"] == 3 and not (r["drawn_game"] or r["winner"] == 3)) == 4
    moves = results[k]["reseat"]
    new_seat = moves[0]
    assert me.reseats == [{"kind": "reseat", "moves": moves, "seat": new_seat, "old_seat": 0,
                           "names": [s.name for s in runner.seats]}]
    assert runner.seats[new_seat].name == "me" and runner.seat_of_user(7) == new_seat
    for r in results[:k + 1]:
        assert me.viewers[r["hand_id"]] == {0}
    for r in results[k + 1:]:
        assert me.viewers[r["hand_id"]] == {new_seat}
    assert results[k + 1]["dealer"] == 0 and results[k + 1]["seating"][new_seat] == 0  # East deals afresh
    # the match total follows the player: every hand's result at the seat they held then
    mine = sum(res["payments"][0 if i <= k else new_seat]["delta"] for i, res in enumerate(me.results))
    assert runner.totals[new_seat] == mine
    assert sum(runner.totals) == sum(sum(r["deltas"]) for r in results)
