"""A stand-in evaluator for the review's own tests (the real one: jxbot.coach's evaluate), deterministic and
instant: it values a discard by how many copies of the tile the seat holds (a lone tile is worth throwing, a
tile of a set is not) and prefers passing to claiming."""

from __future__ import annotations

import random


def counting_evaluator(point, seed: int, budget_ms: int) -> list[dict]:
    view = point.view
    hand = list(view.get("hand") or []) + ([view["drawn"]] if view.get("drawn") is not None else [])
    rng = random.Random(seed)
    out = []
    for a in view["actions"]:
        kind = a["type"]
        if kind == "discard":
            same = hand.count(a["tile"])
            near = sum(1 for x in hand if x != a["tile"] and x < 27 and a["tile"] < 27 and x // 9 == a["tile"] // 9
                       and abs(x - a["tile"]) <= 2)
            ev = -1.0 * (same - 1) - 0.4 * near + rng.uniform(0, 0.01)
        elif kind in ("tsumo", "hu"):
            ev = 5.0
        elif kind == "pass":
            ev = 0.0
        else:
            ev = -0.5
        out.append({"action": {"type": kind, "seat": a["seat"], "tile": a["tile"]}, "ev": ev,
                    "win": max(0.0, min(1.0, 0.2 + ev / 10)), "deal_in": 0.05})
    return out
