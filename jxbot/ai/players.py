"""Computer players: ``normal`` (plays for a Jiaxing pattern) and ``easy`` (legal, plausible, weak).

A player is asked ``choose(view)`` with its seat view (docs/views.md); ``view["actions"]`` lists the
legal actions as JSON and the answer is always one of them. Players keep a little state per hand (the
target they are playing for, their random stream) and are deterministic given their seed and the
sequence of views. No clock, no global random.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import ComputerPlayer, _seed_int, make_player, register
from .claims import ClaimOption, best_claim
from .evaluate import IMPOSSIBLE, PUNGS, TARGETS, HandShape
from .seatview import (
    ANGANG,
    BUGANG,
    CHI,
    CONTRACT_CLAIMS,
    DISCARD,
    GANG,
    GIVE_UP,
    HU,
    PASS,
    PENG,
    PERSIST,
    TSUMO,
    Table,
    after_kong,
    ruleset_decision,
)

# names other modules import from here (the base class and the seat view moved to .base / .seatview)
__all__ = ["ANGANG", "BUGANG", "CHI", "CONTRACT_CLAIMS", "DISCARD", "GANG", "GIVE_UP", "HU", "PASS", "PENG",
           "PERSIST", "TSUMO", "ComputerPlayer", "EasyPlayer", "NormalPlayer", "Table", "_Table", "_seed_int",
           "after_kong", "make_player"]

_Table = Table

STICKY = 0.5  # bonus (in shanten) of the target already being played for: switch only for a strict gain
CONTRACT_STEP = 1.0  # shanten the normal player gives up rather than feed a seat its third claim in its suits


# ------------------------------------------------------------------------------------------------


class NormalPlayer(ComputerPlayer):
    """Plays for a pattern target, discards by target shanten and unseen useful tiles (ukeire)."""

    level = "normal"
    persist_max_shanten = 1  # contract decision: persist when this close to winning, else give up
    ukeire_max_shanten = 3  # count useful draws only this close to a win (cheaper tie-break further away)

    def _decide(self, tb: Table) -> dict:
        own = ruleset_decision(self.level, tb)  # caishen: jxbot.rulesets.caishen.ai / ai_hard
        if own is not None:
            return own
        bt = tb.by_type
        for win in (TSUMO, HU):
            if win in bt:
                return bt[win][0]
        if PERSIST in bt or GIVE_UP in bt:
            return self._contract(tb)
        if DISCARD in bt:
            return self._turn(tb)
        return self._claim(tb)

    # -- helpers --------------------------------------------------------------------------------
    def _score(self, s: int, t: int) -> float:
        return s - STICKY if t == self.target else s

    def _best_of(self, shape: HandShape) -> tuple[float, int, int]:
        """(biased shanten, shanten, target) of a 3k+1 hand."""
        best = (float(IMPOSSIBLE), IMPOSSIBLE, PUNGS)
        for t in TARGETS:
            s = shape.shanten(t)
            sc = self._score(s, t)
            if sc < best[0]:
                best = (sc, s, t)
        return best

    def _best_discard(self, shape: HandShape, tb: Table, candidates: Sequence[int],
                      danger: dict[int, int] | None = None, with_ukeire: bool = True
                      ) -> tuple[float, int, int, int]:
        """Best discard of a 3k+2 hand: (biased shanten after it, tile, shanten, target).

        Order: never the 百搭 if anything else can go; lowest target shanten (the current target
        wins ties); least contract danger; most useful unseen draws (ukeire, when close to a win);
        the second-best target's shanten (keep options); the tile least worth keeping.
        """
        wild = tb.wild
        target = self.target
        # A target's shanten before the discard bounds it after any discard from below, so a target
        # whose bound is already worse than the best found cannot win any row: skip its table.
        lbs = [shape.shanten(t) for t in TARGETS]
        bias = [STICKY if t == target else 0.0 for t in TARGETS]
        nonwild = [d for d in candidates if d != wild] or list(candidates)
        live: list[tuple[int, dict[int, int], float]] = []
        top_sc = float(IMPOSSIBLE)
        for t in sorted(TARGETS, key=lambda t: lbs[t] - bias[t]):
            if lbs[t] - bias[t] > top_sc or lbs[t] >= IMPOSSIBLE:
                break
            tab = shape.discard_shanten(t)
            live.append((t, tab, bias[t]))
            m = min(map(tab.__getitem__, nonwild)) - bias[t]
            if m < top_sc:
                top_sc = m
        dang = danger or {}
        rows = []
        top: tuple | None = None
        for d in candidates:
            best_sc, best_s, best_t = float(IMPOSSIBLE), IMPOSSIBLE, PUNGS
            for t, tab, b in live:
                sv = tab[d]
                if sv - b < best_sc:
                    best_sc, best_s, best_t = sv - b, sv, t
            dg = dang.get(d, 0) if dang else 0
            # a tile the seat with two claims on us wants (its meld suits) would bind a contract: worth a
            # step of shanten to keep (issue 18: the normal player fed a third claim in 15 % of hands)
            k0 = (d == wild, best_sc + (CONTRACT_STEP if dg >= 2 else 0.0), dg)
            rows.append((k0, best_s, best_t, d))
            if top is None or k0 < top:
                top = k0
        tied = [r for r in rows if r[0] == top]
        if len(tied) == 1:
            r = tied[0]
            return (r[0][1], r[3], r[1], r[2])
        if with_ukeire and tied[0][1] <= self.ukeire_max_shanten:
            cache: dict[tuple[int, int], int] = {}
            scored = []
            for r in tied:
                _k0, sv, bt, d = r
                # discarding a tile the target cannot use leaves the same useful draws: compute once
                off = d != wild and (bt == PUNGS and shape.counts[d] == 1 or bt != PUNGS and d < 27 and d // 9 != bt)
                ck = (bt, -1 if off else d)
                u = cache.get(ck)
                if u is None:
                    u = cache[ck] = shape.ukeire(bt, d, tb.unseen, sv)
                scored.append((u, r))
            most = max(u for u, _r in scored)
            tied = [r for u, r in scored if u == most]
            if len(tied) == 1:
                r = tied[0]
                return (r[0][1], r[3], r[1], r[2])
        tables = {t: tab for t, tab, _b in live}
        best_key: tuple | None = None
        best_row = tied[0]
        for r in tied:
            _k0, sv, bt, d = r
            second = IMPOSSIBLE
            for t in TARGETS:
                if t != bt:
                    x = tables[t][d] if t in tables else lbs[t]
                    if x < second:
                        second = x
            key = (second, self._keep_value(d, shape, bt), d)
            if best_key is None or key < best_key:
                best_key, best_row = key, r
        return (best_row[0][1], best_row[3], best_row[1], best_row[2])

    @staticmethod
    def _keep_value(d: int, shape: HandShape, target: int) -> int:
        """Tie-break: how much a tile is worth keeping (low = discard first)."""
        c = shape.counts
        v = c[d] * 3
        if d < 27:
            r = d % 9
            if r > 0:
                v += c[d - 1] * 2
            if r < 8:
                v += c[d + 1] * 2
            if r > 1:
                v += c[d - 2]
            if r < 7:
                v += c[d + 2]
            if target != PUNGS and d // 9 == target:
                v += 4
        return v

    def _danger(self, tb: Table) -> dict[int, int]:
        """Tiles whose discard could give some seat its third claim on us (a contract against us)."""
        view = tb.view
        if view.get("contract"):
            return {}
        me = tb.me
        risky: list[tuple[int, set[int]]] = []
        for s in view["seats"]:
            x = s["seat"]
            if x == me:
                continue
            n = sum(1 for m in s["melds"] if m.get("from_seat") == me)
            if n == CONTRACT_CLAIMS - 1:
                suits = {t // 9 if t < 27 else 3 for m in s["melds"] for t in m["tiles"][:1]}
                risky.append((x, suits))
        if not risky:
            return {}
        out: dict[int, int] = {}
        un = tb.unseen
        for d in set(tb.hand):
            if d == tb.wild:
                continue
            level = 0
            for x, suits in risky:
                can = un[d] >= 2  # the seat may hold a pair of it: 碰
                if not can and x == (me + 1) % 4 and d < 27:  # next seat may 吃
                    r = d % 9
                    for a in (d - 2, d - 1, d):
                        if (a // 9 == d // 9 and 0 <= a % 9 <= 6 and a % 9 <= r <= a % 9 + 2
                                and all(un[k] > 0 for k in (a, a + 1, a + 2) if k != d)):
                            can = True
                if can:
                    lv = 2 if (d // 9 if d < 27 else 3) in suits else 1
                    level = max(level, lv)
            if level:
                out[d] = level
        return out

    # -- decisions -------------------------------------------------------------------------------
    def _turn(self, tb: Table) -> dict:
        bt = tb.by_type
        shape = HandShape(tb.counts, tb.melds, tb.wild)
        discards = {a["tile"]: a for a in bt[DISCARD]}
        score, tile, s, t = self._best_discard(shape, tb, sorted(discards), self._danger(tb))
        self.target = t
        # kongs: declare when they cost nothing toward the target (a free replacement draw)
        for a in bt.get(ANGANG, []) + bt.get(BUGANG, []):
            sc, ks, kt = self._best_of(after_kong(tb, a))
            if sc <= score:
                self.target = kt
                return a
        return discards[tile]

    def _claim(self, tb: Table) -> dict:
        """碰 / 杠 / 吃 when it brings the hand strictly nearer to a target (a 杠: no further), the nearest
        first, then 杠 before 碰 before 吃; else pass."""
        if (tb.view.get("last_discard") or {}).get("tile") is None:
            return tb.pass_action()
        now_sc, _s, _t = self._best_of(HandShape(tb.counts, tb.melds, tb.wild))
        best = best_claim(tb, lambda o: self._claim_value(tb, o, now_sc))
        if best is None:
            return tb.pass_action()
        self.target = best[1]
        return best[0].action

    def _claim_value(self, tb: Table, o: ClaimOption, now_sc: float) -> tuple[tuple[float, int], int] | None:
        """The normal player's valuation of a claim (``jxbot.ai.claims``): (rank, target) or None."""
        sh = HandShape(o.counts, o.melds, tb.wild)
        if o.type == GANG:  # replacement draw follows: judge the 3k+1 hand as it stands
            sc, _s, t = self._best_of(sh)
            return ((sc, 0), t) if sc <= now_sc else None
        cands = [k for k in range(34) if o.counts[k]]
        if not cands:
            return None
        sc, _tile, _s, t = self._best_discard(sh, tb, cands, with_ukeire=False)
        return ((sc, 1 if o.type == PENG else 2), t) if sc < now_sc else None

    def _contract(self, tb: Table) -> dict:
        bt = tb.by_type
        shape = HandShape(tb.counts, tb.melds, tb.wild)
        s = min(shape.shanten(t) for t in TARGETS)
        want = PERSIST if s <= self.persist_max_shanten else GIVE_UP
        if want in bt:
            return bt[want][0]
        return tb.actions[0]


