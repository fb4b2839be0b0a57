"""Does the ``normal`` player's 漂財 (floating a 財神) pay at a caishen table? One JSON line.

Self-play, ``normal`` at seat 0 against three ``easy`` players, seat 0 never floating. At every
decision where seat 0 could float instead of taking a ×2 self-draw (the conditions of
``jxbot.rulesets.caishen.ai._float_instead`` without its chance threshold: the hand stays ready, ≥ 16 tiles
left), the hand is copied twice and played out both ways with copies of the four players: take the
win, or float the 財神. The wall is fixed, so the pair is a like-for-like comparison of that hand's
outcome for seat 0 (later hands are not followed). Opportunities are grouped by the chance ``p`` that
the next draw wins (the figure the player's threshold ``FLOAT_MIN_SHARE`` is compared with); for each
group: how many, how many floats won, and the mean gain of floating over winning, in points of seat 0.

RULES B5 (revised): 漂財 once is worth ×8 (a total), against ×2 for the plain self-draw given up.

Run: ``python3 bench/caishen_float.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import copy
import json
import time

BUCKETS = (0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 1.01)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", default="float")
    args = ap.parse_args()

    from jxbot.ai.players import _Table, make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Action, ActionType, Hand, Match
    from jxbot.rulesets.caishen import ai as ai_cs
    from jxbot.rulesets.caishen.rules import WILD

    threshold = ai_cs.FLOAT_MIN_SHARE
    rows: list[tuple[float, int, bool]] = []  # (p, gain of floating over winning, the float won)

    def outcome(hand: Hand, action: Action, players: list) -> tuple[int, bool]:
        h = Hand.replay(hand.events)
        h.apply(action)
        play_hand(h, players)
        r = h.result
        won = r is not None and r.winner == 0 and r.score is not None and any(
            p.startswith("piao_cai") for p in r.score.patterns)
        return h.settle([None] * 4).deltas[0], won

    class Probe:
        """Seat 0: a ``normal`` player that never floats, measuring each chance to."""

        def __init__(self, inner: object) -> None:
            self.inner = inner
            self.level = "normal"
            self.hand: Hand | None = None
            self.others: list = []

        def choose(self, view: dict) -> Action:
            tb = _Table(view)
            if "tsumo" in tb.by_type and self.hand is not None:
                ai_cs.FLOAT_MIN_SHARE = 0.0
                try:
                    f = ai_cs._float_instead(tb)
                finally:
                    ai_cs.FLOAT_MIN_SHARE = 2.0
                if f is not None:
                    rest = ai_cs._faced(tb.hand, tb.wild)
                    rest.remove(WILD)
                    un = tb.unseen
                    p = ai_cs._ukeire(rest, len(tb.melds), 0, un, tb.wild) / max(1, sum(un))
                    win = Action(ActionType.TSUMO, 0, view["drawn"])
                    flt = Action(ActionType.DISCARD, 0, f["tile"])
                    a, _ = outcome(self.hand, win, copy.deepcopy([self.inner, *self.others]))
                    b, won = outcome(self.hand, flt, copy.deepcopy([self.inner, *self.others]))
                    rows.append((p, b - a, won))
            return self.inner.choose(view)  # type: ignore[attr-defined]

    t0 = time.perf_counter()
    ai_cs.FLOAT_MIN_SHARE = 2.0  # the main line never floats
    try:
        done = m = 0
        while done < args.hands:
            match = Match(f"{args.seed}/match/{m}", ruleset="caishen")
            inner = make_player("normal", f"{args.seed}/match/{m}/seat/0")
            probe = Probe(inner)
            others = [make_player("easy", f"{args.seed}/match/{m}/seat/{i}") for i in (1, 2, 3)]
            probe.others = others
            m += 1
            while not match.over and done < args.hands:
                hand = match.next_hand()
                probe.hand = hand
                play_hand(hand, [probe, *others])  # type: ignore[list-item]
                hand.settle([None] * 4)
                done += 1
                match.finish_hand(hand)
    finally:
        ai_cs.FLOAT_MIN_SHARE = threshold
    groups = []
    for lo, hi in zip(BUCKETS, BUCKETS[1:], strict=False):
        sel = [r for r in rows if lo <= r[0] < hi]
        groups.append({"p_from": lo, "p_to": min(hi, 1.0), "chances": len(sel),
                       "float_wins": sum(1 for r in sel if r[2]),
                       "mean_gain": round(sum(r[1] for r in sel) / len(sel), 2) if sel else None})
    above = [r for r in rows if r[0] >= threshold]
    below = [r for r in rows if r[0] < threshold]
    print(json.dumps({
        "hands": done, "threshold": threshold, "chances": len(rows), "groups": groups,
        "gain_of_floats_taken": sum(r[1] for r in above), "gain_of_floats_refused": sum(r[1] for r in below),
        "seconds": round(time.perf_counter() - t0, 1),
    }, sort_keys=True))


if __name__ == "__main__":
    main()
