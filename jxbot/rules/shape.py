"""Hand shape analysis with the 百搭 wildcard: ``is_complete``, ``is_winning``, ``waits``,
``ready_on_everything`` and ``shanten``.

How it is fast: each of the four tile groups (万, 筒, 条, honors) is encoded as an int, the
base-5 number of its nine (seven) counts. Tables built once, indexed by that int, give

* ``m0`` — the fewest wildcards that turn the group into sets only (pungs/chows),
* ``m1`` — the fewest wildcards that turn it into sets plus exactly one pair,

so a hand with ``W`` wildcards is complete iff ``Σ m0 + min_g (m1_g − m0_g) ≤ W`` (any surplus
is a multiple of three wildcards, which form a pung of their own). The tables are filled by
walking all count vectors (≤ 14 tiles) through a small automaton over ranks whose transitions
are memoised, which takes about a third of a second at import. ``shanten`` uses a second
table (built on first use) of "most tiles kept with at most b sets, with/without the pair".

Decisions (see docs/rules.md):

* A wildcard may stand for any kind, including its own natural face and a kind whose four real
  copies are already in sight (it is a substitute, not a fifth physical tile).
* ``waits``: a kind whose four copies are all in the hand and melds is not a wait (it cannot be
  drawn or discarded); the wildcard kind itself is a wait when drawing it would win (as a wildcard).
* These functions assume at most four copies of each kind; use ``check_hand`` to validate input.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Sequence

from jxbot.rulesets import behaviour  # the registry (it loads the ruleset packages lazily)

from .melds import Meld, MeldKind
from .ruleset import Ruleset, get_ruleset
from .tiles import NUM_KINDS, format_tile

__all__ = [
    "check_hand", "is_complete", "is_winning", "ready_on_everything", "shanten", "waits",
    "winning_patterns",
]

_INF = 99
_CAP = 15  # m0/m1 are stored saturated at 15 ("15 or more")
_UNKNOWN = 255
_B9 = 5**9
_B27 = _B9**3  # the honors' code: x // _B27
_B7 = 5**7
_SUM_LIMIT = 14  # count vectors up to this many tiles are tabulated; larger ones are computed on demand

# _P[t]: the value of one tile of kind t in the 34-kind base-5 number (groups are 5**9 apart)
_P = [5 ** (t % 9) * _B9 ** (t // 9) if t < 27 else 5 ** (t - 27) * _B9**3 for t in range(NUM_KINDS)]
_GROUP = [t // 9 if t < 27 else 3 for t in range(NUM_KINDS)]
_GPOW = [5 ** (t % 9) if t < 27 else 5 ** (t - 27) for t in range(NUM_KINDS)]


# ---------------------------------------------------------------------------------------------
# The rank automaton for m0/m1. State: costs indexed p*9 + a*3 + b, where a = chows that still
# need this rank and the next, b = chows that still need only this rank, p = pair already placed.


def _complete_step(state: tuple[int, ...], c: int, chows: bool) -> tuple[int, ...]:
    out = [_INF] * 18
    for idx in range(18):
        x = state[idx]
        if x >= _INF:
            continue
        p, rem = divmod(idx, 9)
        a, b = divmod(rem, 3)
        for s in (0, 1, 2) if chows else (0,):
            for q in (0, 1) if p == 0 else (0,):
                need = a + b + s + 2 * q
                w = need - c if c <= need else (need - c) % 3
                y = min(x + w, _CAP)
                j = (p | q) * 9 + s * 3 + a
                if y < out[j]:
                    out[j] = y
    return tuple(out)


class _Automaton:
    """Interned states with memoised transitions; ``final`` maps a state to the table value."""

    def __init__(self, step, size: int, final) -> None:
        self.step = step
        self.final = final
        self.ids: dict[tuple[int, ...], int] = {}
        self.states: list[tuple[int, ...]] = []
        self.trans: dict[int, int] = {}
        self.finals: dict[int, object] = {}
        init = [_INF] * size
        init[0] = 0
        self.start = self._intern(tuple(init))

    def _intern(self, st: tuple[int, ...]) -> int:
        i = self.ids.get(st)
        if i is None:
            i = len(self.states)
            self.ids[st] = i
            self.states.append(st)
        return i

    def next(self, sid: int, c: int, chows: bool) -> int:
        key = sid * 16 + c * 2 + chows
        nid = self.trans.get(key)
        if nid is None:
            nid = self.trans[key] = self._intern(self.step(self.states[sid], c, chows))
        return nid

    def value(self, sid: int):
        f = self.finals.get(sid)
        if f is None:
            f = self.finals[sid] = self.final(self.states[sid])
        return f

    def run(self, counts: Sequence[int], chow_ranks: int):
        sid = self.start
        for r, c in enumerate(counts):
            sid = self.next(sid, c, r < chow_ranks)
        return self.value(sid)

    def fill(self, nranks: int, chow_ranks: int, store) -> None:
        """Call ``store(code, value)`` for every count vector with at most _SUM_LIMIT tiles."""
        pows = [5**r for r in range(nranks)]
        nxt = self.next
        value = self.value

        def dfs(r: int, code: int, tot: int, sid: int) -> None:
            if r == nranks:
                store(code, value(sid))
                return
            chows = r < chow_ranks
            pw = pows[r]
            for c in range(min(4, _SUM_LIMIT - tot) + 1):
                dfs(r + 1, code + c * pw, tot + c, nxt(sid, c, chows))

        dfs(0, 0, 0, self.start)


_COMPLETE = _Automaton(_complete_step, 18, lambda st: (st[0], st[9]))


def _build_complete_tables(nranks: int, chow_ranks: int) -> tuple[bytearray, bytearray]:
    m0 = bytearray([_UNKNOWN]) * (5**nranks)
    m1 = bytearray([_UNKNOWN]) * (5**nranks)

    def store(code: int, v: tuple[int, int]) -> None:
        m0[code] = v[0]
        m1[code] = v[1]

    _COMPLETE.fill(nranks, chow_ranks, store)
    return m0, m1


_M0S, _M1S = _build_complete_tables(9, 7)

_M0H, _M1H = _build_complete_tables(7, 0)


def _digits(code: int, n: int) -> list[int]:
    out = []
    for _ in range(n):
        code, d = divmod(code, 5)
        out.append(d)
    return out


def _m_suit(code: int) -> tuple[int, int]:
    a = _M0S[code]
    if a == _UNKNOWN:  # more than 14 tiles of one suit: walk the automaton
        v = _COMPLETE.run(_digits(code, 9), 7)
        _M0S[code], _M1S[code] = v
    return _M0S[code], _M1S[code]


def _m_honor(code: int) -> tuple[int, int]:
    a = _M0H[code]
    if a == _UNKNOWN:
        v = _COMPLETE.run(_digits(code, 7), 0)
        _M0H[code], _M1H[code] = v
    return _M0H[code], _M1H[code]


def _need(c0: int, c1: int, c2: int, c3: int) -> int:
    """Fewest wildcards that complete the four groups into sets plus one pair."""
    a0, b0 = _m_suit(c0)
    a1, b1 = _m_suit(c1)
    a2, b2 = _m_suit(c2)
    a3, b3 = _m_honor(c3)
    return a0 + a1 + a2 + a3 + min(b0 - a0, b1 - a1, b2 - a2, b3 - a3, 2)


def _split(concealed: Sequence[int], wildcard: int | None) -> tuple[int, int, int, int, int]:
    """(c0, c1, c2, c3, W): the four group codes of the non-wild tiles and the wildcard count."""
    x = sum(map(_P.__getitem__, concealed))
    w = 0
    if wildcard is not None:
        w = concealed.count(wildcard) if hasattr(concealed, "count") else list(concealed).count(wildcard)
        x -= w * _P[wildcard]
    x, c0 = divmod(x, _B9)
    x, c1 = divmod(x, _B9)
    c3, c2 = divmod(x, _B9)
    return c0, c1, c2, c3, w


def is_complete(concealed: Sequence[int], melds: Sequence[Meld] = (), wildcard: int | None = None) -> bool:
    """Is the hand four sets and a pair (exposed melds count as sets)?

    ``concealed`` includes the winning tile and has 3k+2 tiles; every tile of the ``wildcard``
    kind in it stands for any tile. Melds are complete sets, so only the concealed part matters.
    """
    if len(concealed) % 3 != 2:
        return False
    x = sum(map(_P.__getitem__, concealed))
    w = 0
    if wildcard is not None:
        w = concealed.count(wildcard) if hasattr(concealed, "count") else list(concealed).count(wildcard)
        x -= w * _P[wildcard]
    if not w:  # early reject (issue 30): with no wildcard the honors must be sets, or sets and the pair
        h = _M0H[x // _B27]
        if h and h != _UNKNOWN and _M1H[x // _B27]:
            return False
    x, c0 = divmod(x, _B9)
    x, c1 = divmod(x, _B9)
    c3, c2 = divmod(x, _B9)
    a0 = _M0S[c0]
    a1 = _M0S[c1]
    a2 = _M0S[c2]
    a3 = _M0H[c3]
    if a0 == _UNKNOWN or a1 == _UNKNOWN or a2 == _UNKNOWN or a3 == _UNKNOWN:
        return _need(c0, c1, c2, c3) <= w
    return a0 + a1 + a2 + a3 + min(_M1S[c0] - a0, _M1S[c1] - a1, _M1S[c2] - a2, _M1H[c3] - a3, 2) <= w


# ---------------------------------------------------------------------------------------------
# Patterns (A5): 清一色 / 混一色 / 字一色 / 对对胡, with wildcards counting as what they stand for.

_PUNG0 = (0, 2, 1, 0, 2)  # wildcards to make c tiles of one kind into pungs only
_PAIR_DELTA = (2, -1, -1, 2, -1)  # change when that kind also gives the pair


def _meld_info(melds: Sequence[Meld]) -> tuple[int, bool]:
    """(bitmask of groups present in the melds, any chow meld)."""
    mask = 0
    chow = False
    for m in melds:
        mask |= 1 << _GROUP[m.tiles[0]]
        if m.kind is MeldKind.CHOW:
            chow = True
    return mask, chow


def _pungs_need(codes: tuple[int, int, int, int]) -> int:
    """Fewest wildcards for a reading with pungs and a pair only."""
    total = 0
    best = 2
    for g, code in enumerate(codes):
        for _ in range(9 if g < 3 else 7):
            if not code:
                break
            code, c = divmod(code, 5)
            total += _PUNG0[c]
            if _PAIR_DELTA[c] < best:
                best = _PAIR_DELTA[c]
    return total + best


def _patterns(c0: int, c1: int, c2: int, c3: int, w: int, mmask: int, mchow: bool) -> list[str]:
    """Every pattern some complete reading of the hand has (the hand must be complete)."""
    out: list[str] = []
    codes = (c0, c1, c2, c3)
    mask = mmask | (c0 != 0) | (c1 != 0) << 1 | (c2 != 0) << 2 | (c3 != 0) << 3
    suited = mask & 7
    honors = bool(mask & 8)
    ha, hb = _m_honor(c3)
    if not suited:
        out.append("all_honors")  # honors (and wildcards) only: the wildcards can all be honors
        if not honors:  # wildcards only: they can be one suit, or one suit and honors
            out.append("full_flush")
            if w >= 5:
                out.append("half_flush")
        elif min(ha + 2, hb + 3) <= w:  # a wildcard pair or set of some suit beside the honors
            out.append("half_flush")
    elif suited in (1, 2, 4):
        a, b = _m_suit(codes[suited >> 1])  # 1 → 万, 2 → 筒, 4 → 条
        if not honors:
            if b <= w:
                out.append("full_flush")
            # a half flush then needs wildcards standing for honors: a pair or a set of them
            if min(a + 2, b + 3) <= w:
                out.append("half_flush")
        elif min(a + hb, b + ha) <= w:
            out.append("half_flush")
    if not mchow and _pungs_need(codes) <= w:
        out.append("all_pungs")
    return out


def _ruleset(ruleset: str | Ruleset) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)


def winning_patterns(concealed: Sequence[int], melds: Sequence[Meld] = (), wildcard: int | None = None) -> list[str]:
    """Patterns (codes ``full_flush``, ``half_flush``, ``all_honors``, ``all_pungs``) that some
    complete reading of the hand has; empty if the hand is not complete."""
    if not is_complete(concealed, melds, wildcard):
        return []
    c0, c1, c2, c3, w = _split(concealed, wildcard)
    return _patterns(c0, c1, c2, c3, w, *_meld_info(melds))


def _wins(c0: int, c1: int, c2: int, c3: int, w: int, mmask: int, mchow: bool, rs: Ruleset) -> bool:
    if _need(c0, c1, c2, c3) > w:
        return False
    if not rs.require_pattern:
        return True
    return bool(_patterns(c0, c1, c2, c3, w, mmask, mchow))


def is_winning(concealed: Sequence[int], melds: Sequence[Meld] = (), wildcard: int | None = None,
               ruleset: str | Ruleset = "jiaxing") -> bool:
    """Shape (``is_complete``) and, in Jiaxing, at least one pattern: 清一色, 混一色 (one suit plus at
    least one honor), 字一色 or 对对胡. Melds count; any valid reading of the wildcards suffices."""
    if len(concealed) % 3 != 2:
        return False
    rs = _ruleset(ruleset)
    return behaviour(rs).is_winning(concealed, melds, wildcard, rs)  # jiaxing: pattern_wins; caishen: its own


def pattern_wins(concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None, rs: Ruleset) -> bool:
    """The standard (Jiaxing, RULES A5) test: shape and, when ``rs.require_pattern``, a pattern."""
    if len(concealed) % 3 != 2:
        return False
    c0, c1, c2, c3, w = _split(concealed, wildcard)
    # early reject (issue 30): the shape from the tables directly, before any function call; most
    # hands asked (every seat on every discard) are not complete
    a0, a1, a2, a3 = _M0S[c0], _M0S[c1], _M0S[c2], _M0H[c3]
    if a0 != _UNKNOWN and a1 != _UNKNOWN and a2 != _UNKNOWN and a3 != _UNKNOWN:
        if a0 + a1 + a2 + a3 + min(_M1S[c0] - a0, _M1S[c1] - a1, _M1S[c2] - a2, _M1H[c3] - a3, 2) > w:
            return False
        if not rs.require_pattern:
            return True
        return bool(_patterns(c0, c1, c2, c3, w, *_meld_info(melds)))
    return _wins(c0, c1, c2, c3, w, *_meld_info(melds), rs)


def waits(concealed: Sequence[int], melds: Sequence[Meld] = (), wildcard: int | None = None,
          ruleset: str | Ruleset = "jiaxing") -> set[int]:
    """Kinds that would make the 3k+1-tile hand win (``is_winning``).

    A kind whose four copies are all in the hand and melds is left out; the wildcard kind is in the
    set when drawing a wildcard wins.
    """
    if len(concealed) % 3 != 1:
        return set()
    rs = _ruleset(ruleset)
    return behaviour(rs).waits(concealed, melds, wildcard, rs)  # jiaxing: pattern_waits


def pattern_waits(concealed: Sequence[int], melds: Sequence[Meld], wildcard: int | None, rs: Ruleset) -> set[int]:
    """The standard (Jiaxing) ``waits``: kinds for which ``pattern_wins`` holds."""
    if len(concealed) % 3 != 1:
        return set()
    c0, c1, c2, c3, w = _split(concealed, wildcard)
    mmask, mchow = _meld_info(melds)
    seen = [0] * NUM_KINDS
    for t in concealed:
        seen[t] += 1
    for m in melds:
        for t in m.tiles:
            seen[t] += 1
    codes = [c0, c1, c2, c3]
    out: set[int] = set()
    for t in range(NUM_KINDS):
        if seen[t] >= 4:
            continue
        if t == wildcard:
            if _wins(c0, c1, c2, c3, w + 1, mmask, mchow, rs):
                out.add(t)
            continue
        g = _GROUP[t]
        cs = codes.copy()
        cs[g] += _GPOW[t]
        if _wins(cs[0], cs[1], cs[2], cs[3], w, mmask, mchow, rs):
            out.add(t)
    return out


def ready_on_everything(concealed: Sequence[int], melds: Sequence[Meld] = (), wildcard: int | None = None,
                        ruleset: str | Ruleset = "jiaxing") -> bool:
    """True when the 3k+1-tile hand wins with every one of the 34 kinds (RULES A4: such a seat may
    not rob a kong). Copies in sight do not matter here: it is about the hand's shape."""
    if len(concealed) % 3 != 1:
        return False
    rs = _ruleset(ruleset)
    c0, c1, c2, c3, w = _split(concealed, wildcard)
    mmask, mchow = _meld_info(melds)
    codes = [c0, c1, c2, c3]
    for t in range(NUM_KINDS):
        if t == wildcard:
            ok = _wins(c0, c1, c2, c3, w + 1, mmask, mchow, rs)
        else:
            cs = codes.copy()
            cs[_GROUP[t]] += _GPOW[t]
            ok = _wins(cs[0], cs[1], cs[2], cs[3], w, mmask, mchow, rs)
        if not ok:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Shanten. For a group, g[p*5 + b] = most of its tiles kept in a reading with at most b sets
