from jxbot.rules import (
    Meld,
    Ruleset,
    is_complete,
    is_winning,
    parse_tiles,
    ready_on_everything,
    shanten,
    waits,
    winning_patterns,
)

P = parse_tiles


def test_plain_complete_and_not():
    assert is_complete(P("123m456p789s11122z"))
    assert not is_complete(P("123m456p789s11123z"))
    assert not is_complete(P("123m456p789s1112z"))  # 3k+1 tiles is never complete


def test_melds_count_as_sets():
    melds = [Meld.pung("777z"), Meld.chow("123m")]
    assert is_complete(P("456m11z22z"), melds) is False
    assert is_complete(P("456m789m11z"), melds)


def test_wildcard_as_pair_set_and_inside_chow():
    w = P("5s")[0]
    assert is_complete(P("123m456m789m111p5s") + [w], wildcard=w)  # 5s 5s pair of wildcards
    assert is_complete(P("123m456m789m11p555s"), wildcard=w)  # a whole set of wildcards
    assert is_complete(P("13m456m789m111p22p5s"), wildcard=w)  # the gap of a chow
    assert not is_complete(P("13m456m789m111p22p5s"))  # without the wildcard it is not


def test_full_flush_half_flush_all_honors_all_pungs_required():
    assert is_winning(P("11123455678999m"))  # 清一色
    assert is_winning(P("11123455678m777z"))  # 混一色
    assert is_winning(P("11122233355577z"))  # 字一色
    assert is_winning(P("111m222p333s55577z"))  # 对对胡
    assert is_complete(P("123m456p789s11122z"))
    assert not is_winning(P("123m456p789s11122z"))  # shape without a pattern


def test_wildcard_counts_as_what_it_stands_for_in_patterns():
    w = P("5s")[0]
    # 1112345678999m + a wildcard: full flush, the 5s stands for a man tile
    assert is_winning(P("1112345678999m5s"), wildcard=w)
    assert "full_flush" in winning_patterns(P("1112345678999m5s"), wildcard=w)
    # without the wildcard rule, 5s breaks the flush
    assert not is_winning(P("1112345678999m5s"))


def test_waits_nine_gates_and_fifth_copy():
    assert waits(P("1112345678999m")) == set(range(9))
    # holding 1111m: 1m is not a wait any more (no fifth copy)
    hand = P("1111m234m678m999m5m")
    assert 0 not in waits(hand)


def test_ready_on_everything_with_wildcards():
    w = P("5z")[0]
    pungs = [Meld.pung("111m"), Meld.pung("222p"), Meld.pung("333s"), Meld.pung("777z")]
    # four pungs laid down and a lone wildcard: any kind pairs with it, 对对胡 → wins on all 34
    assert ready_on_everything([w], pungs, wildcard=w)
    # the same with a chow among the melds and two suits: an off-suit tile gives no pattern
    mixed = [Meld.chow("123m"), Meld.pung("555m"), Meld.pung("777m"), Meld.pung("999m")]
    assert not ready_on_everything([w], mixed, wildcard=w)
    assert waits([w], mixed, wildcard=w) == set(range(9)) | set(range(27, 34))
    # an ordinary ready hand is not ready on everything
    assert not ready_on_everything(P("1112345678999m"))


def test_shanten_basics():
    assert shanten(P("123m456p789s11122z")) == -1
    assert shanten(P("1112345678999m")) == 0
    assert shanten(P("19m19p19s1234567z")) == 8
    w = P("5z")[0]
    assert shanten(P("19m19p19s1234567z"), wildcard=w) == 7


def test_shanten_a_fourth_honor_can_be_a_lone_tile_of_another_set():
    # three wildcards (1m), 23m, 东×4, 南×4: 东东东 南南南 南+WW 23m+W and 东+W as the pair → ready
    hand = P("111m23m1111z2222z")
    assert shanten(hand, wildcard=0) == 0
    assert waits(hand, wildcard=0, ruleset=Ruleset(name="shape", require_pattern=False))


def test_shanten_rejects_impossible_sizes():
    import pytest

    with pytest.raises(ValueError, match="3k"):
        shanten(P("123m456m"))
    with pytest.raises(ValueError, match="at most 14"):
        shanten(P("1112223334445556m"))
