"""Fast, target-aware hand evaluation for the computer players.

A Jiaxing win needs a shape (four sets and a pair) *and* a pattern (清一色 / 混一色 / 字一色 / 对对胡,
RULES.md A5). The computer player therefore measures its distance to a win per **target**:

* ``FLUSH_M`` / ``FLUSH_P`` / ``FLUSH_S`` — every tile of one suit plus any honors (this covers
  清一色, 混一色 and 字一色); tiles of the other two suits are dead weight to be thrown away;
* ``PUNGS`` — 对对胡: pungs only, any suits (chows do not count).

``target_shanten`` is the usual block-counting shanten (``2·N − 2·sets − partials − pair`` for N sets
still to make) restricted to the tiles that fit the target, minus one per 百搭 held (a wildcard completes
whatever block it joins), and never below the number of tiles that do not fit the target (each must be
swapped out). It is an estimate tuned for speed (the player calls it hundreds of times per decision),
not the rules engine's exact ``shanten``; the player only ever wins through ``jxbot.rules`` (the game
offers HU/TSUMO only on real wins).

Per-suit decompositions are memoised on the suit's 9-count tuple, so a decision costs a few dict
look-ups per candidate. Nothing here does I/O or reads a clock.
"""

from __future__ import annotations

from collections.abc import Sequence

FLUSH_M, FLUSH_P, FLUSH_S, PUNGS = 0, 1, 2, 3
TARGETS = (FLUSH_M, FLUSH_P, FLUSH_S, PUNGS)
TARGET_NAMES = ("flush_m", "flush_p", "flush_s", "pungs")
IMPOSSIBLE = 99

# ---------------------------------------------------------------------------------------------
# per-suit decomposition: Pareto set of (sets, partials, pair) reachable from a 9-count vector

_SuitOpts = tuple[tuple[int, int, int], ...]
_SUIT_CACHE: dict[tuple[int, ...], _SuitOpts] = {}
_CACHE_LIMIT = 200_000  # entries per memo table (a few tens of MB at most)


def _pareto(opts: set[tuple[int, int, int]]) -> _SuitOpts:
    out = []
    for o in opts:
        if not any(q != o and q[0] >= o[0] and q[1] >= o[1] and q[2] >= o[2] for q in opts):
            out.append(o)
    out.sort(reverse=True)
    return tuple(out)


def suit_options(v: tuple[int, ...]) -> _SuitOpts:
    """Non-dominated (sets, partials, pair 0/1) decompositions of one suit's counts (length 9)."""
    r = _SUIT_CACHE.get(v)
    if r is not None:
        return r
    i = 0
    while i < 9 and v[i] == 0:
        i += 1
    if i == 9:
        r = ((0, 0, 0),)
        _SUIT_CACHE[v] = r
        return r
    acc: set[tuple[int, int, int]] = set()
    lst = list(v)

    def sub(*deltas: int) -> _SuitOpts:
        w = lst.copy()
        for d in deltas:
            w[d] -= 1
        return suit_options(tuple(w))

    # tile i left alone (isolated)
    acc.update(sub(i))
    c = v[i]
    if c >= 3:
        for m, t, p in sub(i, i, i):
            acc.add((m + 1, t, p))
    if c >= 2:
        for m, t, p in sub(i, i):
            acc.add((m, t + 1, p))
            if not p:
                acc.add((m, t, 1))
    if i <= 7 and v[i + 1]:
        if i <= 6 and v[i + 2]:
            for m, t, p in sub(i, i + 1, i + 2):
                acc.add((m + 1, t, p))
        for m, t, p in sub(i, i + 1):
            acc.add((m, t + 1, p))
    if i <= 6 and v[i + 2]:
        for m, t, p in sub(i, i + 2):
            acc.add((m, t + 1, p))
    r = _pareto(acc)
    if len(_SUIT_CACHE) > _CACHE_LIMIT:
        _SUIT_CACHE.clear()  # bounded memory in a long-running bot; entries are cheap to rebuild
    _SUIT_CACHE[v] = r
    return r


