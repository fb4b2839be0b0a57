"""RULES C: a timeout never throws a win away, and never discards a 百搭/財神 it could keep."""

from __future__ import annotations

from jxbot.game.timeout import timeout_action

from ..caishen.helpers import cs_hand
from .helpers import A, T, act, pass_all, scripted_hand

# the dealer is dealt 1112345678999m + 5m: 天胡 (清一色) on the deal
WIN_DEAL = {0: "11123456789995m", 1: "1234567z123p45s", 2: "2345678p2345s12z", 3: "6789s1234567p67z"}


def test_a_timed_out_winning_self_draw_is_declared_not_discarded():
    h = scripted_hand(WIN_DEAL, indicator="9s")
    assert h.drawn == T("5m") and h.default_action(0) == A("discard", 0, "5m")  # the old timeout
    called = []
    assert timeout_action(h, 0, lambda: called.append(1)) == A("tsumo", 0, "5m")
    assert not called  # a win is never left to the computer player
    h.apply(timeout_action(h, 0))
    assert h.phase == "ended" and h.result.winner == 0 and h.result.self_draw


def test_a_timed_out_plain_draw_discards_the_drawn_tile():
    h = scripted_hand({0: "1m23568s1234567z3m"}, indicator="9s")
    called = []
    assert timeout_action(h, 0, lambda: called.append(1)) == A("discard", 0, "3m")
    assert not called


def test_a_drawn_wildcard_is_kept_and_the_computer_player_chooses():
    # seat 1 draws 9s, a 百搭 (the indicator is 9s): it is not thrown away
    h = scripted_hand({0: "1m23568s1234567z3m", 1: "124578m5p123z147s"}, indicator="9s", draws="9s")
    act(h, "discard", 0, "3m")
    pass_all(h)
    assert h.turn == 1 and h.drawn == T("9s") == h.wildcard
    assert timeout_action(h, 1, lambda: A("discard", 1, "1z")) == A("discard", 1, "1z")
    # without a computer player, or with an illegal choice, the last tile of the sorted hand goes
    assert timeout_action(h, 1) == A("discard", 1, "3z")
    assert timeout_action(h, 1, lambda: A("discard", 1, "9p")) == A("discard", 1, "3z")


def test_after_a_claim_there_is_no_drawn_tile_and_the_computer_player_chooses():
    h = scripted_hand({0: "1m23568s1234567z3m", 1: "124578m5p123z147s"}, indicator="9s")
    act(h, "discard", 0, "3m")
    act(h, "chi", 1, "1m")
    assert h.phase == "turn" and h.drawn is None
    assert timeout_action(h, 1, lambda: A("discard", 1, "5p")) == A("discard", 1, "5p")


def test_a_claim_window_timeout_passes():
    h = scripted_hand({0: "1m23568s1234567z3m", 1: "124578m5p123z147s"}, indicator="9s")
    act(h, "discard", 0, "3m")
    assert h.phase == "claim" and 1 in h.pending()
    assert timeout_action(h, 1, lambda: A("chi", 1, "1m")) == A("pass", 1)


def test_caishen_a_drawn_caishen_is_kept():
    h = cs_hand({0: "1m23568s1234567z3m"}, caishen="3m")  # the dealer's 14th tile is a 財神
    assert h.drawn == T("3m") == h.wildcard
    a = timeout_action(h, 0)
    assert a.type.value == "discard" and a.tile != T("3m")
