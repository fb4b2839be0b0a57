"""Caishen hands played through the shared engine (RULES B1, B2, B5–B11)."""

from __future__ import annotations

from jxbot.ai.players import make_player
from jxbot.ai.selfplay import play_hand
from jxbot.game import Hand, Match
from jxbot.game import events as ev
from jxbot.rulesets.caishen.plugin import CAISHEN

from .helpers import T, act, cs_hand, discard, items, pass_all, play_out, types_offered

JUNK1 = "147p258s1234567z"  # 13 tiles, nothing close to a win
JUNK2 = "369p147s1234567z"
JUNK3 = "258p369s1234567z"


# ---------------------------------------------------------------- B2: the wall


def test_live_wall_is_116_tiles_and_the_caishen_is_flipped_from_the_tail():
    h = cs_hand({0: "11223344556677m"}, caishen="4s", dice=(2, 6))
    assert h.wildcard == T("4s") and h.indicator == T("4s") and h.wall[136 - 8] == T("4s")
    assert h.wall_remaining == 116 - 53
    v = h.public_view()
    assert v["wildcard"] == T("4s") and v["ruleset"] == "caishen" and v["wall_remaining"] == 63


def test_drawn_after_the_116th_tile_dealer_pays_2_each_and_keeps_the_deal():
    m = Match("drawn", ruleset="caishen")
    h = m.next_hand()
    play_out(h)
    drew = [e for e in h.events if isinstance(e, ev.Drew)]
    assert h.result.drawn_game  # nobody declared a win
    assert len(drew) == 63 and h.wall_remaining == 0 and h.live_wall() == []
    s = h.settle([None] * 4)
    assert s.deltas == (-6, 2, 2, 2)
    assert h.tile_census() == [4] * 34
    assert Hand.replay(h.events).result_view() == h.result_view()
    m.finish_hand(h)
    assert m.dealer == 0 and m.dealer_streak == 1 and m.next_context().dealer_streak == 1
    assert m.next_hand().public_view()["cumulative_queue"] == []  # no 黄番 in this ruleset


# ---------------------------------------------------------------- B3, B6: the seed's checks in play


def test_seed_check_1_in_play_dealer_seven_pairs_self_draw_on_base_3():
    h = cs_hand({0: "11223344556677m", 1: JUNK1, 2: JUNK2, 3: JUNK3}, streak=1)
    assert "tsumo" in types_offered(h, 0)
    act(h, "tsumo", 0)
    assert items(h) == [("seven_pairs", 2), ("self_draw", 2)]
    s = h.settle([None] * 4)
    assert s.deltas == (36, -12, -12, -12)
    assert [p["delta"] for p in h.result_view()["payments"]] == [36, -12, -12, -12]


def test_seed_check_2_in_play_dealer_seven_pairs_on_a_discard():
    h = cs_hand({0: "1122334455667m1z", 1: "147p258s234567z", 2: JUNK2, 3: JUNK3}, draws="7m", streak=1)
    discard(h, 0, "1z")
    assert h.turn == 1 and h.drawn == T("7m")
    act(h, "discard", 1, "7m")
    assert "hu" in types_offered(h, 0)
    act(h, "hu", 0)
    pass_all(h)
    assert items(h) == [("seven_pairs", 2)]
    assert h.settle([None] * 4).deltas == (24, -12, -6, -6)


def test_seed_check_3_in_play_non_dealer_seven_pairs_on_the_dealers_discard():
    h = cs_hand({0: "147m258s1234567z7p", 1: "1122334455667p", 2: "369m258p147s1234z", 3: "258m147p369s4566z"},
                caishen="9s", streak=1)
    act(h, "discard", 0, "7p")
    act(h, "hu", 1)
    pass_all(h)
    assert h.result.winner == 1 and items(h) == [("seven_pairs", 2)]
    assert h.settle([None] * 4).deltas == (-12, 16, -2, -2)