# ------------------------------------------------------------------------------------------------


class EasyPlayer(ComputerPlayer):
    """A beginner: wins when the button is offered, throws isolated tiles, sometimes calls 碰."""

    level = "easy"
    pung_rate = 0.35
    kong_rate = 0.3

    def _decide(self, tb: Table) -> dict:
        bt = tb.by_type
        rng = self._rng
        for win in (TSUMO, HU):
            if win in bt:
                return bt[win][0]
        if PERSIST in bt:
            return bt[PERSIST][0]
        if DISCARD in bt:
            tiles = sorted({a["tile"] for a in bt[DISCARD]})
            pool = [t for t in tiles if t != tb.wild] or tiles
            c = tb.counts
            isolated = [t for t in pool if c[t] == 1 and (t >= 27 or not any(
                0 <= t + d < 27 and (t + d) // 9 == t // 9 and c[t + d] for d in (-2, -1, 1, 2)))]
            pick = rng.choice(isolated or pool)
            return next(a for a in bt[DISCARD] if a["tile"] == pick)
        if GANG in bt and rng.random() < self.kong_rate:
            return bt[GANG][0]
        if PENG in bt and rng.random() < self.pung_rate:
            return bt[PENG][0]
        if PASS in bt:
            return bt[PASS][0]
        return tb.actions[0]


register(EasyPlayer)
register(NormalPlayer)
