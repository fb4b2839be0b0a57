"""Where the duplicate format's separating power comes from (issue 32; docs/tournaments.md "Simulation").

Two tables play each wall (one hand, the same wall at both, as a duplicate round deals it); eight computers,
four ``--strong`` and four ``--weak``. The same hands are scored both ways: Swiss (a seat's result) and
duplicate (its result minus the average of the same seat over the two tables). The figure is the share of
(strong, weak) pairs in which the strong computer scores above the weak one (ties half), over ``--walls``
walls, under two arrangements of the eight:

* ``rivals``: every table two strong and two weak, and each seat's rival — the player holding the same seat
  on the same wall at the other table — of the other level (table A strong, weak, strong, weak; table B weak,
  strong, weak, strong): what a duplicate event would arrange if it knew who is stronger;
* ``random``: the eight seated at random (a new draw per wall), as round 1 of an event seats them.

It also prints the correlation of the same seat's results across the two tables (the luck the wall carries).

    python bench/duplicate_rivals.py [--walls 1000] [--strong hard] [--weak easy] [--seed rivals]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.ai.players import make_player  # noqa: E402
from jxbot.ai.selfplay import play_hand  # noqa: E402
from jxbot.game import Match  # noqa: E402


def play_table(secret: str, name: str, levels: list[str]) -> list[int]:
    """One hand of the wall ``secret`` at table ``name``: the seats' results (silver, stake 1, no fee)."""
    m = Match(secret, max_hands=1, rounds=99, match_id=name, duplicate=True)
    # a computer's random choices follow from the wall and its seat, as in an event (jxbot/events/simulate.py)
    bots = [make_player(levels[s], f"{secret}/seat/{s}") for s in range(4)]
    hand = play_hand(m.next_hand(), bots)
    return list(hand.settle([None] * 4, fee=0).deltas)


def share(rows: list[tuple[list[str], list[str], list[int], list[int]]], strong: str, dup: bool) -> float:
    won = n = 0.0
    for la, lb, xa, xb in rows:
        people = [(lv, x - ((x + y) / 2 if dup else 0)) for lv, x, y in zip(la, xa, xb, strict=True)]
        people += [(lv, y - ((x + y) / 2 if dup else 0)) for lv, x, y in zip(lb, xa, xb, strict=True)]
        hi = [s for lv, s in people if lv == strong]
        lo = [s for lv, s in people if lv != strong]
        for h in hi:
            for e in lo:
                won += 1.0 if h > e else 0.5 if h == e else 0.0
                n += 1
    return round(won / n, 4)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--walls", type=int, default=1000)
    ap.add_argument("--strong", default="hard")
    ap.add_argument("--weak", default="easy")
    ap.add_argument("--seed", default="rivals")
    args = ap.parse_args()
    t0 = time.process_time()
    s, w = args.strong, args.weak
    out: dict = {"bench": "duplicate_rivals", "walls": args.walls, "strong": s, "weak": w, "seed": args.seed}
    draw = random.Random(args.seed)
    for arrangement in ("rivals", "random"):
        rows = []
        for i in range(args.walls):
            if arrangement == "rivals":
                la, lb = [s, w, s, w], [w, s, w, s]
            else:
                field = [s] * 4 + [w] * 4
                draw.shuffle(field)
                la, lb = field[:4], field[4:]
            secret = f"{args.seed}/wall/{i}"
            rows.append((la, lb, play_table(secret, "A", la), play_table(secret, "B", lb)))
        xa = [x for r in rows for x in r[2]]
        xb = [x for r in rows for x in r[3]]
        out[arrangement] = {"swiss": share(rows, s, False), "duplicate": share(rows, s, True),
                            "same_seat_correlation": round(statistics.correlation(xa, xb), 3)}
    out["cpu_seconds"] = round(time.process_time() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
