"""``jxbot duel``: duplicate evaluation of a level against a field (issue 18)."""

import io
import json
import math

import pytest

from jxbot import cli
from jxbot.ai.duel import clustered_ci, duel, summary
from jxbot.commands.duel import run_duel

KEYS = {"silver_per_hand", "ci95", "win_rate", "deal_in_rate", "call_rate", "contract_rate", "avg_tai", "avg_fan",
        "draw_rate", "hands"}


def test_a_level_against_itself_scores_exactly_zero():
    # the normal player has no randomness: the four rotations of a wall play out the same hands with the
    # seats renamed, so the challenger's silver over a wall is the field's average: zero
    s = summary(duel("normal", "normal", range(4), "zero"))
    assert s["silver_per_hand"] == 0 and s["ci95"] == [0.0, 0.0]
    assert s["hands"] == 16 and s["walls"] == 4


def test_each_wall_is_played_four_times_with_the_challenger_in_each_seat():
    res = duel("normal", "easy", range(3), "rot")
    assert res["challenger_seats"] == [3, 3, 3, 3] and res["hands"] == 12
    assert [w for w, _t in res["wall_silver"]] == [0, 1, 2]


def test_interval_is_clustered_by_wall():
    # walls worth 4, 8, 0, 4 silver over their 4 hands: 1 per hand, sd of the wall means 0.8165
    mean, lo, hi = clustered_ci([4, 8, 0, 4])
    half = 1.959963984540054 * math.sqrt((0 + 1 + 1 + 0) / 3 / 4)
    assert mean == pytest.approx(1.0) and (lo, hi) == (pytest.approx(1 - half), pytest.approx(1 + half))
    assert clustered_ci([]) == (0.0, 0.0, 0.0)


def test_jobs_and_chunks_do_not_change_the_figures():
    a = run_duel("normal", "easy", 4, "jobs", jobs=1, chunk=4)
    b = run_duel("normal", "easy", 4, "jobs", jobs=2, chunk=1)
    timing = {"seconds", "cpu_seconds", "jobs"}
    assert {k: v for k, v in a.items() if k not in timing} == {k: v for k, v in b.items() if k not in timing}


def test_json_line_has_the_listed_keys(capsys):
    assert cli.main(["duel", "--challenger", "normal", "--field", "easy", "--hands", "2", "--seed", "j", "--json"]) == 0
    out = capsys.readouterr()
    lines = out.out.strip().splitlines()
    assert len(lines) == 1
    d = json.loads(lines[0])
    assert set(d) >= KEYS and d["hands"] == 8
    lo, hi = d["ci95"]
    assert lo <= d["silver_per_hand"] <= hi
    assert out.err == ""  # no progress bar when stderr is not a terminal


def test_progress_bar_on_a_terminal(monkeypatch, capsys):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    err = Tty()
    monkeypatch.setattr("sys.stderr", err)
    assert cli.main(["duel", "--challenger", "normal", "--field", "easy", "--hands", "2", "--chunk", "1"]) == 0
    assert "8/8 hands" in err.getvalue()
    assert "silver per hand" in capsys.readouterr().out


@pytest.mark.parametrize("argv, msg", [
    (["--challenger", "grandmaster"], "unknown --challenger level 'grandmaster'"),
    (["--field", "pro"], "unknown --field level 'pro'"),
    (["--hands", "0"], "--hands must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--chunk", "0"], "--chunk must be at least 1"),
    (["--ruleset", "nope"], "nope"),
])
def test_bad_input_gets_a_clear_message(argv, msg, capsys):
    assert cli.main(["duel", *argv]) == 2
    assert msg in capsys.readouterr().err


@pytest.mark.parametrize("argv, msg", [
    (["--jobs", "-2"], "jxbot simulate: --jobs must be at least 1"),  # ran as 1 in silence
    (["--jobs", "0"], "jxbot simulate: --jobs must be at least 1"),
    (["--chunk", "-1"], "jxbot simulate: --chunk must be at least 1"),
    (["--hands", "-5"], "jxbot simulate: --hands must be at least 1"),
])
def test_simulate_refuses_a_count_below_one(argv, msg, capsys):
    assert cli.main(["simulate", "--hands", "3", *argv]) == 2
    out = capsys.readouterr()
    assert msg in out.err and out.out == ""


def test_simulate_accepts_the_hard_level(capsys):
    assert cli.main(["simulate", "--hands", "3", "--players", "hard,normal,easy,hard", "--seed", "s", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["players"] == ["hard", "normal", "easy", "hard"] and d["hands"] == 3 and d["invariant_violations"] == 0
    assert cli.main(["simulate", "--players", "hard,normal,easy,grandmaster"]) == 2
    assert "unknown level 'grandmaster'; levels: easy, normal, hard, expert" in capsys.readouterr().err
