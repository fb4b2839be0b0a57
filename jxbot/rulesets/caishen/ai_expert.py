"""How the ``expert`` computer player's proposer plays the 財神 (caishen) ruleset (RULES part B).

It is the hard caishen player (``jxbot.rulesets.caishen.ai_hard``) playing for **單釣財神頭**: four sets and a
lone 財神 win on every tile but a float, ×8 on a discard or a self-draw (a floated second 財神 makes it 單釣漂財,
×16 on the next draw). The hard player takes any win on offer; a 財神頭 win (×4) is always four sets and
財神 + X, one discard away from ×8 on any tile. So, with at least ``MIN_WALL`` tiles left to draw, it

* **declines a small self-draw** (below ×8) when discarding X leaves four sets and a lone 財神, and floats a
  second 財神 instead of a self-draw below ×16 when that is the X;
* **declines a plain ×2 self-draw** with a 財神 in hand for the discard that leaves the 財神頭 wait (it wins on
  a discard, ×4) on the most unseen tiles, when at least ``DECLINE_HEAD_MIN``;
* **claims a discard offered as a 胡 below ×8** (碰/吃/杠) when the hand is then four sets, a 財神 and X,
  and then discards X; after any claim that leaves four sets, a 財神 and X it discards X;
* **among equally fast discards** (the hard player's shanten and dabao keys) prefers the one fewer steps from
  a 財神頭 wait, before the useful draws, while the hand holds a 財神 and is not ready;
* **claims to reach a 財神頭 wait** (碰/吃, not 杠) on at least 2 unseen tiles when the hand holds a 財神 and
  is not one already; other claims are the hard player's.

Everything else (wins ≥ ×8, floats when the hand stays ready, kongs, 大包 defence, ready-hand values) is the
hard player's. Measured (bench/proposer_headroom.py, the variants ``cs_singleclaim+cs_decline2+cs_headfirst+
cs_claimhead``, which this module writes out as plain code): +2.18 silver a hand [+1.83, +2.53] against a hard
field, duplicate, 1,000 walls of the seed ``hx-screen``. Deterministic: ties as the hard player's, then the
lowest kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jxbot.ai.claims import ClaimOption, best_claim
from jxbot.rules.melds import Meld
from jxbot.rules.shape import shanten
from jxbot.rules.tiles import WHITE

from . import ai as caishen
from . import ai_hard
from .rules import WILD, _sets_only, analyse, face

if TYPE_CHECKING:
    from jxbot.ai.seatview import Table as _Table

MIN_WALL = 8  # these plays need this many tiles left to draw (else the hard player's)
DECLINE_HEAD_MIN = 2  # decline a ×2 self-draw for a 財神頭 wait on at least this many unseen tiles
CLAIM_HEAD_MIN = 2  # claim to a 財神頭 wait on at least this many unseen tiles


def decide(tb: _Table) -> dict:
    """The action of the expert's proposer at a caishen table (``tb.actions`` are the legal ones): the
    dispatch of ``ai_hard.decide`` with this module's claim, win and turn."""
    bt = tb.by_type
    if tb.wild is not None and "discard" not in bt and "tsumo" not in bt and "hu" not in bt \
            and "persist" not in bt:
        return _claim(tb)
    if tb.wild is None or "tsumo" in bt or "hu" in bt or "discard" not in bt:
        return _win(tb)
    return _turn(tb)


def _melds(tb: _Table) -> list[Meld]:
    return [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]


def _single_head_discards(tb: _Table) -> list[int]:
    """The discards after which the hand is four sets and a lone 財神 (單釣財神頭)."""
    cs = tb.wild
    assert cs is not None
    faced = caishen._faced(tb.hand, cs)
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


def _head_wait_count(tb: _Table, rest: list[int], melds: list[Meld]) -> int:
    """Unseen copies of the kinds that complete ``rest`` (13 tiles) as 財神頭 or 單釣財神頭 on a discard."""
    cs = tb.wild
    assert cs is not None
    un = tb.unseen
    n = 0
    for k in range(34):
        if un[k]:
            _m, _i, pats, ok = analyse(rest, k, melds, caishen=cs, self_draw=False)
            if ok and ("caishen_head" in pats or "single_caishen_head" in pats):
                n += un[k]
    return n


def _head_shanten(faced13: list[int]) -> int:
    """Steps from a 財神頭 wait (0: a 財神 and X pair off and the rest is three sets and a partial), read as
    the ordinary shanten with one 財神 swapped for a pair of a phantom honour held nowhere: 99 without a
    財神 (or with no honour kind free)."""
    if WILD not in faced13:
        return 99
    free = [k for k in range(27, 34) if k != WILD and k not in faced13]
    if not free:
        return 99
    rest = list(faced13)
    rest.remove(WILD)
    return shanten([*rest, free[0], free[0]], (), WILD)


