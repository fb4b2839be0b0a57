"""Realistic sample views (docs/views.md) for the demo images, tests and the benchmark.

A tiny self-contained simulation deals a real shuffled wall and plays some turns with plausible
discards and claims, so the views are consistent (never more than four copies of a tile, counts add
up). It imports nothing from ``jxbot.game``: the renderer must work from plain view data alone.
"""

from __future__ import annotations

import hashlib
import random

from jxbot.rules.settle import settle
from jxbot.rules.tiles import COPIES, NUM_KINDS, sort_hand

NAMES = ("Lin Qing", "Marco", "小林 Kobayashi", "Bot·南风")


def _keep_score(hand: list[int], t: int, wildcard: int) -> int:
    """How much a tile is worth keeping (higher = keep)."""
    if t == wildcard:
        return 100
    same = hand.count(t)
    score = (same - 1) * 6
    if t < 27:
        for d, v in ((1, 3), (2, 2)):
            if t % 9 + d <= 8 and t + d in hand:
                score += v
            if t % 9 - d >= 0 and t - d in hand:
                score += v
    return score


def simulate(seed: int = 15, turns: int = 34) -> dict:
    """Play ``turns`` turns from a fresh deal; returns the raw state."""
    rng = random.Random(seed)
    wall = [k for k in range(NUM_KINDS) for _ in range(COPIES)]
    rng.shuffle(wall)
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    indicator = wall.pop(len(wall) - sum(dice))
    wildcard = indicator
    hands = [wall[i * 13:(i + 1) * 13] for i in range(4)]
    live = wall[52:]
    melds: list[list[dict]] = [[] for _ in range(4)]
    discards: list[list[dict]] = [[] for _ in range(4)]
    dealer = 0
    turn = dealer
    drawn: int | None = live.pop(0)
    last: dict | None = None
    for _ in range(turns):
        hand = hands[turn] + ([drawn] if drawn is not None else [])
        # a concealed kong now and then
        quad = [k for k in set(hand) if hand.count(k) == 4 and k != wildcard]
        if quad:
            k = quad[0]
            for _ in range(4):
                hand.remove(k)
            melds[turn].append({"kind": "concealed_kong", "tiles": [k] * 4, "from_seat": None, "claimed": None})
            hand.append(live.pop())  # replacement from the tail
        tile = min(hand, key=lambda t: (_keep_score(hand, t, wildcard), -t if t >= 27 else t % 9 in (0, 8), t))
        hand.remove(tile)
        hands[turn] = hand
        drawn = None
        discards[turn].append({"tile": tile, "claimed": False})
        last = {"seat": turn, "tile": tile}
        claimer = None
        for k in (1, 2, 3):
            s = (turn + k) % 4
            if tile != wildcard and hands[s].count(tile) >= 2 and rng.random() < 0.5:
                claimer = s
                for _ in range(2):
                    hands[s].remove(tile)
                melds[s].append({"kind": "pung", "tiles": [tile] * 3, "from_seat": turn, "claimed": tile})
                break
        if claimer is None and tile < 27 and tile != wildcard:
            nxt = (turn + 1) % 4
            h = hands[nxt]
            for a in (tile - 2, tile - 1, tile):
                run = [a, a + 1, a + 2]
                if a // 9 == (a + 2) // 9 and a >= 0 and all(x == tile or x in h for x in run) \
                        and wildcard not in run and rng.random() < 0.22:
                    for x in run:
                        if x != tile:
                            h.remove(x)
                    melds[nxt].append({"kind": "chow", "tiles": run, "from_seat": turn, "claimed": tile})
                    claimer = nxt
                    break
        if claimer is not None:
            discards[turn][-1]["claimed"] = True
            turn = claimer
            # the claimer discards without drawing: hand is 3n+2 already
            continue
        turn = (turn + 1) % 4
        drawn = live.pop(0)
    return {"wall": live, "hands": hands, "melds": melds, "discards": discards, "turn": turn, "drawn": drawn,
            "dice": dice, "indicator": indicator, "wildcard": wildcard, "dealer": dealer, "last": last}


