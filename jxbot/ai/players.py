"""Computer players: ``normal`` (plays for a Jiaxing pattern) and ``easy`` (legal, plausible, weak).

A player is asked ``choose(view)`` with its seat view (docs/views.md); ``view["actions"]`` lists the
legal actions as JSON and the answer is always one of them. Players keep a little state per hand (the
target they are playing for, their random stream) and are deterministic given their seed and the
sequence of views. No clock, no global random.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from ..game.actions import Action, action_from_json
from .evaluate import IMPOSSIBLE, PUNGS, TARGET_NAMES, TARGETS, HandShape

LEVELS = ("easy", "normal", "hard")

# action type strings (ActionType values; kept as plain strings because views are JSON)
DISCARD, TSUMO, ANGANG, BUGANG = "discard", "tsumo", "angang", "bugang"
HU, PENG, GANG, CHI, PASS = "hu", "peng", "gang", "chi", "pass"
PERSIST, GIVE_UP = "persist", "give_up"

STICKY = 0.5  # bonus (in shanten) of the target already being played for: switch only for a strict gain
CONTRACT_CLAIMS = 3  # RULES A8: the third claim on the same seat binds the two seats
CONTRACT_STEP = 1.0  # shanten the normal player gives up rather than feed a seat its third claim in its suits


def _seed_int(seed: int | str, salt: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{salt}:{seed}".encode()).digest()[:8], "big")


def _ruleset_decision(level: str, tb: _Table) -> dict | None:
    """The ruleset's own play at this level (``RulesetPlugin.decide``), None for the core player's."""
    from jxbot.rulesets import behaviour, of_view

    p = of_view(tb.view)
    return behaviour(p.data).decide(level, tb)


class _Table:
    """What a seat view says, unpacked once per decision."""

    __slots__ = ("me", "hand", "drawn", "wild", "melds", "counts", "_unseen", "actions", "by_type", "view")

    def __init__(self, view: dict) -> None:
        self.view = view
        me = view["viewer"]
        self.me = me
        self.wild = view.get("wildcard")
        self.drawn = view.get("drawn")
        hand = list(view.get("hand") or ())
        if self.drawn is not None:
            hand.append(self.drawn)
        self.hand = hand
        counts = [0] * 34
        for t in hand:
            counts[t] += 1
        self.counts = counts
        self.melds = [("chow" if m["kind"] == "chow" else "pung", m["tiles"][0])
                      for m in view["seats"][me]["melds"]]
        self._unseen: list[int] | None = None
        self.actions = view.get("actions") or []
        by_type: dict[str, list[dict]] = {}
        for a in self.actions:
            by_type.setdefault(a["type"], []).append(a)
        self.by_type = by_type

    @property
    def unseen(self) -> list[int]:
        """Copies of each kind this seat cannot see (not in its hand, any meld, discard or the indicator)."""
        if self._unseen is None:
            seen = self.counts.copy()
            ind = self.view.get("indicator")
            if ind is not None:
                seen[ind] += 1
            for s in self.view["seats"]:
                for m in s["melds"]:
                    for t in m["tiles"]:
                        seen[t] += 1
                for d in s["discards"]:
                    if not d["claimed"]:
                        seen[d["tile"]] += 1
            self._unseen = [4 - x if x < 4 else 0 for x in seen]
        return self._unseen


Table = _Table  # public: a ruleset's own players (RulesetPlugin.decide) read the same unpacked view


def after_kong(tb: _Table, a: dict) -> HandShape:
    """The hand's shape once the kong ``a`` (暗杠 or 补杠) is declared, before its replacement draw."""
    k = a["tile"]
    c = tb.counts.copy()
    melds = list(tb.melds)
    if a["type"] == ANGANG:
        c[k] -= 4
        melds.append(("kong", k))
    else:
        c[k] -= 1
    return HandShape(c, melds, tb.wild)


