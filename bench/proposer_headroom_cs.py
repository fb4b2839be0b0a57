"""The caishen pattern-play variants of ``bench/proposer_headroom.py`` (docs/ai.md "Caishen: the patterns that win on
a discard"): stand-ins for functions of ``jxbot.rulesets.caishen.ai`` / ``ai_hard`` that the bench swaps in only
while its challenger decides. They play for what wins on a discard (RULES B4: 財神頭 ×4, 單釣財神頭 ×8, 正規不搭 ×4,
totals however won) where the shipped player plays for a plain hand (×2, by self-draw only).

The shipped functions they fall back to are kept here as imported, before any swap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jxbot.ai.claims import ClaimOption, best_claim
from jxbot.ai.seatview import GANG
from jxbot.rules.melds import Meld
from jxbot.rules.shape import shanten
from jxbot.rules.tiles import WHITE
from jxbot.rulesets.caishen import ai as cs_ai
from jxbot.rulesets.caishen import ai_hard as cs_hard
from jxbot.rulesets.caishen.rules import WILD, _sets_only, analyse, face

_CsClaim = cs_ai.claim
_CsFloatInstead = cs_ai._float_instead
_CsDecide = cs_ai.decide
_CsHardTurn = cs_hard._turn


def _cs_single_head_discards(tb: Any) -> list[int]:
    """Caishen: the discards after which the hand is four sets and a lone 財神 (單釣財神頭: every tile but a
    float wins it, ×8 on a discard or a self-draw; a floated 財神 makes it 單釣漂財, ×16 on the next draw)."""
    cs = tb.wild
    faced = cs_ai._faced(tb.hand, cs)
    out = []
    for d in sorted(set(tb.hand)):
        rest = list(faced)
        rest.remove(face(d, cs))
        if WILD not in rest:
            continue
        rest.remove(WILD)
        if _sets_only(rest):
            out.append(d)
    return out


def _cs_single_head(float_too: bool, min_wall: int = 8, decline_head: int = 0) -> Callable[[Any], dict | None]:
    """Caishen: decline a self-draw worth less than 單釣財神頭 (a 財神頭 win, ×4, is always four sets and 財神 + X)
    when a discard leaves four sets and a lone 財神: discard X and every tile wins ×8; with ``float_too``, when
    the second 財神 is that X, float it (單釣漂財: the next draw wins ×16, whatever it is)."""

    def _float_instead(tb: Any) -> dict | None:
        cs = tb.wild
        if cs is None or tb.drawn is None or tb.view.get("wall_remaining", 0) < min_wall:
            return _CsFloatInstead(tb)
        melds = [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]
        before = list(tb.hand)
        before.remove(tb.drawn)
        mult, _items, _p, ok = analyse(before, tb.drawn, melds, caishen=cs, self_draw=True)
        opts = _cs_single_head_discards(tb)
        acts = {a["tile"]: a for a in tb.by_type.get("discard", [])}
        if float_too and cs in opts and cs in acts and mult < 16:
            return acts[cs]
        plain = [d for d in opts if d != cs and d in acts]
        if plain and mult < 8:
            return acts[plain[0]]
        if decline_head and ok and mult <= 2 and cs in tb.hand:
            d = _cs_best_head_wait(tb, melds, acts, decline_head)
            if d is not None:
                return acts[d]
        return _CsFloatInstead(tb)

    return _float_instead


def _cs_best_head_wait(tb: Any, melds: list[Any], acts: dict, need: int) -> int | None:
    """The discard (not a 財神) leaving the most unseen tiles that win as 財神頭 (on a discard too), when at
    least ``need``; else None."""
    cs = tb.wild
    un = tb.unseen
    best: tuple[int, int] | None = None
    for d in sorted(set(tb.hand)):
        if d == cs or d not in acts:
            continue
        rest = list(tb.hand)
        rest.remove(d)
        n = 0
        for k in range(34):
            if un[k]:
                _m, _i, pats, ok = analyse(rest, k, melds, caishen=cs, self_draw=False)
                if ok and ("caishen_head" in pats or "single_caishen_head" in pats):
                    n += un[k]
        if n >= need and (best is None or n > best[0]):
            best = (n, d)
    return None if best is None else best[1]


def _cs_single_turn(tb: Any) -> dict:
    """Caishen turn: after a claim that left four sets, a 財神 and X, discard X (every tile wins ×8); the
    shipped player would float the 財神 (漂財 on X alone)."""
    acts = {a["tile"]: a for a in tb.by_type.get("discard", [])}
    plain = [d for d in _cs_single_head_discards(tb) if d != tb.wild and d in acts]
    return acts[plain[0]] if plain else _CsHardTurn(tb)


def _cs_single_claim_decide(tb: Any) -> dict:
    """Caishen: offered a 胡 on a discard worth less than ×8, 碰/吃/杠 it instead when the hand is then four
    sets, a 財神 and X (discard X: every tile wins ×8, 單釣財神頭)."""
    bt = tb.by_type
    cs = tb.wild
    if cs is None or "hu" not in bt or tb.view.get("wall_remaining", 0) < 8:
        return _CsDecide(tb)
    ld = tb.view.get("last_discard") or {}
    melds = [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]
    mult, _i, _p, ok = analyse(tb.hand, ld["tile"], melds, caishen=cs, self_draw=False)
    if ok and mult >= 8:
        return _CsDecide(tb)

    def single(o: ClaimOption) -> tuple[int, None] | None:
        faced = cs_ai._faced(o.tiles(), cs)
        if WILD not in faced:
            return None
        for x in set(faced):
            r = list(faced)
            r.remove(x)
            if WILD not in r:
                continue
            r.remove(WILD)
            if x != WILD and _sets_only(r):
                return (0, None)
        return None

    best = best_claim(tb, single, face=lambda k: WHITE if k == cs else k)
    return best[0].action if best is not None else _CsDecide(tb)


def _cs_ready_value_head(f: int) -> Callable[[Any, list[int], list[Any]], int]:
    """Caishen: ``ai_hard._ready_value`` with a 財神頭 wait worth ×``f`` more (its completion is four sets, a
    財神 and X: declined for 單釣財神頭, it is worth ×8 on any tile, cs_single)."""

    def _ready_value(tb: Any, rest: list[int], melds: list[Any]) -> int:
        cs = tb.wild
        un = tb.unseen
        total = 0
        for k in range(34):
            if not un[k]:
                continue
            for sd, wt in ((True, 1), (False, cs_hard.RON_WEIGHT)):
                mult, _items, pats, ok = analyse(rest, k, melds, caishen=cs, self_draw=sd)
                if ok and mult >= 2:
                    total += wt * un[k] * mult * (f if "caishen_head" in pats else 1)
        return total

    return _ready_value


def _cs_beigen_turn(tb: Any) -> dict:
    """Caishen 被跟 (RULES B7): in the first go-round, when every discard so far is the dealer's first tile T and
    this seat holds T, discard T (the dealer pays each other seat 2 if all three follow) unless that puts the
    hand further from ready than its best discard."""
    v = tb.view
    dealer = v.get("dealer", 0)
    cs = tb.wild
    seats = v["seats"]
    acts = {a["tile"]: a for a in tb.by_type.get("discard", [])}
    if tb.me != dealer and cs is not None and not any(s["melds"] for s in seats) and not seats[tb.me]["discards"]:
        first = seats[dealer]["discards"]
        before = [(dealer + i) % 4 for i in range(1, (tb.me - dealer) % 4)]
        if len(first) == 1 and not first[0]["claimed"]:
            t = first[0]["tile"]
            if t != cs and t in acts and all(len(seats[s]["discards"]) == 1 and seats[s]["discards"][0]["tile"] == t
                                              and not seats[s]["discards"][0]["claimed"] for s in before):
                faced = cs_ai._faced(tb.hand, cs)
                best = min(cs_ai.hand_shanten([*faced[:i], *faced[i + 1:]], 0)[0] for i in range(len(faced))
                           if faced[i] != WILD)
                rest = list(faced)
                rest.remove(face(t, cs))
                if cs_ai.hand_shanten(rest, 0)[0] <= best:
                    return acts[t]
    return _cs_single_turn(tb)


def _cs_head_shanten(faced13: list[int]) -> int:
    """Caishen: steps from a 財神頭 wait (0: a 財神 and X pair off and the rest is three sets and a partial),
    read as the ordinary shanten with one 財神 swapped for a pair of a phantom honour held nowhere: 99
    without a 財神 (or with no honour kind free)."""
    if WILD not in faced13:
        return 99
    free = [k for k in range(27, 34) if k != WILD and k not in faced13]
    if not free:
        return 99
    rest = list(faced13)
    rest.remove(WILD)
    return shanten([*rest, free[0], free[0]], (), WILD)


def _cs_head_turn(first: bool) -> Callable[[Any], dict]:
    """Caishen turn: ``ai_hard._turn`` with one more key among discards equally near ready: the steps from a
    財神頭 wait (``_cs_head_shanten``), before the useful draws (``first``) or after them. A 財神頭 wait wins
    on a discard (×4) and its completion is four sets, a 財神 and X (cs_single: ×8 on every tile). After a
    claim that left four sets, a 財神 and X it discards X (``_cs_single_turn``)."""

    def _turn(tb: Any) -> dict:
        bt = tb.by_type
        cs = tb.wild
        discards = {a["tile"]: a for a in bt["discard"]}
        plain = [d for d in _cs_single_head_discards(tb) if d != cs and d in discards]
        if plain:
            return discards[plain[0]]
        if cs not in tb.hand:
            return _CsHardTurn(tb)
        _tile, _s0, floats = cs_ai.best_discard(tb, sorted(discards))
        if floats or bt.get("angang") or bt.get("bugang"):
            return _CsHardTurn(tb)
        risk = cs_hard._dabao_risk(tb)
        melds_n = len(tb.melds)
        faced = [face(t, cs) for t in tb.hand]
        rows = []
        for d in sorted(discards):
            if d == cs and len(discards) > 1:
                continue
            rest = list(faced)
            rest.remove(face(d, cs))
            sh, kind = cs_ai.hand_shanten(rest, melds_n)
            rows.append([sh + (cs_hard.DABAO_STEP if d in risk else 0.0), -kind, d, rest, sh])
        top = min((r[0], r[1]) for r in rows)
        tied = [r for r in rows if (r[0], r[1]) == top]
        if len(tied) < 2 or tied[0][4] == 0:
            return _CsHardTurn(tb)

        def uk(r: list[Any]) -> int:
            if r[4] <= cs_ai.UKEIRE_MAX_SHANTEN:
                return int(cs_ai._ukeire(r[3], melds_n, r[4], tb.unseen, cs))
            return 0

        c = tb.counts
        keyed = []
        for r in tied:
            hs = _cs_head_shanten(r[3])
            u = uk(r)
            keyed.append(((hs, -u) if first else (-u, hs), cs_ai._keep_value(c, r[2]), r[2]))
        return discards[min(keyed)[2]]

    return _turn


def _cs_claim_head(tb: Any, *, on_pairs: bool) -> dict:
    """Caishen: 碰/吃/杠 a discard (not offered as a win) when the hand holds a 財神, is not a 財神頭 wait now and
    the claim with its best discard makes one on at least 2 unseen tiles (a 財神頭 wait wins on a discard, ×4);
    else the shipped claim."""
    cs = tb.wild
    ld = tb.view.get("last_discard") or {}
    if cs is None or cs not in tb.hand or ld.get("tile") is None or not tb.by_type.get("pass") \
            or tb.view.get("wall_remaining", 0) < 8:
        return _CsClaim(tb, on_pairs=on_pairs)
    faced = cs_ai._faced(tb.hand, cs)
    if _cs_head_shanten(faced) == 0:
        return _CsClaim(tb, on_pairs=on_pairs)
    un = tb.unseen

    def head(o: ClaimOption) -> tuple[int, None] | None:
        if o.type == GANG:
            return None
        tiles = o.tiles()
        melds = [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]
        best = 0
        for e in sorted(set(tiles)):
            if e == cs:
                continue
            rest = list(tiles)
            rest.remove(e)
            if _cs_head_shanten(cs_ai._faced(rest, cs)) != 0:
                continue
            n = 0
            for k in range(34):
                if un[k]:
                    _m, _i, pats, ok = analyse(rest, k, melds, caishen=cs, self_draw=False)
                    if ok and ("caishen_head" in pats or "single_caishen_head" in pats):
                        n += un[k]
            best = max(best, n)
        return (-best, None) if best >= 2 else None

    got = best_claim(tb, head, face=lambda k: WHITE if k == cs else k)
    return got[0].action if got is not None else _CsClaim(tb, on_pairs=on_pairs)


def _cs_head_key_turn(mode: str) -> Callable[[Any], dict]:
    """Caishen turn with a 財神 in hand: the steps from a 財神頭 wait (``_cs_head_shanten``) weigh before the
    steps from any ready hand (``mode`` "key": head steps first, then the shipped shanten; "sum": their sum
    first). Among equals: the ready hand's worth (``ai_hard._ready_value``) when ready, else useful draws,
    then the tile least worth keeping. With a claim's four sets, a 財神 and X: X (``_cs_single_turn``)."""

    def _turn(tb: Any) -> dict:
        bt = tb.by_type
        cs = tb.wild
        discards = {a["tile"]: a for a in bt["discard"]}
        plain = [d for d in _cs_single_head_discards(tb) if d != cs and d in discards]
        if plain:
            return discards[plain[0]]
        if cs not in tb.hand:
            return _CsHardTurn(tb)
        _tile, _s0, floats = cs_ai.best_discard(tb, sorted(discards))
        if floats or bt.get("angang") or bt.get("bugang"):
            return _CsHardTurn(tb)
        risk = cs_hard._dabao_risk(tb)
        melds_n = len(tb.melds)
        faced = [face(t, cs) for t in tb.hand]
        rows = []
        for d in sorted(discards):
            if d == cs:
                continue
            rest = list(faced)
            rest.remove(face(d, cs))
            sh, _kind = cs_ai.hand_shanten(rest, melds_n)
            sh2 = sh + (cs_hard.DABAO_STEP if d in risk else 0.0)
            hs = min(_cs_head_shanten(rest), 9)
            rows.append(((hs, sh2) if mode == "key" else (hs + sh2, sh2), d, rest, sh))
        if not rows:
            return _CsHardTurn(tb)
        top = min(r[0] for r in rows)
        tied = [r for r in rows if r[0] == top]
        c = tb.counts
        if len(tied) > 1:
            if all(r[3] == 0 for r in tied):
                melds = [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]
                vals = []
                for r in tied:
                    real = list(tb.hand)
                    real.remove(r[1])
                    vals.append(cs_hard._ready_value(tb, real, melds))
            elif tied[0][3] <= cs_ai.UKEIRE_MAX_SHANTEN:
                vals = [int(cs_ai._ukeire(r[2], melds_n, r[3], tb.unseen, cs)) for r in tied]
            else:
                vals = [0] * len(tied)
            most = max(vals)
            tied = [r for v, r in zip(vals, tied, strict=True) if v == most]
        pick = min(tied, key=lambda r: (cs_ai._keep_value(c, r[1]), r[1]))
        return discards[pick[1]]

    return _turn


