"""RULES A6 and A7 as written decisions (issue 15): 字一色's additivity and the meaning of 单吊, in the
scores and in their labels."""

from __future__ import annotations

from jxbot.rules import Meld, parse_tiles, score_win
from jxbot.rules.names import item_name

P = parse_tiles


def _tai(s) -> dict[str, int]:
    return {i.name: i.value for i in s.tai}


def test_all_honors_replaces_half_flush_and_adds_to_all_pungs_and_the_honor_pungs():
    # 111z 222z 555z 666z + 77z, the dealer (东) in the 东 round, no 百搭
    s = score_win(P("111z222z555z66z77z"), P("6z")[0])
    t = _tai(s)
    assert t["all_honors"] == 10 and "half_flush" not in t  # instead of 混一色 …
    assert t["all_pungs"] == 2  # … while 对对胡 still adds
    assert t["white_dragon"] == t["green_dragon"] == t["round_wind"] == t["seat_wind"] == 1  # and the pungs
    assert t["no_wildcard"] == 1 and s.total_tai == 10 + 2 + 4 + 1
    assert item_name("all_honors", "zh") == "字一色"


def test_single_wait_is_four_declared_sets_a_concealed_kong_included():
    melds = [Meld.pung("111m", 1), Meld.chow("345m", 3), Meld.pung("999m", 2), Meld.concealed_kong("2222m")]
    s = score_win(P("7m"), P("7m")[0], melds)
    assert {i.name for i in s.fan} == {"single_wait"}
    # three declared sets and a concealed pung waiting on a pair: not 单吊
    s = score_win(P("2227m"), P("7m")[0], melds[:3])
    assert "single_wait" not in {i.name for i in s.fan}
    assert item_name("single_wait", "zh") == "单吊"
    assert "declared" in item_name("single_wait", "en")