def test_plain_hand_cannot_win_on_a_discard_but_wins_by_self_draw():
    h = cs_hand({0: "147m258s1234567z5p", 1: "123456789m123p5p", 2: JUNK2, 3: "258m147p369s4566z"},
                draws="5p", caishen="9s")
    act(h, "discard", 0, "5p")
    pass_all(h)
    assert h.turn == 1 and h.drawn == T("5p")  # no 胡 was offered on the discard: play went on
    assert not any(isinstance(e, ev.ClaimAnswered) and e.seat == 1 for e in h.events)
    assert "tsumo" in types_offered(h, 1)
    act(h, "tsumo", 1)
    assert items(h) == [("self_draw", 2)]
    # non-dealer self-draw ×2 on base 2: dealer 4, the others 2 each
    assert h.settle([None] * 4).deltas == (-4, 8, -2, -2)


# ---------------------------------------------------------------- B5: 漂財


def test_floated_caishen_cannot_be_claimed_and_the_floater_wins_only_by_self_draw():
    # seat 2 holds the two other 財神 (9p): it still may not 碰 the floated one
    h = cs_hand({0: "1122m3344p5566s7z9p", 1: "147m258s123456z", 2: "9p9p123m456m789s12z", 3: JUNK3},
                draws="7z5m3m4m7z")
    assert "tsumo" in types_offered(h, 0)  # seven pairs with the 財神: could win now, floats instead
    events = act(h, "discard", 0, "9p")
    assert [e.type for e in events] == ["discarded", "claims_closed", "drew"]  # no claim window at all
    act(h, "discard", 1, "7z")  # the floater's seven pairs would win ×2 on it: not offered
    assert h.phase == "turn" and h.turn == 2
    discard(h, 2)
    discard(h, 3)
    assert h.turn == 0 and h.drawn == T("4m")
    # the float lapses when the floater discards something else …
    discard(h, 0)
    assert h.turn == 1 and h.drawn == T("7z")
    act(h, "discard", 1, "7z")
    assert "hu" in types_offered(h, 0)  # … and it may win on a discard again
    act(h, "hu", 0)
    pass_all(h)
    assert "piao_cai" not in h.result.score.patterns


def test_float_then_self_draw_pays_x8_and_consecutive_floats_double():
    h = cs_hand({0: "123m456m789m23p55s9p", 1: JUNK1, 2: "9p147m258s23456z", 3: JUNK3},
                draws="1z2z3z4p")
    act(h, "discard", 0, "9p")
    for s in (1, 2, 3):
        discard(h, s)
    assert h.drawn == T("4p")
    act(h, "tsumo", 0)
    assert items(h) == [("piao_cai", 8)]  # the seed's 8 is a self-drawn figure: no extra ×2
    assert h.result.score.points == 8

    h = cs_hand({0: "123m456m789m23p55s9p", 1: JUNK1, 2: "147m258s123456z", 3: JUNK3},
                draws="1z2z3z9p4z5z6z1p")
    act(h, "discard", 0, "9p")
    for s in (1, 2, 3):
        discard(h, s)
    assert h.drawn == T("9p")
    act(h, "discard", 0, "9p")  # floats again
    for s in (1, 2, 3):
        discard(h, s)
    act(h, "tsumo", 0)
    assert items(h)[0] == ("piao_cai", 16)


def test_kong_draw_doubles_the_float():
    h = cs_hand({0: "1111m456m789m23p5s9p", 1: JUNK1, 2: "147p258s123456z", 3: JUNK3},
                draws="1z2z3z5s", replacements="4p")
    act(h, "discard", 0, "9p")
    for s in (1, 2, 3):
        discard(h, s)
    act(h, "angang", 0, "1m")
    assert h.drawn == T("4p") and h.kong_draw
    act(h, "tsumo", 0)
    assert items(h) == [("piao_cai", 8), ("kong_draw", 2)]
    assert h.result.score.points == 16


# ---------------------------------------------------------------- B9, B10


def _rob_setup(seat3: str = "258m147p28s6677z1z", draws: str = "3z4z8s5s", seat3_discard: str | None = None) -> Hand:
    h = cs_hand({0: "147m258p369s1234z5s", 1: "55s28m39p567z1m4p7s9m", 2: "123m456m789m46s11p", 3: seat3},
                draws=draws, caishen="9s")
    act(h, "discard", 0, "5s")
    act(h, "peng", 1)
    pass_all(h)
    discard(h, 1, "5z")
    discard(h, 2)
    discard(h, 3, seat3_discard)
    discard(h, 0)
    assert h.turn == 1 and h.drawn == T("5s")
    act(h, "bugang", 1, "5s")
    return h


