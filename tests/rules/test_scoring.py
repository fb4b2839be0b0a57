"""score_win: every 台 and 番 item, each pattern, wildcard readings, the seed's worked example."""

import pytest

from jxbot.rules import Meld, parse_tile, parse_tiles, score_win
from jxbot.rules.contract import FAN_CODES, TAI_CODES

P = parse_tiles
T = parse_tile


def S(hand: str, win: str, melds=(), **kw):
    if isinstance(kw.get("wildcard"), str):
        kw["wildcard"] = T(kw["wildcard"])
    return score_win(P(hand), T(win), list(melds), **kw)


def assert_reading_covers(score, real: str, wild: int):
    """The reading uses every real tile once, and exactly ``wild`` more tiles (the wildcards)."""
    from collections import Counter

    reading = Counter(t for st in score.sets for t in st) + Counter(score.pair)
    real_c = Counter(P(real))
    assert not real_c - reading
    assert sum((reading - real_c).values()) == wild


def items(score):
    return {i.name: i.value for i in score.tai + score.fan}


def test_seed_example_stake_5_three_tai_two_fan_is_60():
    # 混一色 (2) + 无百搭 (1) = 3 台; 天胡 = 2 番 → 5 × 3 × 2² = 60
    s = S("123456789m11z44z", "4z", stake=5, first_turn=True, seat_wind=2, round_wind=1)
    assert s.winning
    assert items(s) == {"half_flush": 2, "no_wildcard": 1, "earthly": 2}
    assert (s.total_tai, s.total_fan, s.points) == (3, 2, 60)


@pytest.mark.parametrize(("honor", "code"), [("7z", "red_dragon"), ("6z", "green_dragon"), ("5z", "white_dragon")])
def test_each_dragon_pung_is_one_tai(honor, code):
    s = S(f"123456789m{honor[0] * 3}z1m", "1m")
    assert items(s)[code] == 1
    assert s.total_tai == 1 + 1 + 2  # dragon, 无百搭, 混一色


def test_dragon_kong_meld_counts_like_a_pung():
    s = S("123456789m1m", "1m", [Meld.kong("7777z")])
    assert items(s)["red_dragon"] == 1


def test_round_wind_seat_wind_and_both():
    hand = "123456789m22z33z"
    s = S(hand, "2z", round_wind=1, seat_wind=0)  # pung of 南 (2z) in a 南 round
    assert items(s).get("round_wind") == 1 and "seat_wind" not in items(s)
    s = S(hand, "3z", round_wind=0, seat_wind=2)  # pung of 西 as the west seat
    assert items(s).get("seat_wind") == 1 and "round_wind" not in items(s)
    s = S("123456789m11z33z", "1z", round_wind=0, seat_wind=0)  # 东 pung, 东 round, 东 seat: 2 台
    assert items(s)["round_wind"] == 1 and items(s)["seat_wind"] == 1
    s = S(hand, "2z", round_wind=0, seat_wind=0)  # a wind that is neither: nothing
    assert "round_wind" not in items(s) and "seat_wind" not in items(s)


def test_no_wildcard_only_without_a_wildcard_tile_in_the_hand():
    assert items(S("123456789m11z22z", "2z", wildcard="5s"))["no_wildcard"] == 1
    # the 5s (wild) completes 11z 5s → no 无百搭
    s = S("123456789m1z5s22z", "2z", wildcard="5s")
    assert s.winning and "no_wildcard" not in items(s)


def test_patterns_and_their_tai():
    s = S("1112345678999m", "5m")
    assert s.patterns == ("full_flush",) and items(s)["full_flush"] == 4
    s = S("123456789m11z22z", "1z")
    assert "half_flush" in s.patterns and items(s)["half_flush"] == 2
    s = S("111m222p333s77z55s", "7z")
    assert s.patterns == ("all_pungs",) and items(s)["all_pungs"] == 2
    # 字一色 replaces 混一色 (10, not 2) and still is 对对胡
    s = S("111z222z333z555z7z", "7z")
    assert "half_flush" not in items(s)
    assert items(s)["all_honors"] == 10 and items(s)["all_pungs"] == 2
    assert items(s)["white_dragon"] == 1 and items(s)["round_wind"] == 1 and items(s)["seat_wind"] == 1


def test_full_flush_all_pungs_is_highest_reading():
    # 111222333m: three pungs or three chows; the pungs reading adds 对对胡
    s = S("111222333m777m9m", "9m")
    assert set(s.patterns) == {"full_flush", "all_pungs"}
    assert s.total_tai == 4 + 2 + 1


def test_not_winning_reasons():
    assert S("123m456p789s1112z", "3z").reason == "no_shape"
    s = S("123m456p789s1112z", "2z")
    assert (s.winning, s.reason) == (False, "no_pattern")


def test_impossible_hands_raise():
    with pytest.raises(ValueError, match="5 copies"):
        S("11111m456m789m12z", "2z")
    with pytest.raises(ValueError, match="tile count"):
        S("123m456m789m1z", "1z")


# ---- wildcards ------------------------------------------------------------------------------

def test_wildcard_pair():
    s = S("123456789m111m5s", "5s", wildcard="5s")
    assert s.winning and s.pair is not None and s.pair[0] < 9  # read as a 万 pair → 清一色
    assert "full_flush" in s.patterns


