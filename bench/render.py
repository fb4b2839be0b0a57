"""Rendering benchmark: one JSON line.

Median wall times (ms) for a hand image with the sprite cache warm (target <= 10), a table image (<= 30),
a result image; PNG sizes (hand <= 80 KB); the cold start of the sprite cache (first hand and first
table after clearing it, and building every sprite the three images use); the one-off palette build. ``*_cpu_ms`` are the same medians in process CPU time, with the load average,
since the machine may be shared.
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
from render import common, demo, palette, tiles  # noqa: E402


def _median_ms(fn, n: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(n):
        t = clock()
        fn()
        times.append((clock() - t) * 1000)
    return round(statistics.median(times), 2)


def main() -> None:
    hand, table, result = demo.seat_view(), demo.table_view(), demo.result_view()
    drawn = demo.result_view(drawn_game=True)
    t = time.perf_counter()
    palette.palette()
    palette_ms = (time.perf_counter() - t) * 1000

    tiles.clear_cache()
    t = time.perf_counter()
    render.render_hand(hand, "zh")
    cold_hand = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    render.render_table(table, "zh")
    cold_table = (time.perf_counter() - t) * 1000
    tiles.clear_cache()
    t = time.perf_counter()
    for w, variants in ((66, ("up", "wild")), (50, ("up", "side")), (38, ("up", "wild", "dim")),
                        (36, ("up", "side")), (34, ("up", "wild", "dim")), (32, ("up", "side")),
                        (30, ("up", "side"))):
        for k in [*range(34), tiles.BACK]:
            for v in variants:
                tiles.sprite(k, w, v)
    all_sprites = (time.perf_counter() - t) * 1000

    out = {
        "hand_ms": _median_ms(lambda: render.render_hand(hand, "zh"), 60),
        "table_ms": _median_ms(lambda: render.render_table(table, "zh"), 30),
        "result_ms": _median_ms(lambda: render.render_result(result, "zh"), 30),
        # CPU time of this process: the same figures, unaffected by other work on a shared machine
        "hand_cpu_ms": _median_ms(lambda: render.render_hand(hand, "zh"), 30, time.process_time),
        "table_cpu_ms": _median_ms(lambda: render.render_table(table, "zh"), 20, time.process_time),
        "result_cpu_ms": _median_ms(lambda: render.render_result(result, "zh"), 20, time.process_time),
        "hand_kb": round(len(render.render_hand(hand, "zh")) / 1024, 1),
        "table_kb": round(len(render.render_table(table, "zh")) / 1024, 1),
        "result_kb": round(len(render.render_result(result, "zh")) / 1024, 1),
        "result_drawn_kb": round(len(render.render_result(drawn, "en")) / 1024, 1),
        "cold_first_hand_ms": round(cold_hand, 1),
        "cold_first_table_ms": round(cold_table, 1),
        "cold_all_sprites_ms": round(all_sprites, 1),
        "palette_build_ms": round(palette_ms, 1),
        "png_compress_level": common.PNG_LEVEL,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "targets": {"hand_ms": 10, "table_ms": 30, "hand_kb": 80},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
