"""``jxbot ladder simulate``, short: computer players rated through the real queue and rating update."""

from __future__ import annotations

import json

import pytest

from jxbot.cli import main
from jxbot.ladder.simulate import parse_players, spearman


def test_a_short_ladder_separates_easy_from_hard(capsys):
    assert main(["ladder", "simulate", "--players", "easy:4,hard:4", "--matches", "10", "--seed", "7",
                 "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    players = out["players"]
    assert [p["level"] for p in players] == ["easy"] * 4 + ["hard"] * 4
    assert {"name", "level", "rating", "matches"} <= set(players[0])
    assert out["matches"] == 10 and sum(p["matches"] for p in players) == 40
    sep = out["separation"]
    assert sep["mean_rating"]["easy"] < sep["mean_rating"]["hard"]
    assert sep["spearman_level_rating"] > 0


def test_players_spec_and_spearman():
    assert parse_players("easy:8,normal:8,hard:8") == [("easy", 8), ("normal", 8), ("hard", 8)]
    with pytest.raises(ValueError):
        parse_players("easy:2")
    assert spearman([0, 0, 1, 1], [1, 2, 3, 4]) == pytest.approx(0.894, abs=1e-3)
    assert main(["ladder", "simulate", "--players", "wizard:4", "--matches", "1"]) == 2
