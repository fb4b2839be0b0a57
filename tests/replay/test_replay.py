"""Replays cut a hand into the steps a person follows, with the views the game gave each seat then;
the exported file reads back into the same replay; verify refuses a tampered wall or salt."""

from __future__ import annotations

import hashlib
import json

import pytest

from jxbot.game import Hand
from jxbot.game import events as ev
from jxbot.replay import (
    FORMAT,
    VERSION,
    Replay,
    commitment_of,
    export_doc,
    load_doc,
    parse_wall,
    reveal_text,
    verified,
    verify,
    wall_notation,
)

from .helpers import played_hand


@pytest.fixture(scope="module")
def hand() -> Hand:
    return played_hand(3)


def test_steps_are_deal_draws_discards_claims_and_the_end(hand):
    rp = Replay(hand.events_json())
    kinds = [s.event.type for s in rp.steps]
    assert kinds[0] == "dealt" and kinds[-1] in ("won", "drawn_game")
    assert "claim_answered" not in kinds and "claims_closed" not in kinds and "hand_started" not in kinds
    assert kinds.count("discarded") == sum(len(s) for s in hand.discards)
    assert rp.caption(0, "en").startswith("Deal:")


def test_each_step_view_is_the_fold_of_the_log_up_to_it(hand):
    rp = Replay(hand.events_json())
    for k in (0, 1, len(rp) // 2, len(rp) - 1):
        upto = Hand.replay(hand.events[: rp.steps[k].last + 1])
        for seat in range(4):
            v = rp.view(k, seat, concealed=True)
            want = upto.view(seat)
            assert (v["hand"], v["drawn"], v["seats"][seat]["melds"]) == (want["hand"], want["drawn"],
                                                                          want["seats"][seat]["melds"])
        pub = rp.view(k, 2)
        assert "hand" not in pub and "drawn" not in pub and pub["viewer"] == 2
        assert [s["discards"] for s in pub["seats"]] == [s["discards"] for s in upto.public_view()["seats"]]
    # going back and forth gives the same views (the cursor refolds from the start when moving back)
    assert rp.view(3, 1, concealed=True) == Replay(hand.events_json()).view(3, 1, concealed=True)


def test_a_draw_is_named_only_to_its_own_seat(hand):
    rp = Replay(hand.events_json())
    k, step = next((s.number, s) for s in rp.steps if isinstance(s.event, ev.Drew))
    e = step.event
    assert isinstance(e, ev.Drew)
    from jxbot.rules.tiles import tile_name

    assert tile_name(e.tile, "en") in rp.caption(k, "en", seat=e.seat, concealed=True)
    assert tile_name(e.tile, "en") not in rp.caption(k, "en", seat=e.seat)
    assert tile_name(e.tile, "en") not in rp.caption(k, "en", seat=(e.seat + 1) % 4, concealed=True)


def test_discard_caption_says_what_followed():
    for seed in range(10):
        h = played_hand(seed)
        rp = Replay(h.events_json(), names=["A", "B", "C", "D"])
        for s in rp.steps[:-1]:
            nxt = rp.steps[s.number + 1].event
            if isinstance(s.event, ev.Discarded) and isinstance(nxt, ev.Claimed):
                text = rp.caption(s.number, "en")
                assert "; " in text and rp.who(nxt.seat, "en") in text.split("; ")[1]
                return
    pytest.fail("no claimed discard in ten hands")


def test_export_is_versioned_public_and_reads_back(hand):
    doc = json.loads(json.dumps(export_doc(hand.events_json(), names=["A", "B", "C", "D"])))
    assert (doc["format"], doc["version"]) == (FORMAT, VERSION)
    assert all(e["type"] != "claim_answered" for e in doc["events"])
    assert all("tile" not in e for e in doc["events"] if e["type"] == "drew")  # draws come from the wall
    assert parse_wall(doc["reveal"]["wall_notation"]) == list(hand.wall)
    back = load_doc(doc)
    rp = Replay(hand.events_json())
    assert len(back) == len(rp)
    for k in range(0, len(rp), 5):
        for seat in range(4):
            assert back.view(k, seat, concealed=True)["hand"] == rp.view(k, seat, concealed=True)["hand"]
    assert back.seat_name(2) == "C"


def test_a_running_hand_cannot_be_exported():
    h = Hand.new(5)
    with pytest.raises(ValueError, match="still running"):
        export_doc(h.events_json())


@pytest.mark.parametrize("bad, msg", [
    ({"format": "other"}, "not a jxbot hand file"),
    ({"format": FORMAT, "version": 99}, "version 99"),
    ({"format": FORMAT, "version": VERSION, "reveal": {}, "events": []}, "non-empty"),
])
def test_bad_files_are_refused_with_a_reason(bad, msg):
    with pytest.raises(ValueError, match=msg):
        load_doc(bad)


def test_independent_hashlib_check_of_the_documented_format(hand):
    # docs/replay.md: sha256 over the 136 wall bytes (tile kinds 0-33, head to tail) then the salt in UTF-8
    doc = export_doc(hand.events_json())
    wall = doc["reveal"]["wall"]
    salt = doc["reveal"]["salt"]
    assert hashlib.sha256(bytes(wall) + salt.encode("utf-8")).hexdigest() == doc["commitment"]
    # the reveal text's hex is the same bytes
    text = reveal_text(hand.hand_id, wall, salt, doc["commitment"])
    hexline = next(ln for ln in text.splitlines() if ln.startswith("wall bytes"))
    assert bytes.fromhex(hexline.split(": ", 1)[1]) == bytes(wall)
    assert commitment_of(wall, salt) == hand.commitment


def test_verify_accepts_the_real_reveal_from_the_log_or_the_public_file(hand):
    assert verified(verify(hand.wall, hand.salt, hand.commitment, hand.events_json()))
    doc = export_doc(hand.events_json())
    checks = verify(doc["reveal"]["wall"], doc["reveal"]["salt"], doc["commitment"], doc["events"])
    assert verified(checks) and len(checks) == 3
    assert "draws come from this wall" in checks[-1].text("en")


def test_verify_refuses_a_tampered_salt_wall_or_commitment(hand):
    bad_salt = verify(hand.wall, hand.salt + "0", hand.commitment)
    assert not verified(bad_salt) and "does not match" in bad_salt[1].text("en")
    # two tiles swapped near the head: the hash fails, and so does replaying the deal and draws
    wall = list(hand.wall)
    i = next(i for i in range(53, 80) if wall[i] != wall[i + 1])
    wall[i], wall[i + 1] = wall[i + 1], wall[i]
    checks = verify(wall, hand.salt, hand.commitment, hand.events_json())
    assert [c.ok for c in checks] == [True, False, False]
    assert "does not follow from this wall" in checks[2].text("en")
    # even with a commitment recomputed for the forged wall, the logged commitment and the draws refuse it
    forged = verify(wall, hand.salt, commitment_of(wall, hand.salt), hand.events_json())
    assert not verified(forged)
    # a wall that is not a full set
    short = verify(list(hand.wall[:-1]) + [hand.wall[0]], hand.salt, hand.commitment)
    assert not short[0].ok and "not a full tile set" in short[0].text("en")


def test_wall_notation_round_trips_and_hex_is_accepted(hand):
    assert parse_wall(wall_notation(hand.wall)) == list(hand.wall)
    assert parse_wall(bytes(hand.wall).hex()) == list(hand.wall)
    with pytest.raises(ValueError):
        parse_wall("1x 2y")


def _rob_hands():
    from tests.game.helpers import act
    from tests.game.test_kongs import rob_setup

    robbed = rob_setup()
    act(robbed, "bugang", 2, "5m")
    act(robbed, "hu", 3)
    kong = rob_setup()
    act(kong, "bugang", 2, "5m")
    act(kong, "pass", 3)  # the added kong completes; a replacement from the tail
    from tests.game.helpers import scripted_hand

    bloom = scripted_hand({0: "1111z123456m78m55m"}, indicator="9s", replacements="9m")
    act(bloom, "angang", 0, "1z")
    act(bloom, "tsumo", 0)
    return robbed, kong, bloom


def test_kongs_robbing_and_replacement_draws_replay_export_and_verify():
    robbed, kong, bloom = _rob_hands()
    rp = Replay(robbed.events_json())
    kinds = [s.event.type for s in rp.steps]
    assert "kong_declared" in kinds and kinds[-1] == "won"
    assert "robs" in rp.caption(len(rp) - 1, "en")
    k = kinds.index("kong_declared")
    assert rp.view(k, 0)["pending_kong"] is not None
    rk = Replay(kong.events_json())
    konged = next(s for s in rk.steps if s.event.type == "konged")
    repl = rk.steps[konged.number + 1]
    assert isinstance(repl.event, ev.Drew) and repl.event.replacement
    assert "replacement" in rk.caption(repl.number, "en", seat=2, concealed=True)
    assert rk.view(repl.number, 2, concealed=True)["drawn"] == repl.event.tile
    rb = Replay(bloom.events_json())
    assert "concealed kong" in rb.caption(1, "en")
    for hand in (robbed, bloom):  # finished hands: the file reads back and verifies, draws from the tail included
        doc = export_doc(hand.events_json())
        back = load_doc(doc)
        assert [s.event.type for s in back.steps] == [s.event.type for s in Replay(hand.events_json()).steps]
        assert verified(verify(doc["reveal"]["wall"], doc["reveal"]["salt"], doc["commitment"], doc["events"]))
    # a replacement tile swapped in the tail is caught
    wall = list(bloom.wall)
    j = next(j for j in range(135, 100, -1) if wall[j] != wall[135])
    wall[135], wall[j] = wall[j], wall[135]
    checks = verify(wall, bloom.salt, commitment_of(wall, bloom.salt), bloom.events_json())
    assert not checks[-1].ok
