"""The Jiaxing scoring (``jxbot.rules.score_win`` for a jiaxing table asks ``standard_score_win``): the 台
and 番 of a winning hand (RULES A5–A7), highest-scoring reading first.

A reading resolves every wildcard: the concealed tiles are split into sets (real tiles with
wildcards filling the gaps) and a pair, and wildcards left over form whole sets / a pair of any
kind. Only what matters for scoring is enumerated: a lone real tile with two wildcards is read
as a pung (a chow there never scores more), a wildcard-only set is tried as each dragon, each
wind and a pung of each suit, a wildcard-only pair as each suit and as an honor. The reading
with the most points (then the most 台) is the one reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from jxbot.rules.contract import CUMULATIVE_CODES, TAI_CODES, Score, ScoreItem
from jxbot.rules.melds import Meld, MeldKind
from jxbot.rules.ruleset import Ruleset
from jxbot.rules.shape import TILE_CODE as _P
from jxbot.rules.shape import check_hand, is_complete, ready_on_everything
from jxbot.rules.shape import honor_need as _m_honor
from jxbot.rules.shape import suit_need as _m_suit
from jxbot.rules.tiles import EAST, GREEN, NUM_KINDS, RED, WHITE, format_tiles

_B9 = 5**9
_FREE_SET_KINDS = (RED, GREEN, WHITE, EAST, EAST + 1, EAST + 2, EAST + 3, 0, 9, 18)
_FREE_PAIR_KINDS = (0, 9, 18, EAST)

# a set in a reading: (is_pung, base kind, wildcards in it)
_Set = tuple[bool, int, int]


def _feasible(x: int, w: int, pair_placed: bool) -> bool:
    """Can the tiles left (the 34-kind base-5 number x) be completed with w wildcards?"""
    x, c0 = divmod(x, _B9)
    x, c1 = divmod(x, _B9)
    c3, c2 = divmod(x, _B9)
    a0, b0 = _m_suit(c0)
    a1, b1 = _m_suit(c1)
    a2, b2 = _m_suit(c2)
    a3, b3 = _m_honor(c3)
    s = a0 + a1 + a2 + a3
    if pair_placed:
        return s <= w
    return s + min(b0 - a0, b1 - a1, b2 - a2, b3 - a3, 2) <= w


# What a reading contributes to the score: (groups present as a bitmask 万 1 / 筒 2 / 条 4 / honors 8,
# honor kinds punged as a bitmask of kind − 27, any chow, wildcard-only pair, wildcard-only sets).
_Sig = tuple[int, int, bool, bool, int]


def _readings(counts: list[int], w: int) -> dict[_Sig, tuple[tuple[_Set, ...], int | None]]:
    """One representative reading (sets, pair kind or None for a wildcard pair) per distinct score
    signature, over every split of the real tiles (counts) with w wildcards."""
    memo: dict[tuple[int, int, bool], dict[_Sig, tuple[tuple[_Set, ...], int | None]]] = {}

    def add(out: dict, sub: dict, block: _Set) -> None:
        is_pung, b, _ = block
        gbit = _suit_bit(b)
        hbit = 1 << (b - 27) if is_pung and b >= 27 else 0
        for (g, h, chow, fp, fs), (sets, pair) in sub.items():
            key = (g | gbit, h | hbit, chow or not is_pung, fp, fs)
            if key not in out:
                out[key] = ((block, *sets), pair)

    def add_pair(out: dict, sub: dict, kind: int) -> None:
        gbit = _suit_bit(kind)
        for (g, h, chow, fp, fs), (sets, _) in sub.items():
            key = (g | gbit, h, chow, fp, fs)
            if key not in out:
                out[key] = (sets, kind)

    def rec(i: int, x: int, w: int, placed: bool) -> dict[_Sig, tuple[tuple[_Set, ...], int | None]]:
        mk = (x, w, placed)
        got = memo.get(mk)
        if got is not None:
            return got
        out: dict[_Sig, tuple[tuple[_Set, ...], int | None]] = {}
        memo[mk] = out
        while i < NUM_KINDS and not counts[i]:
            i += 1
        if i == NUM_KINDS:
            if placed:
                if w % 3 == 0:
                    out[(0, 0, False, False, w // 3)] = ((), None)
            elif w >= 2 and (w - 2) % 3 == 0:
                out[(0, 0, False, True, (w - 2) // 3)] = ((), None)
            return out
        if not _feasible(x, w, placed):
            return out
        c = counts[i]
        suited = i < 27
        r = i % 9

        def take(kinds: tuple[int, ...], used_w: int, block: _Set | None, pair_kind: int | None = None) -> None:
            dx = 0
            for k in kinds:
                counts[k] -= 1
                dx += _P[k]
            if block is not None:
                add(out, rec(i, x - dx, w - used_w, placed), block)
            else:
                assert pair_kind is not None
                add_pair(out, rec(i, x - dx, w - used_w, True), pair_kind)
            for k in kinds:
                counts[k] += 1

        if c >= 3:
            take((i, i, i), 0, (True, i, 0))  # pung of three real tiles
        if suited and r <= 6 and counts[i + 1] and counts[i + 2]:
            take((i, i + 1, i + 2), 0, (False, i, 0))  # chow of three real tiles
        if not placed:  # the pair: two real tiles, or one and a wildcard
            if c >= 2:
                take((i, i), 0, None, i)
            if w >= 1:
                take((i,), 1, None, i)
        if w >= 1:  # two real tiles and a wildcard: a pung, or a chow with one gap
            if c >= 2:
                take((i, i), 1, (True, i, 1))
            if suited and r <= 7 and counts[i + 1]:
                take((i, i + 1), 1, (False, i if r <= 6 else i - 1, 1))
            if suited and r <= 6 and counts[i + 2]:
                take((i, i + 2), 1, (False, i, 1))
        if w >= 2:  # one real tile and two wildcards: read as a pung (never worse than a chow)
            take((i,), 2, (True, i, 2))
        return out

    x0 = sum(_P[t] * c for t, c in enumerate(counts) if c)
    return rec(0, x0, w, False)


def _set_tiles(is_pung: bool, base: int) -> tuple[int, ...]:
    return (base, base, base) if is_pung else (base, base + 1, base + 2)


def _suit_bit(t: int) -> int:
    return 1 << (t // 9) if t < 27 else 8


def standard_score_win(concealed: Sequence[int], win_tile: int, melds: Sequence[Meld] = (), *,
                       wildcard: int | None = None, self_draw: bool = False, kong_draw: bool = False,
                       last_tile: bool = False, robbing_kong: bool = False, seat_wind: int = 0,
                       round_wind: int = 0, first_turn: bool = False, cumulative: int | Sequence[str] = (),
                       stake: int = 1, rs: Ruleset, float_run: int = 0) -> Score:
    """The standard (Jiaxing, RULES A6/A7) 台 × 2^番 scoring, after ``score_win`` checked the context."""
    check_hand(concealed, melds, extra=(win_tile,), wildcard=wildcard, tiles_mod3=2)
    for m in melds:  # a 白板 plays another kind only in the caishen ruleset (RULES B1)
        if m.kind is MeldKind.CHOW and WHITE in m.tiles:
            raise ValueError(f"not a chow: {format_tiles(m.tiles)} (a 白板 stands in only in the caishen ruleset)")
    if not 0 <= seat_wind <= 3 or not 0 <= round_wind <= 3:
        raise ValueError("seat_wind and round_wind are 0–3 (东南西北)")
    per_win = max(0, rs.cumulative_per_win)  # RULES A7: a win takes at most one, the oldest
    if isinstance(cumulative, int):
        if cumulative < 0:
            raise ValueError("cumulative 番 cannot be negative")
        if cumulative > per_win * rs.fan_cumulative:
            raise ValueError(f"a win takes at most {per_win * rs.fan_cumulative} cumulative 番 (the oldest in "
                             f"the queue; the rest wait for later hands), not {cumulative}")
        cum_items = [ScoreItem("cumulative", cumulative)] if cumulative else []
    else:
        for code in cumulative:
            if code not in CUMULATIVE_CODES:
                raise ValueError(f"unknown cumulative 番 {code!r}; known: {', '.join(CUMULATIVE_CODES)}")
        if len(cumulative) > per_win:
            raise ValueError(f"a win takes at most {per_win} cumulative 番 (the oldest in the queue; the rest "
                             f"wait for later hands), not {len(cumulative)}: {', '.join(cumulative)}")
        cum_items = [ScoreItem(code, rs.fan_cumulative) for code in cumulative]
    if robbing_kong and ready_on_everything(concealed, melds, wildcard, rs):
        raise ValueError("a hand ready on every tile may not rob a kong (RULES A4), so no robbing win scores")

    hand = [*concealed, win_tile]
    if not is_complete(hand, melds, wildcard):
        return Score(winning=False, reason="no_shape", stake=stake)

    w = hand.count(wildcard) if wildcard is not None else 0
    counts = [0] * NUM_KINDS
    for t in hand:
        if t != wildcard:
            counts[t] += 1

    # reading-independent items
    fan: list[ScoreItem] = []
    if w >= 3 and rs.fan_three_wildcards:
        fan.append(ScoreItem("three_wildcards", rs.fan_three_wildcards))
    if kong_draw and self_draw and rs.fan_kong_bloom:
        fan.append(ScoreItem("kong_bloom", rs.fan_kong_bloom))
    if len(melds) == 4 and rs.fan_single_wait:
        fan.append(ScoreItem("single_wait", rs.fan_single_wait))
    if last_tile and self_draw and rs.fan_last_tile:
        fan.append(ScoreItem("last_tile", rs.fan_last_tile))
    if first_turn:
        if seat_wind == 0 and rs.fan_heavenly:
            fan.append(ScoreItem("heavenly", rs.fan_heavenly))
        elif seat_wind != 0 and rs.fan_earthly:
            fan.append(ScoreItem("earthly", rs.fan_earthly))
    fan.extend(cum_items)
    total_fan = sum(i.value for i in fan)
    no_wild = w == 0 and rs.tai_no_wildcard > 0

    meld_pungs = 0  # bitmask of honor kinds punged in melds (bit kind-27)
    meld_suits = 0
    meld_chow = False
    for m in melds:
        meld_suits |= _suit_bit(m.tiles[0])
        if m.kind is MeldKind.CHOW:
            meld_chow = True
        elif m.tiles[0] >= 27:
            meld_pungs |= 1 << (m.tiles[0] - 27)
    round_kind = EAST + round_wind
    seat_kind = EAST + seat_wind

    best: tuple | None = None
    for (g, h, chow, _free_pair, free), (sets, pair) in _readings(counts, w).items():
        pair_opts: tuple[int, ...] = (pair,) if pair is not None else _FREE_PAIR_KINDS
        base_suits = meld_suits | g
        base_pungs = meld_pungs | h
        base_chow = meld_chow or chow
        free_opts: list[tuple[int, ...]] = [()]
        for _ in range(free):
            free_opts = [f + (k,) for f in free_opts for k in _FREE_SET_KINDS if not f or k >= f[-1]]
        for pk in pair_opts:
            for fk in free_opts:
                suits = base_suits | _suit_bit(pk)
                pungs = base_pungs
                for k in fk:
                    suits |= _suit_bit(k)
                    if k >= 27:
                        pungs |= 1 << (k - 27)
                suited = suits & 7
                honors = bool(suits & 8)
                patterns: list[str] = []
                tai: list[ScoreItem] = []
                if pungs >> (RED - 27) & 1:
                    tai.append(ScoreItem("red_dragon", rs.tai_dragon))
                if pungs >> (GREEN - 27) & 1:
                    tai.append(ScoreItem("green_dragon", rs.tai_dragon))
                if pungs >> (WHITE - 27) & 1:
                    tai.append(ScoreItem("white_dragon", rs.tai_dragon))
                if pungs >> (round_kind - 27) & 1:
                    tai.append(ScoreItem("round_wind", rs.tai_round_wind))
                if pungs >> (seat_kind - 27) & 1:
                    tai.append(ScoreItem("seat_wind", rs.tai_seat_wind))
                if no_wild:
                    tai.append(ScoreItem("no_wildcard", rs.tai_no_wildcard))
                if not base_chow:
                    patterns.append("all_pungs")
                    tai.append(ScoreItem("all_pungs", rs.tai_all_pungs))
                if not suited:
                    patterns.append("all_honors")
                    tai.append(ScoreItem("all_honors", rs.tai_all_honors))
                elif suited in (1, 2, 4):
                    if honors:
                        patterns.append("half_flush")
                        tai.append(ScoreItem("half_flush", rs.tai_half_flush))
                    else:
                        patterns.append("full_flush")
                        tai.append(ScoreItem("full_flush", rs.tai_full_flush))
                if rs.require_pattern and not patterns:
                    continue
                tai = [i for i in tai if i.value]
                total_tai = sum(i.value for i in tai)
                points = stake * total_tai * 2**total_fan
                key = (points, total_tai)
                if best is None or key > best[0]:
                    best = (key, tai, patterns, sets, pk, fk)
    if best is None:
        return Score(winning=False, reason="no_pattern", stake=stake)
    (points, total_tai), tai, patterns, sets, pk, fk = best
    tai.sort(key=lambda i: TAI_CODES.index(i.name))
    reading = sorted([_set_tiles(p, b) for p, b, _ in sets] + [_set_tiles(True, k) for k in fk])
    return Score(
        winning=True, tai=tuple(tai), fan=tuple(fan), total_tai=total_tai, total_fan=total_fan, stake=stake,
        points=points, sets=tuple(reading), pair=(pk, pk), patterns=tuple(sorted(patterns)),
    )
