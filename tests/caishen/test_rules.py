"""The caishen ruleset's hand analysis and payments (RULES B1, B3–B9), through the public rules API."""

from __future__ import annotations

import pytest

from jxbot.rules import Meld, get_ruleset, is_winning, parse_tiles, score_win, waits
from jxbot.rules.names import item_name
from jxbot.rulesets.caishen import rules as cs
from jxbot.rulesets.caishen.plugin import CAISHEN

P = parse_tiles


def T(x: str) -> int:
    return P(x)[0]


def score(hand: str, win: str, caishen: str = "9p", melds: tuple[Meld, ...] = (), **kw):
    return score_win(P(hand), T(win), melds, wildcard=T(caishen), ruleset="caishen", **kw)


def its(s) -> list[tuple[str, int]]:
    return [(i.name, i.value) for i in s.fan]


def mult(s) -> int:
    return cs.multiplier_of(s)


# ---------------------------------------------------------------- B3: shapes and the ×2 minimum


def test_plain_hand_needs_a_self_draw_to_reach_x2():
    on_discard = score("123456789m1235p", "5p")
    assert not on_discard.winning and on_discard.reason == "below_minimum"
    drawn = score("123456789m1235p", "5p", self_draw=True)
    assert drawn.winning and its(drawn) == [("self_draw", 2)] and drawn.points == 2


def test_seven_pairs_win_on_a_discard_x2_and_x4_self_drawn():
    s = score("1122334455667m", "7m")
    assert s.winning and its(s) == [("seven_pairs", 2)]
    assert mult(score("1122334455667m", "7m", self_draw=True)) == 4


def test_seven_pairs_with_a_caishen_and_four_of_a_kind():
    # 1111m counts as two pairs; the 財神 (9p) pairs the lone 5s
    s = score("1111m2233p4477s9p", "5s")
    assert s.winning and "seven_pairs" in s.patterns


def test_not_a_shape():
    s = score("1357m2468p1357s1z", "3z", self_draw=True)
    assert not s.winning and s.reason == "no_shape"


def test_caishen_is_wild_for_winning_and_white_plays_as_its_face():
    # 財神 3m: the 白板 stands in for 3m in the chow 1m2m(白); the real 3m are wild
    hand = "12m5z456m789m123p5s"
    assert score(hand, "5s", caishen="3m", self_draw=True).winning
    # the same tiles with the 財神 9p: the 白板 is 9p, no chow 1m2m白
    assert not score(hand, "5s", caishen="9p", self_draw=True).winning
    # 財神 白板: the 白板 themselves are wild
    assert score(hand, "5s", caishen="5z", self_draw=True).winning


def test_white_pung_meld_counts_as_the_caishen_face():
    # 碰 白白白 while the 財神 is 1p: it is a pung of 1p (as far as shapes go)
    s = score("123m456m789m5s", "5s", caishen="1p", melds=(Meld.pung("555z", 1),), self_draw=True)
    assert s.winning


def test_is_winning_and_waits_know_the_variant():
    rs = get_ruleset("caishen")
    assert is_winning(P("1122m3344p5566s77z"), (), T("9p"), rs)  # seven pairs: not a Jiaxing shape
    assert not is_winning(P("1122m3344p5566s77z"), (), T("9p"), "jiaxing")
    assert waits(P("1122m3344p5566s7z"), (), T("9p"), rs) == {T("7z"), T("9p")}


# ---------------------------------------------------------------- B4: special patterns and stacking


def test_caishen_head_x4():
    s = score("123456789m123p9p", "5s")  # 財神 pairs the 5s
    assert s.winning and its(s)[0] == ("single_caishen_head", 8)  # the lone 財神 waited: 單釣財神頭
    s = score("123456789m12p5s9p", "3p")  # the 3p makes the chow, the 財神 pairs the 5s: 財神頭
    assert s.winning and its(s) == [("caishen_head", 4)]
    # read the best way: the same 財神 could fill a set, but the pair reading pays ×4, self-drawn too
    # (RULES B4: a pattern's value is its total; self-draw doubles only plain hands and 七對子)
    s = score("123456789m12p5s9p", "3p", self_draw=True)
    assert its(s) == [("caishen_head", 4)] and s.points == 4