def _cs_danger(t: int, un: list[int]) -> int:
    """How many ways a pattern hand (財神頭, seven pairs: the hands that win on a discard) could wait on ``t``: a
    pair of it unseen (a pung or pair wait), plus the unseen pairs of neighbours that it would complete."""
    d = 1 if un[t] >= 2 else 0
    if t < 27:
        r = t % 9
        for a, b in ((-2, -1), (-1, 1), (1, 2)):
            if 0 <= r + a <= 8 and 0 <= r + b <= 8:
                d += min(un[t + a], un[t + b])
    return d


def _cs_defend_turn(inner: Callable[[Any], dict], wall: int) -> Callable[[Any], dict]:
    """Caishen turn: when the hand is two or more steps from ready and at most ``wall`` tiles are left, the
    least dangerous (``_cs_danger``) of the discards equally near ready; else ``inner``."""

    def _turn(tb: Any) -> dict:
        pick = inner(tb)
        cs = tb.wild
        if pick.get("type") != "discard" or tb.view.get("wall_remaining", 99) > wall:
            return pick
        discards = {a["tile"]: a for a in tb.by_type["discard"]}
        faced = cs_ai._faced(tb.hand, cs)
        rows = []
        for d in sorted(discards):
            if d == cs:
                continue
            rest = list(faced)
            rest.remove(face(d, cs))
            rows.append((cs_ai.hand_shanten(rest, len(tb.melds)), d))
        if not rows:
            return pick
        top = min(r[0] for r in rows)
        if top[0] < 2:
            return pick
        un = tb.unseen
        tied = [r[1] for r in rows if r[0] == top]
        low = min(_cs_danger(d, un) for d in tied)
        if pick["tile"] in tied and _cs_danger(pick["tile"], un) == low:
            return pick
        c = tb.counts
        best = min((d for d in tied if _cs_danger(d, un) == low), key=lambda d: (cs_ai._keep_value(c, d), d))
        return discards[best]

    return _turn