# -- wins ------------------------------------------------------------------------------------------------
def _win(tb: _Table) -> dict:
    """Offered a 胡 on a discard worth less than ×8, 碰/吃/杠 it instead when the hand is then four sets, a
    財神 and X (X goes next: ``_turn``); else the normal caishen dispatch with this module's self-draw."""
    bt = tb.by_type
    cs = tb.wild
    if cs is None or "hu" not in bt or tb.view.get("wall_remaining", 0) < MIN_WALL:
        return caishen.decide(tb, float_instead=_float_instead)
    ld = tb.view.get("last_discard") or {}
    mult, _i, _p, ok = analyse(tb.hand, ld["tile"], _melds(tb), caishen=cs, self_draw=False)
    if ok and mult >= 8:
        return caishen.decide(tb, float_instead=_float_instead)

    def single(o: ClaimOption) -> tuple[int, None] | None:
        faced = caishen._faced(o.tiles(), cs)
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
    return best[0].action if best is not None else caishen.decide(tb, float_instead=_float_instead)


def _float_instead(tb: _Table) -> dict | None:
    """The discard that declines the self-draw on offer, or None to take it: X for 單釣財神頭 (below ×8), a
    second 財神 for 單釣漂財 (below ×16), the best 財神頭 wait for a ×2 win; else the normal player's float."""
    cs = tb.wild
    if cs is None or tb.drawn is None or tb.view.get("wall_remaining", 0) < MIN_WALL:
        return caishen._float_instead(tb)
    melds = _melds(tb)
    before = list(tb.hand)
    before.remove(tb.drawn)
    mult, _items, _p, ok = analyse(before, tb.drawn, melds, caishen=cs, self_draw=True)
    opts = _single_head_discards(tb)
    acts = {a["tile"]: a for a in tb.by_type.get("discard", [])}
    if cs in opts and cs in acts and mult < 16:
        return acts[cs]
    plain = [d for d in opts if d != cs and d in acts]
    if plain and mult < 8:
        return acts[plain[0]]
    if ok and mult <= 2 and cs in tb.hand:
        d = _best_head_wait(tb, melds, acts)
        if d is not None:
            return acts[d]
    return caishen._float_instead(tb)


def _best_head_wait(tb: _Table, melds: list[Meld], acts: dict) -> int | None:
    """The discard (not a 財神) leaving the most unseen tiles that win as 財神頭 (on a discard too), when at
    least ``DECLINE_HEAD_MIN``; else None."""
    best: tuple[int, int] | None = None
    for d in sorted(set(tb.hand)):
        if d == tb.wild or d not in acts:
            continue
        rest = list(tb.hand)
        rest.remove(d)
        n = _head_wait_count(tb, rest, melds)
        if n >= DECLINE_HEAD_MIN and (best is None or n > best[0]):
            best = (n, d)
    return None if best is None else best[1]


# -- turns -----------------------------------------------------------------------------------------------
def _turn(tb: _Table) -> dict:
    """``ai_hard._turn`` with X discarded when that leaves four sets and a lone 財神, and one more key among
    discards equally near ready: the steps from a 財神頭 wait (``_head_shanten``), before the useful draws."""
    bt = tb.by_type
    cs = tb.wild
    assert cs is not None
    discards = {a["tile"]: a for a in bt["discard"]}
    plain = [d for d in _single_head_discards(tb) if d != cs and d in discards]
    if plain:
        return discards[plain[0]]
    if cs not in tb.hand:
        return ai_hard._turn(tb)
    _tile, _s0, floats = caishen.best_discard(tb, sorted(discards))
    if floats or bt.get("angang") or bt.get("bugang"):
        return ai_hard._turn(tb)
    melds_n = len(tb.melds)
    tied = ai_hard.fastest(tb, discards)
    if len(tied) < 2 or tied[0][4] == 0:
        return ai_hard._turn(tb)  # one fastest discard, or ready: the waits' worth decides
    c = tb.counts
    keyed = []
    for _k, _kind, d, rest, sh in tied:
        u = int(caishen._ukeire(rest, melds_n, sh, tb.unseen, cs)) if sh <= caishen.UKEIRE_MAX_SHANTEN else 0
        keyed.append(((_head_shanten(rest), -u), caishen._keep_value(c, d), d))
    return discards[min(keyed)[2]]


# -- claims ----------------------------------------------------------------------------------------------
def _claim(tb: _Table) -> dict:
    """碰/吃 a discard when the hand holds a 財神, is not a 財神頭 wait now and the claim with its best discard
    makes one on at least ``CLAIM_HEAD_MIN`` unseen tiles (the most such tiles wins); else the hard claim."""
    cs = tb.wild
    ld = tb.view.get("last_discard") or {}
    if cs is None or cs not in tb.hand or ld.get("tile") is None or not tb.by_type.get("pass") \
            or tb.view.get("wall_remaining", 0) < MIN_WALL:
        return caishen.claim(tb, on_pairs=True)
    if _head_shanten(caishen._faced(tb.hand, cs)) == 0:
        return caishen.claim(tb, on_pairs=True)
    melds = _melds(tb)

    def head(o: ClaimOption) -> tuple[int, None] | None:
        if o.type == "gang":
            return None
        tiles = o.tiles()
        best = 0
        for e in sorted(set(tiles)):
            if e == cs:
                continue
            rest = list(tiles)
            rest.remove(e)
            if _head_shanten(caishen._faced(rest, cs)) != 0:
                continue
            best = max(best, _head_wait_count(tb, rest, melds))
        return (-best, None) if best >= CLAIM_HEAD_MIN else None

    got = best_claim(tb, head, face=lambda k: WHITE if k == cs else k)
    return got[0].action if got is not None else caishen.claim(tb, on_pairs=True)
