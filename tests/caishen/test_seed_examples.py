"""Seed 001's own worked numbers (RULES B4–B6, issue 15), each through ``score_win``, ``settle`` and
``jxbot score --json``; and the contexts the calculator refuses (issue 15 point 7)."""

from __future__ import annotations

import json

import pytest

from jxbot.cli import main
from jxbot.rules import Meld, parse_tiles, score_win
from jxbot.rulesets.caishen import rules as cs

P = parse_tiles
CS = "9p"  # the 財神 of these examples


def _score(hand: str, win: str, melds: tuple[Meld, ...] = (), **kw):
    return score_win(P(hand), P(win)[0], melds, wildcard=P(CS)[0], ruleset="caishen", **kw)


def _cli(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["score", *argv, "--wildcard", CS, "--ruleset", "caishen", "--json"])
    return code, json.loads(capsys.readouterr().out)


# (hand without the win tile, win tile, float run, kong meld, the seed's multiplier, the item shown first)
EXAMPLES = [
    # 財神會 + 正規不搭, self-drawn: "4 倍（財神會）*2 = 8 倍"
    ("147m258p36s123z9p9p", "9p", 0, "", 8, "caishen_hui"),
    # + 七風: "4 倍（財神會）*2*2 = 16 倍"
    ("147m2p1234567z9p9p", "9p", 0, "", 16, "caishen_hui"),
    # 漂財一次計 8 倍 (a floater wins only by self-draw: the 8 is the self-drawn figure)
    ("123456789m2355p", "4p", 1, "", 8, "piao_cai"),
    # 單釣漂財計 16 倍
    ("123456789m123p5s", "5s", 1, "", 16, "piao_cai_single"),
    # 財神會: 漂財一次為 16 倍 (two 財神 held, one floated; no 財神 in the pair)
    ("12m45m789m123p5s9p9p", "5s", 1, "", 16, "piao_cai_hui"),
    # 財神會: 漂財二次為 32 倍 (one held, two floated)
    ("12m456m789m123p5s9p", "5s", 2, "", 32, "piao_cai_hui"),
    # 如加上槓底，倍數翻倍: 漂財 once off a kong replacement 8 × 2
    ("123m456m2355p", "4p", 1, "7777s", 16, "piao_cai"),
]


@pytest.mark.parametrize(("hand", "win", "run", "kong", "want", "first"), EXAMPLES)
def test_seed_multipliers_through_score_win_and_the_cli(capsys, hand, win, run, kong, want, first):
    melds = (Meld.concealed_kong(kong),) if kong else ()
    s = _score(hand, win, melds, self_draw=True, kong_draw=bool(kong), float_run=run)
    assert s.winning and cs.multiplier_of(s) == want and s.fan[0].name == first
    assert all(i.name != "self_draw" for i in s.fan)  # the values are totals: self-draw adds nothing
    argv = [hand, "--win", win, "--self-draw", "--float", str(run)]
    if kong:
        argv += ["--angang", kong, "--kong-draw"]
    code, d = _cli(capsys, *argv)
    assert code == 0 and d["multiplier"] == want and d["points"] == want and d["fan"][0]["name"] == first
    # the stake scales the share, the base the payments: a dealer's win on 底 2 takes 2 shares from each
    assert cs.settle(winner=0, dealer=0, points=s.points, base=2, balances=[None] * 4).deltas == (
        6 * want, -2 * want, -2 * want, -2 * want)


def test_self_draw_still_doubles_a_plain_hand_and_seven_pairs():
    assert cs.multiplier_of(_score("123456789m1235p", "5p", self_draw=True)) == 2
    assert not _score("123456789m1235p", "5p").winning  # ×1 on a discard: below the ×2 minimum
    assert cs.multiplier_of(_score("1122334455667m", "7m")) == 2
    assert cs.multiplier_of(_score("1122334455667m", "7m", self_draw=True)) == 4
    # a special pattern is its own total: 財神頭 ×4 self-drawn or not
    assert cs.multiplier_of(_score("123456789m12p5s9p", "3p")) == 4
    assert cs.multiplier_of(_score("123456789m12p5s9p", "3p", self_draw=True)) == 4


# The seed's three payment checks on 底 3 (the dealer's second hand in a row): 七對子, ×4 self-drawn.
SEVEN_PAIRS = "1122334455667m", "7m"


def test_seed_check_dealer_seven_pairs_self_drawn_12_from_each(capsys):
    s = _score(*SEVEN_PAIRS, self_draw=True)
    assert s.points == 4
    assert cs.settle(winner=0, dealer=0, points=s.points, base=3, balances=[None] * 4).deltas == (36, -12, -12, -12)
    code, d = _cli(capsys, SEVEN_PAIRS[0], "--win", SEVEN_PAIRS[1], "--self-draw", "--base", "3")
    assert code == 0 and d["multiplier"] == 4 and d["base"] == 3 and d["payments"] == [36, -12, -12, -12]


