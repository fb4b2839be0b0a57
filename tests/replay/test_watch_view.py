"""The watcher's delayed public view: the table as it stood a few moves ago, never a concealed tile, never
the live move; the incremental follower gives what the pure function gives over the same log."""

from __future__ import annotations

import json

import pytest

from jxbot.game import Hand
from jxbot.rules.tiles import tile_name
from jxbot.watch_view import MOVE_TYPES, DelayedPublic, caption, delayed_public_view, effective_delay

from .helpers import played_hand


@pytest.fixture(scope="module")
def hand() -> Hand:
    return played_hand(3)


def _moves(events) -> list[int]:
    return [i for i, e in enumerate(events) if e.type in MOVE_TYPES]


def _running(hand: Hand):
    """Every prefix of the log that ends before the win: the hand as the table saw it while it ran."""
    end = next(i for i, e in enumerate(hand.events) if e.type in ("won", "drawn_game"))
    return [hand.events[: n + 1] for n in range(end)]


def test_nothing_before_the_deal_and_the_deal_before_enough_moves(hand):
    assert delayed_public_view(hand.events[:1]) is None
    dealt = next(i for i, e in enumerate(hand.events) if e.type == "dealt")
    v = delayed_public_view(hand.events[: dealt + 1])
    assert v is not None and v["delayed"]["shown"] == 0 and v["delayed"]["last"] is None
    want = Hand.replay(hand.events[: dealt + 1]).public_view()["seats"]
    assert v["seats"] == [{**s, "auto": False, "escaped": False} for s in want]


@pytest.mark.parametrize("delay", [0, 1, 2, 5])
def test_the_view_is_the_state_after_the_move_delay_moves_back(hand, delay):
    d = effective_delay(delay)
    assert d == max(1, delay)
    for evs in _running(hand)[:: 7]:
        moves = _moves(evs)
        v = delayed_public_view(evs, delay)
        if v is None:
            continue
        assert v["delayed"]["moves"] == len(moves) and not v["delayed"]["ended"]
        if len(moves) > d:
            upto = moves[len(moves) - d - 1]
            want = Hand.replay(evs[: upto + 1]).public_view()
            assert v["delayed"]["shown"] == len(moves) - d
            told = evs[upto].public_json(None)
            if told.get("kind") == "concealed_kong":
                told["tile"] = None
            assert v["delayed"]["last"] == told
        else:
            want = Hand.replay(evs[: next(i for i, e in enumerate(evs) if e.type == "dealt") + 1]).public_view()
        assert [s["discards"] for s in v["seats"]] == [s["discards"] for s in want["seats"]]
        assert [s["concealed_count"] for s in v["seats"]] == [s["concealed_count"] for s in want["seats"]]
        assert (v["wall_remaining"], v["turn"], v["phase"]) == (want["wall_remaining"], want["turn"], want["phase"])


def test_the_live_move_is_never_shown_even_with_no_delay(hand):
    for evs in _running(hand):
        moves = _moves(evs)
        v = delayed_public_view(evs, 0)
        if v is None or not moves:
            continue
        live = Hand.replay(evs).public_view()
        shown = sum(len(s["discards"]) + len(s["melds"]) for s in v["seats"])
        now = sum(len(s["discards"]) + len(s["melds"]) for s in live["seats"])
        assert v["delayed"]["shown"] < v["delayed"]["moves"]
        if evs[-1].type == "discarded":
            assert shown < now  # the newest discard is not on the watcher's table


def test_no_concealed_tile_in_any_view(hand):
    for evs in _running(hand)[:: 3]:
        v = delayed_public_view(evs, 2)
        if v is None:
            continue
        assert "hand" not in v and "drawn" not in v and v["viewer"] is None and v["actions"] == []
        text = json.dumps(v)
        assert '"wall"' not in text and '"salt"' not in text
        assert "tile" not in (v["delayed"]["last"] or {}) or v["delayed"]["last"]["type"] != "drew"


def test_an_ended_hand_shows_its_final_state(hand):
    v = delayed_public_view(hand.events, 2)
    assert v is not None and v["delayed"]["ended"] and v["phase"] == "ended"
    assert v["delayed"]["shown"] == v["delayed"]["moves"]
    assert v["seats"] == [{**s, "auto": False, "escaped": False} for s in hand.public_view()["seats"]]


def test_the_follower_gives_what_the_function_gives(hand):
    f = DelayedPublic(2)
    seats = [{"name": n, "is_computer": False, "balance": 1000, "total": 0, "auto": True} for n in "ABCD"]
    for evs in _running(hand) + [hand.events]:
        got = f.update(evs, seats=seats)
        assert got == delayed_public_view(evs, 2, seats=seats)
        if got is not None:
            assert [s["name"] for s in got["seats"]] == list("ABCD") and not any(s["auto"] for s in got["seats"])
    # a new hand starts over
    other = played_hand(4, hand_id="0123456789ab-2")
    assert f.update(other.events[:40]) == delayed_public_view(other.events[:40], 2)


def test_the_caption_names_the_last_move_shown(hand):
    for evs in _running(hand):
        if evs[-1].type == "discarded" and len(_moves(evs)) > 3:
            break
    v = delayed_public_view(evs, 1)
    last = v["delayed"]["last"]
    text = caption(v, "en")
    assert text, last
    if last["type"] == "discarded":
        assert tile_name(last["tile"], "en") in text
    assert caption(delayed_public_view(hand.events[:1] + hand.events[1:2], 2) or {"delayed": {}}, "zh") == ""
