"""The review's sanity figures (bench/review_sanity.py, tests/coach/test_review_sanity.py; docs/coach.md):
self-play hands with one seat of each level, every seat reviewed — agreement and silver lost per level — and
the decisions with an obvious best move (a lone guest wind beside a complete run) reviewed both ways."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

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


OPENING = 6  # obvious moves are looked for in a seat's first discards only (obvious_pair)


def obvious_pair(view: dict) -> tuple[int, int] | None:
    """(a lone wind, a tile of a complete set) in the seat's hand when it holds both — the wind a guest wind (neither
    the seat's wind nor the round's: a pung of it scores nothing) and the hand's only honour tile, the set a run of
    three lone tiles in the suit the hand holds most of — else None. ("Keeping a complete set vs throwing a lone
    wind", issue 30: a seat or round wind, or an honour beside other honours, can be worth keeping for its 台 or
    for 混一色, so those are not obvious.)"""
    hand = list(view.get("hand") or []) + ([view["drawn"]] if view.get("drawn") is not None else [])
    wild = view.get("wildcard")
    c = [0] * 34
    for x in hand:
        c[x] += 1
    if wild is not None and c[wild]:
        return None  # a wildcard in hand makes "complete" a matter of opinion
    me = int(view.get("viewer", 0))
    seats = view.get("seats") or []
    mine = seats[me] if me < len(seats) else {}
    # in the opening only (the seat's first six discards, no other seat with two melds laid down): later a lone
    # wind can be the tile another seat waits on, and throwing it is a question of defence, not an obvious move
    if len(mine.get("discards") or []) > OPENING or any(len(x.get("melds") or []) >= 2
                                                       for i, x in enumerate(seats) if i != me):
        return None
    seat_wind = 27 + int(mine.get("seat_wind", (me - int(view.get("dealer", 0))) % 4))
    round_wind = 27 + int(view.get("round_wind", 0)) % 4
    honours = [h for h in range(27, 34) if c[h]]
    if len(honours) != 1 or c[honours[0]] != 1 or honours[0] > 30 or honours[0] in (seat_wind, round_wind):
        return None
    honour = honours[0]
    # the run must be in the suit the hand holds most of: a Jiaxing win needs a pattern (a flush, 混一色 with
    # honours, or pungs), so a run in an off suit is dead weight a good player may rightly break before an
    # honour that fits 混一色 — not an obvious decision
    melded = [0] * 34  # the seat's own melds count toward the suit it plays (a pung of 8s makes 's' the suit)
    for m in mine.get("melds") or []:
        for x in m.get("tiles") or []:
            if 0 <= x < 34:
                melded[x] += 1
    sizes = [sum(c[s * 9:s * 9 + 9]) + sum(melded[s * 9:s * 9 + 9]) for s in range(3)]
    main = [s for s in range(3) if sizes[s] == max(sizes)]
    if len(main) != 1:
        return None  # two suits as long: which one the hand plays for is still open
    for suit in main:
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
        pair = obvious_pair(p.view) if p.view.get("phase") == "turn" else None
        if pair is not None:
            obvious.append(judge_obvious(events, seat, p, pair, rv.seed_of(hand_id, seat, p.n), per, cands))
    return {"seat": seat, "decisions": len(r.decisions), "agreed": sum(d["agree"] for d in r.decisions),
            "lost": r.lost, "gap": round(sum(d["gap"] for d in r.decisions), 4), "cpu_s": time.process_time() - t0,
            "obvious": obvious, "per_decision": [(d["agree"], d["loss"], d["gap"], d["played"]["type"])
                                                 for d in r.decisions]}


def judge_obvious(events: list[dict], seat: int, p: Any, pair: tuple[int, int], seed: int, per_ms: int,
                  cands: list[dict] | None = None) -> dict:
    """One obvious decision judged both ways (throw the wind / break the run), both moves valued on the same
    worlds (``cands``: the review's own evaluation when it valued both)."""
    from jxbot.coach import review as rv

    honour, set_tile = pair
    throw = rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": honour})
    brk = rv.Point(p.n, p.event, p.view, {"type": "discard", "seat": seat, "tile": set_tile})
    keys = {rv.action_key(c["action"]) for c in cands or []}
    if rv.action_key(throw.played) not in keys or rv.action_key(brk.played) not in keys:
        # the set's tile is not always among the six discards nearest to a win: value both, same worlds
        cands = rv.expert(throw, seed, per_ms, extra=[brk.played])
    t, b = rv.judge(throw, cands or []), rv.judge(brk, cands or [])
    return {"hand": events[0]["hand_id"], "seat": seat, "n": p.n, "honour": honour, "set_tile": set_tile,
            "throw_ev": t["played_ev"], "break_ev": b["played_ev"], "throw_loss": t["loss"], "break_loss": b["loss"],
            # the wrong way round: throwing the wind flagged as a loss while breaking the set is not
            "wrong": t["loss"] > 0 and b["loss"] == 0,
            "expert_breaks_set": b["best"].get("type") == "discard" and b["best"].get("tile") == set_tile}


def obvious_scan(hands: int, seed: int, ruleset: str, per_ms: int) -> list[dict]:
    """Obvious decisions of ``hands`` more self-play hands (one seat of each level; seeds from ``seed``·10⁴),
    each judged both ways at ``per_ms`` (rare: about one in 25 hands has one)."""
    from jxbot.coach import review as rv

    out = []
    for i in range(hands):
        events, _ = play(seed * 10_000 + i, ruleset)
        for seat in range(4):
            for p in rv.decision_points(events, seat):
                pair = obvious_pair(p.view) if p.view.get("phase") == "turn" else None
                if pair is not None:
                    out.append(judge_obvious(events, seat, p, pair, rv.seed_of(events[0]["hand_id"], seat, p.n),
                                             per_ms))
    return out


def job(args: tuple[int, str, int, int]) -> dict:
    """One self-play hand: every seat's review (its whole review within ``budget``), and, with
    ``paired_budget`` > 0, the levels judged on the same decisions (:func:`paired`, that many ms each)."""
    seed, ruleset, budget, paired_budget = args
    events, levels = play(seed, ruleset)
    out = []
    for seat in range(4):
        r = review_seat(events, seat, budget)
        r["level"] = levels[seat]
        out.append(r)
    return {"seats": out, "paired": paired(seed, ruleset, paired_budget) if paired_budget > 0 else {}}


def _ordered(x: dict[str, float], down: bool) -> bool:
    """easy < normal < hard (``down``: easy > normal > hard)."""
    e, n, h = x.get("easy"), x.get("normal"), x.get("hard")
    if e is None or n is None or h is None:
        return False
    return bool(e > n > h) if down else bool(e < n < h)


def run(hands: int, budget_ms: int, jobs: int, seed: int, ruleset: str, paired_ms: int = 300,
        log: Callable[[dict], object] | None = None, obvious_hands: int = 0) -> dict:
    t0 = time.perf_counter()
    work = [(seed + i, ruleset, budget_ms, paired_ms) for i in range(hands)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            parts = list(ex.map(job, work))
    else:
        parts = []
        for w in work:
            parts.append(job(w))
            if log is not None:
                log(parts[-1])
    rows = [r for part in parts for r in part["seats"]]
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
        d = got["decisions"]
        levels[lv] = {"hands": got["hands"], "decisions": d,
                      "agreement": round(got["agreed"] / d, 4) if d else None,
                      "lost_per_hand": round(got["lost"] / got["hands"], 3),
                      "lost_per_decision": round(got["lost"] / d, 4) if d else None}
    same: dict[str, dict] = {}
    for part in parts:
        for lv, o in part["paired"].items():
            a = same.setdefault(lv, {"decisions": 0, "agreed": 0, "lost": 0.0})
            for k in a:
                a[k] += o[k]
    same_positions = {lv: {"decisions": a["decisions"], "agreement": round(a["agreed"] / a["decisions"], 4),
                           "lost_per_decision": round(a["lost"] / a["decisions"], 4)}
                      for lv, a in same.items() if a["decisions"]}
    obvious = [o for r in rows for o in r["obvious"]]
    if obvious_hands:  # the reviewed hands hold few obvious decisions: more hands scanned for them
        obvious += obvious_scan(obvious_hands, seed, ruleset, max(1, budget_ms // 20))
    cpu = [r["cpu_s"] for r in rows]
    ag = {lv: levels[lv]["agreement"] for lv in levels}
    lost = {lv: levels[lv]["lost_per_decision"] for lv in levels}
    checks = {
        "expert_agreement_ge_95": bool(ag.get("expert") is not None and ag["expert"] >= 0.95),
        "agreement_easy_lt_normal_lt_hard": _ordered(ag, down=False),
        "lost_per_decision_easy_gt_normal_gt_hard": _ordered(lost, down=True),
        "obvious_never_wrong": not any(o["wrong"] for o in obvious),
    }
    if same_positions:
        checks["same_positions_agreement_ordered"] = _ordered(
            {lv: v["agreement"] for lv, v in same_positions.items()}, down=False)
        checks["same_positions_lost_ordered"] = _ordered(
            {lv: v["lost_per_decision"] for lv, v in same_positions.items()}, down=True)
    return {
        "bench": "review_sanity", "ruleset": ruleset, "hands": hands, "hand_budget_ms": budget_ms, "seed": seed,
        "levels": levels, "same_positions": same_positions, "same_positions_budget_ms": paired_ms,
        "lost_per_hand_easy_gt_normal_gt_hard": _ordered(
            {lv: levels[lv]["lost_per_hand"] for lv in levels}, down=True),
        "obvious_decisions": len(obvious), "obvious_wrong": sum(o["wrong"] for o in obvious),
        "obvious_hands_scanned": obvious_hands, "obvious_wrong_cases": [o for o in obvious if o["wrong"]],
        # not a check of the review: how often the expert level's own choice breaks the set (its weakness, shown)
        "obvious_expert_breaks_set": sum(o["expert_breaks_set"] for o in obvious),
        "review_cpu_s_per_seat": {"mean": round(sum(cpu) / len(cpu), 2), "max": round(max(cpu), 2)},
        "checks": checks, "ok": all(checks.values()), "wall_s": round(time.perf_counter() - t0, 1),
    }


SHADOWS = ("hard", "normal", "easy")


def shadow_choices(points: list, levels: tuple[str, ...] = SHADOWS, seed: int = 0) -> list[dict[str, dict]]:
    """What each level plays at each of a seat's decisions (``points``, in order): a player of that level
    shadows the seat — asked at every one of its decisions, it keeps its own state (its target) from its own
    choices, whatever the seat played."""
    from jxbot.ai import make_player

    shadows = {lv: make_player(lv, f"shadow/{seed}/{lv}") for lv in levels}
    return [{lv: p.choose(pt.view).to_json() for lv, p in shadows.items()} for pt in points]


def paired(seed: int, ruleset: str, budget_ms: int, levels: tuple[str, ...] = SHADOWS,
           limit: int | None = None) -> dict[str, dict]:
    """Every decision of a self-play hand (one seat of each level, all seats), judged for each level as if that
    level had played it there: on the same positions, so the levels' figures differ by their choices alone.
    A choice equal to the expert's agrees and loses nothing without an evaluation; otherwise one evaluation
    (the review's, ``budget_ms`` per decision) values every level's choice on the same worlds."""
    from jxbot.ai.expert import expert_choice
    from jxbot.coach import review as rv

    events, _ = play(seed, ruleset)
    hand_id = events[0]["hand_id"]
    out = {lv: {"decisions": 0, "agreed": 0, "lost": 0.0, "gap": 0.0} for lv in levels}
    done = 0
    for seat in range(4):
        points = rv.decision_points(events, seat)
        for p, choice in zip(points, shadow_choices(points, levels, seed * 4 + seat), strict=True):
            if limit is not None and done >= limit:
                return out
            done += 1
            best = expert_choice(p.view, p.target)
            differ = [lv for lv in levels if rv.action_key(choice[lv]) != rv.action_key(best)]
            cands: list[dict] = []
            if differ:
                acts = {rv.action_key(choice[lv]): choice[lv] for lv in differ}
                ev = rv.Point(p.n, p.event, p.view, choice[differ[0]], p.target)
                cands = rv.expert(ev, rv.seed_of(hand_id, seat, p.n), budget_ms, extra=list(acts.values()))
            for lv in levels:
                o = out[lv]
                o["decisions"] += 1
                if lv not in differ:
                    o["agreed"] += 1
                    continue
                j = rv.judge(rv.Point(p.n, p.event, p.view, choice[lv], p.target), cands)
                o["agreed"] += j["agree"]
                o["lost"] += j["loss"]
                o["gap"] += j["gap"]
    return out
