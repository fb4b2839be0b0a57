"""Pairing, duplicate scores and standings (jxbot/events), without Discord or a store."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from jxbot.events import fairness
from jxbot.events.model import EventConfig, Player, TableRecord, placements
from jxbot.events.pairing import met_pairs, pair_round, seat_order
from jxbot.events.rounds import fillers, plan_round
from jxbot.events.scoring import duplicate_scores, standings
from jxbot.game import Match


def test_pairing_avoids_repeat_opponents_when_a_choice_of_like_standing_exists():
    ranked = list(range(1, 9))
    first = pair_round(ranked, {})
    assert first == [[1, 2, 3, 4], [5, 6, 7, 8]]  # by standing
    second = pair_round(ranked, met_pairs(first))
    repeats = sum(1 for t in second for a, b in combinations(t, 2) if b in met_pairs(first).get(a, ()))
    # 8 players at two tables of four: two from each first-round table must meet again at each table
    assert repeats == 4 and sorted(p for t in second for p in t) == ranked
    # with 16 players nobody needs to meet anyone again
    ranked16 = list(range(1, 17))
    r1 = pair_round(ranked16, {})
    r2 = pair_round(ranked16, met_pairs(r1))
    met = met_pairs(r1)
    assert all(b not in met.get(a, ()) for t in r2 for a, b in combinations(t, 2))


def test_seats_rotate_by_round_the_same_way_at_every_table():
    assert seat_order([10, 20, 30, 40], 1) == [10, 20, 30, 40]
    assert seat_order([10, 20, 30, 40], 2) == [40, 10, 20, 30]
    assert seat_order([10, 20, 30, 40], 5) == [10, 20, 30, 40]


def test_fillers_make_the_field_a_multiple_of_four_and_are_not_ranked():
    people = [Player(i, f"p{i}", order=i) for i in range(1, 7)]
    field = people + fillers(len(people), "easy")
    assert len(field) == 8 and [p.pid for p in field if p.is_computer] == [-1, -2]
    plans = plan_round(field, [], 1, "swiss", "s")
    assert sorted(p for plan in plans for p in plan.players) == sorted(p.pid for p in field)
    assert all(s.pid > 0 for s in standings(field, [], "swiss"))


def test_duplicate_scores_are_zero_sum_per_wall_and_match_a_hand_computation():
    a = TableRecord(1, 0, [1, 2, 3, 4], [30, -10, -10, -10], placements([30, -10, -10, -10]),
                    [[24, -8, -8, -8], [6, -2, -2, -2]])
    b = TableRecord(1, 1, [5, 6, 7, 8], [-8, 24, -8, -8], placements([-8, 24, -8, -8]),
                    [[-8, 24, -8, -8]])  # this table ended after one hand: the second wall is table 0's alone
    dup = duplicate_scores([a, b])
    assert dup[(1, 0)][0] == [16, -16, 0, 0] and dup[(1, 1)][0] == [-16, 16, 0, 0]
    assert dup[(1, 0)][1] == [0, 0, 0, 0]  # one table played that wall: nothing to compare with
    for wall in range(1):
        assert sum(sum(dup[k][wall]) for k in dup) == 0
    players = [Player(i, f"p{i}", order=i) for i in range(1, 9)]
    rows = {s.pid: s for s in standings(players, [a, b], "duplicate")}
    assert rows[1].points == 16 and rows[6].points == 16 and rows[2].points == -16
    assert rows[1].rank == rows[6].rank == 1 or {rows[1].rank, rows[6].rank} == {1, 2}
    assert isinstance(duplicate_scores([a])[(1, 0)][0][0], Fraction)


def test_swiss_standings_sum_points_then_placements():
    t1 = TableRecord(1, 0, [1, 2, 3, 4], [9, 3, -3, -9], [1, 2, 3, 4])
    t2 = TableRecord(2, 0, [4, 3, 2, 1], [9, 3, -3, -9], [1, 2, 3, 4])
    rows = standings([Player(i, f"p{i}", order=i) for i in range(1, 5)], [t1, t2], "swiss")
    # level on points and on average placement (2.5): one first place each ranks 1 and 4 above 2 and 3
    assert {s.pid: s.rank for s in rows} == {1: 1, 4: 1, 2: 3, 3: 3}
    assert all(s.points == 0 for s in rows) and rows[0].placements in ([1, 4], [4, 1])
    t3 = TableRecord(3, 0, [1, 2, 3, 4], [1, 0, 0, -1], [1, 2, 3, 4])
    rows = standings([Player(i, f"p{i}", order=i) for i in range(1, 5)], [t1, t2, t3], "swiss")
    assert rows[0].pid == 1 and rows[0].points == 1 and rows[-1].pid == 4


def test_the_event_secret_commits_to_every_wall_of_the_event():
    secret = fairness.new_secret()
    c = fairness.commitment(secret)
    # every table of a duplicate round is dealt from the same match secret: the same walls
    s0 = fairness.table_secret(secret, 2, 0, "duplicate")
    s1 = fairness.table_secret(secret, 2, 1, "duplicate")
    assert s0 == s1 and fairness.table_secret(secret, 2, 0, "swiss") != fairness.table_secret(secret, 2, 1, "swiss")
    h0 = Match(s0, match_id="tableA").next_hand()
    h1 = Match(s1, match_id="tableB").next_hand()
    assert h0.hand_id != h1.hand_id and h0.public_view()["commitment"] == h1.public_view()["commitment"]
    wall = fairness.wall_of(secret, 2, 0, "duplicate", 1)
    ok, problems = fairness.verify_event(secret, c, "duplicate", [(2, 0, 1, wall), (2, 1, 1, wall)])
    assert ok and problems == []
    ok, problems = fairness.verify_event(secret, c, "duplicate", [(2, 0, 2, wall)])
    assert not ok and problems == ["round 2 table 1 hand 2"]
    assert fairness.verify_event("another", c, "duplicate", [])[1] == ["commitment"]


def test_an_event_keeps_its_channel_language_and_one_stored_before_has_none():
    cfg = EventConfig(name="cup", lang="en-US")
    assert cfg.lang == "en" and EventConfig.from_json(cfg.to_json()).lang == "en"
    old = {k: v for k, v in EventConfig(name="cup").to_json().items() if k != "lang"}  # a row stored before
    assert EventConfig.from_json(old).lang is None  # the bot's language then (cogs/tournament.py)
    assert EventConfig.from_json({"name": "cup", "lang": "zh-CN"}).lang == "zh"


def test_a_table_that_finished_no_hand_places_nobody_and_favours_no_seat():
    """A table stopped before its first hand ended (``/admin close``, a failed resume) is recorded with every
    seat ``NOT_PLACED``: its four players share a rank, counted at the middle placement (2.5) against the other
    tables' players on equal points — not 1-2-3-4 in seat order, which ranked 东 first on every tie-break."""
    from jxbot.events.model import NOT_PLACED, place_text

    players = [Player(i, f"p{i}", order=i) for i in range(1, 9)]
    stopped = TableRecord(1, 0, [1, 2, 3, 4], [0, 0, 0, 0], [NOT_PLACED] * 4)
    played = TableRecord(1, 1, [5, 6, 7, 8], [0, 0, 0, 0], [1, 2, 3, 4], [[0, 0, 0, 0]])  # a drawn hand
    rows = standings(players, [stopped, played], "swiss")
    rank = {r.pid: r.rank for r in rows}
    assert rank[1] == rank[2] == rank[3] == rank[4]  # nobody of the stopped table above another
    assert rank[5] < rank[1] < rank[7]  # 2.5: behind a 1st (and a 2nd), ahead of a 3rd and a 4th
    assert rank[6] < rank[1]
    assert [place_text(p) for p in next(r for r in rows if r.pid == 1).placements] == ["-"]