# (a set may be partial, its gaps filled by wildcards) and, if p, the pair. The rest is junk to
# replace. With k sets to make, n concealed tiles and W wildcards: replacements r = n − W − kept,
# and shanten = r − 1 for a 3k+2 hand (−1 = complete), r for a 3k+1 hand (0 = ready).

_SH_TRANS: dict[tuple[int, bool], list[tuple[tuple[int, int], ...]]] = {}


def _shanten_transitions() -> None:
    for c in range(5):
        for chows in (False, True):
            rows = []
            for idx in range(90):
                rest, sets = divmod(idx, 5)
                rest, b = divmod(rest, 3)
                p, a = divmod(rest, 3)
                best: dict[int, int] = {}
                for s in (0, 1, 2) if chows else (0,):
                    for q in (0, 1) if p == 0 else (0,):
                        for u in (0, 1, 2):  # a 4th tile of a kind can be a lone tile of a second set
                            ns = sets + s + u
                            if ns > 4:
                                continue
                            need = a + b + s + 2 * q + 3 * u
                            w = need - c if c < need else 0
                            j = (((p | q) * 3 + s) * 3 + a) * 5 + ns
                            if w < best.get(j, _INF):
                                best[j] = w
                rows.append(tuple(best.items()))
            _SH_TRANS[c, chows] = rows