def test_single_caishen_head_x8():
    s = score("123456789m123p9p", "7z")
    assert its(s) == [("single_caishen_head", 8)]
    assert mult(score("123456789m123p9p", "7z", self_draw=True)) == 8


def test_caishen_hui_three_caishen_x4():
    s = score("123456789m5s9p9p9p", "1z")  # three 財神 (two of them with the 1z, one with the 5s)
    assert s.winning and "caishen_hui" in s.patterns
    assert ("caishen_hui", 4) in its(s) or ("caishen_hui", 2) in its(s)
    s = score("123456789m123p5s", "5s", self_draw=True)
    assert "caishen_hui" not in s.patterns


def test_bu_da_and_seven_winds():
    s = score("147m258p369s1234z", "6z")  # 不搭, honors missing 白 and 中
    assert its(s) == [("bu_da", 4)]
    # all seven honors (the 白 is wild-filled by the 財神 9p: 白板 plays as 9p here)
    s = score("147m25p9s9p123467z", "1s")
    assert its(s) == [("seven_winds", 4), ("bu_da", 2)] and mult(s) == 8
    # a pair or two touching tiles of a suit are not 不搭
    assert not score("147m258p368s1234z", "6z", self_draw=True).winning


def test_stacking_example_4_x_2_x_2_is_16():
    # the seed's example ②: 財神會 + 正規不搭 + 七風 = 4 × 2 × 2
    s = score("147m5p9p9p9p123467z", "8p")
    assert s.winning, s.reason
    assert its(s) == [("caishen_hui", 4), ("seven_winds", 2), ("bu_da", 2)]
    assert mult(s) == 16
    # example ①: 財神會 + 正規不搭 = 4 × 2 = 8 (eight suit tiles: no room for all seven honors)
    s = score("147m258p25s9p9p9p12z", "3z")
    assert its(s) == [("caishen_hui", 4), ("bu_da", 2)] and mult(s) == 8
    # the seed's examples are self-drawn, and self-draw does not double them
    assert mult(score("147m5p9p9p9p123467z", "8p", self_draw=True)) == 16


def test_kong_draw_doubles():
    s = score("123456789m5p", "5p", melds=(Meld.concealed_kong("1111p"),), self_draw=True, kong_draw=True)
    assert its(s) == [("self_draw", 2), ("kong_draw", 2)] and mult(s) == 4


def test_rob_kong_x4_is_enough_to_win_a_plain_hand():
    s = score("123456789m1235p", "5p", robbing_kong=True)
    assert s.winning and its(s) == [("rob_kong", 4)]


# ---------------------------------------------------------------- B5: 漂財


def test_float_once_x8_then_doubles_for_consecutive_floats():
    hand, win = "123456789m2355p", "4p"  # a two-sided wait, no 財神 left
    assert its(score(hand, win, self_draw=True, float_run=1)) == [("piao_cai", 8)]  # a total: no ×2
    assert its(score(hand, win, self_draw=True, float_run=2))[0] == ("piao_cai", 16)
    # floating three in a row means all three 財神: 財神會 with 漂財 (16, 32, 64)
    assert its(score(hand, win, self_draw=True, float_run=3))[0] == ("piao_cai_hui", 64)


def test_single_wait_float_x16():
    s = score("123456789m123p5s", "5s", self_draw=True, float_run=1)
    assert its(s)[0] == ("piao_cai_single", 16)


def test_caishen_hui_with_float_16_then_32():
    # two 財神 left in the hand after floating one: 財神會 with 漂財
    s = score("123456789m12p9p9p", "5s", self_draw=True, float_run=1)
    assert its(s)[0] == ("piao_cai_hui", 16)
    s = score("123456789m123p5s", "9p", self_draw=True, float_run=2)  # floated two, drew the third
    assert its(s)[0] == ("piao_cai_hui", 32)
    # three 財神 are in play (the flipped one is out): a hand cannot hold two and have floated two
    with pytest.raises(ValueError, match="only three 財神"):
        score("123456789m12p9p9p", "5s", self_draw=True, float_run=2)


