"""What the expert's overrides are worth, judged by an oracle of many worlds (issue 30; docs/ai.md "Why the
expert is not ahead").

Four hard players play ``--hands`` hands; in hand ``h`` seat ``h % 4`` is watched. At each of its decisions with
a real choice the shipped expert is asked what it would play there (``expert_choice``: the hard player's proposal,
overruled by its playouts when they say so clearly); the hand goes on with the hard player's move, so the
positions are the ones a hard player meets. Wherever the expert would leave the proposal, both moves are played
out in ``--oracle-worlds`` worlds drawn from the seat's view (never the real wall), **every seat playing hard**
(the field of ``jxbot duel --field hard``) and the watched seat carrying its hard target: the paired gain of the
override over the proposal, with its standard error. The duel measures the same thing with one real outcome a
hand; the oracle averages many worlds a decision, so a few hundred decisions say what thousands of duel hands
would.

Printed (JSON): how often the expert overrides, the oracle's mean gain of an override with its 95 % interval,
the gain per hand it implies, and the spread of one world's paired difference (``world_sd``, silver), from which
``worlds_for_0_3`` — how many worlds one decision would need to tell a 0.3-silver difference at 95 %.

    python bench/expert_oracle.py [--ruleset jiaxing] [--hands 16] [--oracle-worlds 100] [--seed orc] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.ai import expert  # noqa: E402
from jxbot.ai.hard import HardPlayer  # noqa: E402
from jxbot.ai.montecarlo import action_key, evaluate_view  # noqa: E402
from jxbot.game import Hand  # noqa: E402
from jxbot.game.actions import action_from_json  # noqa: E402
from jxbot.game.hand import HandContext  # noqa: E402

Z95 = 1.959963984540054


def hand_rows(args: tuple[str, str, int, int]) -> list[dict]:
    ruleset, seed, h, worlds = args
    ctx = HandContext(hand_id=f"oracle-{h}", hand_number=1, dealer=0, round_wind=0, stake=1)
    hand = Hand.new(f"{seed}/{h}".encode(), ruleset=ruleset, context=ctx)
    players = [HardPlayer(f"{seed}/{h}/{i}") for i in range(4)]
    me = h % 4
    rows: list[dict] = []
    while hand.phase != "ended":
        seat = min(hand.pending())
        view = hand.view(seat)
        p = players[seat]
        if seat != me or len(view.get("actions") or []) < 2:
            hand.apply(p.choose(view))
            continue
        p._new_hand(view)
        target = p.target
        proposal = p.choose(view).to_json()
        c0 = time.process_time()
        choice = expert.expert_choice(view, target)
        row: dict = {"hand": h, "ms": (time.process_time() - c0) * 1e3, "type": proposal["type"]}
        if action_key(choice) != action_key(proposal):
            ests = evaluate_view(view, seed="oracle/" + expert.view_seed(view), worlds=worlds,
                                 actions=[proposal, choice], policy="hard", own_policy="hard", own_target=target)
            base = next(e for e in ests if action_key(e.action) == action_key(proposal))
            alt = next(e for e in ests if e is not base)
            diffs = [a - b for a, b in zip(alt.outcomes, base.outcomes, strict=True)]
            row.update(override=choice["type"], gain=statistics.fmean(diffs), world_sd=statistics.stdev(diffs))
        rows.append(row)
        hand.apply(action_from_json(proposal))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="jiaxing")
    ap.add_argument("--hands", type=int, default=16)
    ap.add_argument("--oracle-worlds", type=int, default=100)
    ap.add_argument("--seed", default="orc")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    t0, c0 = time.time(), time.process_time()
    jobs = [(a.ruleset, a.seed, h, a.oracle_worlds) for h in range(a.hands)]
    pool = Pool(a.jobs)
    parts = pool.map(hand_rows, jobs, chunksize=1)
    pool.close()
    pool.join()
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    rows = [r for part in parts for r in part]
    over = [r for r in rows if "gain" in r]
    gains = [r["gain"] for r in over]
    mean = statistics.fmean(gains) if gains else 0.0
    half = Z95 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    sd = statistics.median(r["world_sd"] for r in over) if over else 0.0
    out = {
        "ruleset": a.ruleset, "seed": a.seed, "hands": a.hands, "oracle_worlds": a.oracle_worlds,
        "expert": {"playouts": expert.PLAYOUTS, "margin": expert.MARGIN, "z": expert.Z, "max_steps": expert.MAX_STEPS},
        "decisions": len(rows), "overrides": len(over),
        "override_rate": round(len(over) / len(rows), 4) if rows else 0.0,
        "override_types": sorted({f"{r['type']}->{r['override']}" for r in over}),
        "mean_gain": round(mean, 3), "mean_gain_ci95": [round(mean - half, 3), round(mean + half, 3)],
        "gain_per_hand": round(sum(gains) / a.hands, 3) if a.hands else 0.0,
        "overrides_gaining": sum(1 for g in gains if g > 0),
        "world_sd": round(sd, 2),
        "worlds_for_0_3": math.ceil((Z95 * sd / 0.3) ** 2) if sd else 0,
        "expert_ms_mean": round(statistics.fmean(r["ms"] for r in rows), 1) if rows else 0.0,
        "wall_seconds": round(time.time() - t0, 1),
        "cpu_seconds": round(time.process_time() - c0 + ru.ru_utime + ru.ru_stime, 1),
    }
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
