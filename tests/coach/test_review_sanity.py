"""The review's sanity, small (bench/review_sanity.py prints the full figures; docs/coach.md): the expert's own
decisions agree with the review's expert, an easy player's less; a lone honour beside a complete run is never
flagged the wrong way round."""

from __future__ import annotations

import pytest

from jxbot.coach import review as rv
from jxbot.coach.sanity import obvious_pair, play, review_seat


@pytest.mark.xfail(reason="not met yet (docs/coach.md, 'Sanity'): the expert's own decisions agree 89-90% with the "
                          "review's expert, as its overrides depend on its own playout seed, which a review cannot "
                          "reproduce; the expert level seeding its playouts from the view would fix it", strict=False)
def test_the_experts_own_hands_agree_and_an_easy_players_less() -> None:
    agreed = {"expert": [0, 0], "easy": [0, 0]}
    for seed in (11, 12, 13):
        events, levels = play(seed, levels=["expert", "easy", "expert", "easy"])
        for seat in (0, 1):
            r = review_seat(events, seat, 12 * 300, limit=12)  # the first 12 decisions, 300 ms each
            a = agreed[levels[seat]]
            a[0] += r["agreed"]
            a[1] += r["decisions"]
    expert, easy = (agreed[k][0] / agreed[k][1] for k in ("expert", "easy"))
    assert expert >= 0.95, agreed
    assert easy < expert, agreed


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