def test_float_with_a_kong_draw_doubles():
    s = score("123456789m2355p", "4p", self_draw=True, float_run=1)
    assert mult(s) == 8
    s = score("123m456m2355p", "4p", melds=(Meld.concealed_kong("7777s"),), self_draw=True, kong_draw=True, float_run=1)
    assert its(s) == [("piao_cai", 8), ("kong_draw", 2)] and mult(s) == 8 * 2


def test_a_floater_wins_only_by_self_draw():
    s = score("1122334455667m", "7m", float_run=1)
    assert not s.winning and s.reason == "floating"
    assert not cs.can_win(P("1122334455667m"), T("7m"), caishen=T("9p"), float_run=1)
    # … not even by robbing a kong (the others may)
    assert not cs.can_win(P("123456789m1235p"), T("5p"), caishen=T("9p"), robbing_kong=True, float_run=1)
    assert cs.can_win(P("123456789m1235p"), T("5p"), caishen=T("9p"), robbing_kong=True)


# ---------------------------------------------------------------- labels


def test_every_caishen_item_has_zh_and_en_labels():
    for code in cs.CAISHEN_CODES:
        zh, en = item_name(code, "zh"), item_name(code, "en")
        assert zh != f"item.{code}" and en != f"item.{code}" and zh != en


# ---------------------------------------------------------------- B6: payments (the seed's three checks)


def _pay(**kw) -> tuple[int, int, int, int]:
    return cs.settle(balances=[None] * 4, **kw).deltas


def test_seed_check_1_dealer_seven_pairs_self_draw_on_base_3_is_12_each():
    s = score("1122334455667m", "7m", self_draw=True)
    assert s.points == 4
    assert cs.dealer_base(1) == 3  # the dealer's second hand in a row
    assert _pay(winner=0, dealer=0, points=s.points, base=3) == (36, -12, -12, -12)
    # and a non-dealer's 七對子 自摸 costs the dealer the same 12 (the others 4)
    assert _pay(winner=2, dealer=0, points=s.points, base=3) == (-12, -4, 20, -4)


def test_seed_check_2_dealer_seven_pairs_on_a_discard_6_each_and_12_from_the_discarder():
    s = score("1122334455667m", "7m")
    assert s.points == 2
    assert _pay(winner=0, dealer=0, points=s.points, base=3, discarder=2) == (24, -6, -12, -6)


def test_seed_check_3_non_dealer_seven_pairs_on_the_dealers_discard():
    s = score("1122334455667m", "7m")
    assert _pay(winner=1, dealer=0, points=s.points, base=3, discarder=0) == (-12, 16, -2, -2)


def test_dealer_base_rises_2_3_4():
    assert [cs.dealer_base(k) for k in range(4)] == [2, 3, 4, 5]


def test_drawn_hand_dealer_pays_each_2():
    assert _pay(winner=None, dealer=3, stake=5) == (10, 10, 10, -30)


def test_escaped_seat_pays_and_is_not_paid():
    st = cs.settle(winner=None, dealer=0, escaped=[2], balances=[None] * 4, fee=1)
    assert st.deltas == (-4, 2, 0, 2)
    st = cs.settle(winner=2, dealer=0, points=4, base=2, escaped=[2], balances=[None, None, 100, None], fee=1)
    assert st.deltas == (0, 0, -1, 0) and st.house_delta == 1  # no winnings; only the escaper pays the fee
    st = cs.settle(winner=1, dealer=0, points=4, base=2, escaped=[0], balances=[None] * 4)
    assert [t.reason for t in st.transfers if t.payer == 0] == ["escape"]


def test_stake_scales_everything():
    s = score("1122334455667m", "7m", self_draw=True, stake=10)
    assert s.points == 40
    assert _pay(winner=0, dealer=0, points=s.points, base=2) == (240, -80, -80, -80)


# ---------------------------------------------------------------- B7, B8, B9


def test_rob_kong_robbed_seat_pays_everyones_share():
    s = score("123456789m1235p", "5p", robbing_kong=True)  # ×4
    d = _pay(winner=2, dealer=0, points=s.points, base=2, robbed=1)
    # shares: dealer 2 × 4 = 8, seats 1 and 3: 4 each → the robbed seat 1 pays 16 alone
    assert d == (0, -16, 16, 0)


