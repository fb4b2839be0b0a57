"""The ladder simulation (``jxbot ladder simulate``, docs/ranked.md, "Simulation"): rated matches among computer
players through the real queue (queue.py, on a simulated clock) and the real rating update (each hand settled
into a store with ``settle_ranked_hand``, the last one rating the match in its transaction).

Every simulated player is a store player (user ids 1…N) with silver enough never to be capped. The simulated
clock starts at ``T0``; every minute the idle players join the queue and the tables it forms are played (a match
lasts ``MATCH_MINUTES``), so the queue's bands and its integrity rule work as they do live. Playing a match is
pure (``selfplay``, its seed derived from the run's seed and the match number), so ``jobs`` > 1 plays the tables
formed in one minute in parallel and gives the same figures; the store writes stay in this process, in order.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jxbot.ladder.model import Rating, display
from jxbot.ladder.queue import MatchQueue, QueueSettings
from jxbot.ladder.settle import RankedMatch, settle_ranked_hand
from jxbot.ladder.tiers import TIERS, tier_of

T0 = 1_800_000_000.0
MATCH_MINUTES = 20
LADDER = "sim"
GUILD = 1
CHANNEL = 1
RICH = 10**15  # every simulated player's silver: a settlement is never capped


@dataclass
class SimPlayer:
    user_id: int
    name: str
    level: str
    rating: Rating
    matches: int = 0
    busy_until: float = 0.0


def parse_players(text: str) -> list[tuple[str, int]]:
    """``easy:8,normal:8,hard:8`` → [("easy", 8), …]."""
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        level, _, n = part.strip().partition(":")
        count = int(n) if n else 1
        if count < 0:
            raise ValueError(f"a negative count in {part!r}")
        out.append((level.strip().lower(), count))
    if sum(n for _, n in out) < 4:
        raise ValueError("a ladder needs at least four players")
    return out


def play_match(job: tuple[str, str, Sequence[str]]) -> list[tuple[list[int], dict, bool, list[int] | None]]:
    """Play one match of computers (pure): for each hand its deltas, result view, whether it ends the match and the
    reseat it caused."""
    seed, ruleset, levels = job
    from jxbot.ai import make_player
    from jxbot.ai.selfplay import play_hand
    from jxbot.game import Match

    match = Match(seed, ruleset=ruleset)
    seats = list(levels)
    players = [make_player(lv, f"{seed}/seat/{i}") for i, lv in enumerate(seats)]
    out: list[tuple[list[int], dict, bool, list[int] | None]] = []
    while not match.over:
        hand = play_hand(match.next_hand(), players)
        s = hand.settle([None] * 4, fee=0)
        last = match.ends_with(hand)
        view = hand.result_view()
        rec = match.finish_hand(hand)
        moves = rec.get("reseat") if isinstance(rec, dict) else None
        out.append((list(s.deltas), view, last, list(moves) if moves else None))
        if moves:
            moved = list(players)
            for old, new in enumerate(moves):
                moved[new] = players[old]
            players = moved
    return out


class _Deltas:
    """A settlement of the given seat deltas (house-backed: the computers' silver is the house's)."""

    def __init__(self, deltas: Sequence[int]) -> None:
        from jxbot.rules.contract import Transfer

        self.transfers = tuple(Transfer(None, i, d, "win") if d > 0 else Transfer(i, None, -d, "win")
                               for i, d in enumerate(deltas) if d)
        self.deltas = tuple(deltas)
        self.house_delta = -sum(deltas)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(v: Sequence[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den if den else 0.0


def _gap(players: Sequence[SimPlayer], hi: str, lo: str) -> tuple[float, float] | None:
    """The difference of the mean μ of two levels and its standard error (between players)."""
    a = [p.rating.mu for p in players if p.level == hi]
    b = [p.rating.mu for p in players if p.level == lo]
    if len(a) < 2 or len(b) < 2:
        return None
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return statistics.fmean(a) - statistics.fmean(b), se


async def run(players_spec: str, matches: int, seed: str, *, ruleset: str = "jiaxing", jobs: int = 1,
              db: str = ":memory:", queue_settings: QueueSettings | None = None,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``matches`` rated matches; the figures as one JSON-able dict."""
    from jxbot.store import Store

    levels = parse_players(players_spec)
    from jxbot.ai import LEVELS

    for lv, _ in levels:
        if lv not in LEVELS:
            raise ValueError(f"unknown level {lv!r}; levels: {', '.join(LEVELS)}")
    roster: list[SimPlayer] = []
    for lv, n in levels:
        for k in range(n):
            roster.append(SimPlayer(len(roster) + 1, f"{lv}-{k + 1}", lv, Rating()))
    by_id = {p.user_id: p for p in roster}
    now = T0
    queue = MatchQueue(queue_settings or QueueSettings(), clock=lambda: now)
    store = await Store.open(db, scope="guild", synchronous="normal")
    pool = None
    if jobs > 1:
        import multiprocessing as mp

        pool = mp.get_context("spawn").Pool(jobs)
    t0 = time.perf_counter()
    played = hands = 0
    gap_trace: list[tuple[int, bool]] = []  # (matches played, hard–normal gap > 2 SE)
    milestones: list[dict[str, Any]] = []  # every 100 matches: the hard–normal gap, its SE, the level means
    tier_trace: dict[int, list[str]] = {p.user_id: [] for p in roster}
    try:
        for p in roster:
            await store.ensure_player(p.user_id, p.name)
            await store.admin_set(GUILD, p.user_id, RICH, "ladder simulation")
        while played < matches:
            for p in roster:
                if p.busy_until <= now and p.user_id not in queue:
                    queue.join(p.user_id, p.rating.display)
            tables = queue.form(now)[: matches - played]
            jobs_ = []
            for n, table in enumerate(tables):
                seats = [t.user_id for t in table]
                jobs_.append((f"{seed}/match/{played + n}", ruleset, [by_id[u].level for u in seats]))
            results = list(pool.map(play_match, jobs_)) if pool is not None and len(jobs_) > 1 \
                else [play_match(j) for j in jobs_]
            for table, (mseed, _, _), hands_of in zip(tables, jobs_, results, strict=True):
                seats = [t.user_id for t in table]
                mid = f"m{played}"
                rm = RankedMatch(mid, LADDER, ruleset, GUILD)
                await store.save_table(mid, GUILD, CHANNEL, {"ranked": True, "seed": mseed}, {})
                outcome = None
                for k, (deltas, view, last, moves) in enumerate(hands_of):
                    hid = f"{mid}-{k + 1}"
                    await store.create_hand(hid, GUILD, CHANNEL, ruleset, seats, "-", table_id=mid)
                    view["match_over"] = last
                    _, out = await settle_ranked_hand(store, rm, hid, GUILD, seats, _Deltas(deltas), view, now)
                    outcome = out or outcome
                    if moves:
                        moved = list(seats)
                        for old, new in enumerate(moves):
                            moved[new] = seats[old]
                        seats = moved
                hands += len(hands_of)
                await store.close_table(mid)
                assert outcome is not None and outcome.status == "rated"
                for c in outcome.changes:
                    assert c.user_id is not None
                    p = by_id[c.user_id]
                    p.rating = c.after
                    p.matches += 1
                    p.busy_until = now + MATCH_MINUTES * 60
                    tier_trace[p.user_id].append(tier_of(c.after.display).key)
                played += 1
                g = _gap(roster, "hard", "normal")
                if g is not None:
                    gap_trace.append((played, g[0] > 2 * g[1]))
                if played % 100 == 0:
                    milestones.append(_milestone(roster, played))
                if progress is not None:
                    progress(played, matches)
            now += 60.0
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        await store.close()
    result = figures(roster, played, hands, gap_trace, tier_trace, time.perf_counter() - t0, seed, ruleset)
    result["separation"]["every_100_matches"] = milestones
    return result