def _seats(state: dict, balances: tuple[int, ...] = (1280, 965, 2040, 715)) -> list[dict]:
    out = []
    for s in range(4):
        out.append({
            "seat": s,
            "seat_wind": (s - state["dealer"]) % 4,
            "is_dealer": s == state["dealer"],
            "concealed_count": len(state["hands"][s]) + (1 if s == state["turn"] and state["drawn"] is not None else 0),
            "melds": state["melds"][s],
            "discards": state["discards"][s],
            "gave_up": False,
            "name": NAMES[s],
            "is_computer": s == 3,
            "balance": balances[s],
            "auto": False,
        })
    return out


def public_view(seed: int = 15, turns: int = 34) -> dict:
    st = simulate(seed, turns)
    return {
        "hand_id": f"demo-{seed}",
        "ruleset": "jiaxing",
        "viewer": None,
        "hand_number": 3,
        "round_wind": 0,
        "dealer": st["dealer"],
        "dice": st["dice"],
        "wildcard": st["wildcard"],
        "indicator": st["indicator"],
        "wall_remaining": len(st["wall"]),
        "turn": st["turn"],
        "phase": "turn",
        "last_discard": st["last"],
        "contract": None,
        "cumulative_queue": ["baozi", "huang"],
        "commitment": hashlib.sha256(f"demo{seed}".encode()).hexdigest(),
        "seats": _seats(st),
        "_state": st,
    }


def seat_view(seed: int = 15, turns: int = 34, seat: int | None = None) -> dict:
    """The view of the seat whose turn it is (or ``seat``): its own tiles, the drawn one apart."""
    v = public_view(seed, turns)
    st = v.pop("_state")
    viewer = st["turn"] if seat is None else seat
    v["viewer"] = viewer
    v["hand"] = sort_hand(st["hands"][viewer], st["wildcard"])
    v["drawn"] = st["drawn"] if viewer == st["turn"] else None
    tiles = v["hand"] + ([v["drawn"]] if v["drawn"] is not None else [])
    v["actions"] = [{"type": "discard", "seat": viewer, "tile": t} for t in sorted(set(tiles))] \
        if viewer == st["turn"] else []
    v["deadline"] = None
    return v


def table_view(seed: int = 15, turns: int = 34) -> dict:
    v = public_view(seed, turns)
    v.pop("_state")
    return v


def _payments(names: list[str], *, winner: int | None, points: int = 0, self_draw: bool = False) -> list[dict]:
    """The payment rows a live hand gets (fee 2, the balances before the hand below): the same
    settlement and the same rows as ``Hand.result_view`` + the runner's names, so the picture shows
    what a real table shows (its 输赢 and 服务费 columns add up to the balance change)."""
    before = [1280, 965, 2040, 715]
    rows = settle(winner=winner, points=points, self_draw=self_draw, balances=before, fee=2).payments(before)
    return [{**p, "name": names[p["seat"]]} for p in rows]


