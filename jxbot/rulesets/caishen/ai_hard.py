"""How the ``hard`` computer player plays the 財神 (caishen) ruleset (RULES part B).

It starts from the normal caishen player (``jxbot.rulesets.caishen.ai``: keep the 財神, the nearer of an
ordinary hand and seven pairs, float a 財神 when the hand stays ready) and adds:

* **value of a ready hand.** Among discards that leave the hand ready, it picks the one whose waits
  are worth most: the sum over the unseen tiles of the multiplier a self-draw of that tile would score
  (``jxbot.rulesets.caishen.rules.analyse``: 財神頭 ×4, 單釣財神頭 ×8, 財神會 ×4, seven pairs ×4 …) plus the one a
  win on a discard would score where a pattern allows it (財神頭 ×4, seven pairs ×2; a plain hand
  wins only by self-draw), not only the number of waits.
* **claims while on seven pairs.** It claims (碰/吃/杠) whenever that brings the hand nearer to ready
  than the nearer of its ordinary and seven-pairs readings, also while seven pairs is the nearer one
  (the normal player then passes): a claimed plain hand wins by self-draw like a concealed one.
* **大包 defence.** When the next seat has already chowed twice from this seat's discards, a tile it
  could chow a third time (大包: this seat would pay everyone's share) costs a step of shanten.

Wins and floats are the normal caishen player's. Deterministic: ties go to the tile least
worth keeping, then the lowest kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jxbot.rules.melds import Meld

from . import ai as caishen
from .rules import analyse, face

if TYPE_CHECKING:
    from jxbot.ai.seatview import Table as _Table

DABAO_STEP = 1.0  # shanten given up rather than feed the next seat its third chow (大包)
RON_WEIGHT = 1  # a wait's win on a discard (a pattern hand: 財神頭 ×4, seven pairs ×2) against a self-draw


def _dabao_risk(tb: _Table) -> set[int]:
    """Tiles the next seat could chow for its third chow on our discards (empty when no risk)."""
    from jxbot.rules.ruleset import RULESETS

    rs = RULESETS.get(tb.view.get("ruleset") or "caishen")
    need = getattr(rs, "cs_dabao_chows", 3) if rs is not None else 3
    if need <= 0:
        return set()
    nxt = (tb.me + 1) % 4
    s = tb.view["seats"][nxt]
    fed = sum(1 for m in s["melds"] if m["kind"] == "chow" and m.get("from_seat") == tb.me)
    if fed != need - 1:
        return set()
    un = tb.unseen
    out: set[int] = set()
    for d in set(tb.hand):
        if d >= 27 or d == tb.wild:
            continue
        r = d % 9
        for a in (d - 2, d - 1, d):
            if a // 9 == d // 9 and 0 <= a % 9 <= 6 and a % 9 <= r <= a % 9 + 2 and all(
                    un[k] > 0 for k in (a, a + 1, a + 2) if k != d):
                out.add(d)
    return out


def _ready_value(tb: _Table, rest: list[int], melds: list[Meld]) -> int:
    """Σ over unseen kinds of copies unseen × (the multiplier a self-draw of it would score + the one a
    win on a discard would, when that win is allowed: ×2 or more)."""
    cs = tb.wild
    assert cs is not None
    un = tb.unseen
    total = 0
    for k in range(34):
        if not un[k]:
            continue
        mult, _items, _p, ok = analyse(rest, k, melds, caishen=cs, self_draw=True)
        if ok and mult >= 2:
            total += un[k] * mult
        # a pattern hand also wins on the others' discards (plain hands need the self-draw)
        rm, _i, _p, rok = analyse(rest, k, melds, caishen=cs, self_draw=False)
        if rok and rm >= 2:
            total += RON_WEIGHT * un[k] * rm
    return total


def fastest(tb: _Table, discards: dict[int, dict]) -> list[list]:
    """The discards nearest to ready (a 財神 only when nothing else can go; a 大包 risk costs ``DABAO_STEP``),
    ties of an ordinary hand before seven pairs: rows [steps, -kind, tile, the faced rest, shanten]."""
    cs = tb.wild
    assert cs is not None
    risk = _dabao_risk(tb)
    melds_n = len(tb.melds)
    faced = [face(t, cs) for t in tb.hand]
    rows = []
    for d in sorted(discards):
        if d == cs and len(discards) > 1:
            continue
        rest = list(faced)
        rest.remove(face(d, cs))
        s, kind = caishen.hand_shanten(rest, melds_n)
        rows.append([s + (DABAO_STEP if d in risk else 0.0), -kind, d, rest, s])
    if not rows:
        return []
    top = min((r[0], r[1]) for r in rows)
    return [r for r in rows if (r[0], r[1]) == top]


def _turn(tb: _Table) -> dict:
    bt = tb.by_type
    cs = tb.wild
    assert cs is not None
    discards = {a["tile"]: a for a in bt["discard"]}
    tile, s0, floats = caishen.best_discard(tb, sorted(discards))
    if floats or bt.get("angang") or bt.get("bugang"):
        return caishen._turn(tb)  # floats and kongs as the normal player
    melds_n = len(tb.melds)
    tied = fastest(tb, discards)
    if not tied:
        return discards[tile]
    if len(tied) > 1:
        if tied[0][4] == 0:  # ready: the waits' worth
            melds = [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]
            scored = []
            for r in tied:
                real = list(tb.hand)
                real.remove(r[2])
                scored.append((_ready_value(tb, real, melds), r))
        elif tied[0][4] <= caishen.UKEIRE_MAX_SHANTEN:
            scored = [(caishen._ukeire(r[3], melds_n, r[4], tb.unseen, cs), r) for r in tied]
        else:
            scored = [(0, r) for r in tied]
        most = max(u for u, _ in scored)
        tied = [r for u, r in scored if u == most]
    c = tb.counts
    pick = min(tied, key=lambda r: (caishen._keep_value(c, r[2]), r[2]))
    return discards[pick[2]]


def _claim(tb: _Table) -> dict:
    """碰/吃/杠 a discard when that brings the hand nearer to ready than it is (the nearer of an ordinary
    hand and seven pairs). Unlike the normal player it also claims while seven pairs is the nearer
    hand: a claimed plain hand wins by self-draw like a concealed one, so speed is what pays (measured:
    passing every chow loses 0.4 silver a hand against the normal field)."""
    return caishen.claim(tb, on_pairs=True)


def decide(tb: _Table) -> dict:
    """The action of a ``hard`` player at a caishen table (``tb.actions`` are the legal ones)."""
    bt = tb.by_type
    if tb.wild is not None and "discard" not in bt and "tsumo" not in bt and "hu" not in bt \
            and "persist" not in bt:
        return _claim(tb)
    if tb.wild is None or "tsumo" in bt or "hu" in bt or "discard" not in bt:
        return caishen.decide(tb)
    return _turn(tb)