def _cs_budai_kept(faced: list[int]) -> int:
    """Tiles of a faced hand that fit one 正規不搭 (distinct honours; per suit the most ranks three apart),
    plus its 財神."""
    kept = faced.count(WILD)
    for s in range(3):
        mask = 0
        for t in faced:
            if s * 9 <= t < s * 9 + 9:
                mask |= 1 << (t - s * 9)
        kept += _BUDAI_SUIT[mask]
    return kept + len({t for t in faced if t >= 27 and t != WILD})


def _budai_ranks_ok(v: int) -> bool:
    ranks = [r for r in range(9) if v >> r & 1]
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:], strict=False))


# for a suit's ranks held (a 9-bit mask): the most of them one 不搭 can use (ranks pairwise 3 apart)
_BUDAI_SUIT = [max(bin(m & v).count("1") for v in range(512) if _budai_ranks_ok(v)) for m in range(512)]


def _cs_budai_turn(inner: Callable[[Any], dict], margin: int) -> Callable[[Any], dict]:
    """Caishen turn: play for 正規不搭 (×4, a total: it wins on a discard too) when, with no meld, its steps
    from ready (13 − fitting tiles) are at least ``margin`` fewer than the shipped shanten's: the discard
    keeping most fitting tiles, then the most unseen tiles that would fit; else ``inner``."""

    def _turn(tb: Any) -> dict:
        cs = tb.wild
        if tb.melds or cs is None:
            return inner(tb)
        discards = {a["tile"]: a for a in tb.by_type["discard"]}
        if tb.by_type.get("angang") or tb.by_type.get("bugang"):
            return inner(tb)
        faced = cs_ai._faced(tb.hand, cs)
        rows = []
        for d in sorted(discards):
            if d == cs:
                continue
            rest = list(faced)
            rest.remove(face(d, cs))
            rows.append((13 - _cs_budai_kept(rest), d, rest))
        if not rows:
            return inner(tb)
        bs = min(r[0] for r in rows)
        s_best = min(cs_ai.hand_shanten(r[2], 0)[0] for r in rows)
        if bs > s_best - margin:
            return inner(tb)
        un = tb.unseen
        best = None
        for b, d, rest in rows:
            if b != bs:
                continue
            kept = 13 - b
            outs = sum(un[k] for k in range(34) if un[k] and _cs_budai_kept([*rest, face(k, cs)]) > kept)
            key = (-outs, cs_ai._keep_value(tb.counts, d), d)
            if best is None or key < best[0]:
                best = (key, d)
        assert best is not None
        return discards[best[1]]

    return _turn


