"""Duplicate evaluation of one computer level against a field of another (``jxbot duel``).

Each **wall** (a shuffled hand, dealer seat 0, East round, stake 1, no cumulative 番) is played four
times: rotation k puts the challenger in seat k and field players in the other three seats. The same
tiles come to the same seats every time, so the luck of the deal cancels out between rotations and the
challenger's mean silver per hand measures skill, not cards (the "duplicate" format of mahjong AI work).

``duel(...)`` returns a plain, picklable dict; ``merge`` combines chunks played in parallel;
``summary`` turns it into the reported figures. The 95 % interval of silver per hand is clustered by
wall: the four rotations of a wall share their cards, so the unit of independent evidence is the wall
(its mean over the four rotations), not the hand.

No asyncio, no clock (except the seconds it reports), deterministic given the seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from ..game import Hand
from ..game.hand import HandContext
from .players import make_player
from .selfplay import play_hand

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wall_seed(seed: str, wall: int) -> str:
    return f"{seed}/wall/{wall}"


def _empty() -> dict[str, Any]:
    return {"hands": 0, "walls": 0, "wall_silver": [], "silver": 0, "wins": 0, "self_draws": 0, "deal_ins": 0,
            "calls": 0, "contracts": 0, "contract_fed": 0, "contract_fed_by": 0, "tai": 0, "fan": 0, "points": 0,
            "draws": 0, "seconds": 0.0, "challenger_seats": [0, 0, 0, 0]}


def _contract_pair(hand: Hand) -> tuple[int, int] | None:
    """(fed seat, feeder seat) of the hand's contract (承包 / caishen 大包), or None."""
    return hand.plugin.contract_pair(hand)  # jiaxing: (claimer, the seat it claimed from); caishen: 大包


def play_wall(seed: str, wall: int, challenger: str, field: str, ruleset: str = "jiaxing") -> dict[str, Any]:
    """The four rotations of one wall; the challenger's figures (a chunk of one wall)."""
    out = _empty()
    ws = wall_seed(seed, wall)
    total = 0
    for k in range(4):
        players = [make_player(challenger if i == k else field, f"{ws}/seat/{i}/{'c' if i == k else 'f'}")
                   for i in range(4)]
        ctx = HandContext(hand_id=f"duel-{wall}-{k}", hand_number=1, dealer=0, round_wind=0, stake=1)
        hand = Hand.new(ws.encode(), ruleset=ruleset, context=ctx)
        play_hand(hand, players)
        s = hand.settle([None] * 4, fee=0)
        r = hand.result
        assert r is not None
        delta = s.deltas[k]
        total += delta
        out["hands"] += 1
        out["challenger_seats"][k] += 1
        if r.winner is None:
            out["draws"] += 1
        elif r.winner == k:
            out["wins"] += 1
            out["self_draws"] += bool(r.self_draw)
            if r.score is not None:
                out["tai"] += r.score.total_tai
                out["fan"] += r.score.total_fan
                out["points"] += r.score.points
        elif r.discarder == k or r.robbed_from == k:
            out["deal_ins"] += 1
        if any(m.from_seat is not None and m.from_seat != k for m in hand.melds[k]):
            out["calls"] += 1
        pair = _contract_pair(hand)
        if pair is not None and k in pair:
            out["contracts"] += 1
            out["contract_fed_by" if pair[0] == k else "contract_fed"] += 1
    out["silver"] = total
    out["walls"] = 1
    out["wall_silver"] = [(wall, total)]
    return out


def duel(challenger: str, field: str, walls: Sequence[int], seed: str, ruleset: str = "jiaxing") -> dict[str, Any]:
    """Play the given walls (indices) in full (four rotations each)."""
    make_player(challenger, 0)
    make_player(field, 0)  # validates the levels
    t0 = time.process_time()
    res = merge([play_wall(seed, w, challenger, field, ruleset) for w in walls])
    res["seconds"] = time.process_time() - t0  # CPU time of this process
    return res


def merge(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    res = _empty()
    for p in parts:
        for k in ("hands", "walls", "silver", "wins", "self_draws", "deal_ins", "calls", "contracts",
                  "contract_fed", "contract_fed_by", "tai", "fan", "points", "draws"):
            res[k] += p[k]
        res["wall_silver"].extend(p["wall_silver"])
        res["seconds"] += p["seconds"]
        for i in range(4):
            res["challenger_seats"][i] += p["challenger_seats"][i]
    res["wall_silver"].sort()
    return res


def clustered_ci(wall_totals: Sequence[float], hands_per_wall: int = 4) -> tuple[float, float, float]:
    """(mean per hand, low, high): the 95 % interval of the mean, clustered by wall.

    Each wall's total over its ``hands_per_wall`` rotations is one observation; the interval is the
    normal one, mean ± 1.96 · sd / √walls, divided by the hands per wall."""
    n = len(wall_totals)
    if n == 0:
        return (0.0, 0.0, 0.0)
    xs = [x / hands_per_wall for x in wall_totals]
    mean = sum(xs) / n
    if n < 2:
        return (mean, mean, mean)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def summary(res: dict[str, Any]) -> dict[str, Any]:
    """The reported figures (the ``--json`` keys) from a merged result."""
    hands = res["hands"] or 1
    wins = res["wins"]
    mean, lo, hi = clustered_ci([t for _w, t in res["wall_silver"]])
    return {
        "silver_per_hand": round(mean, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "win_rate": round(wins / hands, 4),
        "self_draw_share": round(res["self_draws"] / wins, 4) if wins else 0.0,
        "deal_in_rate": round(res["deal_ins"] / hands, 4),
        "call_rate": round(res["calls"] / hands, 4),
        "contract_rate": round(res["contracts"] / hands, 4),
        "contract_fed_rate": round(res["contract_fed"] / hands, 4),
        "contract_fed_by_rate": round(res["contract_fed_by"] / hands, 4),
        "avg_tai": round(res["tai"] / wins, 3) if wins else 0.0,
        "avg_fan": round(res["fan"] / wins, 3) if wins else 0.0,
        "avg_points": round(res["points"] / wins, 3) if wins else 0.0,  # caishen scores 倍, not 台/番
        "draw_rate": round(res["draws"] / hands, 4),
        "hands": res["hands"],
        "walls": res["walls"],
    }
