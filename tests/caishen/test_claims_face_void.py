"""Scripted caishen hands for issue 15: the floater is offered nothing (RULES B5), 白板 chows and pungs
as the 財神's face (B1), and the tile a kong replacement voids (B2, seed 海底)."""

from __future__ import annotations

import pytest

from jxbot.game import Hand
from jxbot.game import events as ev
from jxbot.game.errors import IllegalAction
from jxbot.rules.tiles import WHITE
from jxbot.rulesets.caishen.rules import multiplier_of
from jxbot.table.strings import error_text

from .helpers import T, act, cs_hand, discard, pass_all, types_offered

# ---------------------------------------------------------------- B5: while the float is live, no claims

# seat 1 holds 55m, 34m and 777s, and one 財神 (9p) to float
FLOAT_HANDS = {
    0: "1m369p369s123456z2m",  # the dealer: 14 tiles, will feed 1z now and 2m later
    1: "55m34m777s9p147p2z3z",
    2: "5m258p258s1234z67z",
    3: "7s88m69m147p1234z1s",
}


def _float_hand(seat1_first: str) -> Hand:
    h = cs_hand(FLOAT_HANDS, draws="5z6z6z1s", caishen="9p")
    discard(h, 0, "1z")
    assert h.turn == 1 and h.drawn == T("5z")
    act(h, "discard", 1, seat1_first)
    return h


def test_a_floater_is_offered_no_chow_pung_or_kong():
    h = _float_hand("9p")  # 漂財
    assert h.phase == "turn" and h.turn == 2  # a floated 財神 opens no claim window at all
    act(h, "discard", 2, "5m")
    assert types_offered(h, 1) == set()  # it holds 55m: no 碰 while its float is live
    pass_all(h)
    act(h, "discard", 3, "7s")
    assert types_offered(h, 1) == set()  # 777s: no 明杠, no 碰
    with pytest.raises(IllegalAction) as err:  # trying anyway gets a clear reason
        act(h, "peng", 1)
    assert err.value.code == "floating" and "floating a caishen" in err.value.message
    assert "漂财" in error_text("floating", "zh")
    pass_all(h)
    act(h, "discard", 0, "2m")  # 34m from the previous seat's 2m: no 吃 (no window: play goes on)
    assert h.phase == "turn" and h.turn == 1 and h.drawn is not None and "chi" not in types_offered(h, 1)
    assert not h.melds[1] and not any(isinstance(e, ev.ClaimAnswered) and e.seat == 1 for e in h.events)


def test_without_the_float_the_same_seat_is_offered_them():
    h = _float_hand("5z")
    act(h, "discard", 2, "5m")
    assert types_offered(h, 1) == {"peng", "pass"}
    pass_all(h)
    act(h, "discard", 3, "7s")
    assert types_offered(h, 1) == {"peng", "gang", "pass"}
    pass_all(h)
    act(h, "discard", 0, "2m")
    assert "chi" in types_offered(h, 1)


# ---------------------------------------------------------------- B1: 白板 as the 財神's face (財神 = 3万)

FACE = "3m"


def test_white_with_2m_chows_the_previous_seats_1m_and_the_meld_reads_1_2_3():
    h = cs_hand({0: "1m147p258s123467z9s", 1: "2m5z4m8m369p147s12z", 2: "5z5z369m258p147s1z",
                 3: "258m147p369s4566z"}, caishen=FACE)
    act(h, "discard", 0, "1m")
    chows = [a.tile for a in h.legal_actions(1) if a.type.value == "chi"]
    assert chows == [T("1m")]  # the run 1-2-3, the 白板 as 3万
    act(h, "chi", 1, "1m")
    pass_all(h)
    assert h.melds[1][0].tiles == (T("1m"), T("2m"), WHITE) and h.tile_census() == [4] * 34
    m = h.view(1)["seats"][1]["melds"][0]
    assert m["tiles"] == [T("1m"), T("2m"), WHITE] and m["white_as"] == T(FACE)
    assert h.public_view()["white_as"] == T(FACE)
    assert Hand.replay(h.events).view(1) == h.view(1)


