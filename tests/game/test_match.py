"""Match (RULES A1, A7): dealer rotation, round wind, cumulative 番 across hands, previous 百搭, length, JSON."""

from __future__ import annotations

import json

import pytest

from jxbot.game import IllegalAction, Match
from jxbot.rules.ruleset import JIAXING

from .helpers import act, discard_drawn, fan_codes, scripted_hand

NINE_GATES = "1112345678999m"
JUNK = "147p258s1234567z"


def scripted_next(match: Match, hands: dict, **kw):
    return scripted_hand(hands, context=match.next_context(), ruleset=match.ruleset, **kw)


def dealer_wins(match: Match, **kw):
    d = match.dealer
    h = scripted_next(match, {d: NINE_GATES + "5m"}, indicator="9s", **kw)
    act(h, "tsumo", d)
    return h


def next_seat_wins(match: Match):
    d = match.dealer
    h = scripted_next(match, {d: JUNK + "5m", (d + 1) % 4: NINE_GATES}, indicator="9s")
    act(h, "discard", d, "5m")
    act(h, "hu", (d + 1) % 4)
    assert h.result.winner == (d + 1) % 4
    return h


def drawn(match: Match):
    h = scripted_next(match, {match.dealer: JUNK + "3p"}, indicator="9s")
    assert h.ruleset.reserve_tiles == 82
    discard_drawn(h, match.dealer)
    assert h.result.drawn_game
    return h


def finish(match: Match, h, balances=(1000, 1000, 1000, 1000)):
    h.settle(list(balances), fee=match.fee)
    return match.finish_hand(h)


QUICK_DRAWS = JIAXING.with_(reserve_tiles=82)  # nothing to draw: a hand is drawn after the first discard


def test_dealer_keeps_the_deal_on_a_draw():
    m = Match("draws", ruleset=QUICK_DRAWS)
    finish(m, drawn(m))
    assert m.dealer == 0 and m.round_wind == 0 and m.hand_number == 2
    assert m.queue == ("huang",)
    assert m.next_context().cumulative_queue == ("huang",)


def test_cumulative_fan_is_carried_over_a_drawn_hand_to_the_next_win():
    m = Match("carry", ruleset=QUICK_DRAWS)
    finish(m, drawn(m))
    finish(m, drawn(m))
    # the second deal flipped 9s again: 百搭连庄 joined the queue between the two 黄番
    assert m.queue == ("huang", "wildcard_repeat", "huang")
    h = dealer_wins(m)
    assert h.result.cumulative_taken == ("huang",) and "huang" in fan_codes(h)
    rec = finish(m, h)
    assert rec["cumulative_taken"] == ["huang"]
    assert m.queue == ("wildcard_repeat", "huang", "wildcard_repeat")


def test_dealer_keeps_the_deal_on_a_win_and_passes_it_when_another_seat_wins():
    m = Match("rotate")
    finish(m, dealer_wins(m))
    assert m.dealer == 0
    finish(m, next_seat_wins(m))
    assert m.dealer == 1 and m.round_wind == 0


def test_round_wind_advances_when_the_deal_returns_to_seat_0_and_the_match_ends():
    m = Match("winds", rounds=2)
    seen = []
    for _ in range(4):
        h = next_seat_wins(m)
        seen.append((h.dealer, h.context.round_wind, [s["seat_wind"] for s in h.public_view()["seats"]]))
        finish(m, h)
    assert [s[:2] for s in seen] == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert seen[1][2] == [3, 0, 1, 2]  # seat winds follow play order from the dealer
    assert m.dealer == 0 and m.round_wind == 1 and not m.over  # 南 round
    for _ in range(4):
        finish(m, next_seat_wins(m))
    assert m.over and m.round_wind == 2 and len(m.results) == 8
    with pytest.raises(IllegalAction) as err:
        m.next_hand()
    assert err.value.code == "match_over"


def test_one_round_is_the_default_match_length():
    m = Match("len")
    assert m.rounds == 1
    for _ in range(4):
        finish(m, next_seat_wins(m))
    assert m.over


def test_previous_wildcard_makes_wildcard_repeat():
    m = Match("repeat")
    finish(m, dealer_wins(m))
    assert m.previous_wildcard == 26  # 9s
    h = scripted_next(m, {}, indicator="9s")
    assert "wildcard_repeat" in h.queue
    h2 = scripted_next(m, {}, indicator="8s")
    assert "wildcard_repeat" not in h2.queue


