"""Claim windows on scripted walls (RULES A3): 碰, 吃, 明杠, priority 胡 > 碰/杠 > 吃, one winner, 百搭 limits."""

from __future__ import annotations

import pytest

from jxbot.game import IllegalAction
from jxbot.rules.ruleset import JIAXING

from .helpers import A, T, act, check_invariants, scripted_hand, snapshot, types

# Indicator 9s → the 百搭 is 9s everywhere below (dice 3+4: the indicator is wall[129]).
# BASE: every honor is in a hand (one each, seat 2 holds 1z 1z), no suited pairs anywhere.
BASE = {
    0: "159m37p2s1234567z6s",
    1: "26m1489p3s234567z",
    2: "37m25p4s11z234567z",
    3: "48m6p157s1234567z",
}
# PRIORITY: the dealer's 14th tile is 5m; seat 1 can chow it (34m), seat 2 pung it (55m),
# seat 3 win on it (九莲 1112345678999m).
PRIORITY = {
    0: "147p258s1234567z5m",
    1: "34m258p147s12345z",
    2: "55m369p36s123456z",
    3: "1112345678999m",
}
# TWO_HU: the dealer's 5p wins for seat 1 (九莲 in 筒) and for seat 3 (对对胡 111222333444m + 5p).
TWO_HU = {
    0: "69m1789s1234567z5p",
    1: "1112345678999p",
    2: "58m2346s1234567z",
    3: "111222333444m5p",
}


def refused(hand, action, code: str) -> None:
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as err:
        hand.apply(action)
    assert err.value.code == code, err.value
    assert snapshot(hand) == before, "a refused action leaves the hand untouched"


def test_pung_claim_then_the_claimer_discards_without_drawing():
    h = scripted_hand(BASE, indicator="9s", draws="8s")
    events = act(h, "discard", 0, "1z")
    assert types(events) == ["discarded"]
    assert h.phase == "claim" and h.pending() == {2}
    assert h.legal_actions(2) == [A("peng", 2, "1z"), A("pass", 2)]
    events = act(h, "peng", 2)  # tile may be left out: it is the discard
    assert types(events) == ["claim_answered", "claimed"]
    assert h.phase == "turn" and h.turn == 2 and h.drawn is None
    assert [m.to_json() for m in h.melds[2]] == [
        {"kind": "pung", "tiles": [T("1z")] * 3, "from_seat": 0, "claimed": T("1z")}]
    assert {a.type.value for a in h.legal_actions(2)} == {"discard"}  # no draw, no 自摸, no kong
    view = h.public_view()
    assert view["seats"][0]["discards"] == [{"tile": T("1z"), "claimed": True}]
    assert view["last_discard"] is None
    check_invariants(h)
    # play passes to the seat after the claimer: seat 1 is skipped
    events = act(h, "discard", 2, "3m")
    assert types(events) == ["discarded", "claims_closed", "drew"]
    assert h.turn == 3 and h.drawn == T("8s")
    check_invariants(h)


def test_no_eligible_seat_means_no_window_and_the_next_seat_draws():
    h = scripted_hand(BASE, indicator="9s", draws="8s")
    events = act(h, "discard", 0, "5z")
    assert types(events) == ["discarded", "claims_closed", "drew"]
    assert h.phase == "turn" and h.turn == 1 and h.drawn == T("8s")
    assert h.pending() == {1}
    assert h.wall_remaining == 136 - 53 - 1 - 1


def test_chow_only_by_the_next_seat_one_action_per_sequence():
    hands = {0: "1m147p23s1234567z7s", 1: "5689s258p123456z"}
    h = scripted_hand(hands, indicator="9s")
    act(h, "discard", 0, "7s")
    # 567s and 678s; 789s would need the 百搭 9s in a meld
    assert h.legal_actions(1) == [A("chi", 1, "5s"), A("chi", 1, "6s"), A("pass", 1)]
    refused(h, A("chi", 1, "7s"), "wildcard_in_meld")
    for s in (2, 3):
        assert not any(a.type.value == "chi" for a in h.legal_actions(s))
    refused(h, A("chi", 2, "5s"), "cannot_claim")
    events = act(h, "chi", 1, "6s")
    claimed = events[-1]
    assert claimed.type == "claimed" and claimed.meld == (T("6s"), T("7s"), T("8s"))
    assert h.melds[1][0].claimed == T("7s") and h.melds[1][0].from_seat == 0
    assert h.turn == 1 and h.drawn is None
    check_invariants(h)


