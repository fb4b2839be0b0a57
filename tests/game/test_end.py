"""Wins and their flags, the drawn hand, the cumulative 番 queue inside a hand, escape, settlement (A7, A9, A10)."""

from __future__ import annotations

import pytest

from jxbot.game import Hand, HandContext, IllegalAction, verify_commitment
from jxbot.rules.ruleset import JIAXING

from .helpers import A, T, act, check_invariants, discard_drawn, fan_codes, pass_all, scripted_hand, types

NINE_GATES = "1112345678999m"  # wins on any 万 tile (清一色)
JUNK_DEALER = "147p258s1234567z"  # 13 tiles, no pairs, nothing to win


def test_heavenly_hand_dealer_wins_on_the_deal():
    h = scripted_hand({0: NINE_GATES + "5m"}, indicator="9s")
    assert h.legal_actions(0)[0] == A("tsumo", 0, "5m")
    events = act(h, "tsumo", 0)
    assert types(events) == ["won"]
    r = h.result
    assert r.winner == 0 and r.self_draw and r.win_tile == T("5m") and r.discarder is None
    assert "heavenly" in fan_codes(h) and "earthly" not in fan_codes(h)
    assert list(r.hand) == sorted(r.hand) and len(r.hand) == 13
    check_invariants(h)


def test_earthly_hand_non_dealer_wins_before_its_first_discard():
    h = scripted_hand({0: JUNK_DEALER + "5m", 1: NINE_GATES}, indicator="9s")
    act(h, "discard", 0, "5m")
    act(h, "hu", 1)
    assert "earthly" in fan_codes(h) and "heavenly" not in fan_codes(h)


def test_no_earthly_hand_after_a_discard_of_ones_own():
    # seat 2 discards once, then wins by self-draw: an ordinary win
    h = scripted_hand({0: JUNK_DEALER + "1p", 1: "369p369s12345z6z7z", 2: NINE_GATES},
                      indicator="9s", draws="8p1z8s2z3z5m")
    discard_drawn(h, 0)
    discard_drawn(h, 1)
    discard_drawn(h, 2)
    discard_drawn(h, 3)
    discard_drawn(h, 0)
    discard_drawn(h, 1)
    assert h.turn == 2 and h.drawn == T("5m")
    act(h, "tsumo", 2)
    assert not {"earthly", "heavenly"} & fan_codes(h)


def test_last_tile_self_draw_is_haidi():
    # reserve 76 tiles: 6 drawable; seat 2 draws the second and the sixth (last) tile
    h = scripted_hand({0: JUNK_DEALER + "1p", 2: NINE_GATES}, indicator="9s", draws="8p1z8s2z3z5m",
                      ruleset=JIAXING.with_(reserve_tiles=76))
    assert h.wall_remaining == 6
    for seat in (0, 1, 2, 3, 0, 1):
        discard_drawn(h, seat)
    assert h.turn == 2 and h.drawn == T("5m") and h.wall_remaining == 0
    act(h, "tsumo", 2)
    assert "last_tile" in fan_codes(h) and "earthly" not in fan_codes(h)


def test_drawn_hand_when_the_wall_runs_out_adds_huang():
    h = scripted_hand({0: JUNK_DEALER + "1p"}, indicator="9s", ruleset=JIAXING.with_(reserve_tiles=81),
                      cumulative_queue=("baozi",))
    assert h.wall_remaining == 1
    discard_drawn(h, 0)
    assert h.turn == 1 and h.wall_remaining == 0
    h.apply(h.default_action(1))
    pass_all(h)
    assert h.phase == "ended" and h.events[-1].type == "drawn_game"
    r = h.result
    assert r.drawn_game and r.winner is None and r.score is None
    assert h.queue == ["baozi", "huang"]  # a drawn hand takes none, and adds 黄番
    assert all(h.legal_actions(s) == [] for s in range(4)) and h.pending() == frozenset()
    with pytest.raises(IllegalAction) as err:
        h.apply(A("discard", 2, "1p"))
    assert err.value.code == "hand_over"
    check_invariants(h)


def test_a_win_takes_the_oldest_cumulative_fan_only():
    h = scripted_hand({0: NINE_GATES + "5m"}, indicator="9s", cumulative_queue=("huang", "baozi"))
    act(h, "tsumo", 0)
    assert h.result.cumulative_taken == ("huang",)
    assert "huang" in fan_codes(h) and "baozi" not in fan_codes(h)
    assert h.queue == ["baozi"]
    assert h.result_view()["cumulative_queue"] == ["baozi"]


