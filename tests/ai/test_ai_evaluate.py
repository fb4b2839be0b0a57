"""The computer player's target-aware shanten agrees with the rules engine where they overlap."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jxbot.ai.evaluate import FLUSH_M, FLUSH_P, IMPOSSIBLE, PUNGS, HandShape
from jxbot.rules import Meld, parse_tiles, shanten
from jxbot.rules.tiles import to_counts

RED = 33  # 中, used as the 百搭 in these hands


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_flush_target_matches_rules_shanten_on_one_suit_hands(data):
    melds = data.draw(st.integers(0, 2))
    n = data.draw(st.sampled_from([13, 14])) - 3 * melds
    pool = [k for k in range(9) for _ in range(4)] + [RED] * 3  # 万 and three 百搭
    tiles = data.draw(st.permutations(pool))[:n]
    # honor pungs keep every target but the other flushes open
    exposed = [Meld.pung("111z"), Meld.pung("222z")][:melds]
    mine = HandShape(to_counts(tiles), [("pung", 27 + i) for i in range(melds)], RED).shanten(FLUSH_M)
    assert mine == shanten(tiles, exposed, RED)


def test_tiles_of_other_suits_must_all_go():
    # 13 tiles, 4 of them 筒/条: at least four exchanges from ready for a 万 flush
    sh = HandShape(to_counts(parse_tiles("123456789m1p3p5s7s")), [], None)
    assert sh.shanten(FLUSH_M) >= 4
    assert sh.shanten(FLUSH_M) < sh.shanten(FLUSH_P)


def test_all_pungs_target():
    sh = HandShape(to_counts(parse_tiles("111m222p333s444z5z")), [], None)
    assert sh.shanten(PUNGS) == 0
    sh = HandShape(to_counts(parse_tiles("111m222p333s4567z")), [], RED)  # 7z = 中 is wild
    assert sh.shanten(PUNGS) == 1
    # a chow laid down rules 对对胡 out
    sh = HandShape(to_counts(parse_tiles("111m222p33s4z5z")), [("chow", 0)], None)
    assert sh.shanten(PUNGS) >= IMPOSSIBLE


def test_a_flush_target_needs_melds_of_that_suit():
    sh = HandShape(to_counts(parse_tiles("1234567m11z")), [("chow", 9)], None)  # 123p laid down
    assert sh.shanten(FLUSH_M) >= IMPOSSIBLE
    assert sh.shanten(FLUSH_P) < IMPOSSIBLE


def test_ukeire_counts_unseen_winning_tiles():
    # 九莲宝灯 shape: ready on every 万; unseen copies are what counts
    sh = HandShape(to_counts(parse_tiles("1112345678999m")), [], None)
    unseen = [0] * 34
    for k in range(9):
        unseen[k] = 1 + k % 3
    unseen[parse_tiles("5p")[0]] = 4  # useless for the 万 flush
    assert sh.ukeire(FLUSH_M, None, unseen, sh.shanten(FLUSH_M)) == sum(unseen[:9])
    # a 百搭 still unseen always helps
    sh = HandShape(to_counts(parse_tiles("1112345678999m")), [], RED)
    unseen[RED] = 3
    assert sh.ukeire(FLUSH_M, None, unseen, 0) == sum(unseen[:9]) + 3