def test_hu_beats_pung_and_chow_which_wait_for_the_hu_seat():
    h = scripted_hand(PRIORITY, indicator="9s")
    act(h, "discard", 0, "5m")
    assert h.legal_actions(1) == [A("chi", 1, "3m"), A("pass", 1)]
    assert h.legal_actions(2) == [A("peng", 2, "5m"), A("pass", 2)]
    assert h.legal_actions(3) == [A("hu", 3, "5m"), A("pass", 3)]
    assert types(act(h, "chi", 1, "3m")) == ["claim_answered"]
    assert types(act(h, "peng", 2)) == ["claim_answered"]
    assert h.phase == "claim" and h.pending() == {3}
    assert types(act(h, "hu", 3)) == ["claim_answered", "won"]
    r = h.result
    assert r.winner == 3 and r.discarder == 0 and r.win_tile == T("5m") and not r.self_draw
    assert h.melds[1] == [] and h.melds[2] == []
    check_invariants(h)


def test_pung_beats_chow_once_the_hu_seat_passes():
    h = scripted_hand(PRIORITY, indicator="9s")
    act(h, "discard", 0, "5m")
    act(h, "pass", 3)
    act(h, "chi", 1, "3m")
    assert h.phase == "claim" and h.pending() == {2}  # the chow waits for the pung seat
    events = act(h, "peng", 2)
    assert events[-1].type == "claimed" and events[-1].seat == 2
    assert h.melds[1] == [] and h.melds[2][0].kind.value == "pung"
    assert h.turn == 2 and h.legal_actions(1) == []


def test_chow_goes_through_when_every_higher_seat_passes():
    h = scripted_hand(PRIORITY, indicator="9s")
    act(h, "discard", 0, "5m")
    act(h, "chi", 1, "3m")
    act(h, "pass", 2)
    assert h.phase == "claim" and h.pending() == {3}
    events = act(h, "pass", 3)
    assert events[-1].type == "claimed" and events[-1].meld == (T("3m"), T("4m"), T("5m"))
    assert h.turn == 1


def test_window_closes_as_soon_as_the_result_is_certain():
    h = scripted_hand(PRIORITY, indicator="9s")
    act(h, "discard", 0, "5m")
    assert types(act(h, "hu", 3)) == ["claim_answered", "won"]  # seats 1 and 2 never answered
    assert h.phase == "ended" and h.pending() == frozenset()
    refused(h, A("peng", 2, "5m"), "hand_over")


def test_all_pass_then_a_late_claim_is_refused_as_window_closed():
    h = scripted_hand(PRIORITY, indicator="9s")
    act(h, "discard", 0, "5m")
    for s in (1, 2, 3):
        assert h.default_action(s) == A("pass", s)  # what a timeout does
        h.apply(h.default_action(s))
    assert h.phase == "turn" and h.turn == 1 and h.drawn is not None
    refused(h, A("peng", 2, "5m"), "window_closed")
    refused(h, A("hu", 3, "5m"), "window_closed")


def test_two_hu_claims_first_in_play_order_after_the_discarder_wins():
    h = scripted_hand(TWO_HU, indicator="9s")
    act(h, "discard", 0, "5p")
    assert A("hu", 1, "5p") in h.legal_actions(1) and A("hu", 3, "5p") in h.legal_actions(3)
    assert types(act(h, "hu", 3)) == ["claim_answered"]  # seat 1 comes first and has not answered
    assert h.pending() == {1}
    act(h, "hu", 1)
    assert h.result.winner == 1 and h.result.discarder == 0


def test_later_hu_seat_wins_when_the_earlier_one_passes():
    h = scripted_hand(TWO_HU, indicator="9s")
    act(h, "discard", 0, "5p")
    act(h, "hu", 3)
    act(h, "pass", 1)
    assert h.result.winner == 3


def test_exposed_kong_takes_a_replacement_from_the_tail_then_discards():
    hands = dict(BASE)
    hands[2] = "37m25p4s111z23456z"
    hands[3] = "48m68p157s234567z"
    h = scripted_hand(hands, indicator="9s", draws="8s", replacements="5p")
    act(h, "discard", 0, "1z")
    assert h.legal_actions(2) == [A("gang", 2, "1z"), A("peng", 2, "1z"), A("pass", 2)]
    remaining = h.wall_remaining
    events = act(h, "gang", 2)
    assert types(events) == ["claim_answered", "claimed", "drew"]
    assert events[-1].replacement and events[-1].tile == T("5p")
    assert h.melds[2][0].kind.value == "kong" and h.drawn == T("5p")
    assert h.wall_remaining == remaining - 1
    check_invariants(h)
    act(h, "discard", 2, "5p")
    assert h.turn == 3 and h.drawn == T("8s")  # head draws are unaffected by the tail draw


