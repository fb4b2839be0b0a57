"""A second, deliberately simple checker for the hand shape, independent of the lookup tables."""

from __future__ import annotations

from functools import lru_cache


def _sets(counts: tuple[int, ...], w: int) -> bool:
    """Can counts (34 kinds) plus w wildcards be split into sets only?"""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return w % 3 == 0
    c = list(counts)
    # a pung of kind i, with wildcards filling the gaps
    for real in (3, 2, 1):
        if c[i] >= real and w >= 3 - real:
            c2 = c.copy()
            c2[i] -= real
            if _sets_cached(tuple(c2), w - (3 - real)):
                return True
    # a chow starting at kind i, with wildcards filling missing tiles
    if i < 27 and i % 9 <= 6:
        for use1 in (True, False):
            for use2 in (True, False):
                need = (not use1) + (not use2)
                if need > w or (use1 and not c[i + 1]) or (use2 and not c[i + 2]):
                    continue
                c2 = c.copy()
                c2[i] -= 1
                if use1:
                    c2[i + 1] -= 1
                if use2:
                    c2[i + 2] -= 1
                if _sets_cached(tuple(c2), w - need):
                    return True
    # kind i as the lowest tile of a chow that starts below it (i-1, i, i+1 with i-1 wild, etc.)
    if i < 27:
        r = i % 9
        for start in (i - 2, i - 1):
            if start < i - r or start % 9 > 6:
                continue
            others = [k for k in range(start, start + 3) if k != i]
            # tiles below i are absent (i is the lowest), so they must be wild
            for mask in range(4):
                use = [k for j, k in enumerate(others) if mask >> j & 1]
                if any(k < i for k in use) or any(not c[k] for k in use):
                    continue
                need = 2 - len(use)
                if need > w:
                    continue
                c2 = c.copy()
                c2[i] -= 1
                for k in use:
                    c2[k] -= 1
                if _sets_cached(tuple(c2), w - need):
                    return True
    return False


_sets_cached = lru_cache(maxsize=None)(_sets)


def oracle_complete(tiles: list[int], wildcard: int | None = None) -> bool:
    """Four sets and a pair (3k+2 tiles), tiles of the wildcard kind standing for anything."""
    if len(tiles) % 3 != 2:
        return False
    w = sum(1 for t in tiles if t == wildcard)
    counts = [0] * 34
    for t in tiles:
        if t != wildcard:
            counts[t] += 1
    # the pair: two real, one real + one wildcard, or two wildcards
    for k in range(34):
        for real in (2, 1):
            if counts[k] >= real and w >= 2 - real:
                c2 = counts.copy()
                c2[k] -= real
                if _sets_cached(tuple(c2), w - (2 - real)):
                    return True
    return w >= 2 and _sets_cached(tuple(counts), w - 2)
