"""How the ``normal`` computer player plays the 財神 (caishen) ruleset (RULES part B).

No pattern is needed there, only ×2: a plain hand wins by self-draw, seven pairs (×2) also on a
discard. So the player

* keeps its 財神 (never discards one, except to float it);
* plays for the nearer of an ordinary hand and seven pairs (shanten through ``jxbot.rulesets.caishen.rules``'
  face swap: 財神 wild, 白板 as the 財神's face), seven pairs winning ties (they win on discards);
* floats a 財神 (漂財, ×8 on the self-draw that follows) when the hand without it is still ready and
  the next draw wins often enough (``FLOAT_MIN_SHARE``);
* claims 碰/吃 only when that brings an ordinary hand closer, and never while playing seven pairs.

Deterministic: ties go to the tile least worth keeping, then the lowest kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from jxbot.ai import caishen_shanten
from jxbot.ai.claims import ClaimOption, best_claim
from jxbot.rules.melds import Meld
from jxbot.rules.shape import shanten
from jxbot.rules.tiles import WHITE

from .rules import WILD, analyse, face

if TYPE_CHECKING:
    from jxbot.ai.seatview import Table as _Table

UKEIRE_MAX_SHANTEN = 2  # count useful draws only this close to ready
FLOAT_INSTEAD_OF = 2  # give up a self-draw worth at most this (×) to float a 財神 …
# … when the next draw wins with at least this chance (a float lasts one draw). 漂財 once is ×8, a
# total (RULES B5), against a certain ×2: break-even near 25 %; bench/caishen_float.py measured every
# float below 20 % losing against the win it gave up, so the bar is 30 % …
FLOAT_MIN_SHARE = 0.30
FLOAT_MIN_WALL = 16  # … and at least this many tiles are left to draw


def _faced(tiles: list[int], cs: int | None) -> list[int]:
    return list(tiles) if cs is None else [face(t, cs) for t in tiles]


def pairs_shanten(faced: list[int], open_melds: int) -> int:
    """Seven-pairs shanten of a 13-tile (or 14-tile) faced hand; 99 with melds."""
    if open_melds:
        return 99
    counts = [0] * 34
    for t in faced:
        counts[t] += 1
    w = counts[WILD]
    pairs = sum(c // 2 for k, c in enumerate(counts) if k != WILD)
    singles = sum(c % 2 for k, c in enumerate(counts) if k != WILD)
    use = min(w, singles)
    total = pairs + use + (w - use) // 2
    return 6 - min(total, 7) - (1 if len(faced) == 14 and total >= 7 else 0)


def hand_shanten(faced: list[int], open_melds: int) -> tuple[int, int]:
    """(best shanten, 0 if the best is an ordinary hand else 1 for seven pairs).

    The nearer of ``shanten(faced, (), WILD)`` and ``pairs_shanten``, computed (exactly) and memoised by
    ``caishen_shanten``."""
    return caishen_shanten.hand_shanten(faced, open_melds)


def _keep_value(c: list[int], d: int) -> int:
    v = c[d] * 3
    if d < 27:
        r = d % 9
        for dd, wt in ((-1, 2), (1, 2), (-2, 1), (2, 1)):
            if 0 <= r + dd <= 8:
                v += c[d + dd] * wt
    return v


def _ukeire(faced13: list[int], open_melds: int, base: int, unseen: list[int], cs: int) -> int:
    """Unseen copies of the kinds whose draw lowers ``hand_shanten`` below ``base`` (caishen_shanten)."""
    return caishen_shanten.ukeire(faced13, open_melds, base, unseen, cs)


def best_discard(tb: _Table, candidates: list[int]) -> tuple[int, int, bool]:
    """(tile, shanten after it, floats): the discard a caishen player makes."""
    cs = tb.wild
    assert cs is not None
    melds = len(tb.melds)
    faced = _faced(tb.hand, cs)
    rows = []
    after = caishen_shanten.discard_shanten(faced, melds, [face(d, cs) for d in candidates])
    for d, (s, kind) in zip(candidates, after, strict=True):
        rest = list(faced)
        rest.remove(face(d, cs))
        rows.append((d, s, kind, rest))
    normal = [r for r in rows if r[0] != cs] or rows
    top = min((r[1], -r[2]) for r in normal)
    # float a 財神 when the hand without it is still ready (a self-draw then pays ×8)
    for d, s, _kind, _rest in rows:
        if d == cs and s == 0:
            return d, s, True
    tied = [r for r in normal if (r[1], -r[2]) == top]
    if len(tied) > 1 and top[0] <= UKEIRE_MAX_SHANTEN:
        un = tb.unseen
        scored = [(_ukeire(r[3], melds, r[1], un, cs), r) for r in tied]
        most = max(u for u, _ in scored)
        tied = [r for u, r in scored if u == most]
    c = tb.counts
    pick = min(tied, key=lambda r: (_keep_value(c, r[0]), r[0]))
    return pick[0], pick[1], False


def decide(tb: _Table, float_instead: Callable[[_Table], dict | None] | None = None) -> dict:
    """The action of a ``normal`` player at a caishen table (``tb.actions`` are the legal ones).
    ``float_instead`` replaces ``_float_instead`` (what declines a self-draw: the expert's, ``ai_expert``)."""
    bt = tb.by_type
    if tb.wild is None:  # no 財神 (a custom ruleset): play like a beginner that still wins
        return bt.get("tsumo", bt.get("hu", bt.get("discard", bt.get("pass", tb.actions))))[0]
    if "tsumo" in bt:
        return (float_instead or _float_instead)(tb) or bt["tsumo"][0]
    if "hu" in bt:
        return bt["hu"][0]
    if "persist" in bt:
        return bt["persist"][0]
    if "discard" in bt:
        return _turn(tb)
    return _claim(tb)


def _float_instead(tb: _Table) -> dict | None:
    """漂財 pays when the self-draw on offer is small and the hand stays ready without a 財神: the next
    self-draw is worth ×8 (a total, RULES B5). Returns the discard of a 財神, or None to take the win."""
    cs = tb.wild
    assert cs is not None
    if cs not in tb.hand or tb.drawn is None or tb.view.get("wall_remaining", 0) < FLOAT_MIN_WALL:
        return None
    floats = [a for a in tb.by_type.get("discard", []) if a["tile"] == cs]
    if not floats:
        return None
    melds = [Meld.from_json(m) for m in tb.view["seats"][tb.me]["melds"]]
    before = list(tb.hand)
    before.remove(tb.drawn)
    mult, _items, _p, ok = analyse(before, tb.drawn, melds, caishen=cs, self_draw=True)
    if not ok or mult > FLOAT_INSTEAD_OF:
        return None
    rest = _faced(tb.hand, cs)
    rest.remove(WILD)
    if hand_shanten(rest, len(melds))[0] != 0:
        return None
    unseen = tb.unseen
    if _ukeire(rest, len(melds), 0, unseen, cs) < FLOAT_MIN_SHARE * max(1, sum(unseen)):
        return None
    return floats[0]


def _turn(tb: _Table) -> dict:
    bt = tb.by_type
    discards = {a["tile"]: a for a in bt["discard"]}
    tile, s, _float = best_discard(tb, sorted(discards))
    cs = tb.wild
    on_pairs = pairs_shanten(_faced(tb.hand, cs), len(tb.melds)) <= s
    # kongs that leave the hand no further from ready (a free replacement draw, 杠底 ×2); not on pairs
    for a in bt.get("angang", []) + bt.get("bugang", []):
        if on_pairs:
            break
        rest = list(tb.hand)
        for _ in range(4 if a["type"] == "angang" else 1):
            rest.remove(a["tile"])
        if shanten(_faced(rest, cs), (), WILD) <= s:
            return a
    return discards[tile]


def _claim(tb: _Table) -> dict:
    return claim(tb, on_pairs=False)


def claim(tb: _Table, *, on_pairs: bool) -> dict:
    """碰/吃/杠 the discard that brings the hand nearest to ready, when nearer than it is (the nearer of an
    ordinary hand and seven pairs), else pass. While seven pairs is the nearer hand the normal player
    passes (``on_pairs`` False); the hard player claims then too (``ai_hard``)."""
    ld = tb.view.get("last_discard") or {}
    if ld.get("tile") is None or not tb.by_type.get("pass"):
        return tb.pass_action()
    cs = tb.wild
    assert cs is not None
    now, kind = hand_shanten(_faced(tb.hand, cs), len(tb.melds))
    if kind == 1 and not on_pairs:
        return tb.pass_action()

    def nearer(o: ClaimOption) -> tuple[int, None] | None:
        s = _claim_shanten(o, cs)
        return (s, None) if s < now else None

    best = best_claim(tb, nearer, face=lambda k: WHITE if k == cs else k)  # a run's 財神 kind: its face, 白板
    return best[0].action if best is not None else tb.pass_action()


def _claim_shanten(o: ClaimOption, cs: int) -> int:
    """Ordinary-hand shanten after the claim ``o`` (after a 碰/吃: after its best discard, never a 財神)."""
    f = _faced(o.tiles(), cs)
    if o.type == "gang":
        return shanten(f, (), WILD)
    outs = [i for i in range(len(f)) if f[i] != WILD] or list(range(len(f)))
    return min(shanten([*f[:i], *f[i + 1:]], (), WILD) for i in outs)