def test_others_may_rob_a_kong_and_the_robbed_seat_pays_everyones_share_x4():
    h = _rob_setup()
    assert h.phase == "rob" and "hu" in types_offered(h, 2)
    act(h, "hu", 2)
    pass_all(h)
    assert h.result.robbed_from == 1 and items(h) == [("rob_kong", 4)]
    # shares on base 2, ×4: dealer 8, seats 1 and 3 4 each → the robbed seat pays all 16
    assert h.settle([None] * 4).deltas == (0, -16, 16, 0)


def test_a_floater_may_not_rob_a_kong():
    # seat 3 also waits on 5s, but it has just floated a 財神 (9s)
    h = _rob_setup(seat3="123p456p789p46s1z9s", draws="3z1z8s5s", seat3_discard="9s")
    assert h.phase == "rob" and "hu" in types_offered(h, 2) and "hu" not in types_offered(h, 3)
    # the same hand without the float could rob
    h = _rob_setup(seat3="123p456p789p46s1z9s", draws="3z1z8s5s", seat3_discard="1z")
    assert "hu" in types_offered(h, 3)


def test_simultaneous_hu_first_in_play_order_after_the_discarder():
    hands = {0: "147m258s123456z7z8p", 1: "258m369s1234567z", 2: "1122m3344p5566s7z", 3: "7788m1122s3344p7z"}
    h = cs_hand(hands, caishen="9s")
    act(h, "discard", 0, "7z")
    assert "hu" in types_offered(h, 2) and "hu" in types_offered(h, 3)
    act(h, "hu", 3)
    act(h, "hu", 2)
    pass_all(h)
    assert h.result.winner == 2
    h = cs_hand(hands, caishen="9s")
    act(h, "discard", 0, "7z")
    act(h, "hu", 3)
    act(h, "pass", 2)
    pass_all(h)
    assert h.result.winner == 3


# ---------------------------------------------------------------- B7 被跟, B8 大包 in play


def test_beigen_first_go_round():
    h = cs_hand({0: "147m258p369s2346z1z", 1: "147p258s369m246z1z", 2: "258m369p147s235z1z",
                 3: "369m147p258s346z1z"}, draws="7z7z7z", caishen="9s")
    for s in (0, 1, 2, 3):
        discard(h, s, "1z")
    play_out(h)
    st = h.settle([None] * 4)
    whys = [i["why"] for i in st.details["items"] if i["payer"] == 0]
    assert whys.count("beigen") == 3
    assert h.result.drawn_game and st.deltas == (-12, 4, 4, 4)


def test_dabao_shun_bao_when_the_fed_seat_wins():
    for literal, expect in ((True, (-8, 12, -2, -2)), (False, (-8, 8, 0, 0))):
        rs = CAISHEN.with_(cs_dabao_literal=literal)
        h = cs_hand({0: "1m4p7s258m369p1s2z3z4z", 1: "23m56p89s456m1z567z", 2: JUNK2, 3: JUNK3},
                    draws="1p1p1p2s2s2s8m8m8m1z", caishen="9m", ruleset=rs)
        act(h, "discard", 0, "1m")
        act(h, "chi", 1, "1m")
        pass_all(h)
        discard(h, 1, "5z")
        discard(h, 2)
        discard(h, 3)
        act(h, "discard", 0, "4p")
        act(h, "chi", 1, "4p")
        pass_all(h)
        discard(h, 1, "6z")
        discard(h, 2)
        discard(h, 3)
        act(h, "discard", 0, "7s")
        act(h, "chi", 1, "7s")
        pass_all(h)
        discard(h, 1, "7z")
        discard(h, 2)
        discard(h, 3)
        discard(h, 0)
        assert h.turn == 1 and h.drawn == T("1z")
        act(h, "tsumo", 1)
        st = h.settle([None] * 4)
        assert st.details["dabao"] == [0, 1] and st.details["how"] == "shun_bao"
        assert st.deltas == expect