def test_white_with_4m_chows_a_2m_shown_in_run_order():
    h = cs_hand({0: "2m147p258s123467z9s", 1: "4m5z7m8m369p147s12z", 2: "5z5z369m258p147s1z",
                 3: "258m147p369s4566z"}, caishen=FACE)
    act(h, "discard", 0, "2m")
    assert [a.tile for a in h.legal_actions(1) if a.type.value == "chi"] == [T("2m")]  # 2-3-4
    act(h, "chi", 1, "2m")
    pass_all(h)
    assert h.view(0)["seats"][1]["melds"][0]["tiles"] == [T("2m"), WHITE, T("4m")]


def test_a_discarded_white_is_the_face_to_chow_and_pung_and_the_real_caishen_never_melds():
    # seat 1 holds 1m2m and 45m: the 白 (3万) chows both ways; seat 2 holds 白白: 碰 (and 白白白 would 杠)
    h = cs_hand({0: "5z147p258s12346z9s8m", 1: "12m45m3m3m69p147s1z", 2: "5z5z369m258p147s1z",
                 3: "258m147p369s4566z"}, caishen=FACE)
    act(h, "discard", 0, "5z")
    # 1-2-白, 2-白-4 and 白-4-5
    assert sorted(a.tile for a in h.legal_actions(1) if a.type.value == "chi") == [T("1m"), T("2m"), T("3m")]
    assert "peng" not in types_offered(h, 1)  # its two 3万 are 財神: wild, never in a meld
    assert types_offered(h, 2) == {"peng", "pass"}
    act(h, "peng", 2)
    pass_all(h)
    m = h.view(2)["seats"][2]["melds"][0]
    assert m["kind"] == "pung" and m["tiles"] == [WHITE] * 3 and m["white_as"] == T(FACE)


FACE_WIN = {0: "1m147p258s123467z9s", 1: "2m5z456m789m12p55s7z", 2: "369m258p147s1234z",
            3: "258m147p369s4566z"}


def test_three_whites_kong_a_discarded_white_and_the_kong_scores_as_the_face():
    h = cs_hand({0: "5z147p258s12346z9s8m", 1: "369m258p147s1234z", 2: "5z5z5z369m258p147s",
                 3: "258m147p369s1466z"}, caishen=FACE, replacements="9m")
    act(h, "discard", 0, "5z")
    assert types_offered(h, 2) == {"gang", "peng", "pass"}
    act(h, "gang", 2)
    pass_all(h)
    m = h.view(2)["seats"][2]["melds"][0]
    assert m["kind"] == "kong" and m["tiles"] == [WHITE] * 4 and m["white_as"] == T(FACE)
    assert h.turn == 2 and h.drawn == T("9m") and len(h.voided) == 1 and h.tile_census() == [4] * 34


def test_white_chow_counts_in_the_win_as_the_face():
    # after 1m + 2m白 (1-2-3万) the seat holds 456m789m12p55s: the 3p it draws wins (plain, self-drawn ×2)
    h = cs_hand(FACE_WIN, draws="8p8p9s3p", caishen=FACE)
    act(h, "discard", 0, "1m")
    act(h, "chi", 1, "1m")
    pass_all(h)
    discard(h, 1, "7z")
    for s in (2, 3, 0):
        discard(h, s)
    assert h.turn == 1 and h.drawn == T("3p") and "tsumo" in types_offered(h, 1)
    act(h, "tsumo", 1)
    r = h.result_view()
    assert [i["name"] for i in r["score"]["fan"]] == ["self_draw"]
    assert r["melds"][0]["tiles"] == [T("1m"), T("2m"), WHITE] and r["melds"][0]["white_as"] == T(FACE)
    assert r["white_as"] == T(FACE)
    assert h.settle([None] * 4).deltas == (-4, 8, -2, -2)


