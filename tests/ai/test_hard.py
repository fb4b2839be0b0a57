"""The hard computer player (issue 18): table reading, defence, 放弃, wildcards, legality in real hands,
and the normal player's new refusal to feed contracts."""

import pytest

from jxbot.ai import make_player
from jxbot.ai.hard import win_chance
from jxbot.ai.selfplay import simulate
from jxbot.game.actions import ActionType
from jxbot.rules.melds import Meld
from jxbot.rules.tiles import parse_tiles

from .conftest import build_view


def tile(s: str) -> int:
    return parse_tiles(s)[0]


def act(kind: str, seat: int = 0, **kw) -> dict:
    d = {"type": kind, "seat": seat}
    if "tile" in kw:
        d["tile"] = tile(kw["tile"])
    return d


def choose(level: str, view: dict):
    return make_player(level, 0).choose(view)


def test_hard_avoids_a_flush_seat_late_in_the_hand():
    # West has three 筒 chows (it can only win with a 筒 flush); 9p and 9s are equally useless to us
    west = [Meld.chow("123p", from_seat=1), Meld.chow("456p", from_seat=1), Meld.chow("789p", from_seat=1)]
    v = build_view("1234567m11z9p9s", drawn="3m", melds={2: west})
    v["wall_remaining"] = 12
    assert choose("hard", v).tile == tile("9s")
    assert choose("normal", v).tile == tile("9p")  # the normal player does not read the table


def test_neither_level_feeds_a_seat_its_third_claim_in_its_suit():
    # South has two pungs of 筒 claimed from us; 5p would make us ready, but South may pung or chow it
    south = [Meld.pung("222p", from_seat=0), Meld.pung("888p", from_seat=0)]
    v = build_view("1234567899m11z", drawn="5p", melds={1: south})
    for level in ("normal", "hard"):
        assert choose(level, v).tile != tile("5p"), level
    # with no contract threat the same tile goes at once
    free = build_view("1234567899m11z", drawn="5p")
    assert choose("normal", free).tile == tile("5p") and choose("hard", free).tile == tile("5p")


def test_hard_takes_the_claim_that_binds_a_contract_in_its_favour():
    # two pungs already claimed from North; North's 5m costs no shanten: the partner would pay ×5
    mine = [Meld.pung("111m", from_seat=3), Meld.pung("999m", from_seat=3)]
    v = build_view("2355m678m", melds={0: mine}, phase="claim", last_discard=(3, "5m"),
                   actions=[act("peng", tile="5m"), act("pass")])
    assert choose("hard", v).type is ActionType.PUNG
    assert choose("normal", v).type is ActionType.PASS


@pytest.mark.parametrize("wall, expected", [(60, ActionType.PERSIST), (12, ActionType.GIVE_UP)])
def test_hard_persists_only_when_it_is_a_good_bet(wall, expected):
    # two steps from ready: early on, winning ×2 from each of the pair is worth the risk; late, it is not
    pair = [Meld.pung("111p", from_seat=1), Meld.pung("222p", from_seat=1), Meld.pung("333p", from_seat=1)]
    v = build_view("12357m1189m11z56z", seat=3, phase="contract", contract=[0, 1], melds={0: pair},
                   actions=[act("persist", 3), act("give_up", 3)])
    v["wall_remaining"] = wall
    assert choose("hard", v).type is expected
    assert choose("normal", v).type is ActionType.GIVE_UP  # the normal player persists only at 1 from ready


def test_hard_keeps_its_wildcards():
    v = build_view("1234m5p9s1357z", drawn="7z", wildcard="5p")
    a = choose("hard", v)
    assert a.type is ActionType.DISCARD and a.tile != tile("5p")


def test_win_chance_is_monotone():
    for draws in (0, 5, 12, 20):
        row = [win_chance(s, draws) for s in range(8)]
        assert row == sorted(row, reverse=True) and row[-1] > 0
    assert win_chance(1, 20) > win_chance(1, 3)


@pytest.mark.parametrize("ruleset", ["jiaxing", "caishen"])
def test_hard_plays_only_legal_actions_in_real_hands(ruleset):
    r = simulate(8, ["hard", "hard", "normal", "easy"], seed=f"hard-{ruleset}", ruleset=ruleset,
                 replay_every=2, census_every=1, strict=True)
    assert r["invariant_violations"] == 0 and r["hands"] == 8


def test_hard_is_deterministic():
    a = simulate(6, ["hard", "easy", "hard", "normal"], seed=3)
    b = simulate(6, ["hard", "easy", "hard", "normal"], seed=3)
    assert a["points_by_seat"] == b["points_by_seat"] and a["total_decisions"] == b["total_decisions"]


def test_hard_caishen_does_not_feed_a_third_chow():
    # 大包: South already chowed twice from us; 5m could be its third chow, the honor cannot
    south = [Meld.chow("123m", from_seat=0, claimed=0), Meld.chow("789m", from_seat=0, claimed=8)]
    for melds, hard_tile in (({1: south}, "3z"), ({}, "5m")):
        v = build_view("123p456p789p11s5m3z", drawn="1s", wildcard="7z", melds=melds)
        v["ruleset"] = "caishen"
        assert choose("hard", v).tile == tile(hard_tile)
        assert choose("normal", v).tile == tile("5m")


def test_hard_caishen_claims_while_seven_pairs_is_as_near():
    # four pairs: seven pairs and the ordinary hand are both two from ready, so the normal player sits
    # on seven pairs and passes; the pung of 1万 puts the ordinary hand one from ready (a claimed plain
    # hand wins by self-draw like a concealed one), which the hard player takes
    v = build_view("1133m123p23355s2z", wildcard="9p", phase="claim", last_discard=(3, "1m"),
                   actions=[{"type": "peng", "seat": 0, "tile": tile("1m")}, {"type": "pass", "seat": 0}])
    v["ruleset"] = "caishen"
    v["turn"] = 3
    assert choose("hard", v).type == ActionType.PUNG
    assert choose("normal", v).type == ActionType.PASS
