"""Benchmark of jxbot.game: random legal agents play whole hands. Prints ONE JSON line.

Figures: hands/s (live play with uniform random legal agents, one core), events per hand, bytes of the
event JSON per hand (private log as stored, and the public projection), replay speed, and the number of
hands breaking an invariant (tile census, zero-sum settlement, replay equal to live: must be 0).
Usage: python bench/game.py [hands]   (default 2000)
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

from jxbot.game import Hand, HandContext


def play(seed: int, rng: random.Random) -> tuple[Hand, int]:
    h = Hand.new(seed, context=HandContext(hand_id=f"b{seed}", dealer=seed % 4))
    actions = 0
    while not h.ended:
        seat = rng.choice(sorted(h.pending()))
        h.apply(rng.choice(h.legal_actions(seat)))
        actions += 1
    return h, actions


def main(n: int = 2000) -> dict:
    rng = random.Random(1)
    t0 = time.perf_counter()
    played = [play(seed, rng) for seed in range(n)]
    live = time.perf_counter() - t0
    hands = [h for h, _ in played]
    logs = [h.events_json() for h in hands]
    t1 = time.perf_counter()
    replayed = [Hand.replay(log) for log in logs]
    replay = time.perf_counter() - t1
    violations = 0
    for h, again in zip(hands, replayed, strict=True):
        st = h.settle([rng.choice([None, 0, 40, 5000]) for _ in range(4)], fee=rng.choice([0, 2]))
        ok = (h.tile_census() == [4] * 34 and sum(st.deltas) + st.house_delta == 0
              and all(t.payee is None for t in st.transfers if t.reason == "fee")
              and [again.view(s) for s in range(4)] == [h.view(s) for s in range(4)]
              and again.public_view() == h.public_view())
        violations += not ok
    sizes = [len(json.dumps(log, separators=(",", ":"))) for log in logs]
    public = [len(json.dumps(h.public_events(), separators=(",", ":"))) for h in hands]
    events = [len(log) for log in logs]
    wins = sum(1 for h in hands if h.result.winner is not None)
    return {
        "bench": "game",
        "hands": n,
        "agents": "uniform random legal",
        "hands_per_second": round(n / live, 1),
        "actions_per_second": round(sum(a for _, a in played) / live),
        "replay_hands_per_second": round(n / replay, 1),
        "events_per_hand": round(statistics.mean(events), 1),
        "event_json_bytes_per_hand": round(statistics.mean(sizes)),
        "event_json_bytes_per_hand_max": max(sizes),
        "public_event_json_bytes_per_hand": round(statistics.mean(public)),
        "win_share": round(wins / n, 3),
        "invariant_violations": violations,  # census, zero-sum settlement, replay == live
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)))
