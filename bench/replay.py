"""Replay benchmark: one JSON line.

For hands played by four normal computer players: steps per hand, the time to build a replay from the
stored event log, the median time to compute one step's view (the game's fold, forward and back), the
median time to draw one step's pictures (table + hand, what the viewer sends on a press, in the worker
thread) against a cache hit (what a second visit to that step costs), the hand file's size, and the time
of `verify` (commitment, wall, deal and draws replayed). ``python3 bench/replay.py [HANDS]``.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render  # noqa: E402
from jxbot.ai.players import make_player  # noqa: E402
from jxbot.ai.selfplay import play_hand  # noqa: E402
from jxbot.game import Hand  # noqa: E402
from jxbot.replay import Replay, export_doc, verified, verify  # noqa: E402


def main(hands: int = 5) -> None:
    build, view_fwd, view_back, draw, hit, verify_ms, steps, sizes = [], [], [], [], [], [], [], []
    render.warm_up()
    for seed in range(hands):
        h = Hand.new(seed)
        play_hand(h, [make_player("normal", seed * 10 + i) for i in range(4)])
        h.settle([1000] * 4, 1)
        log = h.events_json()
        t = time.perf_counter()
        rp = Replay(log)
        build.append((time.perf_counter() - t) * 1000)
        steps.append(len(rp))
        for k in range(len(rp)):  # forward, as ▶ presses: incremental folds
            t = time.perf_counter()
            rp.view(k, k % 4, concealed=True)
            view_fwd.append((time.perf_counter() - t) * 1000)
        for k in range(len(rp) - 1, -1, -7):  # backwards jumps (◀, go to): a refold from the start each
            rp._views.clear()
            t = time.perf_counter()
            rp.view(k, 1, concealed=True)
            view_back.append((time.perf_counter() - t) * 1000)
        cache: dict[tuple, list[bytes]] = {}
        for k in range(0, len(rp), max(1, len(rp) // 8)):
            t = time.perf_counter()
            v = rp.view(k, 0, concealed=True)
            cache[(k, 0)] = [render.render_table(v, "zh"), render.render_hand(v, "zh")]
            draw.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            _ = cache.get((k, 0))
            hit.append((time.perf_counter() - t) * 1000)
        sizes.append(len(json.dumps(export_doc(log))))
        t = time.perf_counter()
        ok = verified(verify(h.wall, h.salt, h.commitment, log))
        verify_ms.append((time.perf_counter() - t) * 1000)
        assert ok

    def med(xs: list[float]) -> float:
        return round(statistics.median(xs), 3)

    print(json.dumps({
        "hands": hands,
        "steps_per_hand": med([float(s) for s in steps]),
        "build_replay_ms": med(build),
        "step_view_forward_ms": med(view_fwd),
        "step_view_jump_back_ms": med(view_back),
        "step_pictures_ms": med(draw),
        "cached_step_ms": med(hit),
        "hand_file_kb": round(statistics.median(sizes) / 1024, 1),
        "verify_ms": med(verify_ms),
        "load_avg": round(os.getloadavg()[0], 1),
    }))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
