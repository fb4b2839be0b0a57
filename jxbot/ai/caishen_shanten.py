"""Fast, exact shanten for the caishen players: one hand and all its one-tile changes at once.

The caishen players (``jxbot.rulesets.caishen.ai``) measure a hand as the nearer of an ordinary hand
(``jxbot.rules.shape.shanten`` with the 白 slot wild, on tiles seen through ``face``) and seven
pairs. A discard decision asks that of the hand minus each candidate discard, and the useful-draw
count (ukeire) of the hand plus each of the 34 kinds: several hundred hands that each differ from one
base hand by one tile. Calling ``shanten`` on each rebuilds all four tile groups every time.

Here the base hand is split once (``Faced``): per group its shanten vector (the rules engine's
table row, "most tiles kept with at most b sets, with/without the pair") and, per group g, the
max-plus combination of the *other* three groups. A one-tile change touches one group, so its
ordinary shanten is one look-up and one max over at most five splits. Seven-pairs counts are
updated the same way. The max-plus combination is associative and commutative, so the figures
are exactly ``shape.shanten``'s and ``caishen.pairs_shanten``'s (tests/ai/test_caishen_shanten.py
checks them against both on random hands); nothing a player decides changes, only how fast.
"""

from __future__ import annotations

from collections.abc import Sequence

from jxbot.rules.shape import _GPOW, _GROUP, _P, _combine, _shanten_tables
from jxbot.rules.tiles import WHITE

WILD = WHITE  # the slot the 財神 take in a hand seen through ``face`` (``jxbot.rulesets.caishen.rules.WILD``)

_B9 = 5**9
_NO_PAIRS = 99  # seven pairs are impossible with melds (caishen.pairs_shanten's value)


def _pairs(p: int, s: int, w: int, n: int) -> int:
    """Seven-pairs shanten from (pairs, singles, wild count, tiles), as ``caishen.pairs_shanten``."""
    use = min(w, s)
    total = p + use + (w - use) // 2
    return 6 - min(total, 7) - (1 if n == 14 and total >= 7 else 0)


def _top(a: tuple[int, ...], b: tuple[int, ...], k: int) -> int:
    """``shape._combine(a, b, k)[5 + k]``: most tiles kept with k sets and the pair."""
    best = -1
    for i in range(k + 1):
        v = a[i] + b[5 + k - i]
        if v > best:
            best = v
        v = a[5 + i] + b[k - i]
        if v > best:
            best = v
    return best