def test_cumulative_fan_triggered_by_this_deal_can_be_taken_by_this_win():
    # equal dice (包子) join the queue at the deal, before the hand is scored
    h = scripted_hand({0: NINE_GATES + "5m"}, indicator="9s", dice=(3, 3))
    assert h.queue == ["baozi"]
    act(h, "tsumo", 0)
    assert h.result.cumulative_taken == ("baozi",) and h.queue == []


def test_deal_triggers_laotou_huang_baozi_and_wildcard_repeat_in_that_order():
    h = scripted_hand({}, indicator="5z", dice=(2, 2), previous_wildcard=T("5z"), cumulative_queue=("huang",))
    assert h.wildcard == T("5z")
    assert h.queue == ["huang", "laotou_huang", "baozi", "wildcard_repeat"]
    assert h.public_view()["cumulative_queue"] == h.queue


def test_escape_is_recorded_and_settled_against_the_escaper():
    h = scripted_hand({0: NINE_GATES + "5m"}, indicator="9s")
    assert types(h.escape(2)) == ["escaped"]
    with pytest.raises(IllegalAction) as err:
        h.escape(2)
    assert err.value.code == "already_escaped"
    act(h, "tsumo", 0)
    assert h.result.escaped == (2,)
    with pytest.raises(IllegalAction) as err:
        h.escape(1)
    assert err.value.code == "hand_over"
    s = h.settle([1000, 1000, 1000, 1000], fee=5)
    assert sum(s.deltas) + s.house_delta == 0
    assert s.deltas[2] < 0 and s.deltas[0] > 0


def test_settle_once_records_the_payments_and_replays():
    h = scripted_hand({0: NINE_GATES + "5m"}, indicator="9s", stake=2)
    with pytest.raises(IllegalAction) as err:
        h.settle([100] * 4, fee=1)
    assert err.value.code == "not_ended"
    act(h, "tsumo", 0)
    points = h.result.score.points
    assert points > 0
    s = h.settle([1000, None, 1000, 3], fee=1)
    assert h.events[-1].type == "hand_settled" and h.settlement == s
    assert sum(s.deltas) + s.house_delta == 0
    assert all(t.payee is None for t in s.transfers if t.reason == "fee")
    assert s.deltas[3] >= -3  # a payer never goes below 0
    with pytest.raises(IllegalAction) as err:
        h.settle([1000] * 4, fee=1)
    assert err.value.code == "already_settled"
    rv = h.result_view()
    assert [p["delta"] for p in rv["payments"]] == list(s.deltas)
    assert rv["payments"][1]["balance"] is None and rv["payments"][0]["balance"] == 1000 + s.deltas[0]
    assert rv["score"]["points"] == points and rv["winner"] == 0 and rv["hand"] == list(h.result.hand)
    again = Hand.replay(h.events_json())
    assert again.result_view() == rv and again.settlement == s


def test_drawn_hand_settles_fees_only():
    h = scripted_hand({}, indicator="9s", ruleset=JIAXING.with_(reserve_tiles=82))
    assert h.wall_remaining == 0
    discard_drawn(h, 0)
    assert h.result.drawn_game
    s = h.settle([10, 10, None, 0], fee=3)
    assert sum(s.deltas) + s.house_delta == 0
    assert all(t.reason == "fee" for t in s.transfers)


def test_result_view_reveals_a_wall_that_matches_the_commitment():
    h = Hand.new(2024, context=HandContext(hand_id="t-1"))
    first = h.events[0].public_json()
    assert "wall" not in first and "salt" not in first and first["commitment"] == h.commitment
    while not h.ended:
        s = min(h.pending())
        h.apply(h.default_action(s))
    reveal = h.result_view()["reveal"]
    assert verify_commitment(reveal["wall"], reveal["salt"], reveal["commitment"])
    assert reveal["commitment"] == first["commitment"]
    tampered = list(reveal["wall"])
    tampered[0], tampered[-1] = tampered[-1], tampered[0]
    assert tampered == reveal["wall"] or not verify_commitment(tampered, reveal["salt"], reveal["commitment"])