def test_the_normal_computer_player_takes_a_white_chow_that_makes_it_ready():
    from jxbot.ai.players import make_player

    h = cs_hand(FACE_WIN, caishen=FACE)
    act(h, "discard", 0, "1m")
    a = make_player("normal", "face").choose(h.view(1))
    assert a.type.value == "chi" and a.tile == T("1m")
    h.apply(a)
    pass_all(h)
    assert h.melds[1][0].tiles == (T("1m"), T("2m"), WHITE)


# ---------------------------------------------------------------- B2: the kong replacement voids a tile


def test_kong_replacement_is_the_lower_tile_and_the_upper_one_is_void_shown_and_unclaimable():
    # seat 0 (dealer) holds 1111m: 暗杠; the replacement 4p comes from the last live pair, 8s above it is void
    h = cs_hand({0: "1111m456m789m23p55s", 1: "8s8s369m258p12345z", 2: "147p258s1234567z",
                 3: "258m147p369s4566z"}, replacements="4p", voids="8s")
    before = h.wall_remaining
    act(h, "angang", 0, "1m")
    types = [e.type for e in h.events[-3:]]
    assert types == ["konged", "drew", "tile_voided"]
    assert h.drawn == T("4p") and h.voided == [T("8s")]
    assert h.wall_remaining == before - 2  # the replacement and the void
    # everyone sees the void tile; nobody is offered it (seat 1 holds 8s8s: no 碰 was ever possible)
    for v in (h.public_view(), h.view(1), h.view(2)):
        assert v["voided"] == [T("8s")]
    assert h.phase == "turn" and h.turn == 0 and h.pending() == frozenset({0})
    assert any(e.get("type") == "tile_voided" and e["tile"] == T("8s") for e in h.public_events(None))
    assert h.tile_census() == [4] * 34
    act(h, "tsumo", 0)  # 23p + 4p, 5s … the kong replacement win: 杠底 ×2 on the plain ×2
    s = h.result.score
    assert multiplier_of(s) == 4 and [i.name for i in s.fan] == ["self_draw", "kong_draw"]
    assert h.result_view()["voided"] == [T("8s")]
    again = Hand.replay(h.events)
    assert again.voided == h.voided and again.result_view() == h.result_view()


def test_the_twenty_kept_back_tiles_stay_whole_and_voids_count_among_the_116():
    h = cs_hand({0: "1111m456m789m23p5s7z", 1: "369m258p147s1234z", 2: "147p258s1234567z",
                 3: "258m147p369s4566z"}, replacements="7z", voids="6z")
    act(h, "angang", 0, "1m")
    assert h.wall_remaining == 63 - 2
    from jxbot.rulesets.caishen.rules import reserve_indices

    kept = reserve_indices(136 - 7)
    assert len(kept) == 20 and all(i not in kept for i in h._live)
    while not h.ended:  # everybody throws what it drew: the hand is drawn with the reserve untouched
        seat = min(h.pending())
        h.apply(h.default_action(seat)) if h.phase == "turn" else act(h, "pass", seat)
    drew = [e for e in h.events if isinstance(e, ev.Drew)]
    assert h.result.drawn_game and len(drew) == 63 - 1  # one of the 116 went void
    assert h.tile_census() == [4] * 34


def test_jiaxing_kongs_void_nothing():
    from jxbot.game.scripted import scripted_hand

    h = scripted_hand({0: "1111m456m789m23p5s"}, replacements="4p", indicator="9s")
    act(h, "angang", 0, "1m")
    assert h.voided == [] and h.public_view()["voided"] == [] and h.events[-1].type == "drew"


# ---------------------------------------------------------------- the 白板 face on the panel, the terminal, the picture


def _white_chow_offer() -> Hand:
    h = cs_hand({0: "1m147p258s123467z9s", 1: "2m5z4m8m369p147s12z", 2: "5z5z369m258p147s1z",
                 3: "258m147p369s4566z"}, caishen=FACE)
    act(h, "discard", 0, "1m")
    return h