class Faced:
    """A faced hand (``face`` applied, 財神 on the 白 slot) ready for one-tile changes."""

    __slots__ = ("n", "w", "k", "codes", "vecs", "others", "counts", "pairs", "singles", "open")

    def __init__(self, faced: Sequence[int], open_melds: int, k: int | None = None) -> None:
        n = len(faced)
        self.n = n
        self.open = open_melds
        x = sum(map(_P.__getitem__, faced))
        counts = [0] * 34
        for t in faced:
            counts[t] += 1
        w = counts[WILD]
        x -= w * _P[WILD]
        self.w = w
        x, c0 = divmod(x, _B9)
        x, c1 = divmod(x, _B9)
        c3, c2 = divmod(x, _B9)
        self.codes = [c0, c1, c2, c3]
        # every change this class is asked about keeps n // 3 (3m+1 <-> 3m+2 tiles)
        self.k = n // 3 if k is None else k
        tabs = _shanten_tables()
        vecs = [tabs.get(c, g == 3) if c else None for g, c in enumerate(self.codes)]
        self.vecs = vecs
        kk = self.k

        def mul(a: tuple[int, ...] | None, b: tuple[int, ...] | None) -> tuple[int, ...] | None:
            return b if a is None else a if b is None else _combine(a, b, kk)

        # others[g] = the groups but g, combined: from the prefix (groups before g) and suffix (after g)
        p1 = vecs[0]
        p2 = mul(p1, vecs[1])
        s2 = mul(vecs[2], vecs[3])
        self.others = [mul(vecs[1], s2), mul(p1, s2), mul(p2, vecs[3]), mul(p2, vecs[2])]
        self.counts = counts
        pairs = singles = 0
        for c in counts:
            pairs += c >> 1
            singles += c & 1
        self.pairs = pairs - (w >> 1)
        self.singles = singles - (w & 1)

    def _kept(self, g: int, code: int) -> int:
        """Most tiles kept (k sets and the pair) when group g's code is ``code`` and the rest unchanged."""
        o = self.others[g]
        k = self.k
        if not code:
            return 0 if o is None else o[5 + k]
        v = _shanten_tables().get(code, g == 3)
        return v[5 + k] if o is None else _top(o, v, k)

    def _kept_base(self) -> int:
        return self._kept(0, self.codes[0])

    def _std(self, n: int, w: int, kept: int) -> int:
        r = n - w - kept
        return r - 1 if n % 3 == 2 else r

    def shanten(self) -> tuple[int, int]:
        """``caishen.hand_shanten`` of the hand itself."""
        std = self._std(self.n, self.w, self._kept_base())
        sp = _pairs(self.pairs, self.singles, self.w, self.n) if not self.open else _NO_PAIRS
        return (sp, 1) if sp <= std else (std, 0)

    def without(self, t: int) -> tuple[int, int]:
        """``caishen.hand_shanten`` of the hand minus one faced tile ``t`` (held)."""
        n = self.n - 1
        c = self.counts[t]
        if t == WILD:
            w = self.w - 1
            std = self._std(n, w, self._kept_base())
            p, s = self.pairs, self.singles
        else:
            w = self.w
            g = _GROUP[t]
            std = self._std(n, w, self._kept(g, self.codes[g] - _GPOW[t]))
            p = self.pairs - c // 2 + (c - 1) // 2
            s = self.singles - c % 2 + (c - 1) % 2
        sp = _pairs(p, s, w, n) if not self.open else _NO_PAIRS
        return (sp, 1) if sp <= std else (std, 0)

    def plus(self, t: int) -> int:
        """``caishen.hand_shanten(...)[0]`` of the hand plus one faced tile ``t``."""
        n = self.n + 1
        c = self.counts[t]
        if t == WILD:
            w = self.w + 1
            std = self._std(n, w, self._kept_base())
            p, s = self.pairs, self.singles
        else:
            w = self.w
            g = _GROUP[t]
            std = self._std(n, w, self._kept(g, self.codes[g] + _GPOW[t]))
            p = self.pairs - c // 2 + (c + 1) // 2
            s = self.singles - c % 2 + (c + 1) % 2
        if self.open:
            return std
        sp = _pairs(p, s, w, n)
        return sp if sp <= std else std


# --- memo: the same hands come back (the hand after last turn's discard is this turn's hand minus its
# draw; the four rotations of a duel wall replay the field's hands). Keys are the hand's base-5 code
# (wild tiles included, so it names the multiset) ×2 + any open meld; values are exact, so what the
# memo holds never changes a result. Bounded (about 5 MB each when full, the values shared): cleared
# when full.
MEMO_MAX = 50_000
_SHANTEN: dict[int, tuple[int, int]] = {}
_USEFUL: dict[int, int] = {}
_VALUES: dict[tuple[int, int], tuple[int, int]] = {}  # one tuple per distinct (shanten, kind)


def code_of(faced: Sequence[int]) -> int:
    return sum(map(_P.__getitem__, faced))


def hand_shanten(faced: Sequence[int], open_melds: int) -> tuple[int, int]:
    """``caishen.hand_shanten``, memoised."""
    key = code_of(faced) * 2 + (open_melds > 0)
    v = _SHANTEN.get(key)
    if v is None:
        if len(_SHANTEN) >= MEMO_MAX:
            _SHANTEN.clear()
        v = Faced(faced, open_melds).shanten()
        v = _SHANTEN[key] = _VALUES.setdefault(v, v)
    return v