def test_wildcard_inside_a_chow_and_as_a_whole_set():
    s = S("13m456m789m111m9m5s", "9m", wildcard="5s")  # 1m 5s 3m = 123m
    assert s.winning and "full_flush" in s.patterns
    assert_reading_covers(s, "13m456m789m111m9m9m", wild=1)
    s = S("123456789m99m5s5s", "5s", wildcard="5s", round_wind=1, seat_wind=2)  # three wildcards: a whole set
    assert s.winning and "full_flush" in s.patterns
    assert_reading_covers(s, "123456789m99m", wild=3)


def test_three_wildcards_is_a_fan_and_the_wildcard_set_takes_the_best_kind():
    # 123456789m + 东 pair + three wildcards in a 南 round for the 南 seat: read as a 南 pung (2 台)
    s = S("123456789m11z5s5s", "5s", wildcard="5s", round_wind=1, seat_wind=1)
    assert items(s)["three_wildcards"] == 1
    assert items(s)["round_wind"] == 1 and items(s)["seat_wind"] == 1
    assert (28, 28, 28) in s.sets
    # 南 round, 西 seat, 北 pair: one 台 at most from the wildcard pung (a dragon, 南 or 西)
    s = S("123456789m44z5s5s", "5s", wildcard="5s", round_wind=1, seat_wind=2)
    assert items(s)["half_flush"] == 2 and s.total_tai == 3


def test_full_flush_beats_a_wildcard_dragon():
    # three wildcards could be 中 (混一色 2 + 中 1 = 3) or 万 (清一色 4): 4 wins
    s = S("123456789m55m5s5s", "5s", wildcard="5s", round_wind=1, seat_wind=2)
    assert "full_flush" in s.patterns and "red_dragon" not in items(s)


def test_wildcard_may_stand_for_its_own_face():
    # the wildcard 5m stands for 5m in 456m
    s = S("123m46m789m111m99m", "5m", wildcard="5m", self_draw=True)
    assert s.winning and "full_flush" in s.patterns and "no_wildcard" not in items(s)


# ---- 番 --------------------------------------------------------------------------------------

def test_kong_bloom_needs_a_self_drawn_replacement():
    kong = [Meld.concealed_kong("1111m")]
    assert items(S("2345678999m", "5m", kong, kong_draw=True, self_draw=True))["kong_bloom"] == 1
    assert "kong_bloom" not in items(S("2345678999m", "5m", kong, self_draw=True))
    with pytest.raises(ValueError, match="is a self-draw"):  # no table produces it (issue 15)
        S("2345678999m", "5m", kong, kong_draw=True)
    with pytest.raises(ValueError, match="needs a kong among the melds"):
        S("1112345678999m", "5m", kong_draw=True, self_draw=True)


def test_last_tile_is_a_self_draw_of_the_last_tile():
    assert items(S("1112345678999m", "5m", last_tile=True, self_draw=True))["last_tile"] == 1
    with pytest.raises(ValueError, match="self-draw of the last tile"):
        S("1112345678999m", "5m", last_tile=True)


def test_single_wait_with_four_melds():
    melds = [Meld.pung("111m"), Meld.pung("222m"), Meld.chow("345m"), Meld.pung("999m")]
    s = S("7m", "7m", melds)
    assert items(s)["single_wait"] == 1 and "full_flush" in s.patterns
    assert "single_wait" not in items(S("1112345678999m", "9m"))


def test_heavenly_and_earthly():
    s = S("1112345678999m", "5m", first_turn=True, seat_wind=0, self_draw=True)
    assert items(s)["heavenly"] == 2 and "earthly" not in items(s)
    s = S("1112345678999m", "5m", first_turn=True, seat_wind=3)
    assert items(s)["earthly"] == 2 and "heavenly" not in items(s)


@pytest.mark.parametrize("code", ["huang", "laotou_huang", "baozi", "wildcard_repeat"])
def test_cumulative_codes_each_one_fan(code):
    s = S("1112345678999m", "5m", cumulative=(code,))
    assert items(s) == {"full_flush": 4, "no_wildcard": 1, code: 1}
    assert s.points == 5 * 2


def test_cumulative_as_a_number_and_unknown_code():
    s = S("1112345678999m", "5m", cumulative=1, stake=2)
    assert items(s)["cumulative"] == 1 and s.points == 2 * 5 * 2
    with pytest.raises(ValueError, match="at most 1 cumulative 番"):  # RULES A7: one per win
        S("1112345678999m", "5m", cumulative=3, stake=2)
    with pytest.raises(ValueError, match="at most 1 cumulative 番"):
        S("1112345678999m", "5m", cumulative=("baozi", "huang"))
    with pytest.raises(ValueError, match="unknown cumulative"):
        S("1112345678999m", "5m", cumulative=("nope",))


def test_every_item_code_is_exercised_by_this_file():
    import inspect
    import sys

    src = inspect.getsource(sys.modules[__name__])
    for code in TAI_CODES + FAN_CODES:
        assert f'"{code}"' in src, code


def test_robbing_kong_scores_like_a_discard_win():
    a = S("1112345678999m", "5m", robbing_kong=True)
    b = S("1112345678999m", "5m")
    assert a.points == b.points and a.tai == b.tai
