"""暗杠, 补杠, 抢杠胡 and the "ready on everything" restriction, 杠上开花 (RULES A3, A4, A7)."""

from __future__ import annotations

import pytest

from jxbot.game import IllegalAction

from .helpers import A, T, act, check_invariants, discard_drawn, fan_codes, pass_all, scripted_hand, types

# ROB: seat 2 pungs the dealer's 5m (seat 3 passes its win on it first), three seats draw and
# discard, then seat 2 draws the fourth 5m and declares 补杠; seat 3 waits on 5m (46m).
ROB = {
    0: "147p258s1234567z5m",
    1: "258p147s1234567z",
    2: "55m369p36s123456z",
    3: "111m234m789m46m99m",
}
ROB_DRAWS = ["7z", "6z", "1s", "5m"]  # seat 3, seat 0, seat 1, seat 2


def rob_setup(seat3: str = ROB[3], replacements: str = "2p"):
    h = scripted_hand({**ROB, 3: seat3}, indicator="9s", draws="".join(ROB_DRAWS), replacements=replacements)
    act(h, "discard", 0, "5m")
    assert A("hu", 3, "5m") in h.legal_actions(3)
    act(h, "pass", 3)
    act(h, "peng", 2)
    assert h.melds[2][0].kind.value == "pung"
    act(h, "discard", 2, "3p")
    pass_all(h)
    for seat in (3, 0, 1):
        discard_drawn(h, seat)
    assert h.turn == 2 and h.drawn == T("5m")
    return h


def test_added_kong_on_an_own_pung_is_offered_after_the_draw():
    h = rob_setup()
    assert A("bugang", 2, "5m") in h.legal_actions(2)
    check_invariants(h)


def test_robbing_an_added_kong_wins_and_the_robbed_seat_is_recorded():
    h = rob_setup()
    events = act(h, "bugang", 2, "5m")
    assert types(events) == ["kong_declared"]
    assert h.phase == "rob" and h.pending() == {3}
    assert h.public_view()["pending_kong"] == {"seat": 2, "tile": T("5m")}
    assert h.legal_actions(3) == [A("hu", 3, "5m"), A("pass", 3)]
    check_invariants(h)
    act(h, "hu", 3)
    r = h.result
    assert r.winner == 3 and r.robbed_from == 2 and r.discarder is None and not r.self_draw
    assert h.melds[2][0].kind.value == "pung"  # the kong never completed
    check_invariants(h)


def test_added_kong_completes_when_the_robber_passes_and_draws_from_the_tail():
    h = rob_setup()
    act(h, "bugang", 2, "5m")
    events = act(h, "pass", 3)
    assert types(events) == ["claim_answered", "konged", "drew"]
    assert events[-1].replacement and events[-1].tile == T("2p")
    m = h.melds[2][0]
    assert m.kind.value == "added_kong" and m.tiles == (T("5m"),) * 4 and m.from_seat == 0
    assert h.turn == 2 and h.drawn == T("2p")
    check_invariants(h)


def test_no_robbing_when_ready_on_everything():
    # seat 3 now holds four triplets and the 百搭 9s: it wins with any tile, so it may not rob
    h = rob_setup(seat3="111m222m333m777m9s")
    events = act(h, "bugang", 2, "5m")
    assert types(events) == ["kong_declared", "konged", "drew"]
    assert h.melds[2][0].kind.value == "added_kong"
    assert h.turn == 2 and h.phase == "turn"


def test_concealed_kong_then_win_on_the_replacement_is_kong_bloom():
    h = scripted_hand({0: "1111z123456m78m55m"}, indicator="9s", replacements="9m")
    assert A("angang", 0, "1z") in h.legal_actions(0)
    events = act(h, "angang", 0, "1z")
    assert types(events) == ["konged", "drew"]
    assert events[-1].replacement and h.drawn == T("9m")
    assert h.melds[0][0].kind.value == "concealed_kong" and h.melds[0][0].from_seat is None
    assert A("tsumo", 0, "9m") in h.legal_actions(0)
    act(h, "tsumo", 0)
    assert h.result.self_draw and h.result.winner == 0
    codes = fan_codes(h)
    assert "kong_bloom" in codes and "heavenly" not in codes
    check_invariants(h)


def test_no_kong_without_a_draw_and_never_of_the_wildcard():
    h = scripted_hand({0: "147p258s1234567z3m", 2: "11z258p147s34567z"}, indicator="9s")
    act(h, "discard", 0, "1z")
    act(h, "peng", 2)
    # seat 2 holds no fourth 1z yet; after the pung it must discard, no kong without a draw
    assert all(a.type.value == "discard" for a in h.legal_actions(2))
    with pytest.raises(IllegalAction) as err:
        act(h, "angang", 2, "1z")
    assert err.value.code == "no_draw"
    with pytest.raises(IllegalAction) as err:
        act(h, "angang", 2, "9s")
    assert err.value.code == "wildcard_in_meld"


def test_four_kongs_then_the_lone_tile_is_single_wait_and_kong_bloom():
    # the dealer declares 暗杠 four times in a row and wins on the last replacement with its lone 5m
    h = scripted_hand({0: "111122223333z4z5m"}, indicator="9s", replacements="4z4z4z5m")
    for kind in ("1z", "2z", "3z", "4z"):
        events = act(h, "angang", 0, kind)
        assert types(events) == ["konged", "drew"]
        check_invariants(h)
    assert len(h.melds[0]) == 4 and h.concealed[0] == [T("5m"), T("5m")]
    act(h, "tsumo", 0)
    assert {"single_wait", "kong_bloom"} <= fan_codes(h)
    assert h.result.hand == (T("5m"),)


def test_a_rob_window_never_says_who_may_rob():
    # docs/rules.md (issue 24): the open window tells the table that someone wins on the tile, never who
    h = rob_setup()
    act(h, "bugang", 2, "5m")
    assert h.phase == "rob" and h.pending() == {3}

    def public_part(v: dict) -> dict:
        return {k: x for k, x in v.items() if k not in ("viewer", "hand", "drawn", "actions")}

    public = public_part(h.public_view())
    for s in (0, 1, 2):  # the declarer and the two bystanders see the same, with nothing to do
        assert public_part(h.view(s)) == public and h.view(s)["actions"] == []
    assert public_part(h.view(3)) == public  # only the robbing seat's own actions differ
    before = {viewer: len(h.public_events(viewer)) for viewer in (None, 0, 1, 2)}
    act(h, "pass", 3)  # a pass on the win is told to nobody else
    for viewer in (None, 0, 1, 2):
        assert not any(e["type"] == "claim_answered" for e in h.public_events(viewer)[before[viewer]:])
