"""RULES A5 (revised, issue 15): a 百搭 (or 財神) stands for any kind, even one whose four real copies
are in sight — the "fifth copy". Every path agrees: the win check, the waits, the score, the game's
legal actions and the computer player."""

from __future__ import annotations

from jxbot.ai.evaluate import PUNGS, HandShape
from jxbot.ai.players import make_player
from jxbot.game.scripted import scripted_hand
from jxbot.rules import is_winning, parse_tiles, score_win, waits
from jxbot.rulesets.caishen.rules import analyse

P = parse_tiles
W = P("9s")[0]  # the 百搭 of these hands

# four real 1万 in the hand; the only reading pairs the 百搭 with a 1万: it is a fifth 1万
READY = "1111m222p333s44z9s"  # 13 tiles, waits on 4z (and on a 百搭)
WON = READY + "4z"


def test_win_check_accepts_the_fifth_copy():
    assert is_winning(P(WON), (), W)


def test_waits_list_the_wait_but_never_the_kind_whose_four_copies_are_held():
    got = waits(P(READY), (), W)
    assert P("4z")[0] in got and W in got
    assert P("1m")[0] not in got  # no real 1万 is left to draw, although the 百搭 plays one


def test_score_reads_the_wildcard_as_the_fifth_copy():
    s = score_win(P(READY), P("4z")[0], wildcard=W, self_draw=True)
    assert s.winning and "all_pungs" in s.patterns
    assert s.pair == (P("1m")[0], P("1m")[0])


def test_the_game_offers_the_win_and_the_computer_player_takes_it():
    h = scripted_hand({0: WON}, indicator="9s")
    assert h.wildcard == W
    assert "tsumo" in {a.type.value for a in h.legal_actions(0)}
    a = make_player("normal", "fifth").choose(h.view(0))
    assert a.type.value == "tsumo"
    h.apply(a)
    assert h.result.winner == 0 and "all_pungs" in h.result.score.patterns
    # and the computer player's own reckoning calls the 13 tiles ready for 对对胡
    counts = [0] * 34
    for t in P(READY):
        counts[t] += 1
    assert HandShape(counts, [], W).shanten(PUNGS) == 0


def test_caishen_the_same_for_the_caishen():
    cs = P("9p")[0]
    # 1111m + 財神: 111m and 1万+財神 as the pair, the 財神 a fifth 1万 (財神頭, ×4 even on a discard)
    hand13 = P("1111m234p567p78s9p")
    got = waits(hand13, (), cs, "caishen")
    assert P("9s")[0] in got and P("1m")[0] not in got
    assert is_winning([*hand13, P("9s")[0]], (), cs, "caishen")
    s = score_win(hand13, P("9s")[0], wildcard=cs, ruleset="caishen")
    assert s.winning and "caishen_head" in s.patterns
    mult, _items, _p, ok = analyse(hand13, P("9s")[0], caishen=cs)
    assert ok and mult == 4
    h = scripted_hand({0: "1111m234p567p78s9p9s"}, indicator="9p", ruleset="caishen")
    assert h.wildcard == cs and "tsumo" in {a.type.value for a in h.legal_actions(0)}
    a = make_player("normal", "fifth").choose(h.view(0))
    assert a.type.value == "tsumo"
    h.apply(a)
    assert "caishen_head" in h.result.score.patterns
