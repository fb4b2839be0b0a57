"""``jxbot tournament simulate``: the duplicate format's walls really are the same at every table of a round (the
computers' own randomness follows the wall and the seat, so it cannot make two like tables part ways), every wall
is zero-sum, and the command prints both formats with their intervals (docs/tournaments.md "Simulation")."""

from __future__ import annotations

import json
from fractions import Fraction

from jxbot.events.model import Player
from jxbot.events.rounds import plan_round
from jxbot.events.scoring import duplicate_scores
from jxbot.events.simulate import play_event, simulate


def test_a_duplicate_rounds_tables_share_their_walls_and_each_wall_is_zero_sum():
    level = {i + 1: "hard" if i % 2 == 0 else "easy" for i in range(8)}
    field = [Player(pid, f"p{pid}", order=pid - 1) for pid in level]
    tables, ranked = play_event(field, level, "duplicate", 2, "t/dup", hands=2)
    assert len(tables) == 4 and len(ranked) == 8
    for r in (1, 2):
        plans = plan_round(field, [t for t in tables if t.round < r], r, "duplicate", "t/dup")
        assert len({p.secret for p in plans}) == 1  # one match secret: the same walls, dice and salts
    dup = duplicate_scores(tables)
    for r in (1, 2):
        for n in range(2):
            played = [dup[(t.round, t.table_no)][n] for t in tables if t.round == r and len(t.hand_deltas) > n]
            assert len(played) == 2
            for s in range(4):  # each seat's scores over the tables of one wall sum to zero
                assert sum((h[s] for h in played), Fraction(0)) == 0
    # a player's points are their scores over the walls they played
    pts = {s.pid: s.points for s in ranked}
    assert abs(sum(pts.values())) < 1e-6


def test_like_tables_on_one_wall_play_alike():
    """Two tables seating the same levels in the same seats on the same secret play the same hand (so where
    duplicate tables part ways, it is because their players differ)."""
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Match

    def deltas(match_id: str) -> list[int]:
        m = Match("t/wall", max_hands=1, rounds=99, match_id=match_id)
        bots = [make_player(lv, f"t/wall/seat/{s}") for s, lv in enumerate(["hard", "easy", "easy", "hard"])]
        return list(play_hand(m.next_hand(), bots).settle([None] * 4, fee=0).deltas)

    assert deltas("a") == deltas("b")


def test_the_command_prints_both_formats_with_intervals(capsys):
    from jxbot.cli import main

    assert main(["tournament", "simulate", "--players", "8", "--rounds", "1", "--events", "2", "--seed", "t",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for fmt in ("swiss", "duplicate"):
        lo, hi = out[fmt]["interval95"]
        assert lo <= out[fmt]["hard_above_easy"] <= hi and len(out[fmt]["per_event"]) == 2
    assert out["duplicate"]["walls_zero_sum"] is True
    d = out["duplicate_minus_swiss"]
    assert d["interval95"][0] <= d["mean"] <= d["interval95"][1]
    # the same events in both formats: the standings hold the same field
    assert sorted(s["name"] for s in out["swiss"]["standings"]) == sorted(s["name"] for s in out["duplicate"]["standings"])
    assert main(["tournament", "simulate", "--players", "8", "--rounds", "1", "--events", "1", "--seed", "t"]) == 0
    text = capsys.readouterr().out
    assert "swiss" in text and "duplicate" in text and "95% interval" in text and "duplicate minus Swiss" in text
    assert main(["tournament", "simulate", "--levels", "hard,hard"]) == 2  # two different levels
    refused = capsys.readouterr()  # said on stderr: stdout stays the (JSON) output a script reads
    assert refused.out == "" and "--levels is two different levels" in refused.err
    assert main(["tournament", "simulate", "--players", "-8", "--json"]) == 2
    refused = capsys.readouterr()
    assert refused.out == "" and "--players ≥ 4" in refused.err


def test_a_field_not_a_multiple_of_four_is_filled():
    out = simulate(6, 1, "t/six", events=1, hands=1)
    assert len(out["swiss"]["standings"]) == 6 and len(out["duplicate"]["standings"]) == 6
