"""The "halves" pairing tried for the duplicate format, against the one it uses (issue 32; docs/tournaments.md
"Simulation").

From round 2 on, a duplicate round cuts the standings into an upper and a lower half; every table gets two
players of each half (tables of like strength), and at every seat the tables alternate upper and lower, so each
seat's *rivals* (the players holding that seat on the same wall at the other tables) are mostly of the other
half — what ``bench/duplicate_rivals.py`` measured as the duplicate score's best case when the halves are the
levels. Repeat meetings are avoided first (as the real pairing does), ties go to the balanced table (the best
upper player left with the lowest upper, the best lower and the lowest lower). Round 1 is the real one.

The events are ``jxbot tournament simulate``'s (the same field, secrets, walls, scoring and standings code):
Swiss, duplicate with the real pairing (bands), duplicate with halves, each event played in all three, so the
differences are given event by event. For reference only, ``oracle``: the halves cut by the computers' levels
instead of the standings (no event knows them): the most the halves pairing could give. Also printed: the share of rival pairs (two tables' players at one seat)
of different levels, by round, and the figure after each round.

    python bench/duplicate_halves.py --players 8 --hands 1 --events 200 [--rounds 3] [--seed s2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jxbot.events import rounds, simulate  # noqa: E402
from jxbot.events.fairness import table_secret  # noqa: E402
from jxbot.events.model import Player, TableRecord  # noqa: E402
from jxbot.events.pairing import WINDOW, met_pairs, seat_order  # noqa: E402
from jxbot.events.scoring import standings  # noqa: E402


def pair_halves(ranked: Sequence[int], met: Mapping[int, set[int]]) -> list[list[int]]:
    """Tables in seat-pattern order: table ``k``'s upper-half players in places 0 and 2 when ``k`` is even, 1 and
    3 when odd (the same seat rotation is then applied at every table, which keeps the alternation)."""
    half = len(ranked) // 2
    upper, lower = list(ranked[:half]), list(ranked[half:])
    tables: list[list[int]] = []
    while upper:
        top, ups = upper[0], upper[1:]
        n = len(lower)
        u_cands = range(max(0, len(ups) - WINDOW), len(ups))
        l_pairs = [(i, j) for i in range(min(WINDOW, n)) for j in range(max(0, n - WINDOW), n) if i < j]
        best: tuple[tuple[int, int], tuple[int, int, int]] | None = None
        for u in u_cands:
            for i, j in l_pairs:
                group = (top, ups[u], lower[i], lower[j])
                repeats = sum(1 for a, b in combinations(group, 2) if b in met.get(a, ()))
                key = (repeats, (len(ups) - 1 - u) + i + (n - 1 - j))
                if best is None or key < best[0]:
                    best = (key, (u, i, j))
        assert best is not None
        u, i, j = best[1]
        hi, lo = [top, ups[u]], [lower[i], lower[j]]
        tables.append([lo[0], hi[0], lo[1], hi[1]] if len(tables) % 2 else [hi[0], lo[0], hi[1], lo[1]])
        upper = [p for k, p in enumerate(ups) if k != u]
        lower = [p for k, p in enumerate(lower) if k not in (i, j)]
    return tables


def plan_halves(players: Sequence[Player], tables: Sequence[TableRecord], round_no: int, fmt: str,
                secret: str) -> list[rounds.TablePlan]:
    """``rounds.plan_round`` with the halves pairing from round 2 on in the duplicate format."""
    if fmt != "duplicate" or round_no == 1:
        return rounds.plan_round(players, tables, round_no, fmt, secret)
    ranked = rounds.ranking(players, tables, fmt, secret)
    groups = pair_halves(ranked, met_pairs([t.players for t in tables]))
    return [rounds.TablePlan(round_no, k, seat_order(g, round_no), table_secret(secret, round_no, k, fmt))
            for k, g in enumerate(groups)]


def plan_oracle(level: Mapping[int, str]) -> Any:
    """A reference, not a pairing an event could use: halves cut by the computers' levels (the strong level
    first, each in standings order) instead of the standings — the best case of the halves pairing."""
    def plan(players: Sequence[Player], tables: Sequence[TableRecord], round_no: int, fmt: str,
             secret: str) -> list[rounds.TablePlan]:
        if fmt != "duplicate" or round_no == 1:
            return rounds.plan_round(players, tables, round_no, fmt, secret)
        ranked = rounds.ranking(players, tables, fmt, secret)
        ranked.sort(key=lambda p: level.get(p) != "hard")  # stable: standings order within each level
        groups = pair_halves(ranked, met_pairs([t.players for t in tables]))
        return [rounds.TablePlan(round_no, k, seat_order(g, round_no), table_secret(secret, round_no, k, fmt))
                for k, g in enumerate(groups)]
    return plan


def interval(xs: Sequence[float]) -> list[float]:
    m = statistics.mean(xs)
    h = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return [round(100 * (m - h), 1), round(100 * (m + h), 1)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hands", type=int, default=1)
    ap.add_argument("--events", type=int, default=60)
    ap.add_argument("--seed", default="s2")
    args = ap.parse_args()
    t0 = time.process_time()
    n, r_max = args.players, args.rounds
    level = {i + 1: "hard" if i % 2 == 0 else "easy" for i in range(n)}  # as simulate() registers them
    field = [Player(pid, f"x{pid}", order=pid - 1) for pid in level]
    field += rounds.fillers(n, "normal")
    levels = dict(level) | {p.pid: "normal" for p in field if p.is_computer}
    real_plan = simulate.plan_round
    runs: dict[str, dict[str, list[Any]]] = {}
    for name, fmt, plan in (("swiss", "swiss", real_plan), ("bands", "duplicate", real_plan),
                            ("halves", "duplicate", plan_halves), ("oracle", "duplicate", plan_oracle(level))):
        simulate.plan_round = plan  # type: ignore[assignment]  # what play_event pairs with
        final: list[float] = []
        after = [[] for _ in range(r_max)]  # type: list[list[float]]
        opposite = [[] for _ in range(r_max)]  # type: list[list[float]]
        try:
            for e in range(args.events):
                tables, ranked = simulate.play_event(field, levels, fmt, r_max, f"{args.seed}/event/{e}",
                                                     hands=args.hands)
                final.append(simulate.hard_above_easy(ranked, level))
                for r in range(1, r_max + 1):
                    ts = [t for t in tables if t.round == r]
                    pairs = [(a.players[s], b.players[s]) for s in range(4) for a, b in combinations(ts, 2)]
                    opposite[r - 1].append(sum(levels[x] != levels[y] for x, y in pairs) / max(1, len(pairs)))
                    after[r - 1].append(simulate.hard_above_easy(
                        standings(field, [t for t in tables if t.round <= r], fmt), level))
        finally:
            simulate.plan_round = real_plan  # type: ignore[assignment]
        runs[name] = {"final": final, "after": after, "opposite": opposite}
    out: dict[str, Any] = {"bench": "duplicate_halves", "players": n, "rounds": r_max, "hands": args.hands,
                           "events": args.events, "seed": args.seed}
    for name, run in runs.items():
        out[name] = {"hard_above_easy": round(100 * statistics.mean(run["final"]), 1),
                     "interval95": interval(run["final"]),
                     "after_round": [round(100 * statistics.mean(x), 1) for x in run["after"]],
                     "rivals_of_other_level": [round(100 * statistics.mean(x), 1) for x in run["opposite"]]}
    for a, b in (("bands", "swiss"), ("halves", "swiss"), ("halves", "bands"), ("oracle", "swiss")):
        diff = [x - y for x, y in zip(runs[a]["final"], runs[b]["final"], strict=True)]
        out[f"{a}_minus_{b}"] = {"mean": round(100 * statistics.mean(diff), 1), "interval95": interval(diff)}
    out["cpu_seconds"] = round(time.process_time() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