def result_view(drawn_game: bool = False) -> dict:
    """A 混一色 win by self-draw on a kong replacement (5 × 3台 × 2^2番 = 60), or a drawn hand."""
    names = list(NAMES)
    base = {
        "hand_id": "demo-result",
        "ruleset": "jiaxing",
        "hand_number": 3,
        "round_wind": 0,
        "dealer": 0,
        "wildcard": 23,  # 6s
        "indicator": 23,
        "reveal": {"wall": [], "salt": "00", "commitment": "0" * 64},
    }
    if drawn_game:
        base.update({
            "drawn_game": True, "winner": None, "win_tile": None, "self_draw": False, "robbed_from": None,
            "discarder": None, "hand": [], "melds": [], "score": None,
            "payments": _payments(names, winner=None),
            "cumulative_queue": ["baozi", "laotou_huang", "huang"],
        })
        return base
    hand = [23, 10, 10, 12, 13, 14, 27, 27]  # 百搭 2p 2p 4p5p6p 东东 (the win tile 5p included)
    melds = [
        {"kind": "pung", "tiles": [33, 33, 33], "from_seat": 1, "claimed": 33},
        {"kind": "kong", "tiles": [15, 15, 15, 15], "from_seat": 0, "claimed": 15},
    ]
    score = {
        "winning": True, "reason": None,
        "tai": [{"name": "red_dragon", "value": 1}, {"name": "half_flush", "value": 2}],
        "fan": [{"name": "kong_bloom", "value": 1}, {"name": "baozi", "value": 1}],
        "total_tai": 3, "total_fan": 2, "stake": 5, "points": 60,
        "sets": [[33, 33, 33], [15, 15, 15, 15], [10, 10, 10], [12, 13, 14]], "pair": [27, 27],
        "patterns": ["half_flush"],
    }
    base.update({
        "drawn_game": False, "winner": 2, "win_tile": 13, "self_draw": True, "robbed_from": None,
        "discarder": None, "hand": hand, "melds": melds, "score": score,
        "payments": _payments(names, winner=2, points=60, self_draw=True),
        "cumulative_queue": ["huang"],
    })
    return base


def widest_seat_views() -> dict[str, dict]:
    """The widest hand pictures a game can produce, for the phone test, the demo and the goldens:
    ``full``: 13 concealed tiles and the drawn one, with a claim offered; ``kongs``: four kongs (one of each
    kind and an added one) beside the last tile and the drawn one; ``melds``: a kong and two pungs beside
    seven tiles, one claimable."""
    base = seat_view()
    me = base["viewer"]
    wc = base["wildcard"]
    full = {**base, "hand": sort_hand([0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, wc], wc), "drawn": 33}
    full["seats"] = [dict(s) for s in base["seats"]]
    full["seats"][me] = {**full["seats"][me], "melds": []}
    full["actions"] = [{"type": "discard", "seat": me, "tile": t} for t in sorted(set(full["hand"] + [33]))]
    prev = (me + 3) % 4
    kongs = {**full, "hand": [5], "drawn": 6}
    kongs["seats"] = [dict(s) for s in full["seats"]]
    kongs["seats"][me] = {**kongs["seats"][me], "melds": [
        {"kind": "kong", "tiles": [30] * 4, "from_seat": prev, "claimed": 30},
        {"kind": "concealed_kong", "tiles": [12] * 4, "from_seat": None, "claimed": None},
        {"kind": "added_kong", "tiles": [16] * 4, "from_seat": (me + 2) % 4, "claimed": 16},
        {"kind": "kong", "tiles": [25] * 4, "from_seat": (me + 1) % 4, "claimed": 25},
    ]}
    kongs["actions"] = [{"type": "discard", "seat": me, "tile": t} for t in (5, 6)]
    melds = {**full, "hand": sort_hand([3, 4, 7, 8, 14, 14, 28], base["wildcard"]), "drawn": None,
             "phase": "claim", "last_discard": {"seat": prev, "tile": 14}}
    melds["seats"] = [dict(s) for s in full["seats"]]
    melds["seats"][me] = {**melds["seats"][me], "melds": [
        {"kind": "kong", "tiles": [32] * 4, "from_seat": prev, "claimed": 32},
        {"kind": "pung", "tiles": [29] * 3, "from_seat": (me + 2) % 4, "claimed": 29},
        {"kind": "chow", "tiles": [20, 21, 22], "from_seat": prev, "claimed": 21},
    ]}
    melds["actions"] = [{"type": "peng", "seat": me, "tile": 14}, {"type": "pass", "seat": me}]
    full["phase"] = "turn"
    return {"full": full, "kongs": kongs, "melds": melds}