def test_seed_check_dealer_seven_pairs_on_a_discard_6_each_12_from_the_discarder(capsys):
    s = _score(*SEVEN_PAIRS)
    assert s.points == 2
    st = cs.settle(winner=0, dealer=0, points=s.points, base=3, discarder=2, balances=[None] * 4)
    assert st.deltas == (24, -6, -12, -6)
    code, d = _cli(capsys, SEVEN_PAIRS[0], "--win", SEVEN_PAIRS[1], "--base", "3", "--from", "W")
    assert code == 0 and d["payments"] == [24, -6, -12, -6]


def test_seed_check_non_dealer_seven_pairs_on_the_dealers_discard(capsys):
    s = _score(*SEVEN_PAIRS)
    st = cs.settle(winner=1, dealer=0, points=s.points, base=3, discarder=0, balances=[None] * 4)
    assert st.deltas == (-12, 16, -2, -2)
    code, d = _cli(capsys, SEVEN_PAIRS[0], "--win", SEVEN_PAIRS[1], "--base", "3", "--seat", "S", "--from", "E")
    assert code == 0 and d["payments"] == [-12, 16, -2, -2]


def test_a_discard_win_without_the_discarder_prints_no_payments(capsys):
    code, d = _cli(capsys, SEVEN_PAIRS[0], "--win", SEVEN_PAIRS[1])
    assert code == 0 and "payments" not in d and d["multiplier"] == 2


# ---------------------------------------------------------------- point 7: refusals


JX = ["1112345678999m", "--win", "5m"]  # a Jiaxing 清一色


@pytest.mark.parametrize(("argv", "fragment"), [
    ([*JX, "--rob", "--self-draw"], "cannot also be a self-draw"),
    ([*JX, "--rob", "--kong-draw", "--self-draw"], "cannot also be a self-draw"),
    ([*JX, "--rob", "--kong-draw"], "not a kong replacement draw"),
    ([*JX, "--rob", "--last-tile"], "not the last tile's self-draw"),
    ([*JX, "--kong-draw"], "is a self-draw: add --self-draw"),
    ([*JX, "--last-tile"], "self-draw of the last tile"),
    ([*JX, "--kong-draw", "--self-draw"], "needs a kong among the melds"),
    ([*JX, "--first-turn"], "天胡"),
    ([*JX, "--cumulative", "3"], "at most 1 cumulative 番"),
    ([*JX, "--cumulative", "baozi,huang"], "at most 1 cumulative 番"),
    # ready on everything (a 百搭 in a ready hand): may not rob (RULES A4)
    (["111m222p333s444z9s", "--win", "5p", "--wildcard", "9s", "--rob"], "ready on every tile"),
    (["1122334455667m", "--win", "7m", "--ruleset", "caishen", "--wildcard", "9p", "--cumulative", "1"],
     "no cumulative"),
    (["1122334455667m", "--win", "7m", "--ruleset", "caishen", "--wildcard", "9p", "--kong-draw", "--self-draw"],
     "needs a kong among the melds"),
    (["123456789m12p9p9p", "--win", "5s", "--ruleset", "caishen", "--wildcard", "9p", "--self-draw", "--float", "2"],
     "only three 財神"),
    (["1122334455667m", "--win", "7m", "--ruleset", "caishen", "--wildcard", "9p", "--self-draw", "--from", "S"],
     "a self-draw has none"),
    ([*JX, "--base", "3"], "belong to the caishen ruleset"),
    (["123m456m789m5s", "--win", "5s", "--chi", "12m5z"], "only in the caishen ruleset"),
    (["123m456m789m5s", "--win", "5s", "--chi", "12m5z", "--ruleset", "caishen", "--wildcard", "9p",
      "--self-draw"], "not a chow"),
])
def test_score_refuses_contexts_no_table_produces(capsys, argv, fragment):
    code = main(["score", *argv, "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert fragment in captured.err and fragment in json.loads(captured.out)["error"]


def test_the_legal_versions_of_those_contexts_still_score():
    kong = (Meld.concealed_kong("1111m"),)
    assert score_win(P("2345678999m"), P("5m")[0], kong, self_draw=True, kong_draw=True).winning
    assert score_win(P("1112345678999m"), P("5m")[0], robbing_kong=True).winning
    assert score_win(P("1112345678999m"), P("5m")[0], first_turn=True, seat_wind=0, self_draw=True).winning
    # 地胡 on the dealer's first discard is possible
    assert score_win(P("1112345678999m"), P("5m")[0], first_turn=True, seat_wind=2).winning
    # a 百搭 hand that is not ready on everything may rob
    assert score_win(P("111m222p333s4445z"), P("5z")[0], wildcard=P("9s")[0], robbing_kong=True).winning
    assert score_win(P("111m222p333s444z9s"), P("5p")[0], wildcard=P("9s")[0], self_draw=True).winning
