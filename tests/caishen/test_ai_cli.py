"""Computer players at a caishen table, self-play, and the command line (issue 9)."""

from __future__ import annotations

import json

from jxbot.ai.players import make_player
from jxbot.ai.selfplay import simulate
from jxbot.cli import main
from jxbot.rules.tiles import parse_tiles
from tests.ai.conftest import build_view

CS = "9s"


def T(x: str) -> int:
    return parse_tiles(x)[0]


def view(hand: str, *, drawn: str | None = None, actions: list[dict] | None = None, **kw) -> dict:
    v = build_view(hand, drawn=drawn, wildcard=CS, indicator=CS, actions=actions, **kw)
    v["ruleset"] = "caishen"
    return v


def choose(v: dict):
    return make_player("normal", 1).choose(v)


def with_tsumo(hand: str, drawn: str) -> list[dict]:
    kinds = sorted(set(parse_tiles(hand) + [T(drawn)]))
    return [{"type": "tsumo", "seat": 0, "tile": T(drawn)}] + [{"type": "discard", "seat": 0, "tile": k} for k in kinds]


# ---------------------------------------------------------------- the computer player


def test_keeps_its_caishen():
    a = choose(view("9s1m5m9m3p7p2s5s8s1z3z5z7z", drawn="6z"))
    assert a.type.value == "discard" and a.tile != T(CS)


def test_values_seven_pairs():
    # five pairs and four lone honors: the pairs stay, a lone honor goes
    a = choose(view("1133m5577p99s2z4z6z", drawn="7z"))
    assert a.type.value == "discard" and a.tile in parse_tiles("2467z")


def test_on_seven_pairs_it_does_not_pung():
    v = view("1133m5577p99s2z4z6z", phase="claim", last_discard=(3, "1m"),
             actions=[{"type": "peng", "seat": 0, "tile": T("1m")}, {"type": "pass", "seat": 0, "tile": None}])
    assert choose(v).type.value == "pass"


def test_floats_a_caishen_when_the_next_draw_wins_often_enough():
    # 123m 456m 23456p 11s + the 財神 just drawn: a plain self-draw (×2) is on offer; floating the 財神
    # leaves 1p/4p/7p (and the 財神) to win ×8, and so many other tiles are in sight that the next draw
    # wins with ≥ 30 % chance (13 of 43 unseen), where floating pays
    hand, drawn = "123m456m23456p11s", CS
    seen = {1: "1111222233334444z", 2: "5555666677z77z2s2s2s3s3s3s4s4s4s5s5s5s6s6s6s7s7s7s8s8s8s",
            3: "789m789m678s5m1m1m1m2m2m2m3m3m3m4m4m4m6m6m6m9m9m5m5m"}
    a = choose(view(hand, drawn=drawn, actions=with_tsumo(hand, drawn), discards=seen))
    assert a.type.value == "discard" and a.tile == T(CS)
    # early in the hand (few tiles seen) the ×2 win is taken
    a = choose(view(hand, drawn=drawn, actions=with_tsumo(hand, drawn)))
    assert a.type.value == "tsumo"


def test_takes_a_good_self_draw_instead_of_floating():
    # the lone 財神 waited and the 白 came: 單釣財神頭 self-drawn (×16) is taken
    hand, drawn = "123m456m789m234p9s", "6z"
    seen = {1: "1111222233334444z", 2: "5555677z", 3: "789s789s678s5m"}
    a = choose(view(hand, drawn=drawn, actions=with_tsumo(hand, drawn), discards=seen))
    assert a.type.value == "tsumo"


def test_self_play_runs_clean_and_the_normal_player_is_stronger():
    r = simulate(300, ["normal", "easy", "easy", "easy"], "cs-test", ruleset="caishen")
    assert r["hands"] == 300 and r["invariant_violations"] == 0, r["violations"]
    assert r["wins"] + r["draws"] == 300 and r["wins"] > 150
    share = r["win_share_by_seat"]
    assert share[0] > max(share[1:])
    assert r["points_by_seat"][0] > 0 and sum(r["points_by_seat"]) == 0
    assert "seven_pairs" in r["pattern_counts"] and "caishen_head" in r["pattern_counts"]


# ---------------------------------------------------------------- the command line


def test_cli_simulate_caishen(capsys):
    code = main(["simulate", "--ruleset", "caishen", "--hands", "40", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ruleset"] == "caishen" and out["invariant_violations"] == 0 and out["hands"] == 40


def test_cli_score_caishen_itemizes_multipliers(capsys):
    code = main(["score", "1122334455667m", "--win", "7m", "--wildcard", "9p", "--ruleset", "caishen",
                 "--self-draw", "--stake", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "七对子" in out and "自摸" in out and "×2" in out and "3 × 4倍 = 12" in out


def test_cli_score_caishen_float_and_json(capsys):
    code = main(["score", "123456789m2355p", "--win", "4p", "--wildcard", "9p", "--ruleset", "caishen",
                 "--self-draw", "--float", "2", "--json", "--lang", "en"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["points"] == 16 and d["multiplier"] == 16
    assert [(i["name"], i["value"], i["label"]) for i in d["fan"]] == [("piao_cai", 16, "Floated caishen")]


def test_cli_score_caishen_below_minimum(capsys):
    code = main(["score", "123456789m1235p", "--win", "5p", "--wildcard", "9p", "--ruleset", "caishen"])
    out = capsys.readouterr().out
    assert code == 1 and "平胡需要二倍以上" in out
