"""Does the ``normal`` player's 漂財 (floating a 財神) pay at a caishen table? One JSON line.

Self-play, ``normal`` at seat 0 against three ``easy`` players, the same seeds for every variant; the
variants differ only in ``jxbot.ai.caishen.FLOAT_MIN_SHARE`` (the chance the next draw must win before
the player gives up a ×2 self-draw to float; ``never`` turns floating off). For each variant: how many
财神 seat 0 floated, how many of those floats ended in its 漂財 win, and its points over the run — the
difference to ``never`` is what floating earned (RULES B5: 漂財 once ×8, twice ×16).

Run: ``python3 bench/caishen_float.py [--hands N] [--seed S] [--shares 0.15,0.25,0.35]``.
"""

from __future__ import annotations

import argparse
import json
import time


def run(hands: int, seed: str, share: float | None) -> dict:
    from jxbot.ai import caishen as ai_cs
    from jxbot.ai.players import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Match
    from jxbot.game import events as ev

    old = ai_cs.FLOAT_MIN_SHARE
    ai_cs.FLOAT_MIN_SHARE = 2.0 if share is None else share  # 2.0: never reached
    try:
        floats = float_wins = points = done = m = 0
        t0 = time.perf_counter()
        while done < hands:
            match = Match(f"{seed}/match/{m}", ruleset="caishen")
            seats = [make_player(lv, f"{seed}/match/{m}/seat/{i}")
                     for i, lv in enumerate(("normal", "easy", "easy", "easy"))]
            m += 1
            while not match.over and done < hands:
                hand = match.next_hand()
                play_hand(hand, seats)
                s = hand.settle([None] * 4)
                done += 1
                points += s.deltas[0]
                wc = hand.wildcard
                floats += sum(1 for e in hand.events if isinstance(e, ev.Discarded) and e.seat == 0 and e.tile == wc)
                r = hand.result
                if r is not None and r.winner == 0 and r.score is not None and any(
                        p.startswith("piao_cai") for p in r.score.patterns):
                    float_wins += 1
                match.finish_hand(hand)
        return {"hands": done, "floats": floats, "float_wins": float_wins, "points_seat0": points,
                "seconds": round(time.perf_counter() - t0, 1)}
    finally:
        ai_cs.FLOAT_MIN_SHARE = old


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--seed", default="float")
    ap.add_argument("--shares", default="0.15,0.25,0.35")
    args = ap.parse_args()
    from jxbot.ai import caishen as ai_cs

    out: dict = {"hands": args.hands, "current_share": ai_cs.FLOAT_MIN_SHARE, "variants": {}}
    base = run(args.hands, args.seed, None)
    out["variants"]["never"] = base
    for text in args.shares.split(","):
        share = float(text)
        r = run(args.hands, args.seed, share)
        r["gain_vs_never"] = r["points_seat0"] - base["points_seat0"]
        out["variants"][text] = r
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