def _milestone(roster: Sequence[SimPlayer], played: int) -> dict[str, Any]:
    out: dict[str, Any] = {"matches": played}
    for lv in dict.fromkeys(p.level for p in roster):
        out[f"{lv}_mu"] = round(statistics.fmean(p.rating.mu for p in roster if p.level == lv), 2)
    g = _gap(roster, "hard", "normal")
    if g is not None:
        out["hard_minus_normal_mu"], out["se"] = round(g[0], 3), round(g[1], 3)
    return out


_TIER_INDEX = {t.key: t.index for t in TIERS}


def _near_after(trace: Sequence[str]) -> int:
    """The number of the player's own matches after which their tier stayed within one of their final tier."""
    if not trace:
        return 0
    final = _TIER_INDEX[trace[-1]]
    k = len(trace)
    while k > 1 and abs(_TIER_INDEX[trace[k - 2]] - final) <= 1:
        k -= 1
    return k


def _stable_after(trace: Sequence[str]) -> int:
    """The number of the player's own matches after which their tier never changed again."""
    n = len(trace)
    k = n
    while k > 1 and trace[k - 2] == trace[-1]:
        k -= 1
    return k if n else 0


def figures(roster: Sequence[SimPlayer], played: int, hands: int, gap_trace: Sequence[tuple[int, bool]],
            tier_trace: dict[int, list[str]], seconds: float, seed: str, ruleset: str) -> dict[str, Any]:
    levels = list(dict.fromkeys(p.level for p in roster))
    order = {lv: i for i, lv in enumerate(("easy", "normal", "hard"))}
    means = {lv: statistics.fmean(p.rating.display for p in roster if p.level == lv) for lv in levels}
    mu_means = {lv: statistics.fmean(p.rating.mu for p in roster if p.level == lv) for lv in levels}
    sep: dict[str, Any] = {"mean_rating": {k: round(v, 1) for k, v in means.items()},
                           "mean_mu": {k: round(v, 3) for k, v in mu_means.items()}}
    for lv in levels:
        vals = [p.rating.mu for p in roster if p.level == lv]
        sep.setdefault("sd_mu", {})[lv] = round(statistics.pstdev(vals), 3) if len(vals) > 1 else 0.0
    easy = [p.rating.display for p in roster if p.level == "easy"]
    others = [p.rating.display for p in roster if p.level in ("normal", "hard")]
    if easy and others:
        sep["every_easy_below_normal_and_hard"] = max(easy) < min(others)
    if "hard" in means and "normal" in means:
        sep["hard_mean_above_normal"] = means["hard"] > means["normal"]
        g = _gap(roster, "hard", "normal")
        if g is not None:
            sep["hard_minus_normal_mu"] = round(g[0], 3)
            sep["hard_minus_normal_se"] = round(g[1], 3)
        # the first match count from which the gap stayed above twice its standard error to the end
        after = None
        for n, ok in gap_trace:
            if ok and after is None:
                after = n
            elif not ok:
                after = None
        sep["hard_normal_gap_2se_after_matches"] = after
        sep["hard_normal_gap_2se_first_at_matches"] = next((n for n, ok in gap_trace if ok), None)
    known = [p for p in roster if p.level in order]
    if len({p.level for p in known}) > 1:
        sep["spearman_level_rating"] = round(spearman([order[p.level] for p in known],
                                                      [p.rating.display for p in known]), 3)
    for key, fn in (("newcomer_tier_stable_after_matches", _stable_after),
                    ("newcomer_within_one_tier_after_matches", _near_after)):
        xs = sorted(fn(tier_trace[p.user_id]) for p in roster)
        sep[key] = {"median": xs[len(xs) // 2], "p90": xs[min(len(xs) - 1, int(0.9 * len(xs)))], "max": xs[-1]}
    return {
        "players": [{"name": p.name, "level": p.level, "rating": display(p.rating.mu, p.rating.sigma),
                     "mu": round(p.rating.mu, 3), "sigma": round(p.rating.sigma, 3), "tier": tier_of(p.rating.display).key,
                     "matches": p.matches} for p in roster],
        "matches": played, "hands": hands, "seed": seed, "ruleset": ruleset, "seconds": round(seconds, 1),
        "separation": sep,
    }
