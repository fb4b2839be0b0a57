"""承包 (RULES A8): the third claim on the same seat binds the pair; the two others persist or give up."""

from __future__ import annotations

import pytest

from jxbot.game import IllegalAction
from jxbot.rules.ruleset import JIAXING

from .helpers import A, T, act, check_invariants, discard_drawn, pass_all, scripted_hand, types

# Seat 1 chows the dealer's 3m, 6m and 9m (holding 12m, 45m, 78m). Seat 2 is ready on any 筒 tile.
HANDS = {
    0: "1m23568s1234567z3m",
    1: "124578m5p123z147s",
    2: "1112345678999p",
    3: "369m1234z567z567z",
}
DRAWS = "6s4z6m5s6z9m3p"  # seat 2, 3, 0, 2, 3, 0, then seat 2 draws 3p after the contract


def to_contract(ruleset=JIAXING):
    h = scripted_hand(HANDS, indicator="9s", draws=DRAWS, ruleset=ruleset)
    act(h, "discard", 0, "3m")
    act(h, "chi", 1, "1m")
    act(h, "discard", 1, "1z")
    pass_all(h)
    discard_drawn(h, 2)
    discard_drawn(h, 3)
    assert h.drawn == T("6m")
    act(h, "discard", 0, "6m")
    act(h, "chi", 1, "4m")
    assert h.contract is None and h.phase == "turn"  # two claims: nothing yet
    act(h, "discard", 1, "2z")
    pass_all(h)
    discard_drawn(h, 2)
    discard_drawn(h, 3)
    act(h, "discard", 0, "9m")
    events = act(h, "chi", 1, "7m")
    assert types(events) == ["claim_answered", "claimed", "contract_formed"]
    return h


def test_third_claim_on_the_same_seat_binds_the_pair_and_asks_the_other_two():
    h = to_contract()
    assert h.contract == (1, 0)
    assert h.phase == "contract" and h.pending() == {2, 3}
    assert h.public_view()["contract"] == [1, 0]
    for s in (2, 3):
        assert h.legal_actions(s) == [A("persist", s), A("give_up", s)]
    assert h.legal_actions(1) == []
    with pytest.raises(IllegalAction) as err:
        act(h, "discard", 1, "3z")
    assert err.value.code == "waiting_contract"
    with pytest.raises(IllegalAction) as err:
        act(h, "give_up", 0)
    assert err.value.code == "not_deciding"
    check_invariants(h)


def test_contract_with_one_seat_giving_up_who_then_may_only_draw_and_discard():
    h = to_contract()
    assert types(act(h, "give_up", 2)) == ["contract_answered"]
    assert h.phase == "contract" and h.pending() == {3}
    with pytest.raises(IllegalAction) as err:
        act(h, "persist", 2)
    assert err.value.code == "already_answered"
    assert h.default_action(3) == A("persist", 3)  # no answer = persist (ruleset default)
    h.apply(h.default_action(3))
    assert h.phase == "turn" and h.turn == 1
    view = h.public_view()
    assert [s["gave_up"] for s in view["seats"]] == [False, False, True, False]
    # seat 2 would win on 5p, but a seat that gave up cannot claim it
    events = act(h, "discard", 1, "5p")
    assert types(events) == ["discarded", "claims_closed", "drew"]
    # ... nor win by self-draw: it drew 3p, a winning tile, and may only discard
    assert h.turn == 2 and h.drawn == T("3p")
    assert {a.type.value for a in h.legal_actions(2)} == {"discard"}
    with pytest.raises(IllegalAction) as err:
        act(h, "tsumo", 2)
    assert err.value.code == "gave_up"
    check_invariants(h)


def test_contract_default_can_be_give_up():
    h = to_contract(JIAXING.with_(contract_default="give_up"))
    assert h.default_action(2) == A("give_up", 2)


def test_contract_is_off_when_the_ruleset_says_zero_claims():
    h = scripted_hand(HANDS, indicator="9s", draws=DRAWS, ruleset=JIAXING.with_(contract_claims=0))
    for tile, low, out in (("3m", "1m", "1z"), ("6m", "4m", "2z")):
        if tile != "3m":
            discard_drawn(h, 2)
            discard_drawn(h, 3)
        act(h, "discard", 0, tile)
        act(h, "chi", 1, low)
        act(h, "discard", 1, out)
        pass_all(h)
    discard_drawn(h, 2)
    discard_drawn(h, 3)
    act(h, "discard", 0, "9m")
    assert types(act(h, "chi", 1, "7m")) == ["claim_answered", "claimed"]
    assert h.contract is None and h.phase == "turn"


def test_contract_on_an_exposed_kong_draws_the_replacement_after_both_answers():
    hands = {**HANDS, 1: "1245m999m5p123z47s", 3: "368m1234z567z567z"}
    h = scripted_hand(hands, indicator="9s", draws=DRAWS, replacements="7m")
    act(h, "discard", 0, "3m")
    act(h, "chi", 1, "1m")
    # after a claim there is no drawn tile: a timeout discards the last tile of the sorted hand
    assert h.drawn is None and h.default_action(1) == A("discard", 1, T("3z"))
    act(h, "discard", 1, "1z")
    pass_all(h)
    discard_drawn(h, 2)
    discard_drawn(h, 3)
    act(h, "discard", 0, "6m")
    act(h, "chi", 1, "4m")
    act(h, "discard", 1, "2z")
    pass_all(h)
    discard_drawn(h, 2)
    discard_drawn(h, 3)
    act(h, "discard", 0, "9m")
    assert A("gang", 1, "9m") in h.legal_actions(1)
    events = act(h, "gang", 1)
    assert types(events) == ["claim_answered", "claimed", "contract_formed"]  # no replacement yet
    check_invariants(h)
    act(h, "persist", 3)
    events = act(h, "persist", 2)
    assert types(events) == ["contract_answered", "drew"]
    assert events[-1].replacement and h.turn == 1 and h.drawn == T("7m")
    check_invariants(h)