def _shanten_step(state: tuple[int, ...], c: int, chows: bool) -> tuple[int, ...]:
    out = [_INF] * 90
    rows = _SH_TRANS[c, chows]
    for idx, x in enumerate(state):
        if x >= _INF:
            continue
        for j, w in rows[idx]:
            y = x + w
            if y < out[j]:
                out[j] = y
    return tuple(out)


def _shanten_final(st: tuple[int, ...]) -> tuple[int, ...]:
    g = []
    for p in (0, 1):
        best = -1
        for b in range(5):
            w = st[p * 45 + b]
            if w < _INF:
                best = max(best, 3 * b + 2 * p - w)
            g.append(best)
    return tuple(g)


class _ShantenTables:
    def __init__(self) -> None:
        _shanten_transitions()
        self.auto = _Automaton(_shanten_step, 90, _shanten_final)
        self.values: list[tuple[int, ...]] = []
        self.value_ids: dict[tuple[int, ...], int] = {}
        self.suit = self._table(9, 7)
        self.honor = self._table(7, 0)

    def _vid(self, v: tuple[int, ...]) -> int:
        i = self.value_ids.get(v)
        if i is None:
            i = self.value_ids[v] = len(self.values)
            self.values.append(v)
        return i

    def _table(self, nranks: int, chow_ranks: int) -> array:
        tab = array("H", [65535]) * (5**nranks)

        def store(code: int, v: tuple[int, ...]) -> None:
            tab[code] = self._vid(v)

        self.auto.fill(nranks, chow_ranks, store)
        return tab

    def get(self, code: int, honor: bool) -> tuple[int, ...]:
        tab = self.honor if honor else self.suit
        i = tab[code]
        if i == 65535:
            v = self.auto.run(_digits(code, 7 if honor else 9), 0 if honor else 7)
            i = tab[code] = self._vid(v)
        return self.values[i]


