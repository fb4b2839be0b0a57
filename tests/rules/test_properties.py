"""Property tests: the table-driven engine against simple, independent checkers."""

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from jxbot.rules import Ruleset, is_complete, is_winning, score_win, shanten, waits, winning_patterns

from .oracle import oracle_complete

SHAPE_ONLY = Ruleset(name="shape-only", require_pattern=False)


@st.composite
def hands(draw, size=14, max_wild=4, near=True):
    """A hand of ``size`` tiles (≤ 4 of each kind) and a wildcard kind (or None).

    With ``near`` it is built from sets and a pair, then a few tiles are changed, so complete and
    almost-complete hands are both common; tiles of the wildcard kind are wild.
    """
    counts = [0] * 34
    tiles: list[int] = []
    span = draw(st.sampled_from([(0, 9), (0, 27), (0, 34), (27, 34), (9, 18)]))
    if near and draw(st.booleans()):
        target = size + (-size - 1) % 3  # the 3k+2 size at or above ``size``
        while len(tiles) + 3 <= target - 2:
            if draw(st.booleans()):
                block = [draw(st.integers(span[0], span[1] - 1))] * 3
            else:
                k = draw(st.integers(0, 26).filter(lambda k: k % 9 <= 6))
                block = [k, k + 1, k + 2]
            tiles += block
        k = draw(st.integers(span[0], span[1] - 1))
        tiles += [k, k]
        for _ in range(target - size):
            tiles.pop(draw(st.integers(0, len(tiles) - 1)))
        for _ in range(draw(st.integers(0, 2))):
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(span[0], span[1] - 1))
    else:
        tiles = draw(st.lists(st.integers(span[0], span[1] - 1), min_size=size, max_size=size))
    wildcard = None
    nw = draw(st.integers(0, min(max_wild, size)))
    if nw:
        wildcard = draw(st.integers(0, 33))
        idx = draw(st.lists(st.integers(0, size - 1), min_size=nw, max_size=nw, unique=True))
        for i in idx:
            tiles[i] = wildcard
    for t in tiles:
        counts[t] += 1
    assume(max(counts) <= 4)
    return tiles, wildcard


@settings(max_examples=500, deadline=None)
@given(data=st.data())
def test_is_complete_matches_a_simple_recursive_checker(data):
    size = data.draw(st.sampled_from([2, 5, 8, 11, 14, 14, 14]))
    tiles, wc = data.draw(hands(size=size))
    assert is_complete(tiles, wildcard=wc) == oracle_complete(tiles, wc)


_SH = Shanten()