def discard_shanten(faced: Sequence[int], open_melds: int, tiles: Sequence[int]) -> list[tuple[int, int]]:
    """``caishen.hand_shanten`` of the hand minus each faced tile of ``tiles`` (each one held)."""
    x = code_of(faced)
    op = open_melds > 0
    out = []
    fh: Faced | None = None
    for t in tiles:
        key = (x - _P[t]) * 2 + op
        v = _SHANTEN.get(key)
        if v is None:
            if fh is None:
                fh = Faced(faced, open_melds)
            if len(_SHANTEN) >= MEMO_MAX:
                _SHANTEN.clear()
            v = fh.without(t)
            v = _SHANTEN[key] = _VALUES.setdefault(v, v)
        out.append(v)
    return out


def useful_faces(faced13: Sequence[int], open_melds: int, base: int) -> int:
    """Bit mask of the faced kinds whose addition brings ``hand_shanten`` below ``base``."""
    key = (code_of(faced13) * 2 + (open_melds > 0)) * 16 + base + 1
    m = _USEFUL.get(key)
    if m is None:
        m = _useful(Faced(faced13, open_melds), base)
        if len(_USEFUL) >= MEMO_MAX:
            _USEFUL.clear()
        _USEFUL[key] = m
    return m


def _useful(fh: Faced, base: int) -> int:
    """``useful_faces`` computed: ``Faced.plus(f) < base`` for every kind f held fewer than 4 times."""
    n = fh.n + 1
    w = fh.w
    k = fh.k
    counts = fh.counts
    # ordinary shape: std = n - w' - kept - e < base  <=>  kept > n - w' - e - base
    limit = n - w - (1 if n % 3 == 2 else 0) - base
    odd_ok = even_ok = wild_pairs_ok = False
    if not fh.open:  # seven pairs: adding to an odd count makes a pair, to an even one a single
        p, sg = fh.pairs, fh.singles
        odd_ok = _pairs(p + 1, sg - 1, w, n) < base
        even_ok = _pairs(p, sg + 1, w, n) < base
        wild_pairs_ok = _pairs(p, sg, w + 1, n) < base
    m = 0
    if counts[WILD] < 4 and (wild_pairs_ok or fh._kept_base() > limit - 1):  # a 財神: one more wild
        m |= 1 << WILD
    get = _shanten_tables().get
    k5 = 5 + k
    for g in range(4):
        o = fh.others[g]
        code = fh.codes[g]
        honor = g == 3
        first = 27 if honor else 9 * g
        for f in range(first, first + (7 if honor else 9)):
            if f == WILD:
                continue
            c = counts[f]
            if c >= 4:
                continue
            if odd_ok if c & 1 else even_ok:
                m |= 1 << f
                continue
            v = get(code + _GPOW[f], honor)
            if o is None:
                ok = v[k5] > limit
            else:
                ok = False
                for i in range(k + 1):
                    if o[i] + v[k5 - i] > limit or o[5 + i] + v[k - i] > limit:
                        ok = True
                        break
            if ok:
                m |= 1 << f
    return m


def ukeire(faced13: Sequence[int], open_melds: int, base: int, unseen: Sequence[int], cs: int) -> int:
    """``caishen._ukeire``: unseen copies of the kinds whose draw brings the hand below ``base``."""
    m = useful_faces(faced13, open_melds, base)
    if cs != WILD:  # faced → real kinds: ``face`` swaps the 財神 kind and the 白 slot
        a, b = m >> cs & 1, m >> WILD & 1
        if a != b:
            m ^= 1 << cs | 1 << WILD
    n = 0
    while m:
        low = m & -m
        n += unseen[low.bit_length() - 1]
        m ^= low
    return n