_SHANTEN: _ShantenTables | None = None
_SHANTEN_LOCK = threading.Lock()  # built once, by whichever thread asks first (the bot warms them in a thread)


def _shanten_tables() -> _ShantenTables:
    global _SHANTEN
    if _SHANTEN is None:
        with _SHANTEN_LOCK:
            if _SHANTEN is None:
                _SHANTEN = _ShantenTables()
    return _SHANTEN


def shanten_tables_ready() -> bool:
    return _SHANTEN is not None


def warm_shanten_tables() -> None:
    """Build the shanten tables now (about a second) rather than in the first ``shanten`` call."""
    _shanten_tables()


_EMPTY_G = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def _combine(A: tuple[int, ...], B: tuple[int, ...], k: int) -> tuple[int, ...]:
    out = [0] * 10
    for t in range(k + 1):
        best0 = -1
        best1 = -1
        for i in range(t + 1):
            j = t - i
            a0 = A[i]
            b0 = B[j]
            v = a0 + b0
            if v > best0:
                best0 = v
            v = A[5 + i] + b0
            if v > best1:
                best1 = v
            v = a0 + B[5 + j]
            if v > best1:
                best1 = v
        out[t] = best0
        out[5 + t] = best1
    return tuple(out)


def shanten(concealed: Sequence[int], melds: Sequence[Meld] = (), wildcard: int | None = None) -> int:
    """Tiles from ready, by shape only (no pattern requirement), wildcard-aware.

    For a 3k+1 hand: 0 = ready (some tile completes it), 1 = one useful exchange from ready…
    For a 3k+2 hand: −1 = complete, 0 = one discard from ready… (the usual convention).
    """
    n = len(concealed)
    if n % 3 == 0 or n > 14:
        raise ValueError(f"shanten needs 3k+1 or 3k+2 concealed tiles (at most 14), not {n}")
    tabs = _shanten_tables()
    c0, c1, c2, c3, w = _split(concealed, wildcard)
    k = n // 3
    acc: tuple[int, ...] | None = None
    for code, honor in ((c0, False), (c1, False), (c2, False), (c3, True)):
        if not code:
            continue
        g = tabs.get(code, honor)
        acc = g if acc is None else _combine(acc, g, k)
    kept = (acc or _EMPTY_G)[5 + k]
    r = n - w - kept
    return r - 1 if n % 3 == 2 else r