# ---------------------------------------------------------------- B6 牢莊, B11 reseating


def test_dealer_streak_raises_the_base_and_resets_when_the_deal_passes():
    m = Match("streak", ruleset="caishen")
    for base in (2, 3):  # the dealer's seven pairs self-drawn (×4): each other seat pays 底 × 4
        h = cs_hand({0: "11223344556677m", 1: JUNK1, 2: JUNK2, 3: JUNK3}, context=m.next_context())
        act(h, "tsumo", 0)
        assert h.settle([None] * 4).deltas[1:] == (-4 * base,) * 3
        m.finish_hand(h)
    assert m.dealer == 0 and m.dealer_streak == 2
    # third hand: 底 4; a non-dealer wins on the dealer's discard (七對子 ×2): the dealer pays 4 × 2 × 2
    h = cs_hand({0: "147m258s1234567z7p", 1: "1122334455667p", 2: "369m258p147s1234z", 3: "258m147p369s4566z"},
                caishen="9s", context=m.next_context())
    act(h, "discard", 0, "7p")
    act(h, "hu", 1)
    pass_all(h)
    assert h.settle([None] * 4).deltas == (-16, 20, -2, -2)
    m.finish_hand(h)
    assert m.dealer == 1 and m.dealer_streak == 0 and m.next_context().dealer_streak == 0


def test_reseat_after_each_ban():
    m = Match("reseat", ruleset=CAISHEN.with_(cs_rounds_per_ban=1), rounds=2)
    players = [make_player("easy", f"p{i}") for i in range(4)]
    rec = {}
    while not m.over and "reseat" not in rec:
        h = play_hand(m.next_hand(), players)
        h.settle([None] * 4)
        rec = m.finish_hand(h)
    assert "reseat" in rec and sorted(rec["reseat"]) == [0, 1, 2, 3]
    assert sorted(m.seating) == [0, 1, 2, 3] and m.dealer == 0 and m.dealer_streak == 0
    assert [m.seating[w] for w in rec["reseat"]] == [0, 1, 2, 3]  # player at old seat i sits at wind i
    again = Match.from_json(m.to_json())
    assert again.seating == m.seating and again.dealer_streak == m.dealer_streak


def test_result_picture_of_a_caishen_win_draws_every_label():
    from jxbot.rulesets.caishen.rules import _WORDS, ITEM_NAMES
    from render import render_result
    from render.fonts import UI_FONT, cmap

    have = cmap(UI_FONT)
    for zh, en in [*ITEM_NAMES.values(), *_WORDS.values()]:
        assert all(c in have or c == " " for c in zh + en), (zh, en)
    h = cs_hand({0: "11223344556677m", 1: JUNK1, 2: JUNK2, 3: JUNK3}, streak=1)
    act(h, "tsumo", 0)
    h.settle([100, None, 5, None])
    png = render_result(h.result_view(), "zh")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_dabao_fan_bao_when_the_feeder_wins():
    for literal, expect in ((True, (32, -24, -4, -4)), (False, (24, -24, 0, 0))):
        h = cs_hand({0: "1m4p7s234m567m88s678p", 1: "23m56p89s456m1z567z", 2: "369p147s2345677z",
                     3: "258p369s2345667z"}, draws="1p1p1z2s2s1z8m8m1z", caishen="9m",
                    ruleset=CAISHEN.with_(cs_dabao_literal=literal))
        for fed, base, out in (("1m", "1m", "5z"), ("4p", "4p", "6z"), ("7s", "7s", "7z")):
            act(h, "discard", 0, fed)
            act(h, "chi", 1, base)
            pass_all(h)
            discard(h, 1, out)
            discard(h, 2)
            discard(h, 3)
        assert h.turn == 0 and h.drawn == T("1z")
        act(h, "tsumo", 0)
        st = h.settle([None] * 4)
        assert st.details["dabao"] == [0, 1] and st.details["how"] == "fan_bao"
        assert st.deltas == expect