def _cs_budai_claim(margin: int, inner: Callable[..., dict]) -> Callable[..., dict]:
    """Caishen: no 碰/吃/杠 while 正規不搭 is the target (``_cs_budai_turn``); else ``inner``."""

    def claim(tb: Any, *, on_pairs: bool) -> dict:
        cs = tb.wild
        if cs is not None and not tb.melds:
            faced = cs_ai._faced(tb.hand, cs)
            if 13 - _cs_budai_kept(faced) <= cs_ai.hand_shanten(faced, 0)[0] - margin:
                return tb.pass_action()
        return inner(tb, on_pairs=on_pairs)

    return claim


_CsHandShanten = cs_ai.hand_shanten


def _cs_pairs_bias(bias: int) -> Callable[[list[int], int], tuple[int, int]]:
    """Caishen ``ai.hand_shanten`` that reads a concealed hand as seven pairs also when that is up to ``bias``
    steps further than the ordinary hand: seven pairs win on a discard (×2, the discarder paying twice; ×4
    self-drawn), a plain hand only by self-draw (×2)."""

    def hand_shanten(faced: list[int], open_melds: int) -> tuple[int, int]:
        s, kind = _CsHandShanten(faced, open_melds)
        if kind == 1 or open_melds:
            return s, kind
        p = cs_ai.pairs_shanten(list(faced), open_melds)
        return (p, 1) if p <= s + bias else (s, kind)

    return hand_shanten