class ComputerPlayer:
    """Base class: dispatches on the kind of decision the view asks for."""

    level = "base"

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(_seed_int(seed, self.level))
        self._hand_id: object = None
        self.target: int | None = None

    def _new_hand(self, view: dict) -> None:
        hid = view.get("hand_id")
        if hid != self._hand_id:
            self._hand_id = hid
            self.target = None

    def choose(self, view: dict) -> Action:
        actions = view.get("actions") or []
        if not actions:
            raise ValueError("choose() called with a view that has no legal actions")
        self._new_hand(view)
        if len(actions) == 1:
            return action_from_json(actions[0])
        if view["seats"][view["viewer"]].get("escaped"):
            # RULES A10: an escaped seat always persists (坚持), so an escape never lowers what it owes
            persist = next((a for a in actions if a["type"] == PERSIST), None)
            if persist is not None:
                return action_from_json(persist)
        tb = _Table(view)
        a = self._decide(tb)
        return action_from_json(a)

    def _decide(self, tb: _Table) -> dict:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def target_name(self) -> str | None:
        return None if self.target is None else TARGET_NAMES[self.target]


# ------------------------------------------------------------------------------------------------


class NormalPlayer(ComputerPlayer):
    """Plays for a pattern target, discards by target shanten and unseen useful tiles (ukeire)."""

    level = "normal"
    persist_max_shanten = 1  # contract decision: persist when this close to winning, else give up
    ukeire_max_shanten = 3  # count useful draws only this close to a win (cheaper tie-break further away)

    def _decide(self, tb: _Table) -> dict:
        own = _ruleset_decision("normal", tb)  # caishen: keep 財神, value seven pairs, float when it pays
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

    def _best_discard(self, shape: HandShape, tb: _Table, candidates: Sequence[int],
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

    def _danger(self, tb: _Table) -> dict[int, int]:
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
    def _turn(self, tb: _Table) -> dict:
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

    def _claim(self, tb: _Table) -> dict:
        bt = tb.by_type
        ld = tb.view.get("last_discard") or {}
        x = ld.get("tile")
        passes = bt.get(PASS)
        if x is None:
            return passes[0] if passes else tb.actions[0]
        shape = HandShape(tb.counts, tb.melds, tb.wild)
        now_sc, now_s, now_t = self._best_of(shape)
        best: tuple | None = None
        for a in bt.get(PENG, []) + bt.get(GANG, []) + bt.get(CHI, []):
            c = tb.counts.copy()
            melds = list(tb.melds)
            typ = a["type"]
            if typ == PENG:
                c[x] -= 2
                melds.append(("pung", x))
            elif typ == GANG:
                c[x] -= 3
                melds.append(("kong", x))
            else:
                lo = a["tile"]
                for k in (lo, lo + 1, lo + 2):
                    if k != x:
                        c[k] -= 1
                melds.append(("chow", lo))
            if min(c) < 0:
                continue
            sh = HandShape(c, melds, tb.wild)
            if typ == GANG:  # replacement draw follows: judge the 3k+1 hand as it stands
                sc, s, t = self._best_of(sh)
                ok = sc <= now_sc
                rank = (sc, 0)
            else:
                cands = sorted({k for k in range(34) if c[k]})
                if not cands:
                    continue
                sc, _tile, s, t = self._best_discard(sh, tb, cands, with_ukeire=False)
                ok = sc < now_sc
                rank = (sc, 1 if typ == PENG else 2)
            if ok and (best is None or rank < best[0]):
                best = (rank, a, t)
        if best is not None:
            self.target = best[2]
            return best[1]
        return passes[0] if passes else tb.actions[0]

    def _contract(self, tb: _Table) -> dict:
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

    def _decide(self, tb: _Table) -> dict:
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


def make_player(level: str, seed: int | str) -> ComputerPlayer:
    """A computer player of ``level`` ("easy" | "normal" | "hard"), deterministic given ``seed``."""
    if level == "hard":
        from .hard import HardPlayer

        return HardPlayer(seed)
    if level == "normal":
        return NormalPlayer(seed)
    if level == "easy":
        return EasyPlayer(seed)
    raise ValueError(f"unknown computer level {level!r}; known: {', '.join(LEVELS)}")
