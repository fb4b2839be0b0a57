"""Shuffle, commitment, deal, 百搭, views and the event log (RULES A2; docs/views.md; DESIGN "events are the truth")."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from jxbot.game import Hand, HandContext, event_from_json
from jxbot.game.rng import full_set
from jxbot.game.scripted import build_wall
from jxbot.rules.ruleset import JIAXING
from jxbot.rules.tiles import parse_tile

from .helpers import T, act, check_invariants, discard_drawn, pass_all, scripted_hand

VIEW_KEYS = {"hand_id", "ruleset", "viewer", "hand_number", "round_wind", "dealer", "dice", "wildcard", "indicator",
             "wall_remaining", "turn", "phase", "last_discard", "contract", "cumulative_queue", "commitment", "seats",
             "pending_kong", "white_as", "voided"}
SEAT_KEYS = {"seat", "seat_wind", "is_dealer", "concealed_count", "melds", "discards", "gave_up"}


def test_same_seed_same_hand_and_other_seeds_differ():
    a, b, c = Hand.new(7), Hand.new(7), Hand.new(8)
    assert (a.wall, a.dice, a.salt, a.commitment) == (b.wall, b.dice, b.salt, b.commitment)
    assert a.events_json() == b.events_json()
    assert a.wall != c.wall and a.salt != c.salt
    assert sorted(a.wall) == full_set()


def test_shuffle_spreads_every_kind_over_the_head_and_dice_over_all_faces():
    firsts: Counter[int] = Counter()
    faces: Counter[int] = Counter()
    for seed in range(1700):
        h = Hand.new(f"spread-{seed}")
        firsts[h.wall[0]] += 1
        faces.update(h.dice)
    assert set(firsts) == set(range(34)) and min(firsts.values()) >= 15 and max(firsts.values()) <= 95
    assert set(faces) == set(range(1, 7)) and min(faces.values()) > 450


def test_deal_13_each_from_the_head_and_a_14th_to_the_dealer():
    wall = build_wall({}, dealer=2, fill_seed=5)
    h = Hand.from_wall(wall, (3, 4), context=HandContext(dealer=2))
    for i in range(4):
        seat = (2 + i) % 4
        expect = wall[13 * i:13 * i + 13] + ([wall[52]] if seat == 2 else [])
        assert sorted(h.concealed[seat]) == sorted(expect)
    assert h.turn == 2 and h.drawn == wall[52] and h.pending() == {2}
    assert h.live_wall()[0] == wall[53]
    check_invariants(h)


def test_indicator_counted_from_the_tail_is_out_of_play_and_names_the_wildcard():
    wall = build_wall({}, indicator="3p", dice=(2, 3))
    h = Hand.from_wall(wall, (2, 3))
    assert wall[136 - 5] == T("3p") and h.indicator == T("3p") and h.wildcard == T("3p")
    assert h.wall_remaining == 136 - 53 - 1
    assert len(h.live_wall()) == 82 and 131 not in h._live
    check_invariants(h)


@pytest.mark.parametrize(("indicator", "wildcard"), [("9m", "1m"), ("4z", "1z"), ("7z", "5z"), ("3s", "4s")])
def test_wildcard_mode_next_takes_the_kind_after_the_indicator(indicator, wildcard):
    h = scripted_hand({}, indicator=indicator, ruleset=JIAXING.with_(wildcard_mode="next"))
    assert h.indicator == T(indicator) and h.wildcard == T(wildcard)


def test_wildcard_mode_none_keeps_every_tile_in_play():
    h = scripted_hand({}, ruleset=JIAXING.with_(wildcard_mode="none"))
    assert h.wildcard is None and h.indicator is None and h.wall_remaining == 83
    check_invariants(h)


def test_seat_view_shows_own_tiles_sorted_wildcard_first_with_the_draw_apart():
    h = scripted_hand({0: "147p258s1234569s7z"}, indicator="9s")
    v = h.view(0)
    assert v["viewer"] == 0 and v["drawn"] == T("7z")
    assert v["hand"][0] == T("9s") and v["hand"][1:] == sorted(v["hand"][1:]) and len(v["hand"]) == 13
    assert T("7z") not in v["hand"]
    assert {"type": "tsumo", "seat": 0, "tile": T("7z")} not in v["actions"]
    assert {"type": "discard", "seat": 0, "tile": T("7z")} in v["actions"]
    other = h.view(1)
    assert other["actions"] == [] and other["drawn"] is None and len(other["hand"]) == 13
    assert set(v) == VIEW_KEYS | {"hand", "drawn", "actions"}
    assert all(set(s) == SEAT_KEYS for s in v["seats"])
    assert [s["concealed_count"] for s in v["seats"]] == [14, 13, 13, 13]
    assert [s["seat_wind"] for s in v["seats"]] == [0, 1, 2, 3]
    json.dumps(v)


def test_public_view_hides_concealed_tiles_and_the_wall():
    # two walls that differ only in where one of seat 3's tiles and a deep wall tile sit
    wall_a = build_wall({0: "147p258s1234567z3p"}, indicator="9s")
    wall_b = list(wall_a)
    seat3 = 3 * 13  # first tile of seat 3 (dealer 0)
    deep = next(i for i in range(90, 120) if wall_b[i] != wall_b[seat3])
    wall_b[deep], wall_b[seat3] = wall_b[seat3], wall_b[deep]
    views = []
    for wall in (wall_a, wall_b):
        h = Hand.from_wall(wall, (3, 4), context=HandContext(hand_id="same"), salt="s")
        act(h, "discard", 0, "3p")
        pass_all(h)
        pub = h.public_view()
        assert set(pub) == VIEW_KEYS and pub["viewer"] is None
        assert all(set(s) == SEAT_KEYS for s in pub["seats"])
        pub.pop("commitment")
        views.append((pub, h.view(3)["hand"]))
    assert views[0][0] == views[1][0]  # the channel cannot tell the two hands apart
    assert views[0][1] != views[1][1]  # seat 3 can


def test_events_round_trip_through_json_and_redact_hidden_tiles():
    h = scripted_hand({0: "147p258s1234567z3p"}, indicator="9s", draws="8p")
    act(h, "discard", 0, "3p")
    pass_all(h)
    for e in h.events:
        assert event_from_json(json.loads(json.dumps(e.to_json()))) == e
    drew = [e for e in h.events if e.type == "drew"][0]
    assert drew.seat == 1 and "tile" not in drew.public_json(None) and "tile" not in drew.public_json(2)
    assert drew.public_json(1)["tile"] == T("8p")
    public = json.dumps(h.public_events())
    assert '"wall"' not in public and h.salt not in public
    assert len(h.public_events(1)) == len(h.events)


def test_replay_rebuilds_the_same_hand_at_every_step():
    h = scripted_hand({0: "147p258s1234567z5m", 2: "55m369p36s123456z"}, indicator="9s")
    steps = 0
    while not h.ended and steps < 40:
        seat = min(h.pending())
        acts = h.legal_actions(seat)
        claim = [a for a in acts if a.type.value in ("peng", "chi", "gang")]
        h.apply(claim[0] if claim else h.default_action(seat))
        again = Hand.replay(json.loads(json.dumps(h.events_json())))
        assert [again.view(s) for s in range(4)] == [h.view(s) for s in range(4)]
        assert again.public_view() == h.public_view() and again.pending() == h.pending()
        steps += 1
    assert any(h.melds)


def test_replay_refuses_a_tampered_log():
    h = scripted_hand({0: "147p258s1234567z3p"}, indicator="9s", draws="8p")
    discard_drawn(h, 0)
    log = h.events_json()
    drew = next(d for d in log if d["type"] == "drew")
    drew["tile"] = parse_tile("1m") if drew["tile"] != parse_tile("1m") else parse_tile("2m")
    with pytest.raises(ValueError):
        Hand.replay(log)
    with pytest.raises(ValueError):
        Hand.replay(h.events_json()[1:])


def test_logging_an_event_shows_no_wall_salt_or_drawn_tile():
    h = scripted_hand({0: "147p258s1234567z3p"}, indicator="9s", draws="8p")
    discard_drawn(h, 0)
    started, drew = h.events[0], next(e for e in h.events if e.type == "drew")
    assert "wall" not in repr(started) and h.salt not in repr(started) and h.commitment in repr(started)
    assert "tile" not in repr(drew) and "seat=1" in repr(drew)