def _flush_value(opts: _SuitOpts, hm: int, hp: int, n: int) -> int:
    """Best 2·sets + partials + pair with at most ``n`` sets+partials, honors giving ``hm`` pungs and
    ``hp`` pairs."""
    best = 0
    for m, t, p in opts:
        # honors' pair is the head (only if the suit has none), or all honor pairs are partials
        mm = m + hm
        if mm > n:
            mm = n
        room = n - mm
        tt = t + hp
        v = 2 * mm + (tt if tt < room else room) + p
        if v > best:
            best = v
        if hp and not p:
            tt = t + hp - 1
            v = 2 * mm + (tt if tt < room else room) + 1
            if v > best:
                best = v
    return best


def _pung_value(m: int, pairs: int, n: int) -> int:
    if m > n:
        m = n
    room = n - m
    if pairs:
        t = pairs - 1
        return 2 * m + (t if t < room else room) + 1
    return 2 * m


class HandShape:
    """A concealed hand (34 counts) with its melds, analysed once for fast per-target shanten.

    ``counts`` includes tiles of the wildcard kind; they are taken out as ``wilds``.
    """

    __slots__ = ("counts", "wild", "wilds", "n", "flush_ok", "pungs_ok", "total", "suit_n", "hm", "hp",
                 "pm", "pp", "hn")

    def __init__(self, counts: Sequence[int], melds: Sequence[tuple[str, int]], wildcard: int | None) -> None:
        """``melds``: (kind, base tile) pairs; kind "chow" or anything pung-like."""
        c = list(counts)
        self.wild = wildcard
        self.wilds = 0
        if wildcard is not None:
            self.wilds = c[wildcard]
            c[wildcard] = 0
        self.counts = c
        self.total = sum(counts)
        self.n = 4 - len(melds)
        suits = set()
        has_chow = False
        for kind, base in melds:
            if kind == "chow":
                has_chow = True
            if base < 27:
                suits.add(base // 9)
        self.pungs_ok = not has_chow
        self.flush_ok = [len(suits) == 0 or suits == {s} for s in range(3)]
        self.suit_n = [sum(c[0:9]), sum(c[9:18]), sum(c[18:27])]
        h = c[27:34]
        self.hn = sum(h)
        self.hm, self.hp = h.count(3) + h.count(4), h.count(2)
        self.pm, self.pp = c.count(3) + c.count(4), c.count(2)

    # -- evaluation of the hand as it is --------------------------------------------------------
    def shanten(self, target: int) -> int:
        n, wilds, total = self.n, self.wilds, self.total
        floor = -1 if total % 3 == 2 else 0
        if target == PUNGS:
            if not self.pungs_ok:
                return IMPOSSIBLE
            s = 2 * n - _pung_value(self.pm, self.pp, n) - wilds
            return s if s > floor else floor
        if not self.flush_ok[target]:
            return IMPOSSIBLE
        b = target * 9
        return _flush_eval(tuple(self.counts[b:b + 9]), self.hm, self.hp, n, wilds,
                           total - wilds - self.suit_n[target] - self.hn, floor)

    def best(self) -> tuple[int, int]:
        """(shanten, target) of the closest target."""
        best = (IMPOSSIBLE, PUNGS)
        for t in TARGETS:
            s = self.shanten(t)
            if s < best[0]:
                best = (s, t)
        return best

    def _eval(self, target: int, c: list[int], suit_n: list[int], hm: int, hp: int, pm: int, pp: int,
              wilds: int, total: int) -> int:
        n = self.n
        floor = -1 if total % 3 == 2 else 0
        if target == PUNGS:
            if not self.pungs_ok:
                return IMPOSSIBLE
            s = 2 * n - _pung_value(pm, pp, n) - wilds
            return s if s > floor else floor
        if not self.flush_ok[target]:
            return IMPOSSIBLE
        off = total - wilds - suit_n[target] - sum(c[27:34])
        b = target * 9
        opts = suit_options(tuple(c[b:b + 9]))
        s = 2 * n - _flush_value(opts, hm, hp, n) - wilds
        bound = off + floor
        if s < bound:
            s = bound
        return s if s > floor else floor

    # -- evaluation after removing / adding one tile ---------------------------------------------
    def shanten_delta(self, target: int, remove: int | None = None, add: int | None = None) -> int:
        """Shanten for ``target`` of the hand minus ``remove`` plus ``add`` (either may be None)."""
        c = self.counts
        suit_n = self.suit_n
        hm, hp, pm, pp, wilds, total = self.hm, self.hp, self.pm, self.pp, self.wilds, self.total
        changed = False
        for tile, d in ((remove, -1), (add, 1)):
            if tile is None:
                continue
            total += d
            if tile == self.wild:
                wilds += d
                continue
            if not changed:
                c = c.copy()
                suit_n = suit_n.copy()
                changed = True
            old = c[tile]
            new = old + d
            c[tile] = new
            # pung stats
            pm += (new >= 3) - (old >= 3)
            pp += (new == 2) - (old == 2)
            if tile >= 27:
                hm += (new >= 3) - (old >= 3)
                hp += (new == 2) - (old == 2)
            else:
                suit_n[tile // 9] += d
        return self._eval(target, c, suit_n, hm, hp, pm, pp, wilds, total)

    # -- fast paths used by the players -----------------------------------------------------------
    def discard_shanten(self, target: int) -> dict[int, int]:
        """Shanten for ``target`` after discarding each kind held (a 3k+2 hand → 3k+1)."""
        c = self.counts
        held = [k for k in range(34) if c[k]]
        wild = self.wild
        if self.wilds:
            held.append(wild)  # type: ignore[arg-type]
        n, wilds, total = self.n, self.wilds, self.total - 1
        floor = -1 if total % 3 == 2 else 0
        if target == PUNGS:
            if not self.pungs_ok:
                return dict.fromkeys(held, IMPOSSIBLE)
            pm, pp = self.pm, self.pp
            out = {}
            for d in held:
                if d == wild:
                    s = 2 * n - _pung_value(pm, pp, n) - wilds + 1
                else:
                    x = c[d]
                    s = 2 * n - _pung_value(pm - (x == 3), pp + (x == 3) - (x == 2), n) - wilds
                out[d] = s if s > floor else floor
            return out
        if not self.flush_ok[target]:
            return dict.fromkeys(held, IMPOSSIBLE)
        b = target * 9
        v = c[b:b + 9]
        hm, hp = self.hm, self.hp
        off = self.total - self.wilds - self.suit_n[target] - self.hn
        tv = tuple(v)
        out = {}
        other = None
        for d in held:
            if d == wild:
                s = _flush_eval(tv, hm, hp, n, wilds - 1, off, floor)
            elif d >= 27:
                x = c[d]
                s = _flush_eval(tv, hm - (x == 3), hp + (x == 3) - (x == 2), n, wilds, off, floor)
            elif b <= d < b + 9:
                v[d - b] -= 1
                s = _flush_eval(tuple(v), hm, hp, n, wilds, off, floor)
                v[d - b] += 1
            else:
                if other is None:
                    other = _flush_eval(tv, hm, hp, n, wilds, off - 1, floor)
                s = other
            out[d] = s
        return out

    def ukeire(self, target: int, remove: int | None, unseen: Sequence[int], base: int) -> int:
        """Unseen tiles whose draw lowers ``base``, the shanten for ``target`` of ``self − remove``."""
        c = self.counts
        wild = self.wild
        n, wilds, total = self.n, self.wilds, self.total
        if remove is not None:
            total -= 1
        floor = -1 if (total + 1) % 3 == 2 else 0
        total_u = 0
        if target == PUNGS:
            if not self.pungs_ok:
                return 0
            pm, pp = self.pm, self.pp
            rx = -1
            if remove is not None:
                if remove == wild:
                    wilds -= 1
                else:
                    x = c[remove]
                    pm -= x == 3
                    pp += (x == 3) - (x == 2)
                    rx = remove
            key = (pm, pp, n, wilds, floor, base)
            imp = _PUK_CACHE.get(key)
            if imp is None:
                s1 = 2 * n - _pung_value(pm, pp + 1, n) - wilds  # a single becomes a pair
                s2 = 2 * n - _pung_value(pm + 1, pp - 1, n) - wilds  # a pair becomes a pung
                imp = ((s1 if s1 > floor else floor) < base, (s2 if s2 > floor else floor) < base)
                _PUK_CACHE[key] = imp
            i1, i2 = imp
            if i1 or i2:
                for k in range(34):
                    x = c[k] - (k == rx)
                    if x == 1 and i1 or x == 2 and i2:
                        total_u += unseen[k]
        else:
            if not self.flush_ok[target]:
                return 0
            b = target * 9
            v = c[b:b + 9]
            hm, hp = self.hm, self.hp
            off = self.total - self.wilds - self.suit_n[target] - self.hn
            hc = c[27:34]
            if remove is not None:
                if remove == wild:
                    wilds -= 1
                elif remove >= 27:
                    x = c[remove]
                    hm -= x == 3
                    hp += (x == 3) - (x == 2)
                    hc[remove - 27] -= 1
                elif b <= remove < b + 9:
                    v[remove - b] -= 1
                else:
                    off -= 1
            tv = tuple(v)
            key2 = (tv, hm, hp, n, wilds, off, floor, base)
            fimp = _FUK_CACHE.get(key2)
            if fimp is None:
                si: list[int] = []
                for i in range(9):
                    if v[i] >= 4:
                        continue
                    v[i] += 1
                    if _flush_eval(tuple(v), hm, hp, n, wilds, off, floor) < base:
                        si.append(i)
                    v[i] -= 1
                # an honor drawn onto 0 / 1 / 2 / 3 copies: new single, pair, pung, or a fourth
                h0 = _flush_eval(tv, hm, hp, n, wilds, off, floor) < base
                h1 = _flush_eval(tv, hm, hp + 1, n, wilds, off, floor) < base
                h2 = hp > 0 and _flush_eval(tv, hm + 1, hp - 1, n, wilds, off, floor) < base
                fimp = (tuple(si), (h0, h1, h2, h0))
                if len(_FUK_CACHE) > _CACHE_LIMIT:
                    _FUK_CACHE.clear()
                _FUK_CACHE[key2] = fimp
            for i in fimp[0]:
                k = b + i
                if k != wild:
                    total_u += unseen[k]
            hcls = fimp[1]
            if hcls[0] or hcls[1] or hcls[2]:
                for i in range(7):
                    x = hc[i]
                    k = 27 + i
                    if x < 4 and hcls[x] and k != wild:
                        total_u += unseen[k]
        if wild is not None and unseen[wild] > 0:
            total_u += unseen[wild]  # a drawn 百搭 always helps
        return total_u


_PUK_CACHE: dict[tuple, tuple[bool, bool]] = {}
_FUK_CACHE: dict[tuple, tuple[tuple[int, ...], tuple[bool, ...]]] = {}
_FV_CACHE: dict[tuple, int] = {}


def _flush_eval(v: tuple[int, ...], hm: int, hp: int, n: int, wilds: int, off: int, floor: int) -> int:
    key = (v, hm, hp, n)
    val = _FV_CACHE.get(key)
    if val is None:
        val = _flush_value(suit_options(v), hm, hp, n)
        if len(_FV_CACHE) > _CACHE_LIMIT:
            _FV_CACHE.clear()
        _FV_CACHE[key] = val
    s = 2 * n - val - wilds
    bound = off + floor
    if s < bound:
        s = bound
    return s if s > floor else floor


def ukeire(shape: HandShape, target: int, remove: int | None, unseen: Sequence[int], base: int) -> int:
    """Unseen tiles that lower the shanten (``base``) of ``shape − remove`` for ``target``."""
    return shape.ukeire(target, remove, unseen, base)
