"""The review's sanity figures (bench/review_sanity.py, tests/coach/test_review_sanity.py; docs/coach.md):
self-play hands with one seat of each level, every seat reviewed — agreement and silver lost per level — and
the decisions with an obvious best move (a lone honour beside a complete run) reviewed both ways."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

LEVELS = ("expert", "hard", "normal", "easy")


def play(seed: int, ruleset: str = "jiaxing", levels: list[str] | None = None) -> tuple[list[dict], list[str]]:
    """A self-play hand; by default one seat of each level, rotated with the seed."""
    from jxbot.ai import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Hand

    levels = levels or [LEVELS[(i + seed) % 4] for i in range(4)]
    h = Hand.new(seed, ruleset=ruleset)
    play_hand(h, [make_player(lv, seed * 10 + i) for i, lv in enumerate(levels)])
    return h.events_json(), levels


def obvious_pair(view: dict) -> tuple[int, int] | None:
    """(a lone honour, a tile of a complete set) in the seat's hand when it holds both, else None."""
    hand = list(view.get("hand") or []) + ([view["drawn"]] if view.get("drawn") is not None else [])
    wild = view.get("wildcard")
    c = [0] * 34
    for x in hand:
        c[x] += 1
    if wild is not None and c[wild]:
        return None  # a wildcard in hand makes "complete" a matter of opinion
    honour = next((h for h in range(27, 34) if c[h] == 1), None)
    if honour is None:
        return None
    for suit in range(3):
        for k in range(7):
            x = suit * 9 + k
            if c[x] == c[x + 1] == c[x + 2] == 1 and (k == 0 or c[x - 1] == 0) and (k == 6 or c[x + 3] == 0):
                return honour, x + 1  # the run's middle tile: breaking it leaves two lone tiles
    return None


def review_seat(events: list[dict], seat: int, budget_ms: int, limit: int | None = None) -> dict:
    """One seat reviewed (its whole review within ``budget_ms``), with its obvious decisions judged both ways;
    ``limit``: only its first decisions (the small test)."""
    from jxbot.coach import review as rv

    points = rv.decision_points(events, seat)[:limit]
    per = rv.per_decision_budget(len(points), budget_ms)
    hand_id = events[0]["hand_id"]
    t0 = time.process_time()
    results = [rv.expert(p, rv.seed_of(hand_id, seat, p.n), per) for p in points]
    r = rv.review_points(hand_id, events[0]["ruleset"], seat, points, results)
    obvious = []
    for p, cands in zip(points, results, strict=True):
        if p.view.get("phase") != "turn":
            continue
        pair = obvious_pair(p.view)
        if pair is None:
            continue
        honour, set_tile = pair
        keys = {(c["action"]["type"], c["action"]["tile"]) for c in cands}
        if ("discard", honour) not in keys or ("discard", set_tile) not in keys:  # both valued: re-evaluate
            cands = rv.expert(rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": honour}),
                              rv.seed_of(hand_id, seat, p.n), per)
        throw = rv.judge(rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": honour}), cands)
        brk = rv.judge(rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": set_tile}), cands)
        # the wrong way round: throwing the honour flagged as a loss while breaking the set is not
        wrong = throw["loss"] > 0 and brk["loss"] == 0
        breaks = brk["best"].get("type") == "discard" and brk["best"].get("tile") == set_tile
        obvious.append({"hand": hand_id, "seat": seat, "n": p.n, "honour": honour, "set_tile": set_tile, "wrong": wrong,
                        "expert_breaks_set": breaks})
    return {"seat": seat, "decisions": len(r.decisions), "agreed": sum(d["agree"] for d in r.decisions),
            "lost": r.lost, "cpu_s": time.process_time() - t0, "obvious": obvious}


def job(args: tuple[int, str, int]) -> list[dict]:
    seed, ruleset, budget = args
    events, levels = play(seed, ruleset)
    out = []
    for seat in range(4):
        r = review_seat(events, seat, budget)
        r["level"] = levels[seat]
        out.append(r)
    return out


def run(hands: int, budget_ms: int, jobs: int, seed: int, ruleset: str) -> dict:
    t0 = time.perf_counter()
    work = [(seed + i, ruleset, budget_ms) for i in range(hands)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            rows = [r for part in ex.map(job, work) for r in part]
    else:
        rows = [r for w in work for r in job(w)]
    per: dict[str, dict] = {}
    for r in rows:
        a = per.setdefault(r["level"], {"hands": 0, "decisions": 0, "agreed": 0, "lost": 0.0})
        a["hands"] += 1
        a["decisions"] += r["decisions"]
        a["agreed"] += r["agreed"]
        a["lost"] += r["lost"]
    levels = {}
    for lv in LEVELS:
        got = per.get(lv)
        if not got:
            continue
        levels[lv] = {"hands": got["hands"], "decisions": got["decisions"],
                      "agreement": round(got["agreed"] / got["decisions"], 4) if got["decisions"] else None,
                      "lost_per_hand": round(got["lost"] / got["hands"], 3)}
    obvious = [o for r in rows for o in r["obvious"]]
    cpu = [r["cpu_s"] for r in rows]
    ag = {lv: levels[lv]["agreement"] for lv in levels}
    lost = {lv: levels[lv]["lost_per_hand"] for lv in levels}
    checks = {
        "expert_agreement_ge_95": bool(ag.get("expert") is not None and ag["expert"] >= 0.95),
        "agreement_easy_lt_normal_lt_hard": bool(ag.get("easy", 1) < ag.get("normal", 0) < ag.get("hard", 0)),
        "lost_easy_gt_normal_gt_hard": bool(lost.get("easy", 0) > lost.get("normal", 0) > lost.get("hard", 0)),
        "obvious_never_wrong": not any(o["wrong"] for o in obvious),
    }
    return {
        "bench": "review_sanity", "ruleset": ruleset, "hands": hands, "hand_budget_ms": budget_ms, "seed": seed,
        "levels": levels, "obvious_decisions": len(obvious), "obvious_wrong": sum(o["wrong"] for o in obvious),
        # not a check of the review: how often the expert level's own choice breaks the set (its weakness, shown)
        "obvious_expert_breaks_set": sum(o["expert_breaks_set"] for o in obvious),
        "review_cpu_s_per_seat": {"mean": round(sum(cpu) / len(cpu), 2), "max": round(max(cpu), 2)},
        "checks": checks, "ok": all(checks.values()), "wall_s": round(time.perf_counter() - t0, 1),
    }
