"""Freeze the game's behaviour: a sha256 over every hand's event log in fixed-seed self-play.

    python3 bench/eventlog_hash.py --ruleset jiaxing --hands 2000 --seed S [--players normal,normal,normal,normal]

Plays the hands the way ``jxbot simulate`` does (``jxbot.ai.selfplay.play_hand``: matches of the
ruleset's default length chained until ``--hands`` hands are done, seats house-backed, no fee), in
two mixes of computer levels so that the logs cover claims, kongs, contracts and robbed kongs: the
first half with four ``normal`` players, the second half with ``normal,easy,easy,easy`` (the easy
players claim and kong more). ``--players`` plays all hands with one mix instead; ``--rounds N``
makes matches N wind rounds long (caishen players redraw seats only in a match longer than one 版).

For each hand the canonical JSON (sorted keys, no spaces) of its full event log and of the match's
result record (dealer rotation, reseating, the cumulative queue carried on) is fed to the hash.
Prints one JSON line: ruleset, seed, hands, players, sha256, counts of what the logs covered, seconds.
The hashes recorded in docs/rulesets.md were measured on main before the rulesets moved into their
packages (issue 16); the same command must print the same hash after any pure refactoring.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from jxbot.ai.players import make_player  # noqa: E402
from jxbot.ai.selfplay import play_hand  # noqa: E402
from jxbot.game import Match  # noqa: E402

MIXES = (["normal"] * 4, ["normal", "easy", "easy", "easy"])


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def run(ruleset: str, hands: int, seed: str, mixes: list[list[str]], rounds: int | None = None) -> dict[str, Any]:
    h = hashlib.sha256()
    counts: dict[str, int] = {}
    t0 = time.perf_counter()
    done = 0
    for k, players in enumerate(mixes):
        want = hands // len(mixes) + (1 if k < hands % len(mixes) else 0)
        got = 0
        m = 0
        while got < want:
            mseed = f"{seed}/mix/{k}/match/{m}"
            match = Match(mseed, ruleset=ruleset, rounds=rounds)
            seats = [make_player(lv, f"{mseed}/seat/{i}") for i, lv in enumerate(players)]
            m += 1
            while not match.over and got < want:
                hand = play_hand(match.next_hand(), seats)
                hand.settle([None] * 4, fee=0)
                rec = match.finish_hand(hand)
                for e in hand.events_json():
                    counts[e["type"]] = counts.get(e["type"], 0) + 1
                    if e["type"] == "claimed":
                        kind = f"claimed:{e.get('kind')}"
                        counts[kind] = counts.get(kind, 0) + 1
                    if e["type"] == "won" and e.get("robbed_from") is not None:
                        counts["won:robbed_kong"] = counts.get("won:robbed_kong", 0) + 1
                if "reseat" in rec:
                    counts["reseat"] = counts.get("reseat", 0) + 1
                h.update(canonical(hand.events_json()))
                h.update(canonical(rec))
                got += 1
                done += 1
    return {"ruleset": ruleset, "seed": seed, "hands": done, "players": [",".join(p) for p in mixes],
            "sha256": h.hexdigest(), "events": dict(sorted(counts.items())),
            "seconds": round(time.perf_counter() - t0, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="jiaxing", help="ruleset name (default jiaxing)")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", default="freeze16")
    ap.add_argument("--players", default=None, help="one mix of four levels instead of the two default mixes")
    ap.add_argument("--rounds", type=int, default=None,
                    help="wind rounds per match (default: the ruleset's); caishen reseats only past 4")
    a = ap.parse_args(argv)
    mixes = [a.players.split(",")] if a.players else [list(m) for m in MIXES]
    out = run(a.ruleset, a.hands, a.seed, mixes, a.rounds)
    if a.rounds is not None:
        out["rounds"] = a.rounds
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
