"""Decisions of the computer players on hand-made seat views."""

from __future__ import annotations

import pytest

from jxbot.ai import make_player
from jxbot.game.actions import Action, ActionType
from jxbot.rules.melds import Meld
from jxbot.rules.tiles import parse_tile


def disc(tile: str, seat: int = 0) -> dict:
    return {"type": "discard", "seat": seat, "tile": parse_tile(tile)}


def act(typ: str, seat: int = 0, tile: str | None = None) -> dict:
    return {"type": typ, "seat": seat, "tile": parse_tile(tile) if tile else None}


@pytest.mark.parametrize("level", ["normal", "easy"])
def test_always_wins_when_it_can(make_view, level):
    p = make_player(level, 1)
    v = make_view("1112345678999m", actions=[act("tsumo"), disc("1m"), disc("9m")])
    assert p.choose(v).type is ActionType.TSUMO
    v = make_view("111234567899m7z", phase="claim", last_discard=(3, "9m"),
                  actions=[act("hu"), act("peng", tile="9m"), act("pass")])
    assert p.choose(v).type is ActionType.HU


def test_robs_a_kong_when_allowed(make_view):
    p = make_player("normal", 1)
    v = make_view("11123456789m7z", phase="rob", last_discard=(2, "7z"), actions=[act("pass"), act("hu")])
    assert p.choose(v) == Action(ActionType.HU, 0, None)


def test_keeps_its_wildcard(make_view):
    p = make_player("normal", 3)
    # junk everywhere; the 百搭 (5s) must stay whatever else happens
    for hand, drawn in [("159m258p3569s135z", "7z"), ("1m2p3s1234567z55s", "9m"), ("12345m5s", "5s")]:
        v = make_view(hand, drawn=drawn, wildcard="5s")
        a = p.choose(v)
        assert a.type is ActionType.DISCARD and a.tile != parse_tile("5s")


def test_targets_the_suit_it_holds_most_of(make_view):
    p = make_player("normal", 0)
    v = make_view("1235679m11p4s27z", drawn="8m")
    a = p.choose(v)
    assert a.tile in (parse_tile("1p"), parse_tile("4s"))  # throws the other suits, keeps 万 and honors
    assert p.target_name == "flush_m"


def test_targets_all_pungs_with_many_pairs(make_view):
    p = make_player("normal", 0)
    v = make_view("11m22p33s4455z6m8p9s", drawn="1z")
    a = p.choose(v)
    assert p.target_name == "pungs"
    assert a.tile in {parse_tile(t) for t in ("6m", "8p", "9s", "1z")}  # a single, never a pair


def test_claims_a_pung_that_helps_and_passes_one_that_does_not(make_view):
    p = make_player("normal", 0)
    v = make_view("1123456799m567z", phase="claim", last_discard=(2, "9m"),
                  actions=[act("peng", tile="9m"), act("pass")])
    assert p.choose(v).type is ActionType.PUNG
    v = make_view("1123456799m22p7z", phase="claim", last_discard=(2, "2p"), hand_id="h2",
                  actions=[act("peng", tile="2p"), act("pass")])
    assert p.choose(v).type is ActionType.PASS


def test_chows_only_in_its_target_suit(make_view):
    p = make_player("normal", 0)
    v = make_view("1134567m24p1255z", phase="claim", last_discard=(3, "3p"),
                  actions=[act("chi", tile="2p"), act("pass")])
    assert p.choose(v).type is ActionType.PASS
    v = make_view("11345679m24p55z", phase="claim", last_discard=(3, "8m"), hand_id="h2",
                  actions=[act("chi", tile="7m"), act("chi", tile="6m"), act("pass")])
    assert p.choose(v).type is ActionType.CHOW


def test_avoids_feeding_a_third_claim(make_view):
    me_melds = {2: [Meld.pung("111z", from_seat=0), Meld.pung("222z", from_seat=0)]}
    hand, drawn, discards = "1123456789m7p9s", "5z", {1: "9s", 3: "9s"}
    # control: with nobody at two claims on us, 7p (lower tile, equally useless) goes first
    p = make_player("normal", 0)
    assert p.choose(make_view(hand, drawn=drawn, discards=discards)).tile == parse_tile("7p")
    # seat 2 has claimed twice from us: 7p could be 碰'd (3 unseen), 9s cannot (only 1 unseen)
    p = make_player("normal", 0)
    a = p.choose(make_view(hand, drawn=drawn, discards=discards, melds=me_melds))
    assert a.tile == parse_tile("9s")


def test_persists_when_close_and_gives_up_when_far(make_view):
    acts = [act("persist", seat=3), act("give_up", seat=3)]
    p = make_player("normal", 0)
    close = make_view("1112345678999m", seat=3, phase="contract", contract=[0, 1], actions=acts)
    close["hand"] = close["hand"][:13]
    assert p.choose(close).type is ActionType.PERSIST
    far = make_view("147m258p369s1357z", seat=3, phase="contract", contract=[0, 1], actions=acts)
    assert p.choose(far).type is ActionType.GIVE_UP


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_an_escaped_seat_always_persists(make_view, level):
    """RULES A10: an escaped seat answers a contract vote with 坚持 however far it is from ready (放弃
    would lower what the escaper owes to the fee alone)."""
    acts = [act("persist", seat=3), act("give_up", seat=3)]
    far = make_view("147m258p369s1357z", seat=3, phase="contract", contract=[0, 1], actions=acts)
    seats = list(far["seats"])
    seats[3] = {**seats[3], "escaped": True}
    assert make_player(level, 0).choose({**far, "seats": seats}).type is ActionType.PERSIST
    if level == "normal":  # the same seat, not escaped, gives up: the mark is what decides
        assert make_player(level, 0).choose(far).type is ActionType.GIVE_UP


def test_kong_when_it_costs_nothing(make_view):
    p = make_player("normal", 0)
    v = make_view("1111234567m55z", drawn="9m", actions=None)
    v["actions"].append(act("angang", tile="1m"))
    assert p.choose(v).type is ActionType.CONCEALED_KONG


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown computer level"):
        make_player("grandmaster", 0)


@pytest.mark.parametrize("level", ["normal", "easy"])
def test_same_seed_same_views_same_actions(make_view, level):
    views = [make_view(h, drawn=d, wildcard="3z", hand_id=f"h{i}") for i, (h, d) in enumerate([
        ("147m258p369s1357z", "2m"), ("1122m3456p789s12z", "3z"), ("13579m2468p135s", "6z")] * 3)]
    views += [make_view("1123456799m567z", phase="claim", last_discard=(2, "9m"), hand_id=f"c{i}",
                        actions=[act("peng", tile="9m"), act("pass")]) for i in range(8)]
    a = [make_player(level, "seed-7").choose(v) for v in views]
    b = [make_player(level, "seed-7").choose(v) for v in views]
    assert a == b