def test_panel_button_of_a_white_chow_says_what_the_white_stands_for():
    from jxbot.shell.buttons import panel_components

    v = _white_chow_offer().view(1)
    labels = [i.item.label for i in panel_components("t1", 1, 1, v, "zh").children]
    assert "吃 1万 2万 白(3万)" in labels
    labels = [i.item.label for i in panel_components("t1", 1, 1, v, "en").children]
    assert "Chow 1m 2m White(3m)" in labels


def test_terminal_shows_the_white_as_its_face_and_the_void_tiles():
    import io

    from jxbot.table.terminal import LineReader, TerminalSeat

    h = _white_chow_offer()
    out = io.StringIO()
    term = TerminalSeat(out, "zh", LineReader(io.StringIO("")), seat=1)
    v = h.view(1)
    term.board(v)
    assert "吃 1万 2万 白(3万)" in term.act_text(v["actions"][0], v["wildcard"])
    act(h, "chi", 1, "1m")
    pass_all(h)
    term.board(h.public_view())
    text = out.getvalue()
    assert "白板当财神的牌用：白(3万)" in text and "吃[1万 2万 白(3万)]" in text
    k = cs_hand({0: "1111m456m789m23p55s", 1: "8s8s369m258p12345z", 2: "147p258s1234567z",
                 3: "258m147p369s4566z"}, replacements="4p", voids="8s")
    act(k, "angang", 0, "1m")
    term.board(k.public_view())
    assert "作废：8条" in out.getvalue()


def test_pictures_draw_the_white_face_and_the_void_tiles():
    from render import common as C
    from render import render_hand, render_table
    from render.tiles import white_as_sprite

    h = _white_chow_offer()
    act(h, "chi", 1, "1m")
    pass_all(h)
    plain = dict(h.public_view())
    plain["seats"] = [dict(s, melds=[{k: x for k, x in m.items() if k != "white_as"} for m in s["melds"]])
                      for s in plain["seats"]]
    assert render_table(h.public_view(), "zh") != render_table(plain, "zh")  # the 白板 shows its 3万
    assert render_hand(h.view(1), "zh")[:8] == b"\x89PNG\r\n\x1a\n"
    assert white_as_sprite(T(FACE), 40).tobytes() != C.sprite(WHITE, 40).tobytes()
    assert C.claim_sprite(h.view(1), WHITE, 40) is white_as_sprite(T(FACE), 40)  # a discarded 白 on offer
    k = cs_hand({0: "1111m456m789m23p55s", 1: "8s8s369m258p12345z", 2: "147p258s1234567z",
                 3: "258m147p369s4566z"}, replacements="4p", voids="8s")
    act(k, "angang", 0, "1m")
    assert render_table(k.public_view(), "zh") != render_table(dict(k.public_view(), voided=[]), "zh")


def test_the_others_may_rob_a_floaters_added_kong():
    # seat 1 pungs 5s, floats its 財神 (9s), draws the fourth 5s and declares 补杠: seat 2 robs it
    h = cs_hand({0: "147m258p369s1234z5s", 1: "55s28m39p9s67z1m4p7s9m", 2: "123m456m789m46s11p",
                 3: "258m147p28s6677z1z"}, draws="3z4z8s5s", caishen="9s")
    act(h, "discard", 0, "5s")
    act(h, "peng", 1)
    pass_all(h)
    discard(h, 1, "9s")  # 漂財
    for s in (2, 3, 0):
        discard(h, s)
    assert h.turn == 1 and h.drawn == T("5s") and "bugang" in types_offered(h, 1)
    act(h, "bugang", 1, "5s")
    assert h.phase == "rob" and "hu" in types_offered(h, 2)
    act(h, "hu", 2)
    pass_all(h)
    assert h.result.winner == 2 and h.result.robbed_from == 1