def test_shun_bao_literal_and_not():
    # A = 0 (dealer) fed B = 1 three chows; B wins 2× on a self-draw: shares 0: 2×2=4 (base 2), 2: 2, 3: 2
    owe, how = cs.win_debts(winner=1, dealer=0, base=2, unit=2, dabao=(0, 1))
    assert how == "shun_bao" and owe == [8, 0, 2, 2]
    owe, _ = cs.win_debts(winner=1, dealer=0, base=2, unit=2, dabao=(0, 1),
                          ruleset=CAISHEN.with_(cs_dabao_literal=False))
    assert owe == [8, 0, 0, 0]


def test_fan_bao_literal_and_not():
    # A = 1 fed B = 2; A wins (non-dealer, unit 2): shares 0: 4, 2: 2, 3: 2 → B pays (4+2+2)×2 = 16
    owe, how = cs.win_debts(winner=1, dealer=0, base=2, unit=2, dabao=(1, 2))
    assert how == "fan_bao" and owe == [4, 0, 16, 2]
    owe, _ = cs.win_debts(winner=1, dealer=0, base=2, unit=2, dabao=(1, 2),
                          ruleset=CAISHEN.with_(cs_dabao_literal=False))
    assert owe == [0, 0, 16, 0]


def test_dabao_needs_the_winner_in_the_pair():
    owe, how = cs.win_debts(winner=3, dealer=0, base=2, unit=2, dabao=(1, 2))
    assert how is None and owe == [4, 2, 2, 0]


def test_dabao_pair_is_three_chows_from_the_same_seat():
    assert cs.dabao_pair([(1, 0), (2, 1), (1, 0)]) is None
    assert cs.dabao_pair([(1, 0), (2, 1), (1, 0), (1, 0)]) == (0, 1)


def test_beigen_first_go_round_only_by_default():
    z = T("1z")
    first = [(0, z, False), (1, z, False), (2, z, False), (3, z, False)]
    assert cs.beigen_seats(first, dealer=0) == [0]
    broken = [(0, z, False), (1, z, True), (2, z, False), (3, z, False)]  # a claim after seat 1's discard
    assert cs.beigen_seats(broken, dealer=0) == []
    later = [(0, T("2z"), False), (1, T("3z"), False), (2, z, False), (3, z, False), (0, z, False), (1, z, False)]
    assert cs.beigen_seats(later, dealer=0) == []
    assert cs.beigen_seats(later, dealer=0, first_round_only=False) == [2]


def test_beigen_payment_in_settle():
    d = _pay(winner=None, dealer=0, beigen=[0])
    assert d == (-12, 4, 4, 4)  # drawn hand 2 each + 被跟 2 each


def test_settlement_caps_at_the_balance_and_balances_the_ledger():
    st = cs.settle(winner=1, dealer=0, points=8, base=3, discarder=0, balances=[10, 0, 50, None], fee=1)
    assert st.deltas[0] == -10 and sum(st.deltas) + st.house_delta == 0
    assert all(t.reason in ("win", "fee", "escape") for t in st.transfers)


# ---------------------------------------------------------------- B2: the wall kept back


def test_reserve_is_the_last_ten_pairs_with_the_caishen_in_it():
    for total in range(2, 13):
        flip = 136 - total
        dead = cs.reserve_indices(flip)
        assert len(dead) == 20 and flip in dead and dead == frozenset(range(116, 136))


def test_caishen_pair_moved_into_the_tenth_place_when_outside():
    flip = 136 - 25  # the 25th tile from the tail: in the 13th pair
    dead = cs.reserve_indices(flip)
    assert len(dead) == 20 and flip in dead
    assert {110, 111} <= dead  # its pair
    assert not {116, 117} & dead  # the old 10th pair is back in play
    assert set(range(118, 136)) <= dead


@pytest.mark.parametrize("bad", [(0, 1, 2, 2), (4, 5, 6, 7)])
def test_reseat_needs_each_wind_once(bad):
    with pytest.raises(ValueError):
        cs.reseat(bad)
