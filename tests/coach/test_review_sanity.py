"""The review's sanity, small (bench/review_sanity.py prints the full figures; docs/coach.md): a lone honour
beside a complete run is never flagged the wrong way round. (The expert's own agreement ≥ 95 % is not met yet —
docs/coach.md, 'Sanity' — so it is printed by the bench, not asserted here.)"""

from __future__ import annotations

from jxbot.coach import review as rv
from jxbot.coach.sanity import obvious_pair, play


def test_an_obvious_move_is_never_flagged_the_wrong_way_round() -> None:
    found = 0
    for seed in range(40):
        events, _ = play(seed, levels=["normal"] * 4)
        for seat in range(4):
            for p in rv.decision_points(events, seat):
                pair = obvious_pair(p.view) if p.view.get("phase") == "turn" else None
                if pair is None:
                    continue
                honour, set_tile = pair
                throw = rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": honour})
                brk = rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": set_tile})
                cands = rv.expert(throw, seed, 120)
                t, b = rv.judge(throw, cands), rv.judge(brk, cands)
                assert not (t["loss"] > 0 and b["loss"] == 0), (t, b)  # the honour's throw flagged, the break not
                found += 1
                if found >= 12:
                    return
    assert found >= 6, found