def test_finish_hand_checks_the_hand():
    m = Match("checks")
    h = m.next_hand()
    with pytest.raises(IllegalAction) as err:
        m.finish_hand(h)
    assert err.value.code == "not_ended"
    other = Match("other").next_hand()
    with pytest.raises(IllegalAction) as err:
        m.finish_hand(other)
    assert err.value.code == "wrong_hand"


def test_next_hand_is_deterministic_and_survives_a_json_round_trip():
    m = Match(12345, stake=3, fee=2)
    finish(m, next_seat_wins(m))
    a = m.next_hand()
    again = Match.from_json(json.loads(json.dumps(m.to_json())))
    assert again.to_json() == m.to_json()
    b = again.next_hand()
    assert a.events_json() == b.events_json()
    assert a.context.hand_number == 2 and a.context.stake == 3 and a.context.dealer == 1
    assert a.hand_id == f"{m.match_id}-2"


def test_a_whole_match_with_default_actions_keeps_silver_balanced():
    m = Match("whole", fee=1, max_hands=6)
    balances = [500, 500, 500, None]
    hands = 0
    while not m.over:
        h = m.next_hand()
        while not h.ended:
            s = min(h.pending())
            acts = h.legal_actions(s)
            win = [a for a in acts if a.type.value in ("hu", "tsumo")]
            h.apply(win[0] if win else h.default_action(s))
        st = h.settle(balances, fee=m.fee)
        assert sum(st.deltas) + st.house_delta == 0
        balances = [None if b is None else b + d for b, d in zip(balances, st.deltas, strict=True)]
        m.finish_hand(h)
        hands += 1
    assert hands == len(m.results) == 6
    assert m.totals()[:3] == [b - 500 for b in balances[:3]]


def test_ends_with_tells_beforehand_which_hand_ends_the_match():
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand

    # RULES A7: the last hand's result says its cumulative 番 are dropped; it must know before the match does
    for seed, kw in (("ends-1", {}), ("ends-2", {"rounds": 2}), ("ends-3", {"max_hands": 3}),
                     ("ends-4", {"ruleset": "caishen", "rounds": 1})):
        m = Match(seed, **kw)
        players = [make_player("normal", f"{seed}/{i}") for i in range(4)]
        while not m.over:
            h = play_hand(m.next_hand(), players)
            h.settle([None] * 4)
            ends = m.ends_with(h)
            m.finish_hand(h)
            assert ends == m.over, (seed, m.hand_number)


def test_a_duplicate_match_passes_the_deal_every_hand_and_carries_no_cumulative_fan():
    """Duplicate events (docs/tournaments.md): hand n of every table on one secret is the same deal — the same
    wall to the same dealer in the same context — whatever the tables' players did before."""
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand

    def play(levels: list[str], duplicate: bool) -> Match:
        m = Match("dup-secret", max_hands=8, rounds=99, match_id="".join(lv[0] for lv in levels), duplicate=duplicate)
        bots = [make_player(lv, f"dup/seat/{s}") for s, lv in enumerate(levels)]
        while not m.over:
            hand = play_hand(m.next_hand(), bots)
            hand.settle([None] * 4, fee=0)
            m.finish_hand(hand)
            assert m.queue == () or not duplicate
            m = Match.from_json(m.to_json()) if len(m.results) == 3 else m  # a restart keeps the mode
        return m

    a = play(["hard", "easy", "hard", "easy"], True)
    b = play(["easy", "hard", "easy", "hard"], True)
    assert [r["dealer"] for r in a.results] == [r["dealer"] for r in b.results] == [0, 1, 2, 3, 0, 1, 2, 3]
    # without it, a dealer who wins (or a drawn hand) keeps the deal: these tables part ways
    plain = play(["hard", "easy", "hard", "easy"], False)
    kept = [n for n, r in enumerate(plain.results[:-1]) if r["drawn_game"] or r["winner"] == r["dealer"]]
    assert kept and [r["dealer"] for r in plain.results] != [0, 1, 2, 3, 0, 1, 2, 3]
    assert "duplicate" not in plain.to_json()  # an ordinary match's stored state is unchanged