# ---------------------------------------------------------------------------------------------


def check_hand(concealed: Sequence[int], melds: Sequence[Meld] = (), *, extra: Sequence[int] = (),
               wildcard: int | None = None, tiles_mod3: int | None = None, full: bool = True) -> None:
    """Raise ``ValueError`` for an impossible hand: a tile that is not a kind, a fifth copy (counting
    ``extra`` tiles such as the winning tile), more than four melds, or a wrong tile count (with
    ``full``, concealed + 3 × melds must be 13 or 14 tiles, counting ``extra``)."""
    counts = [0] * NUM_KINDS
    for t in list(concealed) + list(extra):
        if not isinstance(t, int) or not 0 <= t < NUM_KINDS:
            raise ValueError(f"not a tile kind: {t!r}")
        counts[t] += 1
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    for t, c in enumerate(counts):
        if c > 4:
            raise ValueError(f"impossible hand: {c} copies of {format_tile(t)} (there are only 4)")
    if wildcard is not None:
        if not 0 <= wildcard < NUM_KINDS:
            raise ValueError(f"not a tile kind for the wildcard: {wildcard!r}")
        if any(wildcard in m.tiles for m in melds):
            raise ValueError(f"impossible hand: the wildcard {format_tile(wildcard)} never takes part in a meld")
    if len(melds) > 4:
        raise ValueError(f"impossible hand: {len(melds)} melds (at most 4)")
    n = len(concealed) + len(extra)
    if tiles_mod3 is not None and n % 3 != tiles_mod3:
        raise ValueError(f"wrong tile count: {n} concealed tiles")
    if full and n + 3 * len(melds) not in (13, 14):
        raise ValueError(f"wrong tile count: {n} concealed tiles and {len(melds)} melds "
                         f"(a hand is 13 tiles, 14 with the winning tile, each meld counting 3)")


# Shared with the rulesets' own analysis (jxbot.rulesets.*): the group codes and their set tables.
split_groups = _split  # (万, 筒, 条, honor) codes and the wildcard count of a hand
suit_need = _m_suit  # (wildcards for sets only, for sets + one pair) of a suit code
honor_need = _m_honor  # the same for the honor code
TILE_CODE = _P  # TILE_CODE[t]: the value of one tile of kind t in the 34-kind base-5 number