def _ref_shanten(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return _SH.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_shanten_matches_the_mahjong_library_without_wildcards(data):
    size = data.draw(st.sampled_from([13, 14]))
    tiles, _ = data.draw(hands(size=size, max_wild=0))
    # the library also counts a wait on a kind whose four copies are all held as not ready; the engine's
    # shanten is about shape only, so such hands are left out here
    assume(max(Counter(tiles).values()) <= 3)
    assert shanten(tiles) == _ref_shanten(tiles)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_shanten_with_one_wildcard_is_its_best_substitution(data):
    size = data.draw(st.sampled_from([13, 14]))
    lo, hi = data.draw(st.sampled_from([(0, 9), (0, 18), (0, 34), (18, 34)]))
    # at most two of a kind, so no substitution reaches a fifth copy or a "wait on four held"
    pool = data.draw(st.permutations([k for k in range(lo, hi) for _ in range(2)]))
    rest = list(pool[: size - 1])
    wc = data.draw(st.integers(0, 33).filter(lambda k: k not in rest))
    best = min(_ref_shanten(rest + [k]) for k in range(34))
    assert shanten(rest + [wc], wildcard=wc) == best


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_waits_are_exactly_the_completing_kinds(data):
    tiles, wc = data.draw(hands(size=13, max_wild=2))
    seen = Counter(tiles)
    expect = {k for k in range(34) if seen[k] < 4 and oracle_complete(tiles + [k], wc)}
    assert waits(tiles, wildcard=wc, ruleset=SHAPE_ONLY) == expect
    assert (shanten(tiles, wildcard=wc) == 0) == bool(
        {k for k in range(34) if oracle_complete(tiles + [k], wc)})


def _plain_patterns(h):
    suits = {t // 9 for t in h if t < 27}
    out = set()
    if not suits:
        out.add("all_honors")
    elif len(suits) == 1:
        out.add("half_flush" if any(t >= 27 for t in h) else "full_flush")
    c = Counter(h)
    if all(n % 3 in (0, 2) for n in c.values()) and sum(1 for n in c.values() if n % 3 == 2) == 1:
        out.add("all_pungs")
    return out


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_patterns_are_those_of_some_substitution_and_score_agrees(data):
    tiles, wc = data.draw(hands(size=14, max_wild=1))
    nw = tiles.count(wc) if wc is not None else 0
    assume(nw <= 1)  # natural tiles of the wildcard kind are wild too
    rest = [t for t in tiles if t != wc]
    expect: set[str] = set()
    for h in ([rest + [k] for k in range(34)] if nw else [rest]):
        if oracle_complete(h):
            expect |= _plain_patterns(h)
    assert set(winning_patterns(tiles, wildcard=wc)) == expect
    win = is_winning(tiles, wildcard=wc)
    assert win == bool(expect)
    s = score_win(tiles[:-1], tiles[-1], wildcard=wc)
    assert s.winning == win
    if win:
        assert set(s.patterns) <= expect
        assert s.points == s.stake * s.total_tai * 2**s.total_fan


def _decompositions(counts):
    """Every (sets, pair) split of a wildcard-free 3k+2 hand: sets as (is_pung, base)."""
    out = []

    def rec(c, sets, pair):
        i = next((k for k in range(34) if c[k]), None)
        if i is None:
            out.append((tuple(sets), pair))
            return
        if pair is None and c[i] >= 2:
            c[i] -= 2
            rec(c, sets, i)
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            rec(c, sets + [(True, i)], pair)
            c[i] += 3
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            rec(c, sets + [(False, i)], pair)
            for k in (i, i + 1, i + 2):
                c[k] += 1

    rec(list(counts), [], None)
    return [d for d in out if d[1] is not None]


def _best_tai(hand, has_wild, round_wind, seat_wind):
    """Most 台 over every reading of a wildcard-free hand (RULES A6, written out plainly)."""
    best = None
    counts = Counter(hand)
    for sets, pair in _decompositions([counts[k] for k in range(34)]):
        kinds = [t for p, b in sets for t in ((b, b, b) if p else (b, b + 1, b + 2))] + [pair, pair]
        pungs = {b for p, b in sets if p}
        suits = {t // 9 for t in kinds if t < 27}
        honors = any(t >= 27 for t in kinds)
        all_pungs = all(p for p, _ in sets)
        if not suits:
            pattern_tai = 10
        elif len(suits) == 1:
            pattern_tai = 2 if honors else 4
        else:
            pattern_tai = 0
        if not pattern_tai and not all_pungs:
            continue
        tai = pattern_tai + 2 * all_pungs + (not has_wild)
        tai += sum(1 for d in (31, 32, 33) if d in pungs)
        tai += (27 + round_wind in pungs) + (27 + seat_wind in pungs)
        best = tai if best is None else max(best, tai)
    return best


@settings(max_examples=200, deadline=None)
@given(data=st.data(), winds=st.tuples(st.integers(0, 3), st.integers(0, 3)))
def test_score_win_takes_the_highest_scoring_reading(data, winds):
    tiles, wc = data.draw(hands(size=14, max_wild=1))
    nw = tiles.count(wc) if wc is not None else 0
    assume(nw <= 1)
    rest = [t for t in tiles if t != wc]
    options = [_best_tai(rest + [k], nw > 0, *winds) for k in range(34)] if nw else [_best_tai(rest, False, *winds)]
    options = [o for o in options if o is not None]
    s = score_win(tiles[:-1], tiles[-1], wildcard=wc, round_wind=winds[0], seat_wind=winds[1], stake=3)
    if not options:
        assert not s.winning
    else:
        assert s.winning and s.total_tai == max(options) and s.points == 3 * max(options)
