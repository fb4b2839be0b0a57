"""Rules engine benchmark: one JSON line of rates, ratios and medians.

Same 20,000 near-complete, wildcard-free 14-tile hands (seeded) for jxbot and the ``mahjong`` PyPI
library (``Agari.is_agari`` and ``Shanten.calculate_shanten``, which take 34-count arrays, prepared
outside the timed loops just as our tile lists are):

* ``is_complete``            vs ``Agari.is_agari``                          target ≥ 2×
* ``is_complete`` with 1–4 wildcards (same hands, tiles turned into the wildcard) vs that Agari rate ≥ 1×
* ``shanten`` with 1–4 wildcards vs ``Shanten`` (regular hands: no seven pairs / thirteen orphans) ≥ 1×
* ``waits`` median on 13-tile hands (one tile taken off, with wildcards)      target ≤ 100 µs
* ``score_win`` median on winning hands (0–4 wildcards)                      target ≤ 200 µs

Run: ``python3 bench/rules.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time


def near_complete_hands(n: int, rng: random.Random) -> list[list[int]]:
    """Four sets and a pair, then half of them get one tile changed (≤ 4 copies of a kind)."""
    out = []
    while len(out) < n:
        counts = [0] * 34
        tiles: list[int] = []
        suit_bias = rng.randrange(4)
        while len(tiles) < 12:
            if rng.random() < 0.5:
                k = rng.randrange(27) if rng.random() < 0.8 else 27 + rng.randrange(7)
                if rng.random() < 0.5 and suit_bias < 3 and k < 27:
                    k = suit_bias * 9 + k % 9
                block = [k, k, k]
            else:
                k = rng.randrange(27)
                if k % 9 > 6:
                    continue
                block = [k, k + 1, k + 2]
            if all(counts[t] + block.count(t) <= 4 for t in set(block)):
                for t in block:
                    counts[t] += 1
                tiles += block
        k = rng.randrange(34)
        if counts[k] > 2:
            continue
        counts[k] += 2
        tiles += [k, k]
        if rng.random() < 0.5:
            i = rng.randrange(14)
            new = rng.randrange(34)
            if counts[new] < 4 and new != tiles[i]:
                counts[tiles[i]] -= 1
                counts[new] += 1
                tiles[i] = new
        rng.shuffle(tiles)
        out.append(tiles)
    return out


def with_wildcards(hand: list[int], rng: random.Random) -> tuple[list[int], int]:
    """The hand with 1–4 of its tiles turned into the wildcard kind (a kind it holds none of)."""
    held = set(hand)
    wc = rng.choice([k for k in range(34) if k not in held])
    h = hand.copy()
    for i in rng.sample(range(14), rng.randint(1, 4)):
        h[i] = wc
    return h, wc


def counts34(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def rate(fn, args_list) -> float:
    t0 = time.perf_counter()
    for a in args_list:
        fn(*a)
    return len(args_list) / (time.perf_counter() - t0)


def median_us(fn, args_list) -> float:
    times = []
    pc = time.perf_counter_ns
    for a in args_list:
        t0 = pc()
        fn(*a)
        times.append(pc() - t0)
    return statistics.median(times) / 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2)
    args = ap.parse_args()

    t0 = time.perf_counter()
    import jxbot.rules as R
    import_s = time.perf_counter() - t0
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    rng = random.Random(args.seed)
    hands = near_complete_hands(args.hands, rng)
    wild = [with_wildcards(h, rng) for h in hands]
    c34 = [(counts34(h),) for h in hands]

    agari = Agari()
    sh = Shanten()
    t0 = time.perf_counter()
    R.shanten(hands[0], wildcard=None)  # the shanten tables are built on first use
    shanten_build_s = time.perf_counter() - t0

    # correctness cross-check on the same hands (not timed)
    mismatches = sum(R.is_complete(h) != agari.is_agari(c[0]) for h, c in zip(hands, c34, strict=True))
    complete = sum(R.is_complete(h) for h in hands)

    agari_rate = rate(agari.is_agari, c34)
    ours_rate = rate(R.is_complete, [(h,) for h in hands])
    ours_wild_rate = rate(R.is_complete, [(h, (), wc) for h, wc in wild])

    def ref_shanten(c):
        return sh.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)

    ref_sh_rate = rate(ref_shanten, c34)
    ref_sh_default_rate = rate(sh.calculate_shanten, c34)
    ours_sh_wild_rate = rate(R.shanten, [(h, (), wc) for h, wc in wild])
    ours_sh_rate = rate(R.shanten, [(h,) for h in hands])

    waits_args = [(h[:13], (), wc) for h, wc in wild[:5000]] + [(h[:13],) for h in hands[:5000]]
    waits_med = median_us(R.waits, waits_args)

    # winning hands for score_win: the winning ones among the hands and among their wildcard versions
    wild_wins = [(h, wc) for h, wc in wild if R.is_winning(h, wildcard=wc)]

    def sw(concealed, tile, wc=None):
        return R.score_win(concealed, tile, wildcard=wc, self_draw=True, seat_wind=1, round_wind=0, stake=5)

    score_args = [(h[:13], h[13]) for h in hands if R.is_winning(h)]
    score_args += [(h[:13], h[13], wc) for h, wc in wild_wins]
    score_med = median_us(sw, score_args)

    print(json.dumps({
        "hands": len(hands),
        "complete_hands": complete,
        "agari_mismatches": mismatches,
        "import_s": round(import_s, 3),
        "shanten_table_build_s": round(shanten_build_s, 3),
        "agari_per_s": round(agari_rate),
        "is_complete_per_s": round(ours_rate),
        "is_complete_wild_per_s": round(ours_wild_rate),
        "ratio_is_complete_vs_agari": round(ours_rate / agari_rate, 2),
        "ratio_is_complete_wild_vs_agari": round(ours_wild_rate / agari_rate, 2),
        "ref_shanten_per_s": round(ref_sh_rate),
        "ref_shanten_default_per_s": round(ref_sh_default_rate),
        "shanten_per_s": round(ours_sh_rate),
        "shanten_wild_per_s": round(ours_sh_wild_rate),
        "ratio_shanten_wild_vs_ref": round(ours_sh_wild_rate / ref_sh_rate, 2),
        "waits_calls": len(waits_args),
        "waits_median_us": round(waits_med, 1),
        "score_win_calls": len(score_args),
        "score_win_median_us": round(score_med, 1),
        "targets_met": {
            "is_complete_2x": ours_rate / agari_rate >= 2,
            "is_complete_wild_1x": ours_wild_rate / agari_rate >= 1,
            "shanten_wild_1x": ours_sh_wild_rate / ref_sh_rate >= 1,
            "waits_median_le_100us": waits_med <= 100,
            "score_win_median_le_200us": score_med <= 200,
        },
    }))


if __name__ == "__main__":
    main()