def test_discarded_wildcard_cannot_be_claimed_not_even_for_hu():
    hands = {0: "147p258s1234567z9s", 1: "1112345678999m", 2: "99s258p147s12345z"}
    h = scripted_hand(hands, indicator="9s")
    assert h.wildcard == T("9s")
    events = act(h, "discard", 0, "9s")
    assert types(events) == ["discarded", "claims_closed", "drew"]  # no window at all
    refused(h, A("hu", 1, "9s"), "cannot_claim")
    refused(h, A("peng", 2, "9s"), "wildcard_in_meld")


def test_ruleset_may_let_a_discarded_wildcard_be_won_on_but_never_melded():
    hands = {0: "147p258s1234567z9s", 1: "1112345678999m", 2: "99s258p147s12345z"}
    h = scripted_hand(hands, indicator="9s", ruleset=JIAXING.with_(wildcard_discard_claimable=True))
    act(h, "discard", 0, "9s")
    assert h.legal_actions(1) == [A("hu", 1, "9s"), A("pass", 1)]
    assert h.legal_actions(2) == []


def test_claim_errors_name_the_reason_and_change_nothing():
    h = scripted_hand(PRIORITY, indicator="9s")
    refused(h, A("discard", 1, "3m"), "not_your_turn")
    refused(h, A("discard", 0, "9m"), "tile_not_held")
    refused(h, A("peng", 2, "5m"), "window_closed")
    refused(h, A("persist", 2), "no_decision")
    refused(h, A("discard", 0, 99), "bad_action")
    refused(h, A("discard", 7, "5m"), "bad_seat")
    with pytest.raises(IllegalAction) as err:
        h.apply({"type": "nonsense", "seat": 0})
    assert err.value.code == "bad_action"
    act(h, "discard", 0, "5m")
    refused(h, A("discard", 1, "3m"), "not_your_turn")
    refused(h, A("peng", 1, "5m"), "cannot_claim")
    refused(h, A("peng", 0, "5m"), "cannot_claim")  # the discarder
    refused(h, A("gang", 2, "5m"), "cannot_claim")  # only two in hand
    act(h, "chi", 1, "3m")
    refused(h, A("pass", 1), "already_answered")
    # action JSON is accepted as well as Action objects
    h.apply({"type": "pass", "seat": 3})
    assert h.pending() == {2}


def test_illegal_action_survives_pickling_for_worker_processes():
    import pickle

    err = pickle.loads(pickle.dumps(IllegalAction("window_closed")))
    assert err.code == "window_closed" and str(err) == "window_closed: The claim window has closed."


def _last_discard_hand(hands, ruleset="jiaxing"):
    """``hands`` dealt with the reserve grown so that no drawable tile is left after the deal: the
    dealer's first discard is the hand's last discard."""
    from jxbot.rules.ruleset import get_ruleset
    rs = get_ruleset(ruleset)
    left = scripted_hand(hands, indicator="9s", ruleset=rs).wall_remaining
    h = scripted_hand(hands, indicator="9s", ruleset=rs.with_(reserve_tiles=rs.reserve_tiles + left))
    assert h.wall_remaining == 0
    return h


@pytest.mark.parametrize("ruleset", ["jiaxing", "caishen"])
def test_the_last_discard_can_be_won_on_but_not_chowed_or_punged(ruleset):
    # RULES A3 (revised): only 胡 may claim the last discard; no 胡 → the hand is drawn
    h = _last_discard_hand(PRIORITY, ruleset)
    act(h, "discard", 0, "5m")
    assert h.legal_actions(1) == [] and h.legal_actions(2) == []  # the chow and the pung are not offered
    if ruleset == "jiaxing":
        assert h.pending() == {3} and h.legal_actions(3) == [A("hu", 3, "5m"), A("pass", 3)]
        refused(h, A("peng", 2, "5m"), "last_discard")
        refused(h, A("chi", 1, "3m"), "last_discard")
        act(h, "pass", 3)
    assert h.phase == "ended" and h.result.drawn_game and h.melds[1] == [] and h.melds[2] == []


def test_the_last_discard_can_still_be_won_on():
    h = _last_discard_hand(PRIORITY)
    act(h, "discard", 0, "5m")
    act(h, "hu", 3)
    assert h.result.winner == 3 and h.result.discarder == 0


@pytest.mark.parametrize("ruleset", ["jiaxing", "caishen"])
def test_no_exposed_kong_on_the_last_discard(ruleset):
    hands = dict(BASE)
    hands[2] = "37m25p4s111z23456z"
    hands[3] = "48m68p157s234567z"
    h = _last_discard_hand(hands, ruleset)
    events = act(h, "discard", 0, "1z")
    assert types(events) == ["discarded", "claims_closed", "drawn_game"]  # no window: nobody wins on it
    assert h.melds[2] == []
