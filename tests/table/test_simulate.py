"""`jxbot simulate`: figures, --json, --jobs gives the same figures, bad arguments."""

from __future__ import annotations

import json
import time

from jxbot.cli import main
from jxbot.commands.simulate import chunks, run_sim

TIMING = {"seconds", "wall_seconds", "cpu_seconds", "hands_per_second", "jobs"}


def test_json_has_the_promised_figures_and_a_progress_bar_on_stderr(capsys):
    rc = main(["simulate", "--hands", "8", "--players", "normal,easy,easy,easy", "--seed", "3", "--json",
               "--chunk", "4"])
    cap = capsys.readouterr()
    assert rc == 0
    stats = json.loads(cap.out)
    for key in ("hands", "wins", "draws", "wins_by_seat", "points_by_seat", "hands_per_second",
                "invariant_violations"):
        assert key in stats
    assert stats["hands"] == 8 and stats["wins"] + stats["draws"] == 8
    assert sum(stats["wins_by_seat"]) == stats["wins"] and len(stats["points_by_seat"]) == 4
    assert stats["invariant_violations"] == 0 and stats["hands_per_second"] > 0
    assert "8/8 hands" in cap.err and "[" + "#" * 30 + "]" in cap.err


def test_jobs_split_the_work_but_not_the_figures():
    one = run_sim(12, ["easy"] * 4, "9", jobs=1, chunk=4)
    two = run_sim(12, ["easy"] * 4, "9", jobs=2, chunk=4)
    assert {k: v for k, v in one.items() if k not in TIMING} == {k: v for k, v in two.items() if k not in TIMING}
    assert one["hands"] == 12 and two["jobs"] == 2


def test_the_table_names_each_seat_and_the_rates(capsys):
    rc = main(["simulate", "--hands", "4", "--players", "easy,easy,easy,normal", "--seed", "1", "--lang", "en"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "   3  normal" in out and "draw rate" in out and "hands per second" in out
    assert "invariant violations: 0" in out


def test_bad_arguments_exit_2_with_a_reason(capsys):
    assert main(["simulate", "--players", "normal,easy"]) == 2
    assert "four levels" in capsys.readouterr().err
    assert main(["simulate", "--players", "normal,easy,easy,grandmaster"]) == 2
    assert "unknown level 'grandmaster'" in capsys.readouterr().err
    assert main(["simulate", "--hands", "0"]) == 2


def test_chunks_cover_every_hand():
    assert chunks(10, 4) == [4, 4, 2] and chunks(3, 25) == [3] and sum(chunks(1001, 25)) == 1001


def test_cpu_seconds_is_cpu_time_not_time_spent_waiting(monkeypatch):
    """On a loaded machine a chunk waits for the CPU: that wait is wall time, not cpu_seconds."""
    from jxbot.ai import selfplay

    real = selfplay.simulate

    def waiting(*args, **kwargs):  # a chunk that spends 0.4 s off the CPU, as a preempted one would
        t0 = time.perf_counter()
        res = real(*args, **kwargs)
        time.sleep(0.4)
        res["seconds"] = time.perf_counter() - t0  # the chunk's own clock is a wall clock
        return res

    monkeypatch.setattr(selfplay, "simulate", waiting)
    stats = run_sim(4, ["easy"] * 4, "5", jobs=1, chunk=2)  # two chunks: 0.8 s of waiting
    assert stats["wall_seconds"] >= 0.8 and stats["seconds"] == stats["wall_seconds"]
    assert 0 < stats["cpu_seconds"] <= stats["wall_seconds"] - 0.7


def test_cpu_seconds_counts_the_worker_processes_and_stays_within_wall_times_jobs(capsys):
    rc = main(["simulate", "--hands", "8", "--players", "easy,easy,easy,easy", "--seed", "2", "--json",
               "--chunk", "2", "--jobs", "2"])
    stats = json.loads(capsys.readouterr().out)
    assert rc == 0 and stats["jobs"] == 2
    assert 0 < stats["cpu_seconds"] <= stats["wall_seconds"] * 2 + 0.01
