"""The review's sanity, small (bench/review_sanity.py prints the full figures; docs/coach.md): a lone guest
wind beside a complete run is never flagged the wrong way round; on the same decisions easy's choices agree less
with the expert and lose more silver than normal's, normal's than hard's. (The expert's own hands agreeing:
tests/coach/test_evaluator.py, the review finds every choice the expert made.)"""

from __future__ import annotations

from jxbot.coach import review as rv
from jxbot.coach.sanity import obvious_pair, paired, play


def test_easy_agrees_less_than_normal_and_normal_than_hard() -> None:
    """The first 40 decisions of the bench's first hand (seed 1: one seat of each level), each judged for
    a hard, a normal and an easy player shadowing that seat: on the same positions the levels' figures
    differ by their choices alone (deterministic: the seeds and the work per decision are fixed)."""
    r = paired(1, "jiaxing", 150, limit=40)
    assert {lv: r[lv]["decisions"] for lv in r} == {"hard": 40, "normal": 40, "easy": 40}
    agreed = {lv: r[lv]["agreed"] for lv in r}
    assert agreed["easy"] < agreed["normal"] < agreed["hard"], agreed


def test_easy_loses_more_than_normal_and_hard_on_the_same_positions() -> None:
    """The first 60 decisions of two more hands, judged for the three shadows: the easy player's choices lose
    more silver than the normal's and the hard's. (Normal against hard — 0.10 against 0.07 silver a decision on
    the bench's 1,610 positions — needs more decisions than a test can afford: bench/review_sanity.py checks
    the whole order; docs/coach.md.)"""
    lost = {"hard": 0.0, "normal": 0.0, "easy": 0.0}
    for seed in (2, 3):
        r = paired(seed, "jiaxing", 150, limit=60)
        for lv in lost:
            lost[lv] += r[lv]["lost"]
    assert lost["easy"] > lost["normal"] and lost["easy"] > lost["hard"], lost


def test_an_obvious_move_is_never_flagged_the_wrong_way_round() -> None:
    """A guest wind, the hand's only honour, beside a complete run in the suit the hand plays, in the opening
    (jxbot.coach.sanity.obvious_pair): both moves valued on the same worlds, throwing the wind is never called a
    loss while breaking the run passes. Such decisions are rare (~1 in 25 hands of four normal players): the
    hands are scanned until a dozen are found."""
    found = 0
    for seed in range(400):
        events, _ = play(seed, levels=["normal"] * 4)
        for seat in range(4):
            for p in rv.decision_points(events, seat):
                pair = obvious_pair(p.view) if p.view.get("phase") == "turn" else None
                if pair is None:
                    continue
                honour, set_tile = pair
                throw = rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": honour})
                brk = rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": set_tile})
                cands = rv.expert(throw, seed, 120, extra=[brk.played])  # both moves valued, same worlds
                assert {rv.action_key(x.played) for x in (throw, brk)} <= {rv.action_key(c["action"]) for c in cands}
                t, b = rv.judge(throw, cands), rv.judge(brk, cands)
                assert not (t["loss"] > 0 and b["loss"] == 0), (t, b)  # the wind's throw flagged, the break not
                found += 1
                if found >= 12:
                    return
    assert found >= 6, found


def test_only_a_guest_wind_in_the_opening_beside_a_run_of_the_hand_s_suit_is_obvious() -> None:
    """The seat's or the round's wind (a pung of it scores), a wind beside other honours (混一色), a run in a suit
    the hand does not play (its melds count), or a late decision (defence) are not obvious moves."""
    base = {"viewer": 1, "dealer": 0, "round_wind": 0, "wildcard": 33, "drawn": None,
            "seats": [{"melds": [], "discards": []} for _ in range(4)]}
    # 1-2-3m run, 5m 7m 9m, 2p 5p, a lone West (guest wind of the south seat in the east round)
    hand = [0, 1, 2, 4, 6, 8, 10, 13, 29]
    assert obvious_pair({**base, "hand": hand}) == (29, 1)
    assert obvious_pair({**base, "hand": [t if t != 29 else 28 for t in hand]}) is None  # South: the seat's wind
    assert obvious_pair({**base, "hand": [t if t != 29 else 27 for t in hand]}) is None  # East: the round's wind
    assert obvious_pair({**base, "hand": hand + [31]}) is None  # another honour beside it
    seats = [{"melds": [], "discards": []} for _ in range(4)]
    seats[1] = {"melds": [{"kind": "pung", "tiles": [16, 16, 16]}, {"kind": "pung", "tiles": [17, 17, 17]}],
                "discards": []}
    assert obvious_pair({**base, "seats": seats, "hand": [0, 1, 2, 10, 11, 29]}) is None  # the hand plays pin
    late = [{"melds": [], "discards": [{"tile": 9}] * 7} if i == 1 else {"melds": [], "discards": []}
            for i in range(4)]
    assert obvious_pair({**base, "seats": late, "hand": hand}) is None  # past the opening
